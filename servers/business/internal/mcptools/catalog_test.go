package mcptools_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/engine/local/pgstore/pgtest"
	"github.com/regelkit/regelkit/servers/business/internal/assistant"
	"github.com/regelkit/regelkit/servers/business/internal/mcptools"
	"github.com/regelkit/regelkit/sparql/graph"
	"github.com/regelkit/regelkit/sparql/memstore"
)

// TestMain doubles as a stdio MCP server: the test binary started with
// MCPTOOLS_STDIO_SERVER=1 serves NewServer on stdin/stdout.
func TestMain(m *testing.M) {
	if os.Getenv("MCPTOOLS_STDIO_SERVER") == "1" {
		srv := mcptools.NewServer(mcptools.Options{Engine: local.New(local.Options{})}, mcptools.Caller{})
		_ = srv.Run(context.Background(), &mcp.StdioTransport{})
		os.Exit(0)
	}
	pgtest.Main(m) // the asset tools' tests start a PostgreSQL
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func names(tools []assistant.Tool) []string {
	var out []string
	for _, t := range tools {
		out = append(out, t.Name)
	}
	return out
}

// TestStdioProviderAndDuplicates: an external provider started as a
// command offers only its allowed tools; a name an earlier provider
// already holds stays with that provider, and the skip is logged.
func TestStdioProviderAndDuplicates(t *testing.T) {
	t.Setenv("MCPTOOLS_STDIO_SERVER", "1")
	logs := &syncBuffer{}
	eng := local.New(local.Options{})
	if _, err := eng.Deploy(context.Background(), engine.NewDeployment{Name: "d", Resources: []engine.Resource{{Name: "k.dmn", Data: []byte(oneDecision)}}}); err != nil {
		t.Fatal(err)
	}
	c := mcptools.NewCatalog(mcptools.Options{Engine: eng}, slog.New(slog.NewTextHandler(logs, nil)),
		mcptools.External{ID: "child", DisplayName: "Child", Command: []string{os.Args[0]}, Allowed: []string{"decision_list", "deployment_count"}},
		mcptools.External{ID: "absent", DisplayName: "Absent", Command: []string{os.Args[0] + "-does-not-exist"}})
	c.Connect(context.Background())
	defer c.Close()

	var got []string
	for _, s := range c.Sources() {
		got = append(got, s.ID+":"+map[bool]string{true: "up", false: "down"}[s.Connected])
	}
	if strings.Join(got, ",") != "operaton:up,triplydb:up,cprmv:up,child:up,absent:down" {
		t.Fatalf("sources %v", got)
	}

	ctx := context.Background()
	only, err := c.Open(ctx, "", []string{"child"})
	if err != nil {
		t.Fatal(err)
	}
	defer only.Close()
	if n := names(only.Tools()); !slices.Equal(n, []string{"decision_list", "deployment_count"}) {
		t.Errorf("child tools %v, want only the allowed two", n)
	}
	// The child's engine is empty: its decision_list answers none.
	text, isErr, err := only.Call(ctx, "decision_list", json.RawMessage(`{}`))
	if err != nil || isErr || !strings.Contains(text, `"count": 0`) {
		t.Errorf("child decision_list = %q %v %v", text, isErr, err)
	}

	all, err := c.Open(ctx, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer all.Close()
	n := names(all.Tools())
	if strings.Count(strings.Join(n, ","), "decision_list") != 1 {
		t.Errorf("decision_list offered more than once: %v", n)
	}
	// The in-process engine keeps the name: it holds the deployed decision.
	text, _, err = all.Call(ctx, "decision_list", json.RawMessage(`{}`))
	if err != nil || !strings.Contains(text, `"key": "OneDecision"`) {
		t.Errorf("decision_list went to the wrong provider: %q %v", text, err)
	}
	if !strings.Contains(logs.String(), "MCP tool name taken by an earlier provider; skipped") || !strings.Contains(logs.String(), "provider=child") {
		t.Errorf("the skipped duplicate is not logged:\n%s", logs)
	}
	if !strings.Contains(logs.String(), `msg="MCP provider not connected" provider=absent`) {
		t.Errorf("the failed provider is not logged:\n%s", logs)
	}
	// Unknown tools and unknown sources.
	if text, isErr, err := all.Call(ctx, "rm_rf", nil); err != nil || !isErr || text != "Unknown tool rm_rf" {
		t.Errorf("unknown tool = %q %v %v", text, isErr, err)
	}
	if _, err := c.Open(ctx, "", []string{"absent", "nope"}); err != assistant.ErrNotConnected {
		t.Errorf("only unconnected sources: %v, want ErrNotConnected", err)
	}
}

// TestNotConfiguredTools: tools whose backing service this server lacks
// say so as tool errors.
func TestNotConfiguredTools(t *testing.T) {
	c := mcptools.NewCatalog(mcptools.Options{}, nil)
	ts, err := c.Open(context.Background(), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ts.Close()
	for tool, want := range map[string]string{
		"processInstance_list":                      "processInstance_list is not configured on this server: the process side of the engine is not available",
		"decision_evaluate":                         "decision_evaluate is not configured on this server: no decision engine",
		"dmn_semantic_equivalences":                 "dmn_semantic_equivalences is not configured on this server: use sparql_query on the embedded knowledge graph instead",
		"ref_ref__referencemethod___reference__get": "ref_ref__referencemethod___reference__get is not configured on this server: the hosted rule-serving API is not enabled (CPRMV_MCP_ENABLED)",
	} {
		text, isErr, err := ts.Call(context.Background(), tool, json.RawMessage(`{}`))
		if err != nil || !isErr || text != want {
			t.Errorf("%s = %q %v %v", tool, text, isErr, err)
		}
	}
	if n := len(ts.Tools()); n != 17+11+3 {
		t.Errorf("%d tools, want 17 engine + 11 knowledge graph + 3 rule-serving tools (no asset tools without a store)", n)
	}
	// With the hosted rule-serving API configured, it replaces the
	// in-process one under the same id.
	hosted := mcptools.NewCatalog(mcptools.Options{}, nil, mcptools.External{ID: "cprmv", URL: "http://127.0.0.1:1/mcp"})
	var ids []string
	for _, s := range hosted.Sources() {
		ids = append(ids, s.ID)
	}
	if strings.Join(ids, ",") != "operaton,triplydb,cprmv" {
		t.Errorf("sources with the hosted cprmv: %v", ids)
	}
}

const oneDecision = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" id="d" name="d" namespace="http://regelkit.example/test">
  <decision id="OneDecision" name="One decision">
    <literalExpression id="e"><text>1</text></literalExpression>
  </decision>
</definitions>`

// TestSPARQLQueryForms: SELECT and ASK (after any prologue) answer; an
// update or CONSTRUCT is refused as a tool error.
func TestSPARQLQueryForms(t *testing.T) {
	store := memstore.New()
	store.Add(graph.Quad{S: graph.IRI("https://x.example/a"), P: graph.IRI("https://x.example/p"), O: graph.IRI("https://x.example/b")})
	ts, err := mcptools.NewCatalog(mcptools.Options{Graph: store}, nil).Open(context.Background(), "", []string{"triplydb"})
	if err != nil {
		t.Fatal(err)
	}
	defer ts.Close()
	for query, want := range map[string]string{
		"# comment\nPREFIX x: <https://x.example/>\nBASE <https://x.example/>\nask { x:a x:p ?o }": `"boolean": true`,
		"PREFIX x: <https://x.example/> ASK { x:a x:p x:a }":                                       `"boolean": false`,
		"SELECT ?o WHERE { <https://x.example/a> ?p ?o }":                                          `"value": "https://x.example/b"`,
	} {
		text, isErr, err := ts.Call(context.Background(), "sparql_query", mustJSON(map[string]string{"query": query}))
		if err != nil || isErr || !strings.Contains(text, want) {
			t.Errorf("%q = %s (error %v %v), want %s", query, text, isErr, err, want)
		}
	}
	for _, query := range []string{"INSERT DATA { <a:b> <a:c> <a:d> }", "CONSTRUCT WHERE { ?s ?p ?o }", "DELETE WHERE { ?s ?p ?o }"} {
		if text, isErr, err := ts.Call(context.Background(), "sparql_query", mustJSON(map[string]string{"query": query})); err != nil || !isErr {
			t.Errorf("%q must be refused, got %s %v", query, text, err)
		}
	}
	if store.Len() != 1 {
		t.Errorf("the store changed: %d quads", store.Len())
	}
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}
