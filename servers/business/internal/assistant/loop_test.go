package assistant_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/servers/business/internal/assistant"
	"github.com/regelkit/regelkit/servers/business/internal/mcptools"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
)

// serve mounts the chat handler on a real HTTP server; errors are the
// failure envelope as the router writes it.
func serve(t *testing.T, svc *assistant.Service) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := svc.HandleChat(w, r); err != nil {
			var e *httpapi.Error
			if !errors.As(err, &e) {
				e = httpapi.NewError(500, "INTERNAL", err.Error())
			}
			_ = httpapi.WriteError(w, e)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// anthropicStream writes the events of one Anthropic turn.
func anthropicStream(w http.ResponseWriter, events ...string) {
	for _, e := range events {
		fmt.Fprintf(w, "data: %s\n\n", e)
	}
	w.(http.Flusher).Flush()
}

func toolUse(id, name, args string) []string {
	a, _ := json.Marshal(args)
	return []string{
		`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"` + id + `","name":"` + name + `"}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":` + string(a) + `}}`,
		`{"type":"message_delta","delta":{"stop_reason":"tool_use"}}`,
		`{"type":"message_stop"}`,
	}
}

func newService(t *testing.T, model http.Handler, catalog assistant.Catalog, o assistant.Options) *httptest.Server {
	t.Helper()
	up := httptest.NewServer(model)
	t.Cleanup(up.Close)
	o.Enabled, o.AnthropicKey, o.AnthropicBaseURL, o.Catalog = true, "k", up.URL, catalog
	return serve(t, assistant.New(o))
}

func chat(t *testing.T, srv *httptest.Server) string {
	t.Helper()
	resp, err := http.Post(srv.URL, "application/json", strings.NewReader(`{"message":"hoi","modelId":"claude-sonnet-4-20250514"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

func engineCatalog() *mcptools.Catalog {
	return mcptools.NewCatalog(mcptools.Options{Engine: local.New(local.Options{})}, nil)
}

// TestMaxRounds: a model that never stops calling tools gets 10 rounds,
// then the refine message and done.
func TestMaxRounds(t *testing.T) {
	var calls atomic.Int32
	model := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := calls.Add(1)
		anthropicStream(w, toolUse(fmt.Sprint("toolu_", n), "decision_list", `{}`)...)
	})
	body := chat(t, newService(t, model, engineCatalog(), assistant.Options{}))
	want := strings.Repeat(`data: {"type":"status","message":"Calling decision_list…"}`+"\n\n", 10) +
		`data: {"type":"delta","text":"Maximum tool call rounds reached. Please refine your question."}` + "\n\n" +
		`data: {"type":"done"}` + "\n\n"
	if body != want || calls.Load() != 10 {
		t.Errorf("%d model calls, stream:\n%s", calls.Load(), body)
	}
}

// TestTurnTimeout: a turn past its deadline ends with one TIMEOUT error;
// keep-alive comments flow while the model is busy.
func TestTurnTimeout(t *testing.T) {
	model := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		anthropicStream(w, `{"type":"message_start","message":{}}`)
		<-r.Context().Done()
	})
	start := time.Now()
	body := chat(t, newService(t, model, engineCatalog(), assistant.Options{TurnTimeout: 300 * time.Millisecond, KeepAlive: 50 * time.Millisecond}))
	if !strings.HasSuffix(body, `data: {"type":"error","message":"Chat request timed out","code":"TIMEOUT"}`+"\n\n") ||
		strings.Count(body, "data: ") != 1 || !strings.Contains(body, ": keep-alive\n\n") {
		t.Errorf("stream:\n%s", body)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("turn took %v", d)
	}
}

// TestToolTransportBroken: an external provider that goes away mid-turn
// ends the stream with TOOL_ERROR; a tool's own error goes back to the
// model instead.
func TestToolTransportBroken(t *testing.T) {
	provider := httptest.NewServer(mcptools.Handler(mcptools.Options{}, func(*http.Request) (mcptools.Caller, bool) {
		return mcptools.Caller{}, true
	}))
	catalog := mcptools.NewCatalog(mcptools.Options{}, nil,
		mcptools.External{ID: "remote", DisplayName: "Remote", URL: provider.URL, Allowed: []string{"decision_list", "sparql_query"},
			HTTPClient: &http.Client{Transport: bearer{}}})
	catalog.Connect(context.Background())
	defer catalog.Close()
	var sources []string
	for _, s := range catalog.Sources() {
		sources = append(sources, fmt.Sprint(s.ID, ":", s.Connected))
	}
	if strings.Join(sources, ",") != "operaton:true,triplydb:true,cprmv:true,remote:true" {
		t.Fatalf("sources %v", sources)
	}

	var calls atomic.Int32
	var secondRequest atomic.Value
	model := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		switch calls.Add(1) {
		case 1:
			// The in-process sparql_query has no graph: a tool error.
			anthropicStream(w, toolUse("toolu_1", "sparql_query", `{"query":"ASK {}"}`)...)
		case 2:
			secondRequest.Store(string(b))
			provider.CloseClientConnections()
			provider.Close()
			anthropicStream(w, toolUse("toolu_2", "decision_list", `{}`)...)
		default:
			t.Error("the model was called after the provider broke")
		}
	})
	// Only the remote provider: its decision_list is the one routed.
	srv := newService(t, model, catalog, assistant.Options{})
	resp, err := http.Post(srv.URL, "application/json", strings.NewReader(`{"message":"hoi","modelId":"claude-sonnet-4-20250514","sources":["remote"]}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	want := `data: {"type":"status","message":"Calling sparql_query…"}` + "\n\n" +
		`data: {"type":"status","message":"Calling decision_list…"}` + "\n\n" +
		`data: {"type":"error","message":"The tool provider failed","code":"TOOL_ERROR"}` + "\n\n"
	if string(b) != want {
		t.Errorf("stream:\n%s", b)
	}
	second, _ := secondRequest.Load().(string)
	if !strings.Contains(second, `"is_error":true`) || !strings.Contains(second, "sparql_query is not configured on this server: no knowledge graph") {
		t.Errorf("the tool error must go back to the model: %s", second)
	}
}

// TestModelStreamBounds: a model that asks for too many tool calls or
// sends oversized arguments ends the turn with MODEL_ERROR.
func TestModelStreamBounds(t *testing.T) {
	manyCalls := func(w http.ResponseWriter) {
		for i := range 65 {
			anthropicStream(w, fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"tool_use","id":"t%d","name":"decision_list"}}`, i, i))
		}
		anthropicStream(w, `{"type":"message_stop"}`)
	}
	hugeArgs := func(w http.ResponseWriter) {
		anthropicStream(w, `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"decision_list"}}`)
		chunk, _ := json.Marshal(strings.Repeat("x", 100<<10))
		for range 3 {
			anthropicStream(w, `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":`+string(chunk)+`}}`)
		}
		anthropicStream(w, `{"type":"message_stop"}`)
	}
	for want, script := range map[string]func(http.ResponseWriter){
		"Anthropic asked for too many tool calls": manyCalls,
		"Anthropic tool arguments too long":       hugeArgs,
	} {
		model := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { script(w) })
		body := chat(t, newService(t, model, engineCatalog(), assistant.Options{}))
		if body != `data: {"type":"error","message":"`+want+`","code":"MODEL_ERROR"}`+"\n\n" {
			t.Errorf("stream %q, want the error %q", body, want)
		}
	}
}

