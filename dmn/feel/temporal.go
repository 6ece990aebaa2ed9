package feel

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // IANA zones in FEEL date and time values must resolve everywhere
)

// Date is a FEEL date (proleptic Gregorian, years may be negative or above 9999).
type Date struct{ Year, Month, Day int }

// ZoneKind says how a time or date and time carries its zone.
type ZoneKind uint8

const (
	// ZoneNone: local time, no offset.
	ZoneNone ZoneKind = iota
	// ZoneOffset: a fixed UTC offset such as +01:00 or Z.
	ZoneOffset
	// ZoneName: an IANA zone such as Europe/Paris.
	ZoneName
)

// Zone is the time zone part of a Time or DateTime.
type Zone struct {
	Kind   ZoneKind
	Offset int    // seconds east of UTC (ZoneOffset)
	Name   string // IANA name (ZoneName)
	loc    *time.Location
}

// Time is a FEEL time of day.
type Time struct {
	Hour, Minute, Second, Nanosecond int
	Zone                             Zone
}

// DateTime is a FEEL date and time.
type DateTime struct {
	Year, Month, Day                 int
	Hour, Minute, Second, Nanosecond int
	Zone                             Zone
}

// Duration is a FEEL days and time duration. Sec and Nano have the same sign.
type Duration struct {
	Sec  int64
	Nano int32
}

// YearsMonths is a FEEL years and months duration in months.
type YearsMonths int64

func (d Date) String() string { return formatYear(d.Year) + fmt.Sprintf("-%02d-%02d", d.Month, d.Day) }

func formatYear(y int) string {
	if y < 0 {
		return fmt.Sprintf("-%04d", -y)
	}
	return fmt.Sprintf("%04d", y)
}

func (t Time) String() string {
	return formatClock(t.Hour, t.Minute, t.Second, t.Nanosecond) + t.Zone.String()
}

func formatClock(h, m, s, ns int) string {
	str := fmt.Sprintf("%02d:%02d:%02d", h, m, s)
	if ns != 0 {
		f := strings.TrimRight(fmt.Sprintf("%09d", ns), "0")
		str += "." + f
	}
	return str
}

func (z Zone) String() string {
	switch z.Kind {
	case ZoneOffset:
		if z.Offset == 0 {
			return "Z"
		}
		return formatOffset(z.Offset)
	case ZoneName:
		return "@" + z.Name
	}
	return ""
}

func formatOffset(off int) string {
	sign := '+'
	if off < 0 {
		sign = '-'
		off = -off
	}
	s := fmt.Sprintf("%c%02d:%02d", sign, off/3600, off/60%60)
	if off%60 != 0 {
		s += fmt.Sprintf(":%02d", off%60)
	}
	return s
}

func (dt DateTime) String() string {
	return Date{dt.Year, dt.Month, dt.Day}.String() + "T" + formatClock(dt.Hour, dt.Minute, dt.Second, dt.Nanosecond) + dt.Zone.String()
}

// Date returns the date part.
func (dt DateTime) Date() Date { return Date{dt.Year, dt.Month, dt.Day} }

// Time returns the time part (with the zone).
func (dt DateTime) Time() Time { return Time{dt.Hour, dt.Minute, dt.Second, dt.Nanosecond, dt.Zone} }

func (d Duration) String() string {
	if d.Sec == 0 && d.Nano == 0 {
		return "PT0S"
	}
	var b strings.Builder
	sec, nano := d.Sec, int64(d.Nano)
	if sec < 0 || nano < 0 {
		b.WriteByte('-')
		sec, nano = -sec, -nano
	}
	b.WriteByte('P')
	days := sec / 86400
	sec %= 86400
	if days != 0 {
		fmt.Fprintf(&b, "%dD", days)
	}
	if sec != 0 || nano != 0 {
		b.WriteByte('T')
		if h := sec / 3600; h != 0 {
			fmt.Fprintf(&b, "%dH", h)
		}
		if m := sec / 60 % 60; m != 0 {
			fmt.Fprintf(&b, "%dM", m)
		}
		if s := sec % 60; s != 0 || nano != 0 {
			if nano != 0 {
				fmt.Fprintf(&b, "%d.%sS", s, strings.TrimRight(fmt.Sprintf("%09d", nano), "0"))
			} else {
				fmt.Fprintf(&b, "%dS", s)
			}
		}
	}
	return b.String()
}

