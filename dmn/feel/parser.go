package feel

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// Scope tells the parser and compiler what is known around an expression.
// FEEL names may contain spaces, keywords and the symbols . / - ' + *, so
// the parser must know the variable names in scope to split "Loan-to-Value
// ratio - 1" correctly. Names not listed are still parsed: adjacent words
// join into one name.
type Scope struct {
	// Names are the variable names visible to the expression.
	Names []string
	// Types resolves type names (item definitions) for "instance of" and
	// typed function parameters. Nil: only FEEL's built-in types.
	Types func(name string) (*Type, bool)
}

type bailout struct{}

// MaxNesting bounds how deeply an expression may nest: brackets, if, for,
// quantifiers, function definitions, calls, filters, unary minus and
// comparison tests each open a level, and so does each operator of a chain
// such as a + b + c (as go/parser counts them), since the syntax tree, the
// compiler and evaluation all recurse that deep. Deeper text is a
// positioned syntax error, never a stack overflow.
const MaxNesting = 1000

type parser struct {
	src   string
	tok   token
	err   *Error
	names map[string][]string // first word -> candidate names, longest first
	scope *Scope
	depth int // nesting levels open; see MaxNesting
}

// enter opens a nesting level at the current token. A function that
// enters restores the depth it started with on return:
// defer p.restore(p.depth).
func (p *parser) enter() {
	p.depth++
	if p.depth > MaxNesting {
		p.fail(p.tok.start, "expression nested deeper than %d levels", MaxNesting)
	}
}

func (p *parser) restore(depth int) { p.depth = depth }

// builtinNameIndex indexes the names of built-in functions and types that
// contain spaces; it is immutable after package initialisation.
var builtinNameIndex map[string][]string

func init() {
	builtinTable = newBuiltinTable()
	builtinNameIndex = newBuiltinNameIndex()
}

func newBuiltinNameIndex() map[string][]string {
	idx := map[string][]string{}
	add := func(n string) {
		fw := firstWord(n)
		if fw == "" || fw == n {
			return
		}
		idx[fw] = append(idx[fw], n)
	}
	for n := range builtinTable {
		add(n)
	}
	for _, n := range []string{"date and time", "days and time duration", "years and months duration", "time offset",
		"start included", "end included"} {
		add(n)
	}
	for k := range idx {
		sortLongestFirst(idx[k])
	}
	return idx
}

func sortLongestFirst(s []string) {
	sort.Slice(s, func(i, j int) bool {
		if len(s[i]) != len(s[j]) {
			return len(s[i]) > len(s[j])
		}
		return s[i] < s[j]
	})
}

func firstWord(name string) string {
	t := scan(name, 0)
	if t.kind != tIdent {
		return ""
	}
	return t.text
}

func newParser(src string, scope *Scope) *parser {
	p := &parser{src: src, scope: scope}
	if scope != nil && len(scope.Names) > 0 {
		p.names = map[string][]string{}
		for _, n := range scope.Names {
			p.addName(n)
		}
	}
	p.tok = scan(src, 0)
	return p
}

func (p *parser) addName(n string) {
	fw := firstWord(n)
	if fw == "" || fw == n {
		return
	}
	if p.names == nil {
		p.names = map[string][]string{}
	}
	for _, e := range p.names[fw] {
		if e == n {
			return
		}
	}
	p.names[fw] = append(p.names[fw], n)
	sortLongestFirst(p.names[fw])
}

func (p *parser) next() { p.tok = scan(p.src, p.tok.end) }

func (p *parser) resetTo(off int) { p.tok = scan(p.src, off) }

func (p *parser) peek() token { return scan(p.src, p.tok.end) }

func pos(off int) Pos { return Pos(off + 1) }

func (p *parser) fail(off int, format string, args ...any) {
	if p.err == nil {
		p.err = &Error{Pos: PositionOf(p.src, pos(off)), Msg: fmt.Sprintf(format, args...)}
	}
	panic(bailout{})
}

