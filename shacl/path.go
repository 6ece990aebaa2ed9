package shacl

import (
	"fmt"
	"strings"

	"github.com/regelkit/regelkit/sparql/graph"
)

// PathKind says which kind of SHACL property path a Path is.
type PathKind uint8

const (
	// PredicatePath is a single IRI.
	PredicatePath PathKind = iota
	// SequencePath follows its elements one after the other (an RDF list).
	SequencePath
	// AlternativePath is the union of its elements (sh:alternativePath).
	AlternativePath
	// InversePath follows its one element backwards (sh:inversePath).
	InversePath
	// ZeroOrMorePath is sh:zeroOrMorePath.
	ZeroOrMorePath
	// OneOrMorePath is sh:oneOrMorePath.
	OneOrMorePath
	// ZeroOrOnePath is sh:zeroOrOnePath.
	ZeroOrOnePath
)

// Path is a SHACL property path (SHACL §2.3.1).
type Path struct {
	Kind PathKind
	// IRI is the predicate of a PredicatePath.
	IRI graph.Term
	// Elems are the members of a sequence or alternative, or the single
	// operand of an inverse, zero-or-more, one-or-more or zero-or-one path.
	Elems []*Path
}

// String writes the path in SPARQL property-path syntax with full IRIs,
// e.g. "<http://example.org/p>/^<http://example.org/q>".
func (p *Path) String() string {
	var b strings.Builder
	p.format(&b, nil, false)
	return b.String()
}

// Format writes the path in SPARQL property-path syntax, abbreviating IRIs
// with the given prefixes, e.g. "dct:title" or "(foaf:knows/foaf:name)*".
// An IRI no prefix fits is written in full: in angle brackets inside a
// complex path, bare when the whole path is that one IRI.
func (p *Path) Format(prefixes *graph.Prefixes) string {
	if p.Kind == PredicatePath {
		if c, ok := prefixes.Compact(p.IRI.Value); ok {
			return c
		}
		return p.IRI.Value
	}
	var b strings.Builder
	p.format(&b, prefixes, false)
	return b.String()
}

func (p *Path) format(b *strings.Builder, prefixes *graph.Prefixes, nested bool) {
	switch p.Kind {
	case PredicatePath:
		if c, ok := prefixes.Compact(p.IRI.Value); ok {
			b.WriteString(c)
		} else {
			b.WriteString("<" + p.IRI.Value + ">")
		}
	case SequencePath, AlternativePath:
		sep := "/"
		if p.Kind == AlternativePath {
			sep = "|"
		}
		if nested {
			b.WriteByte('(')
		}
		for i, e := range p.Elems {
			if i > 0 {
				b.WriteString(sep)
			}
			e.format(b, prefixes, true)
		}
		if nested {
			b.WriteByte(')')
		}
	case InversePath:
		b.WriteByte('^')
		p.Elems[0].format(b, prefixes, true)
	default:
		p.Elems[0].format(b, prefixes, true)
		b.WriteByte("*+?"[p.Kind-ZeroOrMorePath])
	}
}

// Bounds of one property path in the shapes graph. A path is a tree built
// from blank nodes, and a blank node may be shared: without a bound on its
// size, 64 levels of sh:alternativePath ( _:x _:x ) would unfold into 2^64
// nodes.
const (
	maxPathDepth = 64
	maxPathNodes = 10_000
)

// parsePath reads the path whose node is n in the shapes graph (SHACL
// §2.3.1). A node that is an RDF list is a sequence, whatever else it says.
func parsePath(g *graph.Graph, n graph.Term) (*Path, error) {
	pp := pathParser{g: g}
	return pp.path(n, 0)
}

type pathParser struct {
	g     *graph.Graph
	nodes int // path nodes built so far
}

