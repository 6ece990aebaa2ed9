package algebra

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/regelkit/regelkit/sparql/graph"
)

// Options configure parsing.
type Options struct {
	// Base is the base IRI for relative IRIs when the text has no BASE.
	Base string
	// MaxDepth bounds the nesting of the text (groups, brackets, unary
	// operators, paths, collections) and the depth of the algebra built
	// from it, so that neither the parser nor anything that walks the
	// algebra recursively can exhaust the stack; VarsPerDepth times it
	// bounds the distinct variables. Zero means DefaultMaxDepth; a
	// negative value disables both bounds.
	MaxDepth int
}

// DefaultMaxDepth is the nesting bound used when Options.MaxDepth is zero.
// Hand-written and generated queries stay far below it (the explorer's
// discovery queries nest about 15 levels); a long chain of 1000 UNIONs,
// OPTIONALs or || operands is already suspect.
const DefaultMaxDepth = 1000

type parser struct {
	lx       *lexer
	buf      []token // lookahead window; buf[0] is the current token
	prev     token   // the token before the current one
	base     string
	prefixes map[string]string

	// nest is the current nesting of the text; the budget, shared with
	// the translation, bounds the depth of what they build and the
	// distinct variables
	nest int
	*budget
	vars map[string]bool // the distinct variables and blank node labels

	// blank node label scoping
	groupID   int
	curGroup  int
	bnodeUse  map[string]int
	anonCount int

	// aggOK says whether the grammar allows an aggregate where the parser
	// is: in a select expression, HAVING or ORDER BY, not nested
	aggOK bool
	// the WHERE clauses of the update's DELETE/INSERT operations, as
	// parsed, translated once the request is
	modifyWheres []modifyWhere

	// terms says what variables and blank nodes mean where the parser is
	terms      termMode
	dataBnodes map[string]int // label -> update operation index
	opIndex    int
}

// termMode is what variables and blank nodes mean in the triples being
// parsed.
type termMode uint8

const (
	// termsPattern: a query or WHERE pattern; blank nodes are variables
	// scoped to their basic graph pattern.
	termsPattern termMode = iota
	// termsTemplate: a CONSTRUCT or INSERT template; blank nodes are
	// fresh per solution.
	termsTemplate
	// termsDeletePattern: DELETE WHERE and DELETE templates, where blank
	// nodes are not allowed.
	termsDeletePattern
	// termsInsertData: INSERT DATA, without variables; a blank node label
	// belongs to one operation of the request.
	termsInsertData
	// termsDeleteData: DELETE DATA, with neither variables nor blank
	// nodes.
	termsDeleteData
)

func (m termMode) varsAllowed() bool { return m != termsInsertData && m != termsDeleteData }

func (m termMode) bnodesAllowed() bool { return m != termsDeletePattern && m != termsDeleteData }

// blankTerms reports whether blank nodes are terms, not variables.
func (m termMode) blankTerms() bool {
	return m == termsTemplate || m == termsInsertData || m == termsDeleteData
}

// setTerms switches the term mode and returns the function restoring it.
func (p *parser) setTerms(m termMode) func() {
	old := p.terms
	p.terms = m
	return func() { p.terms = old }
}

func newParser(src string, opts Options) (*parser, error) {
	src, err := unescapeCodepoints(src)
	if err != nil {
		return nil, err
	}
	// Tokens are scanned on demand, never all at once: a 10 MB body of
	// one-character tokens would otherwise cost 64 bytes per character.
	lx := &lexer{src: src, line: 1, col: 1}
	p := &parser{lx: lx, base: opts.Base, terms: termsPattern, prefixes: map[string]string{}, bnodeUse: map[string]int{}, dataBnodes: map[string]int{},
		budget: newBudget(opts.MaxDepth), vars: map[string]bool{}}
	return p, nil
}

// budget bounds what parsing and translation build: the depth of every
// composite node, expression and path (leaves are 1), and the distinct
// variables (with blank node labels and the variables the translation
// adds): every solution is as wide as they are.
type budget struct {
	maxDepth int
	depths   map[any]int
	nvars    int
	maxVars  int
}

func newBudget(maxDepth int) *budget {
	b := &budget{maxDepth: maxDepth, depths: map[any]int{}}
	switch {
	case b.maxDepth == 0:
		b.maxDepth = DefaultMaxDepth
	case b.maxDepth < 0:
		b.maxDepth = math.MaxInt
	}
	b.maxVars = math.MaxInt
	if b.maxDepth <= math.MaxInt/VarsPerDepth {
		b.maxVars = VarsPerDepth * b.maxDepth
	}
	return b
}

func (b *budget) depthOf(x any) int {
	if d, ok := b.depths[x]; ok {
		return d
	}
	return 1
}

// deepen records the depth of x, one more than its deepest part, and
// reports false when that passes the bound. Chains built by iteration
// (a || b || c ..., UNION after UNION, a group's OPTIONALs and BINDs,
// p1/p2/p3) deepen the algebra without nesting the text, and evaluation
// recurses along them, so they count against the same bound.
func (b *budget) deepen(x any, parts ...any) bool {
	d := 0
	for _, k := range parts {
		if k != nil {
			d = max(d, b.depthOf(k))
		}
	}
	return b.setDepth(x, d+1)
}

func (b *budget) setDepth(x any, d int) bool {
	if d > b.maxDepth {
		return false
	}
	b.depths[x] = d
	return true
}

// depthError is the error of a depth past the bound, at t.
func (b *budget) depthError(t token) *Error {
	return errAt(t, "nesting deeper than %d (long chains of operators, UNIONs, OPTIONALs, BINDs, path steps or triple patterns count as nesting)", b.maxDepth)
}

// addVar counts one more distinct variable, failing at t past the bound.
func (b *budget) addVar(t token) {
	b.nvars++
	if b.nvars > b.maxVars {
		panic(errAt(t, "more than %d distinct variables", b.maxVars))
	}
}

// deeper is what records the depth of the nodes it builds: the parser
// and the translator.
type deeper interface{ deep(x any, parts ...any) }

// wrap records the depth of x, built on parts, and returns it.
func wrap[T any](d deeper, x T, parts ...any) T {
	d.deep(x, parts...)
	return x
}

