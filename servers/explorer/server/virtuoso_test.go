package server

import (
	"bytes"
	"context"
	"encoding/json"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/regelkit/regelkit/examples"
	"github.com/regelkit/regelkit/servers/internal/apitest"
	"github.com/regelkit/regelkit/servers/internal/virtuosotest"
	"github.com/regelkit/regelkit/sparql"
)

// kgGraph is the named graph the example knowledge graph is loaded into.
// Virtuoso's default graph is the union of all graphs, so the explorer's
// queries (which name no graph) see it.
const kgGraph = "urn:regelkit:example-kg"

// startVirtuoso runs a throwaway Virtuoso (servers/internal/virtuosotest),
// loads the example knowledge graph and returns its SPARQL endpoint URL.
func startVirtuoso(t *testing.T) string {
	t.Helper()
	v := virtuosotest.Start(t, virtuosotest.Options{})
	for _, p := range examples.KnowledgeGraph {
		data, err := examples.FS.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		v.LoadTurtle(t, data, kgGraph)
	}
	return v.SPARQL()
}

// comparable decodes a response body and drops what legitimately differs
// between two endpoints: timestamps, the cache flag and the echoed
// endpoint URL.
func comparable(t *testing.T, resp *apitest.Response) any {
	t.Helper()
	var v any
	dec := json.NewDecoder(bytes.NewReader(resp.Body))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, resp.Body)
	}
	var strip func(any)
	strip = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			delete(x, "timestamp")
			delete(x, "cached")
			delete(x, "endpoint")
			for _, e := range x {
				strip(e)
			}
		case []any:
			for _, e := range x {
				strip(e)
			}
		}
	}
	strip(v)
	return v
}

