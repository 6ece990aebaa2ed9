package server

import (
	"testing"

	"github.com/regelkit/regelkit/engine/local/pgstore/pgtest"
)

// TestMain stops the throwaway PostgreSQL cluster (started on first use by
// pgtest.New) when the tests are done.
func TestMain(m *testing.M) { pgtest.Main(m) }
