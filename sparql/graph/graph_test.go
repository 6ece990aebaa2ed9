package graph

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func ex(s string) Term { return IRI("http://example.org/" + s) }

// TestGraphAgainstModel applies random adds and removes to a Graph and to a
// plain map, and checks every pattern lookup against the map.
func TestGraphAgainstModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	terms := []Term{ex("a"), ex("b"), ex("c"), Blank("x"), String("a"), LangLiteral("a", "NL"),
		Literal("1", XSDInteger), Literal("a", XSDDate), ex("p"), ex("q")}
	preds := []Term{ex("p"), ex("q"), ex("r"), IRI(RDFType)}
	g := NewGraph()
	model := map[Triple]bool{}
	for i := range 20000 {
		tr := Triple{terms[rng.IntN(8)], preds[rng.IntN(len(preds))], terms[rng.IntN(len(terms))]}
		if tr.S.Kind == KindLiteral {
			tr.S = ex("lit-subject")
		}
		if rng.IntN(3) == 0 {
			if got, want := g.Remove(tr), model[tr]; got != want {
				t.Fatalf("op %d: Remove(%v) = %v, want %v", i, tr, got, want)
			}
			delete(model, tr)
		} else {
			if got, want := g.Add(tr), !model[tr]; got != want {
				t.Fatalf("op %d: Add(%v) = %v, want %v", i, tr, got, want)
			}
			model[tr] = true
		}
		if g.Len() != len(model) {
			t.Fatalf("op %d: Len = %d, want %d", i, g.Len(), len(model))
		}
	}
	patterns := append([]Term{{}}, terms...)
	ppatterns := append([]Term{{}}, preds...)
	for _, s := range patterns {
		for _, p := range ppatterns {
			for _, o := range patterns {
				var want []string
				for tr := range model {
					if (s.IsZero() || tr.S == s) && (p.IsZero() || tr.P == p) && (o.IsZero() || tr.O == o) {
						want = append(want, tr.String())
					}
				}
				var got []string
				for tr := range g.Match(s, p, o) {
					got = append(got, tr.String())
				}
				slices.Sort(want)
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Fatalf("Match(%v, %v, %v) = %v, want %v", s, p, o, got, want)
				}
				if n := g.Count(s, p, o); n != len(want) {
					t.Fatalf("Count(%v, %v, %v) = %d, want %d", s, p, o, n, len(want))
				}
			}
		}
	}
}

