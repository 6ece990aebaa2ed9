package brp

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestValidateAccepts(t *testing.T) {
	body := []byte(`{"type":"RaadpleegMetBurgerservicenummer","burgerservicenummer":["999992235"],
		"fields":["naam.voornamen","leeftijd","geboorte.datum.datum"],"gemeenteVanInschrijving":"0518"}`)
	req, err := Validate(body)
	if err != nil {
		t.Fatalf("Validate: %v", err)
	}
	want := &Request{
		Type:   "RaadpleegMetBurgerservicenummer",
		BSN:    "999992235",
		Fields: []string{"naam.voornamen", "leeftijd", "geboorte.datum.datum"},
		Body:   body,
	}
	if diff := cmp.Diff(want, req); diff != "" {
		t.Errorf("request (-want +got):\n%s", diff)
	}
}

func TestValidateRefuses(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []InvalidParam
	}{
		{"empty body", ``, []InvalidParam{
			{"type", "required", "Parameter is required."},
			{"burgerservicenummer", "required", "Parameter is required."},
			{"fields", "required", "Parameter is required."},
		}},
		{"wrong type", `{"type":"ZoekMetPostcodeEnHuisnummer","burgerservicenummer":["999992235"],"fields":["naam"]}`,
			[]InvalidParam{{"type", "value", "Value must be RaadpleegMetBurgerservicenummer."}}},
		{"type not a string", `{"type":1,"burgerservicenummer":["999992235"],"fields":["naam"]}`,
			[]InvalidParam{{"type", "value", "Value must be RaadpleegMetBurgerservicenummer."}}},
		{"two numbers", `{"type":"RaadpleegMetBurgerservicenummer","burgerservicenummer":["999992235","999991450"],"fields":["naam"]}`,
			[]InvalidParam{{"burgerservicenummer", "maxItems", "Array must hold one item."}}},
		{"no number", `{"type":"RaadpleegMetBurgerservicenummer","burgerservicenummer":[],"fields":["naam"]}`,
			[]InvalidParam{{"burgerservicenummer", "minItems", "Array must hold one item."}}},
		{"number not in an array", `{"type":"RaadpleegMetBurgerservicenummer","burgerservicenummer":"999992235","fields":["naam"]}`,
			[]InvalidParam{{"burgerservicenummer", "array", "Parameter must be an array."}}},
		{"eight digits", `{"type":"RaadpleegMetBurgerservicenummer","burgerservicenummer":["99999223"],"fields":["naam"]}`,
			[]InvalidParam{{"burgerservicenummer[0]", "pattern", "Value does not match the pattern ^[0-9]{9}$."}}},
		{"letters", `{"type":"RaadpleegMetBurgerservicenummer","burgerservicenummer":["99999223a"],"fields":["naam"]}`,
			[]InvalidParam{{"burgerservicenummer[0]", "pattern", "Value does not match the pattern ^[0-9]{9}$."}}},
		{"number as a number", `{"type":"RaadpleegMetBurgerservicenummer","burgerservicenummer":[999992235],"fields":["naam"]}`,
			[]InvalidParam{{"burgerservicenummer[0]", "string", "Value must be a string."}}},
		{"no fields", `{"type":"RaadpleegMetBurgerservicenummer","burgerservicenummer":["999992235"],"fields":[]}`,
			[]InvalidParam{{"fields", "minItems", "Array must hold at least one item."}}},
		{"unknown field and sub-path", `{"type":"RaadpleegMetBurgerservicenummer","burgerservicenummer":["999992235"],"fields":["naam","aNummer","naam..voornamen",7,"naam.voor-namen"]}`,
			[]InvalidParam{
				{"fields[1]", "fields", "Parameter names a field that does not exist."},
				{"fields[2]", "fields", "Parameter names a field that does not exist."},
				{"fields[3]", "string", "Value must be a string."},
				{"fields[4]", "fields", "Parameter names a field that does not exist."},
			}},
		{"not an object", `["RaadpleegMetBurgerservicenummer"]`,
			[]InvalidParam{{"body", "object", "The body must be a JSON object."}}},
		{"number twice", `{"type":"RaadpleegMetBurgerservicenummer","burgerservicenummer":["999992235"],"burgerservicenummer":["999991450"],"fields":["naam"]}`,
			[]InvalidParam{{"burgerservicenummer", "unique", "Parameter appears more than once."}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Validate([]byte(tt.body))
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("Validate = %v, want *ValidationError", err)
			}
			if diff := cmp.Diff(tt.want, ve.Params); diff != "" {
				t.Errorf("invalidParams (-want +got):\n%s", diff)
			}
			if strings.Contains(err.Error(), "999992235") {
				t.Errorf("error quotes the number: %v", err)
			}
		})
	}
}

