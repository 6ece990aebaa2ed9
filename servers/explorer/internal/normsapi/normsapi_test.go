package normsapi_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/regelkit/regelkit/examples"
	"github.com/regelkit/regelkit/norms"
	"github.com/regelkit/regelkit/servers/explorer/internal/normsapi"
	"github.com/regelkit/regelkit/servers/internal/apitest"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/outbound"
	"github.com/regelkit/regelkit/sparql"
	"github.com/regelkit/regelkit/sparql/graph"
	"github.com/regelkit/regelkit/sparql/memstore"
)

// loadExamples returns a memstore with the whole embedded example
// knowledge graph, as the explorer loads it.
func loadExamples() (*memstore.Store, error) {
	s := memstore.New()
	for _, p := range examples.KnowledgeGraph {
		f, err := examples.FS.Open(p)
		if err != nil {
			return nil, err
		}
		err = s.Load(context.Background(), f, graph.Turtle)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
	}
	return s, nil
}

func exampleStore(tb testing.TB) *memstore.Store {
	tb.Helper()
	s, err := loadExamples()
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// countingEndpoint records the SELECT queries and can fail some of them.
type countingEndpoint struct {
	sparql.Endpoint
	selects []string
	fail    func(query string) error
}

func (c *countingEndpoint) Select(ctx context.Context, q string) (*sparql.Results, error) {
	c.selects = append(c.selects, q)
	if c.fail != nil {
		if err := c.fail(q); err != nil {
			return nil, err
		}
	}
	return c.Endpoint.Select(ctx, q)
}

// rulesQueries counts the rules queries among the recorded selects.
func (c *countingEndpoint) rulesQueries() int {
	n := 0
	for _, q := range c.selects {
		if strings.Contains(q, "ruleIdPath") {
			n++
		}
	}
	return n
}

type fakeClock struct{ t time.Time }

func (c *fakeClock) Now() time.Time          { return c.t }
func (c *fakeClock) Advance(d time.Duration) { c.t = c.t.Add(d) }

type fixture struct {
	client *apitest.Client
	router *httpapi.Router
	store  *memstore.Store
	ep     *countingEndpoint
	clock  *fakeClock
}

func setup(t *testing.T, configure ...func(*normsapi.Deps)) *fixture {
	t.Helper()
	f := &fixture{store: exampleStore(t), clock: &fakeClock{t: time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)}}
	f.ep = &countingEndpoint{Endpoint: f.store}
	deps := normsapi.Deps{
		Service:  norms.NewService(norms.Options{Now: f.clock.Now}),
		Endpoint: f.ep,
	}
	for _, c := range configure {
		c(&deps)
	}
	f.router = httpapi.NewRouter(httpapi.RouterOptions{})
	normsapi.Register(f.router, deps)
	f.client = apitest.New(t, httpapi.Middleware(f.router, httpapi.MiddlewareOptions{Version: "test"}))
	return f
}

func etagOf(datasetPart, filterPart string) string {
	sum := sha256.Sum256([]byte(datasetPart + "||" + filterPart))
	return `"` + hex.EncodeToString(sum[:]) + `"`
}

// The records of BWBR0015703 in the example data (0.3.0), newest first.
const participatiewet030 = "BWBR0015703=2026-01-01:2026-05-15T06:57:11Z,2025-07-01:2025-07-08T10:00:00Z," +
	"2025-07-01:2025-06-16T07:45:00Z,2025-01-01:2024-12-16T08:30:00Z,2024-07-01:2024-06-14T09:12:00Z"

var etagParticipatiewet = etagOf(participatiewet030, "cprmv_version=0.3.0|rulesetid=BWBR0015703")

const lastModifiedParticipatiewet = "Fri, 15 May 2026 06:57:11 GMT"

// keysOf returns the member names of a JSON object in document order.
func keysOf(t *testing.T, raw json.RawMessage) []string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %s", raw)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

func expectHeaders(t *testing.T, resp *apitest.Response, want map[string]string) {
	t.Helper()
	for k, v := range want {
		if got := resp.Header.Get(k); got != v {
			t.Errorf("%s: %q, want %q", k, got, v)
		}
		if v == "" {
			if _, present := resp.Header[http.CanonicalHeaderKey(k)]; present {
				t.Errorf("%s present: %q", k, resp.Header.Values(k))
			}
		}
	}
}