func (ym YearsMonths) String() string {
	m := int64(ym)
	neg := m < 0
	if neg {
		m = -m
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	b.WriteByte('P')
	if m == 0 {
		b.WriteString("0M")
		return b.String()
	}
	if y := m / 12; y != 0 {
		fmt.Fprintf(&b, "%dY", y)
	}
	if mm := m % 12; mm != 0 {
		fmt.Fprintf(&b, "%dM", mm)
	}
	return b.String()
}

func durationFromNanos(n int64) Duration {
	return Duration{Sec: n / 1e9, Nano: int32(n % 1e9)}
}

func normDuration(sec int64, nano int64) Duration {
	sec += nano / 1e9
	nano %= 1e9
	if sec > 0 && nano < 0 {
		sec--
		nano += 1e9
	} else if sec < 0 && nano > 0 {
		sec++
		nano -= 1e9
	}
	return Duration{Sec: sec, Nano: int32(nano)}
}

func (d Duration) add(e Duration) Duration {
	return normDuration(d.Sec+e.Sec, int64(d.Nano)+int64(e.Nano))
}

func (d Duration) neg() Duration { return Duration{-d.Sec, -d.Nano} }

func (d Duration) cmp(e Duration) int {
	switch {
	case d.Sec < e.Sec:
		return -1
	case d.Sec > e.Sec:
		return 1
	case d.Nano < e.Nano:
		return -1
	case d.Nano > e.Nano:
		return 1
	}
	return 0
}

// ---- parsing ----

func daysIn(y, m int) int {
	switch m {
	case 4, 6, 9, 11:
		return 30
	case 2:
		if (y%4 == 0 && y%100 != 0) || y%400 == 0 {
			return 29
		}
		return 28
	}
	return 31
}

// ParseDate parses an XML Schema date "YYYY-MM-DD" (years may have more digits or a sign).
func ParseDate(s string) (Date, bool) {
	neg := false
	if strings.HasPrefix(s, "-") {
		neg = true
		s = s[1:]
	}
	parts := strings.Split(s, "-")
	if len(parts) != 3 || len(parts[0]) < 4 || len(parts[1]) != 2 || len(parts[2]) != 2 {
		return Date{}, false
	}
	if len(parts[0]) > 4 && parts[0][0] == '0' {
		return Date{}, false
	}
	y, ok1 := atoiDigits(parts[0])
	m, ok2 := atoiDigits(parts[1])
	d, ok3 := atoiDigits(parts[2])
	if !ok1 || !ok2 || !ok3 || len(parts[0]) > 9 {
		return Date{}, false
	}
	if neg {
		y = -y
	}
	if m < 1 || m > 12 || d < 1 || d > daysIn(y, m) {
		return Date{}, false
	}
	return Date{y, m, d}, true
}

func atoiDigits(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
		if n > 1e9 {
			return 0, false
		}
	}
	return n, true
}

// ParseTime parses "hh:mm:ss[.fff][Z|±hh:mm|@Zone]".
func ParseTime(s string) (Time, bool) {
	if len(s) < 8 || s[2] != ':' || s[5] != ':' {
		return Time{}, false
	}
	h, ok1 := atoiDigits(s[0:2])
	m, ok2 := atoiDigits(s[3:5])
	sec, ok3 := atoiDigits(s[6:8])
	if !ok1 || !ok2 || !ok3 || h > 23 || m > 59 || sec > 59 {
		if !(ok1 && ok2 && ok3 && h == 24 && m == 0 && sec == 0) {
			return Time{}, false
		}
	}
	rest := s[8:]
	ns := 0
	if strings.HasPrefix(rest, ".") {
		i := 1
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		frac := rest[1:i]
		if frac == "" {
			return Time{}, false
		}
		if len(frac) > 9 {
			frac = frac[:9]
		}
		f, _ := atoiDigits(frac)
		for k := len(frac); k < 9; k++ {
			f *= 10
		}
		ns = f
		rest = rest[i:]
	}
	z, ok := parseZone(rest)
	if !ok {
		return Time{}, false
	}
	if h == 24 {
		h = 0
	}
	return Time{h, m, sec, ns, z}, true
}

func parseZone(s string) (Zone, bool) {
	switch {
	case s == "":
		return Zone{}, true
	case s == "Z" || s == "z":
		return Zone{Kind: ZoneOffset}, true
	case s[0] == '@':
		loc, err := time.LoadLocation(s[1:])
		if err != nil || s[1:] == "" || s[1:] == "Local" {
			return Zone{}, false
		}
		return Zone{Kind: ZoneName, Name: s[1:], loc: loc}, true
	case s[0] == '+' || s[0] == '-':
		if len(s) != 6 || s[3] != ':' {
			if !(len(s) == 9 && s[3] == ':' && s[6] == ':') {
				return Zone{}, false
			}
		}
		h, ok1 := atoiDigits(s[1:3])
		m, ok2 := atoiDigits(s[4:6])
		sec := 0
		ok3 := true
		if len(s) == 9 {
			sec, ok3 = atoiDigits(s[7:9])
		}
		if !ok1 || !ok2 || !ok3 || h > 18 || m > 59 || sec > 59 {
			return Zone{}, false
		}
		off := h*3600 + m*60 + sec
		if off > 18*3600 {
			return Zone{}, false
		}
		if s[0] == '-' {
			off = -off
		}
		return Zone{Kind: ZoneOffset, Offset: off}, true
	}
	return Zone{}, false
}

