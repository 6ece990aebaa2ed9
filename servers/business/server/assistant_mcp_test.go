package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/regelkit/regelkit/servers/internal/auth"
)

// bearerTransport adds a bearer token to every request of the MCP client.
type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if b.token != "" {
		r.Header.Set("Authorization", "Bearer "+b.token)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// connectMCP connects the SDK's client to /v1/mcp/server of srv with token.
func connectMCP(t *testing.T, srv *httptest.Server, token string) (*mcp.ClientSession, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	tr := &mcp.StreamableClientTransport{Endpoint: srv.URL + mcpServerPath,
		HTTPClient: &http.Client{Transport: bearerTransport{token}}, MaxRetries: -1}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, tr, nil)
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

func callText(t *testing.T, cs *mcp.ClientSession, name string, args any) (string, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

// TestMCPServer: the SDK's client lists regelkit's tools at /v1/mcp/server
// through the real router and evaluates a decision; the tools see the
// caller's tenant only.
func TestMCPServer(t *testing.T) {
	ta := newTestApp(t, nil)
	deploy(t, ta, "TenantEcho", "")
	deploy(t, ta, "UtrechtOnly", "utrecht")
	srv := httptest.NewServer(ta.Handler())
	defer srv.Close()

	cs, err := connectMCP(t, srv, ta.token(t, caseworker("amsterdam")))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	for _, want := range []string{"decision_list", "decision_getByKey", "decision_evaluate", "deployment_list", "sparql_query", "dmn_list",
		"rules_rules__rule_id_path__get"} {
		if !slices.Contains(names, want) {
			t.Errorf("tools %v lack %s", names, want)
		}
	}
	if slices.Contains(names, "bundle_list") {
		t.Errorf("the MCP server must serve only regelkit's own tools, got %v", names)
	}

	text, isErr := callText(t, cs, "decision_evaluate", map[string]any{"key": "SVB_LeeftijdsInformatie", "variables": map[string]any{
		"dagVanAanvraag": "2025-12-24", "geboortedatumAanvrager": map[string]any{"value": "1980-01-23", "type": "String"}, "geboortedatumPartner": nil}})
	var eval struct {
		RowCount int              `json:"rowCount"`
		Rows     []map[string]any `json:"rows"`
	}
	if isErr || json.Unmarshal([]byte(text), &eval) != nil || eval.RowCount != 1 ||
		eval.Rows[0]["aanvragerLeeftijd"] != float64(45) || eval.Rows[0]["AOWDatumAanvrager"] != "2047-01-23" {
		t.Errorf("decision_evaluate = %s (error %v)", text, isErr)
	}
	// The municipality is the caller's, whatever the arguments say.
	text, _ = callText(t, cs, "decision_evaluate", map[string]any{"key": "TenantEcho", "variables": map[string]any{"municipality": "utrecht"}})
	if !strings.Contains(text, `"seen": "amsterdam"`) || strings.Contains(text, "utrecht") {
		t.Errorf("TenantEcho for amsterdam = %s", text)
	}
	// Another tenant's definition is invisible, in lists and evaluation.
	text, _ = callText(t, cs, "decision_list", map[string]any{"maxResults": 200})
	if !strings.Contains(text, `"key": "TenantEcho"`) || strings.Contains(text, "UtrechtOnly") {
		t.Errorf("decision_list for amsterdam = %s", text)
	}
	if text, isErr := callText(t, cs, "decision_evaluate", map[string]any{"key": "UtrechtOnly"}); !isErr || text != "not found" {
		t.Errorf("UtrechtOnly for amsterdam = %q (error %v), want the tool error \"not found\"", text, isErr)
	}
	ut, err := connectMCP(t, srv, ta.token(t, caseworker("utrecht")))
	if err != nil {
		t.Fatal(err)
	}
	if text, _ := callText(t, ut, "decision_list", map[string]any{"keyLike": "UtrechtOnly"}); !strings.Contains(text, `"tenantId": "utrecht"`) {
		t.Errorf("decision_list for utrecht = %s", text)
	}
	// The knowledge graph answers SELECT and ASK; bad arguments are tool errors.
	text, isErr = callText(t, cs, "sparql_query", map[string]any{"query": "ASK { ?s ?p ?o }"})
	if isErr || !strings.Contains(text, `"boolean": true`) {
		t.Errorf("ASK = %s", text)
	}
	if text, isErr := callText(t, cs, "sparql_query", map[string]any{"query": "INSERT DATA { <a:b> <a:c> <a:d> }"}); !isErr {
		t.Errorf("an update must be refused, got %s", text)
	}
	// Norms by rule id path: one rule, a ruleset version, and text that
	// tries to leave the SPARQL literal.
	text, isErr = callText(t, cs, "rules_rules__rule_id_path__get", map[string]any{"rule_id_path": "BWBR0015703_2025-07-01_2, Artikel 21 onderdeel b"})
	if isErr || !strings.Contains(text, `"norm": "1955.80"`) || strings.Count(text, `"ruleIdPath"`) != 1 {
		t.Errorf("one rule = %s", text)
	}
	text, _ = callText(t, cs, "rules_rules__rule_id_path__get", map[string]any{"rule_id_path": "BWBR0015703_2025-07-01_1"})
	if !strings.Contains(text, `"ruleIdPath": "BWBR0015703_2025-07-01_1, Artikel 21 onderdeel a"`) ||
		!strings.Contains(text, `"ruleIdPath": "BWBR0015703_2025-07-01_1, Artikel 22 onderdeel a"`) || strings.Contains(text, "2025-07-01_2") {
		t.Errorf("ruleset version = %s", text)
	}
	if text, isErr := callText(t, cs, "rules_rules__rule_id_path__get", map[string]any{"rule_id_path": `x") || true || ("`}); !isErr ||
		text != `no rule with the rule id path x") || true || ("` {
		t.Errorf("injection attempt = %q (error %v)", text, isErr)
	}
	if text, isErr := callText(t, cs, "decision_evaluate", map[string]any{}); !isErr || text != "key is required" {
		t.Errorf("no key = %q", text)
	}
}

// TestMCPServerRefusals: no token, a wrong role and a machine token are
// refused before any MCP message is handled.
func TestMCPServerRefusals(t *testing.T) {
	ta := newTestApp(t, nil)
	srv := httptest.NewServer(ta.Handler())
	defer srv.Close()
	citizen := auth.TokenClaims{Subject: "burger", Roles: []string{"citizen"}, LoA: "hoog", Client: "ronl-frontend"}
	for name, tok := range map[string]string{
		"none": "", "garbage": "not-a-jwt", "citizen": ta.token(t, citizen), "machine": ta.token(t, machine("operaton-mcp-client")),
	} {
		if _, err := connectMCP(t, srv, tok); err == nil {
			t.Errorf("%s: connected, want refused", name)
		}
	}
	for _, tc := range []struct {
		token  string
		status int
		code   string
	}{
		{"", 401, "UNAUTHORIZED"},
		{ta.token(t, citizen), 403, "FORBIDDEN"},
	} {
		headers := []string{"Content-Type", "application/json", "Accept", "application/json, text/event-stream"}
		if tc.token != "" {
			headers = append(headers, bearer(tc.token)...)
		}
		ta.c.Post(mcpServerPath, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, headers...).ExpectError(t, tc.status, tc.code)
	}
}

// TestMCPExternalConfig: MCP_EXTERNAL_SERVERS entries are parsed into URL
// and command providers, and a malformed or duplicate entry stops the boot.
func TestMCPExternalConfig(t *testing.T) {
	cfg := configFrom(t, map[string]string{"CPRMV_MCP_ENABLED": "true",
		"MCP_EXTERNAL_SERVERS": "docs=https://mcp.example.nl/mcp, local=/usr/bin/mcp-server --read-only"})
	ext, err := cfg.mcpExternal()
	if err != nil {
		t.Fatal(err)
	}
	if len(ext) != 3 || ext[0].ID != "cprmv" || ext[0].URL != "https://acc.cprmv.open-regels.nl/mcp" || len(ext[0].Allowed) != 3 ||
		ext[1].ID != "docs" || ext[1].URL != "https://mcp.example.nl/mcp" || ext[1].Allowed != nil ||
		ext[2].ID != "local" || strings.Join(ext[2].Command, "|") != "/usr/bin/mcp-server|--read-only" || ext[2].URL != "" {
		t.Errorf("external providers %+v", ext)
	}
	for _, bad := range []string{"no-equals-sign", "Docs=https://x", "operaton=https://x", "a=https://x,a=https://y", "x="} {
		cfg := configFrom(t, map[string]string{"MCP_EXTERNAL_SERVERS": bad})
		if _, err := cfg.validate(); err == nil || !strings.Contains(err.Error(), "MCP_EXTERNAL_SERVERS") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
