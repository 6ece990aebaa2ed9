package cprmv

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/regelkit/regelkit/sparql/graph"
)

// selection is a rule set narrowed to a path: chain runs from a child of
// the rule set down to the last matched rule, whose subtree is kept whole;
// every other node on the chain keeps only the next one as its part. An
// empty chain selects the whole tree.
type selection struct {
	rs    *RuleSet
	chain []*Rule
	extra [][2]string // unformat keys added to the last matched rule
}

const rdfType = graph.RDF + "type"

// writeJSON writes cprmv-json: the RuleSet's object, keys in a
// fixed order, hasPart an object keyed by child id in document order.
func writeJSON(sel selection) []byte {
	var b bytes.Buffer
	rs := sel.rs
	b.WriteByte('{')
	w := objWriter{b: &b}
	w.str(rdfType, rs.Class)
	w.str(NS+"id", rs.ID)
	w.str(NS+"validFrom", rs.ValidFrom)
	w.str(NS+"hasMethod", MethodsNS+rs.Method)
	w.str(provDerived, rs.DerivedFrom)
	w.str(NS+"comment", rs.Comment)
	if len(sel.chain) > 0 {
		w.key(NS + "hasPart")
		b.WriteByte('{')
		writeChain(&b, sel, 0)
		b.WriteByte('}')
	} else if len(rs.Parts) > 0 {
		w.key(NS + "hasPart")
		writeParts(&b, rs.Parts)
	}
	b.WriteByte('}')
	return b.Bytes()
}

func writeChain(b *bytes.Buffer, sel selection, i int) {
	r := sel.chain[i]
	writeString(b, r.ID)
	b.WriteByte(':')
	if i == len(sel.chain)-1 {
		writeRule(b, r, sel.extra)
		return
	}
	b.WriteByte('{')
	w := objWriter{b: b}
	ruleFields(&w, r)
	w.key(NS + "hasPart")
	b.WriteByte('{')
	writeChain(b, sel, i+1)
	b.WriteString("}}")
}

func ruleFields(w *objWriter, r *Rule) {
	w.str(NS+"id", r.ID)
	w.str(NS+"comment", r.Comment)
	w.str(NS+"definition", r.Definition)
	w.str(NS+"postDefinition", r.PostDefinition)
}

// writeRule writes a rule with its whole subtree. The recursion follows
// the tree, whose depth the transformer bounded by Limits.MaxDepth.
func writeRule(b *bytes.Buffer, r *Rule, extra [][2]string) {
	b.WriteByte('{')
	w := objWriter{b: b}
	ruleFields(&w, r)
	if len(r.Parts) > 0 {
		w.key(NS + "hasPart")
		writeParts(b, r.Parts)
	}
	for _, kv := range extra {
		w.str(kv[0], kv[1])
	}
	b.WriteByte('}')
}

// writeParts writes children keyed by id in document order; a repeated id
// gets " #2", " #3", … .
func writeParts(b *bytes.Buffer, parts []*Rule) {
	b.WriteByte('{')
	seen := map[string]int{}
	for i, c := range parts {
		if i > 0 {
			b.WriteByte(',')
		}
		k := c.ID
		seen[c.ID]++
		if n := seen[c.ID]; n > 1 {
			k += " #" + strconv.Itoa(n)
		}
		writeString(b, k)
		b.WriteByte(':')
		writeRule(b, c, nil)
	}
	b.WriteByte('}')
}

type objWriter struct {
	b *bytes.Buffer
	n int
}

func (w *objWriter) key(k string) {
	if w.n > 0 {
		w.b.WriteByte(',')
	}
	w.n++
	writeString(w.b, k)
	w.b.WriteByte(':')
}

// str writes a string member, skipping empty values.
func (w *objWriter) str(k, v string) {
	if v == "" {
		return
	}
	w.key(k)
	writeString(w.b, v)
}

const hexDigits = "0123456789abcdef"

