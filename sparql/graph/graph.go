package graph

import (
	"iter"
)

// Graph is a set of RDF triples. Terms are dictionary-encoded and the
// triples are kept in three B+tree indexes (SPO, POS, OSP), so that every
// triple pattern is a range lookup.
//
// The zero Graph is empty and ready to use. A Graph is safe for concurrent
// reads; Add and Remove need exclusive access. The graph may be modified
// while iterating over it (the iteration may or may not see the change).
// Terms stay in the dictionary after their last triple is removed, so a
// graph that churns through many distinct terms keeps growing; Clone
// compacts.
type Graph struct {
	dict          dictionary
	spo, pos, osp index

	// the last subject and predicate added, with their ids: consecutive
	// triples usually share them
	lastS, lastP     Term
	lastSID, lastPID uint32
}

// NewGraph returns an empty graph.
func NewGraph() *Graph { return &Graph{} }

// NewGraphOf returns a graph holding the given triples.
func NewGraphOf(triples ...Triple) *Graph {
	g := NewGraph()
	for _, t := range triples {
		g.Add(t)
	}
	return g
}

// Len returns the number of triples.
func (g *Graph) Len() int { return g.spo.n }

// Add adds t and reports whether it was new. A triple with a zero term is
// not added.
func (g *Graph) Add(t Triple) bool {
	if t.S.Kind == KindNone || t.P.Kind == KindNone || t.O.Kind == KindNone {
		return false
	}
	s, p, o := g.intern3(t)
	if !g.spo.insert(key{s, p, o}) {
		return false
	}
	g.pos.insert(key{p, o, s})
	g.osp.insert(key{o, s, p})
	return true
}

// intern3 returns the ids of t's terms, adding them to the dictionary.
func (g *Graph) intern3(t Triple) (s, p, o uint32) {
	if t.S != g.lastS {
		g.lastS, g.lastSID = t.S, g.dict.intern(t.S)
	}
	if t.P != g.lastP {
		g.lastP, g.lastPID = t.P, g.dict.intern(t.P)
	}
	return g.lastSID, g.lastPID, g.dict.intern(t.O)
}

// AddAll adds every triple of seq and returns how many were new. A batch
// as large as the graph is sorted and loaded in one go, which is much
// faster than adding the triples one by one.
func (g *Graph) AddAll(seq iter.Seq[Triple]) int {
	before := g.Len()
	b := bulkLoader{g: g}
	for t := range seq {
		b.add(t)
	}
	b.finish()
	return g.Len() - before
}

// Remove deletes t and reports whether it was present.
func (g *Graph) Remove(t Triple) bool {
	s, p, o, ok := g.ids(t)
	if !ok || !g.spo.remove(key{s, p, o}) {
		return false
	}
	g.pos.remove(key{p, o, s})
	g.osp.remove(key{o, s, p})
	return true
}

// RemoveMatches deletes every triple matching the pattern (zero terms are
// wildcards) and returns how many were removed.
func (g *Graph) RemoveMatches(s, p, o Term) int {
	var del []Triple
	for t := range g.Match(s, p, o) {
		del = append(del, t)
	}
	for _, t := range del {
		g.Remove(t)
	}
	return len(del)
}

// Has reports whether t is in the graph.
func (g *Graph) Has(t Triple) bool {
	s, p, o, ok := g.ids(t)
	return ok && g.spo.has(key{s, p, o})
}

func (g *Graph) ids(t Triple) (s, p, o uint32, ok bool) {
	if s, ok = g.dict.lookup(t.S); !ok {
		return
	}
	if p, ok = g.dict.lookup(t.P); !ok {
		return
	}
	o, ok = g.dict.lookup(t.O)
	return
}

// Triples yields every triple, grouped by subject.
func (g *Graph) Triples() iter.Seq[Triple] { return g.Match(Term{}, Term{}, Term{}) }

// Match yields the triples matching the pattern; a zero Term is a wildcard.
func (g *Graph) Match(s, p, o Term) iter.Seq[Triple] {
	return func(yield func(Triple) bool) {
		g.match(s, p, o, func(si, pi, oi uint32) bool {
			return yield(Triple{g.dict.term(si), g.dict.term(pi), g.dict.term(oi)})
		})
	}
}

// match resolves the bound terms to ids and scans the index whose key
// prefix covers them.
func (g *Graph) match(s, p, o Term, yield func(s, p, o uint32) bool) {
	var ids [3]uint32
	var bound [3]bool
	for i, t := range [3]Term{s, p, o} {
		if t.Kind == KindNone {
			continue
		}
		id, ok := g.dict.lookup(t)
		if !ok {
			return
		}
		ids[i], bound[i] = id, true
	}
	switch {
	case bound[0] && bound[1] && bound[2]:
		if g.spo.has(key(ids)) {
			yield(ids[0], ids[1], ids[2])
		}
	case bound[0] && bound[1]:
		g.spo.scan(key{ids[0], ids[1]}, 2, func(k key) bool { return yield(k[0], k[1], k[2]) })
	case bound[0] && bound[2]:
		g.osp.scan(key{ids[2], ids[0]}, 2, func(k key) bool { return yield(k[1], k[2], k[0]) })
	case bound[0]:
		g.spo.scan(key{ids[0]}, 1, func(k key) bool { return yield(k[0], k[1], k[2]) })
	case bound[1] && bound[2]:
		g.pos.scan(key{ids[1], ids[2]}, 2, func(k key) bool { return yield(k[2], k[0], k[1]) })
	case bound[1]:
		g.pos.scan(key{ids[1]}, 1, func(k key) bool { return yield(k[2], k[0], k[1]) })
	case bound[2]:
		g.osp.scan(key{ids[2]}, 1, func(k key) bool { return yield(k[1], k[2], k[0]) })
	default:
		g.spo.scan(key{}, 0, func(k key) bool { return yield(k[0], k[1], k[2]) })
	}
}

