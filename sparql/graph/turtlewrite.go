package graph

import (
	"bufio"
	"io"
	"slices"
	"strings"
)

// maxInlineDepth bounds how deeply blank nodes are nested inline; deeper
// nodes are written with a label (the parser's own limit is far higher).
const maxInlineDepth = 64

// ttlWriter writes Turtle or TriG: prefixes, subjects grouped with
// predicate and object lists, 'a', and blank nodes written inline as [...]
// or (...) when exactly one triple refers to them.
type ttlWriter struct {
	w        *bufio.Writer
	format   Format
	prefixes *Prefixes
	base     string
	names    blankNamer
	buf      []byte

	blanks map[string]*blankUse // by blank node label

	g *Graph // the graph being written
}

// blankUse records how a blank node is used across the dataset.
type blankUse struct {
	objRefs   int  // number of triples with it as object
	home      Term // the graph it appears in
	multi     bool // it appears in more than one graph
	graphName bool // it names a graph
	written   bool // written already (as a subject or inline)
	demoted   bool // an inline candidate that gets a label after all
	// notList: a collection walk through it failed. Failures are final
	// (nodes only ever become written or demoted), so no walk need pass
	// it again: without this, every node of a long cyclic rdf:rest chain
	// would walk the whole chain, quadratic work.
	notList bool
}

// use returns the record of blank node t, or nil for other terms.
func (tw *ttlWriter) use(t Term) *blankUse {
	if t.Kind != KindBlank {
		return nil
	}
	u := tw.blanks[t.Value]
	if u == nil {
		u = &blankUse{}
		tw.blanks[t.Value] = u
	}
	return u
}

func writeTurtle(w io.Writer, f Format, d *Dataset, opt WriteOptions) error {
	tw := &ttlWriter{
		w:        bufio.NewWriterSize(w, 64<<10),
		format:   f,
		prefixes: NewPrefixes(),
		base:     opt.Base,
		names:    blankNamer{},
		blanks:   map[string]*blankUse{},
	}
	for n, ns := range opt.Prefixes.All() {
		if validPrefixName(n) {
			tw.prefixes.Set(n, ns)
		}
	}
	for q := range d.Quads() {
		if err := checkQuad(q, false); err != nil {
			return err
		}
	}
	tw.countBlanks(d)

	if tw.base != "" {
		tw.buf = append(tw.buf, "@base "...)
		tw.buf = appendIRIRef(tw.buf, tw.base)
		tw.buf = append(tw.buf, " .\n"...)
	}
	for n, ns := range tw.prefixes.All() {
		tw.buf = append(tw.buf, "@prefix "...)
		tw.buf = append(tw.buf, n...)
		tw.buf = append(tw.buf, ": "...)
		tw.buf = appendIRIRef(tw.buf, ns)
		tw.buf = append(tw.buf, " .\n"...)
	}
	if len(tw.buf) > 0 && d.Len() > 0 {
		tw.buf = append(tw.buf, '\n')
	}
	if err := tw.flushBuf(); err != nil {
		return err
	}
	if err := tw.writeGraph(d.Default(), 0); err != nil {
		return err
	}
	for _, n := range d.Names() {
		g := d.named[n]
		if g.Len() == 0 {
			continue
		}
		tw.term(n)
		tw.buf = append(tw.buf, " {\n"...)
		if err := tw.writeGraph(g, 1); err != nil {
			return err
		}
		tw.buf = append(tw.buf, "}\n\n"...)
	}
	if err := tw.flushBuf(); err != nil {
		return err
	}
	return tw.w.Flush()
}

func (tw *ttlWriter) flushBuf() error {
	_, err := tw.w.Write(tw.buf)
	tw.buf = tw.buf[:0]
	return err
}

// countBlanks records how each blank node is used across the dataset.
func (tw *ttlWriter) countBlanks(d *Dataset) {
	for q := range d.Quads() {
		for i, t := range [3]Term{q.S, q.P, q.O} {
			if t.Kind != KindBlank {
				continue
			}
			u, seen := tw.blanks[t.Value]
			if !seen {
				u = &blankUse{home: q.G}
				tw.blanks[t.Value] = u
			} else if u.home != q.G {
				u.multi = true
			}
			if i == 2 {
				u.objRefs++
			}
		}
		if q.G.Kind == KindBlank {
			tw.use(q.G).graphName = true
		}
	}
}

