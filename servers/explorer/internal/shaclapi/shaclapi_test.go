package shaclapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/regelkit/regelkit/servers/explorer/internal/shaclapi"
	"github.com/regelkit/regelkit/servers/internal/apitest"
	"github.com/regelkit/regelkit/servers/internal/health"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/openapi"
	"github.com/regelkit/regelkit/servers/internal/outbound"
	"github.com/regelkit/regelkit/shacl/layered"
	"github.com/regelkit/regelkit/sparql"
	"github.com/regelkit/regelkit/sparql/graph"
	"github.com/regelkit/regelkit/sparql/memstore"
)

const prefixes = `@prefix cv:    <http://data.europa.eu/m8g/> .
@prefix foaf:  <http://xmlns.com/foaf/0.1/> .
@prefix skos:  <http://www.w3.org/2004/02/skos/core#> .
@prefix dct:   <http://purl.org/dc/terms/> .
@prefix cpsv:  <http://purl.org/vocab/cpsv#> .
@prefix xsd:   <http://www.w3.org/2001/XMLSchema#> .
@prefix cprmv: <https://standaarden.open-regels.nl/standards/cprmv/0.4.1#> .
@prefix ex:    <http://example.com/> .
`

const flevoland = "https://organisaties.overheid.nl/14866/Provincie_Flevoland"

// Test files (the validation scenarios: valid and invalid uploads of each layer).
var (
	orgFail = prefixes + `
<` + flevoland + `> a cv:PublicOrganisation ;
    dct:identifier "Provincie_Flevoland" ;
    skos:prefLabel "Provincie Flevoland"@nl , "Provincie Flevoland (gefuseerd)"@nl ;
    foaf:homepage <https://flevoland.nl/home> , <https://www.flevoland.nl/home> .`

	orgPass = prefixes + `
<` + flevoland + `> a cv:PublicOrganisation ;
    dct:identifier "Provincie_Flevoland" ;
    skos:prefLabel "Provincie Flevoland"@nl , "Province of Flevoland"@en ;
    foaf:homepage <https://flevoland.nl/home> ;
    dct:spatial <http://publications.europa.eu/resource/authority/country/NLD> .
<http://publications.europa.eu/resource/authority/country/NLD> a dct:Location .`

	ruleMerged = prefixes + `
<https://regels.overheid.nl/rules/toeslag> a cpsv:Rule ;
    dct:title "Leeftijdsgrens"@nl , "Inkomensgrens"@nl , "Vermogensgrens"@nl ;
    dct:description "Leeftijd."@nl , "Inkomen."@nl , "Vermogen."@nl .`

	cprmvGood = prefixes + `
ex:method a cprmv:RuleMethod ; cprmv:id "m1" .
ex:ruleset a cprmv:RuleSet ; cprmv:id "rs" ; cprmv:isOutputOf [ a cpsv:PublicService ] ;
    cprmv:hasMethod ex:method ; cprmv:hasPart ( ex:rule ) ; cprmv:validFrom "2026-01-01"^^xsd:date .
ex:rule a cprmv:Rule ; cprmv:id "r1" .
ex:explanation a cprmv:Explanation ; cprmv:explains ex:rule .`

	cprmvBad = prefixes + `
ex:ruleset a cprmv:RuleSet ; cprmv:comment "a" , "b" ; cprmv:validFrom "2026-01-01" .
ex:rule a cprmv:Rule .`

	malformed = prefixes + `
<https://regels.overheid.nl/rules/kapot> a cpsv:Rule ;
    dct:title "Titel zonder eind@nl
`

	orgUpload = prefixes + `
<` + flevoland + `> a cv:PublicOrganisation ;
    skos:prefLabel "Provincie Flevoland"@nl ;
    foaf:homepage <https://flevoland.nl/home> ;
    dct:spatial [ a dct:Location ] .`

	orgPublished = prefixes + `
<` + flevoland + `> a cv:PublicOrganisation ;
    skos:prefLabel "Provincie Flevoland"@nl ;
    foaf:homepage <https://www.flevoland.nl/home> ;
    dct:spatial [ a dct:Location ] .`
)

type issue struct {
	Severity string `json:"severity"`
	Code     string `json:"code"`
	Message  string `json:"message"`
	Location string `json:"location"`
}

type layerOut struct {
	Label  string  `json:"label"`
	Loaded bool    `json:"loaded"`
	Issues []issue `json:"issues"`
}