func (p *parser) failTok(what string) {
	switch p.tok.kind {
	case tIllegal:
		p.fail(p.tok.start, "%s", p.tok.err)
	case tEOF:
		p.fail(p.tok.start, "expected %s, found end of expression", what)
	}
	p.fail(p.tok.start, "expected %s, found %q", what, p.src[p.tok.start:p.tok.end])
}

func (p *parser) expect(k tokKind) token {
	t := p.tok
	if t.kind != k {
		p.failTok(fmt.Sprintf("%q", k.String()))
	}
	p.next()
	return t
}

func (p *parser) isWord(w string) bool { return p.tok.kind == tIdent && p.tok.text == w }

func (p *parser) expectWord(w string) token {
	if !p.isWord(w) {
		p.failTok(fmt.Sprintf("%q", w))
	}
	t := p.tok
	p.next()
	return t
}

func (p *parser) run(f func() Node) (n Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
			n, err = nil, ErrorList{p.err}
		}
	}()
	n = f()
	if p.tok.kind != tEOF {
		p.failTok("end of expression")
	}
	return n, nil
}

// ParseExpr parses a FEEL expression. scope may be nil. The error is an
// ErrorList of positioned errors.
func ParseExpr(src string, scope *Scope) (Node, error) {
	p := newParser(src, scope)
	return p.run(p.parseExpression)
}

// ParseUnaryTests parses the unary tests of a decision table input entry
// (or an allowed-values list). An empty text means "any" (as "-").
func ParseUnaryTests(src string, scope *Scope) (*UnaryTests, error) {
	p := newParser(src, scope)
	n, err := p.run(p.parseUnaryTests)
	if err != nil {
		return nil, err
	}
	return n.(*UnaryTests), nil
}

func (p *parser) parseUnaryTests() Node {
	ut := &UnaryTests{From: pos(p.tok.start)}
	if p.tok.kind == tEOF {
		ut.Any = true
		ut.To = pos(p.tok.start)
		return ut
	}
	if p.tok.kind == tMinus && p.peek().kind == tEOF {
		ut.Any = true
		ut.To = pos(p.tok.end)
		p.next()
		return ut
	}
	if p.isWord("not") && p.peek().kind == tLParen {
		save := p.tok.start
		p.next()
		p.next()
		tests := p.parseTestList(tRParen)
		end := p.expect(tRParen)
		if p.tok.kind == tEOF {
			ut.Not = true
			ut.Tests = tests
			ut.To = pos(end.end)
			return ut
		}
		// not(...) was the start of a larger expression such as not(x) = y.
		p.resetTo(save)
	}
	ut.Tests = p.parseTestList(tEOF)
	ut.To = pos(p.tok.start)
	return ut
}

func (p *parser) parseTestList(stop tokKind) []Node {
	var tests []Node
	for {
		tests = append(tests, p.parsePositiveUnaryTest())
		if p.tok.kind != tComma {
			break
		}
		p.next()
	}
	if p.tok.kind != stop {
		p.failTok(`"," or ` + stop.String())
	}
	return tests
}

func (p *parser) parsePositiveUnaryTest() Node {
	switch p.tok.kind {
	case tLt, tLe, tGt, tGe, tEq, tNeq:
		return p.parseUnaryCompare()
	}
	return p.parseExpression()
}

func (p *parser) parseUnaryCompare() Node {
	defer p.restore(p.depth)
	p.enter()
	t := p.tok
	p.next()
	var op Op
	switch t.kind {
	case tLt:
		op = OpLt
	case tLe:
		op = OpLe
	case tGt:
		op = OpGt
	case tGe:
		op = OpGe
	case tEq:
		op = OpEq
	case tNeq:
		op = OpNeq
	}
	return &UnaryCompare{From: pos(t.start), Op: op, X: p.parseAdditive()}
}