// inline reports whether blank node t can be written in place of its one
// reference.
func (tw *ttlWriter) inline(t Term) bool {
	u := tw.use(t)
	return u != nil && u.objRefs == 1 && !u.multi && !u.graphName && !u.demoted
}

// written reports whether blank node t has been written.
func (tw *ttlWriter) written(t Term) bool {
	u := tw.use(t)
	return u != nil && u.written
}

func (tw *ttlWriter) writeGraph(g *Graph, indent int) error {
	tw.g = g
	for s := range g.AllSubjects() {
		if tw.inline(s) {
			continue
		}
		tw.subject(s, indent)
		if len(tw.buf) > 32<<10 {
			if err := tw.flushBuf(); err != nil {
				return err
			}
		}
	}
	// Inline candidates that no written subject reached form cycles (or
	// were too deep): write them with a label.
	for s := range g.AllSubjects() {
		if u := tw.use(s); u != nil && u.objRefs == 1 && !u.written && !u.multi && !u.graphName {
			u.demoted = true
			tw.subject(s, indent)
		}
	}
	return nil
}

func (tw *ttlWriter) indent(n int) {
	for range n {
		tw.buf = append(tw.buf, "    "...)
	}
}

// subject writes one subject block.
func (tw *ttlWriter) subject(s Term, indent int) {
	u := tw.use(s)
	if u != nil {
		u.written = true
	}
	tw.indent(indent)
	if u != nil && u.objRefs == 0 && !u.graphName && !u.multi {
		tw.buf = append(tw.buf, "[]"...)
	} else {
		tw.term(s)
	}
	tw.buf = append(tw.buf, ' ')
	tw.predicateObjects(tw.triplesOf(s), indent+1, 0)
	tw.buf = append(tw.buf, " .\n"...)
	if indent == 0 {
		tw.buf = append(tw.buf, '\n')
	}
}

// triplesOf returns the triples with subject s, grouped by predicate.
func (tw *ttlWriter) triplesOf(s Term) []Triple {
	return slices.Collect(tw.g.Match(s, Term{}, Term{}))
}

// predicateObjects writes the predicate-object list of s (its triples
// ts, grouped by predicate), rdf:type first.
func (tw *ttlWriter) predicateObjects(ts []Triple, indent, depth int) {
	typ := IRI(RDFType)
	if i := slices.IndexFunc(ts, func(t Triple) bool { return t.P == typ }); i > 0 {
		j := i
		for j < len(ts) && ts[j].P == typ {
			j++
		}
		ts = slices.Concat(ts[i:j], ts[:i], ts[j:])
	}
	for i, t := range ts {
		switch {
		case i == 0 || t.P != ts[i-1].P:
			if i > 0 {
				tw.buf = append(tw.buf, " ;\n"...)
				tw.indent(indent)
			}
			if t.P == typ {
				tw.buf = append(tw.buf, 'a')
			} else {
				tw.term(t.P)
			}
			tw.buf = append(tw.buf, ' ')
		default:
			tw.buf = append(tw.buf, ", "...)
		}
		tw.object(t.O, indent, depth)
	}
}

// object writes o, inline when it is a blank node referred to only here.
func (tw *ttlWriter) object(o Term, indent, depth int) {
	if !tw.inline(o) || tw.written(o) {
		tw.term(o)
		return
	}
	if depth >= maxInlineDepth {
		tw.use(o).demoted = true
		tw.term(o)
		return
	}
	if items, nodes, ok := tw.collection(o); ok {
		for _, n := range nodes {
			tw.use(n).written = true
		}
		tw.buf = append(tw.buf, '(')
		for _, it := range items {
			tw.buf = append(tw.buf, ' ')
			tw.object(it, indent, depth+1)
		}
		tw.buf = append(tw.buf, " )"...)
		return
	}
	tw.use(o).written = true
	ts := tw.triplesOf(o)
	switch {
	case len(ts) == 0:
		tw.buf = append(tw.buf, "[]"...)
		return
	case len(ts) == 1 && (!tw.inline(ts[0].O) || tw.written(ts[0].O)):
		tw.buf = append(tw.buf, "[ "...)
		tw.predicateObjects(ts, indent+1, depth+1)
		tw.buf = append(tw.buf, " ]"...)
		return
	}
	tw.buf = append(tw.buf, "[\n"...)
	tw.indent(indent + 1)
	tw.predicateObjects(ts, indent+1, depth+1)
	tw.buf = append(tw.buf, '\n')
	tw.indent(indent)
	tw.buf = append(tw.buf, ']')
}

