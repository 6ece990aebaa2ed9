package shacl

import (
	"testing"

	"github.com/regelkit/regelkit/sparql/graph"
)

func TestWellFormed(t *testing.T) {
	cases := []struct {
		lex, dt string
		ok      bool
	}{
		{"127", "byte", true}, {"128", "byte", false}, {"-129", "byte", false}, {"c", "byte", false},
		{" 42 ", "integer", true}, {"+7", "positiveInteger", true}, {"0", "positiveInteger", false}, {"-0", "nonPositiveInteger", true},
		{"18446744073709551615", "unsignedLong", true}, {"18446744073709551616", "unsignedLong", false}, {"-1", "unsignedInt", false},
		{"1.5", "decimal", true}, {".5", "decimal", true}, {"5.", "decimal", true}, {".", "decimal", false}, {"1e3", "decimal", false},
		{"1e3", "double", true}, {"-1.5E-3", "float", true}, {"INF", "double", true}, {"NaN", "float", true}, {"inf", "double", false}, {"1e", "double", false},
		{"true", "boolean", true}, {"0", "boolean", true}, {"yes", "boolean", false},
		{"2024-02-29", "date", true}, {"2023-02-29", "date", false}, {"2024-13-01", "date", false}, {"2024-01-01Z", "date", true}, {"2024-01-01+15:00", "date", false},
		{"2024-01-01T24:00:00", "dateTime", true}, {"2024-01-01T24:00:01", "dateTime", false}, {"2024-01-01T12:00:00.123-05:00", "dateTime", true},
		{"2024-01-01", "dateTime", false}, {"12:00:00", "time", true}, {"2024-01-01T12:00:00", "dateTimeStamp", false}, {"-0044-03-15", "date", true},
		{"P1Y2M3DT4H5M6.5S", "duration", true}, {"-PT1H", "duration", true}, {"P", "duration", false}, {"PT", "duration", false}, {"P1S", "duration", false}, {"P1.5Y", "duration", false},
		{"2024", "gYear", true}, {"24", "gYear", false}, {"2024-05", "gYearMonth", true}, {"--05", "gMonth", true}, {"---31", "gDay", true}, {"--02-29Z", "gMonthDay", true}, {"--02-30", "gMonthDay", false}, {"--04-31", "gMonthDay", false},
		{"0aFF", "hexBinary", true}, {"0aF", "hexBinary", false},
		{"anything", "string", true}, {"whatever", "anyURI", true},
	}
	for _, tc := range cases {
		if got := wellFormed(graph.Literal(tc.lex, graph.XSD+tc.dt)); got != tc.ok {
			t.Errorf("%q^^xsd:%s well-formed = %v, want %v", tc.lex, tc.dt, got, tc.ok)
		}
	}
	if wellFormed(graph.Term{Kind: graph.KindLiteral, Value: "x", Datatype: graph.RDFLangStr}) {
		t.Error("an rdf:langString without a language tag is ill-formed")
	}
}

func TestCompareTerms(t *testing.T) {
	lit := graph.Literal
	x := graph.XSD
	cases := []struct {
		a, b graph.Term
		c    int
		ok   bool
	}{
		{lit("1", x+"integer"), lit("1.0", x+"decimal"), 0, true},
		{lit("2", x+"integer"), lit("1.5e0", x+"double"), 1, true},
		{lit("10", x+"byte"), lit("9", x+"long"), 1, true},
		{lit("NaN", x+"double"), lit("1", x+"integer"), 0, false},
		{lit("INF", x+"double"), lit("1e308", x+"double"), 1, true},
		{graph.String("a"), graph.String("b"), -1, true},
		{graph.String("1"), lit("1", x+"integer"), 0, false},
		{graph.LangLiteral("a", "en"), graph.LangLiteral("b", "en"), 0, false},
		{lit("true", x+"boolean"), lit("0", x+"boolean"), 1, true},
		{lit("2024-01-02", x+"date"), lit("2024-01-01", x+"date"), 1, true},
		{lit("2024-01-01", x+"date"), lit("2024-01-01T00:00:00", x+"dateTime"), 0, false},
		{lit("2002-10-10T12:00:00-05:00", x+"dateTime"), lit("2002-10-10T17:00:00Z", x+"dateTime"), 0, true},
		// One side without a time zone: ordered only outside ±14 hours.
		{lit("2002-10-10T12:00:00", x+"dateTime"), lit("2002-10-10T12:00:00Z", x+"dateTime"), 0, false},
		{lit("2002-10-09T12:00:00-05:00", x+"dateTime"), lit("2002-10-10T12:00:00", x+"dateTime"), -1, true},
		{lit("2002-10-12T12:00:00", x+"dateTime"), lit("2002-10-10T12:00:00Z", x+"dateTime"), 1, true},
		{lit("13:00:00", x+"time"), lit("12:59:59.5", x+"time"), 1, true},
		{lit("x", x+"integer"), lit("1", x+"integer"), 0, false},
		{graph.IRI("http://e.org/a"), graph.String("a"), 0, false},
	}
	for _, tc := range cases {
		c, ok := compareTerms(tc.a, tc.b)
		if ok != tc.ok || ok && c != tc.c {
			t.Errorf("compare(%v, %v) = %d, %v; want %d, %v", tc.a, tc.b, c, ok, tc.c, tc.ok)
		}
	}
}

// FuzzLiteral feeds arbitrary lexical forms to the well-formedness check
// and the comparison: they never panic, and comparing a value with itself
// gives 0 whenever it is comparable.
func FuzzLiteral(f *testing.F) {
	for _, s := range []string{"1", "-0.5", "1e9", "INF", "2024-02-29", "2024-01-01T24:00:00Z", "12:00:00+14:00", "P1Y", "--02-29", "-", "+", "0x1p3", "\x00", "2024-01-01T00:00:00.9999999999-00:00"} {
		f.Add(s, "dateTime")
		f.Add(s, "decimal")
	}
	types := []string{"integer", "byte", "unsignedLong", "decimal", "double", "float", "boolean", "date", "dateTime",
		"dateTimeStamp", "time", "duration", "gYear", "gYearMonth", "gMonth", "gDay", "gMonthDay", "hexBinary", "string"}
	f.Fuzz(func(t *testing.T, lex, dt string) {
		for _, typ := range append(types, dt) {
			a := graph.Literal(lex, graph.XSD+typ)
			ok := wellFormed(a)
			c, comparable := compareTerms(a, a)
			if comparable && c != 0 {
				t.Fatalf("%q^^%s compared with itself gives %d", lex, typ, c)
			}
			if comparable && !ok {
				t.Fatalf("%q^^%s is ill-formed but comparable", lex, typ)
			}
			compareTerms(a, graph.Literal("1", graph.XSDInteger))
			compareTerms(a, graph.Literal("2024-01-01T00:00:00", graph.XSDDateTime))
		}
	})
}