func (p *parser) parseExpression() Node {
	defer p.restore(p.depth)
	p.enter()
	if p.tok.kind == tIdent {
		switch p.tok.text {
		case "if":
			return p.parseIf()
		case "for":
			if p.peek().kind == tIdent {
				return p.parseFor()
			}
		case "some", "every":
			if p.peek().kind == tIdent {
				return p.parseQuantified()
			}
		case "function":
			if p.peek().kind == tLParen {
				return p.parseFuncDef()
			}
		}
	}
	return p.parseOr()
}

func (p *parser) parseIf() Node {
	from := p.tok.start
	p.next()
	cond := p.parseExpression()
	p.expectWord("then")
	then := p.parseExpression()
	p.expectWord("else")
	els := p.parseExpression()
	return &If{From: pos(from), Cond: cond, Then: then, Else: els}
}

func (p *parser) parseIterations(end string) []Iteration {
	var its []Iteration
	for {
		npos := p.tok.start
		name := p.parseVarName("in")
		p.addName(name)
		p.expectWord("in")
		it := Iteration{Name: name, NamePos: pos(npos), In: p.parseExpression()}
		if p.tok.kind == tDotDot {
			p.next()
			it.To = p.parseExpression()
		}
		its = append(its, it)
		if p.tok.kind == tComma {
			p.next()
			continue
		}
		if !p.isWord(end) {
			p.failTok(`"," or "` + end + `"`)
		}
		return its
	}
}

// parseVarName reads a (possibly multi-word) variable name up to the keyword stop.
func (p *parser) parseVarName(stop string) string {
	if p.tok.kind != tIdent || p.tok.text == stop {
		p.failTok("name")
	}
	var words []string
	for p.tok.kind == tIdent && p.tok.text != stop {
		words = append(words, p.tok.text)
		p.next()
	}
	return strings.Join(words, " ")
}

func (p *parser) parseFor() Node {
	from := p.tok.start
	p.next()
	its := p.parseIterations("return")
	p.next()
	return &For{From: pos(from), Iters: its, Return: p.parseExpression()}
}

func (p *parser) parseQuantified() Node {
	from := p.tok.start
	every := p.tok.text == "every"
	p.next()
	its := p.parseIterations("satisfies")
	p.next()
	return &Quantified{From: pos(from), Every: every, Iters: its, Satisfies: p.parseExpression()}
}

func (p *parser) parseFuncDef() Node {
	from := p.tok.start
	p.next()
	p.expect(tLParen)
	var params []ParamDef
	for p.tok.kind != tRParen {
		name := p.readRawName(":,)")
		p.addName(name)
		pd := ParamDef{Name: name}
		if p.tok.kind == tColon {
			p.next()
			pd.Type = p.parseType()
		}
		params = append(params, pd)
		if p.tok.kind == tComma {
			p.next()
			continue
		}
		if p.tok.kind != tRParen {
			p.failTok(`"," or ")"`)
		}
	}
	p.next()
	fd := &FuncDef{From: pos(from), Params: params}
	if p.isWord("external") {
		p.next()
		fd.External = true
	}
	fd.Body = p.parseExpression()
	return fd
}

// readRawName reads a name (key, parameter name) as raw text up to one of
// the stop characters at the current position, collapsing white space. The
// name may contain characters that are not FEEL tokens (e.g. an apostrophe).
func (p *parser) readRawName(stops string) string {
	start := p.tok.start
	if p.tok.kind == tString {
		name := p.tok.text
		p.next()
		return name
	}
	if p.tok.kind != tIdent {
		p.failTok("name")
	}
	i := start
	for i < len(p.src) && !strings.ContainsRune(stops, rune(p.src[i])) {
		if strings.ContainsRune("{}[]()\",\n", rune(p.src[i])) {
			break
		}
		i++
	}
	raw := strings.Join(strings.Fields(p.src[start:i]), " ")
	if raw == "" {
		p.failTok("name")
	}
	p.resetTo(i)
	return raw
}