// bearer sends a bearer token: Handler wants one (its guard is in front).
type bearer struct{}

func (bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer t")
	return http.DefaultTransport.RoundTrip(r)
}

// TestMaxTurns: a turn beyond MaxTurns in progress is refused with 429
// before its stream opens; the slot frees when a turn ends.
func TestMaxTurns(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{}, 1)
	model := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		started <- struct{}{}
		select {
		case <-release:
		case <-r.Context().Done():
		}
		anthropicStream(w, `{"type":"message_stop"}`)
	})
	srv := newService(t, model, engineCatalog(), assistant.Options{MaxTurns: 1})
	first := make(chan string)
	go func() { first <- chat(t, srv) }()
	<-started
	resp, err := http.Post(srv.URL, "application/json", strings.NewReader(`{"message":"hoi","modelId":"claude-sonnet-4-20250514"}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 429 || !strings.Contains(string(b), `"code":"RATE_LIMIT_EXCEEDED"`) {
		t.Errorf("second turn: %d %s", resp.StatusCode, b)
	}
	close(release)
	if got := <-first; got != `data: {"type":"done"}`+"\n\n" {
		t.Errorf("first turn: %q", got)
	}
	go func() { <-started }()
	if got := chat(t, srv); got != `data: {"type":"done"}`+"\n\n" {
		t.Errorf("turn after the first ended: %q", got)
	}
}

// TestSlowTool: a tool past ToolTimeout answers the model with an error
// result and the turn goes on.
func TestSlowTool(t *testing.T) {
	slow := mcp.NewServer(&mcp.Implementation{Name: "slow", Version: "1"}, nil)
	slow.AddTool(&mcp.Tool{Name: "slow_tool", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			select {
			case <-ctx.Done():
			case <-time.After(5 * time.Second):
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "late"}}}, nil
		})
	provider := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return slow }, nil))
	defer provider.Close()
	catalog := mcptools.NewCatalog(mcptools.Options{}, nil, mcptools.External{ID: "slow", URL: provider.URL})
	catalog.Connect(context.Background())
	defer catalog.Close()

	var calls atomic.Int32
	var second atomic.Value
	model := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if calls.Add(1) == 1 {
			anthropicStream(w, toolUse("toolu_1", "slow_tool", `{}`)...)
			return
		}
		second.Store(string(b))
		anthropicStream(w, `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Helaas."}}`,
			`{"type":"message_delta","delta":{"stop_reason":"end_turn"}}`, `{"type":"message_stop"}`)
	})
	srv := newService(t, model, catalog, assistant.Options{ToolTimeout: 200 * time.Millisecond})
	resp, err := http.Post(srv.URL, "application/json", strings.NewReader(`{"message":"hoi","modelId":"claude-sonnet-4-20250514","sources":["slow"]}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	want := `data: {"type":"status","message":"Calling slow_tool…"}` + "\n\n" + `data: {"type":"delta","text":"Helaas."}` + "\n\n" + `data: {"type":"done"}` + "\n\n"
	if string(b) != want {
		t.Errorf("stream:\n%s", b)
	}
	if s, _ := second.Load().(string); !strings.Contains(s, `"content":"The tool did not answer within 200ms","is_error":true`) {
		t.Errorf("second model request: %s", s)
	}
}
