package chainapi_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/examples"
	"github.com/regelkit/regelkit/servers/explorer/internal/chainapi"
	"github.com/regelkit/regelkit/servers/internal/apitest"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/sparql"
	"github.com/regelkit/regelkit/sparql/graph"
	"github.com/regelkit/regelkit/sparql/memstore"
)

// Endpoint URLs the test resolver knows.
const (
	kgURL      = "https://kg.test/sparql"        // the whole example knowledge graph
	lpURL      = "https://localpass.test/sparql" // the three local-pass models alone
	emptyURL   = "https://empty.test/sparql"     // an empty store
	refusedURL = "http://10.0.0.1/sparql"        // refused by the "outbound policy"
)

// countingEngine counts evaluations.
type countingEngine struct {
	engine.Decisions
	evals atomic.Int64
}

func (c *countingEngine) Evaluate(ctx context.Context, key, tenant string, vars engine.Variables) (engine.Result, error) {
	c.evals.Add(1)
	return c.Decisions.Evaluate(ctx, key, tenant, vars)
}

type env struct {
	c      *apitest.Client
	router *httpapi.Router
	eng    *countingEngine
	kg     *memstore.Store
}

func loadStore(t testing.TB, files ...string) *memstore.Store {
	t.Helper()
	s := memstore.New()
	for _, f := range files {
		data, err := fs.ReadFile(examples.FS, f)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Load(context.Background(), strings.NewReader(string(data)), graph.Turtle); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
	return s
}

// resolver maps the test URLs to stores; any other http(s) URL is reached
// through the SPARQL client (test servers), refusedURL is refused like the
// explorer's outbound policy refuses private addresses.
func resolver(stores map[string]sparql.Endpoint) func(context.Context, string) (sparql.Endpoint, error) {
	return func(_ context.Context, raw string) (sparql.Endpoint, error) {
		if ep, ok := stores[raw]; ok {
			return ep, nil
		}
		if raw == refusedURL {
			return nil, httpapi.InvalidRequest("endpoint %s is refused: private address", raw)
		}
		return sparql.NewClient(raw, sparql.ClientOptions{}), nil
	}
}

// newEnv builds the real router with the chain routes, an embedded
// engine with the local-pass models and the example knowledge graph.
func newEnv(t testing.TB, eng engine.Decisions) *env {
	t.Helper()
	if eng == nil {
		l := local.New(local.Options{})
		if err := chainapi.DeployLocalPassExamples(context.Background(), l); err != nil {
			t.Fatal(err)
		}
		eng = l
	}
	lp, err := chainapi.LocalPassFromExamples()
	if err != nil {
		t.Fatal(err)
	}
	kg := loadStore(t, examples.KnowledgeGraph...)
	e := &env{eng: &countingEngine{Decisions: eng}, kg: kg}
	e.router = httpapi.NewRouter(httpapi.RouterOptions{})
	chainapi.Register(e.router, chainapi.Deps{
		Resolve: resolver(map[string]sparql.Endpoint{
			kgURL:    kg,
			lpURL:    loadStore(t, "knowledge-graph/organisations.ttl", "knowledge-graph/localpass.ttl"),
			emptyURL: memstore.New(),
		}),
		Engine:    e.eng,
		LocalPass: lp,
	})
	e.c = apitest.New(t, httpapi.Middleware(e.router, httpapi.MiddlewareOptions{Version: "test"}))
	return e
}

func q(endpoint string) string { return "?endpoint=" + url.QueryEscape(endpoint) }

// data decodes a success envelope's data into a generic value.
func data(t testing.TB, resp *apitest.Response, status int) any {
	t.Helper()
	resp.ExpectStatus(t, status)
	env := resp.Envelope(t)
	if !env.Success {
		t.Fatalf("want success, got %s", resp.Body)
	}
	dec := json.NewDecoder(strings.NewReader(string(env.Data)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func obj(t testing.TB, v any) map[string]any {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("not an object: %v", v)
	}
	return m
}

func arr(t testing.TB, v any) []any {
	t.Helper()
	a, ok := v.([]any)
	if !ok {
		t.Fatalf("not an array: %v", v)
	}
	return a
}

func keys(m map[string]any) string { return strings.Join(slices.Sorted(maps.Keys(m)), ",") }

func checkLegacy(t testing.TB, resp *apitest.Response, successor string) {
	t.Helper()
	if resp.Header.Get("Deprecation") != "true" {
		t.Errorf("legacy alias lacks Deprecation: %v", resp.Header)
	}
	if got := resp.Header.Get("Link"); got != "<"+successor+`>; rel="successor-version"` {
		t.Errorf("Link %q, want successor %s", got, successor)
	}
}

func TestListDMNs(t *testing.T) {
	e := newEnv(t, nil)
	d := obj(t, data(t, e.c.Get("/v1/dmns"+q(kgURL)), 200))
	if keys(d) != "cached,dmns,endpoint" || d["endpoint"] != kgURL || d["cached"] != false {
		t.Errorf("first listing: %s endpoint %v cached %v", keys(d), d["endpoint"], d["cached"])
	}
	dmns := arr(t, d["dmns"])
	var ids []string
	for _, m := range dmns {
		ids = append(ids, obj(t, m)["identifier"].(string))
	}
	if got := strings.Join(ids, " "); got != "BD_ZorgtoeslagRecht GEM_Herbeoordeling GEM_InkomensToets GEM_KwijtscheldingBelastingen GEM_VermogensToets RONL_LocalpassEindresultaat SVB_LeeftijdsInformatie SZW_BijstandsnormInformatie" {
		t.Errorf("identifiers %s", got)
	}
	svb := obj(t, dmns[6])
	for _, k := range []string{"id", "identifier", "title", "inputs", "outputs", "validationStatus", "validatedByName", "validatedAt", "vendorCount", "vendors"} {
		if _, ok := svb[k]; !ok {
			t.Errorf("record lacks %s", k)
		}
	}
	if svb["validationStatus"] != "validated" || svb["validatedAt"] != "2025-11-03" || svb["xmlUrl"] != "/v1/dmns/SVB_LeeftijdsInformatie/xml" {
		t.Errorf("SVB record %v", svb)
	}
	in0 := obj(t, arr(t, svb["inputs"])[0])
	if in0["identifier"] != "dagVanAanvraag" || in0["type"] != "Date" || in0["title"] != "Dag van aanvraag" {
		t.Errorf("first input %v", in0)
	}

	// the cache: a real hit flag; refresh=true|1 bypasses it
	for _, tc := range []struct {
		path   string
		cached bool
	}{
		{"/v1/dmns" + q(kgURL), true},
		{"/v1/dmns" + q(kgURL) + "&refresh=true", false},
		{"/v1/dmns" + q(kgURL) + "&refresh=1", false},
		{"/v1/dmns" + q(kgURL) + "&refresh=no", true},
		{"/v1/dmns" + q(lpURL), false},
	} {
		if got := obj(t, data(t, e.c.Get(tc.path), 200))["cached"]; got != tc.cached {
			t.Errorf("%s: cached %v, want %v", tc.path, got, tc.cached)
		}
	}
	legacy := e.c.Get("/api/dmns" + q(kgURL))
	if n := len(arr(t, obj(t, data(t, legacy, 200))["dmns"])); n != 8 {
		t.Errorf("legacy listing has %d models", n)
	}
	checkLegacy(t, legacy, "/v1/dmns")

	if got := arr(t, obj(t, data(t, e.c.Get("/v1/dmns"+q(emptyURL)), 200))["dmns"]); len(got) != 0 {
		t.Errorf("empty graph: %v", got)
	}
	if msg := e.c.Get("/v1/dmns").ExpectError(t, 400, "INVALID_REQUEST"); !strings.Contains(msg, "endpoint") {
		t.Errorf("missing endpoint: %s", msg)
	}
	if msg := e.c.Get("/v1/dmns"+q(refusedURL)).ExpectError(t, 400, "INVALID_REQUEST"); !strings.Contains(msg, "refused") {
		t.Errorf("refused endpoint: %s", msg)
	}
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "repository unavailable", http.StatusServiceUnavailable)
	}))
	defer failing.Close()
	// An endpoint that fails is 502; outside development without its text.
	if msg := e.c.Get("/v1/dmns"+q(failing.URL)).ExpectError(t, 502, "QUERY_ERROR"); !strings.Contains(msg, "503") || strings.Contains(msg, "repository unavailable") {
		t.Errorf("failing endpoint: %s", msg)
	}
}

