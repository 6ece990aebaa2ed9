package local

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/bpmn"
)

// Variables cross between two worlds: the typed engine.Variable the API
// and the store carry, and the plain Go values engine/bpmn's expressions
// and scripts work on. plainOf and typedOf convert, the way Operaton's
// Java values map to its REST types.

// plainOf is the value expressions and scripts see for a variable: Null
// nil, Boolean bool, Integer/Long/Short int64, Double float64, String
// string, Json its parsed value, Date its text in Operaton's format.
func plainOf(v engine.Variable) any {
	switch v.Type {
	case engine.TypeNull:
		return nil
	case engine.TypeBoolean:
		b, _ := v.Value.(bool)
		return b
	case engine.TypeInteger, engine.TypeLong, engine.TypeShort:
		if n, ok := v.Value.(json.Number); ok {
			if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
				return i
			}
			if f, err := n.Float64(); err == nil {
				return f
			}
		}
		return v.Value
	case engine.TypeDouble:
		if n, ok := v.Value.(json.Number); ok {
			if f, err := n.Float64(); err == nil {
				return f
			}
		}
		return v.Value
	case engine.TypeJSON:
		return v.Plain()
	case engine.TypeDate:
		if t, ok := v.Value.(time.Time); ok {
			return t.Format(engine.DateLayout)
		}
	}
	return v.Plain()
}

// typedOf is the variable a plain value from an expression, a script or
// a decision result is stored as: nil Null, bool Boolean, a whole number
// Integer within 32 bits and Long beyond, another number Double, string
// String, time.Time Date, maps, lists and decision results Json.
func typedOf(x any) (engine.Variable, error) {
	switch v := x.(type) {
	case nil:
		return engine.Null(), nil
	case engine.Variable:
		return v, nil
	case bool:
		return engine.Boolean(v), nil
	case string:
		return engine.String(v), nil
	case json.Number:
		return engine.Number(v)
	case int64:
		if v >= math.MinInt32 && v <= math.MaxInt32 {
			return engine.Integer(int32(v)), nil
		}
		return engine.Long(v), nil
	case int:
		return typedOf(int64(v))
	case int32:
		return engine.Integer(v), nil
	case float64:
		return engine.Double(v), nil
	case float32:
		return engine.Double(float64(v)), nil
	case time.Time:
		return engine.Date(v), nil
	case bpmn.DecisionResult:
		rows := make([]any, len(v))
		for i, r := range v {
			rows[i] = r
		}
		return engine.JSON(rows)
	case map[string]any, []any:
		return engine.JSON(v)
	}
	rv := reflect.ValueOf(x)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return typedOf(rv.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if rv.Uint() <= math.MaxInt64 {
			return typedOf(int64(rv.Uint()))
		}
	case reflect.Map, reflect.Slice:
		return engine.JSON(x)
	}
	return engine.Variable{}, &engine.VariableError{Reason: fmt.Sprintf("a value of Go type %T cannot be stored as a variable", x)}
}

// variableSize estimates the bytes a variable takes, for
// Limits.MaxVariableBytes.
func variableSize(name string, v engine.Variable) int64 {
	n := int64(len(name) + len(v.Type) + 16)
	switch x := v.Value.(type) {
	case string:
		n += int64(len(x))
	case json.Number:
		n += int64(len(x))
	case []byte:
		n += int64(len(x))
	case nil, bool, time.Time:
	default:
		b, _ := json.Marshal(x)
		n += int64(len(b))
	}
	return n
}

// resultPlain turns a decision's result rows into bpmn's DecisionResult.
func resultPlain(res engine.Result) bpmn.DecisionResult {
	out := make(bpmn.DecisionResult, len(res))
	for i, row := range res {
		m := make(map[string]any, len(row))
		for k, v := range row {
			m[k] = plainOf(v)
		}
		out[i] = m
	}
	return out
}

// stringOf is an expression's value as the text of an attribute
// (assignee, topic, business key); nil is "".
func stringOf(x any) string {
	switch v := x.(type) {
	case nil:
		return ""
	case string:
		return v
	case json.Number:
		return string(v)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return strings.TrimSpace(fmt.Sprint(x))
}
