package virtuosotest_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/regelkit/regelkit/servers/internal/virtuosotest"
	"github.com/regelkit/regelkit/sparql"
)

func TestVirtuosoLoadQueryUpdate(t *testing.T) {
	v := virtuosotest.Start(t, virtuosotest.Options{AllowUpdate: true})
	v.LoadTurtle(t, []byte(`@prefix ex: <http://example.org/> . ex:a ex:p "één" .`), "http://example.org/g1")
	v.LoadTurtle(t, []byte(`<http://example.org/d> <http://example.org/p> 1 .`), "")
	v.LoadTriG(t, []byte(`@prefix ex: <http://example.org/> .
ex:g2 { ex:b ex:p ex:c . }
ex:g3 { ex:c ex:p [ ex:q 2 ] . }`), "")
	c := sparql.NewClient(v.SPARQL(), sparql.ClientOptions{})
	ctx := context.Background()

	res, err := c.Select(ctx, `SELECT ?g ?s WHERE { GRAPH ?g { ?s <http://example.org/p> ?o } FILTER(STRSTARTS(STR(?g), "http://example.org/") || ?g = <`+virtuosotest.DefaultGraph+`>) } ORDER BY ?g`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range res.Solutions {
		got = append(got, s["g"].Value+" "+s["s"].Value)
	}
	want := []string{
		"http://example.org/g1 http://example.org/a",
		"http://example.org/g2 http://example.org/b",
		"http://example.org/g3 http://example.org/c",
		virtuosotest.DefaultGraph + " http://example.org/d",
	}
	if len(got) != len(want) {
		t.Fatalf("graphs and subjects:\n got  %q\n want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("row %d: got %q, want %q", i, got[i], want[i])
		}
	}
	// The UTF-8 literal survives the load.
	if ok, err := c.Ask(ctx, `ASK { <http://example.org/a> <http://example.org/p> "één" }`); err != nil || !ok {
		t.Errorf("UTF-8 literal: %v %v", ok, err)
	}

	// AllowUpdate: the anonymous endpoint takes SPARQL Update.
	if err := c.Update(ctx, `INSERT DATA { GRAPH <http://example.org/g4> { <http://example.org/x> <http://example.org/p> "new" } }`); err != nil {
		t.Fatalf("update: %v", err)
	}
	if ok, err := c.Ask(ctx, `ASK { GRAPH <http://example.org/g4> { <http://example.org/x> ?p "new" } }`); err != nil || !ok {
		t.Errorf("inserted triple: %v %v", ok, err)
	}
}

func TestVirtuosoReadOnlyByDefault(t *testing.T) {
	v := virtuosotest.Start(t, virtuosotest.Options{})
	c := sparql.NewClient(v.SPARQL(), sparql.ClientOptions{})
	if err := c.Update(context.Background(), `INSERT DATA { GRAPH <http://example.org/g> { <http://example.org/x> <http://example.org/p> 1 } }`); err == nil {
		t.Error("update accepted without AllowUpdate")
	}
}

// TestVirtuosoStoppedAtCleanup: when the test that started Virtuoso ends,
// the server no longer answers.
func TestVirtuosoStoppedAtCleanup(t *testing.T) {
	var endpoint string
	t.Run("start", func(t *testing.T) {
		endpoint = virtuosotest.Start(t, virtuosotest.Options{}).SPARQL()
		if _, err := sparql.NewClient(endpoint, sparql.ClientOptions{}).Ask(context.Background(), "ASK {}"); err != nil {
			t.Fatalf("running server: %v", err)
		}
	})
	if endpoint == "" {
		t.Skip("the subtest did not start Virtuoso")
	}
	c := &http.Client{Timeout: 2 * time.Second}
	if resp, err := c.Get(endpoint + "?query=ASK%20%7B%7D"); err == nil {
		resp.Body.Close()
		t.Errorf("Virtuoso still answers at %s after cleanup: %d", endpoint, resp.StatusCode)
	}
}
