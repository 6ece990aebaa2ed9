package graph

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

func TestWellFormed(t *testing.T) {
	cases := []struct {
		dt  string // local name in the XSD namespace
		lex string
		ok  bool
	}{
		// xsd:integer and the types derived from it, with their bounds.
		{"integer", "0", true}, {"integer", "-17", true}, {"integer", "+17", true}, {"integer", "007", true},
		{"integer", " 42 ", true}, {"integer", "\t42\n", true}, {"integer", "123456789012345678901234567890", true},
		{"integer", "", false}, {"integer", "+", false}, {"integer", "-", false}, {"integer", "1.0", false},
		{"integer", "1e3", false}, {"integer", "4 2", false}, {"integer", "0x10", false}, {"integer", "١", false},
		{"integer", "+-1", false},
		{"byte", "127", true}, {"byte", "-128", true}, {"byte", "128", false}, {"byte", "-129", false}, {"byte", "c", false},
		{"short", "32767", true}, {"short", "32768", false}, {"short", "-32768", true}, {"short", "-32769", false},
		{"int", "2147483647", true}, {"int", "2147483648", false}, {"int", "-2147483648", true}, {"int", "-2147483649", false},
		{"long", "9223372036854775807", true}, {"long", "9223372036854775808", false},
		{"long", "-9223372036854775808", true}, {"long", "-9223372036854775809", false},
		{"unsignedByte", "255", true}, {"unsignedByte", "256", false}, {"unsignedByte", "-1", false}, {"unsignedByte", "-0", true},
		{"unsignedShort", "65535", true}, {"unsignedShort", "65536", false},
		{"unsignedInt", "4294967295", true}, {"unsignedInt", "4294967296", false}, {"unsignedInt", "-1", false},
		{"unsignedLong", "18446744073709551615", true}, {"unsignedLong", "18446744073709551616", false},
		{"unsignedLong", "-1", false}, {"unsignedLong", "-0", true}, {"unsignedLong", "+0", true},
		{"positiveInteger", "+7", true}, {"positiveInteger", "1", true}, {"positiveInteger", "0", false}, {"positiveInteger", "-5", false},
		{"positiveInteger", "99999999999999999999999", true},
		{"nonNegativeInteger", "0", true}, {"nonNegativeInteger", "-0", true}, {"nonNegativeInteger", "-1", false},
		{"nonNegativeInteger", "-99999999999999999999999", false},
		{"negativeInteger", "-1", true}, {"negativeInteger", "0", false}, {"negativeInteger", "-99999999999999999999999", true},
		{"negativeInteger", "99999999999999999999999", false},
		{"byte", "000000000000000000000127", true}, {"byte", "-0000000000000000000000128", true},
		{"byte", "000000000000000000000128", false}, {"long", "-0009223372036854775808", true},
		{"unsignedLong", "0018446744073709551615", true}, {"unsignedLong", "0018446744073709551616", false},
		{"nonNegativeInteger", "-00000000000000000000001", false},
		{"nonPositiveInteger", "-0", true}, {"nonPositiveInteger", "0", true}, {"nonPositiveInteger", "1", false},

		{"decimal", "1.5", true}, {"decimal", "-1.5", true}, {"decimal", "+1.5", true}, {"decimal", ".5", true},
		{"decimal", "5.", true}, {"decimal", "-.5", true}, {"decimal", "42", true}, {"decimal", " 0.0 ", true},
		{"decimal", ".", false}, {"decimal", "-.", false}, {"decimal", "", false}, {"decimal", "1e3", false},
		{"decimal", "1.2.3", false}, {"decimal", "1,5", false}, {"decimal", "INF", false}, {"decimal", "NaN", false},

		{"double", "1e3", true}, {"double", "1E3", true}, {"double", "-1.5E-3", true}, {"double", "+.5e+7", true},
		{"double", "5.e1", true}, {"double", "42", true}, {"double", "0.5", true}, {"double", "1e400", true},
		{"double", "INF", true}, {"double", "+INF", true}, {"double", "-INF", true}, {"double", "NaN", true},
		{"double", "inf", false}, {"double", "Infinity", false}, {"double", "nan", false}, {"double", "-NaN", false},
		{"double", "1e", false}, {"double", "e3", false}, {"double", ".e3", false}, {"double", "1e3.5", false},
		{"double", "0x1p3", false}, {"double", "1_000", false}, {"double", "", false},
		{"float", "-1.5E-3", true}, {"float", "NaN", true}, {"float", "1e39", true}, {"float", "1.0f", false},

		{"boolean", "true", true}, {"boolean", "false", true}, {"boolean", "1", true}, {"boolean", "0", true},
		{"boolean", " true ", true}, {"boolean", "True", false}, {"boolean", "yes", false}, {"boolean", "", false},

		{"dateTime", "2024-01-01T12:00:00", true}, {"dateTime", "2024-01-01T12:00:00Z", true},
		{"dateTime", "2024-01-01T12:00:00.123-05:00", true}, {"dateTime", "2024-01-01T24:00:00", true},
		{"dateTime", "2024-01-01T24:00:00.000", true}, {"dateTime", "2024-01-01T24:00:01", false},
		{"dateTime", "2024-01-01T24:00:00.5", false}, {"dateTime", "2024-01-01T12:60:00", false},
		{"dateTime", "2024-01-01T12:00:60", false}, {"dateTime", "2024-01-01", false},
		{"dateTime", "2024-01-01T12:00", false}, {"dateTime", "2024-01-01T12:00:00.", false},
		{"dateTime", "2024-01-01T12:00:00+14:00", true}, {"dateTime", "2024-01-01T12:00:00-14:00", true},
		{"dateTime", "2024-01-01T12:00:00+14:01", false}, {"dateTime", "2024-01-01T12:00:00+15:00", false},
		{"dateTime", "2024-01-01T12:00:00+05:60", false}, {"dateTime", "2024-01-01T12:00:00+0500", false},
		{"dateTime", "2024-01-01 12:00:00", false}, {"dateTime", "12024-01-01T00:00:00", true},
		{"dateTime", "02024-01-01T00:00:00", false}, {"dateTime", "-0044-03-15T12:00:00", true},
		{"dateTime", "24-01-01T00:00:00", false}, {"dateTime", "2024-1-01T00:00:00", false},
		{"dateTimeStamp", "2024-01-01T12:00:00Z", true}, {"dateTimeStamp", "2024-01-01T12:00:00", false},

		{"date", "2024-02-29", true}, {"date", "2023-02-29", false}, {"date", "1900-02-29", false}, {"date", "2000-02-29", true},
		{"date", "2024-04-31", false}, {"date", "2024-13-01", false}, {"date", "2024-00-10", false}, {"date", "2024-01-00", false},
		{"date", "2024-01-01Z", true}, {"date", "2024-01-01+01:00", true}, {"date", "2024-01-01+15:00", false},
		{"date", "-0044-03-15", true}, {"date", "0000-01-01", true}, {"date", "2024-01-01T00:00:00", false},
		{"date", "Z", false}, {"date", "", false},

		{"time", "12:00:00", true}, {"time", "00:00:00.000001Z", true}, {"time", "23:59:59-08:00", true},
		{"time", "24:00:00", true}, {"time", "25:00:00", false}, {"time", "12:00", false}, {"time", "1:00:00", false},

		{"duration", "P1Y2M3DT4H5M6.5S", true}, {"duration", "-PT1H", true}, {"duration", "P0D", true},
		{"duration", "PT0.5S", true}, {"duration", "P1M", true}, {"duration", "PT1M", true},
		{"duration", "P", false}, {"duration", "PT", false}, {"duration", "P1S", false}, {"duration", "P1.5Y", false},
		{"duration", "P1D1Y", false}, {"duration", "PT1S1M", false}, {"duration", "P1DT", false}, {"duration", "1D", false},
		{"duration", "+P1D", false}, {"duration", "PT.5S", false}, {"duration", "PT5.S", false}, {"duration", "P-1D", false},
		{"dayTimeDuration", "P1DT2H", true}, {"dayTimeDuration", "-PT0S", true}, {"dayTimeDuration", "P1Y", false},
		{"dayTimeDuration", "P1M1D", false},
		{"yearMonthDuration", "P1Y2M", true}, {"yearMonthDuration", "-P3M", true}, {"yearMonthDuration", "P1D", false},
		{"yearMonthDuration", "P1YT1H", false},

		{"gYear", "2024", true}, {"gYear", "-0044", true}, {"gYear", "2024Z", true}, {"gYear", "24", false},
		{"gYear", "2024-01", false},
		{"gYearMonth", "2024-05", true}, {"gYearMonth", "2024-13", false}, {"gYearMonth", "2024-5", false},
		{"gMonth", "--05", true}, {"gMonth", "--13", false}, {"gMonth", "-05", false},
		{"gDay", "---31", true}, {"gDay", "---32", false}, {"gDay", "---00", false}, {"gDay", "---01+01:00", true},
		{"gMonthDay", "--02-29", true}, {"gMonthDay", "--02-29Z", true}, {"gMonthDay", "--02-30", false},
		{"gMonthDay", "--04-31", false}, {"gMonthDay", "--12-31", true},

		{"hexBinary", "0aFF", true}, {"hexBinary", "", true}, {"hexBinary", "0aF", false}, {"hexBinary", "0g", false},

		// Strings and datatypes without a check are well-formed.
		{"string", " anything at all ", true}, {"anyURI", "not checked", true}, {"base64Binary", "!!", true},
	}
	for _, tc := range cases {
		lit := Literal(tc.lex, XSD+tc.dt)
		if got := WellFormed(lit); got != tc.ok {
			t.Errorf("WellFormed(%q^^xsd:%s) = %v, want %v", tc.lex, tc.dt, got, tc.ok)
		}
	}

	others := []struct {
		t  Term
		ok bool
	}{
		{LangLiteral("x", "en"), true},
		{Term{Kind: KindLiteral, Value: "x", Datatype: RDFLangStr}, false},
		{Literal("x", "http://example.org/myType"), true},
		{String("x"), true},
		{IRI("http://example.org/"), false},
		{Blank("b"), false},
		{Term{}, false},
	}
	for _, tc := range others {
		if got := WellFormed(tc.t); got != tc.ok {
			t.Errorf("WellFormed(%v) = %v, want %v", tc.t, got, tc.ok)
		}
	}
}

