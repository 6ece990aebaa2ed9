package memstore

import (
	"math"
	"math/bits"
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"

	"github.com/regelkit/regelkit/sparql/graph"
)

type numKind int

const (
	nInteger numKind = iota
	nDecimal
	nFloat
	nDouble
)

// num is a numeric value. Integers use i when small; big integers and
// decimals use d.
type num struct {
	kind  numKind
	small bool // integer held in i
	i     int64
	d     apd.Decimal
	f     float64
}

var decCtx = apd.BaseContext.WithPrecision(34)

var integerTypes = map[string]bool{
	graph.XSDInteger: true, graph.XSD + "int": true, graph.XSD + "long": true, graph.XSD + "short": true,
	graph.XSD + "byte": true, graph.XSD + "nonNegativeInteger": true, graph.XSD + "nonPositiveInteger": true,
	graph.XSD + "positiveInteger": true, graph.XSD + "negativeInteger": true, graph.XSD + "unsignedLong": true,
	graph.XSD + "unsignedInt": true, graph.XSD + "unsignedShort": true, graph.XSD + "unsignedByte": true,
}

func isNumericType(dt string) bool {
	return integerTypes[dt] || dt == graph.XSDDecimal || dt == graph.XSDDouble || dt == graph.XSD+"float"
}

func validInteger(s string) bool {
	s = trimSign(s)
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func trimSign(s string) string {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		return s[1:]
	}
	return s
}

func validDecimal(s string) bool {
	s = trimSign(s)
	dot := false
	digitsSeen := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			digitsSeen = true
		case c == '.' && !dot:
			dot = true
		default:
			return false
		}
	}
	return digitsSeen
}

func validDouble(s string) bool {
	switch s {
	case "INF", "-INF", "+INF", "NaN":
		return true
	}
	e := strings.IndexAny(s, "eE")
	if e < 0 {
		return validDecimal(s)
	}
	return validDecimal(s[:e]) && validInteger(s[e+1:])
}

// parseNum reads a numeric literal; ok is false for non-numeric terms and
// ill-formed lexical forms.
func parseNum(t graph.Term) (num, bool) {
	if t.Kind != graph.KindLiteral {
		return num{}, false
	}
	var n num
	switch {
	case integerTypes[t.Datatype]:
		if !validInteger(t.Value) {
			return n, false
		}
		n.kind = nInteger
		if v, err := strconv.ParseInt(t.Value, 10, 64); err == nil {
			n.small, n.i = true, v
			return n, true
		}
		if _, _, err := n.d.SetString(t.Value); err != nil {
			return n, false
		}
		return n, true
	case t.Datatype == graph.XSDDecimal:
		if !validDecimal(t.Value) {
			return n, false
		}
		n.kind = nDecimal
		v := t.Value
		if strings.HasSuffix(v, ".") {
			v += "0"
		}
		if strings.HasPrefix(trimSign(v), ".") {
			v = strings.Replace(v, ".", "0.", 1)
		}
		if _, _, err := n.d.SetString(v); err != nil {
			return n, false
		}
		return n, true
	case t.Datatype == graph.XSDDouble || t.Datatype == graph.XSD+"float":
		if !validDouble(t.Value) {
			return n, false
		}
		n.kind = nDouble
		if t.Datatype != graph.XSDDouble {
			n.kind = nFloat
		}
		f, err := parseFloatXSD(t.Value)
		if err != nil {
			return n, false
		}
		n.f = f
		return n, true
	}
	return n, false
}

func parseFloatXSD(s string) (float64, error) {
	switch s {
	case "INF", "+INF":
		return math.Inf(1), nil
	case "-INF":
		return math.Inf(-1), nil
	case "NaN":
		return math.NaN(), nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return f, nil
		}
	}
	return f, err
}

func (n *num) toDecimal() *apd.Decimal {
	if n.kind == nInteger && n.small {
		return apd.New(n.i, 0)
	}
	return &n.d
}

func (n *num) toFloat() float64 {
	switch n.kind {
	case nFloat, nDouble:
		return n.f
	case nInteger:
		if n.small {
			return float64(n.i)
		}
	}
	f, _ := n.d.Float64()
	return f
}

func intNum(i int64) num { return num{kind: nInteger, small: true, i: i} }

// term returns the canonical literal for n.
func (n num) term() graph.Term {
	switch n.kind {
	case nInteger:
		if n.small {
			return graph.Literal(strconv.FormatInt(n.i, 10), graph.XSDInteger)
		}
		return graph.Literal(n.d.Text('f'), graph.XSDInteger)
	case nDecimal:
		return graph.Literal(decimalLexical(&n.d), graph.XSDDecimal)
	case nFloat:
		return graph.Literal(doubleLexical(float64(float32(n.f)), 32), graph.XSD+"float")
	}
	return graph.Literal(doubleLexical(n.f, 64), graph.XSDDouble)
}

func decimalLexical(d *apd.Decimal) string {
	var r apd.Decimal
	r.Reduce(d)
	s := r.Text('f')
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	if s == "-0.0" {
		s = "0.0"
	}
	return s
}

