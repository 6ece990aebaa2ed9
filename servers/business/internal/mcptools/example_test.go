package mcptools_test

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/servers/business/internal/mcptools"
)

// ExampleNewServer connects an MCP client in memory to the tools of one
// caller and lists the decisions it may see.
func ExampleNewServer() {
	ctx := context.Background()
	srv := mcptools.NewServer(mcptools.Options{Engine: local.New(local.Options{})}, mcptools.Caller{Tenant: "heusden"})
	serverSide, clientSide := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, serverSide, nil)
	if err != nil {
		panic(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "1"}, nil).Connect(ctx, clientSide, nil)
	if err != nil {
		panic(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "decision_list", Arguments: map[string]any{"maxResults": 20}})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	// Output:
	// {
	//  "count": 0,
	//  "definitions": []
	// }
}