func TestGetDMN(t *testing.T) {
	e := newEnv(t, nil)
	m := obj(t, data(t, e.c.Get("/v1/dmns/SZW_BijstandsnormInformatie"+q(kgURL)), 200))
	if m["identifier"] != "SZW_BijstandsnormInformatie" || len(arr(t, m["inputs"])) != 9 {
		t.Errorf("record %v", m)
	}
	legacy := e.c.Get("/api/dmns/SZW_BijstandsnormInformatie" + q(kgURL))
	if d := obj(t, data(t, legacy, 200)); !cmp.Equal(d, m) {
		t.Errorf("legacy record differs: %s", cmp.Diff(m, d))
	}
	checkLegacy(t, legacy, "/v1/dmns/SZW_BijstandsnormInformatie")
	if msg := e.c.Get("/v1/dmns/RONL_Onbekend"+q(kgURL)).ExpectError(t, 404, "NOT_FOUND"); msg != "DMN not found: RONL_Onbekend" {
		t.Errorf("unknown: %q", msg)
	}
	e.c.Get("/v1/dmns/SZW_BijstandsnormInformatie").ExpectError(t, 400, "INVALID_REQUEST")
}

// TestLiteralPathsBeforeIdentifier drives every literal /v1/dmns/… path
// through the real router: none may be taken for an identifier.
func TestLiteralPathsBeforeIdentifier(t *testing.T) {
	e := newEnv(t, nil)
	// the three local-pass models alone: 10 exact pairs, no semantic
	// pairs, no equivalences, no cycles
	pairs := arr(t, data(t, e.c.Get("/v1/dmns/enhanced-chain-links"+q(lpURL)), 200))
	count := map[string]int{}
	for _, p := range pairs {
		po := obj(t, p)
		if po["matchType"] != "exact" || po["sharedConcept"] != nil {
			t.Errorf("pair %v", po)
		}
		if _, ok := po["sharedConcept"]; !ok {
			t.Error("sharedConcept must be present (null)")
		}
		count[obj(t, po["dmn1"])["identifier"].(string)+"->"+obj(t, po["dmn2"])["identifier"].(string)]++
	}
	want := map[string]int{"SVB_LeeftijdsInformatie->SZW_BijstandsnormInformatie": 6, "SVB_LeeftijdsInformatie->RONL_LocalpassEindresultaat": 3,
		"SZW_BijstandsnormInformatie->RONL_LocalpassEindresultaat": 1}
	if len(pairs) != 10 || !maps.Equal(count, want) {
		t.Errorf("%d pairs: %v", len(pairs), count)
	}
	if got := arr(t, data(t, e.c.Get("/v1/dmns/semantic-equivalences"+q(lpURL)), 200)); len(got) != 0 {
		t.Errorf("equivalences %v", got)
	}
	if got := arr(t, data(t, e.c.Get("/v1/dmns/cycles"+q(lpURL)), 200)); len(got) != 0 {
		t.Errorf("cycles %v", got)
	}

	// the whole graph has semantic links, equivalences and one cycle (3 rotations)
	semantic := 0
	for _, p := range arr(t, data(t, e.c.Get("/v1/dmns/enhanced-chain-links"+q(kgURL)), 200)) {
		if po := obj(t, p); po["matchType"] == "semantic" {
			semantic++
			if s, _ := po["sharedConcept"].(string); !strings.HasPrefix(s, "https://begrippen.regelkit.example/") {
				t.Errorf("semantic pair without concept: %v", po)
			}
		}
	}
	if semantic == 0 {
		t.Error("no semantic pairs in the whole graph")
	}
	eqs := arr(t, data(t, e.c.Get("/v1/dmns/semantic-equivalences"+q(kgURL)), 200))
	if len(eqs) == 0 || keys(obj(t, eqs[0])) != "concept1,concept2,dmn1,dmn2,sharedConcept" {
		t.Errorf("equivalences %v", eqs)
	}
	cycles := arr(t, data(t, e.c.Get("/v1/dmns/cycles"+q(kgURL)), 200))
	if len(cycles) != 3 || obj(t, cycles[0])["type"] != "three-hop" || len(arr(t, obj(t, cycles[0])["path"])) != 3 {
		t.Errorf("cycles %v", cycles)
	}
	for _, p := range []string{"/v1/dmns/enhanced-chain-links", "/v1/dmns/semantic-equivalences", "/v1/dmns/cycles"} {
		e.c.Get(p).ExpectError(t, 400, "INVALID_REQUEST")
		e.c.Get(p+q(refusedURL)).ExpectError(t, 400, "INVALID_REQUEST")
	}
}

