package server

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/servers/internal/apitest"
)

// newTestApp builds the explorer on its defaults (plus overrides) and serves
// it over real HTTP.
func newTestApp(t *testing.T, env map[string]string) (*app, *apitest.Client) {
	t.Helper()
	cfg, _, err := loadConfig(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if err != nil {
		t.Fatal(err)
	}
	a, err := newApp(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	return a, apitest.New(t, a.Handler())
}

func TestRoot(t *testing.T) {
	_, c := newTestApp(t, nil)
	resp := c.Get("/").ExpectStatus(t, 200)
	var got struct {
		Name, Version, Status, Environment, Documentation, Health string
		Endpoints, Legacy                                         map[string]string
	}
	resp.Decode(t, &got)
	if got.Name != serviceName || got.Version != version || got.Status != "running" || got.Environment != "development" {
		t.Errorf("root = %+v", got)
	}
	if got.Documentation != "/v1/openapi.json" || got.Health != "/v1/health" {
		t.Errorf("documentation/health = %q %q", got.Documentation, got.Health)
	}
	want := map[string]string{"health": "/v1/health", "dmns": "/v1/dmns", "chains": "/v1/chains"}
	for k, v := range want {
		if got.Endpoints[k] != v {
			t.Errorf("endpoints.%s = %q, want %q", k, got.Endpoints[k], v)
		}
		legacy := strings.Replace(v, "/v1/", "/api/", 1) + " (deprecated)"
		if got.Legacy[k] != legacy {
			t.Errorf("legacy.%s = %q, want %q", k, got.Legacy[k], legacy)
		}
	}
	if resp.Header.Get("API-Version") != version {
		t.Errorf("API-Version = %q", resp.Header.Get("API-Version"))
	}
}

func TestHealth(t *testing.T) {
	a, c := newTestApp(t, map[string]string{"ENVIRONMENT": "acceptance"})
	for _, path := range []string{"/v1/health", "/api/health"} {
		resp := c.Get(path).ExpectStatus(t, 200)
		var got struct {
			Name, Version, Environment, Status, Timestamp, Documentation string
			Uptime                                                       *float64
			Services                                                     map[string]struct {
				Status    string   `json:"status"`
				Latency   *float64 `json:"latency"`
				LastCheck string   `json:"lastCheck"`
			}
		}
		resp.Decode(t, &got)
		if got.Name != serviceName || got.Version != version || got.Environment != "acceptance" || got.Status != "healthy" {
			t.Errorf("%s: %+v", path, got)
		}
		if got.Uptime == nil || *got.Uptime < 0 || got.Timestamp == "" || got.Documentation != "/v1/openapi.json" {
			t.Errorf("%s: uptime/timestamp/documentation missing: %s", path, resp.Body)
		}
		for _, name := range []string{"triplydb", "operaton"} {
			s, ok := got.Services[name]
			if !ok || s.Status == "" || s.Latency == nil || s.LastCheck == "" {
				t.Errorf("%s: service %s = %+v", path, name, s)
			}
		}
		if resp.Header.Get("API-Version") != version {
			t.Errorf("%s: API-Version missing", path)
		}
		deprecated := resp.Header.Get("Deprecation") == "true"
		if deprecated != strings.HasPrefix(path, "/api/") {
			t.Errorf("%s: Deprecation header %q", path, resp.Header.Get("Deprecation"))
		}
		if deprecated && resp.Header.Get("Link") != `</v1/health>; rel="successor-version"` {
			t.Errorf("Link = %q", resp.Header.Get("Link"))
		}
	}
	// A dependency that is down degrades the service: 503.
	a.health.Probes[0].Check = func(context.Context) error { return io.ErrUnexpectedEOF }
	resp := c.Get("/v1/health").ExpectStatus(t, 503)
	if !strings.Contains(string(resp.Body), `"status":"degraded"`) {
		t.Errorf("body %s", resp.Body)
	}
	// A probe that fails by panicking makes the check itself fail: unhealthy.
	a.health.Probes[0].Check = func(context.Context) error { panic("probe bug") }
	resp = c.Get("/v1/health").ExpectStatus(t, 503)
	if !strings.Contains(string(resp.Body), `"status":"unhealthy"`) {
		t.Errorf("body %s", resp.Body)
	}
}

// TestOpenAPICoversEveryRoute walks the real mux: a route registered without
// its operation in the document fails here.
func TestOpenAPICoversEveryRoute(t *testing.T) {
	a, c := newTestApp(t, nil)
	resp := c.Get("/v1/openapi.json").ExpectStatus(t, 200)
	if _, n := apitest.CheckOpenAPI(t, a.router.Mux(), resp.Body); n < 4 {
		t.Fatalf("walked only %d routes", n)
	}
}

func TestEveryResponseCarriesAPIVersion(t *testing.T) {
	_, c := newTestApp(t, nil)
	for _, req := range []struct{ method, path string }{
		{"GET", "/"}, {"GET", "/v1/openapi.json"}, {"GET", "/v1/nope"}, {"POST", "/v1/health"},
	} {
		resp := c.Do(req.method, req.path, nil)
		if resp.Header.Get("API-Version") != version {
			t.Errorf("%s %s (%d): no API-Version", req.method, req.path, resp.Status)
		}
	}
	c.Get("/v1/nope").ExpectError(t, http.StatusNotFound, "NOT_FOUND")
}

func TestConfigErrors(t *testing.T) {
	_, _, err := loadConfig(func(k string) (string, bool) {
		return map[string]string{"PORT": "x", "ENVIRONMENT": "prod"}[k], k == "PORT" || k == "ENVIRONMENT"
	})
	if err == nil || !strings.Contains(err.Error(), "PORT") || !strings.Contains(err.Error(), "ENVIRONMENT") {
		t.Fatalf("err = %v", err)
	}
	cfg, _, err := loadConfig(func(k string) (string, bool) {
		return "production", k == "ENVIRONMENT"
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.CORSOrigins) != 0 || cfg.LogFormat != "json" {
		t.Errorf("production defaults: origins %v, format %s", cfg.CORSOrigins, cfg.LogFormat)
	}
}

// TestREADMEDocumentsEveryVariable keeps the README's configuration table in
// step with what loadConfig reads.
func TestREADMEDocumentsEveryVariable(t *testing.T) {
	readme, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, env, err := loadConfig(func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range env.Vars() {
		if !strings.Contains(string(readme), "| `"+v.Name+"` |") {
			t.Errorf("README's explorer configuration table lacks %s", v.Name)
		}
	}
}

// TestStartupPrintsEffectiveValues: the configuration line shows what is in
// force, not what was set ("OUTBOUND_STRICT=true" in production, not "").
func TestStartupPrintsEffectiveValues(t *testing.T) {
	printed := func(env map[string]string) map[string]string {
		_, r, err := loadConfig(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, v := range r.Vars() {
			out[v.Name] = v.Display()
		}
		return out
	}
	prod := printed(map[string]string{"ENVIRONMENT": "production",
		"DATABASE_URL": "host=db.internal user=app password=s3cret dbname=regelkit"})
	dev := printed(map[string]string{"DATABASE_URL": "postgresql://app:s3cret@db.internal/regelkit"})
	want := []struct{ name, prod, dev string }{
		{"OUTBOUND_STRICT", "true", "false"},
		{"ENGINE_REST", "false", "true"},
		{"SPARQL_QUERY_METHOD", "form", "form"},
		{"EVAL_TIMEOUT", "30s", "30s"},
		{"RESPONSE_MAX_BYTES", "33554432", "33554432"},
		{"DATABASE_URL", "host=db.internal user=app password=xxxxx dbname=regelkit", "postgresql://app:xxxxx@db.internal/regelkit"},
	}
	for _, w := range want {
		if prod[w.name] != w.prod || dev[w.name] != w.dev {
			t.Errorf("%s printed %q in production and %q in development, want %q and %q",
				w.name, prod[w.name], dev[w.name], w.prod, w.dev)
		}
	}
}

func TestDependenciesLogLine(t *testing.T) {
	a, _ := newTestApp(t, nil)
	got := fmt.Sprint(a.dependencies()...)
	for _, want := range []string{"knowledge_graph", "embedded store at http://localhost:8081/v1/sparql", "engine", "embedded", "docmgmt", "stub", "outbound_strict", "false", "form"} {
		if !strings.Contains(got, want) {
			t.Errorf("dependencies %q lack %q", got, want)
		}
	}
	b, _ := newTestApp(t, map[string]string{"SPARQL_ENDPOINT": "https://u:secret@kg.example/sparql", "OPERATON_BASE_URL": "https://op.example/engine-rest"})
	got = fmt.Sprint(b.dependencies()...)
	if strings.Contains(got, "secret") || !strings.Contains(got, "https://u:xxxxx@kg.example/sparql") || !strings.Contains(got, "operaton at https://op.example/engine-rest") {
		t.Errorf("dependencies %q", got)
	}
}
