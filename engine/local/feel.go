package local

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cockroachdb/apd/v3"
	"github.com/regelkit/regelkit/dmn"
	"github.com/regelkit/regelkit/dmn/feel"
	"github.com/regelkit/regelkit/engine"
)

// The conversions between engine variables and FEEL values live here, not
// in engine, so that engine stays an interface package: its REST client
// (engine/operaton) links nothing of the DMN engine.

// FEEL converts a variable to a FEEL value without losing precision:
// numbers become exact decimals (a Long or a Double's full text is kept);
// String stays a string (an ISO date too: models call date(…)); Date
// becomes a date and time with its offset; Json becomes the FEEL list or
// context it encodes (numbers exact, object keys sorted); Bytes its base64
// text; an Object serialized as application/json like Json. Errors are
// *engine.VariableError.
func FEEL(v engine.Variable) (feel.Value, error) {
	// fast paths for the common types; the interface value is reused as it
	// is, since converting a string back into an interface would allocate
	switch x := v.Value.(type) {
	case nil:
		return nil, nil
	case bool:
		if v.Type == engine.TypeBoolean {
			return v.Value, nil
		}
	case string:
		if v.Type == engine.TypeString {
			return v.Value, nil
		}
	case json.Number:
		if v.Type == engine.TypeInteger || v.Type == engine.TypeLong || v.Type == engine.TypeShort {
			if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
				return apd.New(i, 0), nil
			}
		}
	}
	bad := func(reason string) (feel.Value, error) {
		return nil, &engine.VariableError{Type: v.Type, Value: clip(fmt.Sprint(v.Value)), Reason: reason}
	}
	switch v.Type {
	case engine.TypeNull:
		return nil, nil
	case engine.TypeBoolean:
		return bad("not a boolean")
	case engine.TypeShort, engine.TypeInteger, engine.TypeLong, engine.TypeDouble:
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
	case engine.TypeString:
		return bad("not a string")
	case engine.TypeDate:
		if t, ok := v.Value.(time.Time); ok {
			return dmn.ToValue(t), nil
		}
		return bad("not a time")
	case engine.TypeJSON:
		s, ok := v.Value.(string)
		if !ok {
			return dmn.ToValue(v.Value), nil
		}
		x, err := decodeJSON(s)
		if err != nil {
			return bad("not JSON")
		}
		return dmn.ToValue(x), nil
	case engine.TypeBytes:
		if b, ok := v.Value.([]byte); ok {
			return base64.StdEncoding.EncodeToString(b), nil
		}
		return bad("not bytes")
	case engine.TypeObject:
		if f, _ := v.ValueInfo["serializationDataFormat"].(string); strings.HasPrefix(f, "application/json") {
			if s, ok := v.Value.(string); ok {
				x, err := decodeJSON(s)
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

// FEELInputs converts every variable (see FEEL) into an input map for
// dmn's Evaluate. Errors are *engine.VariableError naming the variable.
func FEELInputs(vs engine.Variables) (map[string]any, error) {
	out := make(map[string]any, len(vs))
	for name, v := range vs {
		x, err := FEEL(v)
		if err != nil {
			return nil, namedVariableError(name, err)
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
func FromFEEL(x feel.Value) (engine.Variable, error) {
	switch v := x.(type) {
	case nil:
		return engine.Null(), nil
	case bool:
		return engine.Boolean(v), nil
	case string:
		// reuse x's interface value: no new allocation for the string
		return engine.Variable{Type: engine.TypeString, Value: x}, nil
	case *apd.Decimal:
		return engine.Infer(v)
	case feel.Date, feel.Time, feel.DateTime, feel.Duration, feel.YearsMonths:
		return engine.String(feel.String(v)), nil
	case []feel.Value, *feel.Context:
		if err := checkJSONable(v); err != nil {
			return engine.Variable{}, err
		}
		return engine.JSON(dmn.FromValue(v))
	}
	return engine.Variable{}, &engine.VariableError{Value: clip(feel.Literal(x)), Reason: fmt.Sprintf("a FEEL %s has no variable type", feel.Kind(x))}
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
		return &engine.VariableError{Value: clip(feel.Literal(x)), Reason: fmt.Sprintf("a FEEL %s inside a list or context has no JSON form", feel.Kind(x))}
	case *apd.Decimal:
		if v.Form != apd.Finite {
			return &engine.VariableError{Value: v.String(), Reason: "not a finite number"}
		}
	}
	return nil
}

// decodeJSON reads one JSON value with exact numbers (json.Number).
func decodeJSON(s string) (any, error) {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, errors.New("trailing data after JSON value")
	}
	return v, nil
}

// clip shortens a value quoted in an error message.
func clip(s string) string {
	const max = 64
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
