package bpmn

import (
	"fmt"
	"strconv"
	"strings"
)

// maxExprNesting bounds the nesting of one JUEL expression (parentheses,
// operators, calls), so that the recursive-descent parser and the
// evaluator, which follow the same tree, stay shallow.
const maxExprNesting = 100

// maxExprLen bounds the source of one expression.
const maxExprLen = 64 << 10

// Expr is a compiled JUEL value or method expression as Camunda and
// Operaton accept them in BPMN attributes and condition expressions: text
// with ${…} or #{…} parts, or plain text. It is immutable and safe for
// concurrent use. Compile it once (CompileExpr, or Parse does it for every
// expression of a definition) and evaluate it many times with Eval.
type Expr struct {
	src   string
	parts []exprPart
}

// exprPart is literal text (n == nil) or one ${…}.
type exprPart struct {
	text string
	n    node
}

// ExprError is an expression that does not compile or fails to evaluate.
// Expr is the expression's source (an excerpt of at most 200 bytes) and
// Column its 1-based byte column in it (0 for evaluation errors).
type ExprError struct {
	Expr   string
	Column int
	Msg    string
	pos    int
}

func (e *ExprError) Error() string {
	if e.Column > 0 {
		return fmt.Sprintf("bpmn: expression %q: column %d: %s", e.Expr, e.Column, e.Msg)
	}
	return fmt.Sprintf("bpmn: expression %q: %s", e.Expr, e.Msg)
}

// excerpt shortens s to at most n bytes on a rune boundary, marking the cut.
func excerpt(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && s[i]&0xC0 == 0x80 {
		i--
	}
	return s[:i] + "…"
}

// CompileExpr compiles src. Text without ${ or #{ is a literal; \${ is a
// literal "${". The subset: literals (strings, integers, decimals, true,
// false, null), identifiers, property access (a.b, a["b"], list[0]), the
// method calls of execution (hasVariable, getVariable, …) and of decision
// results (getSingleResult, getEntry, …), the operators == != < > <= >=
// eq ne lt gt le ge, && || and or, ! not, empty, + - * / % div mod, unary
// minus and ?:. Anything else (functions, lambdas, assignments, unknown
// methods) is an *ExprError naming the expression.
func CompileExpr(src string) (*Expr, error) {
	e := &Expr{src: src}
	if len(src) > maxExprLen {
		return nil, &ExprError{Expr: excerpt(src, 200), Msg: fmt.Sprintf("longer than %d bytes", maxExprLen)}
	}
	var lit strings.Builder
	i := 0
	for i < len(src) {
		if src[i] == '\\' && i+2 < len(src) && (src[i+1] == '$' || src[i+1] == '#') && src[i+2] == '{' {
			lit.WriteString(src[i+1 : i+3])
			i += 3
			continue
		}
		if (src[i] == '$' || src[i] == '#') && i+1 < len(src) && src[i+1] == '{' {
			end := closingBrace(src, i+2)
			if end < 0 {
				return nil, exprErr(src, i, "unterminated "+src[i:i+2]+"…}")
			}
			toks, lerr := lexJUEL(src, i+2, end)
			if lerr != nil {
				return nil, exprErr(src, lerr.pos, lerr.Msg)
			}
			p := &exprParser{toks: toks}
			n, perr := p.parse()
			if perr != nil {
				return nil, exprErr(src, perr.pos, perr.Msg)
			}
			if lit.Len() > 0 {
				e.parts = append(e.parts, exprPart{text: lit.String()})
				lit.Reset()
			}
			e.parts = append(e.parts, exprPart{n: n})
			i = end + 1
			continue
		}
		lit.WriteByte(src[i])
		i++
	}
	if lit.Len() > 0 || len(e.parts) == 0 {
		e.parts = append(e.parts, exprPart{text: lit.String()})
	}
	return e, nil
}

func exprErr(src string, pos int, msg string) *ExprError {
	return &ExprError{Expr: excerpt(src, 200), Column: pos + 1, Msg: msg}
}

// closingBrace finds the } that ends an expression starting at i, skipping
// string literals.
func closingBrace(src string, i int) int {
	for i < len(src) {
		switch c := src[i]; c {
		case '}':
			return i
		case '\'', '"':
			i++
			for i < len(src) && src[i] != c {
				if src[i] == '\\' {
					i++
				}
				i++
			}
		}
		i++
	}
	return -1
}

// String returns the expression's source.
func (e *Expr) String() string { return e.src }

// Literal returns the text of an expression without ${…} parts.
func (e *Expr) Literal() (string, bool) {
	if len(e.parts) == 1 && e.parts[0].n == nil {
		return e.parts[0].text, true
	}
	return "", false
}

