package server

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/regelkit/regelkit/norms/cprmv"
	"github.com/regelkit/regelkit/servers/internal/apitest"
	"github.com/regelkit/regelkit/sparql/graph"
)

// march1 is the clock of the notes' examples: today = 2026-03-01.
func march1() time.Time { return time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC) }

func testConfig(t testing.TB, env map[string]string) *config {
	t.Helper()
	cfg, _, err := loadConfig(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// newTestServer serves the real handler chain over the given repository
// (nil: the embedded fixtures) with the fixed clock.
func newTestServer(t testing.TB, repo cprmv.Repository, limits cprmv.Limits) (*app, *httptest.Server) {
	t.Helper()
	svc, err := cprmv.New(cprmv.Options{Repository: repo, Now: march1, Limits: limits})
	if err != nil {
		t.Fatal(err)
	}
	a, err := newAppWith(testConfig(t, nil), slog.New(slog.DiscardHandler), svc, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(a.Handler())
	t.Cleanup(srv.Close)
	return a, srv
}

var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

type result struct {
	status int
	header http.Header
	body   string
}

func fetch(t testing.TB, srv *httptest.Server, path string) result {
	t.Helper()
	r, err := tryFetch(srv, path)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// tryFetch is fetch for goroutines other than the test's.
func tryFetch(srv *httptest.Server, path string) (result, error) {
	resp, err := noRedirect.Get(srv.URL + path)
	if err != nil {
		return result{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return result{resp.StatusCode, resp.Header, string(b)}, err
}

func TestRoot(t *testing.T) {
	_, srv := newTestServer(t, nil, cprmv.Limits{})
	r := fetch(t, srv, "/")
	if r.status != 200 || r.body != `{"CPRMV Rules Serve API": "0.4.1"}` {
		t.Errorf("GET /: %d %s", r.status, r.body)
	}
	if ct := r.header.Get("Content-Type"); ct != "text/plain; charset=utf-8" {
		t.Errorf("content type %q", ct)
	}
	req, _ := http.NewRequest("GET", srv.URL+"/", nil)
	req.Header.Set("Origin", "https://elsewhere.example")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "*" {
		t.Errorf("CORS origin %q, want *", got)
	}
}

func TestMethods(t *testing.T) {
	_, srv := newTestServer(t, nil, cprmv.Limits{})
	formats := map[string]graph.Format{"": graph.JSONLD, "json-ld": graph.JSONLD, "xml": graph.RDFXML,
		"turtle": graph.Turtle, "ttl": graph.Turtle, "n3": graph.Turtle, "turtle2": graph.NTriples}
	var first *graph.Graph
	for f, syntax := range formats {
		r := fetch(t, srv, "/methods?format="+f)
		if r.status != 200 {
			t.Fatalf("format %q: %d %s", f, r.status, r.body)
		}
		g, err := graph.ParseGraph(strings.NewReader(r.body), syntax, graph.ParseOptions{})
		if err != nil {
			t.Fatalf("format %q does not parse: %v", f, err)
		}
		if first == nil {
			first = g
		} else if !graph.Isomorphic(first, g) {
			t.Errorf("format %q is not isomorphic to the others", f)
		}
	}
	bwb := graph.IRI(cprmv.MethodsNS + "bwb")
	loc, _ := first.Object(bwb, graph.IRI(cprmv.ServeNS+"repository-publication-location-format"))
	if loc.Value != "https://repository.officiele-overheidspublicaties.nl/bwb/BWB{rulesetid}/{date}_{index}/xml/BWB{rulesetid}_{date}_{index}.xml" {
		t.Errorf("bwb location setting: %q", loc.Value)
	}
	head, _ := first.Object(graph.IRI(cprmv.MethodsNS+"publicationmethods"), graph.IRI("http://www.w3.org/2000/01/rdf-schema#member"))
	items, _ := first.List(head)
	var order []string
	for _, it := range items {
		order = append(order, strings.TrimPrefix(it.Value, cprmv.MethodsNS))
	}
	if strings.Join(order, ",") != "bwb,cvdr,cellarfmx4,dmn13operaton" {
		t.Errorf("detection order %v", order)
	}
	if !first.Has(graph.Triple{S: graph.IRI(cprmv.NS + "RuleSet"), P: graph.IRI(graph.RDF + "type"), O: graph.IRI("http://www.w3.org/2002/07/owl#Class")}) {
		t.Error("the vocabulary is not merged into the methods graph")
	}
	if r := fetch(t, srv, "/methods?format=csv"); r.status != 400 || r.body != `{"error": "Unsupported format."}` {
		t.Errorf("unknown format: %d %s", r.status, r.body)
	}
}

// TestRulesErrors checks the statuses and exact bodies of the rule-serving
// API's errors.
func TestRulesErrors(t *testing.T) {
	_, srv := newTestServer(t, nil, cprmv.Limits{})
	for _, c := range []struct {
		path   string
		status int
		body   string
	}{
		{"/rules/UNKNOWN_ID_X", 400, `{"error": "No supported publication repository use identifiers with the format of the given Ruleset Id."}`},
		{"/rules/BWBR9999999", 404, `{"error": "Rule set not found in the publication repository."}`},
		{"/rules/BWBR0015703_2020-01-01_latest", 404, `{"error": "Rule set not found in the publication repository."}`},
		{"/rules/BWBR0015703,Artikel%2099", 404, `No rules found for given path...`},
		{"/rules/BWBR00157", 400, `{"error": "rule_id_path must be 10 to 500 characters."}`},
		{"/rules/BWBR0015703," + strings.Repeat("x", 489), 400, `{"error": "rule_id_path must be 10 to 500 characters."}`},
		{"/rules/BWBR0015703?format=csv", 400, `{"error": "Unsupported format."}`},
		{"/rules/BWBR0015703?language=en", 400, `{"error": "Unsupported language."}`},
		{"/rules/BWBR0015703?_language=de", 400, `{"error": "Unsupported language."}`},
		{"/rules/BWBR0015703?unformat=%7Ba%3Ad%7D", 400, `{"error": "Invalid unformat pattern."}`},
		{"/ref/Juriconnect/jci1.3:c:BWB123&artikel=1", 404, `{"error": "not a valid or supported reference..."}`},
		{"/ref/Other/x", 404, `{"error": "not a valid or supported reference..."}`},
		{"/ref/Juriconnect/jci1.3:m:BWBR0015703&artikel=20", 404, `{"error": "not a valid or supported reference..."}`},
		{"/ref?reference=", 404, `{"error": "not a valid or supported reference..."}`},
	} {
		r := fetch(t, srv, c.path)
		if r.status != c.status || r.body != c.body {
			t.Errorf("%.60s: %d %s, want %d %s", c.path, r.status, r.body, c.status, c.body)
		}
		if ct := r.header.Get("Content-Type"); ct != "text/plain; charset=utf-8" {
			t.Errorf("%.60s: content type %q", c.path, ct)
		}
	}
	// 500 code points is the upper bound, counted after decoding.
	if r := fetch(t, srv, "/rules/BWBR0015703,"+strings.Repeat("x", 488)); r.status != 404 {
		t.Errorf("a 500-character path must pass the length check: %d %s", r.status, r.body)
	}
}

func TestRules(t *testing.T) {
	_, srv := newTestServer(t, nil, cprmv.Limits{})
	r := fetch(t, srv, "/rules/BWBR0015703_2025-07-01_0%2CArtikel%2020%2Clid%201")
	if r.status != 200 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(r.body), &obj); err != nil {
		t.Fatal(err)
	}
	if obj[cprmv.NS+"id"] != "BWBR0015703_2025-07-01_0" || obj[cprmv.NS+"comment"] != "Participatiewet" {
		t.Errorf("rule set: %v", obj)
	}
	// The same rule by "/" and by a custom delimiter.
	for _, p := range []string{"/rules/BWBR0015703_2025-07-01_0/Artikel%2020/lid%201",
		"/rules/BWBR0015703_2025-07-01_0%7CArtikel%2020%7Clid%201?path_delimiter=%7C"} {
		if got := fetch(t, srv, p); got.body != r.body {
			t.Errorf("%s differs from the comma path: %s", p, got.body)
		}
	}
	// unformat, sent as the notes spell it, with format=turtle still JSON.
	u := fetch(t, srv, "/rules/BWBR0015703_2025-07-01_0,Artikel%2020,lid%201,onderdeel%20a?format=turtle&unformat="+
		"%7Bsituatie%3Aparam_value%7D%3A%20%E2%82%AC%20%7Bnorm%3Aparam_value%7D")
	if u.status != 200 || !strings.Contains(u.body, `"http://cprmv.open-regels.nl/norm":"337,98;"`) ||
		!strings.Contains(u.body, `"http://cprmv.open-regels.nl/rule_id_path":"BWBR0015703_2025-07-01_0, Artikel 20, lid 1, onderdeel a."`) {
		t.Errorf("unformat: %d %s", u.status, u.body)
	}
	// Every RDF format of the same path parses back and agrees.
	var graphs []*graph.Graph
	for f, syntax := range map[string]graph.Format{"json-ld": graph.JSONLD, "xml": graph.RDFXML, "turtle": graph.Turtle, "turtle2": graph.NTriples} {
		got := fetch(t, srv, "/rules/BWBR0015703_2025-07-01_0,Artikel%2020?format="+f)
		g, err := graph.ParseGraph(strings.NewReader(got.body), syntax, graph.ParseOptions{})
		if got.status != 200 || err != nil {
			t.Fatalf("%s: %d %v", f, got.status, err)
		}
		graphs = append(graphs, g)
	}
	for _, g := range graphs[1:] {
		if !graph.Isomorphic(graphs[0], g) {
			t.Error("RDF formats of /rules are not isomorphic")
		}
	}
}

func TestRef(t *testing.T) {
	_, srv := newTestServer(t, nil, cprmv.Limits{})
	for _, c := range [][2]string{
		{"/ref/Juriconnect/jci1.3:c:BWBR0015703&hoofdstuk=3&paragraaf=3.2&artikel=20&z=2025-07-01&g=2025-07-01",
			"/rules/BWBR0015703_2025-07-01_latest%2CHoofdstuk%203%2CParagraaf%203.2%2CArtikel%2020"},
		{"/ref/Juriconnect/jci1.31:c:BWBR0015703&artikel=20&o=a.", "/rules/BWBR0015703_2026-03-01_latest%2CArtikel%2020%2Conderdeel%20a."},
		{"/ref/juriconnect/jci1.3:c:BWBR0011825&hoofdstuk=2&artikel=3", "/rules/BWBR0011825_2026-03-01_latest%2CHoofdstuk%202%2CArtikel%203"},
		{"/ref/Juriconnect/jci1.3%3Ac%3ABWBR0015703&artikel=20&lid=1", "/rules/BWBR0015703_2026-03-01_latest%2CArtikel%2020%2Clid%201"},
		{"/ref/cprmvapi/https://cprmv.open-regels.nl/rules/BWBR0015703/Artikel%2021", "/rules/BWBR0015703%2CArtikel%2021"},
		{"/ref?reference=jci1.3%3Ac%3ABWBR0015703%26artikel%3D21", "/rules/BWBR0015703_2026-03-01_latest%2CArtikel%2021"},
		{"/ref?reference=https%3A%2F%2Fx.example%2Frules%2FCVDR712517%2FArtikel%25202", "/rules/CVDR712517%2CArtikel%202"},
	} {
		r := fetch(t, srv, c[0])
		if r.status != 302 || r.header.Get("Location") != c[1] || r.body != "" {
			t.Errorf("%s: %d Location %q body %q, want 302 %s", c[0], r.status, r.header.Get("Location"), r.body, c[1])
			continue
		}
		// The redirect resolves.
		if got := fetch(t, srv, c[1]); got.status != 200 {
			t.Errorf("%s → %s: %d %s", c[0], c[1], got.status, got.body)
		}
	}
}

func TestRespec(t *testing.T) {
	_, srv := newTestServer(t, nil, cprmv.Limits{})
	if r := fetch(t, srv, "/respec"); r.status != 301 || r.header.Get("Location") != "/respec/" {
		t.Errorf("/respec: %d %s", r.status, r.header.Get("Location"))
	}
	for _, p := range []string{"/respec/", "/respec/index.html", "/respec/0.4.1/"} {
		r := fetch(t, srv, p)
		if r.status != 200 || !strings.Contains(r.body, "<h1>CPRMV 0.4.1") || r.header.Get("Cache-Control") != "public, max-age=3600" ||
			r.header.Get("Content-Type") != "text/html; charset=utf-8" {
			t.Errorf("%s: %d %q", p, r.status, r.header.Get("Cache-Control"))
		}
		if strings.Contains(r.body, "<script") || strings.Contains(r.body, "https://cdn") {
			t.Errorf("%s loads something from elsewhere", p)
		}
	}
	// The data files are the ones the server runs on.
	want, _ := io.ReadAll(must(cprmv.Files().Open("cprmvmethods.ttl")))
	for _, p := range []string{"/respec/cprmvmethods.ttl", "/respec/0.4.1/cprmvmethods.ttl"} {
		if r := fetch(t, srv, p); r.status != 200 || r.body != string(want) {
			t.Errorf("%s: %d", p, r.status)
		}
	}
	for _, p := range []string{"/respec/cprmv.ttl", "/respec/cprmv.shacl.ttl"} {
		r := fetch(t, srv, p)
		if _, err := graph.ParseGraph(strings.NewReader(r.body), graph.Turtle, graph.ParseOptions{}); r.status != 200 || err != nil {
			t.Errorf("%s: %d %v", p, r.status, err)
		}
	}
	if r := fetch(t, srv, "/respec/nothing.html"); r.status != 404 {
		t.Errorf("unknown file: %d", r.status)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestOpenAPICoversEveryRoute walks the real mux: a route registered
// without its operation in the document fails here.
func TestOpenAPICoversEveryRoute(t *testing.T) {
	a, srv := newTestServer(t, nil, cprmv.Limits{})
	r := fetch(t, srv, "/openapi.json")
	if _, n := apitest.CheckOpenAPI(t, a.router.Mux(), []byte(r.body)); n < 8 {
		t.Fatalf("walked only %d routes", n)
	}
}

// TestREADMEDocumentsEveryVariable keeps the README's rules configuration
// table in step with what loadConfig reads.
func TestREADMEDocumentsEveryVariable(t *testing.T) {
	readme, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := bytes.Cut(readme, []byte("## Rules API configuration"))
	if !ok {
		t.Fatal(`README has no "## Rules API configuration" section`)
	}
	if i := bytes.Index(section, []byte("\n## ")); i >= 0 {
		section = section[:i]
	}
	_, env, err := loadConfig(func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range env.Vars() {
		if !bytes.Contains(section, []byte("| `"+v.Name+"` |")) {
			t.Errorf("README's rules configuration table lacks %s", v.Name)
		}
	}
}

func TestConfig(t *testing.T) {
	cfg := testConfig(t, nil)
	if cfg.Port != 8083 || cfg.Repository != "local" || cfg.Timeout != 10*time.Second || cfg.MaxDocument != 50<<20 {
		t.Errorf("defaults: %+v", cfg)
	}
	if _, _, err := loadConfig(func(k string) (string, bool) {
		return map[string]string{"RULES_REPOSITORY": "ftp"}[k], k == "RULES_REPOSITORY"
	}); err == nil {
		t.Error("RULES_REPOSITORY=ftp must be refused")
	}
	if _, err := newApp(testConfig(t, map[string]string{"RULES_REPOSITORY": "http", "RULES_EXTRA_CA_FILE": "/nonexistent.pem"}),
		slog.New(slog.DiscardHandler)); err == nil || !strings.Contains(err.Error(), "RULES_EXTRA_CA_FILE") {
		t.Errorf("a missing CA file must stop the start: %v", err)
	}
	dir := t.TempDir()
	if _, err := newApp(testConfig(t, map[string]string{"RULES_REPOSITORY_DIR": dir + "/missing"}), slog.New(slog.DiscardHandler)); err == nil {
		t.Error("a missing repository directory must stop the start")
	}
}
