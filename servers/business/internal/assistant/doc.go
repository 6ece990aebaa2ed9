// Package assistant runs the business API's AI assistant: one chat turn is
// an agentic loop between a language model, streamed from the Anthropic
// Messages or OpenAI Chat Completions API, and the tools of the selected
// MCP providers, forwarded to the browser as server-sent events (status,
// delta, done, error).
//
// The one call a newcomer needs is New; its handlers are mounted behind
// the role guard (Catalog is the tool providers, see package mcptools):
//
//	svc := assistant.New(assistant.Options{Enabled: true, AnthropicKey: key, Catalog: catalog})
//	router.Handle("POST", "/v1/mcp/chat", guard(svc.HandleChat), op)
//
// Every input is bounded: the message and history (count and bytes), the
// provider's stream (bytes per event, bytes of a tool call's arguments),
// the rounds of tool calls (10), each tool call (60 s) and its result
// (12,000 characters), and the turn (480 s). The chat text is never logged
// and never audited: the log line of a turn names the user, the model, the
// rounds, the tools called and the duration.
package assistant
