package graph

import (
	"cmp"
	"strconv"
	"strings"
	"time"
)

// This file is the one implementation of XSD literal semantics in regelkit:
// lexical spaces (WellFormed), values (DecimalString, Float64, BoolValue,
// ParseDateTime) and the value order SPARQL's operators use
// (CompareLiterals). SHACL's sh:datatype and range constraints, the SPARQL
// engine's operators and functions and the writers' bare numbers all call
// it, so the three cannot drift apart.

// WellFormed reports whether t is a literal whose lexical form lies in the
// lexical space of its datatype (XML Schema 1.1 Part 2), after the
// whiteSpace=collapse facet of the non-string types: leading and trailing
// white space do not count. It checks xsd:integer and the twelve types
// derived from it (including their value bounds: "128"^^xsd:byte is
// ill-formed), xsd:decimal, xsd:float, xsd:double, xsd:boolean,
// xsd:dateTime, xsd:dateTimeStamp, xsd:date, xsd:time, xsd:duration,
// xsd:dayTimeDuration, xsd:yearMonthDuration, the five Gregorian types and
// xsd:hexBinary; an rdf:langString needs a language tag. Any other
// datatype, XSD or not, is taken as well-formed. Terms that are not
// literals are not well-formed.
func WellFormed(t Term) bool {
	if t.Kind != KindLiteral {
		return false
	}
	dt := t.Datatype
	if !strings.HasPrefix(dt, XSD) {
		return dt != RDFLangStr || t.Lang != ""
	}
	local := dt[len(XSD):]
	if local == "string" {
		return true
	}
	switch k, r := numericType(dt); k {
	case NumericInteger, NumericDecimal:
		_, ok := exactNumeral(t.Value, k, r)
		return ok
	case NumericFloat, NumericDouble:
		return isFloatLexical(collapse(t.Value))
	}
	v := collapse(t.Value)
	switch local {
	case "boolean":
		_, ok := boolLexical(v)
		return ok
	case "dateTime", "dateTimeStamp", "date", "time":
		_, ok := ParseDateTime(t)
		return ok
	case "duration":
		_, _, ok := durationParts(v)
		return ok
	case "dayTimeDuration":
		ym, _, ok := durationParts(v)
		return ok && !ym
	case "yearMonthDuration":
		_, dayTime, ok := durationParts(v)
		return ok && !dayTime
	case "gYear":
		return isGregorian(v, "Y")
	case "gYearMonth":
		return isGregorian(v, "Y-M")
	case "gMonth":
		return isGregorian(v, "--M")
	case "gDay":
		return isGregorian(v, "---D")
	case "gMonthDay":
		return isGregorian(v, "--M-D")
	case "hexBinary":
		if len(v)%2 != 0 {
			return false
		}
		for i := 0; i < len(v); i++ {
			if !isHex(v[i]) {
				return false
			}
		}
		return true
	}
	return true
}

// NumericType is an XSD numeric datatype's place in the type promotion of
// SPARQL's operators (XPath 2.0, appendix B.1): an operation on two
// numbers of different types works in the greater of the two.
type NumericType uint8

const (
	NotNumeric     NumericType = iota // any other datatype
	NumericInteger                    // xsd:integer and the twelve types derived from it
	NumericDecimal                    // xsd:decimal
	NumericFloat                      // xsd:float
	NumericDouble                     // xsd:double
)

// NumericTypeOf returns the numeric type of the datatype IRI datatype, or
// NotNumeric.
func NumericTypeOf(datatype string) NumericType {
	k, _ := numericType(datatype)
	return k
}

// intRange is the value range of a type derived from xsd:integer; a
// missing bound is unbounded. xsd:unsignedLong's upper bound does not fit
// an int64 and is flagged instead.
type intRange struct {
	lo, hi          int64
	hasLo, hasHi    bool
	unsignedLongMax bool
}

