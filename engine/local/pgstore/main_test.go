package pgstore_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/regelkit/regelkit/engine/local/pgstore/pgtest"
)

// childEnv switches the test binary into the worker that TestKill9 starts
// and kills: its value is the database URL.
const childEnv = "REGELKIT_PGSTORE_KILL_CHILD"

func TestMain(m *testing.M) {
	if url := os.Getenv(childEnv); url != "" {
		// The child never starts a cluster of its own: it works on the
		// parent's database until the parent kills it.
		if err := runWorker(url); err != nil {
			fmt.Fprintln(os.Stderr, "worker:", err)
			os.Exit(2)
		}
		os.Exit(0)
	}
	pgtest.Main(m)
}