// The AST. Every node carries its byte offset in the source for errors.
type node interface{ offset() int }

type (
	litNode struct {
		pos int
		v   any
	}
	identNode struct {
		pos  int
		name string
	}
	propNode struct {
		pos  int
		x    node
		name string
	}
	indexNode struct {
		pos    int
		x, idx node
	}
	callNode struct {
		pos  int
		x    node
		name string
		args []node
	}
	unaryNode struct {
		pos int
		op  string // "-", "!", "empty"
		x   node
	}
	binaryNode struct {
		pos  int
		op   string // normalised: == != < > <= >= && || + - * / %
		x, y node
	}
	condNode struct {
		pos     int
		c, a, b node
	}
)

func (n *litNode) offset() int    { return n.pos }
func (n *identNode) offset() int  { return n.pos }
func (n *propNode) offset() int   { return n.pos }
func (n *indexNode) offset() int  { return n.pos }
func (n *callNode) offset() int   { return n.pos }
func (n *unaryNode) offset() int  { return n.pos }
func (n *binaryNode) offset() int { return n.pos }
func (n *condNode) offset() int   { return n.pos }

// methods lists the method names an expression may call: those of
// execution and of decision results (Operaton's DmnDecisionResult and
// DmnDecisionResultEntries, which are Java lists and maps).
var methods = map[string]bool{
	// execution (the …Local forms read the same scope: Variables has no
	// notion of locality)
	"hasVariable": true, "getVariable": true, "hasVariableLocal": true, "getVariableLocal": true,
	"getProcessBusinessKey": true, "getBusinessKey": true, "getProcessInstanceId": true,
	"getId": true, "getActivityId": true, "getProcessDefinitionId": true, "getTenantId": true,
	// decision results, entries, lists and maps
	"getSingleResult": true, "getFirstResult": true, "getResultList": true, "getSingleEntry": true,
	"collectEntries": true, "getEntry": true, "getFirstEntry": true, "get": true,
	"containsKey": true, "size": true, "isEmpty": true,
}

// Binary operator precedence levels, loosest first; word operators are
// normalised to their symbols.
var binaryLevels = [][]string{
	{"||"},
	{"&&"},
	{"==", "!="},
	{"<", ">", "<=", ">="},
	{"+", "-"},
	{"*", "/", "%"},
}

var wordOps = map[string]string{
	"or": "||", "and": "&&", "eq": "==", "ne": "!=", "lt": "<", "gt": ">", "le": "<=", "ge": ">=",
	"div": "/", "mod": "%",
}

type exprParser struct {
	toks  []token
	i     int
	depth int
}

func (p *exprParser) peek() token { return p.toks[p.i] }
func (p *exprParser) next() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *exprParser) fail(t token, format string, args ...any) *ExprError {
	return &ExprError{pos: t.pos, Msg: fmt.Sprintf(format, args...)}
}

func describe(t token) string {
	switch t.kind {
	case tEOF:
		return "end of expression"
	case tString:
		return "string " + strconv.Quote(excerpt(t.text, 40))
	}
	return "'" + t.text + "'"
}

func (p *exprParser) parse() (node, *ExprError) {
	if p.peek().kind == tEOF {
		return nil, p.fail(p.peek(), "empty expression")
	}
	n, err := p.cond()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		return nil, p.fail(t, "unexpected %s", describe(t))
	}
	return n, nil
}

func (p *exprParser) enter(t token) *ExprError {
	p.depth++
	if p.depth > maxExprNesting {
		return p.fail(t, "nesting deeper than %d", maxExprNesting)
	}
	return nil
}

func (p *exprParser) cond() (node, *ExprError) {
	if err := p.enter(p.peek()); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	c, err := p.binary(0)
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind == tOp && t.text == "?" {
		p.next()
		a, err := p.cond()
		if err != nil {
			return nil, err
		}
		if t := p.next(); t.kind != tOp || t.text != ":" {
			return nil, p.fail(t, "expected ':' in conditional, found %s", describe(t))
		}
		b, err := p.cond()
		if err != nil {
			return nil, err
		}
		return &condNode{pos: t.pos, c: c, a: a, b: b}, nil
	}
	return c, nil
}

func (p *exprParser) binaryOp(level int) (string, bool) {
	t := p.peek()
	op := t.text
	switch t.kind {
	case tKeyword:
		w, ok := wordOps[op]
		if !ok {
			return "", false
		}
		op = w
	case tOp:
	default:
		return "", false
	}
	for _, o := range binaryLevels[level] {
		if o == op {
			return op, true
		}
	}
	return "", false
}

