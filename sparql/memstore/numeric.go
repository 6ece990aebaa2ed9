package memstore

import (
	"math"
	"math/bits"
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"

	"github.com/regelkit/regelkit/sparql/graph"
)

// num is a numeric value of type kind. Integers use i when small; big
// integers and decimals use d; floats and doubles use f.
type num struct {
	kind  graph.NumericType
	small bool // integer held in i
	i     int64
	d     apd.Decimal
	f     float64
}

var decCtx = apd.BaseContext.WithPrecision(34)

func isNumericType(dt string) bool { return graph.NumericTypeOf(dt) != graph.NotNumeric }

// parseNum reads a numeric literal into the evaluation representation:
// the lexical check and the exact numeral or double come from graph, so
// the engine agrees with every other user of XSD values. ok is false for
// non-numeric terms and ill-formed lexical forms.
func parseNum(t graph.Term) (num, bool) {
	// DecimalString succeeds exactly for well-formed integers and
	// decimals and Float64 then for floats and doubles, so the datatype
	// needs no lookup of its own on this hot path.
	if s, ok := graph.DecimalString(t); ok {
		if t.Datatype == graph.XSDDecimal {
			n := num{kind: graph.NumericDecimal}
			_, _, err := n.d.SetString(s)
			return n, err == nil
		}
		// An int64 has at most 19 digits; longer numerals go straight to
		// apd rather than through a failing (allocating) ParseInt.
		if len(s) <= 20 {
			if v, err := strconv.ParseInt(s, 10, 64); err == nil {
				return intNum(v), true
			}
		}
		n := num{kind: graph.NumericInteger}
		_, _, err := n.d.SetString(s)
		return n, err == nil
	}
	f, ok := graph.Float64(t)
	if !ok {
		return num{}, false
	}
	if t.Datatype == graph.XSDDouble {
		return num{kind: graph.NumericDouble, f: f}, true
	}
	return num{kind: graph.NumericFloat, f: f}, true
}

func (n *num) toDecimal() *apd.Decimal {
	if n.kind == graph.NumericInteger && n.small {
		return apd.New(n.i, 0)
	}
	return &n.d
}

func (n *num) toFloat() float64 {
	switch n.kind {
	case graph.NumericFloat, graph.NumericDouble:
		return n.f
	case graph.NumericInteger:
		if n.small {
			return float64(n.i)
		}
	}
	f, _ := n.d.Float64()
	return f
}

func intNum(i int64) num { return num{kind: graph.NumericInteger, small: true, i: i} }

// term returns the canonical literal for n.
func (n num) term() graph.Term {
	switch n.kind {
	case graph.NumericInteger:
		if n.small {
			return graph.Literal(strconv.FormatInt(n.i, 10), graph.XSDInteger)
		}
		return graph.Literal(n.d.Text('f'), graph.XSDInteger)
	case graph.NumericDecimal:
		return graph.Literal(decimalLexical(&n.d), graph.XSDDecimal)
	case graph.NumericFloat:
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
	case graph.NumericInteger:
		return n.term().Value
	case graph.NumericDecimal:
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
	if n.kind == graph.NumericFloat {
		bitsize = 32
	}
	if a := math.Abs(f); a >= 1e-6 && a < 1e6 {
		return strconv.FormatFloat(f, 'f', -1, bitsize)
	}
	return doubleLexical(f, bitsize)
}

func promote(a, b *num) graph.NumericType {
	return max(a.kind, b.kind)
}

// arith applies + - * / to two numerics (XPath op:numeric-*).
func arith(op byte, a, b num) (num, bool) {
	k := promote(&a, &b)
	if op == '/' && k == graph.NumericInteger {
		k = graph.NumericDecimal
	}
	switch k {
	case graph.NumericInteger:
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
		r.kind = graph.NumericInteger
		if !decOp(op, &r.d, a.toDecimal(), b.toDecimal()) {
			return r, false
		}
		if v, err := r.d.Int64(); err == nil {
			return intNum(v), true
		}
		return r, true
	case graph.NumericDecimal:
		var r num
		r.kind = graph.NumericDecimal
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
	if k == graph.NumericFloat {
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

func (n *num) isZero() bool {
	switch n.kind {
	case graph.NumericInteger:
		if n.small {
			return n.i == 0
		}
		return n.d.IsZero()
	case graph.NumericDecimal:
		return n.d.IsZero()
	}
	return n.f == 0
}

func (n *num) isNaN() bool {
	return (n.kind == graph.NumericFloat || n.kind == graph.NumericDouble) && math.IsNaN(n.f)
}

func (n num) neg() num {
	switch n.kind {
	case graph.NumericInteger:
		if n.small && n.i != math.MinInt64 {
			return intNum(-n.i)
		}
		var r num
		r.kind = graph.NumericInteger
		r.d.Neg(n.toDecimal())
		return r
	case graph.NumericDecimal:
		var r num
		r.kind = graph.NumericDecimal
		r.d.Neg(&n.d)
		return r
	}
	return num{kind: n.kind, f: -n.f}
}
