package engine

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Type is the name of an Operaton variable type as it appears in the
// "type" field of the REST API.
type Type string

// The variable types regelkit reads and writes. Operaton knows more
// (Object, File, Xml); a Variable of such a type keeps its value as
// decoded JSON and converts to FEEL only when it holds JSON.
const (
	TypeNull    Type = "Null"
	TypeBoolean Type = "Boolean"
	TypeShort   Type = "Short"
	TypeInteger Type = "Integer"
	TypeLong    Type = "Long"
	TypeDouble  Type = "Double"
	TypeString  Type = "String"
	TypeDate    Type = "Date"
	TypeJSON    Type = "Json"
	TypeBytes   Type = "Bytes"
	// TypeObject is read only: a serialized Java object. Operaton returns
	// it for values it cannot map to a primitive type.
	TypeObject Type = "Object"
)

var knownTypes = map[string]Type{
	"null": TypeNull, "boolean": TypeBoolean, "short": TypeShort, "integer": TypeInteger, "long": TypeLong,
	"double": TypeDouble, "string": TypeString, "date": TypeDate, "json": TypeJSON, "bytes": TypeBytes,
	"object": TypeObject,
}

// ParseType resolves a type name the way Operaton does: the first letter
// may be lower case ("string", "String"); the rest must match.
func ParseType(name string) (Type, bool) {
	if name == "" {
		return "", false
	}
	r, n := utf8.DecodeRuneInString(name)
	canon := string(unicode.ToUpper(r)) + name[n:]
	t, ok := knownTypes[strings.ToLower(canon)]
	if !ok || string(t) != canon {
		return "", false
	}
	return t, true
}

// DateLayout is Operaton's date format (Java's yyyy-MM-dd'T'HH:mm:ss.SSSZ),
// used for Date variables and for times such as deploymentTime.
const DateLayout = "2006-01-02T15:04:05.000-0700"

// Variable is a typed value as Operaton's REST API carries it:
// {"value": …, "type": "…", "valueInfo": {…}}.
//
// Value holds, by Type: nil (Null); bool (Boolean); json.Number with the
// exact decimal text (Short, Integer, Long, Double — never a float64, so no
// digit is lost); string (String); time.Time (Date); the JSON text as a
// string (Json); []byte (Bytes); decoded JSON with json.Number (other
// types, such as Object). The constructors and the JSON decoder produce
// exactly these.
type Variable struct {
	Type      Type
	Value     any
	ValueInfo map[string]any
}

// Null returns a Null variable.
func Null() Variable { return Variable{Type: TypeNull} }

// Boolean returns a Boolean variable.
func Boolean(b bool) Variable { return Variable{Type: TypeBoolean, Value: b} }

// Integer returns an Integer variable (Java int, 32 bits).
func Integer(i int32) Variable {
	return Variable{Type: TypeInteger, Value: json.Number(strconv.FormatInt(int64(i), 10))}
}

// Long returns a Long variable (Java long, 64 bits).
func Long(i int64) Variable {
	return Variable{Type: TypeLong, Value: json.Number(strconv.FormatInt(i, 10))}
}

// Double returns a Double variable with the shortest decimal text of f;
// use Number for an exact decimal. NaN and infinities become Null, as JSON
// cannot carry them.
func Double(f float64) Variable {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return Null()
	}
	return Variable{Type: TypeDouble, Value: json.Number(strconv.FormatFloat(f, 'g', -1, 64))}
}

// String returns a String variable. Dates travel as strings too
// ("2025-12-24"); models convert them with date(…).
func String(s string) Variable { return Variable{Type: TypeString, Value: s} }

// Date returns a Date variable. Like Operaton's java.util.Date it holds
// milliseconds (finer parts are cut off) and an offset in whole minutes
// (a time in a zone with an odd offset is moved to UTC).
func Date(t time.Time) Variable {
	t = t.Truncate(time.Millisecond)
	if _, off := t.Zone(); off%60 != 0 {
		t = t.UTC()
	}
	return Variable{Type: TypeDate, Value: t}
}

// JSON returns a Json variable holding the JSON text of v (a json.RawMessage
// or []byte is taken as JSON text and validated).
func JSON(v any) (Variable, error) {
	var text []byte
	switch x := v.(type) {
	case json.RawMessage:
		text = x
	case []byte:
		text = x
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return Variable{}, fmt.Errorf("engine: Json variable: %w", err)
		}
		text = b
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, text); err != nil {
		return Variable{}, fmt.Errorf("engine: Json variable: %w", err)
	}
	return Variable{Type: TypeJSON, Value: buf.String()}, nil
}

// Bytes returns a Bytes variable (base64 on the wire).
func Bytes(b []byte) Variable { return Variable{Type: TypeBytes, Value: b} }

