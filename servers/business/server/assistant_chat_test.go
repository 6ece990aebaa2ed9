package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/regelkit/regelkit/servers/internal/auth"
)

// fakeModel is a local model API: it records each request body and
// answers round n (1-based) with script(n, w, r).
type fakeModel struct {
	mu       sync.Mutex
	requests []map[string]any
	headers  []http.Header
	script   func(n int, w http.ResponseWriter, r *http.Request)
}

func (f *fakeModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body map[string]any
	_ = json.NewDecoder(r.Body).Decode(&body)
	f.mu.Lock()
	f.requests = append(f.requests, body)
	f.headers = append(f.headers, r.Header.Clone())
	n := len(f.requests)
	f.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	f.script(n, w, r)
}

func (f *fakeModel) request(i int) (map[string]any, http.Header) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if i >= len(f.requests) {
		return nil, nil
	}
	return f.requests[i], f.headers[i]
}

// sse writes one event (Anthropic style when name is set) and flushes.
func sse(w http.ResponseWriter, name, data string) {
	if name != "" {
		fmt.Fprintf(w, "event: %s\n", name)
	}
	fmt.Fprintf(w, "data: %s\n\n", data)
	w.(http.Flusher).Flush()
}

// chatEvent is one decoded event of the chat stream.
type chatEvent struct {
	Type    string `json:"type"`
	Text    string `json:"text,omitempty"`
	Message string `json:"message,omitempty"`
	Code    string `json:"code,omitempty"`
}

// chatServer is the business API with the assistant on, its model APIs
// served by anthropic and openai.
func chatServer(t *testing.T, anthropic, openai http.Handler) (*testApp, *httptest.Server) {
	t.Helper()
	env := map[string]string{"MCP_ENABLED": "true", "ANTHROPIC_API_KEY": "sk-ant-test", "OPENAI_API_KEY": "sk-openai-test"}
	for name, h := range map[string]http.Handler{"ANTHROPIC_BASE_URL": anthropic, "OPENAI_BASE_URL": openai} {
		if h == nil {
			h = http.NotFoundHandler()
		}
		up := httptest.NewServer(h)
		t.Cleanup(up.Close)
		env[name] = up.URL
	}
	ta := newTestApp(t, env)
	srv := httptest.NewServer(ta.Handler())
	t.Cleanup(srv.Close)
	return ta, srv
}

func postChat(t *testing.T, ctx context.Context, srv *httptest.Server, token, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL+"/v1/mcp/chat", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// readEvents reads the stream to its end.
func readEvents(t *testing.T, resp *http.Response) []chatEvent {
	t.Helper()
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" ||
		resp.Header.Get("Cache-Control") != "no-cache" || resp.Header.Get("X-Accel-Buffering") != "no" {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("status %d, headers %v: %s", resp.StatusCode, resp.Header, b)
	}
	var out []chatEvent
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var e chatEvent
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("event %q: %v", line, err)
		}
		out = append(out, e)
	}
	return out
}

const evaluateArgs = `{"key":"SVB_LeeftijdsInformatie","variables":{"dagVanAanvraag":"2025-12-24","geboortedatumAanvrager":"1980-01-23","geboortedatumPartner":null}}`

// twoToolTurn is the expected stream of a turn that calls decision_list
// and decision_evaluate, then answers.
var twoToolTurn = []chatEvent{
	{Type: "delta", Text: "Ik zoek "},
	{Type: "delta", Text: "het op."},
	{Type: "status", Message: "Calling decision_list…"},
	{Type: "status", Message: "Calling decision_evaluate…"},
	{Type: "delta", Text: "De aanvrager "},
	{Type: "delta", Text: "is 45."},
	{Type: "done"},
}

const chatBody = `{"message":"Welke leeftijd heeft de aanvrager geheim-7731?","modelId":"%s",` +
	`"history":[{"role":"user","content":"eerdere vraag zeer-prive-4410"},{"role":"assistant","content":"eerder antwoord"}]}`