func TestNumericTypeOf(t *testing.T) {
	cases := map[string]NumericType{
		XSDInteger: NumericInteger, XSD + "byte": NumericInteger, XSD + "unsignedLong": NumericInteger,
		XSD + "nonPositiveInteger": NumericInteger, XSDDecimal: NumericDecimal, XSD + "float": NumericFloat,
		XSDDouble: NumericDouble, XSDString: NotNumeric, XSD + "duration": NotNumeric,
		"http://example.org/integer": NotNumeric, "": NotNumeric, XSD: NotNumeric,
	}
	for dt, want := range cases {
		if got := NumericTypeOf(dt); got != want {
			t.Errorf("NumericTypeOf(%q) = %d, want %d", dt, got, want)
		}
	}
}

func TestDecimalString(t *testing.T) {
	cases := []struct {
		t    Term
		want string
		ok   bool
	}{
		{Literal("42", XSDInteger), "42", true},
		{Literal("+42", XSDInteger), "42", true},
		{Literal("-42", XSDInteger), "-42", true},
		{Literal(" 007 ", XSDInteger), "007", true},
		{Literal("-0", XSD+"unsignedLong"), "-0", true},
		{Literal("300", XSD+"unsignedByte"), "", false},
		{Literal("1.50", XSDDecimal), "1.50", true},
		{Literal("+1.5", XSDDecimal), "1.5", true},
		{Literal("5.", XSDDecimal), "5", true},
		{Literal("-5.", XSDDecimal), "-5", true},
		{Literal(".5", XSDDecimal), "0.5", true},
		{Literal("-.5", XSDDecimal), "-0.5", true},
		{Literal("+.5", XSDDecimal), "0.5", true},
		{Literal("7", XSDDecimal), "7", true},
		{Literal("1.5", XSDInteger), "", false},
		{Literal("1e3", XSDDecimal), "", false},
		{Literal("1.5", XSDDouble), "", false},
		{String("1"), "", false},
		{IRI(XSDInteger), "", false},
	}
	for _, tc := range cases {
		got, ok := DecimalString(tc.t)
		if got != tc.want || ok != tc.ok {
			t.Errorf("DecimalString(%v) = %q, %v; want %q, %v", tc.t, got, ok, tc.want, tc.ok)
		}
	}
}