// intRanges holds the ranges numericType refers to by index; 0 is
// unbounded.
var intRanges = [...]intRange{
	{},
	{hi: 0, hasHi: true},                        // 1 nonPositiveInteger
	{hi: -1, hasHi: true},                       // 2 negativeInteger
	{lo: 0, hasLo: true},                        // 3 nonNegativeInteger
	{lo: 1, hasLo: true},                        // 4 positiveInteger
	{-1 << 63, 1<<63 - 1, true, true, false},    // 5 long
	{-1 << 31, 1<<31 - 1, true, true, false},    // 6 int
	{-1 << 15, 1<<15 - 1, true, true, false},    // 7 short
	{-1 << 7, 1<<7 - 1, true, true, false},      // 8 byte
	{lo: 0, hasLo: true, unsignedLongMax: true}, // 9 unsignedLong
	{0, 1<<32 - 1, true, true, false},           // 10 unsignedInt
	{0, 1<<16 - 1, true, true, false},           // 11 unsignedShort
	{0, 1<<8 - 1, true, true, false},            // 12 unsignedByte
}

// numericType classifies a datatype IRI and, for the integer types, names
// their value range in intRanges, in one switch: it runs for every number
// an engine reads.
func numericType(datatype string) (NumericType, uint8) {
	switch datatype { // the common cases first: one comparison each
	case XSDInteger:
		return NumericInteger, 0
	case XSDDecimal:
		return NumericDecimal, 0
	case XSDDouble:
		return NumericDouble, 0
	case XSDString, RDFLangStr:
		return NotNumeric, 0
	}
	if !strings.HasPrefix(datatype, XSD) {
		return NotNumeric, 0
	}
	switch datatype[len(XSD):] {
	case "float":
		return NumericFloat, 0
	case "nonPositiveInteger":
		return NumericInteger, 1
	case "negativeInteger":
		return NumericInteger, 2
	case "nonNegativeInteger":
		return NumericInteger, 3
	case "positiveInteger":
		return NumericInteger, 4
	case "long":
		return NumericInteger, 5
	case "int":
		return NumericInteger, 6
	case "short":
		return NumericInteger, 7
	case "byte":
		return NumericInteger, 8
	case "unsignedLong":
		return NumericInteger, 9
	case "unsignedInt":
		return NumericInteger, 10
	case "unsignedShort":
		return NumericInteger, 11
	case "unsignedByte":
		return NumericInteger, 12
	}
	return NotNumeric, 0
}

// contains reports whether the integer numeral n ([-]digits) lies in r.
func (r intRange) contains(n string) bool {
	neg := n[0] == '-'
	u := strings.TrimLeft(trimSign(n), "0")
	var v int64
	if len(u) <= 18 { // below 10^18, within int64: no need for strconv
		for i := 0; i < len(u); i++ {
			v = v*10 + int64(u[i]-'0')
		}
		if neg {
			v = -v
		}
	} else {
		var err error
		if v, err = strconv.ParseInt(n, 10, 64); err != nil { // out of the int64 range
			if neg {
				return !r.hasLo
			}
			if r.unsignedLongMax {
				_, err := strconv.ParseUint(u, 10, 64)
				return err == nil
			}
			return !r.hasHi
		}
	}
	return (!r.hasLo || v >= r.lo) && (!r.hasHi || v <= r.hi)
}

// DecimalString returns the exact value of a well-formed literal of
// xsd:decimal, xsd:integer or a type derived from xsd:integer as a decimal
// numeral: an optional '-', digits, and for xsd:decimal possibly a point
// followed by digits (no '+', no white space, a digit on each side of the
// point). strconv.ParseInt and arbitrary-precision decimal packages read
// it as it is. ok is false for other terms and ill-formed literals.
func DecimalString(t Term) (numeral string, ok bool) {
	if t.Kind != KindLiteral {
		return "", false
	}
	k, r := numericType(t.Datatype)
	return exactNumeral(t.Value, k, r)
}

// exactNumeral is DecimalString for a lexical form lex of numeric type k
// with integer range r (see numericType).
func exactNumeral(lex string, k NumericType, r uint8) (string, bool) {
	switch k {
	case NumericInteger:
		s := collapse(lex)
		unsigned := trimSign(s)
		if unsigned == "" || digits(unsigned) != len(unsigned) {
			return "", false
		}
		if s[0] == '+' {
			s = unsigned
		}
		if r != 0 && !intRanges[r].contains(s) {
			return "", false
		}
		return s, true
	case NumericDecimal:
		return decimalNumeral(collapse(lex))
	}
	return "", false
}

