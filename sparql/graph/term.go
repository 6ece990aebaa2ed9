package graph

import (
	"strings"
)

// Well-known IRIs used throughout the package.
const (
	RDF         = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
	RDFS        = "http://www.w3.org/2000/01/rdf-schema#"
	XSD         = "http://www.w3.org/2001/XMLSchema#"
	RDFType     = RDF + "type"
	RDFFirst    = RDF + "first"
	RDFRest     = RDF + "rest"
	RDFNil      = RDF + "nil"
	RDFLangStr  = RDF + "langString"
	XSDString   = XSD + "string"
	XSDBoolean  = XSD + "boolean"
	XSDInteger  = XSD + "integer"
	XSDDecimal  = XSD + "decimal"
	XSDDouble   = XSD + "double"
	XSDDate     = XSD + "date"
	XSDDateTime = XSD + "dateTime"
)

// Kind says which of the three kinds of RDF term a Term is.
type Kind uint8

const (
	// KindNone is the zero Term: "no term". It stands for the default graph in
	// a Quad and for a wildcard in pattern lookups.
	KindNone Kind = iota
	KindIRI
	KindBlank
	KindLiteral
)

// Term is an RDF term: an IRI, a blank node or a literal.
//
// Term is a small comparable value: two Terms are the same RDF term exactly
// when they are ==, so a Term can be a map key. The constructors keep that
// true by normalising: a literal always carries its datatype (xsd:string for
// a simple literal, rdf:langString when it has a language tag), and language
// tags are lower-cased (RDF 1.1 Concepts §3.3 allows this; tags compare
// case-insensitively). Build Terms with the constructors, not by hand.
type Term struct {
	Kind     Kind
	Value    string // the IRI, the blank node label (without "_:"), or the literal's lexical form
	Datatype string // literals only: the datatype IRI
	Lang     string // literals only: the language tag, lower case, or ""
}

// IRI returns the IRI term for iri. It does not check or resolve iri.
func IRI(iri string) Term { return Term{Kind: KindIRI, Value: iri} }

// Blank returns the blank node with the given label (without "_:").
func Blank(label string) Term { return Term{Kind: KindBlank, Value: label} }

// Literal returns a typed literal. An empty datatype means xsd:string.
func Literal(lexical, datatype string) Term {
	if datatype == "" {
		datatype = XSDString
	}
	return Term{Kind: KindLiteral, Value: lexical, Datatype: datatype}
}

// String returns the simple literal (xsd:string) with the given text.
func String(s string) Term { return Term{Kind: KindLiteral, Value: s, Datatype: XSDString} }

// LangLiteral returns a language-tagged string (rdf:langString). An empty
// lang gives a simple literal.
func LangLiteral(lexical, lang string) Term {
	if lang == "" {
		return String(lexical)
	}
	return Term{Kind: KindLiteral, Value: lexical, Datatype: RDFLangStr, Lang: strings.ToLower(lang)}
}

// IsZero reports whether t is the zero Term (no term, wildcard, default graph).
func (t Term) IsZero() bool { return t.Kind == KindNone }

// IsIRI reports whether t is an IRI.
func (t Term) IsIRI() bool { return t.Kind == KindIRI }

// IsBlank reports whether t is a blank node.
func (t Term) IsBlank() bool { return t.Kind == KindBlank }

// IsLiteral reports whether t is a literal.
func (t Term) IsLiteral() bool { return t.Kind == KindLiteral }

// String returns t in N-Triples syntax; the zero Term gives "".
func (t Term) String() string {
	var b strings.Builder
	t.appendNT(&b)
	return b.String()
}

func (t Term) appendNT(b *strings.Builder) {
	var buf [128]byte
	b.Write(appendTermNT(buf[:0], t, t.Value))
}

// Triple is an RDF triple.
type Triple struct {
	S, P, O Term
}

// String returns the triple as one N-Triples line without the newline.
func (t Triple) String() string {
	var b strings.Builder
	t.S.appendNT(&b)
	b.WriteByte(' ')
	t.P.appendNT(&b)
	b.WriteByte(' ')
	t.O.appendNT(&b)
	b.WriteString(" .")
	return b.String()
}

// Quad is an RDF quad: a triple in graph G. The zero G is the default graph.
type Quad struct {
	S, P, O, G Term
}

// Triple returns the quad's triple.
func (q Quad) Triple() Triple { return Triple{q.S, q.P, q.O} }

// String returns the quad as one N-Quads line without the newline.
func (q Quad) String() string {
	var b strings.Builder
	q.S.appendNT(&b)
	b.WriteByte(' ')
	q.P.appendNT(&b)
	b.WriteByte(' ')
	q.O.appendNT(&b)
	if !q.G.IsZero() {
		b.WriteByte(' ')
		q.G.appendNT(&b)
	}
	b.WriteString(" .")
	return b.String()
}