// writeString writes s as a JSON string; unlike encoding/json it keeps <, >
// and & as they are, as upstream's output does.
func writeString(b *bytes.Buffer, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b.WriteByte('\\')
				b.WriteByte(c)
			case c == '\n':
				b.WriteString(`\n`)
			case c == '\r':
				b.WriteString(`\r`)
			case c == '\t':
				b.WriteString(`\t`)
			case c < 0x20:
				b.WriteString(`\u00`)
				b.WriteByte(hexDigits[c>>4])
				b.WriteByte(hexDigits[c&0xf])
			default:
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\ufffd`)
		case r == '\u2028' || r == '\u2029':
			fmt.Fprintf(b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
}

// rdfFormats maps the format parameter to a sparql/graph syntax.
var rdfFormats = map[string]graph.Format{
	"json-ld": graph.JSONLD, "xml": graph.RDFXML, "turtle": graph.Turtle, "ttl": graph.Turtle,
	"n3": graph.Turtle, "turtle2": graph.NTriples,
}

// Prefixes are declared in Turtle output.
func Prefixes() *graph.Prefixes {
	return graph.NewPrefixes(
		"cprmv", NS, "cprmvmethods", MethodsNS, "cprmv-serve", ServeNS, "rdf", graph.RDF,
		"rdfs", "http://www.w3.org/2000/01/rdf-schema#", "xsd", "http://www.w3.org/2001/XMLSchema#",
		"prov", "http://www.w3.org/ns/prov#", "owl", "http://www.w3.org/2002/07/owl#",
		"frbroo", "http://iflastandards.info/ns/fr/frbr/frbroo/", "cv", "http://data.europa.eu/m8g/",
		"cpsv", "http://purl.org/vocab/cpsv#")
}

// WriteGraph writes g in one of the RDF formats of /rules and /methods.
// turtle2 is "long" Turtle: one triple per line, every subject at top
// level, labelled blank nodes (N-Triples, which is valid Turtle).
func WriteGraph(g *graph.Graph, format string) ([]byte, error) {
	f, ok := rdfFormats[format]
	if !ok {
		return nil, ErrFormat
	}
	var b bytes.Buffer
	opt := graph.WriteOptions{}
	if f == graph.Turtle {
		opt.Prefixes = Prefixes()
	}
	if err := graph.WriteGraph(&b, f, sorted(g), opt); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// sorted returns a copy of g whose writers list subjects, and predicates
// within a subject, in term order (deterministic, sorted). The
// writers follow the graph's dictionary order, which is the order terms
// are first seen, one dictionary for every position; so the subjects and
// predicates together are interned in sorted order through placeholder
// triples, which are removed again (their terms stay interned).
func sorted(g *graph.Graph) *graph.Graph {
	const mark = "urn:regelkit:cprmv:sort"
	seen := map[graph.Term]bool{}
	for t := range g.Triples() {
		seen[t.S] = true
		seen[t.P] = true
	}
	terms := make([]graph.Term, 0, len(seen))
	for t := range seen {
		terms = append(terms, t)
	}
	slices.SortFunc(terms, graph.CompareTerms)
	out := graph.NewGraph()
	p, o := graph.IRI(mark+"#p"), graph.IRI(mark+"#o")
	for _, t := range terms {
		if t.IsLiteral() {
			continue
		}
		out.Add(graph.Triple{S: t, P: p, O: o})
	}
	out.RemoveMatches(graph.Term{}, p, o)
	out.AddAll(g.Triples())
	return out
}

func (s *Service) writeRDF(sel selection, format string) ([]byte, error) {
	return WriteGraph(s.graphOf(sel), format)
}

// graphOf builds the RDF of a selection: the same narrowed tree as
// cprmv-json, hasPart as RDF lists, rules as blank nodes.
func (s *Service) graphOf(sel selection) *graph.Graph {
	g := graph.NewGraph()
	rs := sel.rs
	subj := graph.IRI(s.base + "/rules/" + rs.ID)
	add := func(s, p, o graph.Term) { g.Add(graph.Triple{S: s, P: p, O: o}) }
	nl := func(v string) graph.Term { return graph.LangLiteral(v, "nl") }
	add(subj, graph.IRI(rdfType), graph.IRI(rs.Class))
	add(subj, graph.IRI(NS+"id"), nl(rs.ID))
	if rs.ValidFrom != "" {
		add(subj, graph.IRI(NS+"validFrom"), graph.Literal(rs.ValidFrom, "http://www.w3.org/2001/XMLSchema#date"))
	}
	meth := graph.IRI(MethodsNS + rs.Method)
	add(subj, graph.IRI(NS+"hasMethod"), meth)
	if m := s.methods.publication(rs.Method); m != nil && m.Class != "" {
		add(meth, graph.IRI(rdfType), graph.IRI(m.Class))
	}
	add(meth, graph.IRI(rdfType), graph.IRI(NS+"RuleMethod"))
	add(meth, graph.IRI(NS+"id"), nl(rs.Method))
	if rs.DerivedFrom != "" {
		add(subj, graph.IRI(provDerived), graph.IRI(rs.DerivedFrom))
	}
	if rs.Comment != "" {
		add(subj, graph.IRI(NS+"comment"), nl(rs.Comment))
	}
	n := 0
	// Zero-padded labels sort in creation order, so sorted output lists
	// the rules in document order.
	blank := func() graph.Term { n++; return graph.Blank(fmt.Sprintf("b%07d", n)) }
	list := func(owner graph.Term, items []graph.Term) {
		if len(items) == 0 {
			return
		}
		head := blank()
		add(owner, graph.IRI(NS+"hasPart"), head)
		for i, it := range items {
			add(head, graph.IRI(graph.RDF+"first"), it)
			next := graph.IRI(graph.RDF + "nil")
			if i < len(items)-1 {
				next = blank()
			}
			add(head, graph.IRI(graph.RDF+"rest"), next)
			head = next
		}
	}
	var rule func(r *Rule, narrowed int) graph.Term
	rule = func(r *Rule, narrowed int) graph.Term {
		node := blank()
		add(node, graph.IRI(rdfType), graph.IRI(NS+"Rule"))
		add(node, graph.IRI(NS+"id"), nl(r.ID))
		for _, kv := range [][2]string{{"comment", r.Comment}, {"definition", r.Definition}, {"postDefinition", r.PostDefinition}} {
			if kv[1] != "" {
				add(node, graph.IRI(NS+kv[0]), nl(kv[1]))
			}
		}
		var items []graph.Term
		if narrowed >= 0 && narrowed < len(sel.chain)-1 {
			items = append(items, rule(sel.chain[narrowed+1], narrowed+1))
		} else {
			for _, c := range r.Parts {
				items = append(items, rule(c, -1))
			}
		}
		list(node, items)
		return node
	}
	var top []graph.Term
	if len(sel.chain) > 0 {
		top = append(top, rule(sel.chain[0], 0))
	} else {
		for _, c := range rs.Parts {
			top = append(top, rule(c, -1))
		}
	}
	list(subj, top)
	return g
}
