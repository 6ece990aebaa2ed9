package server

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/regelkit/regelkit/engine/local/pgstore/pgtest"
	"github.com/regelkit/regelkit/servers/internal/assets"
)

// TestLDEConfig: LDE_MCP_ENABLED without LDE_DATABASE_URL refuses to
// boot (New), naming the missing setting; a malformed URL is refused with its
// password masked; off by default, the provider is not listed.
func TestLDEConfig(t *testing.T) {
	_, err := New(context.Background(), Options{Logger: slog.New(slog.DiscardHandler), Lookup: func(k string) (string, bool) {
		v, ok := map[string]string{"LDE_MCP_ENABLED": "true"}[k]
		return v, ok
	}})
	if err == nil || !strings.Contains(err.Error(), "LDE_DATABASE_URL (the explorer's DATABASE_URL) is required when LDE_MCP_ENABLED=true") {
		t.Errorf("enabled without a database: %v", err)
	}
	_, _, err = loadConfig(func(k string) (string, bool) {
		v, ok := map[string]string{"LDE_MCP_ENABLED": "true", "LDE_DATABASE_URL": "postgres://u:hunter2@/db?port=x"}[k]
		return v, ok
	})
	if err == nil || !strings.Contains(err.Error(), "LDE_DATABASE_URL") || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("malformed URL: %v", err)
	}

	ta := newTestApp(t, map[string]string{"MCP_ENABLED": "true", "ANTHROPIC_API_KEY": "sk-test-key-123"})
	var sources []map[string]any
	ta.c.Get("/v1/mcp/sources", bearer(ta.token(t, caseworker("utrecht")))...).Data(t, 200, &sources)
	for _, s := range sources {
		if s["id"] == "lde" {
			t.Errorf("lde listed while LDE_MCP_ENABLED=false: %v", s)
		}
	}
}

// TestLDEProvider: with LDE_MCP_ENABLED and the explorer's database, the
// assistant lists lde as connected and /v1/mcp/server serves the asset
// tools for the caller's municipality.
func TestLDEProvider(t *testing.T) {
	ctx := context.Background()
	db := pgtest.New(t)
	explorer, err := assets.Open(ctx, db.URL, assets.Options{Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer explorer.Close()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, org := range []string{"utrecht", "heusden"} {
		o := org
		if err := explorer.UpsertForm(ctx, assets.Form{ID: "form-" + org, Name: "Form of " + org, Schema: json.RawMessage(`{}`),
			Status: "wip", Organization: &o, CreatedAt: now, UpdatedAt: now}); err != nil {
			t.Fatal(err)
		}
	}

	ta := newTestApp(t, map[string]string{"MCP_ENABLED": "true", "ANTHROPIC_API_KEY": "sk-test-key-123",
		"LDE_MCP_ENABLED": "true", "LDE_DATABASE_URL": db.URL})
	tok := ta.token(t, caseworker("utrecht"))
	var sources []map[string]any
	ta.c.Get("/v1/mcp/sources", bearer(tok)...).Data(t, 200, &sources)
	var ids []string
	for _, s := range sources {
		ids = append(ids, fmt.Sprint(s["id"], ":", s["connected"]))
	}
	if strings.Join(ids, ",") != "operaton:true,triplydb:true,cprmv:true,lde:true" {
		t.Errorf("sources %v", ids)
	}

	srv := httptest.NewServer(ta.Handler())
	defer srv.Close()
	cs, err := connectMCP(t, srv, tok)
	if err != nil {
		t.Fatal(err)
	}
	text, isErr := callText(t, cs, "form_list", map[string]any{})
	if isErr || !strings.Contains(text, `"id": "form-utrecht"`) || strings.Contains(text, "form-heusden") {
		t.Errorf("utrecht's form_list = %s", text)
	}
	if text, isErr := callText(t, cs, "form_get", map[string]any{"id": "form-heusden"}); !isErr || text != `form "form-heusden" not found` {
		t.Errorf("utrecht reads heusden's form: %q %v", text, isErr)
	}
}
