package shacl

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/regelkit/regelkit/sparql/graph"
)

const xsd = graph.XSD

// integerBounds gives the value range of the integer types derived from
// xsd:integer; nil bounds are unbounded.
var integerBounds = map[string][2]*big.Int{
	xsd + "integer":            {nil, nil},
	xsd + "nonPositiveInteger": {nil, big.NewInt(0)},
	xsd + "negativeInteger":    {nil, big.NewInt(-1)},
	xsd + "nonNegativeInteger": {big.NewInt(0), nil},
	xsd + "positiveInteger":    {big.NewInt(1), nil},
	xsd + "long":               {big.NewInt(math.MinInt64), big.NewInt(math.MaxInt64)},
	xsd + "int":                {big.NewInt(math.MinInt32), big.NewInt(math.MaxInt32)},
	xsd + "short":              {big.NewInt(math.MinInt16), big.NewInt(math.MaxInt16)},
	xsd + "byte":               {big.NewInt(math.MinInt8), big.NewInt(math.MaxInt8)},
	xsd + "unsignedLong":       {big.NewInt(0), new(big.Int).SetUint64(math.MaxUint64)},
	xsd + "unsignedInt":        {big.NewInt(0), big.NewInt(math.MaxUint32)},
	xsd + "unsignedShort":      {big.NewInt(0), big.NewInt(math.MaxUint16)},
	xsd + "unsignedByte":       {big.NewInt(0), big.NewInt(math.MaxUint8)},
}

// wellFormed reports whether lit's lexical form is in the lexical space of
// its datatype. Datatypes this package does not know are taken as valid.
func wellFormed(lit graph.Term) bool {
	dt := lit.Datatype
	if !strings.HasPrefix(dt, xsd) {
		if dt == graph.RDFLangStr {
			return lit.Lang != ""
		}
		return true
	}
	if _, ok := integerBounds[dt]; ok {
		_, ok := parseInteger(lit.Value, dt)
		return ok
	}
	v := collapse(lit.Value)
	switch dt[len(xsd):] {
	case "boolean":
		return v == "true" || v == "false" || v == "1" || v == "0"
	case "decimal":
		return isDecimal(v)
	case "float", "double":
		return isFloat(v)
	case "dateTime":
		_, ok := parseDateTime(v, true, true)
		return ok
	case "dateTimeStamp":
		t, ok := parseDateTime(v, true, true)
		return ok && t.tz
	case "date":
		_, ok := parseDateTime(v, true, false)
		return ok
	case "time":
		_, ok := parseDateTime(v, false, true)
		return ok
	case "duration":
		return isDuration(v)
	case "gYear":
		return matchG(v, "Y")
	case "gYearMonth":
		return matchG(v, "Y-M")
	case "gMonth":
		return matchG(v, "--M")
	case "gDay":
		return matchG(v, "---D")
	case "gMonthDay":
		return matchG(v, "--M-D")
	case "hexBinary":
		if len(v)%2 != 0 {
			return false
		}
		for i := 0; i < len(v); i++ {
			if !isHexDigit(v[i]) {
				return false
			}
		}
		return true
	}
	return true
}

// collapse applies the XSD whiteSpace=collapse facet for the non-string
// types: leading and trailing whitespace do not count.
func collapse(s string) string { return strings.Trim(s, " \t\r\n") }

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func trimSign(s string) string {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		return s[1:]
	}
	return s
}

func parseInteger(s, dt string) (*big.Int, bool) {
	s = collapse(s)
	if !isDigits(trimSign(s)) {
		return nil, false
	}
	n, ok := new(big.Int).SetString(strings.TrimPrefix(s, "+"), 10)
	if !ok {
		return nil, false
	}
	b := integerBounds[dt]
	if b[0] != nil && n.Cmp(b[0]) < 0 || b[1] != nil && n.Cmp(b[1]) > 0 {
		return nil, false
	}
	return n, true
}

func isDecimal(s string) bool {
	s = trimSign(s)
	intPart, frac, dot := strings.Cut(s, ".")
	if !dot {
		return isDigits(s)
	}
	return (intPart == "" || isDigits(intPart)) && (frac == "" || isDigits(frac)) && (intPart != "" || frac != "")
}

func isFloat(s string) bool {
	switch s {
	case "INF", "-INF", "+INF", "NaN":
		return true
	}
	mant, exp, hasExp := strings.Cut(strings.ReplaceAll(s, "E", "e"), "e")
	if hasExp && !isDigits(trimSign(exp)) {
		return false
	}
	return isDecimal(mant)
}