func anthropicTwoTools(t *testing.T) *fakeModel {
	return &fakeModel{script: func(n int, w http.ResponseWriter, r *http.Request) {
		sse(w, "message_start", `{"type":"message_start","message":{"id":"msg_1","role":"assistant","content":[]}}`)
		sse(w, "ping", `{"type":"ping"}`)
		if n == 1 {
			sse(w, "content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
			sse(w, "content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Ik zoek "}}`)
			sse(w, "content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"het op."}}`)
			sse(w, "content_block_stop", `{"type":"content_block_stop","index":0}`)
			sse(w, "content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"decision_list","input":{}}}`)
			sse(w, "content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"maxRes"}}`)
			sse(w, "content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"ults\": 5}"}}`)
			sse(w, "content_block_stop", `{"type":"content_block_stop","index":1}`)
			args, _ := json.Marshal(evaluateArgs)
			sse(w, "content_block_start", `{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_2","name":"decision_evaluate","input":{}}}`)
			sse(w, "content_block_delta", `{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":`+string(args)+`}}`)
			sse(w, "content_block_stop", `{"type":"content_block_stop","index":2}`)
			sse(w, "message_delta", `{"type":"message_delta","delta":{"stop_reason":"tool_use"}}`)
		} else {
			sse(w, "content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
			sse(w, "content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"De aanvrager "}}`)
			sse(w, "content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"is 45."}}`)
			sse(w, "content_block_stop", `{"type":"content_block_stop","index":0}`)
			sse(w, "message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn"}}`)
		}
		sse(w, "message_stop", `{"type":"message_stop"}`)
	}}
}

// TestChatAnthropicTwoToolCalls: status → deltas → done in order, the tool
// results go back as tool_result blocks, and the chat text never reaches
// the log.
func TestChatAnthropicTwoToolCalls(t *testing.T) {
	fake := anthropicTwoTools(t)
	ta, srv := chatServer(t, fake, nil)
	resp := postChat(t, context.Background(), srv, ta.token(t, caseworker("heusden")), fmt.Sprintf(chatBody, "claude-sonnet-4-20250514"))
	if got := readEvents(t, resp); !reflect.DeepEqual(got, twoToolTurn) {
		t.Fatalf("events\n%+v\nwant\n%+v", got, twoToolTurn)
	}

	first, h := fake.request(0)
	if h.Get("x-api-key") != "sk-ant-test" || h.Get("anthropic-version") != "2023-06-01" ||
		first["model"] != "claude-sonnet-4-20250514" || first["max_tokens"] != float64(4096) || first["stream"] != true {
		t.Errorf("first request %v headers %v", first, h)
	}
	if sys, _ := first["system"].(string); !strings.Contains(sys, "maxResults=20") || !strings.Contains(sys, "decision_evaluate") {
		t.Errorf("system prompt %q lacks the conventions and the providers' contributions", sys)
	}
	var toolNames []string
	for _, tool := range first["tools"].([]any) {
		m := tool.(map[string]any)
		if m["input_schema"].(map[string]any)["type"] != "object" {
			t.Errorf("tool %v has no object input_schema", m)
		}
		toolNames = append(toolNames, m["name"].(string))
	}
	for _, want := range []string{"decision_list", "decision_evaluate", "sparql_query", "processInstance_list"} {
		if !strings.Contains(strings.Join(toolNames, ","), want) {
			t.Errorf("tools %v lack %s", toolNames, want)
		}
	}

	second, _ := fake.request(1)
	msgs := second["messages"].([]any)
	if len(msgs) != 5 {
		t.Fatalf("second request has %d messages, want history 2 + user + tool use + results: %v", len(msgs), msgs)
	}
	if m := msgs[2].(map[string]any); m["role"] != "user" || m["content"] != "Welke leeftijd heeft de aanvrager geheim-7731?" {
		t.Errorf("user message %v", m)
	}
	use := msgs[3].(map[string]any)
	blocks := use["content"].([]any)
	if use["role"] != "assistant" || len(blocks) != 3 || blocks[0].(map[string]any)["text"] != "Ik zoek het op." ||
		blocks[1].(map[string]any)["id"] != "toolu_1" || !reflect.DeepEqual(blocks[1].(map[string]any)["input"], map[string]any{"maxResults": float64(5)}) ||
		blocks[2].(map[string]any)["name"] != "decision_evaluate" {
		t.Errorf("assistant tool use %v", use)
	}
	results := msgs[4].(map[string]any)["content"].([]any)
	r1, r2 := results[0].(map[string]any), results[1].(map[string]any)
	if r1["type"] != "tool_result" || r1["tool_use_id"] != "toolu_1" || !strings.Contains(r1["content"].(string), `"count": 14,`) ||
		strings.Count(r1["content"].(string), `"key":`) != 5 || !strings.Contains(r1["content"].(string), `"key": "RONL_AanmerkingKindPakket"`) {
		t.Errorf("decision_list result %v", r1)
	}
	if r2["tool_use_id"] != "toolu_2" || r2["is_error"] == true || !strings.Contains(r2["content"].(string), `"aanvragerLeeftijd": 45`) {
		t.Errorf("decision_evaluate result %v", r2)
	}

	logs := ta.logs.String()
	for _, secret := range []string{"geheim-7731", "zeer-prive-4410", "eerder antwoord", "Ik zoek", "De aanvrager", "1980-01-23"} {
		if strings.Contains(logs, secret) {
			t.Errorf("the log holds chat text %q:\n%s", secret, logs)
		}
	}
	if !strings.Contains(logs, `msg="assistant turn"`) || !strings.Contains(logs, "model=claude-sonnet-4-20250514") ||
		!strings.Contains(logs, "rounds=2") || !strings.Contains(logs, "decision_evaluate") {
		t.Errorf("no turn line with model, rounds and tools:\n%s", logs)
	}
}

// TestChatOpenAITwoToolCalls: the same turn over Chat Completions chunks.
func TestChatOpenAITwoToolCalls(t *testing.T) {
	chunk := func(delta string, finish string) string {
		f := "null"
		if finish != "" {
			f = `"` + finish + `"`
		}
		return `{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + f + `}]}`
	}
	fake := &fakeModel{script: func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 1 {
			sse(w, "", chunk(`{"role":"assistant","content":"Ik zoek "}`, ""))
			sse(w, "", chunk(`{"content":"het op."}`, ""))
			sse(w, "", chunk(`{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"decision_list","arguments":""}}]}`, ""))
			sse(w, "", chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"maxResults\":"}}]}`, ""))
			sse(w, "", chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"5}"}}]}`, ""))
			args, _ := json.Marshal(evaluateArgs)
			sse(w, "", chunk(`{"tool_calls":[{"index":1,"id":"call_2","type":"function","function":{"name":"decision_evaluate","arguments":`+string(args)+`}}]}`, ""))
			sse(w, "", chunk(`{}`, "tool_calls"))
		} else {
			sse(w, "", chunk(`{"role":"assistant","content":"De aanvrager "}`, ""))
			sse(w, "", chunk(`{"content":"is 45."}`, ""))
			sse(w, "", chunk(`{}`, "stop"))
		}
		sse(w, "", "[DONE]")
	}}
	ta, srv := chatServer(t, nil, fake)
	resp := postChat(t, context.Background(), srv, ta.token(t, caseworker("heusden")), fmt.Sprintf(chatBody, "gpt-4o"))
	if got := readEvents(t, resp); !reflect.DeepEqual(got, twoToolTurn) {
		t.Fatalf("events\n%+v\nwant\n%+v", got, twoToolTurn)
	}
	first, h := fake.request(0)
	if h.Get("Authorization") != "Bearer sk-openai-test" || first["model"] != "gpt-4o" || first["stream"] != true {
		t.Errorf("first request %v headers %v", first, h)
	}
	if m := first["messages"].([]any)[0].(map[string]any); m["role"] != "system" {
		t.Errorf("first message %v, want the system prompt", m)
	}
	tool := first["tools"].([]any)[0].(map[string]any)
	if tool["type"] != "function" || tool["function"].(map[string]any)["parameters"] == nil {
		t.Errorf("tool %v", tool)
	}
	second, _ := fake.request(1)
	msgs := second["messages"].([]any)
	if len(msgs) != 7 {
		t.Fatalf("second request has %d messages, want system + history 2 + user + tool calls + 2 results: %v", len(msgs), msgs)
	}
	calls := msgs[4].(map[string]any)["tool_calls"].([]any)
	if len(calls) != 2 || calls[0].(map[string]any)["id"] != "call_1" ||
		calls[0].(map[string]any)["function"].(map[string]any)["arguments"] != `{"maxResults":5}` {
		t.Errorf("tool calls %v", calls)
	}
	r2 := msgs[6].(map[string]any)
	if r2["role"] != "tool" || r2["tool_call_id"] != "call_2" || !strings.Contains(r2["content"].(string), `"aanvragerLeeftijd": 45`) {
		t.Errorf("tool result %v", r2)
	}
}

