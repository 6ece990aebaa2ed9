package operaton

import (
	"net/http/httptest"
	"testing"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/internal/enginetest"
	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/engine/rest"
)

// TestProcessesOverHTTP runs the process suite through this client against
// engine/rest serving the embedded engine over real HTTP: the expectations
// are the ones the embedded engine meets in-process.
func TestProcessesOverHTTP(t *testing.T) {
	enginetest.Processes(t, func(t *testing.T) engine.ProcessEngine {
		srv := httptest.NewServer(rest.NewHandler(local.New(local.Options{}), rest.Options{}))
		t.Cleanup(srv.Close)
		c, err := New(Config{BaseURL: srv.URL + "/engine-rest"})
		if err != nil {
			t.Fatal(err)
		}
		return c
	})
}