// ParseDateTime parses "date" or "dateTtime".
func ParseDateTime(s string) (DateTime, bool) {
	i := strings.IndexByte(s, 'T')
	if i < 0 {
		d, ok := ParseDate(s)
		if !ok {
			return DateTime{}, false
		}
		return DateTime{Year: d.Year, Month: d.Month, Day: d.Day}, true
	}
	d, ok := ParseDate(s[:i])
	if !ok {
		return DateTime{}, false
	}
	t, ok := ParseTime(s[i+1:])
	if !ok {
		return DateTime{}, false
	}
	if strings.HasPrefix(s[i+1:], "24") {
		dt := dateTimeOf(d, t)
		return dt.addNanos(86400 * 1e9), true
	}
	return dateTimeOf(d, t), true
}

func dateTimeOf(d Date, t Time) DateTime {
	return DateTime{d.Year, d.Month, d.Day, t.Hour, t.Minute, t.Second, t.Nanosecond, t.Zone}
}

// ParseDuration parses an XML Schema duration restricted to one of FEEL's two
// duration types; it returns a Duration or a YearsMonths.
func ParseDuration(s string) (Value, bool) {
	neg := false
	if strings.HasPrefix(s, "-") {
		neg = true
		s = s[1:]
	}
	if !strings.HasPrefix(s, "P") || len(s) < 2 {
		return nil, false
	}
	s = s[1:]
	var f durationFields
	inTime := false
	seen := false
	order := "YMD"
	for s != "" {
		if s[0] == 'T' {
			if inTime {
				return nil, false
			}
			inTime = true
			order = "HMS"
			s = s[1:]
			if s == "" {
				return nil, false
			}
			continue
		}
		num, frac, unit, rest, ok := scanDurationPart(s)
		if !ok {
			return nil, false
		}
		n, err := strconv.ParseInt(num, 10, 64)
		if err != nil {
			return nil, false
		}
		k := strings.IndexByte(order, unit)
		if k < 0 {
			return nil, false
		}
		order = order[k+1:]
		if frac != "" && !(inTime && unit == 'S') {
			return nil, false
		}
		f.set(inTime, unit, n, frac)
		seen = true
		s = rest
	}
	if !seen {
		return nil, false
	}
	return f.value(neg)
}

// durationFields are the components of a duration as written.
type durationFields struct {
	years, months, days, hours, mins, secs, nanos int64
	hasYM, hasDT                                  bool
}

// scanDurationPart splits "12.5S..." into the number, its fraction, the
// unit and the rest.
func scanDurationPart(s string) (num, frac string, unit byte, rest string, ok bool) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	num = s[:i]
	if i < len(s) && s[i] == '.' {
		j := i + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		frac = s[i+1 : j]
		i = j
	}
	if num == "" || i >= len(s) {
		return "", "", 0, "", false
	}
	return num, frac, s[i], s[i+1:], true
}

// set stores the component n of unit; frac is the fraction of seconds.
func (f *durationFields) set(inTime bool, unit byte, n int64, frac string) {
	switch {
	case !inTime && unit == 'Y':
		f.years, f.hasYM = n, true
	case !inTime && unit == 'M':
		f.months, f.hasYM = n, true
	case !inTime && unit == 'D':
		f.days, f.hasDT = n, true
	case inTime && unit == 'H':
		f.hours, f.hasDT = n, true
	case inTime && unit == 'M':
		f.mins, f.hasDT = n, true
	case inTime && unit == 'S':
		f.secs, f.hasDT = n, true
		if frac != "" {
			if len(frac) > 9 {
				frac = frac[:9]
			}
			nanos, _ := strconv.ParseInt(frac, 10, 64)
			for l := len(frac); l < 9; l++ {
				nanos *= 10
			}
			f.nanos = nanos
		}
	}
}

// value is the FEEL duration of the components: years and months, or
// days and time; a mix of the two is not a FEEL value.
func (f *durationFields) value(neg bool) (Value, bool) {
	if f.hasYM && !f.hasDT {
		m := f.years*12 + f.months
		if neg {
			m = -m
		}
		return YearsMonths(m), true
	}
	if f.hasYM && f.hasDT {
		return nil, false
	}
	total := f.days*86400 + f.hours*3600 + f.mins*60 + f.secs
	d := normDuration(total, f.nanos)
	if neg {
		d = d.neg()
	}
	return d, true
}