// binary parses the operators of one precedence level, left-associative;
// the loop keeps a long chain (a && b && c …) from deepening the stack.
func (p *exprParser) binary(level int) (node, *ExprError) {
	if level == len(binaryLevels) {
		return p.unary()
	}
	x, err := p.binary(level + 1)
	if err != nil {
		return nil, err
	}
	for {
		op, ok := p.binaryOp(level)
		if !ok {
			return x, nil
		}
		t := p.next()
		y, err := p.binary(level + 1)
		if err != nil {
			return nil, err
		}
		x = &binaryNode{pos: t.pos, op: op, x: x, y: y}
	}
}

func (p *exprParser) unary() (node, *ExprError) {
	t := p.peek()
	op := ""
	switch {
	case t.kind == tOp && (t.text == "-" || t.text == "!"):
		op = t.text
	case t.kind == tKeyword && t.text == "not":
		op = "!"
	case t.kind == tKeyword && t.text == "empty":
		op = "empty"
	}
	if op == "" {
		return p.postfix()
	}
	p.next()
	if err := p.enter(t); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	x, err := p.unary()
	if err != nil {
		return nil, err
	}
	return &unaryNode{pos: t.pos, op: op, x: x}, nil
}

func (p *exprParser) postfix() (node, *ExprError) {
	x, err := p.primary()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		if t.kind != tOp {
			return x, nil
		}
		switch t.text {
		case ".":
			p.next()
			name := p.next()
			if name.kind != tIdent && name.kind != tKeyword {
				return nil, p.fail(name, "expected a property name after '.', found %s", describe(name))
			}
			if a := p.peek(); a.kind == tOp && a.text == "(" {
				if !methods[name.text] {
					return nil, p.fail(name, "unsupported method %s()", name.text)
				}
				args, err := p.args()
				if err != nil {
					return nil, err
				}
				x = &callNode{pos: name.pos, x: x, name: name.text, args: args}
				continue
			}
			x = &propNode{pos: name.pos, x: x, name: name.text}
		case "[":
			p.next()
			if err := p.enter(t); err != nil {
				return nil, err
			}
			idx, err := p.cond()
			p.depth--
			if err != nil {
				return nil, err
			}
			if c := p.next(); c.kind != tOp || c.text != "]" {
				return nil, p.fail(c, "expected ']', found %s", describe(c))
			}
			x = &indexNode{pos: t.pos, x: x, idx: idx}
		case "(":
			return nil, p.fail(t, "function calls are not supported")
		default:
			return x, nil
		}
	}
}

func (p *exprParser) args() ([]node, *ExprError) {
	open := p.next()
	if err := p.enter(open); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	var args []node
	if t := p.peek(); t.kind == tOp && t.text == ")" {
		p.next()
		return nil, nil
	}
	for {
		a, err := p.cond()
		if err != nil {
			return nil, err
		}
		args = append(args, a)
		t := p.next()
		if t.kind == tOp && t.text == ")" {
			return args, nil
		}
		if t.kind != tOp || t.text != "," {
			return nil, p.fail(t, "expected ',' or ')' in arguments, found %s", describe(t))
		}
	}
}

func (p *exprParser) primary() (node, *ExprError) {
	t := p.next()
	switch t.kind {
	case tInt:
		v, err := strconv.ParseInt(t.text, 10, 64)
		if err != nil {
			return nil, p.fail(t, "integer %s out of range", t.text)
		}
		return &litNode{pos: t.pos, v: v}, nil
	case tFloat:
		v, err := strconv.ParseFloat(t.text, 64)
		if err != nil {
			return nil, p.fail(t, "number %s out of range", t.text)
		}
		return &litNode{pos: t.pos, v: v}, nil
	case tString:
		return &litNode{pos: t.pos, v: t.text}, nil
	case tKeyword:
		switch t.text {
		case "true":
			return &litNode{pos: t.pos, v: true}, nil
		case "false":
			return &litNode{pos: t.pos, v: false}, nil
		case "null":
			return &litNode{pos: t.pos, v: nil}, nil
		}
		return nil, p.fail(t, "unexpected %s", describe(t))
	case tIdent:
		if n := p.peek(); n.kind == tOp && n.text == ":" && p.i+1 < len(p.toks) && p.toks[p.i+1].kind == tIdent {
			return nil, p.fail(t, "functions (%s:…) are not supported", t.text)
		}
		return &identNode{pos: t.pos, name: t.text}, nil
	case tOp:
		if t.text == "(" {
			if err := p.enter(t); err != nil {
				return nil, err
			}
			x, err := p.cond()
			p.depth--
			if err != nil {
				return nil, err
			}
			if c := p.next(); c.kind != tOp || c.text != ")" {
				return nil, p.fail(c, "expected ')', found %s", describe(c))
			}
			return x, nil
		}
	}
	return nil, p.fail(t, "unexpected %s", describe(t))
}
