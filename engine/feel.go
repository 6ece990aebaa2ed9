package engine

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/cockroachdb/apd/v3"
	"github.com/regelkit/regelkit/dmn"
	"github.com/regelkit/regelkit/dmn/feel"
)

// FEEL converts the variable to a FEEL value without losing precision:
// numbers become exact decimals (a Long or a Double's full text is kept);
// String stays a string (an ISO date too: models call date(…)); Date
// becomes a date and time with its offset; Json becomes the FEEL list or
// context it encodes (numbers exact, object keys sorted); Bytes its base64
// text; an Object serialized as application/json like Json.
func (v Variable) FEEL() (feel.Value, error) {
	// fast paths for the common types; the interface value is reused as it
	// is, since converting a string back into an interface would allocate
	switch x := v.Value.(type) {
	case nil:
		return nil, nil
	case bool:
		if v.Type == TypeBoolean {
			return v.Value, nil
		}
	case string:
		if v.Type == TypeString {
			return v.Value, nil
		}
	case json.Number:
		if v.Type == TypeInteger || v.Type == TypeLong || v.Type == TypeShort {
			if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
				return apd.New(i, 0), nil
			}
		}
	}
	bad := func(reason string) (feel.Value, error) {
		return nil, &VariableError{Type: v.Type, Value: clip(fmt.Sprint(v.Value)), Reason: reason}
	}
	switch v.Type {
	case TypeNull:
		return nil, nil
	case TypeBoolean:
		return bad("not a boolean")
	case TypeShort, TypeInteger, TypeLong, TypeDouble:
		var s string
		switch x := v.Value.(type) {
		case json.Number:
			s = string(x)
		case string:
			s = x
		default:
			return bad(fmt.Sprintf("a %T is not a number", v.Value))
		}
		d, err := feel.ParseNumber(s)
		if err != nil {
			return bad("not a number")
		}
		return d, nil
	case TypeString:
		return bad("not a string")
	case TypeDate:
		if t, ok := v.Value.(time.Time); ok {
			return dmn.ToValue(t), nil
		}
		return bad("not a time")
	case TypeJSON:
		s, ok := v.Value.(string)
		if !ok {
			return dmn.ToValue(v.Value), nil
		}
		x, err := decodeAny(json.RawMessage(s))
		if err != nil {
			return bad("not JSON")
		}
		return dmn.ToValue(x), nil
	case TypeBytes:
		if b, ok := v.Value.([]byte); ok {
			return base64.StdEncoding.EncodeToString(b), nil
		}
		return bad("not bytes")
	case TypeObject:
		if f, _ := v.ValueInfo["serializationDataFormat"].(string); strings.HasPrefix(f, "application/json") {
			if s, ok := v.Value.(string); ok {
				x, err := decodeAny(json.RawMessage(s))
				if err != nil {
					return bad("not JSON")
				}
				return dmn.ToValue(x), nil
			}
			return dmn.ToValue(v.Value), nil
		}
		return bad("an Object that is not serialized as application/json has no FEEL value")
	}
	return bad("type has no FEEL value")
}

// FEEL converts every variable (see Variable.FEEL) into an input map for
// dmn's Evaluate. Errors are *VariableError naming the variable.
func (vs Variables) FEEL() (map[string]any, error) {
	out := make(map[string]any, len(vs))
	for name, v := range vs {
		x, err := v.FEEL()
		if err != nil {
			return nil, withName(err, name)
		}
		out[name] = x
	}
	return out, nil
}

// FromFEEL converts a FEEL value to a variable: null → Null; boolean →
// Boolean; a number → Integer or Long when integral and in range, else
// Double, with its exact decimal text; a string → String; dates, times
// and durations → String with their ISO 8601 text (how Operaton clients
// send dates); lists and contexts → Json (numbers exact, temporal values
// as ISO text). Ranges and functions cannot be converted.
func FromFEEL(x feel.Value) (Variable, error) {
	switch v := x.(type) {
	case nil:
		return Null(), nil
	case bool:
		return Boolean(v), nil
	case string:
		// reuse x's interface value: no new allocation for the string
		return Variable{Type: TypeString, Value: x}, nil
	case *apd.Decimal:
		return numberVariable(v)
	case feel.Date, feel.Time, feel.DateTime, feel.Duration, feel.YearsMonths:
		return String(feel.String(v)), nil
	case []feel.Value, *feel.Context:
		if err := checkJSONable(v); err != nil {
			return Variable{}, err
		}
		return JSON(dmn.FromValue(v))
	}
	return Variable{}, &VariableError{Value: clip(feel.Literal(x)), Reason: fmt.Sprintf("a FEEL %s has no variable type", feel.Kind(x))}
}

func numberVariable(d *apd.Decimal) (Variable, error) {
	if d.Form != apd.Finite {
		return Variable{}, &VariableError{Type: TypeDouble, Value: d.String(), Reason: "not a finite number"}
	}
	var r apd.Decimal
	r.Reduce(d)
	if r.Exponent >= 0 {
		if i, err := r.Int64(); err == nil {
			return integral(i), nil
		}
	}
	return Variable{Type: TypeDouble, Value: json.Number(feel.String(d))}, nil
}

func checkJSONable(x feel.Value) error {
	switch v := x.(type) {
	case []feel.Value:
		for _, e := range v {
			if err := checkJSONable(e); err != nil {
				return err
			}
		}
	case *feel.Context:
		for i := 0; i < v.Len(); i++ {
			_, e := v.Entry(i)
			if err := checkJSONable(e); err != nil {
				return err
			}
		}
	case feel.Range, *feel.Function:
		return &VariableError{Value: clip(feel.Literal(x)), Reason: fmt.Sprintf("a FEEL %s inside a list or context has no JSON form", feel.Kind(x))}
	case *apd.Decimal:
		if v.Form != apd.Finite {
			return &VariableError{Value: v.String(), Reason: "not a finite number"}
		}
	}
	return nil
}

func numbersEqual(a, b json.Number) bool {
	if a == b {
		return true
	}
	x, err1 := feel.ParseNumber(string(a))
	y, err2 := feel.ParseNumber(string(b))
	return err1 == nil && err2 == nil && x.Cmp(y) == 0
}

// Int64 returns the value of an integral number variable (Short, Integer,
// Long, or a Double without fraction) as an int64.
func (v Variable) Int64() (int64, bool) {
	n, ok := v.Value.(json.Number)
	if !ok {
		return 0, false
	}
	d, err := feel.ParseNumber(string(n))
	if err != nil {
		return 0, false
	}
	var r apd.Decimal
	r.Reduce(d)
	i, err := r.Int64()
	return i, err == nil
}

// Float64 returns the value of a number variable as a float64 (which may
// round it).
func (v Variable) Float64() (float64, bool) {
	n, ok := v.Value.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil && !math.IsInf(f, 0)
}
