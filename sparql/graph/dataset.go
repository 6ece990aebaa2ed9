package graph

import (
	"cmp"
	"iter"
	"slices"
)

// Dataset is an RDF dataset: a default graph plus graphs named by IRIs or
// blank nodes. Create one with NewDataset. Like Graph, it is safe for
// concurrent reads only.
type Dataset struct {
	def   *Graph
	named map[Term]*Graph
}

// NewDataset returns an empty dataset.
func NewDataset() *Dataset {
	return &Dataset{def: NewGraph(), named: map[Term]*Graph{}}
}

// Default returns the default graph.
func (d *Dataset) Default() *Graph { return d.def }

// Named returns the graph with the given name, or nil when there is none.
// The zero name gives the default graph.
func (d *Dataset) Named(name Term) *Graph {
	if name.Kind == KindNone {
		return d.def
	}
	return d.named[name]
}

// Graph returns the graph with the given name, creating an empty one when
// absent. The zero name gives the default graph.
func (d *Dataset) Graph(name Term) *Graph {
	if name.Kind == KindNone {
		return d.def
	}
	g := d.named[name]
	if g == nil {
		g = NewGraph()
		d.named[name] = g
	}
	return g
}

// SetGraph replaces (or with g == nil, drops) the graph with the given name.
// The zero name replaces the default graph (nil empties it).
func (d *Dataset) SetGraph(name Term, g *Graph) {
	switch {
	case name.Kind == KindNone && g == nil:
		d.def = NewGraph()
	case name.Kind == KindNone:
		d.def = g
	case g == nil:
		delete(d.named, name)
	default:
		d.named[name] = g
	}
}

// Names returns the names of the named graphs (including empty ones),
// sorted by CompareTerms: IRIs before blank nodes, then by value.
func (d *Dataset) Names() []Term {
	names := make([]Term, 0, len(d.named))
	for n := range d.named {
		names = append(names, n)
	}
	slices.SortFunc(names, CompareTerms)
	return names
}

// Add adds q to the graph q.G (created when absent) and reports whether it
// was new.
func (d *Dataset) Add(q Quad) bool {
	if q.S.Kind == KindNone || q.P.Kind == KindNone || q.O.Kind == KindNone {
		return false
	}
	return d.Graph(q.G).Add(q.Triple())
}

// Remove deletes q and reports whether it was present. An emptied named
// graph stays in the dataset.
func (d *Dataset) Remove(q Quad) bool {
	g := d.Named(q.G)
	return g != nil && g.Remove(q.Triple())
}

// Has reports whether q is in the dataset.
func (d *Dataset) Has(q Quad) bool {
	g := d.Named(q.G)
	return g != nil && g.Has(q.Triple())
}

// Len returns the number of quads over all graphs.
func (d *Dataset) Len() int {
	n := d.def.Len()
	for _, g := range d.named {
		n += g.Len()
	}
	return n
}

// Quads yields every quad: the default graph first, then the named graphs in
// Names order.
func (d *Dataset) Quads() iter.Seq[Quad] {
	return func(yield func(Quad) bool) {
		for t := range d.def.Triples() {
			if !yield(Quad{t.S, t.P, t.O, Term{}}) {
				return
			}
		}
		for _, n := range d.Names() {
			for t := range d.named[n].Triples() {
				if !yield(Quad{t.S, t.P, t.O, n}) {
					return
				}
			}
		}
	}
}

// CompareTerms orders terms deterministically: by kind (IRI, blank node,
// literal), then value, datatype and language tag. It returns -1, 0 or +1.
func CompareTerms(a, b Term) int {
	if c := cmp.Compare(a.Kind, b.Kind); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Value, b.Value); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Datatype, b.Datatype); c != 0 {
		return c
	}
	return cmp.Compare(a.Lang, b.Lang)
}