func TestNormsSingleRuleset(t *testing.T) {
	f := setup(t)
	resp := f.client.Get("/v1/norms?rulesetid=BWBR0015703&applicable_date=2026-01-01")
	resp.ExpectStatus(t, 200)
	env := resp.Envelope(t)
	if !env.Success {
		t.Fatalf("failure: %s", resp.Body)
	}
	expectHeaders(t, resp, map[string]string{
		"ETag":          etagOf(participatiewet030, "applicable_date=2026-01-01|cprmv_version=0.3.0|rulesetid=BWBR0015703"),
		"Last-Modified": lastModifiedParticipatiewet,
		"Cache-Control": "public, max-age=3600",
		"API-Version":   "test",
		"Deprecation":   "",
		"Sunset":        "",
	})
	if d := cmp.Diff([]string{"total", "dataset_versions", "cprmv_version", "aggregations", "rules"}, keysOf(t, env.Data)); d != "" {
		t.Errorf("data keys (-want +got):\n%s", d)
	}
	var data struct {
		Total           int                          `json:"total"`
		DatasetVersions map[string][]json.RawMessage `json:"dataset_versions"`
		CPRMVVersion    string                       `json:"cprmv_version"`
		Aggregations    map[string]map[string]int    `json:"aggregations"`
		Rules           []json.RawMessage            `json:"rules"`
	}
	if err := json.Unmarshal(env.Data, &data); err != nil {
		t.Fatal(err)
	}
	if data.Total != 1 || len(data.Rules) != 1 || data.CPRMVVersion != "0.3.0" {
		t.Fatalf("total %d, %d rules, cprmv_version %q", data.Total, len(data.Rules), data.CPRMVVersion)
	}
	if d := cmp.Diff(map[string]map[string]int{"norms_per_rulesetid": {"BWBR0015703": 1}}, data.Aggregations); d != "" {
		t.Errorf("aggregations (-want +got):\n%s", d)
	}
	if got := string(data.DatasetVersions["BWBR0015703"][0]); got != `{"version":"2026-01-01","published_at":"2026-05-15T06:57:11Z","title":"Participatiewet"}` {
		t.Errorf("newest record %s", got)
	}
	const ns = "https://cprmv.open-regels.nl/0.3.0/"
	wantKeys := []string{"http://www.w3.org/1999/02/22-rdf-syntax-ns#type", ns + "id", ns + "definition", ns + "contains",
		"rulesetid", "applicable_date", "rulesetid_index", "rule_id_path", "rule_id_path_key"}
	if d := cmp.Diff(wantKeys, keysOf(t, data.Rules[0])); d != "" {
		t.Errorf("rule keys (-want +got):\n%s", d)
	}
	var r map[string]any
	_ = json.Unmarshal(data.Rules[0], &r)
	for k, want := range map[string]any{"rulesetid": "BWBR0015703", "applicable_date": "2026-01-01", "rulesetid_index": 1.0,
		"rule_id_path": "BWBR0015703_2026-01-01_1", "rule_id_path_key": "BWBR0015703", ns + "id": "BWBR0015703"} {
		if r[k] != want {
			t.Errorf("rule %s = %v, want %v", k, r[k], want)
		}
	}
}

func TestNormAmountsAndVocabularies(t *testing.T) {
	f := setup(t)
	var data struct {
		CPRMVVersion string           `json:"cprmv_version"`
		Rules        []map[string]any `json:"rules"`
	}
	f.client.Get("/v1/norms?rulesetid=BWBR0015703&applicable_date=2025-07-01&cprmv_version=0.4.1").Data(t, 200, &data)
	const ns = "https://standaarden.open-regels.nl/standards/cprmv/0.4.1#"
	if data.CPRMVVersion != "0.4.1" || len(data.Rules) != 2 {
		t.Fatalf("cprmv_version %q, %d rules", data.CPRMVVersion, len(data.Rules))
	}
	amount := data.Rules[1]
	for k, want := range map[string]any{
		"http://www.w3.org/1999/02/22-rdf-syntax-ns#type": ns + "Rule",
		ns + "id":   "Artikel 21 onderdeel a",
		"situatie":  "alleenstaande van 21 jaar of ouder, jonger dan de pensioengerechtigde leeftijd",
		"norm":      "1369.06",
		"per":       "maand",
		"rulesetid": "BWBR0015703",
	} {
		if amount[k] != want {
			t.Errorf("0.4.1 rule %s = %v, want %v", k, amount[k], want)
		}
	}
	if _, ok := data.Rules[0][ns+"contains"].(map[string]any)["onderdeel a"]; !ok {
		t.Errorf("0.4.1 contains: %v", data.Rules[0][ns+"contains"])
	}
}

