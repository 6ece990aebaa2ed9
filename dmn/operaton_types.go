package dmn

import (
	"math"
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/regelkit/regelkit/dmn/feel"
)

// operatonType is how Operaton (Camunda 7) converts a decision table
// output to the output's typeRef: its data type transformers for the
// names string, boolean, integer, long, double and date (the typeRef in
// any case), and no conversion for every other typeRef. In Operaton mode
// this replaces DMN's type check, which turns a value that does not
// conform (a date for typeRef string) into null.
type operatonType uint8

const (
	opIdentity operatonType = iota
	opString
	opBoolean
	opInteger
	opLong
	opDouble
	opDate
)

func operatonTypeOf(typeRef string) operatonType {
	switch strings.ToLower(strings.TrimSpace(typeRef)) {
	case "string":
		return opString
	case "boolean":
		return opBoolean
	case "integer":
		return opInteger
	case "long":
		return opLong
	case "double":
		return opDouble
	case "date":
		return opDate
	}
	return opIdentity
}

func (k operatonType) String() string {
	return [...]string{"any", "string", "boolean", "integer", "long", "double", "date"}[k]
}

// convert converts a non-null value as Operaton's transformer for k does,
// or returns why it cannot (Operaton fails the evaluation with DMN-01005
// then):
//
//   - string: any value, as its string form (FEEL's string(): a date
//     2047-01-23 is "2047-01-23", a number its plain decimal text);
//   - integer and long: a number without fraction within 32 or 64 bits,
//     or a string of an optional sign and decimal digits in that range;
//   - double: a number, or a string Java's Double.parseDouble reads (NaN
//     and infinities aside, which FEEL has no number for), rounded to the
//     nearest double;
//   - boolean: a boolean, or the string "true" or "false" in any case;
//   - date: a date and time, or a string with an ISO date and time
//     (Operaton's yyyy-MM-dd'T'HH:mm:ss); also, unlike Operaton, which
//     refuses java.time.LocalDate, a date or a string with an ISO date,
//     which stay dates.
func (k operatonType) convert(v feel.Value) (feel.Value, string) {
	switch k {
	case opString:
		if s, ok := v.(string); ok {
			return s, ""
		}
		return feel.String(v), ""
	case opBoolean:
		switch x := v.(type) {
		case bool:
			return x, ""
		case string:
			switch {
			case strings.EqualFold(x, "true"):
				return true, ""
			case strings.EqualFold(x, "false"):
				return false, ""
			}
			return nil, "a string other than true or false"
		}
	case opInteger, opLong:
		bits := 32
		if k == opLong {
			bits = 64
		}
		switch x := v.(type) {
		case *apd.Decimal:
			var r apd.Decimal
			r.Reduce(x)
			if r.Form != apd.Finite || r.Exponent < 0 {
				return nil, "not a whole number"
			}
			n, err := r.Int64()
			if err != nil || (bits == 32 && (n > math.MaxInt32 || n < math.MinInt32)) {
				return nil, "out of the range of " + k.String() + " (" + strconv.Itoa(bits) + " bits)"
			}
			return apd.New(n, 0), ""
		case string:
			n, err := strconv.ParseInt(x, 10, bits)
			if err != nil {
				if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
					return nil, "out of the range of " + k.String() + " (" + strconv.Itoa(bits) + " bits)"
				}
				return nil, "a string that is not a whole number"
			}
			return apd.New(n, 0), ""
		}
	case opDouble:
		var f float64
		switch x := v.(type) {
		case *apd.Decimal:
			var err error
			if f, err = strconv.ParseFloat(x.String(), 64); err != nil && !math.IsInf(f, 0) {
				return nil, "not a number"
			}
		case string:
			var err error
			if f, err = strconv.ParseFloat(strings.TrimSpace(x), 64); err != nil && !math.IsInf(f, 0) {
				return nil, "a string that is not a number"
			}
		default:
			return nil, "not a number"
		}
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, "out of the range of double"
		}
		return floatValue(f, 64), ""
	case opDate:
		switch x := v.(type) {
		case feel.DateTime, feel.Date:
			return x, ""
		case string:
			if strings.ContainsRune(x, 'T') {
				if dt, ok := feel.ParseDateTime(x); ok {
					return dt, ""
				}
			} else if d, ok := feel.ParseDate(x); ok {
				return d, ""
			}
			return nil, "a string that is not an ISO date or date and time"
		}
	default:
		return v, ""
	}
	return nil, "a " + feel.Kind(v)
}

// literalConvertFailure is the failure of a literal expression's result
// that Operaton's transformer for the decision variable's typeRef refuses.
func literalConvertFailure(v *InformationItem, val feel.Value, why string) *EvalError {
	return &EvalError{Kind: TypeConversion, reason: "variable " + strconv.Quote(v.Name) + ": invalid value " + clippedLiteral(val) +
		" for typeRef " + strconv.Quote(strings.TrimSpace(v.TypeRef)) + ": " + why}
}

// clippedLiteral quotes at most 100 characters of a value.
func clippedLiteral(v feel.Value) string {
	lit := feel.Literal(v)
	if len(lit) > 100 {
		lit = lit[:100] + "..."
	}
	return lit
}

// convertFailure is the failure of an output value that Operaton's
// transformer refuses, quoting at most 100 characters of the value.
func (t *compiledTable) convertFailure(r, i int, v feel.Value, why string) *EvalError {
	lit := clippedLiteral(v)
	rules := t.ruleNames([]int{r})
	return &EvalError{Kind: TypeConversion, HitPolicy: t.hit, Rules: rules,
		reason: "output " + strconv.Quote(t.outNames[i]) + " of rule " + rules[0] + ": invalid value " + lit +
			" for typeRef " + strconv.Quote(strings.TrimSpace(t.dt.Outputs[i].TypeRef)) + ": " + why}
}