func (pp *pathParser) path(n graph.Term, depth int) (*Path, error) {
	g := pp.g
	if depth > maxPathDepth {
		return nil, fmt.Errorf("path %v nests deeper than %d levels (or is cyclic)", n, maxPathDepth)
	}
	if pp.nodes++; pp.nodes > maxPathNodes {
		return nil, fmt.Errorf("path %v has more than %d elements", n, maxPathNodes)
	}
	switch n.Kind {
	case graph.KindIRI:
		if n == rdfNil {
			return nil, fmt.Errorf("rdf:nil is not a path")
		}
		return &Path{Kind: PredicatePath, IRI: n}, nil
	case graph.KindBlank:
	default:
		return nil, fmt.Errorf("path %v is a literal", n)
	}
	if _, ok := g.Object(n, rdfFirst); ok {
		members, ok := g.List(n)
		if !ok {
			return nil, fmt.Errorf("sequence path %v is not a well-formed RDF list", n)
		}
		if len(members) < 2 {
			return nil, fmt.Errorf("sequence path %v has %d members; it needs at least two", n, len(members))
		}
		return pp.paths(SequencePath, members, depth)
	}
	var found *Path
	for _, k := range []struct {
		pred graph.Term
		kind PathKind
	}{
		{shInversePath, InversePath}, {shAlternativePath, AlternativePath},
		{shZeroOrMorePath, ZeroOrMorePath}, {shOneOrMorePath, OneOrMorePath}, {shZeroOrOnePath, ZeroOrOnePath},
	} {
		objs := objects(g, n, k.pred)
		if len(objs) == 0 {
			continue
		}
		if found != nil || len(objs) > 1 {
			return nil, fmt.Errorf("path %v has more than one path operator", n)
		}
		if k.kind == AlternativePath {
			members, ok := g.List(objs[0])
			if !ok {
				return nil, fmt.Errorf("sh:alternativePath of %v is not a well-formed RDF list", n)
			}
			if len(members) < 2 {
				return nil, fmt.Errorf("sh:alternativePath of %v has %d members; it needs at least two", n, len(members))
			}
			p, err := pp.paths(AlternativePath, members, depth)
			if err != nil {
				return nil, err
			}
			found = p
			continue
		}
		e, err := pp.path(objs[0], depth+1)
		if err != nil {
			return nil, err
		}
		found = &Path{Kind: k.kind, Elems: []*Path{e}}
	}
	if found == nil {
		return nil, fmt.Errorf("blank node %v is not a property path", n)
	}
	return found, nil
}

func (pp *pathParser) paths(kind PathKind, members []graph.Term, depth int) (*Path, error) {
	if len(members) > maxPathNodes {
		return nil, fmt.Errorf("path list has %d members, more than %d", len(members), maxPathNodes)
	}
	p := &Path{Kind: kind, Elems: make([]*Path, len(members))}
	for i, m := range members {
		e, err := pp.path(m, depth+1)
		if err != nil {
			return nil, err
		}
		p.Elems[i] = e
	}
	return p, nil
}

// writePath adds the RDF form of p to g (fresh blank nodes from newBlank)
// and returns the node that stands for it.
func writePath(g *graph.Graph, p *Path, newBlank func() graph.Term) graph.Term {
	switch p.Kind {
	case PredicatePath:
		return p.IRI
	case SequencePath:
		return writeList(g, p.Elems, newBlank)
	}
	n := newBlank()
	switch p.Kind {
	case AlternativePath:
		g.Add(graph.Triple{S: n, P: shAlternativePath, O: writeList(g, p.Elems, newBlank)})
	case InversePath:
		g.Add(graph.Triple{S: n, P: shInversePath, O: writePath(g, p.Elems[0], newBlank)})
	case ZeroOrMorePath:
		g.Add(graph.Triple{S: n, P: shZeroOrMorePath, O: writePath(g, p.Elems[0], newBlank)})
	case OneOrMorePath:
		g.Add(graph.Triple{S: n, P: shOneOrMorePath, O: writePath(g, p.Elems[0], newBlank)})
	case ZeroOrOnePath:
		g.Add(graph.Triple{S: n, P: shZeroOrOnePath, O: writePath(g, p.Elems[0], newBlank)})
	}
	return n
}

