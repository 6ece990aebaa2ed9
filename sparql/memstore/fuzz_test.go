package memstore

import (
	"context"
	"errors"
	"testing"
	"time"
)

// FuzzQuery evaluates arbitrary text against a small store under tight
// Limits: every query ends, in time, with a result, a syntax error, a
// LimitError or an expression-level failure, never a panic or a hang.
func FuzzQuery(f *testing.F) {
	for _, s := range []string{
		`SELECT * WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i } ORDER BY RAND() LIMIT 1`,
		`SELECT ?y3 WHERE { BIND("ab" AS ?y0) BIND(CONCAT(?y0, ?y0) AS ?y1) BIND(CONCAT(?y1, ?y1) AS ?y2) BIND(CONCAT(?y2, ?y2) AS ?y3) }`,
		`SELECT (GROUP_CONCAT(?c) AS ?g) WHERE { ?a ?b ?c . ?d ?e ?f }`,
		`SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }`,
		`SELECT ?o WHERE { ?s ?p ?o } ORDER BY DESC(?o) LIMIT 3 OFFSET 2`,
		`SELECT ?x WHERE { ?x <http://ex/p0>/<http://ex/p0>* ?y FILTER(REPLACE(STR(?y), "o", "oo") != "") }`,
		`ASK { FILTER(!!!!!!!!!!!!(1 = 1)) }`,
	} {
		f.Add(s)
	}
	s := hostileStore(f, 200, Options{Limits: Limits{
		Timeout: 200 * time.Millisecond, MaxRows: 10_000, MaxBytes: 64 << 10, MaxTotalBytes: 32 << 20, MaxDepth: 50,
	}})
	f.Fuzz(func(t *testing.T, q string) {
		start := time.Now()
		_, err := s.Query(context.Background(), q)
		if took := time.Since(start); took > 3*time.Second {
			t.Fatalf("took %v", took)
		}
		var ee *EvaluationError
		if errors.As(err, &ee) {
			t.Fatalf("internal failure: %v", err)
		}
	})
}