// ---- instants and arithmetic ----

func (z Zone) location() *time.Location {
	switch z.Kind {
	case ZoneOffset:
		if z.Offset == 0 {
			return time.UTC
		}
		return time.FixedZone("", z.Offset)
	case ZoneName:
		if z.loc != nil {
			return z.loc
		}
		if l, err := time.LoadLocation(z.Name); err == nil {
			return l
		}
	}
	return time.UTC
}

// goTime maps a DateTime to a time.Time; a local DateTime maps to UTC.
func (dt DateTime) goTime() time.Time {
	return time.Date(dt.Year, time.Month(dt.Month), dt.Day, dt.Hour, dt.Minute, dt.Second, dt.Nanosecond, dt.Zone.location())
}

func fromGoTime(t time.Time, z Zone) DateTime {
	return DateTime{t.Year(), int(t.Month()), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), z}
}

func (dt DateTime) addNanos(n int64) DateTime {
	return fromGoTime(dt.goTime().Add(time.Duration(n)), dt.Zone)
}

// addDuration adds a days-and-time duration, working in seconds to avoid
// time.Duration overflow on long durations.
func (dt DateTime) addDuration(d Duration) DateTime {
	t := dt.goTime()
	t = t.Add(time.Duration(d.Sec%86400)*time.Second + time.Duration(d.Nano))
	days := d.Sec / 86400
	if days != 0 {
		// add whole days as 24h steps in UTC (FEEL durations are exact)
		t = t.Add(time.Duration(days) * 24 * time.Hour)
	}
	return fromGoTime(t, dt.Zone)
}

func (dt DateTime) addMonths(m int64) DateTime {
	y := int64(dt.Year)
	mo := int64(dt.Month-1) + m
	y += floorDiv(mo, 12)
	mo = floorMod(mo, 12) + 1
	r := dt
	r.Year, r.Month = int(y), int(mo)
	if dim := daysIn(r.Year, r.Month); r.Day > dim {
		r.Day = dim
	}
	return r
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func floorMod(a, b int64) int64 { return a - floorDiv(a, b)*b }

// subDateTime returns a - b as a Duration; ok is false when exactly one of
// them has a zone.
func subDateTime(a, b DateTime) (Duration, bool) {
	if (a.Zone.Kind == ZoneNone) != (b.Zone.Kind == ZoneNone) {
		// FEEL: a local date and time is compared as UTC when the other has a zone
		// (DMN 1.5 10.3.2.3.6); subtraction follows the same rule.
	}
	ta, tb := a.goTime(), b.goTime()
	secs := ta.Unix() - tb.Unix()
	nanos := int64(ta.Nanosecond() - tb.Nanosecond())
	return normDuration(secs, nanos), true
}

func (t Time) secondsOfDay() int64 {
	return int64(t.Hour*3600 + t.Minute*60 + t.Second)
}

// utcNanosOfDay is the time's position in the day, adjusted to UTC when it has an offset.
func (t Time) utcNanos() int64 {
	n := t.secondsOfDay()*1e9 + int64(t.Nanosecond)
	off := t.Zone.offsetAt()
	return n - int64(off)*1e9
}

// offsetAt returns the zone offset; a named zone uses its offset on 1970-01-01 only when nothing better is known.
func (z Zone) offsetAt() int {
	switch z.Kind {
	case ZoneOffset:
		return z.Offset
	case ZoneName:
		_, off := time.Date(1970, 1, 1, 0, 0, 0, 0, z.location()).Zone()
		return off
	}
	return 0
}

func (t Time) addNanos(n int64) Time {
	const day = int64(86400 * 1e9)
	cur := t.secondsOfDay()*1e9 + int64(t.Nanosecond)
	cur = ((cur+n)%day + day) % day
	r := t
	r.Hour = int(cur / 3600e9)
	r.Minute = int(cur / 60e9 % 60)
	r.Second = int(cur / 1e9 % 60)
	r.Nanosecond = int(cur % 1e9)
	return r
}

// dayOfWeek: Monday=1..Sunday=7.
func (d Date) goTime() time.Time {
	return time.Date(d.Year, time.Month(d.Month), d.Day, 0, 0, 0, 0, time.UTC)
}

func dateFromGo(t time.Time) Date { return Date{t.Year(), int(t.Month()), t.Day()} }

func (d Date) dateTime() DateTime {
	return DateTime{Year: d.Year, Month: d.Month, Day: d.Day, Zone: Zone{Kind: ZoneOffset}}
}