func (p *parser) parseOr() Node {
	defer p.restore(p.depth)
	x := p.parseAnd()
	for p.isWord("or") {
		op := p.tok.start
		p.next()
		p.enter()
		x = &Binary{Op: OpOr, OpPos: pos(op), X: x, Y: p.parseAnd()}
	}
	return x
}

func (p *parser) parseAnd() Node {
	defer p.restore(p.depth)
	x := p.parseComparison()
	for p.isWord("and") {
		op := p.tok.start
		p.next()
		p.enter()
		x = &Binary{Op: OpAnd, OpPos: pos(op), X: x, Y: p.parseComparison()}
	}
	return x
}

func (p *parser) parseComparison() Node {
	defer p.restore(p.depth)
	x := p.parseAdditive()
	for {
		var op Op
		switch p.tok.kind {
		case tEq:
			op = OpEq
		case tNeq:
			op = OpNeq
		case tLt:
			op = OpLt
		case tLe:
			op = OpLe
		case tGt:
			op = OpGt
		case tGe:
			op = OpGe
		case tIdent:
			switch p.tok.text {
			case "between":
				p.next()
				low := p.parseAdditive()
				p.expectWord("and")
				p.enter()
				x = &Between{X: x, Low: low, High: p.parseAdditive()}
				continue
			case "in":
				p.next()
				p.enter()
				x = p.parseInRHS(x)
				continue
			case "instance":
				if pk := p.peek(); pk.kind == tIdent && pk.text == "of" {
					p.next()
					p.next()
					p.enter()
					x = &InstanceOf{X: x, Type: p.parseType()}
					continue
				}
			}
			return x
		default:
			return x
		}
		opPos := p.tok.start
		p.next()
		p.enter()
		x = &Binary{Op: op, OpPos: pos(opPos), X: x, Y: p.parseAdditive()}
	}
}

func (p *parser) parseInRHS(x Node) Node {
	if p.tok.kind == tLParen {
		start := p.tok.start
		p.next()
		first := p.parsePositiveUnaryTest()
		if p.tok.kind == tDotDot {
			p.next()
			end := p.parseExpression()
			r := &RangeLit{From: pos(start), Low: first, High: end}
			switch p.tok.kind {
			case tRParen, tLBrack:
			case tRBrack:
				r.HighIncluded = true
			default:
				p.failTok(`")" or "]"`)
			}
			r.To = pos(p.tok.end)
			p.next()
			return &In{X: x, Tests: []Node{r}, To: r.To}
		}
		tests := []Node{first}
		for p.tok.kind == tComma {
			p.next()
			tests = append(tests, p.parsePositiveUnaryTest())
		}
		end := p.expect(tRParen)
		return &In{X: x, Tests: tests, To: pos(end.end)}
	}
	var t Node
	switch p.tok.kind {
	case tLt, tLe, tGt, tGe, tEq, tNeq:
		t = p.parseUnaryCompare()
	default:
		t = p.parseAdditive()
	}
	return &In{X: x, Tests: []Node{t}, To: t.End()}
}

func (p *parser) parseAdditive() Node {
	defer p.restore(p.depth)
	x := p.parseMultiplicative()
	for p.tok.kind == tPlus || p.tok.kind == tMinus {
		op := OpAdd
		if p.tok.kind == tMinus {
			op = OpSub
		}
		opPos := p.tok.start
		p.next()
		p.enter()
		x = &Binary{Op: op, OpPos: pos(opPos), X: x, Y: p.parseMultiplicative()}
	}
	return x
}

func (p *parser) parseMultiplicative() Node {
	defer p.restore(p.depth)
	x := p.parsePower()
	for p.tok.kind == tStar || p.tok.kind == tSlash {
		op := OpMul
		if p.tok.kind == tSlash {
			op = OpDiv
		}
		opPos := p.tok.start
		p.next()
		p.enter()
		x = &Binary{Op: op, OpPos: pos(opPos), X: x, Y: p.parsePower()}
	}
	return x
}