func TestFloat64(t *testing.T) {
	cases := []struct {
		t    Term
		want float64
		ok   bool
	}{
		{Literal("1.5e3", XSDDouble), 1500, true},
		{Literal("-.25", XSDDouble), -0.25, true},
		{Literal("1e400", XSDDouble), math.Inf(1), true},
		{Literal("-1e400", XSDDouble), math.Inf(-1), true},
		{Literal("1e-400", XSDDouble), 0, true},
		{Literal("INF", XSDDouble), math.Inf(1), true},
		{Literal("-INF", XSD+"float"), math.Inf(-1), true},
		{Literal("0.1", XSD+"float"), 0.100000001490116119384765625, true}, // the float32 nearest 0.1
		{Literal("1e39", XSD+"float"), math.Inf(1), true},
		{Literal("0.1", XSDDouble), 0.1, true},
		{Literal("12", XSDInteger), 12, true},
		{Literal("9007199254740993", XSDInteger), 9007199254740992, true}, // 2^53+1 rounds to even
		{Literal("2.5", XSDDecimal), 2.5, true},
		{Literal("inf", XSDDouble), 0, false},
		{Literal("x", XSDInteger), 0, false},
		{String("1"), 0, false},
		{Blank("b"), 0, false},
	}
	for _, tc := range cases {
		got, ok := Float64(tc.t)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Float64(%v) = %v, %v; want %v, %v", tc.t, got, ok, tc.want, tc.ok)
		}
	}
	if f, ok := Float64(Literal("NaN", XSDDouble)); !ok || !math.IsNaN(f) {
		t.Errorf("Float64(NaN) = %v, %v; want NaN, true", f, ok)
	}
}

