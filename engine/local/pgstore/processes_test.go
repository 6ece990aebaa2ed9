package pgstore_test

import (
	"testing"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/internal/enginetest"
	"github.com/regelkit/regelkit/engine/local/pgstore/pgtest"
)

// TestProcesses runs the process side's behavioural suite on an engine
// whose state lives in PostgreSQL, each subtest on a fresh database.
func TestProcesses(t *testing.T) {
	enginetest.Processes(t, func(t *testing.T) engine.ProcessEngine {
		return newEngine(t, pgtest.New(t).Pool(t))
	})
}