func TestValidateBoundsTheProblems(t *testing.T) {
	fields := strings.Repeat(`"x",`, 99) + `"x"`
	_, err := Validate([]byte(`{"type":"RaadpleegMetBurgerservicenummer","burgerservicenummer":["999992235"],"fields":[` + fields + `]}`))
	var ve *ValidationError
	if !errors.As(err, &ve) || len(ve.Params) != 10 {
		t.Fatalf("Validate = %v, want 10 invalidParams", err)
	}
	fields = strings.Repeat(`"naam",`, 100) + `"naam"`
	_, err = Validate([]byte(`{"type":"RaadpleegMetBurgerservicenummer","burgerservicenummer":["999992235"],"fields":[` + fields + `]}`))
	if !errors.As(err, &ve) || ve.Params[0].Code != "maxItems" {
		t.Fatalf("Validate of 101 fields = %v, want maxItems", err)
	}
}

func TestValidateSyntax(t *testing.T) {
	tests := []struct {
		name string
		body string
		want SyntaxError
	}{
		{"bad token", "{\n  \"type\": x}", SyntaxError{Line: 2, Column: 11, Reason: "invalid character 'x' looking for beginning of value"}},
		{"cut off", `{"type":"Raadpleeg`, SyntaxError{Line: 1, Column: 19, Reason: "unexpected end of input"}},
		{"trailing data", `{} {}`, SyntaxError{Line: 1, Column: 4, Reason: "unexpected data after the JSON value"}},
		{"too deep", `{"a":` + strings.Repeat("[", 40), SyntaxError{Line: 1, Column: 37, Reason: "nesting deeper than 32"}},
		{"brackets in strings do not count", `{"a":"` + strings.Repeat("[", 40) + `",`, SyntaxError{Line: 1, Column: 49, Reason: "unexpected end of input"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Validate([]byte(tt.body))
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Validate = %v, want *SyntaxError", err)
			}
			if diff := cmp.Diff(tt.want, *se); diff != "" {
				t.Errorf("syntax error (-want +got):\n%s", diff)
			}
		})
	}
}

func TestValidateDeepBodyIsCheap(t *testing.T) {
	// A megabyte of brackets is refused at the 33rd, before any decoder.
	body := []byte(strings.Repeat("[", 1<<20))
	var se *SyntaxError
	if _, err := Validate(body); !errors.As(err, &se) || se.Column != MaxDepth+1 {
		t.Fatalf("Validate = %v, want nesting error at column %d", err, MaxDepth+1)
	}
}

func FuzzValidate(f *testing.F) {
	f.Add([]byte(`{"type":"RaadpleegMetBurgerservicenummer","burgerservicenummer":["999992235"],"fields":["naam"]}`))
	f.Add([]byte(`{"type":"RaadpleegMetBurgerservicenummer","burgerservicenummer":["999992235"],"fields":["partners.naam.voornamen"],"x":{"y":[1,2]}}`))
	f.Add([]byte(`{"a":"\"[[[","b":[[[]]]}`))
	f.Add([]byte(`[1,2`))
	f.Add([]byte(`{"type":"x","type":"y"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := Validate(body)
		if err == nil {
			if req.Type != QueryType || !nineDigits(req.BSN) || len(req.Fields) == 0 || string(req.Body) != string(body) {
				t.Fatalf("accepted an invalid lookup: %+v", req)
			}
			return
		}
		var se *SyntaxError
		var ve *ValidationError
		switch {
		case errors.As(err, &se):
			if se.Line < 1 || se.Column < 1 {
				t.Fatalf("position %d:%d", se.Line, se.Column)
			}
		case errors.As(err, &ve):
			if len(ve.Params) == 0 || len(ve.Params) > maxInvalidParams {
				t.Fatalf("%d invalidParams", len(ve.Params))
			}
			for _, p := range ve.Params {
				if len(p.Name) > 70 {
					t.Fatalf("unbounded name %q", p.Name)
				}
			}
		default:
			t.Fatalf("untyped error %v", err)
		}
	})
}

func BenchmarkValidate(b *testing.B) {
	body := []byte(wesselBody)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Validate(body); err != nil {
			b.Fatal(err)
		}
	}
}
