package memstore

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/regelkit/regelkit/sparql/graph"
	"github.com/regelkit/regelkit/sparql/memstore/internal/algebra"
)

// joinMode selects the join strategies of selectWith.
type joinMode struct{ noReorder, noWCOJ, forceWCOJ bool }

// selectOrdered evaluates query on s with joins reordered (the default)
// or, with noReorder, in written order; it returns the solutions as
// sorted lines, one per solution.
func selectOrdered(t *testing.T, s *Store, query string, noReorder bool) []string {
	t.Helper()
	return selectWith(t, s, query, joinMode{noReorder: noReorder})
}

func selectWith(t *testing.T, s *Store, query string, mode joinMode) []string {
	t.Helper()
	rows, _ := selectCounting(t, s, query, mode)
	return rows
}

// selectCounting is selectWith that also returns how many BGP
// evaluations ran as generic joins.
func selectCounting(t *testing.T, s *Store, query string, mode joinMode) ([]string, int) {
	t.Helper()
	lim := Limits{}.resolve(s.opts.Limits)
	q, err := algebra.ParseQuery(query, algebra.Options{MaxDepth: lim.parseDepth()})
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	x := s.newExec(context.Background(), newBudget(lim, time.Now()), s.current(), nil, nil)
	x.noReorder, x.noWCOJ, x.forceWCOJ = mode.noReorder, mode.noWCOJ, mode.forceWCOJ
	res, err := x.runQuery(q)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	var out []string
	for _, sol := range res.Results.Solutions {
		var parts []string
		for _, v := range res.Results.Vars {
			parts = append(parts, v+"="+sol[v].String())
		}
		out = append(out, strings.Join(parts, " "))
	}
	slices.Sort(out)
	return out, x.gjRuns
}

// TestJoinReorderUnionCycle: the UNIONs of a group no longer run as a
// cross product before the pattern linking them. Written order, the query
// below enumerates 300 x 300 x 300 type combinations; reordered it starts
// from the links. The answer is written by hand: the links form one
// three-cycle a0 -> a1 -> a2 -> a0 of typed nodes, in three rotations.
func TestJoinReorderUnionCycle(t *testing.T) {
	const ex = "http://ex/"
	s := New()
	var quads []graph.Quad
	for i := range 300 {
		class := "A"
		if i%2 == 1 {
			class = "B"
		}
		quads = append(quads, graph.Quad{S: graph.IRI(fmt.Sprintf("%sn%d", ex, i)), P: graph.IRI(graph.RDFType), O: graph.IRI(ex + class)})
	}
	link := func(a, b int) {
		quads = append(quads, graph.Quad{S: graph.IRI(fmt.Sprintf("%sn%d", ex, a)), P: graph.IRI(ex + "to"), O: graph.IRI(fmt.Sprintf("%sn%d", ex, b))})
	}
	link(0, 1)
	link(1, 2)
	link(2, 0)
	link(5, 6) // no cycle
	s.Add(quads...)
	q := `PREFIX : <http://ex/> SELECT ?a ?b ?c WHERE {
  { ?a a :A } UNION { ?a a :B } { ?b a :A } UNION { ?b a :B } { ?c a :A } UNION { ?c a :B }
  ?a :to ?b . ?b :to ?c . ?c :to ?a }`
	// written order takes minutes (27 million combinations): the Timeout
	// fails the test instead
	res, err := s.QueryWith(context.Background(), q, QueryOptions{Limits: Limits{Timeout: 5 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, sol := range res.Results.Solutions {
		got = append(got, sol["a"].Value[len(ex):]+sol["b"].Value[len(ex):]+sol["c"].Value[len(ex):])
	}
	slices.Sort(got)
	want := []string{"n0n1n2", "n1n2n0", "n2n0n1"}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestJoinReorderProperty compares reordered joins with the written
// order on random groups of patterns and UNIONs over random graphs.
func TestJoinReorderProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 4))
	const ex = "http://ex/"
	node := func(i int) graph.Term { return graph.IRI(fmt.Sprintf("%sn%d", ex, i)) }
	preds := []string{"p", "q", "r"}
	vars := []string{"?a", "?b", "?c", "?d"}
	term := func() string {
		if rng.IntN(5) == 0 {
			return fmt.Sprintf(":n%d", rng.IntN(12))
		}
		return vars[rng.IntN(len(vars))]
	}
	pattern := func() string {
		return term() + " :" + preds[rng.IntN(len(preds))] + " " + term() + " ."
	}
	for g := range 20 {
		s := New()
		var quads []graph.Quad
		for range 40 + rng.IntN(60) {
			quads = append(quads, graph.Quad{S: node(rng.IntN(12)), P: graph.IRI(ex + preds[rng.IntN(len(preds))]), O: node(rng.IntN(12))})
		}
		s.Add(quads...)
		for k := range 15 {
			var parts []string
			for range 2 + rng.IntN(3) {
				if rng.IntN(2) == 0 {
					parts = append(parts, "{ "+pattern()+" } UNION { "+pattern()+" "+pattern()+" }")
				} else {
					parts = append(parts, "{ "+pattern()+" }")
				}
			}
			q := "PREFIX : <http://ex/> SELECT * WHERE { " + strings.Join(parts, " ") + " }"
			want := selectOrdered(t, s, q, true)
			got := selectOrdered(t, s, q, false)
			if !slices.Equal(got, want) {
				t.Fatalf("graph %d query %d: %s\nreordered %d rows, written order %d rows", g, k, q, len(got), len(want))
			}
		}
	}
}