// VarsPerDepth sets the bound on the distinct variables of one query or
// update: VarsPerDepth times MaxDepth (10,000 by default). Evaluation
// copies a binding of all of them per solution, and the scope analyses
// cost the algebra's depth times its variables.
const VarsPerDepth = 10

// newVar counts one more distinct variable, failing at t past the bound.
func (p *parser) newVar(t token) { p.addVar(t) }

// enter counts one level of nesting of the text; the caller defers leave.
func (p *parser) enter() {
	p.nest++
	if p.nest > p.maxDepth {
		panic(p.errf(p.tok(), "nesting deeper than %d", p.maxDepth))
	}
}

func (p *parser) leave() { p.nest-- }

// deep records the depth of x, built on parts, failing at the current
// token past the bound.
func (p *parser) deep(x any, parts ...any) {
	if !p.deepen(x, parts...) {
		panic(p.depthError(p.tok()))
	}
}

// call builds an operator or function call, recording its depth.
func call(d deeper, op string, args ...Expr) *Call {
	c := &Call{Op: op, Args: args}
	parts := make([]any, len(args))
	for i, a := range args {
		parts[i] = a
	}
	d.deep(c, parts...)
	return c
}

// unescapeCodepoints replaces \uXXXX and \UXXXXXXXX escapes before
// tokenizing, as the SPARQL grammar (§19.2) prescribes.
func unescapeCodepoints(src string) (string, error) {
	if !strings.Contains(src, `\u`) && !strings.Contains(src, `\U`) {
		return src, nil
	}
	var b strings.Builder
	line, col := 1, 1
	for i := 0; i < len(src); {
		c := src[i]
		if c == '\\' && i+1 < len(src) && (src[i+1] == 'u' || src[i+1] == 'U') {
			r, n, ok := scanUCHAR(src[i:])
			if !ok {
				return "", &Error{Pos: Pos{line, col}, Msg: "bad codepoint escape"}
			}
			if (r >= 0xD800 && r <= 0xDFFF) || !utf8.ValidRune(r) {
				return "", &Error{Pos: Pos{line, col}, Msg: "escape of an invalid code point"}
			}
			b.WriteRune(r)
			i += n
			col += n
			continue
		}
		if c == '\n' {
			line++
			col = 0
		}
		b.WriteByte(c)
		i++
		col++
	}
	return b.String(), nil
}

func (p *parser) tok() token { return p.peek(0) }

// peek returns the token n places ahead (the end-of-input token past the
// end), scanning as far as needed; a scan error panics as a syntax error.
func (p *parser) peek(n int) token {
	for len(p.buf) <= n {
		if len(p.buf) > 0 && p.buf[len(p.buf)-1].kind == tEOF {
			return p.buf[len(p.buf)-1]
		}
		t, err := p.lx.next()
		if err != nil {
			panic(err)
		}
		if (t.kind == tVar || t.kind == tBNode) && !p.vars[t.val] {
			p.vars[t.val] = true
			p.newVar(t)
		}
		p.buf = append(p.buf, t)
	}
	return p.buf[n]
}

func (p *parser) adv() token {
	t := p.tok()
	p.prev = t
	if t.kind != tEOF {
		copy(p.buf, p.buf[1:])
		p.buf = p.buf[:len(p.buf)-1]
	}
	return t
}

func (p *parser) errf(t token, format string, args ...any) *Error { return errAt(t, format, args...) }

