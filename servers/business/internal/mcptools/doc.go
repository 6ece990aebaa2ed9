// Package mcptools provides regelkit's tools to language models through the
// Model Context Protocol (the official Go SDK): in-process providers over
// regelkit's own packages (the decision engine, the knowledge graph and,
// given an asset store, the explorer's bundles, forms and documents), the
// providers whose backing service this server lacks (their tools answer
// "not configured"), and external MCP servers reached over Streamable HTTP
// or stdio. The same in-process tools are served to any MCP client.
//
// Every tool is read-only and sees the caller's tenant: decision lists
// hold the caller's and the untenanted definitions, evaluation sets the
// municipality variable to the caller's tenant, the asset tools show the
// assets without an organisation and those of the caller's.
//
// The one call a newcomer needs is NewServer, for one caller:
//
//	srv := mcptools.NewServer(opts, mcptools.Caller{Tenant: "0363"})
//	session, err := srv.Connect(ctx, transport, nil)
//
// Catalog (the assistant's tool providers, built per turn for the caller)
// and Handler (the MCP endpoint: one server whose tool calls act for the
// caller of their own request) serve the same tools.
package mcptools
