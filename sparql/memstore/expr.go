package memstore

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"

	"github.com/regelkit/regelkit/sparql/graph"
	"github.com/regelkit/regelkit/sparql/graph/xsdregexp"
	"github.com/regelkit/regelkit/sparql/memstore/internal/algebra"
)

// errType is the SPARQL expression error (type error, unbound variable).
var errType = errors.New("expression error")

// evalFn evaluates a compiled expression against one solution.
type evalFn func(x *exec, b binding, ag active) (graph.Term, error)

// exprKind tells plain variables and constants, which evalID and BOUND
// read without evaluating, from everything else.
type exprKind uint8

const (
	exprCall exprKind = iota
	exprVar
	exprConst
)

// cexpr is a compiled expression: its evaluator, chosen once at compile
// time from the function table (see funcs.go), so that the per-row path
// never dispatches on a name.
type cexpr struct {
	eval evalFn
	kind exprKind
	slot int        // the variable's slot (exprVar)
	val  graph.Term // the constant (exprConst)
	// constID caches the id of a constant within one execution (a
	// compiled expression lives as long as its execution)
	constID uint32
}

func (c *compiler) compileExpr(e algebra.Expr) *cexpr {
	switch e := e.(type) {
	case *algebra.ExprVar:
		slot := c.slot(e.Name)
		return &cexpr{kind: exprVar, slot: slot, eval: func(x *exec, b binding, _ active) (graph.Term, error) {
			if v := b[slot]; v != 0 {
				return x.term(v), nil
			}
			return graph.Term{}, errType
		}}
	case *algebra.ExprTerm:
		val := e.Term
		return &cexpr{kind: exprConst, val: val, eval: func(*exec, binding, active) (graph.Term, error) { return val, nil }}
	case *algebra.Exists:
		p, not := c.compile(e.P), e.Not
		return &cexpr{eval: func(x *exec, b binding, ag active) (graph.Term, error) {
			found := false
			p.run(x, ag, b, func(binding) bool { found = true; return false })
			if x.err != nil {
				return graph.Term{}, x.err
			}
			return boolTerm(found != not), nil
		}}
	case *algebra.Call:
		args := make([]*cexpr, len(e.Args))
		for i, a := range e.Args {
			args[i] = c.compileExpr(a)
		}
		return &cexpr{eval: c.compileCall(e, args)}
	}
	// aggregates are replaced by variables before compiling; anything
	// else is an expression error, as unbound variables are
	return &cexpr{eval: evalError}
}

// evalError is the evaluator of an expression that is always an error.
func evalError(*exec, binding, active) (graph.Term, error) { return graph.Term{}, errType }

// compileCall looks op up in the function table once and returns its
// evaluator. An unknown function or an invalid constant argument (a
// regular expression that does not compile) fails the compilation with a
// *SyntaxError at the call.
func (c *compiler) compileCall(call *algebra.Call, args []*cexpr) evalFn {
	compile, ok := functions[call.Op]
	if !ok {
		if cast, isCast := casts[call.Op]; isCast {
			compile = unary(cast)
		}
	}
	if compile == nil {
		c.fail(call, "unknown function <"+call.Op+">")
		return evalError
	}
	f, err := compile(c, args)
	if err != nil {
		c.fail(call, err.Error())
		return evalError
	}
	return f
}

// fail records a compile error at call; the evaluation reports it
// before running.
func (c *compiler) fail(call *algebra.Call, msg string) {
	c.x.fail(&SyntaxError{Line: call.Pos.Line, Column: call.Pos.Col, Msg: msg})
}

func isSimpleArg(e *cexpr) bool { return e.kind != exprCall }

// ebvTrue evaluates e and reports whether its effective boolean value is
// true (errors count as false).
func (x *exec) ebvTrue(e *cexpr, b binding, ag active) bool {
	v, err := e.eval(x, b, ag)
	if err != nil {
		return false
	}
	t, err := ebv(v)
	return err == nil && t
}

var (
	trueTerm  = graph.Literal("true", graph.XSDBoolean)
	falseTerm = graph.Literal("false", graph.XSDBoolean)
)

func boolTerm(b bool) graph.Term {
	if b {
		return trueTerm
	}
	return falseTerm
}

// ebv is the effective boolean value (SPARQL 1.1 §17.2.2).
func ebv(t graph.Term) (bool, error) {
	if t.Kind != graph.KindLiteral {
		return false, errType
	}
	switch {
	case t.Datatype == graph.XSDBoolean:
		v, _ := graph.BoolValue(t) // an ill-formed boolean is false
		return v, nil
	case t.Datatype == graph.XSDString:
		return t.Value != "", nil
	case isNumericType(t.Datatype):
		n, ok := parseNum(t)
		if !ok {
			return false, nil
		}
		return !n.isZero() && !n.isNaN(), nil
	}
	return false, errType
}

