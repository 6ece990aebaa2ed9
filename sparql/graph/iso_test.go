package graph

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

func nt(t *testing.T, src string) *Graph {
	t.Helper()
	g, err := ParseGraph(strings.NewReader(src), NTriples, ParseOptions{BlankScope: "t"})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestIsomorphic(t *testing.T) {
	for _, c := range []struct {
		name string
		a, b string
		iso  bool
	}{
		{"ground equal", "<http://a> <http://p> <http://b> .", "<http://a> <http://p> <http://b> .", true},
		{"ground different", "<http://a> <http://p> <http://b> .", "<http://a> <http://p> <http://c> .", false},
		{"renamed blanks", "_:x <http://p> _:y .\n_:y <http://q> \"1\" .", "_:m <http://p> _:n .\n_:n <http://q> \"1\" .", true},
		{"blank direction", "_:x <http://p> _:y .\n_:y <http://q> \"1\" .", "_:y <http://p> _:x .\n_:y <http://q> \"1\" .", false},
		{"one blank vs two", "_:x <http://p> <http://a> .\n_:x <http://p> <http://b> .", "_:x <http://p> <http://a> .\n_:y <http://p> <http://b> .", false},
		{"self loop vs pair", "_:x <http://p> _:x .\n_:y <http://p> _:y .", "_:x <http://p> _:y .\n_:y <http://p> _:x .", false},
		// Two 3-cycles against one 6-cycle: colour refinement alone sees
		// the same colours everywhere; only the search tells them apart.
		{"regular graphs",
			"_:a <http://p> _:b .\n_:b <http://p> _:c .\n_:c <http://p> _:a .\n_:d <http://p> _:e .\n_:e <http://p> _:f .\n_:f <http://p> _:d .",
			"_:a <http://p> _:b .\n_:b <http://p> _:c .\n_:c <http://p> _:d .\n_:d <http://p> _:e .\n_:e <http://p> _:f .\n_:f <http://p> _:a .",
			false},
		{"6-cycle relabelled",
			"_:a <http://p> _:b .\n_:b <http://p> _:c .\n_:c <http://p> _:d .\n_:d <http://p> _:e .\n_:e <http://p> _:f .\n_:f <http://p> _:a .",
			"_:f <http://p> _:d .\n_:d <http://p> _:b .\n_:b <http://p> _:e .\n_:e <http://p> _:c .\n_:c <http://p> _:a .\n_:a <http://p> _:f .",
			true},
		{"literal vs blank", "<http://a> <http://p> \"x\" .", "<http://a> <http://p> _:x .", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, b := nt(t, c.a), nt(t, c.b)
			if got := Isomorphic(a, b); got != c.iso {
				t.Errorf("Isomorphic = %v, want %v", got, c.iso)
			}
			if got := Isomorphic(b, a); got != c.iso {
				t.Errorf("Isomorphic (swapped) = %v, want %v", got, c.iso)
			}
			if got := CanonicalNTriples(a) == CanonicalNTriples(b); got != c.iso {
				t.Errorf("canonical forms equal = %v, want %v:\n%s\n%s", got, c.iso, CanonicalNTriples(a), CanonicalNTriples(b))
			}
		})
	}
}

func TestIsomorphicDatasets(t *testing.T) {
	parse := func(src string) *Dataset {
		d, err := ParseDataset(strings.NewReader(src), NQuads, ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	a := parse("_:x <http://p> <http://o> _:g .\n_:x <http://q> <http://o> <http://g2> .\n")
	b := parse("_:y <http://p> <http://o> _:h .\n_:y <http://q> <http://o> <http://g2> .\n")
	c := parse("_:y <http://p> <http://o> _:h .\n_:z <http://q> <http://o> <http://g2> .\n")
	if !IsomorphicDatasets(a, b) {
		t.Error("renamed blank nodes and graph names: not isomorphic")
	}
	if IsomorphicDatasets(a, c) {
		t.Error("a blank node shared by two graphs matched two separate nodes")
	}
	if CanonicalNQuads(a) != CanonicalNQuads(b) || CanonicalNQuads(a) == CanonicalNQuads(c) {
		t.Errorf("canonical N-Quads:\n%s\n%s\n%s", CanonicalNQuads(a), CanonicalNQuads(b), CanonicalNQuads(c))
	}
}

// TestIsomorphicShuffled builds a graph with many blank nodes, relabels
// them randomly, and checks both directions of the answer.
func TestIsomorphicShuffled(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n = 150
	var a, b strings.Builder
	perm := rng.Perm(n)
	for i := range n {
		j := (i*7 + 3) % n
		fmt.Fprintf(&a, "_:n%d <http://p> _:n%d .\n_:n%d <http://v> \"%d\" .\n", i, j, i, i%5)
		fmt.Fprintf(&b, "_:m%d <http://p> _:m%d .\n_:m%d <http://v> \"%d\" .\n", perm[i], perm[j], perm[i], i%5)
	}
	ga, gb := nt(t, a.String()), nt(t, b.String())
	if !Isomorphic(ga, gb) {
		t.Fatal("randomly relabelled graph not isomorphic")
	}
	if CanonicalNTriples(ga) != CanonicalNTriples(gb) {
		t.Error("canonical forms of relabelled graphs differ")
	}
	// Move one edge: no longer isomorphic.
	var tr Triple
	for x := range gb.Match(Term{}, IRI("http://p"), Term{}) {
		tr = x
		break
	}
	gb.Remove(tr)
	gb.Add(Triple{tr.S, tr.P, tr.S})
	if Isomorphic(ga, gb) {
		t.Error("graph with a moved edge reported isomorphic")
	}
}

func TestCanonicalNTriplesFormat(t *testing.T) {
	g := nt(t, "<http://b> <http://p> _:z .\n<http://a> <http://p> \"x\\n\"@en .\n")
	want := "<http://a> <http://p> \"x\\n\"@en .\n<http://b> <http://p> _:c0 .\n"
	if got := CanonicalNTriples(g); got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}