func TestBoolValue(t *testing.T) {
	cases := []struct {
		lex, dt   string
		value, ok bool
	}{
		{"true", XSDBoolean, true, true}, {"1", XSDBoolean, true, true}, {" 1", XSDBoolean, true, true},
		{"false", XSDBoolean, false, true}, {"0", XSDBoolean, false, true},
		{"TRUE", XSDBoolean, false, false}, {"2", XSDBoolean, false, false}, {"true", XSDString, false, false},
	}
	for _, tc := range cases {
		v, ok := BoolValue(Literal(tc.lex, tc.dt))
		if v != tc.value || ok != tc.ok {
			t.Errorf("BoolValue(%q^^<%s>) = %v, %v; want %v, %v", tc.lex, tc.dt, v, ok, tc.value, tc.ok)
		}
	}
}

func TestParseDateTime(t *testing.T) {
	cases := []struct {
		t    Term
		want DateTime
		ok   bool
	}{
		{Literal("2011-01-10T14:45:13.815-05:00", XSDDateTime), DateTime{2011, 1, 10, 14, 45, 13, "815", "-05:00"}, true},
		{Literal("2024-02-29T24:00:00Z", XSDDateTime), DateTime{2024, 2, 29, 24, 0, 0, "", "Z"}, true},
		{Literal("-0044-03-15T12:00:00", XSDDateTime), DateTime{-44, 3, 15, 12, 0, 0, "", ""}, true},
		{Literal("123456-12-31T00:00:00.000+14:00", XSD+"dateTimeStamp"), DateTime{123456, 12, 31, 0, 0, 0, "000", "+14:00"}, true},
		{Literal(" 2024-05-01+02:00 ", XSDDate), DateTime{2024, 5, 1, 0, 0, 0, "", "+02:00"}, true},
		{Literal("08:30:00.5", XSD+"time"), DateTime{0, 0, 0, 8, 30, 0, "5", ""}, true},
		{Literal("2024-05-01", XSDDateTime), DateTime{}, false},
		{Literal("2024-05-01T00:00:00", XSD+"dateTimeStamp"), DateTime{}, false},
		{Literal("2024-05", XSD+"gYearMonth"), DateTime{}, false},
		{String("2024-05-01"), DateTime{}, false},
	}
	for _, tc := range cases {
		got, ok := ParseDateTime(tc.t)
		if ok != tc.ok || got != tc.want {
			t.Errorf("ParseDateTime(%v) = %+v, %v; want %+v, %v", tc.t, got, ok, tc.want, tc.ok)
		}
	}

	zones := []struct {
		zone    string
		minutes int
		ok      bool
	}{{"", 0, false}, {"Z", 0, true}, {"+00:00", 0, true}, {"-05:00", -300, true}, {"+05:30", 330, true}, {"-14:00", -840, true}}
	for _, tc := range zones {
		m, ok := DateTime{Zone: tc.zone}.ZoneOffset()
		if m != tc.minutes || ok != tc.ok {
			t.Errorf("ZoneOffset(%q) = %d, %v; want %d, %v", tc.zone, m, ok, tc.minutes, tc.ok)
		}
	}
}