func errAt(t token, format string, args ...any) *Error {
	return &Error{Pos: t.pos, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) isKw(kw string) bool {
	t := p.tok()
	return t.kind == tName && strings.EqualFold(t.val, kw)
}

func (p *parser) isKwAt(n int, kw string) bool {
	t := p.peek(n)
	return t.kind == tName && strings.EqualFold(t.val, kw)
}

func (p *parser) acceptKw(kw string) bool {
	if p.isKw(kw) {
		p.adv()
		return true
	}
	return false
}

func (p *parser) expectKw(kw string) {
	if !p.acceptKw(kw) {
		panic(p.errf(p.tok(), "expected %s, found %s", kw, p.tok()))
	}
}

func (p *parser) isP(s string) bool {
	t := p.tok()
	return t.kind == tPunct && t.val == s
}

func (p *parser) acceptP(s string) bool {
	if p.isP(s) {
		p.adv()
		return true
	}
	return false
}

func (p *parser) expectP(s string) {
	if !p.acceptP(s) {
		panic(p.errf(p.tok(), "expected '%s', found %s", s, p.tok()))
	}
}

func recoverErr(err *error) {
	if r := recover(); r != nil {
		if e, ok := r.(*Error); ok {
			*err = e
			return
		}
		// A bug must not take the caller down: report it as an error.
		*err = &Error{Msg: fmt.Sprintf("internal error: %v", r)}
	}
}

// ParseQuery parses a SPARQL 1.1 query and translates it into the algebra.
func ParseQuery(src string, opts Options) (q *Query, err error) {
	p, err := newParser(src, opts)
	if err != nil {
		return nil, err
	}
	defer recoverErr(&err)
	p.prologue()
	qs := p.query()
	if p.tok().kind != tEOF {
		return nil, p.errf(p.tok(), "unexpected %s after the query", p.tok())
	}
	return newTranslator(p).translateQuery(qs), nil
}

// ParseUpdate parses a SPARQL 1.1 update request.
func ParseUpdate(src string, opts Options) (u *Update, err error) {
	p, err := newParser(src, opts)
	if err != nil {
		return nil, err
	}
	defer recoverErr(&err)
	u = &Update{}
	for {
		p.prologue()
		if p.tok().kind == tEOF {
			break
		}
		u.Ops = append(u.Ops, p.updateOp())
		p.opIndex++
		if !p.acceptP(";") {
			break
		}
	}
	if p.tok().kind != tEOF {
		return nil, p.errf(p.tok(), "unexpected %s; update operations are separated by ';'", p.tok())
	}
	tr := newTranslator(p)
	for _, mw := range p.modifyWheres {
		mw.m.Where = tr.translateGroup(mw.where)
	}
	return u, nil
}

// modifyWhere is the WHERE clause of a DELETE/INSERT operation.
type modifyWhere struct {
	m     *Modify
	where *groupPattern
}

func (p *parser) prologue() {
	for {
		switch {
		case p.acceptKw("BASE"):
			t := p.adv()
			if t.kind != tIRI {
				panic(p.errf(t, "expected an IRI after BASE"))
			}
			p.base = p.resolve(t.val)
		case p.acceptKw("PREFIX"):
			t := p.adv()
			if t.kind != tPName || t.val2 != "" {
				panic(p.errf(t, "expected a prefix name like ex: after PREFIX"))
			}
			iri := p.adv()
			if iri.kind != tIRI {
				panic(p.errf(iri, "expected an IRI after PREFIX %s:", t.val))
			}
			p.prefixes[t.val] = p.resolve(iri.val)
		default:
			return
		}
	}
}

func (p *parser) resolve(iri string) string {
	if p.base == "" {
		return iri
	}
	return graph.ResolveIRI(p.base, iri)
}

// ResolveIRI resolves ref against base (RFC 3986 §5.2), the same way the
// RDF parsers do.
func ResolveIRI(base, ref string) string { return graph.ResolveIRI(base, ref) }

func (p *parser) iriTok(t token) string {
	switch t.kind {
	case tIRI:
		return p.resolve(t.val)
	case tPName:
		ns, ok := p.prefixes[t.val]
		if !ok {
			panic(p.errf(t, "undefined prefix %q", t.val+":"))
		}
		return ns + t.val2
	}
	panic(p.errf(t, "expected an IRI, found %s", t))
}

func (p *parser) isIRI() bool { k := p.tok().kind; return k == tIRI || k == tPName }

func (p *parser) iri() string { return p.iriTok(p.adv()) }

// ---- queries ----

func (p *parser) query() *querySyntax {
	switch {
	case p.isKw("SELECT"):
		return p.selectQuery(false)
	case p.isKw("CONSTRUCT"):
		return p.constructQuery()
	case p.isKw("ASK"):
		p.adv()
		q := &querySyntax{form: Ask, sel: selectClause{star: true}}
		p.datasetClauses(q)
		p.acceptKw("WHERE")
		q.where = p.groupGraphPattern()
		q.mods = p.solutionModifier()
		q.base = p.base
		return q
	case p.isKw("DESCRIBE"):
		p.adv()
		q := &querySyntax{form: Describe, sel: selectClause{star: true}}
		if !p.acceptP("*") {
			for p.tok().kind == tVar || p.isIRI() {
				if p.tok().kind == tVar {
					q.describe = append(q.describe, Term{Var: p.adv().val})
				} else {
					q.describe = append(q.describe, Term{Term: graph.IRI(p.iri())})
				}
			}
			if len(q.describe) == 0 {
				panic(p.errf(p.tok(), "DESCRIBE needs '*', variables or IRIs"))
			}
		}
		p.datasetClauses(q)
		if p.acceptKw("WHERE") || p.isP("{") {
			q.where = p.groupGraphPattern()
		}
		q.mods = p.solutionModifier()
		q.base = p.base
		return q
	}
	panic(p.errf(p.tok(), "expected SELECT, CONSTRUCT, ASK or DESCRIBE, found %s", p.tok()))
}

// selectQuery parses a SELECT query, or with sub a SubSelect (no dataset
// clauses).
func (p *parser) selectQuery(sub bool) *querySyntax {
	p.expectKw("SELECT")
	q := &querySyntax{form: Select}
	if p.acceptKw("DISTINCT") {
		q.sel.distinct = true
	} else if p.acceptKw("REDUCED") {
		q.sel.reduced = true
	}
	if p.acceptP("*") {
		q.sel.star = true
	} else {
		q.sel.items = p.selectItems()
	}
	if !sub {
		p.datasetClauses(q)
	}
	p.acceptKw("WHERE")
	q.where = p.groupGraphPattern()
	q.mods = p.solutionModifier()
	q.base = p.base
	return q
}

// selectItems parses the variables and (expression AS ?var) of a select
// clause.
func (p *parser) selectItems() []selectItem {
	var items []selectItem
	for {
		t := p.tok()
		switch {
		case t.kind == tVar:
			p.adv()
			items = append(items, selectItem{v: t.val, tok: t})
		case p.isP("("):
			p.adv()
			p.aggOK = true
			e := p.expression()
			p.aggOK = false
			p.expectKw("AS")
			v := p.adv()
			if v.kind != tVar {
				panic(p.errf(v, "expected a variable after AS"))
			}
			p.expectP(")")
			items = append(items, selectItem{v: v.val, expr: e, tok: t})
		default:
			if len(items) == 0 {
				panic(p.errf(p.tok(), "expected '*', variables or (expression AS ?var) after SELECT"))
			}
			return items
		}
	}
}

func (p *parser) datasetClauses(q *querySyntax) {
	for p.acceptKw("FROM") {
		if p.acceptKw("NAMED") {
			q.fromNamed = append(q.fromNamed, p.iri())
		} else {
			q.from = append(q.from, p.iri())
		}
	}
}

func (p *parser) constructQuery() *querySyntax {
	p.expectKw("CONSTRUCT")
	q := &querySyntax{form: Construct, sel: selectClause{star: true}}
	if p.isP("{") {
		p.adv()
		q.template = p.triplesTemplate("}")
		p.expectP("}")
		p.datasetClauses(q)
		p.acceptKw("WHERE")
		q.where = p.groupGraphPattern()
	} else {
		// CONSTRUCT WHERE { template }: the template is the pattern
		p.datasetClauses(q)
		p.expectKw("WHERE")
		p.expectP("{")
		p.groupID++
		p.curGroup = p.groupID
		q.template = p.triplesTemplateAsPattern("}")
		p.expectP("}")
	}
	q.mods = p.solutionModifier()
	q.base = p.base
	return q
}

// ---- graph patterns ----

// groupGraphPattern parses '{' GroupGraphPatternSub '}' or a sub-select.
func (p *parser) groupGraphPattern() *groupPattern {
	p.enter()
	defer p.leave()
	open := p.tok()
	p.expectP("{")
	if p.isKw("SELECT") {
		q := p.selectQuery(true)
		p.expectP("}")
		return &groupPattern{open: open, sub: q}
	}
	p.groupID++
	parentGroup := p.curGroup
	p.curGroup = p.groupID
	defer func() { p.curGroup = parentGroup }()
	g := &groupPattern{open: open}
	for !p.isP("}") {
		t := p.tok()
		if t.kind == tEOF {
			panic(p.errf(open, "unclosed '{'"))
		}
		e, ok := p.groupElement()
		if !ok {
			items := p.triplesBlock()
			if len(items) == 0 {
				panic(p.errf(t, "unexpected %s in group graph pattern", t))
			}
			if prev := p.prev; !(prev.kind == tPunct && prev.val == ".") && p.startsTriples() {
				panic(p.errf(p.tok(), "expected '.' before %s", p.tok()))
			}
			if n := len(g.elems); n > 0 && g.elems[n-1].kind == elemTriples {
				g.elems[n-1].triple = append(g.elems[n-1].triple, items...)
			} else {
				g.elems = append(g.elems, groupElem{kind: elemTriples, triple: items, tok: t})
			}
			continue
		}
		g.elems = append(g.elems, e)
		if e.kind != elemFilter && e.kind != elemBind {
			// triples after OPTIONAL, MINUS, GRAPH, a group... form a new BGP
			p.groupID++
			p.curGroup = p.groupID
		}
		p.acceptP(".")
	}
	p.expectP("}")
	return g
}

// groupElement parses the element of a group graph pattern that starts
// at the current token, unless that is a triples block (ok false).
func (p *parser) groupElement() (e groupElem, ok bool) {
	e.tok = p.tok()
	switch {
	case p.acceptKw("FILTER"):
		e.kind, e.expr = elemFilter, p.constraint()
	case p.acceptKw("OPTIONAL"):
		e.kind, e.group = elemOptional, p.groupGraphPattern()
	case p.acceptKw("MINUS"):
		e.kind, e.group = elemMinus, p.groupGraphPattern()
	case p.acceptKw("BIND"):
		p.expectP("(")
		e.kind, e.expr = elemBind, p.expression()
		p.expectKw("AS")
		v := p.adv()
		if v.kind != tVar {
			panic(p.errf(v, "expected a variable after AS"))
		}
		p.expectP(")")
		e.bindV, e.tok = v.val, v
	case p.acceptKw("VALUES"):
		e.kind, e.values = elemValues, p.dataBlock()
	case p.acceptKw("GRAPH"):
		name := p.varOrIRI()
		e.kind, e.name = elemGraph, &name
		e.group = p.groupGraphPattern()
	case p.acceptKw("SERVICE"):
		e.kind, e.silent = elemService, p.acceptKw("SILENT")
		name := p.varOrIRI()
		e.name = &name
		e.group = p.groupGraphPattern()
	case p.isP("{"):
		e.kind, e.union = elemUnion, []*groupPattern{p.groupGraphPattern()}
		for p.acceptKw("UNION") {
			e.union = append(e.union, p.groupGraphPattern())
		}
	default:
		return e, false
	}
	return e, true
}

func (p *parser) varOrIRI() Term {
	t := p.tok()
	if t.kind == tVar {
		p.adv()
		return Term{Var: t.val}
	}
	return Term{Term: graph.IRI(p.iri())}
}

func (p *parser) dataBlock() *Values {
	v := &Values{}
	if p.tok().kind == tVar {
		v.Vars = []string{p.adv().val}
		p.expectP("{")
		for !p.isP("}") {
			v.Rows = append(v.Rows, []graph.Term{p.dataValue()})
		}
		p.adv()
		return v
	}
	p.expectP("(")
	for p.tok().kind == tVar {
		v.Vars = append(v.Vars, p.adv().val)
	}
	p.expectP(")")
	p.expectP("{")
	for !p.isP("}") {
		open := p.tok()
		p.expectP("(")
		var row []graph.Term
		for !p.isP(")") {
			row = append(row, p.dataValue())
		}
		p.adv()
		if len(row) != len(v.Vars) {
			panic(p.errf(open, "VALUES row has %d values for %d variables", len(row), len(v.Vars)))
		}
		v.Rows = append(v.Rows, row)
	}
	p.adv()
	return v
}

func (p *parser) dataValue() graph.Term {
	if p.acceptKw("UNDEF") {
		return graph.Term{}
	}
	t := p.tok()
	term, ok := p.tryLiteralOrIRI()
	if !ok {
		panic(p.errf(t, "expected an IRI, a literal or UNDEF in VALUES, found %s", t))
	}
	return term
}

// tryLiteralOrIRI parses an IRI, RDF literal, numeric or boolean literal.
func (p *parser) tryLiteralOrIRI() (graph.Term, bool) {
	t := p.tok()
	switch t.kind {
	case tIRI, tPName:
		return graph.IRI(p.iri()), true
	case tString:
		return p.rdfLiteral(), true
	case tInteger, tDecimal, tDouble:
		p.adv()
		return numLit(t.kind, t.val), true
	case tName:
		if strings.EqualFold(t.val, "true") || strings.EqualFold(t.val, "false") {
			p.adv()
			return graph.Literal(strings.ToLower(t.val), graph.XSDBoolean), true
		}
	case tPunct:
		if (t.val == "+" || t.val == "-") && isNumTok(p.peek(1)) && p.peek(1).off == t.off+1 {
			p.adv()
			n := p.adv()
			return numLit(n.kind, t.val+n.val), true
		}
	}
	return graph.Term{}, false
}

func isNumTok(t token) bool { return t.kind == tInteger || t.kind == tDecimal || t.kind == tDouble }

func numLit(k tokKind, s string) graph.Term {
	switch k {
	case tInteger:
		return graph.Literal(s, graph.XSDInteger)
	case tDecimal:
		return graph.Literal(s, graph.XSDDecimal)
	}
	return graph.Literal(s, graph.XSDDouble)
}

func (p *parser) rdfLiteral() graph.Term {
	s := p.adv()
	if p.tok().kind == tLangTag {
		return graph.LangLiteral(s.val, p.adv().val)
	}
	if p.acceptP("^^") {
		return graph.Literal(s.val, p.iri())
	}
	return graph.String(s.val)
}

// ---- triples ----

// triplesBlock parses TriplesSameSubjectPath ('.' TriplesSameSubjectPath?)*.
func (p *parser) triplesBlock() []patternItem {
	var out []patternItem
	for p.startsTriples() {
		out = p.triplesSameSubject(out, true)
		if !p.acceptP(".") {
			break
		}
	}
	return out
}

func (p *parser) startsTriples() bool {
	t := p.tok()
	switch t.kind {
	case tVar, tIRI, tPName, tBNode, tString, tInteger, tDecimal, tDouble:
		return true
	case tName:
		return strings.EqualFold(t.val, "true") || strings.EqualFold(t.val, "false")
	case tPunct:
		return t.val == "[" || t.val == "(" || ((t.val == "+" || t.val == "-") && isNumTok(p.peek(1)))
	}
	return false
}

func (p *parser) triplesSameSubject(out []patternItem, paths bool) []patternItem {
	if p.isP("[") && !(p.peek(1).kind == tPunct && p.peek(1).val == "]") {
		var s Term
		s, out = p.blankNodePropertyList(out, paths)
		if p.startsVerb(paths) {
			out = p.propertyList(s, out, paths)
		}
		return out
	}
	if p.isP("(") && !(p.peek(1).kind == tPunct && p.peek(1).val == ")") {
		var s Term
		s, out = p.collection(out, paths)
		if p.startsVerb(paths) {
			out = p.propertyList(s, out, paths)
		}
		return out
	}
	s := p.varOrTerm()
	if !p.startsVerb(paths) {
		panic(p.errf(p.tok(), "expected a predicate, found %s", p.tok()))
	}
	return p.propertyList(s, out, paths)
}

func (p *parser) startsVerb(paths bool) bool {
	t := p.tok()
	switch t.kind {
	case tVar, tIRI, tPName:
		return true
	case tName:
		return t.val == "a"
	case tPunct:
		return paths && (t.val == "^" || t.val == "!" || t.val == "(")
	}
	return false
}

func (p *parser) propertyList(s Term, out []patternItem, paths bool) []patternItem {
	for {
		var pred Term
		var path Path
		if p.tok().kind == tVar {
			pred = Term{Var: p.adv().val}
			if !p.terms.varsAllowed() {
				panic(p.errf(p.prev, "variables are not allowed in data"))
			}
		} else if paths {
			path = p.path()
			if iri, ok := path.(*PathIRI); ok {
				pred, path = Term{Term: graph.IRI(iri.IRI)}, nil
			}
		} else if p.isKw("a") {
			p.adv()
			pred = Term{Term: graph.IRI(graph.RDFType)}
		} else {
			pred = Term{Term: graph.IRI(p.iri())}
		}
		for {
			var o Term
			o, out = p.graphNode(out, paths)
			out = append(out, patternItem{s: s, p: pred, path: path, o: o})
			if !p.acceptP(",") {
				break
			}
		}
		if !p.acceptP(";") {
			return out
		}
		for p.acceptP(";") {
		}
		if !p.startsVerb(paths) {
			return out
		}
	}
}

func (p *parser) graphNode(out []patternItem, paths bool) (Term, []patternItem) {
	if p.isP("[") && !(p.peek(1).kind == tPunct && p.peek(1).val == "]") {
		return p.blankNodePropertyList(out, paths)
	}
	if p.isP("(") && !(p.peek(1).kind == tPunct && p.peek(1).val == ")") {
		return p.collection(out, paths)
	}
	return p.varOrTerm(), out
}

func (p *parser) blankNodePropertyList(out []patternItem, paths bool) (Term, []patternItem) {
	p.enter()
	defer p.leave()
	p.expectP("[")
	s := p.anonNode()
	if !p.startsVerb(paths) {
		panic(p.errf(p.tok(), "expected a predicate in '[ ... ]'"))
	}
	out = p.propertyList(s, out, paths)
	p.expectP("]")
	return s, out
}

func (p *parser) collection(out []patternItem, paths bool) (Term, []patternItem) {
	p.enter()
	defer p.leave()
	p.expectP("(")
	var items []Term
	for !p.isP(")") {
		if p.tok().kind == tEOF {
			panic(p.errf(p.tok(), "unclosed collection"))
		}
		var n Term
		n, out = p.graphNode(out, paths)
		items = append(items, n)
	}
	p.adv()
	head := p.anonNode()
	cur := head
	for i, it := range items {
		out = append(out, patternItem{s: cur, p: Term{Term: graph.IRI(graph.RDFFirst)}, o: it})
		var next Term
		if i == len(items)-1 {
			next = Term{Term: graph.IRI(graph.RDFNil)}
		} else {
			next = p.anonNode()
		}
		out = append(out, patternItem{s: cur, p: Term{Term: graph.IRI(graph.RDFRest)}, o: next})
		cur = next
	}
	return head, out
}

// anonNode returns a fresh blank node: a variable in query patterns, a
// blank term in templates and data.
func (p *parser) anonNode() Term {
	if !p.terms.bnodesAllowed() {
		panic(p.errf(p.tok(), "blank nodes are not allowed here"))
	}
	p.anonCount++
	label := fmt.Sprintf("_anon%d", p.anonCount)
	if p.terms.blankTerms() {
		return Term{Term: graph.Blank(label)}
	}
	p.newVar(p.tok())
	return Term{Var: "_:" + label}
}

func (p *parser) varOrTerm() Term {
	t := p.tok()
	switch t.kind {
	case tVar:
		if !p.terms.varsAllowed() {
			panic(p.errf(t, "variables are not allowed in data"))
		}
		p.adv()
		return Term{Var: t.val}
	case tBNode:
		p.adv()
		if !p.terms.bnodesAllowed() {
			panic(p.errf(t, "blank nodes are not allowed here"))
		}
		if p.terms == termsInsertData {
			if op, ok := p.dataBnodes[t.val]; ok && op != p.opIndex {
				panic(p.errf(t, "blank node _:%s is used in two update operations", t.val))
			}
			p.dataBnodes[t.val] = p.opIndex
		} else if !p.terms.blankTerms() {
			if g, ok := p.bnodeUse[t.val]; ok && g != p.curGroup {
				panic(p.errf(t, "blank node _:%s is used in two different graph patterns", t.val))
			}
			p.bnodeUse[t.val] = p.curGroup
		}
		if p.terms.blankTerms() {
			return Term{Term: graph.Blank(t.val)}
		}
		return Term{Var: "_:" + t.val}
	case tPunct:
		if t.val == "[" && p.peek(1).kind == tPunct && p.peek(1).val == "]" {
			p.adv()
			p.adv()
			return p.anonNode()
		}
		if t.val == "(" && p.peek(1).kind == tPunct && p.peek(1).val == ")" {
			p.adv()
			p.adv()
			return Term{Term: graph.IRI(graph.RDFNil)}
		}
	}
	if term, ok := p.tryLiteralOrIRI(); ok {
		return Term{Term: term}
	}
	panic(p.errf(t, "expected a variable or an RDF term, found %s", t))
}

// ---- property paths ----

func (p *parser) path() Path {
	p.enter()
	defer p.leave()
	l := p.pathSeq()
	for p.acceptP("|") {
		r := p.pathSeq()
		l = wrap(p, Path(&PathAlt{L: l, R: r}), l, r)
	}
	return l
}

func (p *parser) pathSeq() Path {
	l := p.pathEltOrInverse()
	for p.acceptP("/") {
		r := p.pathEltOrInverse()
		l = wrap(p, Path(&PathSeq{L: l, R: r}), l, r)
	}
	return l
}

func (p *parser) pathEltOrInverse() Path {
	if p.acceptP("^") {
		e := p.pathElt()
		return wrap(p, &PathInv{P: e}, e)
	}
	return p.pathElt()
}

func (p *parser) pathElt() Path {
	prim := p.pathPrimary()
	switch {
	case p.isP("*"):
		p.adv()
		return wrap(p, &PathZeroOrMore{P: prim}, prim)
	case p.isP("+"):
		p.adv()
		return wrap(p, &PathOneOrMore{P: prim}, prim)
	case p.isP("?"):
		p.adv()
		return wrap(p, &PathZeroOrOne{P: prim}, prim)
	}
	return prim
}

func (p *parser) pathPrimary() Path {
	switch {
	case p.isKw("a"):
		p.adv()
		return &PathIRI{IRI: graph.RDFType}
	case p.acceptP("!"):
		neg := &PathNeg{}
		one := func() {
			inv := p.acceptP("^")
			iri := graph.RDFType
			if !p.acceptKw("a") {
				iri = p.iri()
			}
			if inv {
				neg.Inv = append(neg.Inv, iri)
			} else {
				neg.Fwd = append(neg.Fwd, iri)
			}
		}
		if p.acceptP("(") {
			if !p.isP(")") {
				one()
				for p.acceptP("|") {
					one()
				}
			}
			p.expectP(")")
		} else {
			one()
		}
		return neg
	case p.acceptP("("):
		x := p.path()
		p.expectP(")")
		return x
	}
	return &PathIRI{IRI: p.iri()}
}

// ---- templates ----

// triplesTemplate parses triples whose blank nodes are template blank nodes.
func (p *parser) triplesTemplate(end string) []TriplePattern {
	defer p.setTerms(termsTemplate)()
	return p.plainTriples()
}

// plainTriples parses triples without property paths.
func (p *parser) plainTriples() []TriplePattern {
	var out []TriplePattern
	for p.startsTriples() {
		items := p.triplesSameSubject(nil, false)
		for _, it := range items {
			out = append(out, TriplePattern{S: it.s, P: it.p, O: it.o})
		}
		if !p.acceptP(".") {
			break
		}
	}
	return out
}

// triplesTemplateAsPattern parses the template of CONSTRUCT WHERE: blank
// nodes act as variables in the pattern.
func (p *parser) triplesTemplateAsPattern(end string) []TriplePattern {
	out := p.plainTriples()
	if !p.isP(end) {
		panic(p.errf(p.tok(), "CONSTRUCT WHERE allows only triple patterns, found %s", p.tok()))
	}
	return out
}

// ---- expressions ----

func (p *parser) constraint() Expr {
	if p.isP("(") {
		return p.bracketted()
	}
	if p.isBuiltinCallStart() || p.isIRI() {
		return p.primary()
	}
	panic(p.errf(p.tok(), "expected a constraint, found %s", p.tok()))
}

func (p *parser) bracketted() Expr {
	p.expectP("(")
	e := p.expression()
	p.expectP(")")
	return e
}

func (p *parser) expression() Expr {
	p.enter()
	defer p.leave()
	return p.leftAssoc(p.andExpr, "||")
}

func (p *parser) andExpr() Expr { return p.leftAssoc(p.relExpr, "&&") }

func (p *parser) relExpr() Expr {
	l := p.addExpr()
	t := p.tok()
	if t.kind == tPunct {
		switch t.val {
		case "=", "!=", "<", ">", "<=", ">=":
			p.adv()
			return call(p, t.val, l, p.addExpr())
		}
	}
	if p.isKw("IN") {
		p.adv()
		return call(p, "IN", append([]Expr{l}, p.exprList()...)...)
	}
	if p.isKw("NOT") && p.isKwAt(1, "IN") {
		p.adv()
		p.adv()
		return call(p, "NOT IN", append([]Expr{l}, p.exprList()...)...)
	}
	return l
}

func (p *parser) exprList() []Expr {
	p.expectP("(")
	var out []Expr
	if p.acceptP(")") {
		return out
	}
	for {
		out = append(out, p.expression())
		if !p.acceptP(",") {
			break
		}
	}
	p.expectP(")")
	return out
}

func (p *parser) addExpr() Expr { return p.leftAssoc(p.mulExpr, "+", "-") }

func (p *parser) mulExpr() Expr { return p.leftAssoc(p.unary, "*", "/") }

// leftAssoc parses next (op next)* for the given operators.
func (p *parser) leftAssoc(next func() Expr, ops ...string) Expr {
	l := next()
	for {
		t := p.tok()
		if t.kind != tPunct || !slices.Contains(ops, t.val) {
			return l
		}
		p.adv()
		l = call(p, t.val, l, next())
	}
}

func (p *parser) unary() Expr {
	t := p.tok()
	if t.kind == tPunct {
		op := ""
		switch t.val {
		case "!":
			op = "!"
		case "-":
			op = "u-"
		case "+":
			op = "u+"
		}
		if op != "" {
			p.adv()
			p.enter()
			defer p.leave()
			return call(p, op, p.unary())
		}
	}
	return p.primary()
}

var builtins = map[string]int{ // name -> arity (-1 variadic, -2 = 1 or 2, -3 = 2 or 3, -4 = 3 or 4)
	"STR": 1, "LANG": 1, "LANGMATCHES": 2, "DATATYPE": 1, "BOUND": 1, "IRI": 1, "URI": 1,
	"BNODE": -5, "RAND": 0, "ABS": 1, "CEIL": 1, "FLOOR": 1, "ROUND": 1, "CONCAT": -6,
	"SUBSTR": -3, "STRLEN": 1, "REPLACE": -4, "UCASE": 1, "LCASE": 1, "ENCODE_FOR_URI": 1,
	"CONTAINS": 2, "STRSTARTS": 2, "STRENDS": 2, "STRBEFORE": 2, "STRAFTER": 2,
	"YEAR": 1, "MONTH": 1, "DAY": 1, "HOURS": 1, "MINUTES": 1, "SECONDS": 1, "TIMEZONE": 1, "TZ": 1,
	"NOW": 0, "UUID": 0, "STRUUID": 0, "MD5": 1, "SHA1": 1, "SHA256": 1, "SHA384": 1, "SHA512": 1,
	"COALESCE": -6, "IF": 3, "STRLANG": 2, "STRDT": 2, "SAMETERM": 2, "ISIRI": 1, "ISURI": 1,
	"ISBLANK": 1, "ISLITERAL": 1, "ISNUMERIC": 1, "REGEX": -3 - 10,
}

// operators are the Call.Op names of the operators.
var operators = []string{"||", "&&", "=", "!=", "<", ">", "<=", ">=", "+", "-", "*", "/", "!", "u-", "u+", "IN", "NOT IN"}

// CallNames returns every Call.Op the parser gives an operator or a
// built-in function (URI and isURI are called IRI and ISIRI), so that an
// evaluator can check that it knows them all.
func CallNames() []string {
	names := slices.Clone(operators)
	for name := range builtins {
		if name != "URI" && name != "ISURI" {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

var aggregateNames = map[string]bool{"COUNT": true, "SUM": true, "MIN": true, "MAX": true, "AVG": true, "SAMPLE": true, "GROUP_CONCAT": true}

func (p *parser) isBuiltinCallStart() bool {
	t := p.tok()
	if t.kind != tName {
		return false
	}
	u := strings.ToUpper(t.val)
	if _, ok := builtins[u]; ok {
		return true
	}
	return aggregateNames[u] || u == "EXISTS" || (u == "NOT" && p.isKwAt(1, "EXISTS"))
}

func (p *parser) primary() Expr {
	t := p.tok()
	switch t.kind {
	case tVar:
		p.adv()
		return &ExprVar{Name: t.val}
	case tIRI, tPName:
		iri := p.iri()
		if p.isP("(") {
			return p.functionCall(iri, t)
		}
		return &ExprTerm{Term: graph.IRI(iri)}
	case tString, tInteger, tDecimal, tDouble:
		term, _ := p.tryLiteralOrIRI()
		return &ExprTerm{Term: term}
	case tPunct:
		if t.val == "(" {
			return p.bracketted()
		}
	case tName:
		u := strings.ToUpper(t.val)
		if u == "TRUE" || u == "FALSE" {
			p.adv()
			return &ExprTerm{Term: graph.Literal(strings.ToLower(u), graph.XSDBoolean)}
		}
		if aggregateNames[u] {
			return p.aggregate()
		}
		if u == "EXISTS" || u == "NOT" {
			p.adv()
			not := u == "NOT"
			if not {
				p.expectKw("EXISTS")
			}
			savedAgg := p.aggOK
			p.aggOK = false
			g := p.groupGraphPattern()
			p.aggOK = savedAgg
			return &existsSyntax{not: not, g: g, tok: t}
		}
		if arity, ok := builtins[u]; ok {
			p.adv()
			if u == "URI" {
				u = "IRI"
			}
			if u == "ISURI" {
				u = "ISIRI"
			}
			var args []Expr
			if u == "NOW" || u == "RAND" || u == "UUID" || u == "STRUUID" || (u == "BNODE" && p.peek(1).kind == tPunct && p.peek(1).val == ")") {
				p.expectP("(")
				p.expectP(")")
			} else {
				args = p.exprList()
			}
			if !arityOK(arity, len(args)) {
				panic(p.errf(t, "wrong number of arguments to %s", u))
			}
			c := call(p, u, args...)
			c.Pos = t.pos
			return c
		}
	}
	panic(p.errf(t, "expected an expression, found %s", t))
}

func arityOK(arity, n int) bool {
	switch arity {
	case -1:
		return n >= 1
	case -3:
		return n == 2 || n == 3
	case -4:
		return n == 3 || n == 4
	case -5:
		return n <= 1
	case -6:
		return true
	case -13:
		return n == 2 || n == 3
	}
	return n == arity
}

func (p *parser) functionCall(iri string, t token) Expr {
	p.expectP("(")
	if p.acceptP(")") {
		c := call(p, iri)
		c.Pos = t.pos
		return c
	}
	if p.acceptKw("DISTINCT") {
		panic(p.errf(t, "DISTINCT is only allowed in aggregates"))
	}
	var args []Expr
	for {
		args = append(args, p.expression())
		if !p.acceptP(",") {
			break
		}
	}
	p.expectP(")")
	c := call(p, iri, args...)
	c.Pos = t.pos
	return c
}

func (p *parser) aggregate() Expr {
	t := p.adv()
	if !p.aggOK {
		panic(p.errf(t, "aggregate %s is not allowed here", strings.ToUpper(t.val)))
	}
	a := &Aggregate{Name: strings.ToUpper(t.val)}
	p.expectP("(")
	a.Distinct = p.acceptKw("DISTINCT")
	p.aggOK = false
	if a.Name == "COUNT" && p.acceptP("*") {
		// COUNT(*)
	} else {
		a.Arg = p.expression()
	}
	if a.Name == "GROUP_CONCAT" {
		a.Separator = " "
		if p.acceptP(";") {
			p.expectKw("SEPARATOR")
			p.expectP("=")
			s := p.adv()
			if s.kind != tString {
				panic(p.errf(s, "expected a string after SEPARATOR="))
			}
			a.Separator = s.val
		}
	}
	p.expectP(")")
	p.aggOK = true
	p.deep(a, a.Arg)
	// the translation binds it to a variable of its own
	p.newVar(p.tok())
	return a
}

// ---- updates ----

func (p *parser) updateOp() UpdateOp {
	t := p.tok()
	switch {
	case p.acceptKw("LOAD"):
		l := &Load{Silent: p.acceptKw("SILENT")}
		l.Source = p.iri()
		if p.acceptKw("INTO") {
			p.expectKw("GRAPH")
			l.Into = p.iri()
		}
		return l
	case p.acceptKw("CLEAR"):
		c := &Clear{Silent: p.acceptKw("SILENT")}
		c.Target = p.graphRefAll()
		return c
	case p.acceptKw("DROP"):
		d := &Drop{Silent: p.acceptKw("SILENT")}
		d.Target = p.graphRefAll()
		return d
	case p.acceptKw("CREATE"):
		c := &Create{Silent: p.acceptKw("SILENT")}
		p.expectKw("GRAPH")
		c.Graph = p.iri()
		return c
	case p.isKw("ADD") || p.isKw("MOVE") || p.isKw("COPY"):
		op := strings.ToUpper(p.adv().val)
		x := &Transfer{Op: op, Silent: p.acceptKw("SILENT")}
		x.From = p.graphOrDefault()
		p.expectKw("TO")
		x.To = p.graphOrDefault()
		return x
	case p.isKw("INSERT") && p.isKwAt(1, "DATA"):
		p.adv()
		p.adv()
		return &InsertData{Quads: p.quadData(false)}
	case p.isKw("DELETE") && p.isKwAt(1, "DATA"):
		p.adv()
		p.adv()
		return &DeleteData{Quads: p.quadData(true)}
	case p.isKw("DELETE") && p.isKwAt(1, "WHERE"):
		p.adv()
		p.adv()
		restore := p.setTerms(termsDeletePattern)
		q := p.quadPattern()
		restore()
		if len(q) >= p.maxDepth {
			// its quads become one pattern to match (see bgp)
			panic(p.errf(t, "nesting deeper than %d: DELETE WHERE has %d quad patterns", p.maxDepth, len(q)))
		}
		// DELETE WHERE's pattern uses variables; templates see them as such.
		return &DeleteWhere{Quads: q}
	case p.isKw("WITH") || p.isKw("DELETE") || p.isKw("INSERT"):
		m := &Modify{}
		if p.acceptKw("WITH") {
			m.With = p.iri()
		}
		if p.acceptKw("DELETE") {
			restore := p.setTerms(termsDeletePattern)
			m.Delete = p.quadPattern()
			restore()
			if p.acceptKw("INSERT") {
				m.Insert = p.templateQuads()
			}
		} else {
			p.expectKw("INSERT")
			m.Insert = p.templateQuads()
		}
		for p.acceptKw("USING") {
			m.HasUsing = true
			if p.acceptKw("NAMED") {
				m.UsingNamed = append(m.UsingNamed, p.iri())
			} else {
				m.Using = append(m.Using, p.iri())
			}
		}
		p.expectKw("WHERE")
		p.modifyWheres = append(p.modifyWheres, modifyWhere{m, p.groupGraphPattern()})
		return m
	}
	panic(p.errf(t, "expected an update operation, found %s", t))
}

func (p *parser) templateQuads() []QuadPattern {
	defer p.setTerms(termsTemplate)()
	return p.quadPattern()
}

func (p *parser) graphRefAll() GraphTarget {
	switch {
	case p.acceptKw("DEFAULT"):
		return GraphTarget{Kind: TargetDefault}
	case p.acceptKw("NAMED"):
		return GraphTarget{Kind: TargetNamed}
	case p.acceptKw("ALL"):
		return GraphTarget{Kind: TargetAll}
	case p.acceptKw("GRAPH"):
		return GraphTarget{Kind: TargetIRI, IRI: p.iri()}
	}
	panic(p.errf(p.tok(), "expected GRAPH <iri>, DEFAULT, NAMED or ALL, found %s", p.tok()))
}

func (p *parser) graphOrDefault() GraphTarget {
	if p.acceptKw("DEFAULT") {
		return GraphTarget{Kind: TargetDefault}
	}
	p.acceptKw("GRAPH")
	return GraphTarget{Kind: TargetIRI, IRI: p.iri()}
}

func (p *parser) quadData(isDelete bool) []QuadPattern {
	mode := termsInsertData
	if isDelete {
		mode = termsDeleteData
	}
	defer p.setTerms(mode)()
	return p.quadPattern()
}

// quadPattern parses '{' Quads '}'.
func (p *parser) quadPattern() []QuadPattern {
	p.expectP("{")
	p.groupID++
	p.curGroup = p.groupID
	var out []QuadPattern
	add := func(g Term, ts []patternItem) {
		for _, it := range ts {
			out = append(out, QuadPattern{S: it.s, P: it.p, O: it.o, G: g})
		}
	}
	for !p.isP("}") {
		if p.acceptKw("GRAPH") {
			var g Term
			if p.tok().kind == tVar {
				if !p.terms.varsAllowed() {
					panic(p.errf(p.tok(), "variables are not allowed in data"))
				}
				g = Term{Var: p.adv().val}
			} else {
				g = Term{Term: graph.IRI(p.iri())}
			}
			p.expectP("{")
			for p.startsTriples() {
				add(g, p.triplesSameSubject(nil, false))
				if !p.acceptP(".") {
					break
				}
			}
			p.expectP("}")
			p.acceptP(".")
			continue
		}
		if !p.startsTriples() {
			panic(p.errf(p.tok(), "expected triples or GRAPH, found %s", p.tok()))
		}
		add(Term{}, p.triplesSameSubject(nil, false))
		if !p.acceptP(".") && !p.isP("}") && !p.isKw("GRAPH") {
			panic(p.errf(p.tok(), "expected '.' or '}', found %s", p.tok()))
		}
	}
	p.adv()
	return out
}
