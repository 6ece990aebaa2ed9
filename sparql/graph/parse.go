package graph

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
)

// ParseOptions configures Parse.
type ParseOptions struct {
	// Base is the base IRI against which relative IRIs are resolved
	// (RFC 3986). Without a base, relative IRIs are kept as written.
	Base string

	// Prefixes, when not nil, receives the document's prefixes for the
	// serialisers to reuse: every @prefix/PREFIX of Turtle and TriG in
	// order, the namespace declarations of the RDF/XML document element,
	// and the JSON-LD top-level context terms that map to an IRI ending in
	// '/' or '#' (sorted by name).
	Prefixes *Prefixes

	// BlankScope names the scope of the document's blank nodes. A blank
	// node written _:x gets the label BlankScope+"."+"x", and a blank node
	// the syntax creates ([], collections, JSON-LD and RDF/XML nodes without
	// an id) gets BlankScope+"-"+n; the two never collide. Empty means a fresh
	// random scope for each call, so blank nodes of two parses into one
	// graph stay distinct. Pass the same scope to two calls to share blank
	// nodes between them. A scope must consist of BLANK_NODE_LABEL
	// characters and not start with '.', '-' or a combining mark.
	BlankScope string

	// Graph, when not zero, is the graph name given to triples that the
	// syntax puts in the default graph (all triples of Turtle, N-Triples
	// and RDF/XML), e.g. to load a Turtle file into a named graph.
	Graph Term
}

// Parse reads an RDF document in format f and calls emit for every quad, in
// document order, as soon as it is complete. Triple formats give quads with
// a zero G (unless opt.Graph is set). Turtle, TriG, N-Triples and N-Quads
// are streamed: the reader is consumed through a small buffer. RDF/XML is
// streamed by the XML decoder; JSON-LD is decoded as a whole.
//
// A syntax error is returned as a *ParseError with line and column; an
// error from emit stops parsing and is returned as is.
func Parse(r io.Reader, f Format, opt ParseOptions, emit func(Quad) error) error {
	switch f {
	case Turtle, TriG, NTriples, NQuads:
		return parseTurtleFamily(r, f, opt, emit)
	case RDFXML:
		return parseRDFXML(r, opt, emit)
	case JSONLD:
		return parseJSONLD(r, opt, emit)
	}
	return fmt.Errorf("%w: parsing format %v", ErrUnsupported, f)
}

// ParseGraph parses a document into a new Graph. For TriG, N-Quads and
// JSON-LD only the default graph may hold triples: a quad in a named graph
// is an error wrapping ErrUnsupported (use ParseDataset).
func ParseGraph(r io.Reader, f Format, opt ParseOptions) (*Graph, error) {
	g := NewGraph()
	b := bulkLoader{g: g}
	err := Parse(r, f, opt, func(q Quad) error {
		if !q.G.IsZero() && q.G != opt.Graph {
			return fmt.Errorf("%w: the %v document has a named graph %v; use ParseDataset", ErrUnsupported, f, q.G)
		}
		b.add(Triple{q.S, q.P, q.O})
		return nil
	})
	if err != nil {
		return nil, err
	}
	b.finish()
	return g, nil
}