func TestChains(t *testing.T) {
	e := newEnv(t, nil)
	d := obj(t, data(t, e.c.Get("/v1/chains"+q(lpURL)), 200))
	if keys(d) != "chains,total" || d["total"] != json.Number("2") {
		t.Fatalf("chains %v", d)
	}
	chains := arr(t, d["chains"])
	first := obj(t, chains[0])
	if first["from"] != "SVB_LeeftijdsInformatie" || len(arr(t, first["connections"])) != 9 {
		t.Errorf("first group %v", first)
	}
	conn := obj(t, arr(t, obj(t, chains[1])["connections"])[0])
	if d := cmp.Diff(map[string]any{"to": "RONL_LocalpassEindresultaat", "variable": "bijstandsNorm", "variableType": "Double"}, conn); d != "" {
		t.Errorf("norm connection (-want +got):\n%s", d)
	}
	legacy := e.c.Get("/api/chains" + q(lpURL))
	if !cmp.Equal(obj(t, data(t, legacy, 200)), d) {
		t.Error("legacy chains differ")
	}
	checkLegacy(t, legacy, "/v1/chains")
	e.c.Get("/v1/chains").ExpectError(t, 400, "INVALID_REQUEST")
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "boom", http.StatusInternalServerError)
	}))
	defer failing.Close()
	e.c.Get("/v1/chains"+q(failing.URL)).ExpectError(t, 502, "DISCOVERY_ERROR")
}

// workedExample is the local-pass test oracle.
func workedExample() map[string]any {
	return map[string]any{
		"dagVanAanvraag": "2025-12-24", "geboortedatumAanvrager": "1980-01-23", "geboortedatumPartner": "1982-05-15",
		"aanvragerAlleenstaand": true, "aanvragerHeeftKinderen": true, "aanvragerHeeftKind4Tm17": true,
		"aanvragerInwonerMunicipality": true, "maandelijksBrutoInkomenAanvrager": json.Number("1500"),
		"aanvragerUitkeringBaanbrekers": false, "aanvragerVoedselbankpasCity": false,
		"aanvragerKwijtscheldingGemeentelijkeBelastingen": false, "aanvragerSchuldhulptrajectCreditBank": false,
		"aanvragerDitKalenderjaarAlAangevraagd": false, "aanvragerAanmerkingStudieFinanciering": false,
	}
}

