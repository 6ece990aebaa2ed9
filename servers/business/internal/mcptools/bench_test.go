package mcptools_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/servers/business/internal/mcptools"
)

// BenchmarkNewServer is the per-request cost of the stateless MCP
// endpoint: building the caller's server.
func BenchmarkNewServer(b *testing.B) {
	o := mcptools.Options{Engine: local.New(local.Options{})}
	for b.Loop() {
		_ = mcptools.NewServer(o, mcptools.Caller{Tenant: "heusden"})
	}
}

// BenchmarkListTools is one tools/list through an in-memory session.
func BenchmarkListTools(b *testing.B) {
	ctx := context.Background()
	srv := mcptools.NewServer(mcptools.Options{Engine: local.New(local.Options{})}, mcptools.Caller{})
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "b", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	for b.Loop() {
		if _, err := cs.ListTools(ctx, nil); err != nil {
			b.Fatal(err)
		}
	}
}