// isDuration checks the xsd:duration lexical form PnYnMnDTnHnMnS.
func isDuration(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if !strings.HasPrefix(s, "P") {
		return false
	}
	s = s[1:]
	date, tm, hasT := strings.Cut(s, "T")
	if hasT && tm == "" || date == "" && tm == "" {
		return false
	}
	ok := func(part, units string, lastFrac bool) bool {
		for part != "" {
			i := 0
			for i < len(part) && (part[i] >= '0' && part[i] <= '9' || part[i] == '.') {
				i++
			}
			if i == len(part) {
				return false
			}
			num, u := part[:i], part[i]
			k := strings.IndexByte(units, u)
			if k < 0 || num == "" {
				return false
			}
			if strings.Contains(num, ".") {
				if !lastFrac || u != 'S' || !isDecimal(num) {
					return false
				}
			} else if !isDigits(num) {
				return false
			}
			units = units[k+1:]
			part = part[i+1:]
		}
		return true
	}
	return ok(date, "YMD", false) && ok(tm, "HMS", true)
}

// matchG checks the gregorian fragments: Y = year, M = month, D = day,
// other characters literally; an optional time zone may follow.
func matchG(s, layout string) bool {
	s, _ = cutZone(s)
	month := 0
	for _, c := range layout {
		switch c {
		case 'Y':
			_, rest, ok := cutYear(s)
			if !ok {
				return false
			}
			s = rest
		case 'M', 'D':
			if len(s) < 2 || !isDigits(s[:2]) {
				return false
			}
			n, _ := strconv.Atoi(s[:2])
			if n < 1 || c == 'M' && n > 12 || c == 'D' && n > 31 {
				return false
			}
			if c == 'M' {
				month = n
			} else if month > 0 && n > daysIn(2000, month) {
				return false // --02-30 names no day; --02-29 does
			}
			s = s[2:]
		default:
			if s == "" || rune(s[0]) != c {
				return false
			}
			s = s[1:]
		}
	}
	return s == ""
}

// cutZone removes a trailing time zone (Z or ±hh:mm) and returns its offset
// in seconds. A malformed zone is left in place, so that the caller's
// parse fails on it.
func cutZone(s string) (rest string, offset int) {
	if strings.HasSuffix(s, "Z") {
		return s[:len(s)-1], 0
	}
	if len(s) >= 6 && (s[len(s)-6] == '+' || s[len(s)-6] == '-') && s[len(s)-3] == ':' {
		z := s[len(s)-6:]
		if !isDigits(z[1:3]) || !isDigits(z[4:6]) {
			return s, 0
		}
		h, _ := strconv.Atoi(z[1:3])
		m, _ := strconv.Atoi(z[4:6])
		if h > 14 || m > 59 || h == 14 && m != 0 {
			return s, 0
		}
		off := (h*60 + m) * 60
		if z[0] == '-' {
			off = -off
		}
		return s[:len(s)-6], off
	}
	return s, 0
}

// cutYear reads an XSD year: an optional '-', at least four digits, no
// leading zero when longer than four.
func cutYear(s string) (int, string, bool) {
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i < 4 || i > 4 && s[0] == '0' || i > 9 {
		return 0, "", false
	}
	y, _ := strconv.Atoi(s[:i])
	if neg {
		y = -y
	}
	return y, s[i:], true
}

// instant is a parsed date, time or dateTime: seconds and nanoseconds since
// an epoch in UTC (local time when tz is false).
type instant struct {
	sec  int64
	nsec int
	tz   bool
}

func (a instant) cmp(b instant) int {
	switch {
	case a.sec < b.sec:
		return -1
	case a.sec > b.sec:
		return 1
	case a.nsec < b.nsec:
		return -1
	case a.nsec > b.nsec:
		return 1
	}
	return 0
}