// collection reports whether head starts a well-formed RDF list that can be
// written as ( ... ): every node a blank node referred to once, with exactly
// one rdf:first, one rdf:rest and nothing else, ending in rdf:nil.
func (tw *ttlWriter) collection(head Term) (items, nodes []Term, ok bool) {
	first, rest, nilT := IRI(RDFFirst), IRI(RDFRest), IRI(RDFNil)
	seen := map[Term]bool{}
	defer func() {
		if !ok {
			for n := range seen {
				tw.use(n).notList = true
			}
		}
	}()
	for n := head; n != nilT; {
		if !tw.inline(n) || tw.written(n) || seen[n] || tw.use(n).notList {
			return nil, nil, false
		}
		seen[n] = true
		var f, r Term
		for t := range tw.g.Match(n, Term{}, Term{}) {
			switch {
			case t.P == first && f.IsZero():
				f = t.O
			case t.P == rest && r.IsZero():
				r = t.O
			default:
				return nil, nil, false
			}
		}
		if f.IsZero() || r.IsZero() {
			return nil, nil, false
		}
		items = append(items, f)
		nodes = append(nodes, n)
		n = r
	}
	return items, nodes, true
}

// term writes an IRI, blank node or literal in Turtle syntax.
func (tw *ttlWriter) term(t Term) {
	switch t.Kind {
	case KindIRI:
		tw.iri(t.Value)
	case KindBlank:
		tw.buf = append(tw.buf, "_:"...)
		tw.buf = append(tw.buf, tw.names.label(t)...)
	case KindLiteral:
		tw.literal(t)
	}
}

func (tw *ttlWriter) iri(v string) {
	if pn, ok := tw.prefixes.Compact(v); ok {
		tw.buf = append(tw.buf, pn...)
		return
	}
	if rel, ok := relativeIRI(tw.base, v); ok {
		tw.buf = appendIRIRef(tw.buf, rel)
		return
	}
	tw.buf = appendIRIRef(tw.buf, v)
}

// relativeIRI returns a reference shorter than iri that resolves to iri
// against base.
func relativeIRI(base, iri string) (string, bool) {
	if base == "" {
		return "", false
	}
	var cands []string
	if iri == base {
		cands = append(cands, "")
	}
	if i := strings.IndexByte(base, '#'); i >= 0 {
		base := base[:i]
		if strings.HasPrefix(iri, base+"#") {
			cands = append(cands, iri[len(base):])
		}
	} else if strings.HasPrefix(iri, base+"#") {
		cands = append(cands, iri[len(base):])
	}
	if i := strings.LastIndexByte(base, '/'); i >= 0 && strings.HasPrefix(iri, base[:i+1]) {
		cands = append(cands, iri[i+1:])
	}
	for _, c := range cands {
		if ResolveIRI(base, c) == iri {
			return c, true
		}
	}
	return "", false
}

func (tw *ttlWriter) literal(t Term) {
	if t.Lang == "" {
		switch t.Datatype {
		case XSDInteger, XSDDecimal, XSDDouble:
			if IsNumericToken(t) {
				tw.buf = append(tw.buf, t.Value...)
				return
			}
		case XSDBoolean:
			if t.Value == "true" || t.Value == "false" {
				tw.buf = append(tw.buf, t.Value...)
				return
			}
		}
	}
	if strings.IndexByte(t.Value, '\n') >= 0 {
		tw.buf = append(tw.buf, `"""`...)
		tw.buf = appendEscaped(tw.buf, t.Value, true)
		tw.buf = append(tw.buf, `"""`...)
	} else {
		tw.buf = append(tw.buf, '"')
		tw.buf = appendEscaped(tw.buf, t.Value, false)
		tw.buf = append(tw.buf, '"')
	}
	switch {
	case t.Lang != "":
		tw.buf = append(tw.buf, '@')
		tw.buf = append(tw.buf, t.Lang...)
	case t.Datatype != XSDString && t.Datatype != "":
		tw.buf = append(tw.buf, "^^"...)
		tw.iri(t.Datatype)
	}
}