func TestValidation(t *testing.T) {
	f := setup(t)
	tests := []struct {
		query, message string
	}{
		{"rulesetid=" + url.QueryEscape(`BWBR" } DROP ALL #`), "Invalid rulesetid: must match /^[A-Za-z0-9_-]+$/"},
		{"rulesetid=BWBR%200015703", "Invalid rulesetid: must match /^[A-Za-z0-9_-]+$/"},
		{"applicable_date=2026-1-1", "Invalid applicable_date: must be YYYY-MM-DD"},
		{"applicable_date=" + url.QueryEscape(`2026-01-01")`), "Invalid applicable_date: must be YYYY-MM-DD"},
		{"cprmv_version=0.4.0", "Invalid cprmv_version: must be one of 0.3.0, 0.3.2, 0.4.1"},
		{"rulesetid=A&rulesetid=B", "Invalid rulesetid: give it at most once"},
		{"endpoint=https://graph.example/sparql", "Invalid endpoint: this server only serves its configured knowledge graph"},
	}
	for _, tt := range tests {
		resp := f.client.Get("/v1/norms?" + tt.query)
		if msg := resp.ExpectError(t, 400, "INVALID_REQUEST"); msg != tt.message {
			t.Errorf("%s: message %q, want %q", tt.query, msg, tt.message)
		}
		expectHeaders(t, resp, map[string]string{"API-Version": "test", "ETag": "", "Cache-Control": ""})
	}
	if len(f.ep.selects) != 0 {
		t.Errorf("invalid requests ran %d queries", len(f.ep.selects))
	}
	// Empty values count as absent.
	var data struct{ Total int }
	f.client.Get("/v1/norms?rulesetid=&applicable_date=&cprmv_version=&endpoint=").Data(t, 200, &data)
	if data.Total != 15 {
		t.Errorf("empty parameters: total %d, want all 15 rules of 0.3.0", data.Total)
	}
}