// evalID evaluates e to a term id; plain variables and constants need no
// decoding.
func (x *exec) evalID(e *cexpr, b binding, ag active) (uint32, error) {
	switch e.kind {
	case exprVar:
		if v := b[e.slot]; v != 0 {
			return v, nil
		}
		return 0, errType
	case exprConst:
		if e.constID == 0 {
			e.constID = x.idOf(e.val)
		}
		return e.constID, nil
	}
	v, err := e.eval(x, b, ag)
	if err != nil {
		return 0, err
	}
	return x.idOf(v), nil
}

// isResource reports whether id is an IRI or a blank node (terms whose
// equality is id equality).
func (x *exec) isResource(id uint32) bool {
	if id&overlayBit != 0 {
		return !x.ovTerms[id&^overlayBit].IsLiteral()
	}
	k := x.sn.dv.kindOf(id)
	return k == graph.KindIRI || k == graph.KindBlank
}

// isNaN reports whether t is a float or double NaN, the one literal that
// does not equal itself.
func isNaN(t graph.Term) bool {
	if !strings.Contains(t.Value, "NaN") {
		return false
	}
	f, ok := graph.Float64(t)
	return ok && math.IsNaN(f)
}

func (x *exec) eval(e *cexpr, b binding, ag active) (graph.Term, error) { return e.eval(x, b, ag) }

func (x *exec) evalEBV(e *cexpr, b binding, ag active) (bool, error) {
	v, err := e.eval(x, b, ag)
	if err != nil {
		return false, err
	}
	return ebv(v)
}