func (p *parser) parsePower() Node {
	defer p.restore(p.depth)
	x := p.parseUnary()
	for p.tok.kind == tStarStar {
		opPos := p.tok.start
		p.next()
		p.enter()
		x = &Binary{Op: OpPow, OpPos: pos(opPos), X: x, Y: p.parseUnary()}
	}
	return x
}

func (p *parser) parseUnary() Node {
	if p.tok.kind == tMinus {
		defer p.restore(p.depth)
		p.enter()
		from := p.tok.start
		p.next()
		return &Negation{From: pos(from), X: p.parseUnary()}
	}
	return p.parsePostfix()
}

func (p *parser) parsePostfix() Node {
	defer p.restore(p.depth)
	x := p.parsePrimary()
	for {
		switch p.tok.kind {
		case tDot:
			p.next()
			if p.tok.kind != tIdent {
				p.failTok("name")
			}
			name, end := p.parseMemberName()
			p.enter()
			x = &Path{X: x, Name: name, To: pos(end)}
		case tLBrack:
			if !canStartExpr(p.peek()) {
				// "]" / "[" closing an open range such as [1..10[
				return x
			}
			p.next()
			f := p.parseExpression()
			end := p.expect(tRBrack)
			p.enter()
			x = &Filter{X: x, Filter: f, To: pos(end.end)}
		case tLParen:
			p.enter()
			x = p.parseCall(x)
		default:
			return x
		}
	}
}

// parseMemberName reads the name after "." in a path: known names first,
// then adjacent words.
func (p *parser) parseMemberName() (string, int) {
	if name, end, ok := p.matchKnown(); ok {
		p.resetTo(end)
		return name, end
	}
	words := []string{p.tok.text}
	end := p.tok.end
	p.next()
	for p.tok.kind == tIdent && !isKeyword(p.tok.text) {
		words = append(words, p.tok.text)
		end = p.tok.end
		p.next()
	}
	return strings.Join(words, " "), end
}

// canStartExpr reports whether t can begin an expression.
func canStartExpr(t token) bool {
	switch t.kind {
	case tNumber, tString, tAt, tQMark, tLParen, tLBrack, tRBrack, tLBrace, tMinus, tLt, tLe, tGt, tGe:
		return true
	case tIdent:
		switch t.text {
		case "and", "or", "then", "else", "return", "satisfies", "in", "between", "instance", "of":
			return false
		}
		return true
	}
	return false
}

func (p *parser) parseCall(fn Node) Node {
	p.next() // (
	c := &Call{Fun: fn}
	if p.tok.kind == tRParen {
		c.To = pos(p.tok.end)
		p.next()
		return c
	}
	named := p.atNamedArg()
	for {
		if named {
			npos := p.tok.start
			if !p.atNamedArg() {
				p.failTok("named argument")
			}
			name := p.readRawName(":")
			p.expect(tColon)
			c.Named = append(c.Named, NamedArg{Name: name, NamePos: pos(npos), Value: p.parseExpression()})
		} else {
			c.Args = append(c.Args, p.parseExpression())
		}
		if p.tok.kind == tComma {
			p.next()
			continue
		}
		end := p.expect(tRParen)
		c.To = pos(end.end)
		return c
	}
}

// atNamedArg reports whether the current position starts "name:".
func (p *parser) atNamedArg() bool {
	if p.tok.kind != tIdent {
		return false
	}
	i := p.tok.start
	for i < len(p.src) {
		c := p.src[i]
		if c == ':' {
			return strings.TrimSpace(p.src[p.tok.start:i]) != ""
		}
		if strings.IndexByte("{}[](),\"<>=+*/!@-", c) >= 0 {
			return false
		}
		i++
	}
	return false
}

// matchKnown tries the known multi-word names at the current identifier,
// longest first, and returns the name and its end offset.
func (p *parser) matchKnown() (string, int, bool) {
	if p.tok.kind != tIdent {
		return "", 0, false
	}
	for _, idx := range []map[string][]string{p.names, builtinNameIndex} {
		for _, cand := range idx[p.tok.text] {
			if end, ok := matchNameAt(p.src, p.tok.start, cand); ok {
				return cand, end, true
			}
		}
	}
	return "", 0, false
}