// TestVirtuosoInterop runs every discovery endpoint, SHACL merged mode and
// the query proxy against a real Virtuoso holding the example knowledge
// graph and against the embedded store, and requires the same answers.
func TestVirtuosoInterop(t *testing.T) {
	virtuoso := startVirtuoso(t)
	_, c := newTestApp(t, nil)
	embedded := c.URL() + sparqlPath
	q := func(ep string) string { return "endpoint=" + url.QueryEscape(ep) }

	var listing struct {
		DMNs []struct{ Identifier string } `json:"dmns"`
	}
	c.Get("/v1/dmns?"+q(embedded)).Data(t, 200, &listing)
	if len(listing.DMNs) < 5 {
		t.Fatalf("embedded listing has %d models", len(listing.DMNs))
	}
	paths := []string{"/v1/dmns", "/v1/dmns/enhanced-chain-links", "/v1/dmns/semantic-equivalences", "/v1/dmns/cycles", "/v1/chains"}
	for _, m := range listing.DMNs {
		paths = append(paths, "/v1/dmns/"+url.PathEscape(m.Identifier))
	}
	for _, p := range paths {
		want := c.Get(p+"?"+q(embedded)).ExpectStatus(t, 200)
		got := c.Get(p + "?" + q(virtuoso))
		if got.Status != 200 {
			t.Errorf("%s over Virtuoso: %d %s", p, got.Status, got.Body)
			continue
		}
		if !reflect.DeepEqual(comparable(t, got), comparable(t, want)) {
			t.Errorf("%s differs over Virtuoso:\n got  %s\n want %s", p, got.Body, want.Body)
		}
	}

	// A chain executed with its links read from Virtuoso gives the same
	// results and steps (durations aside).
	exec := func(ep string) any {
		body := `{"chain":["SVB_LeeftijdsInformatie","SZW_BijstandsnormInformatie","RONL_LocalpassEindresultaat"],"endpoint":"` + ep + `","inputs":` + localPassInputs + `}`
		v := comparable(t, c.Post("/v1/chains/execute", body).ExpectStatus(t, 200))
		dropDurations(v)
		return v
	}
	if got, want := exec(virtuoso), exec(embedded); !reflect.DeepEqual(got, want) {
		t.Errorf("chain execution differs over Virtuoso:\n got  %v\n want %v", got, want)
	}

	// SHACL merged mode reads the published triples of the file's subjects.
	org := `@prefix cv: <http://data.europa.eu/m8g/> . @prefix foaf: <http://xmlns.com/foaf/0.1/> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> . @prefix dct: <http://purl.org/dc/terms/> .
<https://data.regelkit.example/organisation/gemeente> a cv:PublicOrganisation ;
    skos:prefLabel "Gemeente Voorbeeldstad"@nl ; dct:identifier "GM9999" ;
    foaf:homepage <https://voorbeeldstad.example/home> .`
	wantSHACL := c.Post("/v1/shacl/validate-merged", map[string]string{"content": org, "endpoint": embedded}).ExpectStatus(t, 200)
	gotSHACL := c.Post("/v1/shacl/validate-merged", map[string]string{"content": org, "endpoint": virtuoso}).ExpectStatus(t, 200)
	if !reflect.DeepEqual(comparable(t, gotSHACL), comparable(t, wantSHACL)) {
		t.Errorf("merged SHACL differs over Virtuoso:\n got  %s\n want %s", gotSHACL.Body, wantSHACL.Body)
	}
	var merged struct {
		Layers map[string]struct{ Issues []struct{ Code string } } `json:"layers"`
	}
	gotSHACL.Data(t, 200, &merged)
	if issues := merged.Layers["custom"].Issues; len(issues) != 1 || issues[0].Code != "SHACL-MAXCOUNT" {
		t.Errorf("merged custom layer over Virtuoso: %+v (the published homepage must collide)", merged.Layers["custom"])
	}

	// The query proxy passes Virtuoso's JSON on; the solutions match.
	query := `PREFIX dct: <http://purl.org/dc/terms/>
SELECT ?id ?title WHERE { ?m a <https://cprmv.open-regels.nl/0.3.0/DecisionModel> ; dct:identifier ?id ; dct:title ?title } ORDER BY ?id`
	proxied := func(ep string) *sparql.Results {
		var raw json.RawMessage
		c.Post("/v1/graphdb/query", map[string]string{"endpoint": ep, "query": query}).Data(t, 200, &raw)
		res, err := sparql.ReadJSON(bytes.NewReader(raw))
		if err != nil {
			t.Fatalf("proxy answer over %s: %v\n%s", ep, err, raw)
		}
		return res
	}
	gotRes, wantRes := proxied(virtuoso), proxied(embedded)
	if len(wantRes.Solutions) == 0 || !reflect.DeepEqual(gotRes.Solutions, wantRes.Solutions) {
		t.Errorf("proxied solutions differ:\n got  %v\n want %v", gotRes.Solutions, wantRes.Solutions)
	}
	// ASK through the proxy: Virtuoso's one-row table comes back as the
	// boolean result the embedded store gives.
	for _, ask := range []string{"ASK { ?s ?p ?o }", "ASK { <urn:nothing> ?p ?o }"} {
		var got, want json.RawMessage
		c.Post("/v1/graphdb/query", map[string]string{"endpoint": virtuoso, "query": ask}).Data(t, 200, &got)
		c.Post("/v1/graphdb/query", map[string]string{"endpoint": embedded, "query": ask}).Data(t, 200, &want)
		if string(got) != string(want) {
			t.Errorf("%s through the proxy: got %s, want %s", ask, got, want)
		}
	}

	// Why form POST is the default: Virtuoso 7.2 never answers a direct
	// application/sparql-query POST (the client times out), while the form
	// encoding and GET work.
	ctx := context.Background()
	for _, m := range []sparql.QueryMethod{sparql.MethodForm, sparql.MethodGet, sparql.MethodDirect} {
		_, err := sparql.NewClient(virtuoso, sparql.ClientOptions{QueryMethod: m, Timeout: 2 * time.Second}).Ask(ctx, "ASK { ?s ?p ?o }")
		switch {
		case m != sparql.MethodDirect && err != nil:
			t.Errorf("%s query to Virtuoso: %v", m, err)
		case m == sparql.MethodDirect && err == nil:
			t.Logf("this Virtuoso answers direct POSTs too")
		}
	}

	// A syntax error is the caller's: 400 QUERY_ERROR quoting Virtuoso.
	msg := c.Post("/v1/graphdb/query", map[string]string{"endpoint": virtuoso, "query": "SELECT WHERE {"}).
		ExpectError(t, 400, "QUERY_ERROR")
	if !strings.Contains(msg, "400") {
		t.Errorf("syntax error message %q does not name the endpoint's status", msg)
	}
}

// localPassInputs is the worked example of the local-pass chain.
const localPassInputs = `{"dagVanAanvraag":"2025-12-24","geboortedatumAanvrager":"1980-01-23","geboortedatumPartner":null,
"aanvragerAlleenstaand":true,"aanvragerHeeftKinderen":true,"aanvragerHeeftKind4Tm17":true,"aanvragerInwonerMunicipality":true,
"maandelijksBrutoInkomenAanvrager":1500,"aanvragerUitkeringBaanbrekers":false,"aanvragerVoedselbankpasCity":false,
"aanvragerKwijtscheldingGemeentelijkeBelastingen":false,"aanvragerSchuldhulptrajectCreditBank":false,
"aanvragerDitKalenderjaarAlAangevraagd":false,"aanvragerAanmerkingStudieFinanciering":false}`

// dropDurations removes timings, which differ from run to run.
func dropDurations(v any) {
	switch x := v.(type) {
	case map[string]any:
		delete(x, "duration")
		delete(x, "totalDuration")
		for _, e := range x {
			dropDurations(e)
		}
	case []any:
		for _, e := range x {
			dropDurations(e)
		}
	}
}