// Count returns the number of triples matching the pattern.
func (g *Graph) Count(s, p, o Term) int {
	if s.Kind == KindNone && p.Kind == KindNone && o.Kind == KindNone {
		return g.Len()
	}
	n := 0
	g.match(s, p, o, func(_, _, _ uint32) bool { n++; return true })
	return n
}

// Objects yields the object of every triple with subject s and predicate p
// (either may be zero, a wildcard). With both given each object comes once;
// with a wildcard an object comes once per matching triple, so it may
// repeat.
func (g *Graph) Objects(s, p Term) iter.Seq[Term] {
	return func(yield func(Term) bool) {
		g.match(s, p, Term{}, func(_, _, o uint32) bool { return yield(g.dict.term(o)) })
	}
}

// Object returns one object of subject s and predicate p: the first in
// index order, which is stable for a graph built the same way.
func (g *Graph) Object(s, p Term) (Term, bool) {
	for o := range g.Objects(s, p) {
		return o, true
	}
	return Term{}, false
}

// Subjects yields the subject of every triple with predicate p and object o
// (either may be zero, a wildcard). With both given each subject comes once;
// with a wildcard a subject comes once per matching triple. AllSubjects
// yields each subject of the graph once.
func (g *Graph) Subjects(p, o Term) iter.Seq[Term] {
	return func(yield func(Term) bool) {
		g.match(Term{}, p, o, func(s, _, _ uint32) bool { return yield(g.dict.term(s)) })
	}
}

// Subject returns one subject of predicate p and object o.
func (g *Graph) Subject(p, o Term) (Term, bool) {
	for s := range g.Subjects(p, o) {
		return s, true
	}
	return Term{}, false
}

// Predicates yields the predicate of every triple from s to o (either may
// be zero, a wildcard; then a predicate may repeat).
func (g *Graph) Predicates(s, o Term) iter.Seq[Term] {
	return func(yield func(Term) bool) {
		g.match(s, Term{}, o, func(_, p, _ uint32) bool { return yield(g.dict.term(p)) })
	}
}

// AllSubjects yields every distinct subject once.
func (g *Graph) AllSubjects() iter.Seq[Term] {
	return func(yield func(Term) bool) {
		last, first := uint32(0), true
		g.spo.scan(key{}, 0, func(k key) bool {
			if first || k[0] != last {
				first, last = false, k[0]
				return yield(g.dict.term(k[0]))
			}
			return true
		})
	}
}

// AllObjects yields every distinct object once.
func (g *Graph) AllObjects() iter.Seq[Term] {
	return func(yield func(Term) bool) {
		last, first := uint32(0), true
		g.osp.scan(key{}, 0, func(k key) bool {
			if first || k[0] != last {
				first, last = false, k[0]
				return yield(g.dict.term(k[0]))
			}
			return true
		})
	}
}

// List returns the members of the RDF collection starting at head
// (rdf:first/rdf:rest chain ending in rdf:nil). It reports false when the
// chain is malformed: a node without exactly one rdf:first and one
// rdf:rest, or a cycle.
func (g *Graph) List(head Term) ([]Term, bool) {
	var out []Term
	seen := map[Term]bool{}
	first, rest := IRI(RDFFirst), IRI(RDFRest)
	for n := head; n != IRI(RDFNil); {
		if seen[n] || n.Kind == KindLiteral || n.Kind == KindNone {
			return nil, false
		}
		seen[n] = true
		var f, r Term
		nf, nr := 0, 0
		for o := range g.Objects(n, first) {
			f = o
			nf++
		}
		for o := range g.Objects(n, rest) {
			r = o
			nr++
		}
		if nf != 1 || nr != 1 {
			return nil, false
		}
		out = append(out, f)
		n = r
	}
	return out, true
}

// Clone returns an independent copy of g, with a freshly built dictionary
// holding only the terms still in use.
func (g *Graph) Clone() *Graph {
	c := NewGraph()
	for t := range g.Triples() {
		c.Add(t)
	}
	return c
}

// Equal reports whether a and b hold exactly the same triples, blank node
// labels included. Use Isomorphic to compare up to blank node renaming.
func (g *Graph) Equal(other *Graph) bool {
	if g.Len() != other.Len() {
		return false
	}
	for t := range g.Triples() {
		if !other.Has(t) {
			return false
		}
	}
	return true
}