// decimalNumeral checks s against the xsd:decimal lexical space,
// [+-]?(d+(.d*)?|.d+), and normalises it as DecimalString describes. It
// returns s itself, or a part of it, unless a digit must be added before
// the point.
func decimalNumeral(s string) (string, bool) {
	unsigned := trimSign(s)
	i := digits(unsigned)
	f := -1 // no point
	if i < len(unsigned) {
		if unsigned[i] != '.' {
			return "", false
		}
		f = digits(unsigned[i+1:])
		if i+1+f != len(unsigned) || i+f == 0 {
			return "", false
		}
	} else if i == 0 {
		return "", false
	}
	switch {
	case f == 0:
		unsigned = unsigned[:i] // "5." is 5
	case i == 0:
		unsigned = "0" + unsigned // ".5" is 0.5
	case s[0] == '+':
		return unsigned, true
	default:
		return s, true
	}
	if s[0] == '-' {
		return "-" + unsigned, true
	}
	return unsigned, true
}

// Float64 returns the value of a well-formed numeric literal as SPARQL
// promotes it to xsd:double: an xsd:float keeps its 32-bit precision
// ("0.1"^^xsd:float is 0.100000001490116...), an integer or decimal is
// rounded to the nearest double. INF, -INF and NaN are the IEEE values; a
// numeral beyond the type's range is an infinity (XSD 1.1). ok is false for
// other terms and ill-formed literals.
func Float64(t Term) (float64, bool) {
	if t.Kind != KindLiteral {
		return 0, false
	}
	k, r := numericType(t.Datatype)
	return floatValue(t.Value, k, r, 64)
}

// floatValue returns the value of the lexical form lex, of numeric type k
// with integer range r, in the precision of bits (32 or 64); an xsd:float
// is never more precise than 32 bits.
func floatValue(lex string, k NumericType, r uint8, bits int) (float64, bool) {
	var s string
	switch k {
	case NumericInteger, NumericDecimal:
		n, ok := exactNumeral(lex, k, r)
		if !ok {
			return 0, false
		}
		s = n
	case NumericFloat:
		s, bits = collapse(lex), 32
		if !isFloatLexical(s) {
			return 0, false
		}
	case NumericDouble:
		s = collapse(lex)
		if !isFloatLexical(s) {
			return 0, false
		}
	default:
		return 0, false
	}
	f, err := strconv.ParseFloat(s, bits)
	if err != nil && !isRangeError(err) {
		return 0, false // not reached: the lexical form was checked
	}
	return f, true
}