func TestCompareLiterals(t *testing.T) {
	x := XSD
	lit := Literal
	cases := []struct {
		a, b Term
		want Comparison
	}{
		// Numbers: promotion across the numeric types.
		{lit("1", x+"integer"), lit("1.0", x+"decimal"), Equal},
		{lit("1", x+"integer"), lit("1.0E0", x+"double"), Equal},
		{lit("2", x+"integer"), lit("1.5e0", x+"double"), Greater},
		{lit("10", x+"byte"), lit("9", x+"long"), Greater},
		{lit("-3", x+"integer"), lit("2", x+"unsignedInt"), Less},
		{lit("007", x+"integer"), lit("+7", x+"int"), Equal},
		{lit("-0", x+"integer"), lit("0.000", x+"decimal"), Equal},
		{lit("-0.5", x+"decimal"), lit("-0.25", x+"decimal"), Less},
		{lit("-10", x+"integer"), lit("-9.99", x+"decimal"), Less},
		{lit("0.1", x+"decimal"), lit("0.10000", x+"decimal"), Equal},
		{lit(".5", x+"decimal"), lit("0.49999999999999999999999", x+"decimal"), Greater},
		{lit("123456789012345678901234567890", x+"integer"), lit("123456789012345678901234567891", x+"integer"), Less},
		{lit("99999999999999999999", x+"integer"), lit("100000000000000000000", x+"decimal"), Less},
		// Exact: two decimals one part in 10^25 apart are not equal...
		{lit("1.0000000000000000000000001", x+"decimal"), lit("1", x+"integer"), Greater},
		// ...but next to a double they are promoted and are.
		{lit("1.0000000000000000000000001", x+"decimal"), lit("1", x+"double"), Equal},
		// A float keeps its 32-bit value, even next to a double.
		{lit("0.1", x+"float"), lit("0.1", x+"double"), Greater},
		{lit("0.1", x+"float"), lit("0.1", x+"float"), Equal},
		// A decimal next to a float is promoted to float.
		{lit("0.1", x+"decimal"), lit("0.1", x+"float"), Equal},
		{lit("INF", x+"double"), lit("1e308", x+"double"), Greater},
		{lit("-INF", x+"float"), lit("-99999999999999999999999", x+"integer"), Less},
		{lit("-0.0e0", x+"double"), lit("0", x+"integer"), Equal},
		{lit(" 5 ", x+"integer"), lit("5", x+"integer"), Equal},
		// NaN is unordered with everything, itself included.
		{lit("NaN", x+"double"), lit("1", x+"integer"), Unordered},
		{lit("NaN", x+"double"), lit("NaN", x+"double"), Unordered},
		{lit("1", x+"float"), lit("NaN", x+"float"), Unordered},
		// Ill-formed numbers and mixed kinds are incomparable.
		{lit("x", x+"integer"), lit("1", x+"integer"), Incomparable},
		{lit("300", x+"unsignedByte"), lit("1", x+"integer"), Incomparable},
		{String("1"), lit("1", x+"integer"), Incomparable},
		{lit("1", x+"integer"), lit("true", x+"boolean"), Incomparable},

		// Strings by code point.
		{String("a"), String("b"), Less},
		{String("abc"), String("ab"), Greater},
		{String("é"), String("z"), Greater},
		{String("\U0001F600"), String("\uFFFD"), Greater},
		{String(""), String(""), Equal},
		{LangLiteral("a", "en"), LangLiteral("b", "en"), Incomparable},
		{String("a"), LangLiteral("a", "en"), Incomparable},

		// Booleans.
		{lit("true", x+"boolean"), lit("0", x+"boolean"), Greater},
		{lit("false", x+"boolean"), lit("1", x+"boolean"), Less},
		{lit("1", x+"boolean"), lit(" true", x+"boolean"), Equal},
		{lit("yes", x+"boolean"), lit("true", x+"boolean"), Incomparable},

		// Dates and times, with and without time zones.
		{lit("2024-01-02", x+"date"), lit("2024-01-01", x+"date"), Greater},
		{lit("2024-01-01Z", x+"date"), lit("2024-01-01+01:00", x+"date"), Greater},
		{lit("2002-10-10T12:00:00-05:00", x+"dateTime"), lit("2002-10-10T17:00:00Z", x+"dateTime"), Equal},
		{lit("2002-10-10T12:00:00-05:00", x+"dateTime"), lit("2002-10-10T17:00:00Z", x+"dateTimeStamp"), Equal},
		{lit("2024-01-01T24:00:00", x+"dateTime"), lit("2024-01-02T00:00:00", x+"dateTime"), Equal},
		{lit("2024-01-01T00:00:00.5", x+"dateTime"), lit("2024-01-01T00:00:00.50", x+"dateTime"), Equal},
		{lit("2024-01-01T00:00:00.1234567891", x+"dateTime"), lit("2024-01-01T00:00:00.1234567892", x+"dateTime"), Less},
		{lit("2024-01-01T00:00:00", x+"dateTime"), lit("2024-01-01T00:00:00.000", x+"dateTime"), Equal},
		{lit("-0001-12-31T00:00:00Z", x+"dateTime"), lit("0000-01-01T00:00:00Z", x+"dateTime"), Less},
		{lit("13:00:00", x+"time"), lit("12:59:59.5", x+"time"), Greater},
		{lit("12:00:00+01:00", x+"time"), lit("11:00:00Z", x+"time"), Equal},
		// One side without a time zone: ordered only more than 14 hours apart.
		{lit("2002-10-10T12:00:00", x+"dateTime"), lit("2002-10-10T12:00:00Z", x+"dateTime"), Incomparable},
		{lit("2002-10-10T12:00:00", x+"dateTime"), lit("2002-10-11T02:00:00Z", x+"dateTime"), Incomparable},
		{lit("2002-10-10T12:00:00", x+"dateTime"), lit("2002-10-11T02:00:01Z", x+"dateTime"), Less},
		{lit("2002-10-09T12:00:00-05:00", x+"dateTime"), lit("2002-10-10T12:00:00", x+"dateTime"), Less},
		{lit("2002-10-12T12:00:00", x+"dateTime"), lit("2002-10-10T12:00:00Z", x+"dateTime"), Greater},
		{lit("2002-10-09T21:59:59Z", x+"dateTime"), lit("2002-10-10T12:00:00", x+"dateTime"), Less},
		{lit("2002-10-09T22:00:00Z", x+"dateTime"), lit("2002-10-10T12:00:00", x+"dateTime"), Incomparable},
		{lit("2024-01-01", x+"date"), lit("2024-01-03Z", x+"date"), Less},
		// Different date/time types and other types are incomparable.
		{lit("2024-01-01", x+"date"), lit("2024-01-01T00:00:00", x+"dateTime"), Incomparable},
		{lit("12:00:00", x+"time"), lit("2024-01-01T12:00:00", x+"dateTime"), Incomparable},
		{lit("2024-02-30", x+"date"), lit("2024-01-01", x+"date"), Incomparable},
		{lit("P1D", x+"duration"), lit("P2D", x+"duration"), Incomparable},
		{lit("2024", x+"gYear"), lit("2024", x+"gYear"), Incomparable},
		{lit("a", "http://example.org/t"), lit("a", "http://example.org/t"), Incomparable},
		{IRI("http://example.org/a"), String("a"), Incomparable},
		{Blank("a"), Blank("a"), Incomparable},
	}
	for _, tc := range cases {
		if got := CompareLiterals(tc.a, tc.b); got != tc.want {
			t.Errorf("CompareLiterals(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
		// The order is antisymmetric.
		want := map[Comparison]Comparison{Less: Greater, Greater: Less}[tc.want]
		if want == Incomparable {
			want = tc.want
		}
		if got := CompareLiterals(tc.b, tc.a); got != want {
			t.Errorf("CompareLiterals(%v, %v) = %v, want %v", tc.b, tc.a, got, want)
		}
	}
}

func TestIsNumericToken(t *testing.T) {
	cases := []struct {
		lex, dt string
		ok      bool
	}{
		{"7", XSDInteger, true}, {"-7", XSDInteger, true}, {"+007", XSDInteger, true},
		{"", XSDInteger, false}, {"-", XSDInteger, false}, {" 7", XSDInteger, false}, {"7.0", XSDInteger, false},
		{"1.5", XSDDecimal, true}, {"-.5", XSDDecimal, true}, {"+0.0", XSDDecimal, true},
		{"5.", XSDDecimal, false}, {"5", XSDDecimal, false}, {".", XSDDecimal, false}, {"1.5e3", XSDDecimal, false},
		{"1.5e3", XSDDouble, true}, {"1E3", XSDDouble, true}, {".5e-3", XSDDouble, true}, {"5.E+3", XSDDouble, true},
		{"-1e0", XSDDouble, true},
		{"1.5", XSDDouble, false}, {"INF", XSDDouble, false}, {"NaN", XSDDouble, false}, {"e3", XSDDouble, false},
		{".e3", XSDDouble, false}, {"1e", XSDDouble, false}, {"1e+", XSDDouble, false}, {"1e3x", XSDDouble, false},
		{"1", XSD + "float", false}, {"1", XSD + "int", false}, {"true", XSDBoolean, false},
	}
	for _, tc := range cases {
		if got := IsNumericToken(Literal(tc.lex, tc.dt)); got != tc.ok {
			t.Errorf("IsNumericToken(%q^^<%s>) = %v, want %v", tc.lex, tc.dt, got, tc.ok)
		}
	}
	if IsNumericToken(IRI("1")) {
		t.Error("an IRI is not a number token")
	}
}

var xsdFuzzTypes = []string{"integer", "byte", "unsignedLong", "positiveInteger", "decimal", "double", "float",
	"boolean", "date", "dateTime", "dateTimeStamp", "time", "duration", "dayTimeDuration", "yearMonthDuration",
	"gYear", "gYearMonth", "gMonth", "gDay", "gMonthDay", "hexBinary", "string"}

// FuzzWellFormed feeds arbitrary lexical forms to the lexical checks, the
// value readers and the comparison, as every XSD type: nothing panics, a
// well-formed number has a value and an ill-formed one none, a numeral
// reads back through strconv, a number token is well-formed, and every
// comparable value equals itself.
func FuzzWellFormed(f *testing.F) {
	for _, s := range []string{"1", "-0.5", "+.5", "5.", "1e9", "-1E-3", "INF", "NaN", "2024-02-29",
		"2024-01-01T24:00:00Z", "12:00:00+14:00", "P1Y2M3DT4H5M6.5S", "--02-29", "---31Z", "-0044",
		"0aFF", "-", "+", ".", "0x1p3", "\x00", " 7 ", "18446744073709551616",
		"2024-01-01T00:00:00.9999999999-00:00"} {
		f.Add(s, "dateTime")
		f.Add(s, "decimal")
	}
	f.Fuzz(func(t *testing.T, lex, dt string) {
		for _, typ := range append(xsdFuzzTypes, dt) {
			lit := Literal(lex, XSD+typ)
			ok := WellFormed(lit)
			k := NumericTypeOf(lit.Datatype)
			if _, has := Float64(lit); k != NotNumeric && has != ok {
				t.Fatalf("%q^^xsd:%s: well-formed %v but Float64 ok %v", lex, typ, ok, has)
			}
			if n, has := DecimalString(lit); has {
				if !ok || k > NumericDecimal {
					t.Fatalf("%q^^xsd:%s: DecimalString %q for a literal that is not a well-formed integer or decimal", lex, typ, n)
				}
				if _, err := strconv.ParseFloat(n, 64); err != nil && !isRangeError(err) {
					t.Fatalf("%q^^xsd:%s: numeral %q does not parse: %v", lex, typ, n, err)
				}
				if k == NumericInteger && strings.Contains(n, ".") || strings.HasPrefix(n, "+") {
					t.Fatalf("%q^^xsd:%s: numeral %q", lex, typ, n)
				}
			} else if ok && k != NotNumeric && k <= NumericDecimal {
				t.Fatalf("%q^^xsd:%s is well-formed but has no numeral", lex, typ)
			}
			if _, has := BoolValue(lit); typ == "boolean" && has != ok {
				t.Fatalf("%q^^xsd:boolean: well-formed %v but BoolValue ok %v", lex, ok, has)
			}
			if _, has := ParseDateTime(lit); has && !ok {
				t.Fatalf("%q^^xsd:%s parses as a date/time but is ill-formed", lex, typ)
			}
			if IsNumericToken(lit) && !ok {
				t.Fatalf("%q^^xsd:%s is a number token but ill-formed", lex, typ)
			}
			c := CompareLiterals(lit, lit)
			if c != Incomparable && !ok {
				t.Fatalf("%q^^xsd:%s is ill-formed but comparable", lex, typ)
			}
			if c != Incomparable && c != Equal && c != Unordered {
				t.Fatalf("%q^^xsd:%s compared with itself gives %v", lex, typ, c)
			}
			CompareLiterals(lit, Literal("1", XSDInteger))
			CompareLiterals(lit, Literal("2024-01-01T00:00:00", XSDDateTime))
		}
	})
}

// xsdBenchPairs are the comparisons a FILTER or a SHACL range constraint
// typically makes.
var xsdBenchPairs = [][2]Term{
	{Literal("12345", XSDInteger), Literal("100", XSDInteger)},
	{Literal("42.75", XSDDecimal), Literal("90.5", XSDDecimal)},
	{Literal("3", XSDInteger), Literal("2.5", XSDDecimal)},
	{Literal("1.5E-1", XSDDouble), Literal("1", XSDInteger)},
	{Literal("2024-05-17T10:00:00Z", XSDDateTime), Literal("2024-02-01T00:00:00Z", XSDDateTime)},
	{Literal("1990-01-01", XSDDate), Literal("2030-01-01", XSDDate)},
	{String("Organisatie 17"), String("Organisatie 170")},
	{Literal("true", XSDBoolean), Literal("0", XSDBoolean)},
}

// BenchmarkCompareLiterals reports the time per comparison over the
// pairs above; it allocates nothing.
func BenchmarkCompareLiterals(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range xsdBenchPairs {
			if CompareLiterals(p[0], p[1]) == Incomparable {
				b.Fatal("incomparable")
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(xsdBenchPairs)), "ns/compare")
}

// BenchmarkWellFormed checks the lexical forms of the pairs above.
func BenchmarkWellFormed(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range xsdBenchPairs {
			if !WellFormed(p[0]) || !WellFormed(p[1]) {
				b.Fatal("ill-formed")
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*2*len(xsdBenchPairs)), "ns/literal")
}
