package server

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/regelkit/regelkit/engine/local/pgstore/pgtest"
	"github.com/regelkit/regelkit/servers/internal/apitest"
	"github.com/regelkit/regelkit/servers/internal/auth"
)

// TestMain stops the throwaway PostgreSQL cluster (started on first use by
// pgtest.New) when the tests are done.
func TestMain(m *testing.M) { pgtest.Main(m) }

// syncBuffer is a log sink safe for the server's goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

type testApp struct {
	*app
	c    *apitest.Client
	logs *syncBuffer
}

// newTestApp builds the business API on its defaults plus env (a fresh
// development key per test unless env names one) and serves it over real
// HTTP through the full middleware chain.
func newTestApp(t *testing.T, env map[string]string) *testApp {
	t.Helper()
	merged := map[string]string{"DEV_IDENTITY_KEY_FILE": filepath.Join(t.TempDir(), "dev.pem")}
	for k, v := range env {
		merged[k] = v
	}
	cfg, _, err := loadConfig(func(k string) (string, bool) { v, ok := merged[k]; return v, ok })
	if err != nil {
		t.Fatal(err)
	}
	logs := &syncBuffer{}
	a, err := newApp(context.Background(), cfg, slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	return &testApp{app: a, c: apitest.New(t, a.Handler()), logs: logs}
}

// token mints a development token for claims (issuer and audience filled).
func (ta *testApp) token(t *testing.T, c auth.TokenClaims) string {
	t.Helper()
	c.Issuer, c.Audience = ta.cfg.JWTIssuer, ta.cfg.JWTAudience
	tok, err := ta.dev.Token(c)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func caseworker(tenant string) auth.TokenClaims {
	return auth.TokenClaims{Subject: "cw-" + tenant, Municipality: tenant, Roles: []string{"caseworker"}, LoA: "hoog", Client: "ronl-frontend"}
}

func machine(azp string) auth.TokenClaims {
	return auth.TokenClaims{Subject: "service-account-" + azp, Client: azp}
}

func bearer(tok string) []string { return []string{"Authorization", "Bearer " + tok} }

func TestRoot(t *testing.T) {
	ta := newTestApp(t, nil)
	resp := ta.c.Get("/").ExpectStatus(t, 200)
	var got struct {
		Name, Version, Status, Environment string
		Endpoints                          map[string]string
	}
	resp.Decode(t, &got)
	if got.Name != serviceName || got.Version != version || got.Status != "running" || got.Environment != "development" {
		t.Errorf("root = %+v", got)
	}
	want := map[string]string{"health": "/v1/health", "decision": "/v1/decision", "brp": "/v1/brp", "m2m": "/v1/m2m", "admin": "/v1/admin", "mcp": "/v1/mcp",
		"process": "/v1/process", "task": "/v1/task",
		"public": "/v1/public", "hr": "/v1/hr", "rip": "/v1/rip", "docmgmt": "/v1/docmgmt"}
	if len(got.Endpoints) != len(want) {
		t.Errorf("endpoints %v: only mounted groups, exactly %v", got.Endpoints, want)
	}
	for k, v := range want {
		if got.Endpoints[k] != v {
			t.Errorf("endpoints.%s = %q, want %q", k, got.Endpoints[k], v)
		}
	}
}

func TestHealth(t *testing.T) {
	ta := newTestApp(t, nil)
	for _, path := range []string{"/v1/health", "/api/health"} {
		resp := ta.c.Get(path).ExpectStatus(t, 200)
		var got struct {
			Name, Version, Environment, Status, Timestamp string
			Uptime                                        *float64
			Services                                      map[string]map[string]any
			Audit                                         map[string]int64
		}
		resp.Decode(t, &got)
		if got.Name != serviceName || got.Environment != "development" || got.Status != "healthy" || got.Uptime == nil {
			t.Errorf("%s: %s", path, resp.Body)
		}
		for _, name := range []string{"identity_provider", "process_engine"} {
			s := got.Services[name]
			if s["status"] != "up" || s["latency"] == nil || len(s) != 2 {
				t.Errorf("%s: services.%s = %v, want exactly {status: up, latency}", path, name, s)
			}
		}
		if _, ok := got.Audit["dropped"]; !ok {
			t.Errorf("%s: health must report the audit drop counter: %s", path, resp.Body)
		}
		legacy := strings.HasPrefix(path, "/api/")
		if (resp.Header.Get("Deprecation") == "true") != legacy ||
			(legacy && resp.Header.Get("Link") != `</v1/health>; rel="successor-version"`) {
			t.Errorf("%s: deprecation headers %v", path, resp.Header)
		}
	}
	var live map[string]string
	ta.c.Get("/v1/health/live").ExpectStatus(t, 200).Decode(t, &live)
	var ready map[string]string
	ta.c.Get("/v1/health/ready").ExpectStatus(t, 200).Decode(t, &ready)
	if live["status"] != "alive" || ready["status"] != "ready" {
		t.Errorf("live %v ready %v", live, ready)
	}
}

// TestHealthDegraded: a remote engine and identity provider that do not
// answer give 503 degraded, and the error text stays in the log.
func TestHealthDegraded(t *testing.T) {
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	ta := newTestApp(t, map[string]string{
		"PROCESS_ENGINE_URL": down.URL + "/engine-rest", "PROCESS_ENGINE_TIMEOUT": "2000",
		"IDP_URL": down.URL,
	})
	resp := ta.c.Get("/v1/health").ExpectStatus(t, 503)
	var got struct {
		Status   string
		Services map[string]map[string]any
	}
	resp.Decode(t, &got)
	if got.Status != "degraded" || got.Services["process_engine"]["status"] != "down" || got.Services["identity_provider"]["status"] != "down" {
		t.Errorf("health: %s", resp.Body)
	}
	if strings.Contains(string(resp.Body), "127.0.0.1") || strings.Contains(string(resp.Body), "refused") {
		t.Errorf("health leaks error text: %s", resp.Body)
	}
	var ready map[string]string
	ta.c.Get("/v1/health/ready").ExpectStatus(t, 503).Decode(t, &ready)
	if ready["status"] != "not ready" || ready["reason"] != "process engine unavailable" {
		t.Errorf("ready: %v", ready)
	}
}

func TestHealthExternal(t *testing.T) {
	var methods sync.Map
	ok := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		methods.Store(r.Method, true)
		w.WriteHeader(http.StatusNotFound) // reachable: below 500 is up
	}))
	defer ok.Close()
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadGateway)
	}))
	defer failing.Close()
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	ta := newTestApp(t, map[string]string{
		"HEALTH_RULES_API_URL": ok.URL + "/docs", "HEALTH_KNOWLEDGE_GRAPH_URL": failing.URL, "HEALTH_EXPLORER_URL": gone.URL,
	})
	var data map[string]struct {
		Status  string `json:"status"`
		Latency *int64 `json:"latency"`
	}
	ta.c.Get("/v1/health/external").Data(t, 200, &data)
	if data["cprmv"].Status != "up" || data["triplydb"].Status != "down" || data["lde"].Status != "down" || len(data) != 3 {
		t.Errorf("external: %+v", data)
	}
	for k, v := range data {
		if v.Latency == nil {
			t.Errorf("%s: no latency", k)
		}
	}
	if _, head := methods.Load("HEAD"); !head {
		t.Error("the probe must be a HEAD request")
	}
}