// ParseDataset parses a document into a new Dataset.
func ParseDataset(r io.Reader, f Format, opt ParseOptions) (*Dataset, error) {
	d := NewDataset()
	loaders := map[Term]*bulkLoader{}
	var last *bulkLoader
	var lastG Term
	err := Parse(r, f, opt, func(q Quad) error {
		if q.G.Kind == KindLiteral {
			return fmt.Errorf("graph name %v is a literal", q.G)
		}
		if last == nil || q.G != lastG {
			last = loaders[q.G]
			if last == nil {
				last = &bulkLoader{g: d.Graph(q.G)}
				loaders[q.G] = last
			}
			lastG = q.G
		}
		last.add(Triple{q.S, q.P, q.O})
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, b := range loaders {
		b.finish()
	}
	return d, nil
}

// blankLabels hands out the labels of one document's blank nodes.
type blankLabels struct {
	scope string
	n     int
	doc   map[string]string
}

func newBlankLabels(scope string) *blankLabels {
	if scope == "" {
		const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
		b := []byte("b0000000")
		for i := 1; i < len(b); i++ {
			b[i] = alphabet[rand.IntN(len(alphabet))]
		}
		scope = string(b)
	}
	return &blankLabels{scope: scope, doc: map[string]string{}}
}

// labelled returns the blank node written _:label in the document.
func (b *blankLabels) labelled(label []byte) Term {
	if l, ok := b.doc[string(label)]; ok {
		return Blank(l)
	}
	l := b.scope + "." + string(label)
	if len(b.doc) < 1<<16 {
		b.doc[string(label)] = l
	}
	return Blank(l)
}

// fresh returns a new blank node made by the syntax.
func (b *blankLabels) fresh() Term {
	b.n++
	return Blank(b.scope + "-" + strconv.Itoa(b.n))
}

const maxNesting = 10000

// ttlParser parses Turtle, TriG, N-Triples and N-Quads by recursive descent.
type ttlParser struct {
	*scanner
	format   Format
	emitFn   func(Quad) error
	opt      ParseOptions
	base     string
	prefixes map[string]string
	graph    Term
	blanks   *blankLabels
	depth    int

	// caches from raw token text to IRI, emptied when the base or the
	// prefixes change
	iris, pnames map[string]string
	langs        map[string]string
}

func parseTurtleFamily(r io.Reader, f Format, opt ParseOptions, emit func(Quad) error) (err error) {
	p := &ttlParser{
		scanner:  newScanner(r, f == NTriples || f == NQuads),
		format:   f,
		emitFn:   emit,
		opt:      opt,
		base:     opt.Base,
		prefixes: map[string]string{},
		blanks:   newBlankLabels(opt.BlankScope),
		iris:     map[string]string{},
		pnames:   map[string]string{},
		langs:    map[string]string{},
	}
	defer recoverBail(&err)
	// Skip a UTF-8 byte order mark, which editors on Windows write.
	if p.peekAt(0) == 0xEF && p.peekAt(1) == 0xBB && p.peekAt(2) == 0xBF {
		p.pos += 3
	}
	switch f {
	case NTriples, NQuads:
		p.lineDoc()
	case TriG:
		p.trigDoc()
	default:
		p.turtleDoc()
	}
	return nil
}

func (p *ttlParser) emit(s, pr, o Term) {
	g := p.graph
	if g.Kind == KindNone {
		g = p.opt.Graph
	}
	if err := p.emitFn(Quad{s, pr, o, g}); err != nil {
		panic(bail{err})
	}
}

func (p *ttlParser) expect(k tokKind, what string) {
	if p.tok != k {
		p.errorAtToken("expected %s, found %s", what, p.describe())
	}
	p.next()
}

// --- N-Triples and N-Quads ---

func (p *ttlParser) lineDoc() {
	for {
		p.next()
		switch p.tok {
		case tEOF:
			return
		case tEOL:
			continue
		}
		s := p.lineTerm("subject (IRI or blank node)", true, false)
		pr := p.lineTerm("predicate (IRI)", false, false)
		o := p.lineTerm("object (IRI, blank node or literal)", true, true)
		p.graph = Term{}
		if p.format == NQuads && (p.tok == tIRI || p.tok == tBlank) {
			p.graph = p.lineTerm("graph label", true, false)
		}
		if p.tok != tDot {
			p.errorAtToken("expected '.' at end of statement, found %s", p.describe())
		}
		p.emit(s, pr, o)
		p.next()
		if p.tok == tEOF {
			return
		}
		if p.tok != tEOL {
			p.errorAtToken("expected end of line after '.', found %s", p.describe())
		}
	}
}

// lineTerm converts and consumes the term at the current token in
// N-Triples or N-Quads.
func (p *ttlParser) lineTerm(what string, blank, literal bool) Term {
	switch {
	case p.tok == tIRI:
		t := IRI(p.absoluteIRI())
		p.next()
		return t
	case p.tok == tBlank && blank:
		return p.labelledBlank()
	case p.tok == tString && literal:
		if p.strForm != strDouble {
			p.errorAtToken("expected string in double quotes, found %s", p.describe())
		}
		return p.literal()
	}
	p.errorAtToken("expected %s, found %s", what, p.describe())
	return Term{}
}

func (p *ttlParser) absoluteIRI() string {
	v := p.iriValue()
	if !IsAbsoluteIRI(v) {
		p.errorAtToken("expected absolute IRI, found relative %s", p.describe())
	}
	return v
}

// iriValue returns the current IRIREF token as an IRI string, resolved
// against the base (Turtle and TriG only).
func (p *ttlParser) iriValue() string {
	if v, ok := p.iris[string(p.val)]; ok {
		return v
	}
	raw := string(p.val)
	v := raw
	if p.base != "" && !p.scanner.lineMode {
		v = ResolveIRI(p.base, raw)
	}
	if len(p.iris) > 1<<16 {
		clear(p.iris)
	}
	p.iris[raw] = v
	return v
}

func (p *ttlParser) langValue() string {
	if v, ok := p.langs[string(p.val)]; ok {
		return v
	}
	v := string(p.val)
	if len(p.langs) > 1<<10 {
		clear(p.langs)
	}
	p.langs[v] = v
	return v
}

// --- Turtle and TriG ---

func (p *ttlParser) turtleDoc() {
	p.next()
	for p.tok != tEOF {
		if p.directive() {
			continue
		}
		p.triples()
		p.expect(tDot, "'.' after triples")
	}
}

// directive parses @prefix, @base, PREFIX or BASE if one starts here.
func (p *ttlParser) directive() bool {
	switch {
	case p.tok == tLang && (string(p.val) == "prefix" || string(p.val) == "base"):
		isPrefix := string(p.val) == "prefix"
		p.next()
		if isPrefix {
			p.prefixDecl()
		} else {
			p.baseDecl()
		}
		p.expect(tDot, "'.' after directive")
		return true
	case p.tok == tWord && (equalFoldASCII(p.val, "PREFIX") || equalFoldASCII(p.val, "BASE")):
		isPrefix := equalFoldASCII(p.val, "PREFIX")
		p.next()
		if isPrefix {
			p.prefixDecl()
		} else {
			p.baseDecl()
		}
		return true
	}
	return false
}

func (p *ttlParser) prefixDecl() {
	if p.tok != tPName || p.colon != len(p.val)-1 {
		p.errorAtToken("expected prefix name ending in ':', found %s", p.describe())
	}
	name := string(p.val[:p.colon])
	p.next()
	if p.tok != tIRI {
		p.errorAtToken("expected namespace IRI after prefix %s:, found %s", name, p.describe())
	}
	ns := p.iriValue()
	p.next()
	p.prefixes[name] = ns
	clear(p.pnames)
	if p.opt.Prefixes != nil {
		p.opt.Prefixes.Set(name, ns)
	}
}

func (p *ttlParser) baseDecl() {
	if p.tok != tIRI {
		p.errorAtToken("expected base IRI, found %s", p.describe())
	}
	p.base = p.iriValue()
	clear(p.iris)
	p.next()
}

func equalFoldASCII(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range b {
		c := b[i]
		if c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

// triples parses subject predicateObjectList, or a blank node property
// list with an optional predicateObjectList.
func (p *ttlParser) triples() {
	if p.tok == tLBracket {
		p.next()
		if p.tok == tRBracket {
			p.next()
			p.predicateObjectList(p.blanks.fresh())
			return
		}
		s := p.blankPropertyList()
		if p.tok == tDot || p.tok == tRBrace {
			return
		}
		p.predicateObjectList(s)
		return
	}
	s := p.subject()
	p.predicateObjectList(s)
}

func (p *ttlParser) subject() Term {
	switch p.tok {
	case tIRI, tPName:
		return p.iri()
	case tBlank:
		return p.labelledBlank()
	case tLParen:
		return p.collection()
	}
	p.errorAtToken("expected subject (IRI, blank node or collection), found %s", p.describe())
	return Term{}
}

// labelledBlank converts the current blank node label and consumes it.
func (p *ttlParser) labelledBlank() Term {
	t := p.blanks.labelled(p.val)
	p.next()
	return t
}

// iri converts the current IRIREF or prefixed name and consumes it.
func (p *ttlParser) iri() Term {
	var v string
	if p.tok == tIRI {
		v = p.iriValue()
	} else {
		v = p.pnameValue()
	}
	p.next()
	return IRI(v)
}

func (p *ttlParser) pnameValue() string {
	if v, ok := p.pnames[string(p.val)]; ok {
		return v
	}
	ns, ok := p.prefixes[string(p.val[:p.colon])]
	if !ok {
		p.errorAtToken("undefined prefix %q", p.val[:p.colon])
	}
	local := p.val[p.colon+1:]
	var v string
	if p.localEsc {
		b := make([]byte, 0, len(ns)+len(local))
		b = append(b, ns...)
		for i := 0; i < len(local); i++ {
			if local[i] == '\\' {
				i++
			}
			b = append(b, local[i])
		}
		v = string(b)
	} else {
		v = ns + string(local)
	}
	if len(p.pnames) > 1<<16 {
		clear(p.pnames)
	}
	p.pnames[string(p.val)] = v
	return v
}

func (p *ttlParser) predicateObjectList(s Term) {
	p.verbObjectList(s)
	for p.tok == tSemicolon {
		for p.tok == tSemicolon {
			p.next()
		}
		switch p.tok {
		case tDot, tRBracket, tRBrace, tEOF:
			return
		}
		p.verbObjectList(s)
	}
}

func (p *ttlParser) verbObjectList(s Term) {
	var pr Term
	switch {
	case p.tok == tIRI || p.tok == tPName:
		pr = p.iri()
	case p.tok == tWord && len(p.val) == 1 && p.val[0] == 'a':
		pr = IRI(RDFType)
		p.next()
	default:
		p.errorAtToken("expected predicate (IRI or 'a'), found %s", p.describe())
	}
	for {
		o := p.object()
		p.emit(s, pr, o)
		if p.tok != tComma {
			return
		}
		p.next()
	}
}

func (p *ttlParser) object() Term {
	switch p.tok {
	case tIRI, tPName:
		return p.iri()
	case tBlank:
		return p.labelledBlank()
	case tLBracket:
		p.next()
		if p.tok == tRBracket {
			p.next()
			return p.blanks.fresh()
		}
		return p.blankPropertyList()
	case tLParen:
		return p.collection()
	case tString:
		return p.literal()
	case tInteger, tDecimal, tDouble:
		dt := XSDInteger
		if p.tok == tDecimal {
			dt = XSDDecimal
		} else if p.tok == tDouble {
			dt = XSDDouble
		}
		t := Literal(string(p.val), dt)
		p.next()
		return t
	case tWord:
		switch string(p.val) {
		case "true", "false":
			t := Literal(string(p.val), XSDBoolean)
			p.next()
			return t
		}
	}
	p.errorAtToken("expected object (IRI, blank node, collection or literal), found %s", p.describe())
	return Term{}
}

// literal converts the current string token and its language tag or
// datatype, consuming them.
func (p *ttlParser) literal() Term {
	lex := string(p.val)
	p.next()
	switch p.tok {
	case tLang:
		t := LangLiteral(lex, p.langValue())
		p.next()
		return t
	case tCaretCaret:
		p.next()
		switch {
		case p.tok == tIRI && p.lineMode:
			t := Literal(lex, p.absoluteIRI())
			p.next()
			return t
		case p.tok == tIRI || p.tok == tPName && !p.lineMode:
			return Literal(lex, p.iri().Value)
		}
		p.errorAtToken("expected datatype IRI after '^^', found %s", p.describe())
	}
	return String(lex)
}

// blankPropertyList parses the rest of '[' predicateObjectList ']' (the
// '[' is consumed) and returns the blank node.
func (p *ttlParser) blankPropertyList() Term {
	p.enter()
	b := p.blanks.fresh()
	p.predicateObjectList(b)
	p.expect(tRBracket, "']' to close blank node property list")
	p.depth--
	return b
}

// collection parses '(' object* ')' and returns its head.
func (p *ttlParser) collection() Term {
	p.enter()
	p.next() // '('
	head := IRI(RDFNil)
	var last Term
	first, rest := IRI(RDFFirst), IRI(RDFRest)
	for p.tok != tRParen {
		if p.tok == tEOF {
			p.errorAtToken("expected ')' to close collection, found end of input")
		}
		node := p.blanks.fresh()
		if last.Kind == KindNone {
			head = node
		} else {
			p.emit(last, rest, node)
		}
		o := p.object()
		p.emit(node, first, o)
		last = node
	}
	p.next()
	if last.Kind != KindNone {
		p.emit(last, rest, IRI(RDFNil))
	}
	p.depth--
	return head
}

func (p *ttlParser) enter() {
	p.depth++
	if p.depth > maxNesting {
		p.errorAtToken("blank nodes and collections nested deeper than %d levels", maxNesting)
	}
}

// --- TriG ---

func (p *ttlParser) trigDoc() {
	p.next()
	for p.tok != tEOF {
		if p.directive() {
			continue
		}
		p.block()
	}
}

func (p *ttlParser) block() {
	switch p.tok {
	case tLBrace:
		p.wrappedGraph(Term{})
		return
	case tWord:
		if equalFoldASCII(p.val, "GRAPH") {
			p.next()
			var g Term
			switch p.tok {
			case tIRI, tPName:
				g = p.iri()
			case tBlank:
				g = p.labelledBlank()
			case tLBracket:
				p.next()
				p.expect(tRBracket, "']' (graph name '[]')")
				g = p.blanks.fresh()
			default:
				p.errorAtToken("expected graph name (IRI or blank node) after GRAPH, found %s", p.describe())
			}
			if p.tok != tLBrace {
				p.errorAtToken("expected '{' after graph name, found %s", p.describe())
			}
			p.wrappedGraph(g)
			return
		}
	case tLBracket:
		p.next()
		if p.tok == tRBracket {
			p.next()
			b := p.blanks.fresh()
			if p.tok == tLBrace {
				p.wrappedGraph(b)
				return
			}
			p.predicateObjectList(b)
			p.expect(tDot, "'.' after triples")
			return
		}
		b := p.blankPropertyList()
		if p.tok != tDot {
			p.predicateObjectList(b)
		}
		p.expect(tDot, "'.' after triples")
		return
	case tLParen:
		s := p.collection()
		p.predicateObjectList(s)
		p.expect(tDot, "'.' after triples")
		return
	case tIRI, tPName, tBlank:
		var s Term
		if p.tok == tBlank {
			s = p.labelledBlank()
		} else {
			s = p.iri()
		}
		if p.tok == tLBrace {
			p.wrappedGraph(s)
			return
		}
		p.predicateObjectList(s)
		p.expect(tDot, "'.' after triples")
		return
	}
	p.errorAtToken("expected triples or graph, found %s", p.describe())
}

// wrappedGraph parses '{' triplesBlock? '}' into graph g.
func (p *ttlParser) wrappedGraph(g Term) {
	p.next() // '{'
	p.graph = g
	for p.tok != tRBrace && p.tok != tEOF {
		p.triples()
		if p.tok != tDot {
			break
		}
		p.next()
	}
	if p.tok != tRBrace {
		p.errorAtToken("expected '}' to close graph, found %s", p.describe())
	}
	p.next()
	p.graph = Term{}
}