// specialFloat returns the XSD spelling of infinities and NaN.
func specialFloat(f float64) (string, bool) {
	switch {
	case math.IsInf(f, 1):
		return "INF", true
	case math.IsInf(f, -1):
		return "-INF", true
	case math.IsNaN(f):
		return "NaN", true
	}
	return "", false
}

func doubleLexical(f float64, bitsize int) string {
	if s, ok := specialFloat(f); ok {
		return s
	}
	s := strconv.FormatFloat(f, 'E', -1, bitsize)
	mant, exp, _ := strings.Cut(s, "E")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	e, _ := strconv.Atoi(exp)
	return mant + "E" + strconv.Itoa(e)
}

// xpathString casts a number to a string the XPath way (canonical
// integer and decimal forms; doubles in plain notation between 1e-6 and
// 1e6).
func xpathString(n num) string {
	switch n.kind {
	case nInteger:
		return n.term().Value
	case nDecimal:
		s := decimalLexical(&n.d)
		return strings.TrimSuffix(s, ".0")
	}
	f := n.f
	if s, ok := specialFloat(f); ok {
		return s
	}
	switch {
	case f == 0:
		if math.Signbit(f) {
			return "-0"
		}
		return "0"
	}
	bitsize := 64
	if n.kind == nFloat {
		bitsize = 32
	}
	if a := math.Abs(f); a >= 1e-6 && a < 1e6 {
		return strconv.FormatFloat(f, 'f', -1, bitsize)
	}
	return doubleLexical(f, bitsize)
}

func promote(a, b *num) numKind {
	return max(a.kind, b.kind)
}

// arith applies + - * / to two numerics (XPath op:numeric-*).
func arith(op byte, a, b num) (num, bool) {
	k := promote(&a, &b)
	if op == '/' && k == nInteger {
		k = nDecimal
	}
	switch k {
	case nInteger:
		if a.small && b.small {
			switch op {
			case '+':
				if s, ok := addInt(a.i, b.i); ok {
					return intNum(s), true
				}
			case '-':
				if s, ok := addInt(a.i, -b.i); ok && b.i != math.MinInt64 {
					return intNum(s), true
				}
			case '*':
				hi, lo := bits.Mul64(uint64(abs64(a.i)), uint64(abs64(b.i)))
				if hi == 0 && lo <= math.MaxInt64 && a.i != math.MinInt64 && b.i != math.MinInt64 {
					return intNum(a.i * b.i), true
				}
			}
		}
		var r num
		r.kind = nInteger
		if !decOp(op, &r.d, a.toDecimal(), b.toDecimal()) {
			return r, false
		}
		if v, err := r.d.Int64(); err == nil {
			return intNum(v), true
		}
		return r, true
	case nDecimal:
		var r num
		r.kind = nDecimal
		if !decOp(op, &r.d, a.toDecimal(), b.toDecimal()) {
			return r, false
		}
		return r, true
	}
	x, y := a.toFloat(), b.toFloat()
	var f float64
	switch op {
	case '+':
		f = x + y
	case '-':
		f = x - y
	case '*':
		f = x * y
	case '/':
		f = x / y
	}
	if k == nFloat {
		f = float64(float32(f))
	}
	return num{kind: k, f: f}, true
}

func abs64(i int64) int64 {
	if i < 0 {
		return -i
	}
	return i
}

func addInt(a, b int64) (int64, bool) {
	s := a + b
	if (a > 0 && b > 0 && s < 0) || (a < 0 && b < 0 && s >= 0) {
		return 0, false
	}
	return s, true
}

func decOp(op byte, r, x, y *apd.Decimal) bool {
	var err error
	switch op {
	case '+':
		_, err = decCtx.Add(r, x, y)
	case '-':
		_, err = decCtx.Sub(r, x, y)
	case '*':
		_, err = decCtx.Mul(r, x, y)
	case '/':
		if y.IsZero() {
			return false
		}
		_, err = decCtx.Quo(r, x, y)
	}
	return err == nil
}

func cmpNum(a, b num) int {
	k := promote(&a, &b)
	switch k {
	case nInteger:
		if a.small && b.small {
			switch {
			case a.i < b.i:
				return -1
			case a.i > b.i:
				return 1
			}
			return 0
		}
		return a.toDecimal().Cmp(b.toDecimal())
	case nDecimal:
		return a.toDecimal().Cmp(b.toDecimal())
	}
	x, y := a.toFloat(), b.toFloat()
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	case x == y:
		return 0
	}
	return 2 // NaN: unordered
}

func (n *num) isZero() bool {
	switch n.kind {
	case nInteger:
		if n.small {
			return n.i == 0
		}
		return n.d.IsZero()
	case nDecimal:
		return n.d.IsZero()
	}
	return n.f == 0
}

func (n *num) isNaN() bool { return (n.kind == nFloat || n.kind == nDouble) && math.IsNaN(n.f) }

func (n num) neg() num {
	switch n.kind {
	case nInteger:
		if n.small && n.i != math.MinInt64 {
			return intNum(-n.i)
		}
		var r num
		r.kind = nInteger
		r.d.Neg(n.toDecimal())
		return r
	case nDecimal:
		var r num
		r.kind = nDecimal
		r.d.Neg(&n.d)
		return r
	}
	return num{kind: n.kind, f: -n.f}
}