type result struct {
	Valid      bool                `json:"valid"`
	ParseError *string             `json:"parseError"`
	Layers     map[string]layerOut `json:"layers"`
	Summary    struct {
		Errors   int `json:"errors"`
		Warnings int `json:"warnings"`
		Infos    int `json:"infos"`
	} `json:"summary"`
	Complete bool `json:"complete"`
}

type server struct {
	client  *apitest.Client
	checker *layered.Checker
}

func newServer(t *testing.T, deps shaclapi.Deps) *server {
	t.Helper()
	if deps.Checker == nil {
		c, err := layered.Builtin()
		if err != nil {
			t.Fatal(err)
		}
		deps.Checker = c
	}
	r := httpapi.NewRouter(httpapi.RouterOptions{})
	shaclapi.Register(r, deps)
	h := httpapi.Middleware(r, httpapi.MiddlewareOptions{Version: "test"})
	return &server{client: apitest.New(t, h), checker: deps.Checker}
}

// post sends {content, endpoint?} and decodes a 200 envelope, checking the
// exact set of data members.
func (s *server) post(t *testing.T, path, content string, endpoint ...string) result {
	t.Helper()
	body := map[string]string{"content": content}
	if len(endpoint) > 0 {
		body["endpoint"] = endpoint[0]
	}
	resp := s.client.Post(path, body)
	resp.ExpectStatus(t, 200)
	env := resp.Envelope(t)
	if !env.Success {
		t.Fatalf("success false: %s", resp.Body)
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(env.Data, &members); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range members {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if !slices.Equal(keys, []string{"complete", "layers", "parseError", "summary", "valid"}) {
		t.Errorf("data members %v", keys)
	}
	var r result
	if err := json.Unmarshal(env.Data, &r); err != nil {
		t.Fatal(err)
	}
	labels := map[string]string{"cpsv-ap": "CPSV-AP 3.2.0", "cprmv": "CPRMV 0.4.1", "custom": "Custom"}
	if len(r.Layers) != 3 {
		t.Errorf("layers %v", r.Layers)
	}
	for key, label := range labels {
		if l, ok := r.Layers[key]; !ok || l.Label != label || l.Issues == nil {
			t.Errorf("layer %s = %+v, want label %q and an issue list", key, l, label)
		}
	}
	return r
}

func layerCodes(r result, key string) []string {
	var out []string
	for _, is := range r.Layers[key].Issues {
		out = append(out, is.Code)
	}
	sort.Strings(out)
	return out
}

func TestValidateScenarios(t *testing.T) {
	s := newServer(t, shaclapi.Deps{})
	cases := []struct {
		name, content         string
		cpsvap, cprmv, custom []string
		valid                 bool
	}{
		{"organisation with two homepages and two nl labels", orgFail,
			[]string{"SHACL-MINCOUNT"}, nil, []string{"SHACL-MAXCOUNT", "SHACL-UNIQUELANG"}, false},
		{"organisation published consistently", orgPass, nil, nil, nil, true},
		{"rule merged from three publications", ruleMerged,
			[]string{"SHACL-MINCOUNT"}, nil, []string{"SHACL-UNIQUELANG", "SHACL-UNIQUELANG"}, false},
		{"CPRMV conformant", cprmvGood,
			[]string{"SHACL-MINCOUNT", "SHACL-MINCOUNT", "SHACL-MINCOUNT", "SHACL-MINCOUNT"}, nil, nil, false},
		{"CPRMV non-conformant", cprmvBad, nil,
			[]string{"SHACL-DATATYPE", "SHACL-MAXCOUNT", "SHACL-MINCOUNT", "SHACL-MINCOUNT", "SHACL-MINCOUNT", "SHACL-MINCOUNT", "SHACL-MINCOUNT"}, nil, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := s.post(t, shaclapi.ValidatePath, tc.content)
			for _, l := range []struct {
				key  string
				want []string
			}{{"cpsv-ap", tc.cpsvap}, {"cprmv", tc.cprmv}, {"custom", tc.custom}} {
				if got := layerCodes(r, l.key); !slices.Equal(got, l.want) {
					t.Errorf("%s codes %q, want %q", l.key, got, l.want)
				}
				for _, is := range r.Layers[l.key].Issues {
					if is.Severity != "error" || is.Message == "" || is.Location == "" {
						t.Errorf("%s issue %+v", l.key, is)
					}
				}
			}
			n := len(tc.cpsvap) + len(tc.cprmv) + len(tc.custom)
			if r.Valid != tc.valid || r.ParseError != nil || !r.Complete || r.Summary.Errors != n || r.Summary.Warnings != 0 || r.Summary.Infos != 0 {
				t.Errorf("valid %v parseError %v complete %v summary %+v; want valid %v and %d errors",
					r.Valid, r.ParseError, r.Complete, r.Summary, tc.valid, n)
			}
		})
	}
}

func TestValidateIssueDetails(t *testing.T) {
	s := newServer(t, shaclapi.Deps{})
	r := s.post(t, shaclapi.ValidatePath, orgFail)
	var home, label issue
	for _, is := range r.Layers["custom"].Issues {
		switch is.Code {
		case "SHACL-MAXCOUNT":
			home = is
		case "SHACL-UNIQUELANG":
			label = is
		}
	}
	if home.Location != flevoland+" foaf:homepage" || label.Location != flevoland+" skos:prefLabel" {
		t.Errorf("locations %q, %q", home.Location, label.Location)
	}
	for _, want := range []string{"Found 2 values:", "https://flevoland.nl/home", "https://www.flevoland.nl/home"} {
		if !strings.Contains(home.Message, want) {
			t.Errorf("homepage message %q lacks %q", home.Message, want)
		}
	}
	for _, want := range []string{"Found 2 values:", "Provincie Flevoland (gefuseerd)"} {
		if !strings.Contains(label.Message, want) {
			t.Errorf("label message %q lacks %q", label.Message, want)
		}
	}
	spatial := r.Layers["cpsv-ap"].Issues[0]
	if spatial.Location != flevoland+" dct:spatial" || spatial.Message != "SHACL-MINCOUNT" {
		t.Errorf("cpsv-ap issue %+v", spatial)
	}
}

func TestValidateMalformedTurtle(t *testing.T) {
	s := newServer(t, shaclapi.Deps{})
	for _, path := range []string{shaclapi.ValidatePath, shaclapi.MergedPath} {
		r := s.post(t, path, malformed)
		if r.ParseError == nil || !strings.HasPrefix(*r.ParseError, "line 11, column ") || r.Valid {
			t.Errorf("%s: parseError %v valid %v; want the line and column of the unterminated string", path, r.ParseError, r.Valid)
		}
		for key, l := range r.Layers {
			if len(l.Issues) != 0 || !l.Loaded {
				t.Errorf("%s: layer %s = %+v", path, key, l)
			}
		}
		if r.Summary.Errors != 0 {
			t.Errorf("summary %+v", r.Summary)
		}
	}
}

func TestBadRequests(t *testing.T) {
	s := newServer(t, shaclapi.Deps{})
	for _, path := range []string{shaclapi.ValidatePath, shaclapi.MergedPath} {
		cases := []struct {
			body    string
			status  int
			code    string
			mention string
		}{
			{`{}`, 400, "INVALID_REQUEST", "content is required"},
			{`{"content": 42}`, 400, "INVALID_REQUEST", "content must be a string"},
			{`{"content": null}`, 400, "INVALID_REQUEST", "content is required"},
			{`{"content": "x", "endpoint": 7}`, 400, "INVALID_REQUEST", "endpoint must be a string"},
			{`{"content": `, 400, "MALFORMED_BODY", "malformed JSON"},
			{`{"content": "` + strings.Repeat("a", 10<<20) + `"}`, 413, "PAYLOAD_TOO_LARGE", "10 MB"},
		}
		for _, tc := range cases {
			msg := s.client.Post(path, tc.body).ExpectError(t, tc.status, tc.code)
			if !strings.Contains(msg, tc.mention) {
				t.Errorf("%s %.30s: message %q lacks %q", path, tc.body, msg, tc.mention)
			}
		}
	}
}

func TestLayerMissingFailsClosed(t *testing.T) {
	sets := layered.BuiltinSets()
	sets[2].Files = nil
	c, err := layered.New(sets)
	if err != nil {
		t.Fatal(err)
	}
	s := newServer(t, shaclapi.Deps{Checker: c})
	r := s.post(t, shaclapi.ValidatePath, orgPass)
	if r.Valid || r.Complete || r.Layers["custom"].Loaded || !r.Layers["cpsv-ap"].Loaded || r.Summary.Errors != 0 {
		t.Errorf("result %+v: a missing layer must make clean data invalid", r)
	}
}

func TestHealthExtra(t *testing.T) {
	sets := layered.BuiltinSets()
	sets[1].Files = nil
	c, _ := layered.New(sets)
	hc := &health.Checker{Name: "explorer", Extra: shaclapi.HealthExtra(c)}
	r := httpapi.NewRouter(httpapi.RouterOptions{})
	r.Handle("GET", "/v1/health", hc.Handle, openapiOp())
	resp := apitest.New(t, r).Get("/v1/health")
	var body struct {
		Status string `json:"status"`
		Shacl  struct {
			Complete bool `json:"complete"`
			Layers   map[string]struct {
				Label  string `json:"label"`
				Loaded bool   `json:"loaded"`
			} `json:"layers"`
		} `json:"shacl"`
	}
	resp.Decode(t, &body)
	if resp.Status != 200 || body.Status != "healthy" {
		t.Errorf("status %d %q: SHACL state never changes the status", resp.Status, body.Status)
	}
	sh := body.Shacl
	if sh.Complete || len(sh.Layers) != 3 || sh.Layers["cprmv"].Loaded || sh.Layers["cprmv"].Label != "CPRMV 0.4.1" ||
		!sh.Layers["cpsv-ap"].Loaded || !sh.Layers["custom"].Loaded {
		t.Errorf("shacl health %+v", sh)
	}
}

// recordingHandler serves a memstore over the SPARQL protocol and records
// the requests it answers.
type recordingHandler struct {
	h        http.Handler
	mu       sync.Mutex
	requests []string // "METHOD content-type accept: body"
}

func (rh *recordingHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(strings.NewReader(string(body)))
	rh.mu.Lock()
	rh.requests = append(rh.requests, fmt.Sprintf("%s %s %s: %s%s", r.Method, r.Header.Get("Content-Type"), r.Header.Get("Accept"), r.URL.RawQuery, body))
	rh.mu.Unlock()
	rh.h.ServeHTTP(w, r)
}

func publishedStore(t *testing.T) *memstore.Store {
	st := memstore.New()
	if err := st.Load(context.Background(), strings.NewReader(orgPublished), graph.Turtle); err != nil {
		t.Fatal(err)
	}
	return st
}

func TestMergedCatchesCollisionWithDefaultEndpoint(t *testing.T) {
	store := publishedStore(t)
	before := graph.CanonicalNQuads(datasetOf(store))
	s := newServer(t, shaclapi.Deps{Default: store})

	local := s.post(t, shaclapi.ValidatePath, orgUpload)
	if got := layerCodes(local, "custom"); len(got) != 0 || !local.Valid {
		t.Fatalf("file-local: custom %q valid %v, want a clean file", got, local.Valid)
	}
	merged := s.post(t, shaclapi.MergedPath, orgUpload)
	if got := layerCodes(merged, "custom"); !slices.Equal(got, []string{"SHACL-MAXCOUNT"}) {
		t.Fatalf("merged custom codes %q, want one MAXCOUNT", got)
	}
	msg := merged.Layers["custom"].Issues[0].Message
	if !strings.Contains(msg, "https://flevoland.nl/home") || !strings.Contains(msg, "https://www.flevoland.nl/home") {
		t.Errorf("message %q lacks both homepages", msg)
	}
	if got := layerCodes(merged, "cpsv-ap"); len(got) != 0 {
		t.Errorf("cpsv-ap codes %q: the published blank dct:spatial must come with its type", got)
	}
	if merged.Valid || merged.Summary.Errors != 1 {
		t.Errorf("valid %v summary %+v", merged.Valid, merged.Summary)
	}
	if after := graph.CanonicalNQuads(datasetOf(store)); after != before {
		t.Error("merged mode changed the store")
	}
}

func datasetOf(st *memstore.Store) *graph.Dataset {
	d := graph.NewDataset()
	for _, q := range st.Quads() {
		d.Add(q)
	}
	return d
}

func TestMergedThroughHTTPClient(t *testing.T) {
	store := publishedStore(t)
	rec := &recordingHandler{h: store.Handler(memstore.HandlerOptions{})}
	remote := httptest.NewServer(rec)
	t.Cleanup(remote.Close)
	policy := &outbound.Policy{} // development: loopback allowed
	var resolved []string
	s := newServer(t, shaclapi.Deps{
		Resolve: func(ctx context.Context, url string) (sparql.Endpoint, error) {
			resolved = append(resolved, url)
			if _, err := policy.Check(url); err != nil {
				return nil, httpapi.InvalidRequest("%v", err)
			}
			return sparql.NewClient(url, sparql.ClientOptions{HTTPClient: policy.Client()}), nil
		},
	})
	merged := s.post(t, shaclapi.MergedPath, orgUpload, remote.URL+"/sparql")
	if got := layerCodes(merged, "custom"); !slices.Equal(got, []string{"SHACL-MAXCOUNT"}) {
		t.Fatalf("custom codes %q, want one MAXCOUNT", got)
	}
	if !slices.Equal(resolved, []string{remote.URL + "/sparql"}) {
		t.Errorf("resolved %q", resolved)
	}
	if len(rec.requests) != 1 {
		t.Fatalf("requests %q, want one", rec.requests)
	}
	req := rec.requests[0]
	if !strings.Contains(req, "text/turtle") || !strings.Contains(req, "CONSTRUCT") || strings.Contains(strings.ToUpper(req), "INSERT") {
		t.Errorf("request %q: want a CONSTRUCT asking for Turtle", req)
	}

	// The remote endpoint failing is a QUERY_ERROR, not a parse error.
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "store is down", http.StatusServiceUnavailable)
	}))
	t.Cleanup(broken.Close)
	msg := s.client.Post(shaclapi.MergedPath, map[string]string{"content": orgUpload, "endpoint": broken.URL}).ExpectError(t, 502, "QUERY_ERROR")
	if !strings.Contains(msg, "published triples") {
		t.Errorf("message %q", msg)
	}
}