func TestNotModified(t *testing.T) {
	f := setup(t)
	path := "/v1/norms?rulesetid=BWBR0015703"
	f.client.Get(path).ExpectStatus(t, 200)
	earlier := "Fri, 15 May 2026 06:57:10 GMT"
	tests := []struct {
		name    string
		headers []string
		want    int
	}{
		{"exact ETag", []string{"If-None-Match", etagParticipatiewet}, 304},
		{"ETag in a list", []string{"If-None-Match", `"0000", ` + etagParticipatiewet + `, "1111"`}, 304},
		{"weak comparison", []string{"If-None-Match", "W/" + etagParticipatiewet}, 304},
		{"star", []string{"If-None-Match", "*"}, 304},
		{"other ETag", []string{"If-None-Match", `"0000"`}, 200},
		{"ETag without quotes", []string{"If-None-Match", strings.Trim(etagParticipatiewet, `"`)}, 200},
		{"If-Modified-Since equal", []string{"If-Modified-Since", lastModifiedParticipatiewet}, 304},
		{"If-Modified-Since later", []string{"If-Modified-Since", "Sat, 16 May 2026 00:00:00 GMT"}, 304},
		{"If-Modified-Since earlier", []string{"If-Modified-Since", earlier}, 200},
		{"If-Modified-Since unparsable", []string{"If-Modified-Since", "yesterday"}, 200},
		{"If-None-Match decides over If-Modified-Since", []string{"If-None-Match", `"0000"`, "If-Modified-Since", lastModifiedParticipatiewet}, 200},
		{"If-None-Match match, If-Modified-Since earlier", []string{"If-None-Match", etagParticipatiewet, "If-Modified-Since", earlier}, 304},
	}
	for _, tt := range tests {
		resp := f.client.Get(path, tt.headers...)
		if resp.Status != tt.want {
			t.Errorf("%s: status %d, want %d", tt.name, resp.Status, tt.want)
			continue
		}
		expectHeaders(t, resp, map[string]string{
			"ETag": etagParticipatiewet, "Last-Modified": lastModifiedParticipatiewet,
			"Cache-Control": "public, max-age=3600", "API-Version": "test",
		})
		if tt.want == 304 {
			if len(resp.Body) != 0 {
				t.Errorf("%s: 304 with body %q", tt.name, resp.Body)
			}
			if ct := resp.Header.Get("Content-Type"); ct != "" {
				t.Errorf("%s: 304 with Content-Type %q", tt.name, ct)
			}
		}
	}

	// The full path answers conditionals too (no rulesetid: 0.4.1 is fully
	// versioned as a whole).
	resp := f.client.Get("/v1/norms?cprmv_version=0.4.1")
	etag := resp.ExpectStatus(t, 200).Header.Get("ETag")
	want041 := etagOf("BWBR0015703=2025-07-01:2025-07-01,2025-01-01:2025-01-01", "cprmv_version=0.4.1")
	if etag != want041 || resp.Header.Get("Last-Modified") != "Tue, 01 Jul 2025 00:00:00 GMT" {
		t.Fatalf("0.4.1 ETag %s (want %s), Last-Modified %q", etag, want041, resp.Header.Get("Last-Modified"))
	}
	before := f.ep.rulesQueries()
	resp = f.client.Get("/v1/norms?cprmv_version=0.4.1", "If-None-Match", etag)
	if resp.Status != 304 || len(resp.Body) != 0 {
		t.Errorf("full-path conditional: %d %q", resp.Status, resp.Body)
	}
	if f.ep.rulesQueries() != before+1 {
		t.Errorf("a query without rulesetid must run the rules query before deciding")
	}
}

func TestSingleRuleset304RunsNoRulesQuery(t *testing.T) {
	f := setup(t)
	path := "/v1/norms?rulesetid=BWBR0015703&applicable_date=2025-07-01"
	etag := f.client.Get(path).ExpectStatus(t, 200).Header.Get("ETag")
	if f.ep.rulesQueries() != 1 || len(f.ep.selects) != 2 {
		t.Fatalf("first request: %d selects (%d rules queries), want metadata + rules", len(f.ep.selects), f.ep.rulesQueries())
	}

	// Warm cache: the 304 runs no query at all.
	resp := f.client.Get(path, "If-None-Match", etag)
	resp.ExpectStatus(t, 304)
	if len(f.ep.selects) != 2 {
		t.Errorf("304 from a warm cache ran %d more queries", len(f.ep.selects)-2)
	}

	// Expired cache: the metadata is fetched again, the rules query still
	// does not run.
	f.clock.Advance(61 * time.Second)
	f.client.Get(path, "If-None-Match", etag).ExpectStatus(t, 304)
	if len(f.ep.selects) != 3 || f.ep.rulesQueries() != 1 {
		t.Errorf("304 after expiry: %d selects, %d rules queries; want 3 and 1", len(f.ep.selects), f.ep.rulesQueries())
	}

	// "*" and If-Modified-Since are decided by the full path: they cannot
	// tell whether the answer is empty.
	f.client.Get(path, "If-None-Match", "*").ExpectStatus(t, 304)
	f.client.Get(path, "If-Modified-Since", lastModifiedParticipatiewet).ExpectStatus(t, 304)
	if f.ep.rulesQueries() != 3 {
		t.Errorf("\"*\" and If-Modified-Since: %d rules queries, want 3", f.ep.rulesQueries())
	}

	// A stale ETag runs the full path and gets the current one.
	resp = f.client.Get(path, "If-None-Match", `"stale"`)
	resp.ExpectStatus(t, 200)
	if f.ep.rulesQueries() != 4 || resp.Header.Get("ETag") != etag {
		t.Errorf("stale ETag: %d rules queries, ETag %s", f.ep.rulesQueries(), resp.Header.Get("ETag"))
	}
}

