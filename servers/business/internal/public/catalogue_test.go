package public

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/regelkit/regelkit/sparql/graph"
	"github.com/regelkit/regelkit/sparql/memstore"
)

// sparqlUpstream serves testdata/catalogue.ttl over the SPARQL protocol
// from a real in-memory store, or 500 while failing.
func sparqlUpstream(t *testing.T) (*httptest.Server, *atomic.Bool, *atomic.Int64) {
	t.Helper()
	data, err := os.ReadFile("testdata/catalogue.ttl")
	if err != nil {
		t.Fatal(err)
	}
	store := memstore.New()
	if err := store.Load(context.Background(), bytes.NewReader(data), graph.Turtle); err != nil {
		t.Fatal(err)
	}
	h := store.Handler(memstore.HandlerOptions{ReadOnly: true})
	var fail atomic.Bool
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if fail.Load() {
			http.Error(w, "store down", http.StatusInternalServerError)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &fail, &hits
}

type catalogueBody struct {
	Data Catalogue `json:"data"`
	Meta struct {
		Cache CatalogueCache `json:"cache"`
	} `json:"meta"`
}

func TestCatalogue(t *testing.T) {
	srv, fail, hits := sparqlUpstream(t)
	clk := newClock()
	c := serve(t, Config{SPARQLURL: srv.URL, Now: clk.now})
	var got catalogueBody
	c.Get("/v1/public/regelcatalogus").ExpectStatus(t, 200).Decode(t, &got)
	want := Catalogue{
		Services: []Service{
			{URI: "https://kg.example/huur", Title: "Huurtoeslag", Description: str("Bijdrage in de huur"), OrganisationURI: str("https://kg.example/orgA")},
			{URI: "https://kg.example/parkeren", Title: "Parkeervergunning"},
		},
		Organisations: []Organisation{
			{URI: "https://kg.example/orgA", Name: "Alfa", Identifier: "A", Homepage: str("https://alfa.example/"), Logo: str("https://alfa.example/logo.png")},
			{URI: "https://kg.example/orgB", Name: "Bravo", Identifier: "B"},
		},
		Concepts: []Concept{
			{URI: "https://kg.example/c1", PrefLabel: str("Inkomen"), ServiceTitle: str("Huurtoeslag"), ServiceURI: "https://kg.example/huur", ExactMatch: "https://begrip.example/inkomen"},
			{URI: "https://kg.example/c2", ServiceTitle: str("Parkeervergunning"), ServiceURI: "https://kg.example/parkeren", ExactMatch: "https://begrip.example/kenteken"},
		},
		Rules: []Rule{
			{URI: "https://kg.example/r2", RuleTitle: "Artikel 2 huurgrens", ServiceTitle: "Huurtoeslag", ValidFrom: str("2025-01-01")},
			{URI: "https://kg.example/r1", RuleTitle: "Inkomensgrens", Description: str("Maximaal inkomen"), ServiceTitle: "Huurtoeslag",
				ValidFrom: str("2026-01-01"), Confidence: str("hoog")},
		},
	}
	if d := cmp.Diff(want, got.Data, cmpopts.IgnoreUnexported(Organisation{})); d != "" {
		t.Errorf("catalogue (-want +got):\n%s", d)
	}
	if m := got.Meta.Cache; m.Cached || m.Stale || len(m.FailedSlices) != 0 || *m.AgeMs != 0 {
		t.Errorf("first meta.cache %+v", m)
	}
	if hits.Load() != 5 {
		t.Errorf("%d queries, want the five slices", hits.Load())
	}

	clk.advance(time.Minute)
	c.Get("/v1/public/regelcatalogus").Decode(t, &got)
	if m := got.Meta.Cache; !m.Cached || *m.AgeMs != 60000 || *m.FetchedAt != "2026-11-24T09:00:00.000Z" || hits.Load() != 5 {
		t.Errorf("cached meta %+v after %d queries", m, hits.Load())
	}

	// Past the ttl the store fails: every slice serves its stale copy.
	clk.advance(5 * time.Minute)
	fail.Store(true)
	got = catalogueBody{}
	c.Get("/v1/public/regelcatalogus").ExpectStatus(t, 200).Decode(t, &got)
	if d := cmp.Diff(want, got.Data, cmpopts.IgnoreUnexported(Organisation{})); d != "" {
		t.Errorf("stale catalogue (-want +got):\n%s", d)
	}
	m := got.Meta.Cache
	if !m.Stale || m.Cached || *m.AgeMs != 360000 || len(m.FailedSlices) != 5 {
		t.Errorf("stale meta %+v", m)
	}
	// refresh=1 bypasses the caches (and still falls back).
	before := hits.Load()
	c.Get("/v1/public/regelcatalogus?refresh=1").ExpectStatus(t, 200)
	if hits.Load() != before+5 {
		t.Errorf("refresh made %d queries, want 5", hits.Load()-before)
	}
}

// TestTriplyDBLogos: on a TriplyDB-shaped endpoint the logo IRI's last
// segment names a dataset asset, whose first version is the logo.
func TestTriplyDBLogos(t *testing.T) {
	kg, _, _ := sparqlUpstream(t)
	var auth atomic.Value
	mux := http.NewServeMux()
	mux.HandleFunc("/datasets/acct/regels/assets", func(w http.ResponseWriter, r *http.Request) {
		auth.Store(r.Header.Get("Authorization"))
		_, _ = w.Write([]byte(`[{"assetName":"logo.png","versions":[{"url":"https://assets.example/v2/logo.png"},{"url":"https://assets.example/v1/logo.png"}]},
			{"assetName":"other.svg","versions":[]}]`))
	})
	mux.HandleFunc("/datasets/acct/regels/services/kg/sparql", func(w http.ResponseWriter, r *http.Request) {
		proxy, err := http.NewRequestWithContext(r.Context(), r.Method, kg.URL, r.Body)
		if err != nil {
			t.Error(err)
			return
		}
		proxy.Header = r.Header.Clone()
		resp, err := http.DefaultClient.Do(proxy)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		w.Header().Set("Content-Type", resp.Header.Get("Content-Type"))
		w.WriteHeader(resp.StatusCode)
		_, _ = io.Copy(w, resp.Body)
	})
	triply := httptest.NewServer(mux)
	defer triply.Close()
	if got := assetsURL(triply.URL + "/datasets/acct/regels/services/kg/sparql"); got != triply.URL+"/datasets/acct/regels/assets" {
		t.Fatalf("assetsURL = %q", got)
	}
	if got := assetsURL("https://graphdb.example/repositories/regels"); got != "" {
		t.Errorf("a non-TriplyDB endpoint has no assets: %q", got)
	}
	c := serve(t, Config{SPARQLURL: triply.URL + "/datasets/acct/regels/services/kg/sparql", SPARQLToken: "tdb-token"})
	var got catalogueBody
	c.Get("/v1/public/regelcatalogus").ExpectStatus(t, 200).Decode(t, &got)
	logos := map[string]*string{}
	for _, o := range got.Data.Organisations {
		logos[o.Identifier] = o.Logo
	}
	if logos["A"] == nil || *logos["A"] != "https://assets.example/v2/logo.png" || logos["B"] != nil {
		t.Errorf("logos %v", got.Data.Organisations)
	}
	if auth.Load() != "Bearer tdb-token" {
		t.Errorf("assets request Authorization %v", auth.Load())
	}
}
