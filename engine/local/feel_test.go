package local

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/apd/v3"
	"github.com/regelkit/regelkit/dmn/feel"
	"github.com/regelkit/regelkit/engine"
)

func num(t engine.Type, s string) engine.Variable {
	return engine.Variable{Type: t, Value: json.Number(s)}
}

func TestFEELConversion(t *testing.T) {
	exact := "1234567890123456789012345678.901234"
	for _, tc := range []struct {
		v    engine.Variable
		want string // feel.Literal of the FEEL value
	}{
		{engine.Null(), "null"},
		{engine.Boolean(false), "false"},
		{engine.Long(9007199254740993), "9007199254740993"},
		{num(engine.TypeDouble, exact), exact},
		{num(engine.TypeDouble, "1e3"), "1000"},
		{engine.String("2025-12-24"), `"2025-12-24"`},
		{engine.Date(time.Date(2025, 12, 24, 10, 30, 0, 0, time.FixedZone("", 3600))), `date and time("2025-12-24T10:30:00+01:00")`},
		{engine.Variable{Type: engine.TypeJSON, Value: `{"b":[1,2.50],"a":null}`}, `{a: null, b: [1, 2.50]}`},
		{engine.Bytes([]byte("hi")), `"aGk="`},
		{engine.Variable{Type: engine.TypeObject, Value: `{"x":1}`, ValueInfo: map[string]any{"serializationDataFormat": "application/json", "objectTypeName": "java.util.HashMap"}}, `{x: 1}`},
		{engine.Variable{Type: engine.TypeInteger}, "null"},
	} {
		x, err := FEEL(tc.v)
		if err != nil {
			t.Errorf("%v: %v", tc.v, err)
			continue
		}
		if got := feel.Literal(x); got != tc.want && !(strings.Contains(tc.want, "2.50") && got == strings.ReplaceAll(tc.want, "2.50", "2.5")) {
			t.Errorf("%v → %s, want %s", tc.v, got, tc.want)
		}
	}
	for _, bad := range []engine.Variable{
		{Type: engine.TypeObject, Value: "rO0AB", ValueInfo: map[string]any{"serializationDataFormat": "application/x-java-serialized-object"}},
		{Type: "File", Value: "x"},
		{Type: engine.TypeInteger, Value: "x1"},
		{Type: engine.TypeBoolean, Value: "true"},
		{Type: engine.TypeJSON, Value: "{"},
	} {
		if x, err := FEEL(bad); err == nil {
			t.Errorf("%v → %v, want an error", bad, x)
		}
	}
}

func TestFromFEEL(t *testing.T) {
	ctx := feel.NewContext(2)
	ctx.Put("z", apd.New(15, -1))
	ctx.Put("a", []feel.Value{true, nil, feel.Date{Year: 2025, Month: 1, Day: 2}})
	for _, tc := range []struct {
		in   feel.Value
		want engine.Variable
	}{
		{nil, engine.Null()},
		{true, engine.Boolean(true)},
		{apd.New(45, 0), engine.Integer(45)},
		{apd.New(4500, -2), engine.Integer(45)},
		{apd.New(1, 10), engine.Long(10000000000)},
		{apd.New(136906, -2), num(engine.TypeDouble, "1369.06")},
		{"x", engine.String("x")},
		{feel.Date{Year: 2047, Month: 1, Day: 23}, engine.String("2047-01-23")},
		{feel.Duration{Sec: 90}, engine.String("PT1M30S")},
		{feel.YearsMonths(14), engine.String("P1Y2M")},
		{ctx, engine.Variable{Type: engine.TypeJSON, Value: `{"a":[true,null,"2025-01-02"],"z":1.5}`}},
	} {
		got, err := FromFEEL(tc.in)
		if err != nil || !got.Equal(tc.want) {
			t.Errorf("FromFEEL(%s) = %v, %v; want %v", feel.Literal(tc.in), got, err, tc.want)
		}
	}
	r := feel.Range{Start: apd.New(1, 0), End: apd.New(2, 0), StartIncluded: true}
	if v, err := FromFEEL(r); err == nil {
		t.Errorf("a range converted to %v", v)
	}
	if v, err := FromFEEL([]feel.Value{r}); err == nil {
		t.Errorf("a list with a range converted to %v", v)
	}
	nan := &apd.Decimal{Form: apd.NaN}
	if v, err := FromFEEL(nan); err == nil {
		t.Errorf("NaN converted to %v", v)
	}
}

// TestPrecision: numbers survive FEEL → variable → JSON → variable → FEEL.
func TestPrecision(t *testing.T) {
	for _, s := range []string{"0.1", "1369.06", "9223372036854775807", "9223372036854775808", "-0.000000000000000000000000000000001", "1234567890.123456789012345678901234"} {
		d, _ := feel.ParseNumber(s)
		v, err := FromFEEL(d)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(v)
		var back engine.Variable
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		x, err := FEEL(back)
		if err != nil {
			t.Fatal(err)
		}
		if x.(*apd.Decimal).Cmp(d) != 0 {
			t.Errorf("%s came back as %s (via %s)", s, feel.String(x), b)
		}
	}
}

// BenchmarkFEELInputs reads a 3-variable evaluation request and converts
// it to FEEL inputs, as the REST facade does per request.
func BenchmarkFEELInputs(b *testing.B) {
	body := []byte(`{"age":{"value":95,"type":"Integer"},"riskCategory":{"value":"High","type":"String"},"income":{"value":1369.06,"type":"Double"}}`)
	b.ReportAllocs()
	for b.Loop() {
		vs, err := engine.ParseVariables(body)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := FEELInputs(vs); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzFEEL: any variable the engine reads converts to FEEL or fails with
// a *engine.VariableError, never a panic.
func FuzzFEEL(f *testing.F) {
	for _, s := range []string{
		`{"a":{"value":95,"type":"Integer"},"b":{"value":"x","type":"String"}}`,
		`{"j":{"value":"{\"x\":[1,2.5]}","type":"Json"}}`,
		`{"o":{"value":"{}","type":"Object","valueInfo":{"serializationDataFormat":"application/json"}}}`,
		`{"d":{"value":"2025-01-02T03:04:05.000+0100","type":"Date"}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		vs, err := engine.ParseVariables(body)
		if err != nil {
			return
		}
		if _, err := FEELInputs(vs); err != nil {
			var ve *engine.VariableError
			if !errors.As(err, &ve) {
				t.Fatalf("error %v is not a *engine.VariableError", err)
			}
		}
	})
}