func TestPartlyUnversionedIsNoCache(t *testing.T) {
	f := setup(t)
	for _, path := range []string{
		"/v1/norms",                       // includes the legacy AOW
		"/v1/norms?rulesetid=BWBR0002221", // only the legacy AOW: no short-circuit either
		"/v1/norms?rulesetid=BWBR0015703&applicable_date=1999-01-01", // empty: short-circuit headers cleared
		"/v1/norms?rulesetid=NO-SUCH-RULESET",
	} {
		for _, headers := range [][]string{nil, {"If-None-Match", "*"}, {"If-Modified-Since", "Fri, 01 Jan 2100 00:00:00 GMT"}} {
			resp := f.client.Get(path, headers...)
			resp.ExpectStatus(t, 200)
			expectHeaders(t, resp, map[string]string{"Cache-Control": "no-cache", "ETag": "", "Last-Modified": "", "API-Version": "test"})
		}
	}
	var data struct {
		Total           int                        `json:"total"`
		DatasetVersions map[string]json.RawMessage `json:"dataset_versions"`
	}
	f.client.Get("/v1/norms?rulesetid=BWBR0002221").Data(t, 200, &data)
	if data.Total != 2 || len(data.DatasetVersions) != 0 {
		t.Errorf("legacy ruleset: total %d, dataset_versions %v", data.Total, data.DatasetVersions)
	}
}

// update runs a SPARQL update on the store.
func update(t *testing.T, s *memstore.Store, u string) {
	t.Helper()
	if err := s.Update(context.Background(), u); err != nil {
		t.Fatalf("update: %v", err)
	}
}

const prefixes = `PREFIX cprmv: <https://cprmv.open-regels.nl/0.3.0/>
PREFIX cprmv041: <https://standaarden.open-regels.nl/standards/cprmv/0.4.1#>
PREFIX dcat: <http://www.w3.org/ns/dcat#>
PREFIX dct: <http://purl.org/dc/terms/>
PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>
PREFIX n030: <https://data.regelkit.example/norms/0.3.0/>
PREFIX n041: <https://data.regelkit.example/norms/0.4.1/>
`

func TestRepublication(t *testing.T) {
	f := setup(t)
	path := "/v1/norms?rulesetid=BWBR0015703"
	etag := f.client.Get(path).Header.Get("ETag")
	if etag != etagParticipatiewet {
		t.Fatalf("ETag %s, want %s", etag, etagParticipatiewet)
	}

	// A title change: still 304 after the cache expired.
	update(t, f.store, prefixes+`DELETE { ?d dct:title ?t } INSERT { ?d dct:title "Participatiewet (nieuw)" }
WHERE { ?d a cprmv:Dataset ; cprmv:rulesetId "BWBR0015703" ; dct:title ?t }`)
	f.clock.Advance(61 * time.Second)
	f.client.Get(path, "If-None-Match", etag).ExpectStatus(t, 304)

	// A republication: a new ETag, the old one gets 200.
	update(t, f.store, prefixes+`INSERT DATA { n030:dataset-BWBR0015703-2026-01-01-bis a cprmv:Dataset ;
  cprmv:rulesetId "BWBR0015703" ; dcat:version "2026-01-01" ; dct:issued "2026-06-01T08:00:00Z"^^xsd:dateTime }`)
	f.clock.Advance(61 * time.Second)
	resp := f.client.Get(path, "If-None-Match", etag)
	resp.ExpectStatus(t, 200)
	if resp.Header.Get("ETag") == etag || resp.Header.Get("Last-Modified") != "Mon, 01 Jun 2026 08:00:00 GMT" {
		t.Errorf("after republication: ETag %s, Last-Modified %q", resp.Header.Get("ETag"), resp.Header.Get("Last-Modified"))
	}

	// 0.4.1 caveat: re-publication with an unchanged validFrom keeps the ETag.
	path041 := "/v1/norms?rulesetid=BWBR0015703&cprmv_version=0.4.1"
	etag041 := f.client.Get(path041).Header.Get("ETag")
	update(t, f.store, prefixes+`INSERT DATA { n041:BWBR0015703-2025-07-01-2-art21a a cprmv041:Rule ;
  cprmv041:id "Artikel 21 onderdeel a" ; cprmv041:definition "Gecorrigeerd." ; cprmv041:rulesetId "BWBR0015703" ;
  cprmv041:ruleIdPath "BWBR0015703_2025-07-01_2, Artikel 21 onderdeel a" ; cprmv041:norm "1369.60" }`)
	f.clock.Advance(61 * time.Second)
	f.client.Get(path041, "If-None-Match", etag041).ExpectStatus(t, 304)
	resp = f.client.Get(path041)
	if resp.Header.Get("ETag") != etag041 || !strings.Contains(string(resp.Body), "1369.60") {
		t.Errorf("0.4.1 republication: ETag %s (was %s), new rule present %v", resp.Header.Get("ETag"), etag041,
			strings.Contains(string(resp.Body), "1369.60"))
	}
}

