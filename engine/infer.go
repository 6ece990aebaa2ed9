package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"sort"
	"strconv"
	"time"

	"github.com/cockroachdb/apd/v3"
)

// Variables maps variable names to typed values.
type Variables map[string]Variable

// Infer types a Go value the way regelkit sends plain values to Operaton:
// nil → Null; bool → Boolean; an integral number → Integer, or Long
// outside the 32-bit range; any other number → Double (json.Number and
// decimals keep their exact text); string → String (ISO dates stay
// strings); time.Time → Date; []byte → Bytes; maps, slices and structs →
// Json; an *apd.Decimal → its exact number; a Variable is returned as it
// is. FEEL values (dates, contexts, lists) convert with local.FromFEEL,
// which keeps this package free of the DMN engine.
func Infer(v any) (Variable, error) {
	switch x := v.(type) {
	case nil:
		return Null(), nil
	case Variable:
		return x, nil
	case bool:
		return Boolean(x), nil
	case string:
		return String(x), nil
	case json.Number:
		return Number(x)
	case json.RawMessage:
		return InferJSON(x)
	case int:
		return integral(int64(x)), nil
	case int8:
		return integral(int64(x)), nil
	case int16:
		return integral(int64(x)), nil
	case int32:
		return integral(int64(x)), nil
	case int64:
		return integral(x), nil
	case uint:
		return unsigned(uint64(x)), nil
	case uint8:
		return integral(int64(x)), nil
	case uint16:
		return integral(int64(x)), nil
	case uint32:
		return integral(int64(x)), nil
	case uint64:
		return unsigned(x), nil
	case float32:
		return float(float64(x), 32)
	case float64:
		return float(x, 64)
	case *big.Int:
		if x == nil {
			return Null(), nil
		}
		return Number(json.Number(x.String()))
	case time.Time:
		return Date(x), nil
	case []byte:
		return Bytes(x), nil
	case *apd.Decimal:
		if x == nil {
			return Null(), nil
		}
		return numberVariable(x)
	case apd.Decimal:
		return numberVariable(&x)
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return Null(), nil
		}
		return Infer(rv.Elem().Interface())
	case reflect.Map, reflect.Slice, reflect.Array, reflect.Struct:
		if (rv.Kind() == reflect.Map || rv.Kind() == reflect.Slice) && rv.IsNil() {
			return Null(), nil
		}
		return JSON(v)
	}
	return Variable{}, &VariableError{Reason: fmt.Sprintf("a Go %T has no variable type", v)}
}

func integral(i int64) Variable {
	if i >= math.MinInt32 && i <= math.MaxInt32 {
		return Integer(int32(i))
	}
	return Long(i)
}

func unsigned(u uint64) Variable {
	if u <= math.MaxInt64 {
		return integral(int64(u))
	}
	// beyond Long: a Double that keeps every digit
	return Variable{Type: TypeDouble, Value: json.Number(strconv.FormatUint(u, 10))}
}

func float(f float64, bits int) (Variable, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return Variable{}, &VariableError{Type: TypeDouble, Value: strconv.FormatFloat(f, 'g', -1, bits), Reason: "not a finite number"}
	}
	if f == math.Trunc(f) && math.Abs(f) < 1<<63 {
		return integral(int64(f)), nil
	}
	return Variable{Type: TypeDouble, Value: json.Number(strconv.FormatFloat(f, 'g', -1, bits))}, nil
}

// InferJSON types a plain JSON value: null → Null; true/false → Boolean;
// a number without fraction or exponent → Integer (32-bit) or Long (64-bit),
// any other number → Double (exact text kept); a string → String; an
// object or array → Json with its compact JSON text.
func InferJSON(raw json.RawMessage) (Variable, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return Variable{}, &VariableError{Reason: "empty value"}
	}
	switch raw[0] {
	case 'n':
		if string(raw) == "null" {
			return Null(), nil
		}
	case 't':
		if string(raw) == "true" {
			return Boolean(true), nil
		}
	case 'f':
		if string(raw) == "false" {
			return Boolean(false), nil
		}
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err == nil {
			return String(s), nil
		}
	case '{', '[':
		if v, err := JSON(raw); err == nil {
			return v, nil
		}
	default:
		if isJSONNumber(string(raw)) {
			return Number(json.Number(raw))
		}
	}
	return Variable{}, &VariableError{Value: clip(string(raw)), Reason: "not a JSON value"}
}

// ParseVariables reads Operaton's variable map
// {"name": {"value": …, "type": "…", "valueInfo": {…}}, …}, as the REST API
// takes it. Each value is checked against its type; a missing type is
// inferred from the value. null or empty input gives an empty map. Errors
// are *VariableError naming the variable.
func ParseVariables(data []byte) (Variables, error) {
	entries, err := decodeObject(data)
	if err != nil {
		return nil, err
	}
	out := make(Variables, len(entries))
	for _, e := range entries {
		var v Variable
		if err := v.UnmarshalJSON(e.raw); err != nil {
			return nil, withName(err, e.name)
		}
		out[e.name] = v
	}
	return out, nil
}

// ParseValues reads a map of variables in which each value is plain JSON
// or already wrapped: an object whose keys are exactly "type" and "value"
// (and optionally "valueInfo") and whose type is one of the type names
// above, spelled exactly (e.g. "String"), is taken as a wrapped variable
// and checked; anything else is typed by InferJSON. A plain JSON object
// that looks exactly like a wrapper is therefore read as one.
func ParseValues(data []byte) (Variables, error) {
	entries, err := decodeObject(data)
	if err != nil {
		return nil, err
	}
	out := make(Variables, len(entries))
	for _, e := range entries {
		var v Variable
		if looksWrapped(e.raw) {
			err = v.UnmarshalJSON(e.raw)
		} else {
			v, err = InferJSON(e.raw)
		}
		if err != nil {
			return nil, withName(err, e.name)
		}
		out[e.name] = v
	}
	return out, nil
}

func looksWrapped(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return false
	}
	if _, ok := m["value"]; !ok {
		return false
	}
	t, ok := m["type"]
	if !ok {
		return false
	}
	for k := range m {
		if k != "type" && k != "value" && k != "valueInfo" {
			return false
		}
	}
	var name string
	if json.Unmarshal(t, &name) != nil {
		return false
	}
	_, known := knownTypes[lower(name)]
	return known && knownTypes[lower(name)] == Type(name)
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

type entry struct {
	name string
	raw  json.RawMessage
}

// decodeObject reads a JSON object into its entries, in key order; a
// repeated key keeps its last value, as encoding/json does.
func decodeObject(data []byte) ([]entry, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || string(data) == "null" {
		return nil, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, &VariableError{Reason: "variables must be a JSON object: " + jsonErrorText(err)}
	}
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	out := make([]entry, len(names))
	for i, k := range names {
		out[i] = entry{k, m[k]}
	}
	return out, nil
}

func withName(err error, name string) error {
	if ve, ok := err.(*VariableError); ok {
		c := *ve
		c.Name = name
		return &c
	}
	return &VariableError{Name: name, Reason: err.Error()}
}