// TestChatModelErrorMidStream: one error event, no done.
func TestChatModelErrorMidStream(t *testing.T) {
	fake := &fakeModel{script: func(n int, w http.ResponseWriter, r *http.Request) {
		sse(w, "message_start", `{"type":"message_start","message":{"id":"msg_1"}}`)
		sse(w, "content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
		sse(w, "content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Een moment"}}`)
		sse(w, "error", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`)
	}}
	ta, srv := chatServer(t, fake, nil)
	resp := postChat(t, context.Background(), srv, ta.token(t, caseworker("heusden")), `{"message":"hallo","modelId":"claude-haiku-4-5-20251001"}`)
	want := []chatEvent{{Type: "delta", Text: "Een moment"}, {Type: "error", Code: "MODEL_ERROR", Message: "Anthropic API error: overloaded_error"}}
	if got := readEvents(t, resp); !reflect.DeepEqual(got, want) {
		t.Fatalf("events %+v, want %+v", got, want)
	}
	// A non-2xx answer before any token: the same single error event.
	fake.script = func(n int, w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":"bad key sk-ant-test"}`, http.StatusUnauthorized)
	}
	resp = postChat(t, context.Background(), srv, ta.token(t, caseworker("heusden")), `{"message":"hallo","modelId":"claude-haiku-4-5-20251001"}`)
	want = []chatEvent{{Type: "error", Code: "MODEL_ERROR", Message: "Anthropic API answered 401"}}
	if got := readEvents(t, resp); !reflect.DeepEqual(got, want) {
		t.Fatalf("events %+v, want %+v", got, want)
	}
}

