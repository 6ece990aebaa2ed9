package pgstore_test

import (
	"testing"

	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/engine/local/storetest"
)

// TestConformance runs engine/local's Store conformance suite on
// PostgreSQL, each subtest on a fresh database.
func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) local.Store { return openStore(t) })
}