// parseDateTime parses xsd:dateTime (date and clock), xsd:date (date only)
// and xsd:time (clock only).
func parseDateTime(s string, date, clock bool) (instant, bool) {
	zone := strings.HasSuffix(s, "Z") || len(s) >= 6 && (s[len(s)-6] == '+' || s[len(s)-6] == '-') && s[len(s)-3] == ':'
	s, off := cutZone(s)
	if zone && len(s) == 0 {
		return instant{}, false
	}
	year, month, day := 1972, 12, 31
	if date {
		y, rest, ok := cutYear(s)
		if !ok || len(rest) < 6 || rest[0] != '-' || rest[3] != '-' || !isDigits(rest[1:3]) || !isDigits(rest[4:6]) {
			return instant{}, false
		}
		year = y
		month, _ = strconv.Atoi(rest[1:3])
		day, _ = strconv.Atoi(rest[4:6])
		if month < 1 || month > 12 || day < 1 || day > daysIn(year, month) {
			return instant{}, false
		}
		s = rest[6:]
		if clock {
			if !strings.HasPrefix(s, "T") {
				return instant{}, false
			}
			s = s[1:]
		}
	}
	h, m, sec, nsec := 0, 0, 0, 0
	if clock {
		if len(s) < 8 || s[2] != ':' || s[5] != ':' || !isDigits(s[0:2]) || !isDigits(s[3:5]) || !isDigits(s[6:8]) {
			return instant{}, false
		}
		h, _ = strconv.Atoi(s[0:2])
		m, _ = strconv.Atoi(s[3:5])
		sec, _ = strconv.Atoi(s[6:8])
		frac := s[8:]
		if frac != "" {
			if frac[0] != '.' || !isDigits(frac[1:]) {
				return instant{}, false
			}
			digits := (frac[1:] + "000000000")[:9]
			nsec, _ = strconv.Atoi(digits)
		}
		if m > 59 || sec > 59 || h > 24 || h == 24 && (m != 0 || sec != 0 || nsec != 0) {
			return instant{}, false
		}
		s = ""
	}
	if s != "" {
		return instant{}, false
	}
	t := time.Date(year, time.Month(month), day, h, m, sec, nsec, time.UTC)
	return instant{sec: t.Unix() - int64(off), nsec: nsec, tz: zone}, true
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

// numeric kinds for comparison.
const (
	notNumeric = iota
	exactNumeric
	floatNumeric
)

func numericKind(dt string) int {
	if _, ok := integerBounds[dt]; ok || dt == xsd+"decimal" {
		return exactNumeric
	}
	if dt == xsd+"float" || dt == xsd+"double" {
		return floatNumeric
	}
	return notNumeric
}

// compareTerms compares two RDF terms with the SPARQL ordering operators'
// semantics: numbers with numbers, strings with strings, booleans with
// booleans and date/time values of one type with each other. ok is false
// when the terms are not comparable (different kinds, IRIs, blank nodes,
// ill-formed literals, NaN, or date/times whose order depends on an unknown
// time zone).
func compareTerms(a, b graph.Term) (c int, ok bool) {
	if a.Kind != graph.KindLiteral || b.Kind != graph.KindLiteral || !wellFormed(a) || !wellFormed(b) {
		return 0, false
	}
	ka, kb := numericKind(a.Datatype), numericKind(b.Datatype)
	switch {
	case ka != notNumeric && kb != notNumeric:
		if ka == floatNumeric || kb == floatNumeric {
			x, errx := strconv.ParseFloat(collapse(a.Value), 64)
			y, erry := strconv.ParseFloat(collapse(b.Value), 64)
			if errx != nil && !isRangeErr(errx) || erry != nil && !isRangeErr(erry) || math.IsNaN(x) || math.IsNaN(y) {
				return 0, false
			}
			switch {
			case x < y:
				return -1, true
			case x > y:
				return 1, true
			}
			return 0, true
		}
		x, okx := new(big.Rat).SetString(strings.TrimPrefix(collapse(a.Value), "+"))
		y, oky := new(big.Rat).SetString(strings.TrimPrefix(collapse(b.Value), "+"))
		if !okx || !oky {
			return 0, false
		}
		return x.Cmp(y), true
	case ka != notNumeric || kb != notNumeric:
		return 0, false
	}
	if a.Datatype != b.Datatype && !(isDateTimeType(a.Datatype) && isDateTimeType(b.Datatype)) {
		return 0, false
	}
	switch a.Datatype {
	case graph.XSDString:
		return strings.Compare(a.Value, b.Value), true
	case graph.XSDBoolean:
		x, y := boolValue(a.Value), boolValue(b.Value)
		switch {
		case x == y:
			return 0, true
		case !x:
			return -1, true
		}
		return 1, true
	case xsd + "dateTime", xsd + "dateTimeStamp", xsd + "date", xsd + "time":
		ta, oka := parseTemporal(a)
		tb, okb := parseTemporal(b)
		if !oka || !okb {
			return 0, false
		}
		return compareInstants(ta, tb)
	}
	return 0, false
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

func isDateTimeType(dt string) bool { return dt == xsd+"dateTime" || dt == xsd+"dateTimeStamp" }

func boolValue(s string) bool {
	s = collapse(s)
	return s == "true" || s == "1"
}

func parseTemporal(t graph.Term) (instant, bool) {
	v := collapse(t.Value)
	switch t.Datatype {
	case xsd + "date":
		return parseDateTime(v, true, false)
	case xsd + "time":
		return parseDateTime(v, false, true)
	}
	return parseDateTime(v, true, true)
}

// compareInstants orders two date/time values (XML Schema 1.1 Part 2,
// §3.3.7.3): when exactly one has a time zone, the other may be anywhere
// within ±14 hours, and the order is known only outside that window.
func compareInstants(a, b instant) (int, bool) {
	if a.tz == b.tz {
		return a.cmp(b), true
	}
	const window = 14 * 3600
	local, zoned, sign := b, a, 1
	if !a.tz {
		local, zoned, sign = a, b, -1
	}
	lo := instant{sec: local.sec - window, nsec: local.nsec}
	hi := instant{sec: local.sec + window, nsec: local.nsec}
	switch {
	case zoned.cmp(lo) < 0:
		return -sign, true
	case zoned.cmp(hi) > 0:
		return sign, true
	}
	return 0, false
}