// Number returns the variable for a decimal number given as text (a
// json.Number or a FEEL number's text): Integer when it has no fraction or
// exponent and fits 32 bits, Long when it fits 64 bits, Double otherwise.
// The text is kept exactly. It fails for text that is not a JSON number.
func Number(n json.Number) (Variable, error) {
	s := string(n)
	if !isJSONNumber(s) {
		return Variable{}, fmt.Errorf("engine: %q is not a number", s)
	}
	if !strings.ContainsAny(s, ".eE") {
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			if i >= math.MinInt32 && i <= math.MaxInt32 {
				return Variable{Type: TypeInteger, Value: n}, nil
			}
			return Variable{Type: TypeLong, Value: n}, nil
		}
	}
	return Variable{Type: TypeDouble, Value: n}, nil
}

// isJSONNumber reports whether s is a number in JSON's grammar.
func isJSONNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	return i == len(s)
}

// Plain returns the value as plain JSON-ready Go data, the way regelkit's
// APIs hand engine values to their clients: Null → nil; numbers as
// json.Number; a Json value parsed (kept as its text when it does not
// parse); a Date in Operaton's format; Bytes as base64 text.
func (v Variable) Plain() any {
	switch v.Type {
	case TypeNull:
		return nil
	case TypeJSON:
		s, ok := v.Value.(string)
		if !ok {
			return v.Value
		}
		d := json.NewDecoder(strings.NewReader(s))
		d.UseNumber()
		var out any
		if err := d.Decode(&out); err != nil || d.More() {
			return s
		}
		return out
	case TypeDate:
		if t, ok := v.Value.(time.Time); ok {
			return t.Format(DateLayout)
		}
	case TypeBytes:
		if b, ok := v.Value.([]byte); ok {
			return base64.StdEncoding.EncodeToString(b)
		}
	}
	return v.Value
}

// String renders the variable for logs and test failures, e.g. Integer(45).
func (v Variable) String() string {
	switch x := v.Value.(type) {
	case nil:
		return string(v.Type) + "(null)"
	case string:
		return fmt.Sprintf("%s(%q)", v.Type, x)
	case time.Time:
		return fmt.Sprintf("%s(%s)", v.Type, x.Format(DateLayout))
	}
	return fmt.Sprintf("%s(%v)", v.Type, v.Plain())
}

// Equal reports whether two variables have the same type and value
// (numbers compared by their decimal value, not their text).
func (v Variable) Equal(w Variable) bool {
	if v.Type != w.Type {
		return false
	}
	switch x := v.Value.(type) {
	case json.Number:
		y, ok := w.Value.(json.Number)
		return ok && numbersEqual(x, y)
	case time.Time:
		y, ok := w.Value.(time.Time)
		return ok && x.Equal(y)
	case []byte:
		y, ok := w.Value.([]byte)
		return ok && bytes.Equal(x, y)
	case string:
		y, ok := w.Value.(string)
		if ok && v.Type == TypeJSON {
			return jsonTextEqual(x, y)
		}
		return ok && x == y
	case nil:
		return w.Value == nil
	}
	a, errA := json.Marshal(v.Value)
	b, errB := json.Marshal(w.Value)
	return errA == nil && errB == nil && bytes.Equal(a, b)
}

// wire is the JSON shape of a variable.
type wire struct {
	Type      Type           `json:"type"`
	Value     any            `json:"value"`
	ValueInfo map[string]any `json:"valueInfo,omitempty"`
}

// MarshalJSON writes {"type", "value", "valueInfo"}; valueInfo is left
// out when empty, as regelkit sends variables to Operaton.
func (v Variable) MarshalJSON() ([]byte, error) {
	w := wire(v)
	if w.Type == "" {
		return nil, fmt.Errorf("engine: variable without a type")
	}
	switch x := v.Value.(type) {
	case time.Time:
		w.Value = x.Format(DateLayout)
	case json.Number:
		if !isJSONNumber(string(x)) {
			return nil, fmt.Errorf("engine: %s variable: %q is not a number", v.Type, x)
		}
	}
	return json.Marshal(w)
}