// TestGraphLarge exercises leaf and inner node splits, lookups over many
// leaves and removal of whole leaves.
func TestGraphLarge(t *testing.T) {
	g := NewGraph()
	const n = 30000
	rng := rand.New(rand.NewPCG(3, 4))
	order := rng.Perm(n)
	for _, i := range order {
		g.Add(Triple{ex(fmt.Sprint("s", i%997)), ex(fmt.Sprint("p", i%7)), Literal(fmt.Sprint(i), XSDInteger)})
	}
	if g.Len() != n {
		t.Fatalf("Len = %d, want %d", g.Len(), n)
	}
	for i := range 7 {
		if c := g.Count(Term{}, ex(fmt.Sprint("p", i)), Term{}); c != n/7+boolInt(i < n%7) {
			t.Fatalf("p%d: %d triples", i, c)
		}
	}
	// Remove the even numbers while iterating over everything.
	removed := 0
	for tr := range g.Triples() {
		var v int
		fmt.Sscan(tr.O.Value, &v)
		if v%2 == 0 {
			if !g.Remove(tr) {
				t.Fatalf("Remove(%v) = false during iteration", tr)
			}
			removed++
		}
	}
	if removed != n/2 || g.Len() != n/2 {
		t.Fatalf("removed %d, Len %d; want %d each", removed, g.Len(), n/2)
	}
	seen := 0
	for tr := range g.Match(Term{}, Term{}, Term{}) {
		var v int
		fmt.Sscan(tr.O.Value, &v)
		if v%2 == 0 {
			t.Fatalf("%v still present", tr)
		}
		seen++
	}
	if seen != n/2 {
		t.Fatalf("iterated %d triples, want %d", seen, n/2)
	}
	for tr := range g.Triples() {
		g.Remove(tr)
	}
	if g.Len() != 0 || g.Count(Term{}, Term{}, Term{}) != 0 {
		t.Fatalf("graph not empty after removing everything: %d", g.Len())
	}
	if !g.Add(Triple{ex("a"), ex("b"), ex("c")}) || g.Len() != 1 {
		t.Fatal("graph unusable after being emptied")
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestGraphHelpers(t *testing.T) {
	g, err := ParseGraph(strings.NewReader(`
		@prefix ex: <http://example.org/> .
		ex:s ex:p ex:o1, ex:o2 ; ex:list (ex:a "b" 3) ; ex:bad _:b .
		_:b <http://www.w3.org/1999/02/22-rdf-syntax-ns#first> ex:a .
		ex:t ex:p ex:o1 .
	`), Turtle, ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	objs := slices.Collect(g.Objects(ex("s"), ex("p")))
	if len(objs) != 2 || !slices.Contains(objs, ex("o1")) || !slices.Contains(objs, ex("o2")) {
		t.Errorf("Objects = %v", objs)
	}
	subs := slices.Collect(g.Subjects(ex("p"), ex("o1")))
	if len(subs) != 2 || !slices.Contains(subs, ex("s")) || !slices.Contains(subs, ex("t")) {
		t.Errorf("Subjects = %v", subs)
	}
	head, _ := g.Object(ex("s"), ex("list"))
	list, ok := g.List(head)
	if want := []Term{ex("a"), String("b"), Literal("3", XSDInteger)}; !ok || !slices.Equal(list, want) {
		t.Errorf("List = %v, %v; want %v", list, ok, want)
	}
	bad, _ := g.Object(ex("s"), ex("bad"))
	if _, ok := g.List(bad); ok {
		t.Error("List of a node without rdf:rest reported ok")
	}
	if n := len(slices.Collect(g.AllSubjects())); n != 6 { // s, t, _:b and the 3 list nodes
		t.Errorf("AllSubjects: %d, want 6", n)
	}
	c := g.Clone()
	if !c.Equal(g) || c.Len() != g.Len() {
		t.Error("Clone differs")
	}
	c.Remove(Triple{ex("t"), ex("p"), ex("o1")})
	if c.Equal(g) || !g.Has(Triple{ex("t"), ex("p"), ex("o1")}) {
		t.Error("Clone shares state with the original")
	}
}

func TestDataset(t *testing.T) {
	d := NewDataset()
	q := Quad{ex("s"), ex("p"), ex("o"), ex("g2")}
	if !d.Add(q) || d.Add(q) {
		t.Fatal("Add not reporting novelty")
	}
	d.Add(Quad{ex("s"), ex("p"), ex("o"), Term{}})
	d.Add(Quad{ex("s"), ex("p"), ex("o"), Blank("g")})
	d.Add(Quad{ex("s"), ex("p"), ex("o2"), ex("g1")})
	if d.Named(ex("nope")) != nil {
		t.Error("Named of an absent graph is not nil")
	}
	if d.Named(Term{}) != d.Default() || d.Graph(Term{}) != d.Default() {
		t.Error("zero name is not the default graph")
	}
	want := []Term{ex("g1"), ex("g2"), Blank("g")}
	if got := d.Names(); !slices.Equal(got, want) {
		t.Errorf("Names = %v, want %v", got, want)
	}
	var lines []string
	for q := range d.Quads() {
		lines = append(lines, q.String())
	}
	wantLines := []string{
		"<http://example.org/s> <http://example.org/p> <http://example.org/o> .",
		"<http://example.org/s> <http://example.org/p> <http://example.org/o2> <http://example.org/g1> .",
		"<http://example.org/s> <http://example.org/p> <http://example.org/o> <http://example.org/g2> .",
		"<http://example.org/s> <http://example.org/p> <http://example.org/o> _:g .",
	}
	if !slices.Equal(lines, wantLines) {
		t.Errorf("Quads =\n%v\nwant\n%v", lines, wantLines)
	}
	if d.Len() != 4 || !d.Has(q) || !d.Remove(q) || d.Has(q) || d.Len() != 3 {
		t.Error("Len/Has/Remove inconsistent")
	}
}

func TestPrefixes(t *testing.T) {
	p := NewPrefixes("ex", "http://example.org/", "exa", "http://example.org/a/", "dct", "http://purl.org/dc/terms/")
	p.Set("ex", "http://example.org/") // redeclaring keeps the place
	var order []string
	for n := range p.All() {
		order = append(order, n)
	}
	if !slices.Equal(order, []string{"ex", "exa", "dct"}) {
		t.Errorf("order = %v", order)
	}
	if iri, ok := p.Expand("dct:title"); !ok || iri != "http://purl.org/dc/terms/title" {
		t.Errorf("Expand = %q, %v", iri, ok)
	}
	if _, ok := p.Expand("foaf:name"); ok {
		t.Error("Expand with undeclared prefix succeeded")
	}
	for _, c := range []struct{ iri, want string }{
		{"http://example.org/a/b", "exa:b"},    // longest namespace
		{"http://example.org/a/b/c", ""},       // '/' is not allowed in any local part
		{"http://example.org/x.y", "ex:x.y"},   // inner dot fine
		{"http://example.org/x.", ""},          // trailing dot not allowed
		{"http://example.org/", "ex:"},         // empty local
		{"http://example.org/%20x", "ex:%20x"}, // percent escape stays
		{"http://example.org/%2", ""},          // broken percent escape
		{"http://example.org/-x", ""},          // cannot start with '-'
		{"http://example.org/7x", "ex:7x"},     // may start with digit
		{"http://other.org/x", ""},             // no namespace
		{"http://purl.org/dc/terms/title", "dct:title"},
	} {
		got, ok := p.Compact(c.iri)
		if c.want == "" {
			if ok {
				t.Errorf("Compact(%q) = %q, want no compaction", c.iri, got)
			}
			continue
		}
		if !ok || got != c.want {
			t.Errorf("Compact(%q) = %q, %v; want %q", c.iri, got, ok, c.want)
		}
	}
}

func TestKnakkBridge(t *testing.T) {
	for _, term := range []Term{ex("a"), Blank("x1"), String("s"), LangLiteral("s", "nl-BE"), Literal("3", XSDInteger)} {
		k, err := ToKnakk(term)
		if err != nil {
			t.Fatalf("ToKnakk(%v): %v", term, err)
		}
		if back := FromKnakk(k); back != term {
			t.Errorf("ToKnakk/FromKnakk(%v) = %v", term, back)
		}
	}
	if _, err := ToKnakk(Term{}); err == nil {
		t.Error("ToKnakk of the zero Term succeeded")
	}
}

// TestGraphConcurrentReads reads one graph from several goroutines (run
// with -race to check that reads do not write).
func TestGraphConcurrentReads(t *testing.T) {
	g := NewGraph()
	for i := range 2000 {
		g.Add(Triple{ex(fmt.Sprint("s", i%50)), ex(fmt.Sprint("p", i%3)), Literal(fmt.Sprint(i), XSDInteger)})
	}
	done := make(chan int)
	for w := range 4 {
		go func() {
			n := 0
			for i := range 200 {
				n += g.Count(ex(fmt.Sprint("s", (i+w)%50)), Term{}, Term{})
				if g.Has(Triple{ex("s1"), ex("p1"), Literal("1", XSDInteger)}) {
					n++
				}
				for range g.Match(Term{}, ex("p2"), Term{}) {
					n++
				}
			}
			done <- n
		}()
	}
	for range 4 {
		if n := <-done; n == 0 {
			t.Error("a reader saw nothing")
		}
	}
}
