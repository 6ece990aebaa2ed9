package public

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

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
	if d := cmp.Diff(want, got.Data); d != "" {
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
	if d := cmp.Diff(want, got.Data); d != "" {
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