func isRangeError(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// isFloatLexical checks the xsd:float and xsd:double lexical space: a
// decimal mantissa with an optional exponent, or INF, +INF, -INF, NaN.
// strconv.ParseFloat accepts every form it accepts and spells the special
// values the same way (but for case, which this check fixes).
func isFloatLexical(s string) bool {
	switch s {
	case "INF", "+INF", "-INF", "NaN":
		return true
	}
	mant, exp := s, ""
	if e := strings.IndexAny(s, "eE"); e >= 0 {
		mant, exp = s[:e], trimSign(s[e+1:])
		if exp == "" || digits(exp) != len(exp) {
			return false
		}
	}
	mant = trimSign(mant)
	i := digits(mant)
	if i == len(mant) {
		return i > 0
	}
	f := digits(mant[i+1:])
	return mant[i] == '.' && i+1+f == len(mant) && i+f > 0
}

// BoolValue returns the value of a well-formed xsd:boolean literal (true,
// false, 1 or 0). ok is false for other terms and ill-formed literals.
func BoolValue(t Term) (value, ok bool) {
	if t.Kind != KindLiteral || t.Datatype != XSDBoolean {
		return false, false
	}
	return boolLexical(collapse(t.Value))
}

func boolLexical(s string) (value, ok bool) {
	switch s {
	case "true", "1":
		return true, true
	case "false", "0":
		return false, true
	}
	return false, false
}

// DateTime is the value of an xsd:dateTime, xsd:dateTimeStamp, xsd:date or
// xsd:time literal as its lexical form writes it: fields the type does not
// have are zero, and 24:00:00 (the end of a day) is kept, not moved to the
// next day.
type DateTime struct {
	Year, Month, Day     int    // the date; Year may be negative or longer than four digits
	Hour, Minute, Second int    // the clock
	Fraction             string // the digits after the point of the seconds, "" when none are written
	Zone                 string // "Z", "+hh:mm" or "-hh:mm", or "" when there is no time zone
}

// ParseDateTime reads a well-formed literal of xsd:dateTime,
// xsd:dateTimeStamp (a dateTime with a time zone), xsd:date or xsd:time.
// ok is false for other terms and ill-formed literals.
func ParseDateTime(t Term) (DateTime, bool) {
	if t.Kind != KindLiteral || !strings.HasPrefix(t.Datatype, XSD) {
		return DateTime{}, false
	}
	s := collapse(t.Value)
	var d DateTime
	ok := false
	switch t.Datatype[len(XSD):] {
	case "dateTime":
		d, ok = parseDateTime(s, true, true)
	case "dateTimeStamp":
		d, ok = parseDateTime(s, true, true)
		ok = ok && d.Zone != ""
	case "date":
		d, ok = parseDateTime(s, true, false)
	case "time":
		d, ok = parseDateTime(s, false, true)
	}
	if !ok {
		return DateTime{}, false
	}
	return d, true
}

// ZoneOffset returns the time zone as minutes east of UTC; ok is false when
// d has no time zone.
func (d DateTime) ZoneOffset() (minutes int, ok bool) {
	switch {
	case d.Zone == "":
		return 0, false
	case d.Zone == "Z":
		return 0, true
	}
	m := twoDigits(d.Zone[1:]) * 60
	m += twoDigits(d.Zone[4:])
	if d.Zone[0] == '-' {
		m = -m
	}
	return m, true
}

// parseDateTime reads the date (when date), the clock (when clock, after
// a 'T' when both) and an optional time zone.
func parseDateTime(s string, date, clock bool) (DateTime, bool) {
	var d DateTime
	s, zone, ok := cutZone(s)
	if !ok {
		return d, false
	}
	d.Zone = zone
	if date {
		y, rest, ok := cutYear(s)
		if !ok || len(rest) < 6 || rest[0] != '-' || rest[3] != '-' || !isTwoDigits(rest[1:]) || !isTwoDigits(rest[4:]) {
			return d, false
		}
		d.Year, d.Month, d.Day = y, twoDigits(rest[1:]), twoDigits(rest[4:])
		if d.Month < 1 || d.Month > 12 || d.Day < 1 || d.Day > daysIn(d.Year, d.Month) {
			return d, false
		}
		s = rest[6:]
		if clock {
			if s == "" || s[0] != 'T' {
				return d, false
			}
			s = s[1:]
		}
	}
	if clock {
		if len(s) < 8 || s[2] != ':' || s[5] != ':' || !isTwoDigits(s) || !isTwoDigits(s[3:]) || !isTwoDigits(s[6:]) {
			return d, false
		}
		d.Hour, d.Minute, d.Second = twoDigits(s), twoDigits(s[3:]), twoDigits(s[6:])
		s = s[8:]
		if s != "" {
			if s[0] != '.' || len(s) == 1 || digits(s[1:]) != len(s)-1 {
				return d, false
			}
			d.Fraction, s = s[1:], ""
		}
		if d.Minute > 59 || d.Second > 59 || d.Hour > 24 ||
			d.Hour == 24 && (d.Minute != 0 || d.Second != 0 || strings.Trim(d.Fraction, "0") != "") {
			return d, false
		}
	}
	return d, s == ""
}

// cutZone removes a trailing time zone, "Z" or ±hh:mm with hh:mm at most
// 14:00. ok is false when the end of s looks like a zone but is not a
// valid one.
func cutZone(s string) (rest, zone string, ok bool) {
	n := len(s)
	switch {
	case n > 0 && s[n-1] == 'Z':
		return s[:n-1], "Z", true
	case n >= 6 && (s[n-6] == '+' || s[n-6] == '-') && s[n-3] == ':':
		z := s[n-6:]
		if !isTwoDigits(z[1:]) || !isTwoDigits(z[4:]) {
			return s, "", false
		}
		h, m := twoDigits(z[1:]), twoDigits(z[4:])
		if h > 14 || m > 59 || h == 14 && m != 0 {
			return s, "", false
		}
		return s[:n-6], z, true
	}
	return s, "", true
}

// cutYear reads an XSD year: an optional '-', at least four digits, no
// leading zero when there are more than four. Years beyond nine digits are
// refused so that they fit an int everywhere.
func cutYear(s string) (year int, rest string, ok bool) {
	neg := s != "" && s[0] == '-'
	if neg {
		s = s[1:]
	}
	i := digits(s)
	if i < 4 || i > 4 && s[0] == '0' || i > 9 {
		return 0, "", false
	}
	year, _ = strconv.Atoi(s[:i])
	if neg {
		year = -year
	}
	return year, s[i:], true
}

func daysIn(year, month int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// isGregorian checks the lexical forms of the Gregorian types after layout:
// Y is a year, M a month, D a day, other characters stand for themselves;
// a time zone may follow.
func isGregorian(s, layout string) bool {
	s, _, ok := cutZone(s)
	if !ok {
		return false
	}
	month := 0
	for i := 0; i < len(layout); i++ {
		switch c := layout[i]; c {
		case 'Y':
			_, rest, ok := cutYear(s)
			if !ok {
				return false
			}
			s = rest
		case 'M', 'D':
			if !isTwoDigits(s) {
				return false
			}
			n := twoDigits(s)
			switch {
			case n < 1, c == 'M' && n > 12, c == 'D' && n > 31:
				return false
			case c == 'M':
				month = n
			case month > 0 && n > daysIn(2000, month):
				return false // --02-30 names no day; --02-29 does
			}
			s = s[2:]
		default:
			if s == "" || s[0] != c {
				return false
			}
			s = s[1:]
		}
	}
	return s == ""
}

// durationParts checks the xsd:duration lexical form -?PnYnMnDTnHnMnS (at
// least one part, a 'T' only before a time part, a fraction only on the
// seconds) and reports whether it has year or month parts (ym) and day or
// time parts (dt).
func durationParts(s string) (ym, dt, ok bool) {
	if s != "" && s[0] == '-' {
		s = s[1:]
	}
	if s == "" || s[0] != 'P' {
		return false, false, false
	}
	date, clock, hasT := strings.Cut(s[1:], "T")
	if hasT && clock == "" || date == "" && clock == "" {
		return false, false, false
	}
	dateUnits, ok1 := durationUnits(date, "YMD")
	clockUnits, ok2 := durationUnits(clock, "HMS")
	if !ok1 || !ok2 {
		return false, false, false
	}
	ym = strings.ContainsAny(dateUnits, "YM")
	dt = strings.Contains(dateUnits, "D") || clockUnits != ""
	return ym, dt, true
}

// durationUnits reads numbers followed by unit letters in the order of
// units; only a final 'S' may have a fraction, with digits on both sides
// of the point (the pattern facet of xsd:duration). It returns the units
// seen.
func durationUnits(part, units string) (string, bool) {
	var seen []byte
	for part != "" {
		i := digits(part)
		if i == 0 {
			return "", false
		}
		frac := false
		if i < len(part) && part[i] == '.' {
			f := digits(part[i+1:])
			if f == 0 {
				return "", false
			}
			i, frac = i+1+f, true
		}
		if i == len(part) {
			return "", false
		}
		u := part[i]
		k := strings.IndexByte(units, u)
		if k < 0 || frac && u != 'S' {
			return "", false
		}
		seen = append(seen, u)
		units, part = units[k+1:], part[i+1:]
	}
	return string(seen), true
}

// Comparison is the outcome of CompareLiterals.
type Comparison int8

const (
	// Incomparable: the values cannot be compared (different kinds of
	// value, an ill-formed literal, a datatype without an order, or
	// date/times whose order depends on an unknown time zone). SPARQL's
	// operators raise a type error.
	Incomparable Comparison = iota
	Less
	Equal
	Greater
	// Unordered: two numbers of which at least one is NaN. SPARQL's <, <=,
	// =, >= and > are false, != is true.
	Unordered
)

// String returns the constant's name.
func (c Comparison) String() string {
	switch c {
	case Less:
		return "Less"
	case Equal:
		return "Equal"
	case Greater:
		return "Greater"
	case Unordered:
		return "Unordered"
	}
	return "Incomparable"
}

// CompareLiterals compares the values of two literals as SPARQL's
// operators <, =, > do (SPARQL 1.1 §17.3, XPath 2.0 op:numeric-less-than
// and relatives): numbers of any XSD numeric types with each other after
// type promotion (integers and decimals exactly, with a float or a double
// in the greater of the two floating-point types), xsd:string with
// xsd:string by code points, xsd:boolean with xsd:boolean (false < true),
// and xsd:dateTime (or xsd:dateTimeStamp), xsd:date and xsd:time each with
// their own type by the instant they name. A date/time with a time zone
// and one without are ordered only when they are more than 14 hours apart
// (XML Schema 1.1 Part 2, §3.3.7.3). Everything else, including IRIs,
// blank nodes, language-tagged strings, durations and ill-formed literals,
// is Incomparable. (CompareTerms, by contrast, orders any two terms by
// their syntax, for deterministic output.)
func CompareLiterals(a, b Term) Comparison {
	if a.Kind != KindLiteral || b.Kind != KindLiteral {
		return Incomparable
	}
	ka, ra := numericType(a.Datatype)
	kb, rb := numericType(b.Datatype)
	if ka != NotNumeric || kb != NotNumeric {
		if ka == NotNumeric || kb == NotNumeric {
			return Incomparable
		}
		return compareNumbers(a.Value, b.Value, ka, kb, ra, rb)
	}
	switch {
	case a.Datatype == XSDString && b.Datatype == XSDString:
		return fromSign(strings.Compare(a.Value, b.Value))
	case a.Datatype == XSDBoolean && b.Datatype == XSDBoolean:
		x, oka := BoolValue(a)
		y, okb := BoolValue(b)
		switch {
		case !oka || !okb:
			return Incomparable
		case x == y:
			return Equal
		case y:
			return Less
		}
		return Greater
	case temporalClass(a.Datatype) != 0 && temporalClass(a.Datatype) == temporalClass(b.Datatype):
		x, oka := ParseDateTime(a)
		y, okb := ParseDateTime(b)
		if !oka || !okb {
			return Incomparable
		}
		return compareInstants(x.instant(), y.instant())
	}
	return Incomparable
}

func fromSign(c int) Comparison {
	switch {
	case c < 0:
		return Less
	case c > 0:
		return Greater
	}
	return Equal
}

// compareNumbers compares the lexical forms x and y of numeric types kx
// and ky with integer ranges rx and ry.
func compareNumbers(x, y string, kx, ky NumericType, rx, ry uint8) Comparison {
	k := max(kx, ky)
	if k <= NumericDecimal {
		a, oka := exactNumeral(x, kx, rx)
		b, okb := exactNumeral(y, ky, ry)
		if !oka || !okb {
			return Incomparable
		}
		return fromSign(compareNumerals(a, b))
	}
	bits := 64
	if k == NumericFloat {
		bits = 32
	}
	a, oka := floatValue(x, kx, rx, bits)
	b, okb := floatValue(y, ky, ry, bits)
	switch {
	case !oka || !okb:
		return Incomparable
	case a < b:
		return Less
	case a > b:
		return Greater
	case a == b:
		return Equal
	}
	return Unordered
}

// compareNumerals compares two decimal numerals in DecimalString's form
// exactly, without parsing them.
func compareNumerals(a, b string) int {
	na, nb := a[0] == '-', b[0] == '-'
	ia, fa := numeralParts(strings.TrimPrefix(a, "-"))
	ib, fb := numeralParts(strings.TrimPrefix(b, "-"))
	za, zb := ia == "" && fa == "", ib == "" && fb == ""
	na, nb = na && !za, nb && !zb // -0 is 0
	switch {
	case za && zb:
		return 0
	case na != nb:
		if na {
			return -1
		}
		return 1
	}
	c := len(ia) - len(ib)
	if c == 0 {
		c = strings.Compare(ia, ib)
	}
	if c == 0 {
		c = strings.Compare(fa, fb)
	}
	if na {
		c = -c
	}
	return c
}

// numeralParts splits an unsigned numeral into its integer digits without
// leading zeros and its fraction digits without trailing zeros.
func numeralParts(s string) (whole, frac string) {
	whole, frac, _ = strings.Cut(s, ".")
	return strings.TrimLeft(whole, "0"), strings.TrimRight(frac, "0")
}

// temporalClass groups the date/time types whose values compare with each
// other; 0 means none.
func temporalClass(dt string) int {
	switch dt {
	case XSDDateTime, XSD + "dateTimeStamp":
		return 1
	case XSDDate:
		return 2
	case XSD + "time":
		return 3
	}
	return 0
}

// instant is a date/time as seconds since the Unix epoch (in UTC when it
// has a zone, in its own local time when not) and the digits of the
// fraction of the second without trailing zeros, which compare as strings.
type instant struct {
	sec   int64
	frac  string
	zoned bool
}

// instant returns the moment d names; an xsd:time is taken on 1972-12-31,
// the reference date of XML Schema 1.1 Part 2, §3.3.7.
func (d DateTime) instant() instant {
	year, month, day := d.Year, d.Month, d.Day
	if month == 0 {
		year, month, day = 1972, 12, 31
	}
	sec := time.Date(year, time.Month(month), day, d.Hour, d.Minute, d.Second, 0, time.UTC).Unix()
	off, zoned := d.ZoneOffset()
	return instant{sec: sec - int64(off)*60, frac: strings.TrimRight(d.Fraction, "0"), zoned: zoned}
}

func (a instant) cmp(b instant) int {
	if c := cmp.Compare(a.sec, b.sec); c != 0 {
		return c
	}
	return strings.Compare(a.frac, b.frac)
}

// compareInstants orders two date/times. When exactly one has a time zone
// the other may lie anywhere within ±14 hours of its local reading, so the
// order is known only outside that window.
func compareInstants(a, b instant) Comparison {
	if a.zoned == b.zoned {
		return fromSign(a.cmp(b))
	}
	const window = 14 * 3600
	local, zoned, sign := b, a, 1
	if !a.zoned {
		local, zoned, sign = a, b, -1
	}
	lo, hi := local, local
	lo.sec -= window
	hi.sec += window
	switch {
	case zoned.cmp(lo) < 0:
		return fromSign(-sign)
	case zoned.cmp(hi) > 0:
		return fromSign(sign)
	}
	return Incomparable
}

// IsNumericToken reports whether t is a literal of xsd:integer, xsd:decimal
// or xsd:double whose lexical form is that type's number token in Turtle
// and SPARQL (INTEGER, DECIMAL, DOUBLE), so that writers can put it down
// bare: 7, -0.5, 1.5e3. Other well-formed forms ("5.", "1.0" as a double,
// " 7") need quotes and a datatype.
func IsNumericToken(t Term) bool {
	if t.Kind != KindLiteral || t.Lang != "" {
		return false
	}
	s := trimSign(t.Value)
	i := digits(s)
	switch t.Datatype {
	case XSDInteger:
		return i > 0 && i == len(s)
	case XSDDecimal:
		f := 0
		if i < len(s) && s[i] == '.' {
			f = digits(s[i+1:])
		}
		return f > 0 && i+1+f == len(s)
	case XSDDouble:
		// [0-9]+ ('.' [0-9]*)? EXPONENT | '.' [0-9]+ EXPONENT
		n, f := i, 0
		if n < len(s) && s[n] == '.' {
			f = digits(s[n+1:])
			n += 1 + f
		}
		if i+f == 0 || n >= len(s) || s[n] != 'e' && s[n] != 'E' {
			return false
		}
		e := trimSign(s[n+1:])
		return e != "" && digits(e) == len(e)
	}
	return false
}

// collapse applies the whiteSpace=collapse facet as far as a non-string
// lexical form can need it: leading and trailing white space are dropped
// (white space inside makes the form ill-formed anyway).
func collapse(s string) string {
	if s != "" && (isXMLSpace(s[0]) || isXMLSpace(s[len(s)-1])) {
		return strings.Trim(s, " \t\r\n")
	}
	return s
}

func isXMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// trimSign removes one leading '+' or '-'.
func trimSign(s string) string {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		return s[1:]
	}
	return s
}

// digits returns the number of ASCII digits at the start of s.
func digits(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

func isTwoDigits(s string) bool { return len(s) >= 2 && digits(s[:2]) == 2 }

// twoDigits reads the two digits at the start of s, which the caller has
// checked with isTwoDigits.
func twoDigits(s string) int { return int(s[0]-'0')*10 + int(s[1]-'0') }
