package local

import (
	"testing"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/internal/enginetest"
)

// TestProcesses runs the behavioural suite on the memory store.
func TestProcesses(t *testing.T) {
	enginetest.Processes(t, func(t *testing.T) engine.ProcessEngine { return New(Options{}) })
}