func with(base, changes map[string]any) map[string]any {
	out := maps.Clone(base)
	for k, v := range changes {
		if v == nil {
			delete(out, k)
			continue
		}
		out[k] = v
	}
	return out
}

func jsonNumber(s string) json.Number { return json.Number(s) }

func jsonOf(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var localPassChain = []string{"SVB_LeeftijdsInformatie", "SZW_BijstandsnormInformatie", "RONL_LocalpassEindresultaat"}

func TestExecuteChain(t *testing.T) {
	e := newEnv(t, nil)
	body := map[string]any{"chain": localPassChain, "inputs": workedExample(), "endpoint": kgURL}
	d := obj(t, data(t, e.c.Post("/v1/chains/execute", body), 200))
	if keys(d) != "results,steps,totalDuration" {
		t.Fatalf("data %s", keys(d))
	}
	results := obj(t, d["results"])
	for k, want := range map[string]string{"aanmerkingLocalPass": "true", "aanmerkingKindPakket": "true", "bijstandsNorm": "1369.06", "toepasselijkeNorm": `"MK"`} {
		if got := jsonOf(t, results[k]); got != want {
			t.Errorf("results.%s = %s, want %s", k, got, want)
		}
	}
	if _, ok := results["dagVanAanvraag"]; ok {
		t.Error("inputs are not results")
	}
	steps := arr(t, d["steps"])
	if len(steps) != 3 {
		t.Fatalf("%d steps", len(steps))
	}
	for i, s := range steps {
		so := obj(t, s)
		if keys(so) != "dmn,duration,inputs,outputs" || so["dmn"] != localPassChain[i] {
			t.Errorf("step %d: %v", i, so)
		}
	}
	if got := len(obj(t, obj(t, steps[2])["inputs"])); got != 14+14+3 {
		t.Errorf("step 3 was sent %d variables", got)
	}

	// dmnIds alias, legacy path, exact decimals
	for _, tc := range []struct {
		income string
		lp     string
	}{{"1505.96", "true"}, {"1505.966", "true"}, {"1506", "false"}} {
		body := map[string]any{"dmnIds": localPassChain, "endpoint": kgURL,
			"inputs": with(workedExample(), map[string]any{"maandelijksBrutoInkomenAanvrager": json.Number(tc.income)})}
		resp := e.c.Post("/api/chains/execute", body)
		checkLegacy(t, resp, "/v1/chains/execute")
		if got := jsonOf(t, obj(t, obj(t, data(t, resp, 200))["results"])["aanmerkingLocalPass"]); got != tc.lp {
			t.Errorf("income %s: local pass %s, want %s", tc.income, got, tc.lp)
		}
	}

	// an application date in 2026: EXECUTION_ERROR naming the norm model
	body["inputs"] = with(workedExample(), map[string]any{"dagVanAanvraag": "2026-01-15"})
	if msg := e.c.Post("/v1/chains/execute", body).ExpectError(t, 500, "EXECUTION_ERROR"); msg != "SZW_BijstandsnormInformatie: no rule matched (SZW_Bijstandsnormtermijn)" {
		t.Errorf("2026: %q", msg)
	}

	// an unknown model: 404 before any evaluation
	before := e.eng.evals.Load()
	body = map[string]any{"chain": []string{"SVB_LeeftijdsInformatie", "RONL_Onbekend"}, "inputs": workedExample(), "endpoint": kgURL}
	if msg := e.c.Post("/v1/chains/execute", body).ExpectError(t, 404, "NOT_FOUND"); msg != "DMN not found: RONL_Onbekend" {
		t.Errorf("unknown model: %q", msg)
	}
	if e.eng.evals.Load() != before {
		t.Error("the engine was called for a chain with an unknown model")
	}
}

func TestExecuteValidation(t *testing.T) {
	e := newEnv(t, nil)
	in := map[string]any{"a": 1}
	for _, tc := range []struct {
		body any
		code string
		msg  string
	}{
		{`{"chain": ["x"], "inputs": {"a": 1}, "endpoint": `, "MALFORMED_BODY", ""},
		{map[string]any{"inputs": in, "endpoint": kgURL}, "INVALID_REQUEST", "chain array is required and must not be empty"},
		{map[string]any{"chain": []string{}, "inputs": in, "endpoint": kgURL}, "INVALID_REQUEST", "chain array is required and must not be empty"},
		{map[string]any{"chain": "SVB", "inputs": in, "endpoint": kgURL}, "INVALID_REQUEST", "chain array is required and must not be empty"},
		{map[string]any{"chain": []any{"SVB", 3}, "inputs": in, "endpoint": kgURL}, "INVALID_REQUEST", "chain array is required and must not be empty"},
		{map[string]any{"chain": []string{"SVB"}, "endpoint": kgURL}, "INVALID_REQUEST", "inputs object is required"},
		{map[string]any{"chain": []string{"SVB"}, "inputs": map[string]any{}, "endpoint": kgURL}, "INVALID_REQUEST", "inputs object is required"},
		{map[string]any{"chain": []string{"SVB"}, "inputs": []int{1}, "endpoint": kgURL}, "INVALID_REQUEST", "inputs object is required"},
		{map[string]any{"chain": []string{"SVB"}, "inputs": in}, "INVALID_REQUEST", "endpoint is required (the URL of a SPARQL endpoint)"},
		{map[string]any{"chain": []string{"SVB"}, "inputs": in, "endpoint": refusedURL}, "INVALID_REQUEST", "endpoint http://10.0.0.1/sparql is refused: private address"},
		{map[string]any{"chain": []string{"a", "b"}, "inputs": in, "endpoint": kgURL, "isDrd": true}, "INVALID_REQUEST", "isDrd requires chain to hold exactly one entry-point identifier, got 2"},
		{map[string]any{"chain": []string{"a"}, "inputs": in, "endpoint": kgURL, "isDrd": "yes"}, "INVALID_REQUEST", "isDrd must be a boolean, not string"},
	} {
		msg := e.c.Post("/v1/chains/execute", tc.body).ExpectError(t, 400, tc.code)
		if tc.msg != "" && msg != tc.msg {
			t.Errorf("%v:\n got %q\nwant %q", tc.body, msg, tc.msg)
		}
	}
}

func TestExecuteLocalPass(t *testing.T) {
	e := newEnv(t, nil)
	d := obj(t, data(t, e.c.Post("/v1/chains/execute/localpass", map[string]any{"inputs": workedExample()}), 200))
	if keys(d) != "chainId,executionTime,finalOutputs,success" {
		t.Errorf("data %s (steps must be absent unless asked for)", keys(d))
	}
	if d["success"] != true || d["chainId"] != "SVB_LeeftijdsInformatie->SZW_BijstandsnormInformatie->RONL_LocalpassEindresultaat" {
		t.Errorf("success %v chainId %v", d["success"], d["chainId"])
	}
	if got := jsonOf(t, d["finalOutputs"]); got != `{"aanmerkingKindPakket":true,"aanmerkingLocalPass":true}` {
		t.Errorf("finalOutputs %s", got)
	}

	body := map[string]any{"inputs": workedExample(), "options": map[string]any{"includeIntermediateSteps": true}}
	resp := e.c.Post("/api/chains/execute/localpass", body)
	checkLegacy(t, resp, "/v1/chains/execute/localpass")
	d = obj(t, data(t, resp, 200))
	steps := arr(t, d["steps"])
	if len(steps) != 3 {
		t.Fatalf("%d steps", len(steps))
	}
	wantTitles := []string{"SVB Leeftijdsinformatie", "SZW Bijstandsnorminformatie", "RONL Localpass eindresultaat"}
	wantInputs := []int{3, 9, 13}
	for i, s := range steps {
		so := obj(t, s)
		if keys(so) != "dmnId,dmnTitle,executionTime,inputs,outputs" || so["dmnId"] != localPassChain[i] || so["dmnTitle"] != wantTitles[i] {
			t.Errorf("step %d: %v", i, so)
		}
		if n := len(obj(t, so["inputs"])); n != wantInputs[i] {
			t.Errorf("step %d has %d inputs, want the %d declared", i, n, wantInputs[i])
		}
	}
	s1, s2 := obj(t, obj(t, steps[0])["outputs"]), obj(t, obj(t, steps[1])["outputs"])
	if jsonOf(t, []any{s1["aanvragerLeeftijd"], s1["aanvragerIs18"], s1["aanvragerIs65"], s2["bijstandsNorm"], s2["toepasselijkeNorm"]}) != `[45,true,false,1369.06,"MK"]` {
		t.Errorf("step outputs %v %v", s1, s2)
	}

	// boundary cases over HTTP
	for _, tc := range []struct {
		changes map[string]any
		want    string
	}{
		{map[string]any{"maandelijksBrutoInkomenAanvrager": json.Number("1505.96")}, `{"aanmerkingKindPakket":true,"aanmerkingLocalPass":true}`},
		{map[string]any{"maandelijksBrutoInkomenAanvrager": json.Number("1506")}, `{"aanmerkingKindPakket":true,"aanmerkingLocalPass":false}`},
		{map[string]any{"maandelijksBrutoInkomenAanvrager": json.Number("1642.88")}, `{"aanmerkingKindPakket":false,"aanmerkingLocalPass":false}`},
		{map[string]any{"aanvragerInwonerMunicipality": false}, `{"aanmerkingKindPakket":false,"aanmerkingLocalPass":false}`},
		// a missing field goes to the models as null: no partner
		{map[string]any{"geboortedatumPartner": nil}, `{"aanmerkingKindPakket":true,"aanmerkingLocalPass":true}`},
	} {
		got := obj(t, data(t, e.c.Post("/v1/chains/execute/localpass", map[string]any{"inputs": with(workedExample(), tc.changes)}), 200))
		if s := jsonOf(t, got["finalOutputs"]); s != tc.want {
			t.Errorf("%v: %s, want %s", tc.changes, s, tc.want)
		}
	}
	for _, tc := range []struct {
		changes map[string]any
		msg     string
	}{
		{map[string]any{"dagVanAanvraag": "2026-03-01"}, "SZW_BijstandsnormInformatie: no rule matched (SZW_Bijstandsnormtermijn)"},
		{map[string]any{"dagVanAanvraag": "2019-03-01"}, "SVB_LeeftijdsInformatie: no rule matched (SVB_AOWLeeftijd)"},
		{map[string]any{"dagVanAanvraag": nil}, "SVB_LeeftijdsInformatie: no rule matched (SVB_AOWLeeftijd)"},
	} {
		msg := e.c.Post("/v1/chains/execute/localpass", map[string]any{"inputs": with(workedExample(), tc.changes)}).ExpectError(t, 500, "EXECUTION_ERROR")
		if msg != tc.msg {
			t.Errorf("%v: %q, want %q", tc.changes, msg, tc.msg)
		}
	}
	for _, tc := range []struct {
		body any
		msg  string
	}{
		{map[string]any{}, "inputs object is required"},
		{map[string]any{"inputs": map[string]any{}}, "inputs object is required"},
		{map[string]any{"inputs": "x"}, "inputs object is required"},
		{map[string]any{"inputs": with(workedExample(), map[string]any{"dagVanAanvraag": "24-12-2025"})}, "inputs.dagVanAanvraag must be a date string YYYY-MM-DD"},
		{map[string]any{"inputs": with(workedExample(), map[string]any{"maandelijksBrutoInkomenAanvrager": "1500", "aanvragerAlleenstaand": "ja"})},
			"inputs.aanvragerAlleenstaand must be a boolean; inputs.maandelijksBrutoInkomenAanvrager must be a number"},
		{map[string]any{"inputs": workedExample(), "options": map[string]any{"includeIntermediateSteps": "yes"}}, "options.includeIntermediateSteps must be a boolean, not string"},
	} {
		if msg := e.c.Post("/v1/chains/execute/localpass", tc.body).ExpectError(t, 400, "INVALID_REQUEST"); msg != tc.msg {
			t.Errorf("%v:\n got %q\nwant %q", tc.body, msg, tc.msg)
		}
	}
	e.c.Post("/v1/chains/execute/localpass", `{"inputs": {`).ExpectError(t, 400, "MALFORMED_BODY")
	big := `{"inputs": {"x": "` + strings.Repeat("a", 11<<20) + `"}}`
	e.c.Post("/v1/chains/execute/localpass", big).ExpectError(t, 413, "PAYLOAD_TOO_LARGE")
}

// TestExportAndExecuteDRD: the DRD built by export, executed with isDrd,
// gives the final outputs of the sequential chain.
func TestExportAndExecuteDRD(t *testing.T) {
	e := newEnv(t, nil)
	d := obj(t, data(t, e.c.Post("/v1/chains/export", map[string]any{"chain": localPassChain, "name": "Localpass DRD", "endpoint": kgURL}), 200))
	if keys(d) != "deploymentId,entryPointId,xml" || d["entryPointId"] != "dmn2_RONL_LocalpassEindresultaat" || d["deploymentId"] == "" {
		t.Fatalf("export %v", d["entryPointId"])
	}
	if xml := d["xml"].(string); !strings.Contains(xml, `id="drd_RONL_LocalpassEindresultaat"`) || !strings.Contains(xml, `<requiredDecision href="#dmn1_SZW_BijstandsnormInformatie"/>`) {
		t.Errorf("xml %.300s", xml)
	}
	for _, changes := range []map[string]any{
		{},
		{"maandelijksBrutoInkomenAanvrager": json.Number("1505.96")},
		{"maandelijksBrutoInkomenAanvrager": json.Number("1506")},
		{"maandelijksBrutoInkomenAanvrager": json.Number("1642.88")},
		{"aanvragerVoedselbankpasCity": true, "maandelijksBrutoInkomenAanvrager": json.Number("5000")},
		{"aanvragerAanmerkingStudieFinanciering": true},
		{"dagVanAanvraag": "2025-03-31", "aanvragerAlleenstaand": false},
		{"geboortedatumAanvrager": "2006-01-01", "aanvragerHeeftKinderen": false, "maandelijksBrutoInkomenAanvrager": json.Number("300")},
	} {
		inputs := with(workedExample(), changes)
		seq := obj(t, data(t, e.c.Post("/v1/chains/execute/localpass", map[string]any{"inputs": inputs}), 200))
		drd := obj(t, data(t, e.c.Post("/v1/chains/execute", map[string]any{"chain": []string{"dmn2_RONL_LocalpassEindresultaat"},
			"isDrd": true, "inputs": inputs, "endpoint": kgURL}), 200))
		if a, b := jsonOf(t, seq["finalOutputs"]), jsonOf(t, drd["results"]); a != b {
			t.Errorf("%v: chain %s, DRD %s", changes, a, b)
		}
		if steps := arr(t, drd["steps"]); len(steps) != 1 || obj(t, steps[0])["dmn"] != "dmn2_RONL_LocalpassEindresultaat" {
			t.Errorf("DRD steps %v", steps)
		}
	}

	for _, tc := range []struct {
		body   map[string]any
		status int
		code   string
		msg    string
	}{
		{map[string]any{"chain": localPassChain[:1], "name": "x", "endpoint": kgURL}, 400, "INVALID_REQUEST", "DRD requires at least 2 DMNs"},
		{map[string]any{"name": "x", "endpoint": kgURL}, 400, "INVALID_REQUEST", "chain array is required and must not be empty"},
		{map[string]any{"chain": localPassChain, "name": " ", "endpoint": kgURL}, 400, "INVALID_REQUEST", "name is required"},
		{map[string]any{"chain": localPassChain, "name": "x"}, 400, "INVALID_REQUEST", "endpoint is required (the URL of a SPARQL endpoint)"},
		{map[string]any{"chain": localPassChain, "name": strings.Repeat("n", 257), "endpoint": kgURL}, 400, "INVALID_REQUEST", "name is 257 characters long, at most 256 are allowed"},
		{map[string]any{"chain": []string{"SVB_LeeftijdsInformatie", strings.Repeat("é", 300)}, "name": "x", "endpoint": kgURL}, 400, "INVALID_REQUEST", "chain[1] is 300 characters long, at most 256 are allowed"},
		{map[string]any{"chain": slices.Repeat([]string{"SVB_LeeftijdsInformatie"}, 101), "name": "x", "endpoint": kgURL}, 400, "INVALID_REQUEST", "chain has 101 models, at most 100 are allowed"},
		{map[string]any{"chain": []string{"GEM_KwijtscheldingBelastingen", "RONL_LocalpassEindresultaat"}, "name": "x", "endpoint": kgURL}, 400, "INVALID_REQUEST",
			"chain is not DRD-compatible: step 2 (RONL_LocalpassEindresultaat): input aanvragerKwijtscheldingGemeentelijkeBelastingen is linked to output kwijtscheldingToegekend of step 1 (GEM_KwijtscheldingBelastingen) only semantically; a DRD passes values by identifier"},
		{map[string]any{"chain": []string{"SVB_LeeftijdsInformatie", "RONL_Onbekend"}, "name": "x", "endpoint": kgURL}, 400, "INVALID_REQUEST",
			"chain is not DRD-compatible: step 2 (RONL_Onbekend): no model with this identifier in the knowledge graph"},
		// in the knowledge graph, compatible, but not deployed in the engine
		{map[string]any{"dmnIds": []string{"SZW_BijstandsnormInformatie", "GEM_KwijtscheldingBelastingen"}, "name": "x", "endpoint": kgURL}, 400, "INVALID_REQUEST",
			"chain is not DRD-compatible: step 2 (GEM_KwijtscheldingBelastingen): the decision engine has no model with this key"},
		// the example graph's 3-model cycle: its links are semantic
		{map[string]any{"chain": []string{"GEM_InkomensToets", "GEM_VermogensToets", "GEM_Herbeoordeling"}, "name": "x", "endpoint": kgURL}, 400, "INVALID_REQUEST",
			"chain is not DRD-compatible: step 3 (GEM_Herbeoordeling): input vermogenOverschrijding is linked to output vermogenBovenGrens of step 2 (GEM_VermogensToets) only semantically; a DRD passes values by identifier"},
		// a model twice, and two models in the wrong order
		{map[string]any{"chain": []string{"SVB_LeeftijdsInformatie", "SZW_BijstandsnormInformatie", "SVB_LeeftijdsInformatie"}, "name": "x", "endpoint": kgURL}, 400, "INVALID_REQUEST",
			"chain is not DRD-compatible: step 3 (SVB_LeeftijdsInformatie): repeats step 1; a DRD holds each model once, so the chain would be a cycle"},
		{map[string]any{"chain": []string{"SZW_BijstandsnormInformatie", "SVB_LeeftijdsInformatie"}, "name": "x", "endpoint": kgURL}, 400, "INVALID_REQUEST",
			"chain is not DRD-compatible: step 1 (SZW_BijstandsnormInformatie): input aanvragerHeeftAOWLeeftijd is produced only by the later step 2 (SVB_LeeftijdsInformatie), which in the DRD requires this step: a cycle"},
	} {
		if msg := e.c.Post("/v1/chains/export", tc.body).ExpectError(t, tc.status, tc.code); msg != tc.msg {
			t.Errorf("%v:\n got %q\nwant %q", tc.body, msg, tc.msg)
		}
	}
}

func TestDMNXML(t *testing.T) {
	e := newEnv(t, nil)
	resp := e.c.Get("/v1/dmns/SVB_LeeftijdsInformatie/xml")
	resp.ExpectStatus(t, 200)
	if ct := resp.Header.Get("Content-Type"); ct != "application/xml; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	want, _ := fs.ReadFile(examples.FS, examples.LocalPass[0].Path)
	if string(resp.Body) != string(want) {
		t.Errorf("XML differs from the deployed file (%d vs %d bytes)", len(resp.Body), len(want))
	}
	if msg := e.c.Get("/v1/dmns/RONL_Onbekend/xml").ExpectError(t, 404, "NOT_FOUND"); msg != "DMN not found: RONL_Onbekend" {
		t.Errorf("unknown: %q", msg)
	}
}

func TestQueryProxy(t *testing.T) {
	e := newEnv(t, nil)
	remote := httptest.NewServer(e.kg.Handler(memstore.HandlerOptions{ReadOnly: true}))
	defer remote.Close()
	const sel = `PREFIX dct: <http://purl.org/dc/terms/> SELECT ?id WHERE { <https://data.regelkit.example/model/SVB_LeeftijdsInformatie> dct:identifier ?id }`
	want := `{"head":{"vars":["id"]},"results":{"bindings":[{"id":{"type":"literal","value":"SVB_LeeftijdsInformatie"}}]}}`
	for _, ep := range []string{kgURL, remote.URL} {
		d := data(t, e.c.Post("/v1/graphdb/query", map[string]any{"endpoint": ep, "query": sel}), 200)
		if got := jsonOf(t, d); got != want {
			t.Errorf("%s: %s", ep, got)
		}
		ask := data(t, e.c.Post("/v1/graphdb/query", map[string]any{"endpoint": ep, "query": "ASK { ?s ?p ?o }"}), 200)
		if got := jsonOf(t, ask); got != `{"boolean":true,"head":{}}` {
			t.Errorf("%s ASK: %s", ep, got)
		}
		e.c.Post("/v1/graphdb/query", map[string]any{"endpoint": ep, "query": "CONSTRUCT WHERE { ?s ?p ?o }"}).ExpectError(t, 400, "INVALID_REQUEST")
		// A syntax error is the caller's: 400, quoting the endpoint.
		msg := e.c.Post("/v1/graphdb/query", map[string]any{"endpoint": ep, "query": "SELECT WHERE"}).ExpectError(t, 400, "QUERY_ERROR")
		if !strings.HasPrefix(msg, "SPARQL endpoint answered 400 Bad Request: ") {
			t.Errorf("%s syntax error: %q", ep, msg)
		}
	}
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "GraphDB repository 'x' is not available", http.StatusBadGateway)
	}))
	defer failing.Close()
	msg := e.c.Post("/v1/graphdb/query", map[string]any{"endpoint": failing.URL, "query": sel}).ExpectError(t, 502, "QUERY_ERROR")
	if msg != "SPARQL endpoint answered 502 Bad Gateway" {
		t.Errorf("failing endpoint: %q", msg)
	}
	html := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"login": "required"}`))
	}))
	defer html.Close()
	msg = e.c.Post("/v1/graphdb/query", map[string]any{"endpoint": html.URL, "query": sel}).ExpectError(t, 502, "QUERY_ERROR")
	if !strings.HasPrefix(msg, "SPARQL endpoint did not answer with SPARQL results") {
		t.Errorf("not SPARQL: %q", msg)
	}
	for _, body := range []map[string]any{
		{"endpoint": kgURL},
		{"query": sel},
		{"endpoint": refusedURL, "query": sel},
	} {
		e.c.Post("/v1/graphdb/query", body).ExpectError(t, 400, "INVALID_REQUEST")
	}
	e.c.Post("/v1/graphdb/query", map[string]any{"endpoint": kgURL, "query": 5}).ExpectError(t, 400, "INVALID_REQUEST")
}

func TestOpenAPI(t *testing.T) {
	e := newEnv(t, nil)
	doc := e.router.Doc()
	for _, route := range []string{
		"GET /v1/dmns", "GET /api/dmns", "GET /v1/dmns/enhanced-chain-links", "GET /v1/dmns/semantic-equivalences",
		"GET /v1/dmns/cycles", "GET /v1/dmns/{identifier}", "GET /api/dmns/{identifier}", "GET /v1/dmns/{identifier}/xml",
		"GET /v1/chains", "GET /api/chains", "POST /v1/chains/execute", "POST /api/chains/execute",
		"POST /v1/chains/execute/localpass", "POST /api/chains/execute/localpass", "POST /v1/chains/export", "POST /v1/graphdb/query",
	} {
		method, path, _ := strings.Cut(route, " ")
		op := doc.Operation(method, path)
		if op == nil {
			t.Errorf("%s is not documented", route)
			continue
		}
		ok, found := op.Responses["200"]
		if !found || len(ok.Content) == 0 {
			t.Errorf("%s: no 200 response schema", route)
		}
		if strings.HasPrefix(path, "/api/") != op.Deprecated {
			t.Errorf("%s: deprecated %v", route, op.Deprecated)
		}
	}
	for _, route := range []string{"GET /api/dmns/cycles", "POST /api/chains/export", "POST /api/graphdb/query"} {
		method, path, _ := strings.Cut(route, " ")
		if doc.Has(method, path) {
			t.Errorf("%s has no legacy alias in the spec", route)
		}
	}
	if _, err := json.Marshal(doc); err != nil {
		t.Fatal(err)
	}
}
