package memstore

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/regelkit/regelkit/sparql/graph"
	"github.com/regelkit/regelkit/sparql/memstore/catalog"
)

// TestGenericJoinProperty compares the generic join with the binary plan
// on random cyclic patterns (with constants, repeated predicates and
// filters) over random graphs.
func TestGenericJoinProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 1))
	const ex = "http://ex/"
	preds := []string{"p", "q"}
	vars := []string{"?a", "?b", "?c", "?d", "?e"}
	for g := range 25 {
		nodes := 4 + rng.IntN(8)
		s := New()
		var quads []graph.Quad
		for range 10 + rng.IntN(60) {
			quads = append(quads, graph.Quad{
				S: graph.IRI(fmt.Sprintf("%sn%d", ex, rng.IntN(nodes))),
				P: graph.IRI(ex + preds[rng.IntN(len(preds))]),
				O: graph.IRI(fmt.Sprintf("%sn%d", ex, rng.IntN(nodes)))})
		}
		s.Add(quads...)
		for k := range 20 {
			// a cycle through 3 to 5 variables, then random extra patterns
			n := 3 + rng.IntN(3)
			var pats []string
			for i := range n {
				pats = append(pats, fmt.Sprintf("%s :%s %s .", vars[i], preds[rng.IntN(2)], vars[(i+1)%n]))
			}
			for range rng.IntN(3) {
				a, c := vars[rng.IntN(n)], vars[rng.IntN(n)]
				if a == c || rng.IntN(4) == 0 {
					c = fmt.Sprintf(":n%d", rng.IntN(nodes))
				}
				pats = append(pats, fmt.Sprintf("%s :%s %s .", a, preds[rng.IntN(2)], c))
			}
			if rng.IntN(2) == 0 {
				pats = append(pats, "FILTER(?a != ?b)")
			}
			if rng.IntN(3) == 0 {
				pats = append(pats, fmt.Sprintf("FILTER(?c != :n%d)", rng.IntN(nodes)))
			}
			rng.Shuffle(len(pats), func(i, j int) { pats[i], pats[j] = pats[j], pats[i] })
			q := "PREFIX : <http://ex/> SELECT * WHERE { " + strings.Join(pats, " ") + " }"
			want := selectWith(t, s, q, joinMode{noWCOJ: true})
			got := selectWith(t, s, q, joinMode{forceWCOJ: true})
			if !slices.Equal(got, want) {
				t.Fatalf("graph %d query %d: %s\ngeneric join %d rows, binary plan %d rows\n%v\n%v", g, k, q, len(got), len(want), got, want)
			}
		}
	}
}

