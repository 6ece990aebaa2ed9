package memstore

import "testing"

// TestValueSemantics checks the operators, functions and casts that take
// their XSD semantics from package graph; "-" is an expression error
// (unbound result).
func TestValueSemantics(t *testing.T) {
	s := New()
	const p = "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> SELECT ?r WHERE { BIND("
	for _, tc := range []struct{ expr, want string }{
		// numbers across types, exactly where both are exact
		{`1 = 1.0`, "true"},
		{`"007"^^xsd:integer = 7`, "true"},
		{`1.0000000000000000000000001 > 1`, "true"},
		{`"0.1"^^xsd:float = "0.1"^^xsd:double`, "false"},
		{`"0.1"^^xsd:float = 0.1`, "true"},
		{`" 42 "^^xsd:integer + 1`, "43"},
		{`"-.5"^^xsd:decimal * 2`, "-1.0"},
		// NaN is unordered: = and < are false, != is true
		{`"NaN"^^xsd:double = "NaN"^^xsd:double`, "false"},
		{`"NaN"^^xsd:double != "NaN"^^xsd:double`, "true"},
		{`"NaN"^^xsd:double < 1`, "false"},
		{`"NaN"^^xsd:double >= 1`, "false"},
		// the bounds of the derived integer types
		{`ISNUMERIC("255"^^xsd:unsignedByte)`, "true"},
		{`ISNUMERIC("256"^^xsd:unsignedByte)`, "false"},
		{`"256"^^xsd:unsignedByte + 1`, "-"},
		{`ISNUMERIC("1e3"^^xsd:integer)`, "false"},
		// booleans
		{`"1"^^xsd:boolean = true`, "true"},
		{`false < true`, "true"},
		{`xsd:integer("1"^^xsd:boolean)`, "1"},
		{`xsd:boolean(" 0 ")`, "false"},
		{`"yes"^^xsd:boolean = true`, "-"},
		// date/times: time zones, the ±14 hour window, 24:00:00
		{`"2002-10-10T12:00:00-05:00"^^xsd:dateTime = "2002-10-10T17:00:00Z"^^xsd:dateTime`, "true"},
		{`"2002-10-10T12:00:00"^^xsd:dateTime < "2002-10-10T12:00:00Z"^^xsd:dateTime`, "-"},
		{`"2002-10-10T12:00:00"^^xsd:dateTime < "2002-10-11T03:00:00Z"^^xsd:dateTime`, "true"},
		{`"2024-01-01T24:00:00"^^xsd:dateTime = "2024-01-02T00:00:00"^^xsd:dateTime`, "true"},
		{`"2024-01-01"^^xsd:date < "2024-01-02"^^xsd:date`, "true"},
		{`"12:00:00"^^xsd:time > "11:59:59.5"^^xsd:time`, "true"},
		{`"2024-01-01"^^xsd:date = "2024-01-01T00:00:00"^^xsd:dateTime`, "false"},
		{`"2024-02-30"^^xsd:date = "2024-01-01"^^xsd:date`, "-"},
		// accessors and casts
		{`SECONDS("2011-01-10T14:45:13.815-05:00"^^xsd:dateTime)`, "13.815"},
		{`TIMEZONE("2011-01-10T14:45:13-05:30"^^xsd:dateTime)`, "-PT5H30M"},
		{`TZ("2011-01-10T14:45:13+00:00"^^xsd:dateTime)`, "+00:00"},
		{`YEAR("-0044-03-15T12:00:00"^^xsd:dateTime)`, "-44"},
		{`HOURS("2024-01-01"^^xsd:date)`, "-"},
		{`xsd:date("2024-01-01T10:00:00+02:00"^^xsd:dateTime)`, "2024-01-01+02:00"},
		{`xsd:date("2024-01-01Z")`, "2024-01-01Z"},
		{`xsd:dateTime("2024-01-01")`, "-"},
		{`xsd:double(" 1.5e3 ")`, "1.5E3"},
		{`xsd:double("inf")`, "-"},
	} {
		if got := column(t, s, p+tc.expr+" AS ?r) }", "r"); got != tc.want {
			t.Errorf("%s = %s, want %s", tc.expr, got, tc.want)
		}
	}
}