// matchNameAt reports whether name occurs in src at off, where white space
// in the name matches any run of white space, and the match ends at a name boundary.
func matchNameAt(src string, off int, name string) (int, bool) {
	i, j := off, 0
	for j < len(name) {
		nc := name[j]
		if nc == ' ' {
			if i >= len(src) || !isSpaceByte(src[i]) {
				return 0, false
			}
			for i < len(src) && isSpaceByte(src[i]) {
				i++
			}
			for j < len(name) && name[j] == ' ' {
				j++
			}
			continue
		}
		if i >= len(src) || src[i] != nc {
			return 0, false
		}
		i++
		j++
	}
	if i < len(src) {
		r, _ := utf8.DecodeRuneInString(src[i:])
		last, _ := utf8.DecodeLastRuneInString(name)
		if isNamePart(r) && isNamePart(last) {
			return 0, false
		}
	}
	return i, true
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (p *parser) parsePrimary() Node {
	t := p.tok
	switch t.kind {
	case tNumber:
		p.next()
		d, err := ParseNumber(t.text)
		if err != nil {
			p.fail(t.start, "invalid number %q", t.text)
		}
		return &NumberLit{From: pos(t.start), To: pos(t.end), Text: t.text, Value: d}
	case tString:
		p.next()
		return &StringLit{From: pos(t.start), To: pos(t.end), Value: t.text}
	case tAt:
		p.next()
		s := p.expect(tString)
		return &TemporalLit{From: pos(t.start), To: pos(s.end), Text: s.text}
	case tQMark:
		p.next()
		return &Name{From: pos(t.start), To: pos(t.end), Name: "?"}
	case tLt, tLe, tGt, tGe, tEq, tNeq:
		return p.parseUnaryCompare()
	case tLParen:
		p.next()
		x := p.parsePositiveUnaryTest()
		if p.tok.kind == tDotDot {
			return p.finishRange(t.start, false, x)
		}
		p.expect(tRParen)
		return x
	case tRBrack:
		p.next()
		x := p.parseExpression()
		if p.tok.kind != tDotDot {
			p.failTok(`".."`)
		}
		return p.finishRange(t.start, false, x)
	case tLBrack:
		p.next()
		l := &List{From: pos(t.start)}
		if p.tok.kind == tRBrack {
			l.To = pos(p.tok.end)
			p.next()
			return l
		}
		x := p.parsePositiveUnaryTest()
		if p.tok.kind == tDotDot {
			return p.finishRange(t.start, true, x)
		}
		l.Elems = append(l.Elems, x)
		for p.tok.kind == tComma {
			p.next()
			l.Elems = append(l.Elems, p.parsePositiveUnaryTest())
		}
		end := p.expect(tRBrack)
		l.To = pos(end.end)
		return l
	case tLBrace:
		return p.parseContext()
	case tIdent:
		switch t.text {
		case "true", "false":
			p.next()
			return &BoolLit{From: pos(t.start), To: pos(t.end), Value: t.text == "true"}
		case "null":
			p.next()
			return &NullLit{From: pos(t.start), To: pos(t.end)}
		case "if":
			return p.parseIf()
		case "for":
			if p.peek().kind == tIdent {
				return p.parseFor()
			}
			p.failTok("expression")
		case "some", "every":
			if p.peek().kind == tIdent {
				return p.parseQuantified()
			}
			p.failTok("expression")
		case "function":
			if p.peek().kind == tLParen {
				return p.parseFuncDef()
			}
			p.failTok("expression")
		}
		if isKeyword(t.text) {
			if name, end, ok := p.matchKnown(); ok {
				p.resetTo(end)
				return &Name{From: pos(t.start), To: pos(end), Name: name}
			}
			p.failTok("expression")
		}
		if name, end, ok := p.matchKnown(); ok {
			p.resetTo(end)
			return &Name{From: pos(t.start), To: pos(end), Name: name}
		}
		words := []string{t.text}
		end := t.end
		p.next()
		for p.tok.kind == tIdent && !isKeyword(p.tok.text) {
			words = append(words, p.tok.text)
			end = p.tok.end
			p.next()
		}
		return &Name{From: pos(t.start), To: pos(end), Name: strings.Join(words, " ")}
	}
	p.failTok("expression")
	return nil
}

func (p *parser) finishRange(from int, startIncluded bool, start Node) Node {
	p.next() // ..
	end := p.parseExpression()
	r := &RangeLit{From: pos(from), Low: start, High: end, LowIncluded: startIncluded}
	switch p.tok.kind {
	case tRBrack:
		r.HighIncluded = true
	case tRParen, tLBrack:
	default:
		p.failTok(`"]", ")" or "["`)
	}
	r.To = pos(p.tok.end)
	p.next()
	return r
}

func (p *parser) parseContext() Node {
	from := p.tok.start
	p.next()
	c := &ContextLit{From: pos(from)}
	for p.tok.kind != tRBrace {
		kpos := p.tok.start
		key := p.readRawName(":")
		p.expect(tColon)
		p.addName(key)
		c.Entries = append(c.Entries, ContextEntry{Key: key, KeyPos: pos(kpos), Value: p.parseExpression()})
		if p.tok.kind == tComma {
			p.next()
			continue
		}
		if p.tok.kind != tRBrace {
			p.failTok(`"," or "}"`)
		}
	}
	c.To = pos(p.tok.end)
	p.next()
	return c
}

// parseType parses a type: a name (possibly with spaces or dots), or
// list<T>, range<T>, context<k: T, ...>, function<T, ...> -> T.
func (p *parser) parseType() TypeNode {
	defer p.restore(p.depth)
	p.enter()
	t := p.tok
	if t.kind != tIdent {
		p.failTok("type")
	}
	if pk := p.peek(); pk.kind == tLt {
		switch t.text {
		case "list", "range":
			p.next()
			p.next()
			elem := p.parseType()
			end := p.expect(tGt)
			if t.text == "list" {
				return &ListType{From: pos(t.start), To: pos(end.end), Elem: elem}
			}
			return &RangeType{From: pos(t.start), To: pos(end.end), Elem: elem}
		case "context":
			p.next()
			p.next()
			ct := &ContextType{From: pos(t.start)}
			for p.tok.kind != tGt {
				name := p.readRawName(":")
				p.expect(tColon)
				ct.Fields = append(ct.Fields, FieldType{Name: name, Type: p.parseType()})
				if p.tok.kind == tComma {
					p.next()
				} else if p.tok.kind != tGt {
					p.failTok(`"," or ">"`)
				}
			}
			ct.To = pos(p.tok.end)
			p.next()
			return ct
		case "function":
			p.next()
			p.next()
			ft := &FunctionType{From: pos(t.start)}
			for p.tok.kind != tGt {
				ft.Params = append(ft.Params, p.parseType())
				if p.tok.kind == tComma {
					p.next()
				} else if p.tok.kind != tGt {
					p.failTok(`"," or ">"`)
				}
			}
			p.next()
			p.expect(tArrow)
			ft.Result = p.parseType()
			ft.To = ft.Result.End()
			return ft
		}
	}
	if name, end, ok := p.matchKnown(); ok {
		p.resetTo(end)
		return &NamedType{From: pos(t.start), To: pos(end), Name: name}
	}
	name := t.text
	end := t.end
	p.next()
	for p.tok.kind == tDot {
		p.next()
		if p.tok.kind != tIdent {
			p.failTok("name")
		}
		name += "." + p.tok.text
		end = p.tok.end
		p.next()
	}
	return &NamedType{From: pos(t.start), To: pos(end), Name: name}
}