func TestMergedEndpointErrors(t *testing.T) {
	strict := &outbound.Policy{Strict: true}
	s := newServer(t, shaclapi.Deps{
		Resolve: func(ctx context.Context, url string) (sparql.Endpoint, error) {
			if _, err := strict.Check(url); err != nil {
				return nil, err // a bare *outbound.RefusedError
			}
			return sparql.NewClient(url, sparql.ClientOptions{HTTPClient: strict.Client()}), nil
		},
	})
	for _, refused := range []string{"http://127.0.0.1:7200/repositories/x", "ftp://example.org/sparql", "https://user:pw@example.org/sparql"} {
		msg := s.client.Post(shaclapi.MergedPath, map[string]string{"content": orgUpload, "endpoint": refused}).ExpectError(t, 400, "INVALID_REQUEST")
		if !strings.Contains(msg, "endpoint") {
			t.Errorf("%s: message %q", refused, msg)
		}
	}
	// No endpoint named and none configured.
	msg := s.client.Post(shaclapi.MergedPath, map[string]string{"content": orgUpload}).ExpectError(t, 400, "INVALID_REQUEST")
	if msg != "no SPARQL endpoint configured: name one in endpoint" {
		t.Errorf("message %q", msg)
	}
	// Without IRI subjects there is nothing to look up: file-local result.
	r := s.post(t, shaclapi.MergedPath, prefixes+`[] a cpsv:Rule ; dct:identifier "x" ; dct:title "T"@nl ; dct:description "D"@nl .`)
	if !r.Valid {
		t.Errorf("blank-node-only file: %+v", r)
	}
	// A server without a resolver refuses caller-named endpoints.
	plain := newServer(t, shaclapi.Deps{Default: publishedStore(t)})
	msg = plain.client.Post(shaclapi.MergedPath, map[string]string{"content": orgUpload, "endpoint": "https://example.org/sparql"}).ExpectError(t, 400, "INVALID_REQUEST")
	if !strings.Contains(msg, "endpoint") {
		t.Errorf("message %q", msg)
	}
}

func TestOpenAPIDocumentsBothRoutes(t *testing.T) {
	r := httpapi.NewRouter(httpapi.RouterOptions{})
	c, _ := layered.Builtin()
	shaclapi.Register(r, shaclapi.Deps{Checker: c})
	for _, p := range []string{shaclapi.ValidatePath, shaclapi.MergedPath} {
		op := r.Doc().Operation("POST", p)
		if op == nil || op.RequestBody == nil || op.Responses["200"].Content == nil || op.Responses["400"].Description == "" {
			t.Errorf("%s: operation %+v", p, op)
		}
	}
	if _, ok := r.Doc().Operation("POST", shaclapi.MergedPath).Responses["502"]; !ok {
		t.Error("merged mode documents no 502 QUERY_ERROR")
	}
}

func openapiOp() openapi.Operation { return openapi.Operation{Summary: "health"} }