func writeList(g *graph.Graph, elems []*Path, newBlank func() graph.Term) graph.Term {
	head := rdfNil
	for i := len(elems) - 1; i >= 0; i-- {
		n := newBlank()
		g.Add(graph.Triple{S: n, P: rdfFirst, O: writePath(g, elems[i], newBlank)})
		g.Add(graph.Triple{S: n, P: graph.IRI(graph.RDFRest), O: head})
		head = n
	}
	return head
}

// objects collects the objects of s and p.
func objects(g *graph.Graph, s, p graph.Term) []graph.Term {
	var out []graph.Term
	for o := range g.Objects(s, p) {
		out = append(out, o)
	}
	return out
}

// termSet is an insertion-ordered set of terms.
type termSet struct {
	list []graph.Term
	seen map[graph.Term]struct{}
}

func (s *termSet) add(t graph.Term) bool {
	if s.seen == nil {
		s.seen = make(map[graph.Term]struct{})
	}
	if _, ok := s.seen[t]; ok {
		return false
	}
	s.seen[t] = struct{}{}
	s.list = append(s.list, t)
	return true
}

// Values returns the distinct nodes reached from focus by p in g (the value
// nodes of a property shape with this path), in index order for a single
// predicate and in order of discovery otherwise.
func (p *Path) Values(g *graph.Graph, focus graph.Term) []graph.Term {
	return pathValues(g, p, focus, nil)
}

// pathValues appends to dst the distinct nodes reached from focus by p in
// the data graph.
func pathValues(g *graph.Graph, p *Path, focus graph.Term, dst []graph.Term) []graph.Term {
	switch {
	case p.Kind == PredicatePath:
		if focus.Kind == graph.KindLiteral {
			return dst // literals have no outgoing triples
		}
		for o := range g.Objects(focus, p.IRI) {
			dst = append(dst, o)
		}
		return dst
	case p.Kind == InversePath && p.Elems[0].Kind == PredicatePath:
		for s := range g.Subjects(p.Elems[0].IRI, focus) {
			dst = append(dst, s)
		}
		return dst
	}
	var out termSet
	evalPath(g, p, false, []graph.Term{focus}, &out)
	return append(dst, out.list...)
}

// evalPath adds to out every node reached from one of from by p (followed
// backwards when inverse is set).
func evalPath(g *graph.Graph, p *Path, inverse bool, from []graph.Term, out *termSet) {
	switch p.Kind {
	case PredicatePath:
		for _, n := range from {
			if inverse {
				for s := range g.Subjects(p.IRI, n) {
					out.add(s)
				}
			} else if n.Kind != graph.KindLiteral {
				for o := range g.Objects(n, p.IRI) {
					out.add(o)
				}
			}
		}
	case InversePath:
		evalPath(g, p.Elems[0], !inverse, from, out)
	case SequencePath:
		cur := from
		for i := range p.Elems {
			e := p.Elems[i]
			if inverse {
				e = p.Elems[len(p.Elems)-1-i]
			}
			var next termSet
			evalPath(g, e, inverse, cur, &next)
			cur = next.list
			if len(cur) == 0 {
				return
			}
		}
		for _, n := range cur {
			out.add(n)
		}
	case AlternativePath:
		for _, e := range p.Elems {
			evalPath(g, e, inverse, from, out)
		}
	case ZeroOrOnePath:
		for _, n := range from {
			out.add(n)
		}
		evalPath(g, p.Elems[0], inverse, from, out)
	case ZeroOrMorePath, OneOrMorePath:
		// Breadth-first closure; visited holds every node reached by one
		// or more steps.
		var visited termSet
		frontier := from
		for len(frontier) > 0 {
			var step termSet
			evalPath(g, p.Elems[0], inverse, frontier, &step)
			frontier = frontier[:0:0]
			for _, n := range step.list {
				if visited.add(n) {
					frontier = append(frontier, n)
				}
			}
		}
		if p.Kind == ZeroOrMorePath {
			for _, n := range from {
				out.add(n)
			}
		}
		for _, n := range visited.list {
			out.add(n)
		}
	}
}
