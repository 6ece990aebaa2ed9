package local_test

import (
	"testing"

	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/engine/local/storetest"
)

// TestMemoryStore runs the Store conformance suite on the memory store.
func TestMemoryStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) local.Store { return local.NewMemoryStore(local.MemoryOptions{}) })
}