// UnmarshalJSON reads Operaton's {"value", "type", "valueInfo"} and checks
// the value against the type (see VariableError for what fails). A missing
// type is inferred from the JSON value as InferJSON does.
func (v *Variable) UnmarshalJSON(data []byte) error {
	var w struct {
		Type      *string         `json:"type"`
		Value     json.RawMessage `json:"value"`
		ValueInfo map[string]any  `json:"valueInfo"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return &VariableError{Reason: "not a variable object {value, type, valueInfo}: " + jsonErrorText(err)}
	}
	out, err := decodeTyped(w.Type, w.Value)
	if err != nil {
		return err
	}
	if len(w.ValueInfo) > 0 {
		out.ValueInfo = w.ValueInfo
	}
	*v = out
	return nil
}

func decodeTyped(typeName *string, raw json.RawMessage) (Variable, error) {
	raw = bytes.TrimSpace(raw)
	if typeName == nil || *typeName == "" {
		if len(raw) == 0 {
			return Null(), nil
		}
		return InferJSON(raw)
	}
	t, ok := ParseType(*typeName)
	if !ok {
		// Operaton has more types (File, Xml, custom serializations); keep
		// them with the value as decoded JSON so a client can pass them on.
		val, err := decodeAny(raw)
		if err != nil {
			return Variable{}, &VariableError{Type: Type(*typeName), Reason: "value is not JSON: " + jsonErrorText(err)}
		}
		return Variable{Type: Type(*typeName), Value: val}, nil
	}
	isNull := len(raw) == 0 || string(raw) == "null"
	if isNull {
		// Operaton accepts null for every type; the variable is then null.
		return Variable{Type: t}, nil
	}
	bad := func(reason string) (Variable, error) {
		return Variable{}, &VariableError{Type: t, Value: clip(string(raw)), Reason: reason}
	}
	switch t {
	case TypeNull:
		return Null(), nil
	case TypeBoolean:
		switch string(raw) {
		case "true", `"true"`:
			return Boolean(true), nil
		case "false", `"false"`:
			return Boolean(false), nil
		}
		return bad("not a boolean")
	case TypeShort, TypeInteger, TypeLong, TypeDouble:
		s := string(raw)
		if raw[0] == '"' {
			if err := json.Unmarshal(raw, &s); err != nil {
				return bad("not a number")
			}
			s = strings.TrimSpace(s)
		}
		if !isJSONNumber(s) {
			return bad("not a number")
		}
		if t == TypeDouble {
			return Variable{Type: t, Value: json.Number(s)}, nil
		}
		if strings.ContainsAny(s, ".eE") {
			return bad("not an integral number")
		}
		bits := map[Type]int{TypeShort: 16, TypeInteger: 32, TypeLong: 64}[t]
		if _, err := strconv.ParseInt(s, 10, bits); err != nil {
			return bad(fmt.Sprintf("out of the %d-bit range of %s", bits, t))
		}
		return Variable{Type: t, Value: json.Number(s)}, nil
	case TypeString:
		switch raw[0] {
		case '"':
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				return bad("not a string")
			}
			return String(s), nil
		case '{', '[':
			return bad("an object or array is not a String (use type Json)")
		}
		// a number or boolean given for a String: its JSON text, as Jackson does
		return String(string(raw)), nil
	case TypeDate:
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return bad("a Date must be a string in the format yyyy-MM-dd'T'HH:mm:ss.SSSZ")
		}
		tm, err := ParseDate(s)
		if err != nil {
			return bad(err.Error())
		}
		if tm.Year() < 0 || tm.Year() > 9999 {
			return bad("the year is outside 0000…9999")
		}
		return Date(tm), nil
	case TypeJSON:
		if raw[0] == '"' {
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				return bad("not a JSON string")
			}
			v, err := JSON(json.RawMessage(s))
			if err != nil {
				return bad("the string does not hold JSON")
			}
			return v, nil
		}
		v, err := JSON(raw)
		if err != nil {
			return bad("not JSON")
		}
		return v, nil
	case TypeBytes:
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return bad("Bytes must be a base64 string")
		}
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return bad("Bytes must be a base64 string")
		}
		return Bytes(b), nil
	case TypeObject:
		val, err := decodeAny(raw)
		if err != nil {
			return bad("not JSON")
		}
		return Variable{Type: t, Value: val}, nil
	}
	return bad("unsupported type")
}

// ParseDate reads a Date value in Operaton's format
// (2025-12-24T10:30:00.000+0100); RFC 3339 and a date-time without zone
// (taken as UTC) are accepted too.
func ParseDate(s string) (time.Time, error) {
	for _, layout := range []string{DateLayout, "2006-01-02T15:04:05-0700", time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02T15:04:05"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("date %q is not in the format yyyy-MM-dd'T'HH:mm:ss.SSSZ", clip(s))
}

func decodeAny(raw json.RawMessage) (any, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, fmt.Errorf("trailing data after JSON value")
	}
	return v, nil
}

func jsonTextEqual(a, b string) bool {
	if a == b {
		return true
	}
	x, errA := decodeAny(json.RawMessage(a))
	y, errB := decodeAny(json.RawMessage(b))
	if errA != nil || errB != nil {
		return false
	}
	return jsonValuesEqual(x, y)
}

func jsonValuesEqual(x, y any) bool {
	switch a := x.(type) {
	case json.Number:
		b, ok := y.(json.Number)
		return ok && numbersEqual(a, b)
	case []any:
		b, ok := y.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !jsonValuesEqual(a[i], b[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		b, ok := y.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, av := range a {
			bv, ok := b[k]
			if !ok || !jsonValuesEqual(av, bv) {
				return false
			}
		}
		return true
	}
	return x == y
}

// clip shortens text quoted in error messages.
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

func jsonErrorText(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("%s (at byte %d)", se.Error(), se.Offset)
	}
	return err.Error()
}