// TestGenericJoinChosen: a triangle over a dense bipartite graph (edges
// only between the even and the odd nodes, so no triangle at all), whose
// binary plan is estimated to build over a million partial rows, runs as
// a generic join; a path over the same graph keeps the binary plan.
func TestGenericJoinChosen(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	const ex = "http://ex/"
	s := New()
	var quads []graph.Quad
	for range 24000 {
		a, b := 2*rng.IntN(200), 2*rng.IntN(200)+1
		if rng.IntN(2) == 0 {
			a, b = b, a
		}
		quads = append(quads, graph.Quad{
			S: graph.IRI(fmt.Sprintf("%sn%d", ex, a)),
			P: graph.IRI(ex + "p"),
			O: graph.IRI(fmt.Sprintf("%sn%d", ex, b))})
	}
	s.Add(quads...)
	t.Run("Timeout", func(t *testing.T) {
		// the generic join checks the budget as the binary plan does
		_, err := s.QueryWith(t.Context(), `PREFIX : <http://ex/> SELECT * WHERE { ?a :p ?b . ?b :p ?c . ?c :p ?a }`,
			QueryOptions{Limits: Limits{Timeout: time.Nanosecond}})
		var le *LimitError
		if !errors.As(err, &le) || le.Limit != "Timeout" {
			t.Errorf("got %v, want a *LimitError for Timeout", err)
		}
	})
	for _, tc := range []struct {
		q      string
		wantGJ bool
		rows   int
	}{
		{`PREFIX : <http://ex/> SELECT * WHERE { ?a :p ?b . ?b :p ?c . ?c :p ?a }`, true, 0},
		{`PREFIX : <http://ex/> SELECT * WHERE { ?a :p ?b . ?b :p :n7 }`, false, -1},
	} {
		plan, err := s.Explain(t.Context(), tc.q, QueryOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(plan, "generic join"); got != tc.wantGJ {
			t.Errorf("%s: generic join chosen %v, want %v; plan:\n%s", tc.q, got, tc.wantGJ, plan)
		}
		res, err := s.Query(t.Context(), tc.q)
		if err != nil {
			t.Fatal(err)
		}
		if tc.rows >= 0 && len(res.Results.Solutions) != tc.rows {
			t.Errorf("%s: %d rows, want %d", tc.q, len(res.Results.Solutions), tc.rows)
		}
	}
}

// TestCatalogCyclesStrategies: on a 1,000-model catalogue both cycle
// queries give the same rows by generic join as by binary plan, at least
// the 3 rotations of each of the 20 cycles the generator closes (every
// 50th model). CyclesQuery is one cyclic BGP; in the generic query the
// UNIONs bind a model first, which leaves its BGP acyclic.
func TestCatalogCyclesStrategies(t *testing.T) {
	var buf bytes.Buffer
	if err := catalog.WriteNTriples(&buf, catalog.Options{Models: 1000}); err != nil {
		t.Fatal(err)
	}
	s := New()
	if err := s.Load(t.Context(), &buf, graph.NTriples); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{catalog.CyclesQuery, cyclesGenericQuery} {
		binary := selectWith(t, s, q, joinMode{noWCOJ: true})
		generic, runs := selectCounting(t, s, q, joinMode{forceWCOJ: true})
		if len(binary) < 60 {
			t.Fatalf("binary plan: %d rows, want at least 60", len(binary))
		}
		if !slices.Equal(generic, binary) {
			t.Errorf("generic join %d rows, binary plan %d rows", len(generic), len(binary))
		}
		if q == catalog.CyclesQuery && runs == 0 {
			t.Error("CyclesQuery did not run as a generic join when forced")
		}
	}
}

// hubStore holds a graph whose averages hide two hubs: hub -> m_i ->
// hub2 -> m_i for 3,000 nodes m_i, and hub2 -> hub. Its triangles are
// (hub, m_i, hub2) in 3 rotations each: 9,000 rows. The binary plan
// follows hub2's 3,000 out-edges from each of its 3,000 in-edges (nine
// million partial rows); per-predicate averages (3 edges per node)
// predict a few thousand.
func hubStore() *Store {
	const ex = "http://ex/"
	q := graph.IRI(ex + "q")
	hub, hub2 := graph.IRI(ex+"hub"), graph.IRI(ex+"hub2")
	quads := []graph.Quad{{S: hub2, P: q, O: hub}}
	for i := range 3000 {
		m := graph.IRI(fmt.Sprintf("%sm%d", ex, i))
		quads = append(quads, graph.Quad{S: hub, P: q, O: m}, graph.Quad{S: m, P: q, O: hub2}, graph.Quad{S: hub2, P: q, O: m})
	}
	s := New()
	s.Add(quads...)
	return s
}

const hubTriangle = `PREFIX : <http://ex/> SELECT * WHERE { ?a :q ?b . ?b :q ?c . ?c :q ?a }`

// TestGenericJoinSkew: the planner sees the hubs through the largest
// fan-outs and runs the triangle as a generic join.
func TestGenericJoinSkew(t *testing.T) {
	s := hubStore()
	rows, runs := selectCounting(t, s, hubTriangle, joinMode{})
	if runs == 0 {
		t.Error("the triangle over the hubs ran as a binary plan")
	}
	if len(rows) != 9000 {
		t.Errorf("%d rows, want 9000", len(rows))
	}
	for _, r := range rows {
		if !strings.Contains(r, "/hub>") || !strings.Contains(r, "/hub2>") {
			t.Fatalf("row %s lacks a hub", r)
		}
	}
}