func TestEndpointParameter(t *testing.T) {
	// A second knowledge graph over real HTTP with only the 0.4.1 data.
	other := memstore.New()
	data, _ := examples.FS.ReadFile("knowledge-graph/norms.ttl")
	if err := other.Load(context.Background(), strings.NewReader(string(data)), graph.Turtle); err != nil {
		t.Fatal(err)
	}
	update(t, other, prefixes+`DELETE { ?d dct:issued ?i } WHERE { ?d a cprmv:Dataset ; dct:issued ?i }`)
	srv := httptest.NewServer(other.Handler(memstore.HandlerOptions{ReadOnly: true}))
	t.Cleanup(srv.Close)

	policy := &outbound.Policy{Strict: true, Allow: []string{srv.URL}}
	var resolved []string
	f := setup(t, func(d *normsapi.Deps) {
		d.Resolve = func(ctx context.Context, u string) (sparql.Endpoint, error) {
			if _, err := policy.Check(u); err != nil {
				return nil, err
			}
			resolved = append(resolved, u)
			return sparql.NewClient(u, sparql.ClientOptions{HTTPClient: policy.Client()}), nil
		}
	})

	// The other graph has no 0.3.0 records: uncacheable there, cacheable
	// in the default graph.
	q := "/v1/norms?rulesetid=BWBR0015703&endpoint=" + url.QueryEscape(srv.URL)
	resp := f.client.Get(q)
	resp.ExpectStatus(t, 200)
	expectHeaders(t, resp, map[string]string{"Cache-Control": "no-cache", "ETag": ""})
	if len(f.ep.selects) != 0 || len(resolved) != 1 || resolved[0] != srv.URL {
		t.Errorf("default endpoint queried %d times; resolved %v", len(f.ep.selects), resolved)
	}

	// 0.4.1 is versioned there; the endpoint is part of the ETag.
	resp = f.client.Get(q + "&cprmv_version=0.4.1")
	want := etagOf("BWBR0015703=2025-07-01:2025-07-01,2025-01-01:2025-01-01",
		"cprmv_version=0.4.1|endpoint="+srv.URL+"|rulesetid=BWBR0015703")
	if got := resp.ExpectStatus(t, 200).Header.Get("ETag"); got != want {
		t.Errorf("ETag with endpoint %s, want %s", got, want)
	}
	f.client.Get(q+"&cprmv_version=0.4.1", "If-None-Match", want).ExpectStatus(t, 304)

	// Refused by the policy: 400 naming the reason.
	for _, bad := range []string{"http://10.0.0.1/sparql", "ftp://graph.example/", "https://user:pw@graph.example/sparql"} {
		msg := f.client.Get("/v1/norms?endpoint="+url.QueryEscape(bad)).ExpectError(t, 400, "INVALID_REQUEST")
		if !strings.HasPrefix(msg, "Invalid endpoint: ") || strings.Contains(msg, "pw") {
			t.Errorf("%s: message %q", bad, msg)
		}
	}
}