// TestChatClientDisconnectCancelsUpstream: the model request's context
// ends within 1 s of the browser leaving.
func TestChatClientDisconnectCancelsUpstream(t *testing.T) {
	cancelled := make(chan time.Time, 1)
	fake := &fakeModel{script: func(n int, w http.ResponseWriter, r *http.Request) {
		sse(w, "message_start", `{"type":"message_start","message":{"id":"msg_1"}}`)
		sse(w, "content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Even denken"}}`)
		select {
		case <-r.Context().Done():
			cancelled <- time.Now()
		case <-time.After(10 * time.Second):
		}
	}}
	ta, srv := chatServer(t, fake, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp := postChat(t, ctx, srv, ta.token(t, caseworker("heusden")), `{"message":"hallo","modelId":"claude-sonnet-4-20250514"}`)
	br := bufio.NewReader(resp.Body)
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("stream ended before the first delta: %v", err)
		}
		if strings.Contains(line, `"type":"delta"`) {
			break
		}
	}
	left := time.Now()
	cancel()
	resp.Body.Close()
	select {
	case at := <-cancelled:
		if d := at.Sub(left); d > time.Second {
			t.Errorf("upstream cancelled after %v, want within 1 s", d)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the upstream model request was not cancelled within 2 s of the client leaving")
	}
}

// TestChatPreflight: problems found before the stream are JSON errors.
func TestChatPreflight(t *testing.T) {
	ta, _ := chatServer(t, nil, nil)
	tok := ta.token(t, caseworker("heusden"))
	admin := ta.token(t, auth0("admin"))
	long := `"` + strings.Repeat("a", 40_000) + `"`
	history := `[` + strings.TrimSuffix(strings.Repeat(`{"role":"user","content":"x"},`, 51), ",") + `]`
	for _, tc := range []struct {
		body   string
		token  string
		status int
		code   string
	}{
		{`{"modelId":"gpt-4o"}`, tok, 400, "INVALID_REQUEST"},
		{`{"message":"  ","modelId":"gpt-4o"}`, tok, 400, "INVALID_REQUEST"},
		{`{"message":"hoi"}`, tok, 400, "INVALID_REQUEST"},
		{`{"message":"hoi","modelId":"gpt-5-unknown"}`, tok, 400, "INVALID_REQUEST"},
		{`{"message":"hoi","modelId":"gpt-4o","history":[{"role":"system","content":"x"}]}`, tok, 400, "INVALID_REQUEST"},
		{`{"message":"hoi","modelId":"gpt-4o","history":[{"role":"user","content":5}]}`, tok, 400, "INVALID_REQUEST"},
		{`{"message":` + long + `,"modelId":"gpt-4o"}`, tok, 400, "INVALID_REQUEST"},
		{`{"message":"hoi","modelId":"gpt-4o","history":` + history + `}`, tok, 400, "INVALID_REQUEST"},
		{`{"message":"hoi","modelId":"gpt-4o"`, tok, 400, "INVALID_REQUEST"},
		{`{"message":"hoi","modelId":"gpt-4o","sources":["nope"]}`, admin, 503, "MCP_NOT_CONNECTED"},
		{`{"message":"hoi","modelId":"gpt-4o"}`, ta.token(t, auth0("citizen")), 403, "FORBIDDEN"},
		{`{"message":"hoi","modelId":"gpt-4o"}`, "", 401, "UNAUTHORIZED"},
	} {
		var headers []string
		if tc.token != "" {
			headers = bearer(tc.token)
		}
		ta.c.Post("/v1/mcp/chat", tc.body, headers...).ExpectError(t, tc.status, tc.code)
	}

	var sources []map[string]any
	ta.c.Get("/v1/mcp/sources", bearer(tok)...).Data(t, 200, &sources)
	var ids []string
	for _, s := range sources {
		ids = append(ids, fmt.Sprint(s["id"], ":", s["connected"]))
	}
	// lde only with LDE_MCP_ENABLED (lde_test.go).
	if strings.Join(ids, ",") != "operaton:true,triplydb:true,cprmv:true" {
		t.Errorf("sources %v", ids)
	}
	var models []map[string]any
	ta.c.Get("/v1/mcp/models", bearer(tok)...).Data(t, 200, &models)
	if len(models) != 5 || models[0]["id"] != "claude-sonnet-4-20250514" || models[0]["providerId"] != "anthropic" ||
		models[4]["id"] != "gpt-4o-mini" || models[4]["providerDisplayName"] != "OpenAI" {
		t.Errorf("models %v", models)
	}
}

// TestChatDisabled: MCP off answers 503 before reading anything, lists no
// sources, and still lists the models of the keys that are set.
func TestChatDisabled(t *testing.T) {
	ta := newTestApp(t, map[string]string{"OPENAI_API_KEY": "sk-openai-test"})
	tok := ta.token(t, caseworker("heusden"))
	ta.c.Post("/v1/mcp/chat", `{"message":"hoi","modelId":"gpt-4o"}`, bearer(tok)...).ExpectError(t, 503, "MCP_DISABLED")
	var sources []any
	ta.c.Get("/v1/mcp/sources", bearer(tok)...).Data(t, 200, &sources)
	if sources == nil || len(sources) != 0 {
		t.Errorf("sources %v, want []", sources)
	}
	var models []map[string]any
	ta.c.Get("/v1/mcp/models", bearer(tok)...).Data(t, 200, &models)
	if len(models) != 2 || models[0]["id"] != "gpt-4o" {
		t.Errorf("models %v", models)
	}
}

func auth0(role string) auth.TokenClaims {
	return auth.TokenClaims{Subject: "u-" + role, Municipality: "heusden", Roles: []string{role}, LoA: "hoog", Client: "ronl-frontend"}
}