func newUUID() string {
	var u [16]byte
	_, _ = rand.Read(u[:])
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	h := hex.EncodeToString(u[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

func isStringLit(t graph.Term) bool {
	return t.Kind == graph.KindLiteral && (t.Datatype == graph.XSDString || t.Datatype == graph.RDFLangStr)
}

func isSimple(t graph.Term) bool {
	return t.Kind == graph.KindLiteral && t.Datatype == graph.XSDString
}

// strLike returns a literal with the same language tag or datatype as
// like and the text s.
func strLike(like graph.Term, s string) graph.Term {
	if like.Lang != "" {
		return graph.LangLiteral(s, like.Lang)
	}
	return graph.String(s)
}

// argCompatible implements the string argument compatibility rules
// (SPARQL 1.1 §17.4.3.1.2).
func argCompatible(a, b graph.Term) bool {
	if !isStringLit(a) || !isStringLit(b) {
		return false
	}
	return b.Lang == "" || a.Lang == b.Lang
}

// capped returns t, or an error (recording a LimitError) when its text
// is over MaxBytes.
func (x *exec) capped(t graph.Term) (graph.Term, error) {
	if x.tooLong(len(t.Value)) {
		return graph.Term{}, errType
	}
	return t, nil
}

// regexFail ends the query with a regular expression's budget error (a
// back-reference match past its MatchTimeout); other errors (a pattern
// matching the empty string, a bad replacement) are expression errors.
func (x *exec) regexFail(err error) error {
	var le *xsdregexp.LimitError
	if errors.As(err, &le) {
		if le.Limit == "MaxBytes" {
			// REPLACE ran into the query's own MaxBytes
			err = &LimitError{Limit: "MaxBytes", Max: le.Max}
		}
		x.fail(err)
		return err
	}
	return errType
}

func langMatches(tag, rng string) bool {
	if rng == "*" {
		return tag != ""
	}
	tag, rng = strings.ToLower(tag), strings.ToLower(rng)
	return tag == rng || strings.HasPrefix(tag, rng+"-")
}

func encodeForURI(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

func roundHalfUp(f float64) float64 { return math.Floor(f + 0.5) }

// roundMode is one of ABS, CEIL, FLOOR and ROUND.
type roundMode uint8

const (
	roundAbs roundMode = iota
	roundCeil
	roundFloor
	roundRound
)

func roundLike(op roundMode, n num) num {
	switch n.kind {
	case graph.NumericInteger:
		if op == roundAbs {
			if n.small && n.i < 0 && n.i != math.MinInt64 {
				return intNum(-n.i)
			}
			if !n.small {
				var r num
				r.kind = graph.NumericInteger
				r.d.Abs(&n.d)
				return r
			}
		}
		return n
	case graph.NumericDecimal:
		var r num
		r.kind = graph.NumericDecimal
		switch op {
		case roundAbs:
			r.d.Abs(&n.d)
		case roundCeil:
			_, _ = decCtx.Ceil(&r.d, &n.d)
		case roundFloor:
			_, _ = decCtx.Floor(&r.d, &n.d)
		case roundRound:
			half := apd.New(5, -1)
			var t apd.Decimal
			_, _ = decCtx.Add(&t, &n.d, half)
			_, _ = decCtx.Floor(&r.d, &t)
		}
		return r
	}
	f := n.f
	switch op {
	case roundAbs:
		f = math.Abs(f)
	case roundCeil:
		f = math.Ceil(f)
	case roundFloor:
		f = math.Floor(f)
	case roundRound:
		f = roundHalfUp(f)
	}
	return num{kind: n.kind, f: f}
}

// equalTerms implements '=' (value equality, falling back to RDFterm-equal).
func equalTerms(a, b graph.Term) (bool, error) {
	if a.Kind != graph.KindLiteral || b.Kind != graph.KindLiteral {
		return a == b, nil
	}
	switch graph.CompareLiterals(a, b) {
	case graph.Equal:
		return true, nil
	case graph.Less, graph.Greater, graph.Unordered:
		return false, nil
	}
	if a == b {
		return true, nil
	}
	// Literals of two different known types compare unequal; anything else
	// (unknown datatypes, ill-formed values) is an error.
	if a.Lang != "" || b.Lang != "" {
		// a language-tagged string never equals another literal
		return false, nil
	}
	if knownType(a) && knownType(b) && a.Datatype != b.Datatype && graph.WellFormed(a) && graph.WellFormed(b) {
		return false, nil
	}
	return false, errType
}

func knownType(t graph.Term) bool {
	switch t.Datatype {
	case graph.XSDString, graph.RDFLangStr, graph.XSDBoolean, graph.XSDDateTime, graph.XSDDate:
		return true
	}
	return isNumericType(t.Datatype)
}

// datePart is one of the accessors YEAR ... SECONDS, TIMEZONE and TZ.
type datePart uint8

const (
	partYear datePart = iota
	partMonth
	partDay
	partHours
	partMinutes
	partSeconds
	partTimezone
	partTZ
)

// dateTimePart implements the accessor part of xsd:dateTime (and the date
// ones of xsd:date).
func dateTimePart(part datePart) fn1 {
	return func(_ *exec, t graph.Term) (graph.Term, error) { return dateTimeAccess(part, t) }
}

func dateTimeAccess(op datePart, t graph.Term) (graph.Term, error) {
	fail := graph.Term{}
	if t.Datatype != graph.XSDDateTime && t.Datatype != graph.XSDDate {
		return fail, errType
	}
	dt, ok := graph.ParseDateTime(t)
	if !ok {
		return fail, errType
	}
	integer := func(n int) graph.Term { return graph.Literal(strconv.Itoa(n), graph.XSDInteger) }
	switch op {
	case partYear:
		return integer(dt.Year), nil
	case partMonth:
		return integer(dt.Month), nil
	case partDay:
		return integer(dt.Day), nil
	case partTimezone:
		off, ok := dt.ZoneOffset()
		if !ok {
			return fail, errType
		}
		return graph.Literal(zoneDuration(off), graph.XSD+"dayTimeDuration"), nil
	case partTZ:
		return graph.String(dt.Zone), nil
	}
	if t.Datatype == graph.XSDDate {
		return fail, errType
	}
	switch op {
	case partHours:
		return integer(dt.Hour), nil
	case partMinutes:
		return integer(dt.Minute), nil
	}
	sec := strconv.Itoa(dt.Second)
	if dt.Fraction != "" {
		sec += "." + dt.Fraction
	}
	var d apd.Decimal
	if _, _, err := d.SetString(sec); err != nil {
		return fail, errType
	}
	return graph.Literal(decimalLexical(&d), graph.XSDDecimal), nil
}

// zoneDuration writes a time zone offset in minutes as an
// xsd:dayTimeDuration: -PT5H, PT5H30M, PT0S.
func zoneDuration(minutes int) string {
	if minutes == 0 {
		return "PT0S"
	}
	d := "PT"
	if minutes < 0 {
		d, minutes = "-PT", -minutes
	}
	if h := minutes / 60; h > 0 {
		d += strconv.Itoa(h) + "H"
	}
	if m := minutes % 60; m > 0 {
		d += strconv.Itoa(m) + "M"
	}
	return d
}
