package memstore

import (
	"math"
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"

	"github.com/regelkit/regelkit/sparql/graph"
)

// casts are the XPath constructor functions for the XSD types SPARQL
// requires (§17.5), by function IRI.
var casts = map[string]fn1{
	graph.XSDString:     castString,
	graph.XSDBoolean:    castFrom(castBoolean),
	graph.XSDInteger:    castFrom(castNumber(true)),
	graph.XSDDecimal:    castFrom(castNumber(false)),
	graph.XSDDouble:     castFrom(castFloating(graph.NumericDouble)),
	graph.XSD + "float": castFrom(castFloating(graph.NumericFloat)),
	graph.XSDDateTime:   castFrom(castDateTime),
	graph.XSDDate:       castFrom(castDate),
}

// castSource is a literal being cast, with what every cast looks at.
type castSource struct {
	v       graph.Term
	isStr   bool
	isNum   bool
	n       num
	isBool  bool
	b       bool
	trimmed string
}

// source checks the value every cast accepts (a literal; a boolean or
// number only when well formed) and describes it.
func source(v graph.Term) (castSource, bool) {
	if v.Kind != graph.KindLiteral {
		return castSource{}, false
	}
	s := castSource{
		v:       v,
		isStr:   v.Datatype == graph.XSDString || v.Datatype == graph.RDFLangStr,
		isBool:  v.Datatype == graph.XSDBoolean,
		trimmed: strings.TrimSpace(v.Value),
	}
	s.n, s.isNum = parseNum(v)
	var boolOK bool
	s.b, boolOK = graph.BoolValue(v)
	if s.isBool && !boolOK || isNumericType(v.Datatype) && !s.isNum {
		return castSource{}, false
	}
	return s, true
}

// castFrom casts literals without a language tag with f.
func castFrom(f func(s castSource) (graph.Term, error)) fn1 {
	return func(_ *exec, v graph.Term) (graph.Term, error) {
		if v.Lang != "" {
			return graph.Term{}, errType
		}
		s, ok := source(v)
		if !ok {
			return graph.Term{}, errType
		}
		return f(s)
	}
}

// castString is xsd:string(v), the one cast of IRIs and language-tagged
// strings.
func castString(_ *exec, v graph.Term) (graph.Term, error) {
	if v.Kind == graph.KindIRI {
		return graph.String(v.Value), nil
	}
	s, ok := source(v)
	switch {
	case !ok:
		return graph.Term{}, errType
	case s.isNum:
		return graph.String(xpathString(s.n)), nil
	case s.isBool:
		return graph.String(strconv.FormatBool(s.b)), nil
	}
	return graph.String(v.Value), nil
}

func castBoolean(s castSource) (graph.Term, error) {
	switch {
	case s.isBool:
		return boolTerm(s.b), nil
	case s.isNum:
		return boolTerm(!s.n.isZero() && !s.n.isNaN()), nil
	case s.isStr:
		if b, ok := graph.BoolValue(graph.Literal(s.trimmed, graph.XSDBoolean)); ok {
			return boolTerm(b), nil
		}
	}
	return graph.Term{}, errType
}

// castNumber casts to xsd:integer (integer) or xsd:decimal.
func castNumber(integer bool) func(s castSource) (graph.Term, error) {
	return func(s castSource) (graph.Term, error) {
		fail := graph.Term{}
		var r num
		switch {
		case s.isBool:
			r = intNum(0)
			if s.b {
				r = intNum(1)
			}
		case s.isNum:
			n := s.n
			r = n
			if n.kind == graph.NumericFloat || n.kind == graph.NumericDouble {
				if math.IsNaN(n.f) || math.IsInf(n.f, 0) {
					return fail, errType
				}
				r = num{kind: graph.NumericDecimal}
				if _, err := r.d.SetFloat64(n.f); err != nil {
					return fail, errType
				}
			}
		case s.isStr:
			dt := graph.XSDDecimal
			if integer {
				dt = graph.XSDInteger
			}
			var ok bool
			if r, ok = parseNum(graph.Literal(s.trimmed, dt)); !ok {
				return fail, errType
			}
		default:
			return fail, errType
		}
		if integer {
			d := r.toDecimal()
			var t apd.Decimal
			if _, err := decCtx.RoundToIntegralValue(&t, d); err != nil {
				return fail, errType
			}
			// truncate toward zero
			var q apd.Decimal
			if _, err := decCtx.QuoInteger(&q, d, apd.New(1, 0)); err != nil {
				return fail, errType
			}
			return graph.Literal(q.Text('f'), graph.XSDInteger), nil
		}
		d := num{kind: graph.NumericDecimal}
		d.d.Set(r.toDecimal())
		return d.term(), nil
	}
}

// castFloating casts to xsd:double or xsd:float (kind).
func castFloating(kind graph.NumericType) func(s castSource) (graph.Term, error) {
	return func(s castSource) (graph.Term, error) {
		var f float64
		switch {
		case s.isBool:
			if s.b {
				f = 1
			}
		case s.isNum:
			f = s.n.toFloat()
		case s.isStr:
			var ok bool
			if f, ok = graph.Float64(graph.Literal(s.trimmed, graph.XSDDouble)); !ok {
				return graph.Term{}, errType
			}
		default:
			return graph.Term{}, errType
		}
		return num{kind: kind, f: f}.term(), nil
	}
}

func castDateTime(s castSource) (graph.Term, error) {
	if s.v.Datatype == graph.XSDDateTime || s.isStr {
		if t := graph.Literal(s.trimmed, graph.XSDDateTime); graph.WellFormed(t) {
			return t, nil
		}
	}
	return graph.Term{}, errType
}

func castDate(s castSource) (graph.Term, error) {
	if s.isStr || s.v.Datatype == graph.XSDDate {
		if t := graph.Literal(s.trimmed, graph.XSDDate); graph.WellFormed(t) {
			return t, nil
		}
	}
	if s.v.Datatype == graph.XSDDateTime {
		// the date part and the time zone, as XPath casts
		if d, ok := graph.ParseDateTime(s.v); ok {
			date, _, _ := strings.Cut(s.trimmed, "T")
			return graph.Literal(date+d.Zone, graph.XSDDate), nil
		}
	}
	return graph.Term{}, errType
}
