package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/apd/v3"
)

func TestParseType(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Type
		ok   bool
	}{
		{"String", TypeString, true}, {"string", TypeString, true}, {"json", TypeJSON, true}, {"Json", TypeJSON, true},
		{"STRING", "", false}, {"JSON", "", false}, {"Foo", "", false}, {"", "", false}, {"integer", TypeInteger, true},
	} {
		got, ok := ParseType(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParseType(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func num(t Type, s string) Variable { return Variable{Type: t, Value: json.Number(s)} }

func TestVariableUnmarshal(t *testing.T) {
	cet := time.FixedZone("", 3600)
	tests := []struct {
		in      string
		want    Variable
		wantErr string
	}{
		{`{"value":42,"type":"Integer"}`, Integer(42), ""},
		{`{"value":"42","type":"Integer"}`, Integer(42), ""},
		{`{"value":-32768,"type":"Short"}`, num(TypeShort, "-32768"), ""},
		{`{"value":40000,"type":"Short"}`, Variable{}, "16-bit range"},
		{`{"value":"abc","type":"Integer"}`, Variable{}, "not a number"},
		{`{"value":4294967296,"type":"Integer"}`, Variable{}, "32-bit range"},
		{`{"value":9223372036854775807,"type":"Long"}`, Long(math.MaxInt64), ""},
		{`{"value":1.5,"type":"Long"}`, Variable{}, "not an integral number"},
		{`{"value":12345678901234567890.123456789,"type":"Double"}`, num(TypeDouble, "12345678901234567890.123456789"), ""},
		{`{"value":1e400,"type":"Double"}`, num(TypeDouble, "1e400"), ""},
		{`{"value":true,"type":"boolean"}`, Boolean(true), ""},
		{`{"value":"false","type":"Boolean"}`, Boolean(false), ""},
		{`{"value":"yes","type":"Boolean"}`, Variable{}, "not a boolean"},
		{`{"value":null,"type":"String"}`, Variable{Type: TypeString}, ""},
		{`{"value":"x","type":"String","valueInfo":{"transient":true}}`, Variable{Type: TypeString, Value: "x", ValueInfo: map[string]any{"transient": true}}, ""},
		{`{"value":12,"type":"String"}`, String("12"), ""},
		{`{"value":{"a":1},"type":"String"}`, Variable{}, "use type Json"},
		{`{"value":{"a": [1, 2.50]},"type":"Json"}`, Variable{Type: TypeJSON, Value: `{"a":[1,2.50]}`}, ""},
		{`{"value":"{\"a\": 1}","type":"Json"}`, Variable{Type: TypeJSON, Value: `{"a":1}`}, ""},
		{`{"value":"not json","type":"Json"}`, Variable{}, "does not hold JSON"},
		{`{"value":"2025-12-24T10:30:00.000+0100","type":"Date"}`, Date(time.Date(2025, 12, 24, 10, 30, 0, 0, cet)), ""},
		{`{"value":"2025-12-24T10:30:00Z","type":"Date"}`, Date(time.Date(2025, 12, 24, 10, 30, 0, 0, time.UTC)), ""},
		{`{"value":"24-12-2025","type":"Date"}`, Variable{}, "yyyy-MM-dd'T'HH:mm:ss.SSSZ"},
		{`{"value":"aGVsbG8=","type":"Bytes"}`, Bytes([]byte("hello")), ""},
		{`{"value":"***","type":"Bytes"}`, Variable{}, "base64"},
		{`{"value":5}`, Integer(5), ""},
		{`{"value":2.5}`, num(TypeDouble, "2.5"), ""},
		{`{"value":"2025-12-24"}`, String("2025-12-24"), ""},
		{`{}`, Null(), ""},
		{`{"value":"x","type":"File"}`, Variable{Type: "File", Value: "x"}, ""},
		{`[1,2]`, Variable{}, "not a variable object"},
		{`{"value":1,"type":7}`, Variable{}, "not a variable object"},
	}
	for _, tc := range tests {
		var got Variable
		err := json.Unmarshal([]byte(tc.in), &got)
		if tc.wantErr != "" {
			var ve *VariableError
			if err == nil || !errors.As(err, &ve) || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: got %v, %v; want a *VariableError with %q", tc.in, got, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if !got.Equal(tc.want) || fmt.Sprint(got.ValueInfo) != fmt.Sprint(tc.want.ValueInfo) {
			t.Errorf("%s: got %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestVariableMarshal(t *testing.T) {
	d := time.Date(2025, 12, 24, 10, 30, 0, 123e6, time.FixedZone("", 3600))
	js, _ := JSON(map[string]any{"a": json.Number("1.10")})
	for _, tc := range []struct {
		v    Variable
		want string
	}{
		{Null(), `{"type":"Null","value":null}`},
		{Boolean(true), `{"type":"Boolean","value":true}`},
		{Integer(-7), `{"type":"Integer","value":-7}`},
		{Long(math.MinInt64), `{"type":"Long","value":-9223372036854775808}`},
		{Double(0.1), `{"type":"Double","value":0.1}`},
		{num(TypeDouble, "1369.06"), `{"type":"Double","value":1369.06}`},
		{String("2025-12-24"), `{"type":"String","value":"2025-12-24"}`},
		{Date(d), `{"type":"Date","value":"2025-12-24T10:30:00.123+0100"}`},
		{js, `{"type":"Json","value":"{\"a\":1.10}"}`},
		{Bytes([]byte("hi")), `{"type":"Bytes","value":"aGk="}`},
		{Variable{Type: TypeString, Value: "x", ValueInfo: map[string]any{"transient": true}}, `{"type":"String","value":"x","valueInfo":{"transient":true}}`},
	} {
		b, err := json.Marshal(tc.v)
		if err != nil {
			t.Errorf("%v: %v", tc.v, err)
			continue
		}
		if string(b) != tc.want {
			t.Errorf("%v: got %s, want %s", tc.v, b, tc.want)
		}
		var back Variable
		if err := json.Unmarshal(b, &back); err != nil || !back.Equal(tc.v) {
			t.Errorf("%s: round trip gave %v, %v", b, back, err)
		}
	}
	if _, err := json.Marshal(Variable{Value: 1}); err == nil {
		t.Error("a variable without a type marshals")
	}
	if _, err := json.Marshal(Variable{Type: TypeDouble, Value: json.Number("NaN")}); err == nil {
		t.Error("a Double with NaN text marshals")
	}
}

type point struct {
	X, Y int
}

func TestInfer(t *testing.T) {
	when := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tc := range []struct {
		in   any
		want Variable
	}{
		{nil, Null()},
		{true, Boolean(true)},
		{42, Integer(42)},
		{int64(math.MaxInt32) + 1, Long(math.MaxInt32 + 1)},
		{int8(-3), Integer(-3)},
		{uint64(math.MaxUint64), num(TypeDouble, "18446744073709551615")},
		{1.5, num(TypeDouble, "1.5")},
		{3.0, Integer(3)},
		{float32(0.1), num(TypeDouble, "0.1")},
		{1e19, num(TypeDouble, "1e+19")},
		{json.Number("1500"), Integer(1500)},
		{json.Number("1e3"), num(TypeDouble, "1e3")},
		{json.Number("9007199254740993"), Long(9007199254740993)},
		{json.Number("123456789012345678901234567890"), num(TypeDouble, "123456789012345678901234567890")},
		{"2025-12-24", String("2025-12-24")},
		{when, Date(when)},
		{[]byte{1, 2}, Bytes([]byte{1, 2})},
		{map[string]any{"b": 1, "a": []any{true, nil}}, Variable{Type: TypeJSON, Value: `{"a":[true,null],"b":1}`}},
		{point{1, 2}, Variable{Type: TypeJSON, Value: `{"X":1,"Y":2}`}},
		{[]string(nil), Null()},
		{(*int)(nil), Null()},
		{json.RawMessage(`{"x": 1}`), Variable{Type: TypeJSON, Value: `{"x":1}`}},
		{apd.New(1369060, -3), num(TypeDouble, "1369.060")},
		{*apd.New(25, -1), num(TypeDouble, "2.5")},
		{apd.New(0, -3), Integer(0)},
		{(*apd.Decimal)(nil), Null()},
		{[]any{json.Number("1.50"), "a"}, Variable{Type: TypeJSON, Value: `[1.50,"a"]`}},
		{String("kept"), String("kept")},
	} {
		got, err := Infer(tc.in)
		if err != nil {
			t.Errorf("Infer(%#v): %v", tc.in, err)
			continue
		}
		if !got.Equal(tc.want) {
			t.Errorf("Infer(%#v) = %v, want %v", tc.in, got, tc.want)
		}
	}
	for _, bad := range []any{func() {}, make(chan int), math.NaN(), math.Inf(1), complex(1, 2)} {
		if v, err := Infer(bad); err == nil {
			t.Errorf("Infer(%T) = %v, want an error", bad, v)
		}
	}
}

func TestInferJSON(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Variable
	}{
		{"null", Null()}, {" true ", Boolean(true)}, {"false", Boolean(false)}, {`"x"`, String("x")},
		{"2147483647", Integer(math.MaxInt32)}, {"2147483648", Long(math.MaxInt32 + 1)}, {"-2147483648", Integer(math.MinInt32)},
		{"1.0", num(TypeDouble, "1.0")}, {"0.1", num(TypeDouble, "0.1")},
		{`[1, "a"]`, Variable{Type: TypeJSON, Value: `[1,"a"]`}},
	} {
		got, err := InferJSON(json.RawMessage(tc.in))
		if err != nil || !got.Equal(tc.want) {
			t.Errorf("InferJSON(%s) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "nul", "01", "1.", "{", "[1,]", "tru", `"unterminated`} {
		if v, err := InferJSON(json.RawMessage(bad)); err == nil {
			t.Errorf("InferJSON(%q) = %v, want an error", bad, v)
		}
	}
}

func TestParseVariables(t *testing.T) {
	vs, err := ParseVariables([]byte(`{"amount":{"value":600,"type":"Double"},"category":{"value":"Misc","type":"String"},"d":{"value":"2025-12-24"}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := Variables{"amount": num(TypeDouble, "600"), "category": String("Misc"), "d": String("2025-12-24")}
	if len(vs) != len(want) {
		t.Fatalf("got %v", vs)
	}
	for k, w := range want {
		if !vs[k].Equal(w) {
			t.Errorf("%s = %v, want %v", k, vs[k], w)
		}
	}
	for _, empty := range []string{"", "null", " {} "} {
		if vs, err := ParseVariables([]byte(empty)); err != nil || len(vs) != 0 {
			t.Errorf("%q: got %v, %v", empty, vs, err)
		}
	}
	_, err = ParseVariables([]byte(`{"ok":{"value":1},"age":{"value":"old","type":"Integer"}}`))
	var ve *VariableError
	if !errors.As(err, &ve) || ve.Name != "age" || ve.Type != TypeInteger || !strings.Contains(err.Error(), `variable "age"`) {
		t.Errorf("got %v, want a *VariableError naming age", err)
	}
	if _, err := ParseVariables([]byte(`[1]`)); err == nil {
		t.Error("an array of variables parses")
	}
}

func TestParseValues(t *testing.T) {
	vs, err := ParseValues([]byte(`{
		"plain": 45,
		"wrapped": {"type": "Long", "value": 45},
		"wrappedInfo": {"type": "String", "value": "x", "valueInfo": {}},
		"lowercase": {"type": "string", "value": "x"},
		"extraKey": {"type": "String", "value": "x", "other": 1},
		"object": {"a": 1},
		"date": "2025-12-24"
	}`))
	if err != nil {
		t.Fatal(err)
	}
	for k, w := range map[string]Variable{
		"plain": Integer(45), "wrapped": Long(45), "wrappedInfo": String("x"),
		"lowercase": {Type: TypeJSON, Value: `{"type":"string","value":"x"}`},
		"extraKey":  {Type: TypeJSON, Value: `{"type":"String","value":"x","other":1}`},
		"object":    {Type: TypeJSON, Value: `{"a":1}`}, "date": String("2025-12-24"),
	} {
		if !vs[k].Equal(w) {
			t.Errorf("%s = %v, want %v", k, vs[k], w)
		}
	}
	_, err = ParseValues([]byte(`{"n": {"type": "Integer", "value": "many"}}`))
	var ve *VariableError
	if !errors.As(err, &ve) || ve.Name != "n" {
		t.Errorf("a wrapped value of the wrong type: got %v", err)
	}
}

func TestNumberAccessors(t *testing.T) {
	if i, ok := Long(-5).Int64(); !ok || i != -5 {
		t.Errorf("Int64 = %d, %v", i, ok)
	}
	if i, ok := num(TypeDouble, "2.0").Int64(); !ok || i != 2 {
		t.Errorf("Int64 of 2.0 = %d, %v", i, ok)
	}
	if _, ok := num(TypeDouble, "2.5").Int64(); ok {
		t.Error("Int64 of 2.5 succeeded")
	}
	if f, ok := num(TypeDouble, "1369.06").Float64(); !ok || f != 1369.06 {
		t.Errorf("Float64 = %v, %v", f, ok)
	}
	if _, ok := String("1").Float64(); ok {
		t.Error("Float64 of a String succeeded")
	}
}

func TestPlain(t *testing.T) {
	d := time.Date(2025, 12, 24, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		v    Variable
		want string // JSON of Plain()
	}{
		{Null(), "null"}, {Integer(3), "3"}, {num(TypeDouble, "1369.06"), "1369.06"},
		{Variable{Type: TypeJSON, Value: `{"a":[1.50]}`}, `{"a":[1.50]}`},
		{Variable{Type: TypeJSON, Value: `not json`}, `"not json"`},
		{Date(d), `"2025-12-24T00:00:00.000+0000"`}, {Bytes([]byte("hi")), `"aGk="`}, {String("s"), `"s"`},
	} {
		b, err := json.Marshal(tc.v.Plain())
		if err != nil || string(b) != tc.want {
			t.Errorf("%v.Plain() = %s, %v; want %s", tc.v, b, err, tc.want)
		}
	}
}

func TestResultValues(t *testing.T) {
	var none Result
	if !none.NoRuleMatched() || len(none.Values()) != 0 {
		t.Errorf("empty result: %v", none.Values())
	}
	one := Result{{"a": Integer(1), "b": String("x")}}
	if b, _ := json.Marshal(one.Values()); string(b) != `{"a":1,"b":"x"}` || one.NoRuleMatched() {
		t.Errorf("one row: %s", b)
	}
	several := Result{{"a": Integer(1), "b": String("x")}, {"a": Integer(2)}, {"a": Integer(3), "b": String("z")}}
	if b, _ := json.Marshal(several.Values()); string(b) != `{"a":[1,2,3],"b":["x",null,"z"]}` {
		t.Errorf("several rows: %s", b)
	}
}

func TestErrors(t *testing.T) {
	nf := NotFound("No matching decision definition with key: %s and no tenant-id", "k")
	if !errors.Is(nf, ErrNotFound) || errors.Is(InvalidRequest("x"), ErrNotFound) {
		t.Error("404 must match ErrNotFound, 400 must not")
	}
	if nf.Error() != "engine: RestException (HTTP 404): No matching decision definition with key: k and no tenant-id" {
		t.Errorf("message %q", nf.Error())
	}
	u := Unavailable(fmt.Errorf("dial: %w", context.DeadlineExceeded))
	if !errors.Is(u, ErrUnavailable) || !errors.Is(u, context.DeadlineExceeded) || errors.Is(u, ErrNotFound) {
		t.Error("Unavailable must match ErrUnavailable and its cause")
	}
	de := &DeploymentError{Resource: "m.dmn", Line: 3, Column: 7, ElementID: "d1", Msg: "bad"}
	wrapped := &Error{Status: 400, Type: "ParseException", Message: "x", Err: de}
	var got *DeploymentError
	if !errors.As(wrapped, &got) || got.Line != 3 || de.Error() != `engine: resource "m.dmn": line 3, column 7: element "d1": bad` {
		t.Errorf("DeploymentError: %v", de)
	}
	for _, tc := range []struct {
		e    *EvaluationError
		want string
	}{
		{&EvaluationError{DecisionKey: "K", DecisionID: "B", Variable: "v", NoRuleMatched: "A"}, `K: no rule matched (A): decision B needs "v"`},
		{&EvaluationError{DecisionKey: "K", DecisionID: "B", Variable: "v"}, `K: decision B: unknown variable "v"`},
		{&EvaluationError{DecisionKey: "K", DecisionID: "K", Err: errors.New("boom")}, `K: decision K: boom`},
	} {
		if tc.e.Error() != tc.want {
			t.Errorf("got %q, want %q", tc.e.Error(), tc.want)
		}
	}
	ve := &VariableError{Name: "n", Type: TypeInteger, Value: `"x"`, Reason: "not a number"}
	if ve.Error() != `engine: variable "n": cannot convert value "x" to type Integer: not a number` {
		t.Errorf("got %q", ve.Error())
	}
}

func TestJSONEqual(t *testing.T) {
	a := Variable{Type: TypeJSON, Value: `{"a":1.0,"b":[1]}`}
	b := Variable{Type: TypeJSON, Value: `{"b":[1],"a":1}`}
	c := Variable{Type: TypeJSON, Value: `{"b":[2],"a":1}`}
	if !a.Equal(b) || a.Equal(c) || a.Equal(String(`{"a":1.0,"b":[1]}`)) {
		t.Error("Json equality compares values, not text")
	}
	if !bytes.Equal(Bytes([]byte("x")).Value.([]byte), []byte("x")) || !Bytes([]byte("x")).Equal(Bytes([]byte("x"))) {
		t.Error("Bytes equality")
	}
}