// TestOpenAPICoversEveryRoute walks the real mux: a route registered without
// its operation in the document fails here.
func TestOpenAPICoversEveryRoute(t *testing.T) {
	ta := newTestApp(t, nil)
	resp := ta.c.Get("/v1/openapi.json").ExpectStatus(t, 200)
	paths, n := apitest.CheckOpenAPI(t, ta.router.Mux(), resp.Body)
	if n < 12 {
		t.Fatalf("walked only %d routes", n)
	}
	for _, p := range []string{"/v1/decision/{key}/evaluate", "/v1/m2m/decision/{key}", "/v1/brp/personen", "/v1/admin/audit", "/api/decision"} {
		if paths[p] == nil {
			t.Errorf("%s missing from the document", p)
		}
	}
}

func TestEveryResponseCarriesAPIVersion(t *testing.T) {
	ta := newTestApp(t, nil)
	for _, req := range []struct{ method, path string }{
		{"GET", "/"}, {"GET", "/v1/openapi.json"}, {"GET", "/v1/nope"}, {"POST", "/v1/health"},
		{"GET", "/v1/brp/personen"}, {"POST", "/v1/decision/x/evaluate"},
	} {
		resp := ta.c.Do(req.method, req.path, nil)
		if resp.Header.Get("API-Version") != version || resp.Header.Get("X-Request-ID") == "" {
			t.Errorf("%s %s (%d): no API-Version or X-Request-ID", req.method, req.path, resp.Status)
		}
	}
	msg := ta.c.Get("/v1/nope").ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	if msg != "Endpoint not found: GET /v1/nope" {
		t.Errorf("404 message %q", msg)
	}
	ta.c.Do("DELETE", "/v1/health", nil).ExpectError(t, http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED")
}

// TestBRPPrefixAnswersProblems: 401, 404 and 405 under /v1/brp/ are
// problem+json like the route's own failures.
func TestBRPPrefixAnswersProblems(t *testing.T) {
	ta := newTestApp(t, nil)
	for _, tc := range []struct {
		method, path string
		status       int
		code         string
	}{
		{"POST", "/v1/brp/personen", 401, "MISSING_TOKEN"},
		{"GET", "/v1/brp/personen", 405, "METHOD_NOT_ALLOWED"},
		{"GET", "/v1/brp/other", 404, "NOT_FOUND"},
	} {
		resp := ta.c.Do(tc.method, tc.path+"?bsn=999992235", nil)
		expectProblem(t, resp, tc.status, tc.code, tc.path)
	}
}

func expectProblem(t *testing.T, resp *apitest.Response, status int, code, instance string) map[string]any {
	t.Helper()
	if resp.Status != status || resp.Header.Get("Content-Type") != "application/problem+json" {
		t.Fatalf("status %d (%s), want %d problem: %s", resp.Status, resp.Header.Get("Content-Type"), status, resp.Body)
	}
	p := resp.JSON(t)
	if p["code"] != code || p["type"] != "about:blank" || p["instance"] != instance || p["title"] == "" || p["detail"] == "" ||
		p["status"] != json.Number(itoa(status)) {
		t.Fatalf("problem %v, want code %s instance %s", p, code, instance)
	}
	return p
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestREADMEDocumentsEveryVariable keeps the README's business configuration
// table in step with what loadConfig reads.
func TestREADMEDocumentsEveryVariable(t *testing.T) {
	readme, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	start := bytes.Index(readme, []byte("## Business API configuration"))
	if start < 0 {
		t.Fatal("README has no \"## Business API configuration\" section")
	}
	section := readme[start:]
	if end := bytes.Index(section[3:], []byte("\n## ")); end >= 0 {
		section = section[:end+3]
	}
	_, env, err := loadConfig(func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range env.Vars() {
		if !bytes.Contains(section, []byte("| `"+v.Name+"` |")) {
			t.Errorf("README's business configuration table lacks %s", v.Name)
		}
	}
	for name, alias := range aliases {
		if !bytes.Contains(section, []byte(alias)) {
			t.Errorf("README's business configuration table does not name the alias %s of %s", alias, name)
		}
	}
}