func TestQueryFailures(t *testing.T) {
	// Rules query fails after the short-circuit set its headers: 502
	// QUERY_ERROR without validators.
	f := setup(t)
	f.ep.fail = func(q string) error {
		if strings.Contains(q, "ruleIdPath") {
			return errors.New("graph store down")
		}
		return nil
	}
	resp := f.client.Get("/v1/norms?rulesetid=BWBR0015703")
	if msg := resp.ExpectError(t, 502, "QUERY_ERROR"); strings.Contains(msg, "graph store down") {
		t.Errorf("message leaks the cause: %q", msg)
	}
	expectHeaders(t, resp, map[string]string{"ETag": "", "Last-Modified": "", "Cache-Control": "", "API-Version": "test"})

	// Metadata query fails: served, uncacheable, without dataset versions.
	g := setup(t)
	g.ep.fail = func(q string) error {
		if strings.Contains(q, "Dataset") {
			return errors.New("metadata down")
		}
		return nil
	}
	resp = g.client.Get("/v1/norms?rulesetid=BWBR0015703")
	var data struct {
		Total           int                        `json:"total"`
		DatasetVersions map[string]json.RawMessage `json:"dataset_versions"`
	}
	resp.Data(t, 200, &data)
	expectHeaders(t, resp, map[string]string{"Cache-Control": "no-cache", "ETag": ""})
	if data.Total != 11 || len(data.DatasetVersions) != 0 {
		t.Errorf("metadata failure: total %d, dataset_versions %v", data.Total, data.DatasetVersions)
	}
}

func TestDeprecation(t *testing.T) {
	dep := &normsapi.Deprecation{
		Announced: time.Date(2027, 1, 4, 9, 0, 0, 0, time.UTC),
		Sunset:    time.Date(2029, 1, 31, 0, 0, 0, 0, time.UTC),
		Successor: "/v2/norms",
	}
	f := setup(t, func(d *normsapi.Deps) { d.Deprecation = dep })
	want := map[string]string{
		"Deprecation": "@1799053200",
		"Sunset":      "Wed, 31 Jan 2029 00:00:00 GMT",
		"Link":        `</v2/norms>; rel="successor-version"`,
	}
	path := "/v1/norms?rulesetid=BWBR0015703"
	for _, resp := range []*apitest.Response{
		f.client.Get(path).ExpectStatus(t, 200),
		f.client.Get(path, "If-None-Match", etagParticipatiewet).ExpectStatus(t, 304),
		f.client.Get("/v1/norms?cprmv_version=9").ExpectStatus(t, 400),
	} {
		expectHeaders(t, resp, want)
	}
	if op := f.router.Doc().Operation("GET", "/v1/norms"); op == nil || !op.Deprecated {
		t.Errorf("OpenAPI operation not marked deprecated: %+v", op)
	}

	for _, bad := range []normsapi.Deprecation{
		{Announced: dep.Announced, Sunset: dep.Announced.AddDate(0, 23, 27), Successor: "/v2/norms"}, // under 24 months
		{Sunset: dep.Sunset, Successor: "/v2/norms"},
		{Announced: dep.Announced, Sunset: dep.Sunset},
		{Announced: dep.Announced, Sunset: dep.Sunset, Successor: "/v2/norms>; rel=x"},
	} {
		if bad.Validate() == nil {
			t.Errorf("%+v accepted", bad)
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register accepted %+v", bad)
				}
			}()
			normsapi.Register(httpapi.NewRouter(httpapi.RouterOptions{}), normsapi.Deps{Deprecation: &bad})
		}()
	}
	exactly := normsapi.Deprecation{Announced: dep.Announced, Sunset: dep.Announced.AddDate(0, 24, 0), Successor: "/v2/norms"}
	if err := exactly.Validate(); err != nil {
		t.Errorf("exactly 24 months refused: %v", err)
	}
}

func TestOpenAPI(t *testing.T) {
	f := setup(t)
	op := f.router.Doc().Operation("GET", "/v1/norms")
	if op == nil || op.Deprecated {
		t.Fatalf("operation %+v", op)
	}
	var names []string
	for _, p := range op.Parameters {
		names = append(names, p.In+":"+p.Name)
	}
	want := []string{"query:rulesetid", "query:applicable_date", "query:cprmv_version", "query:endpoint",
		"header:If-None-Match", "header:If-Modified-Since"}
	if d := cmp.Diff(want, names); d != "" {
		t.Errorf("parameters (-want +got):\n%s", d)
	}
	for _, status := range []string{"200", "304", "400", "502"} {
		if _, ok := op.Responses[status]; !ok {
			t.Errorf("no %s response", status)
		}
	}
	if _, err := json.Marshal(f.router.Doc()); err != nil {
		t.Errorf("document does not marshal: %v", err)
	}
}
