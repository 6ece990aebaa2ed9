package feel

import (
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cockroachdb/apd/v3"

	"github.com/regelkit/regelkit/sparql/graph/xsdregexp"
)

// regexpCache holds the patterns of matches, replace and split: a pattern
// is text, often taken from a variable, so it cannot be compiled with the
// expression, and compiling it costs microseconds per evaluation.
var regexpCache = xsdregexp.NewCache(256)

// cachedRegexp is compileRegexp through regexpCache. The cached pattern
// carries the default match time limit, so once less than that is left of
// the evaluation's Timeout the pattern is compiled afresh with the
// shorter limit; a replacement's byte bound is passed at each call
// (replaceBound).
func (rt *Runtime) cachedRegexp(pattern, flags string) (*xsdregexp.Regexp, error) {
	if d := rt.b.deadline; d < 0 && time.Duration(-d) < xsdregexp.DefaultMatchTimeout ||
		d > 0 && time.Duration(d-time.Now().UnixNano()) < xsdregexp.DefaultMatchTimeout {
		return rt.compileRegexp(pattern, flags)
	}
	return regexpCache.Compile(pattern, flags)
}

// replaceBound is the longest result replace may build: what is left of
// MaxBytes, or 0 (no bound).
func (rt *Runtime) replaceBound() int64 {
	if left := rt.bytesLeft(); left >= 0 {
		return max(left, 1)
	}
	return 0
}

type builtinImpl = func(rt *Runtime, args []Value) Value

// builtinTable holds FEEL's built-in functions by name; it is immutable.
var builtinTable map[string]*Function

type registry map[string]*Function

func newBuiltinTable() map[string]*Function {
	r := registry{}
	registerConversion(r)
	registerString(r)
	registerList(r)
	registerNumeric(r)
	registerContext(r)
	registerSort(r)
	registerRange(r)
	registerTemporal(r)
	return r
}

// sig makes one variant of a built-in. params is a comma list; a trailing
// "?" marks an optional parameter, "..." a variadic tail.
func sig(name, params string, impl builtinImpl) *Function {
	f := &Function{Name: name, call: impl, isBuiltin: true}
	if params != "" {
		for _, p := range strings.Split(params, ",") {
			p = strings.TrimSpace(p)
			switch {
			case strings.HasSuffix(p, "..."):
				f.variadic = true
				p = strings.TrimSuffix(p, "...")
			case strings.HasSuffix(p, "?"):
				p = strings.TrimSuffix(p, "?")
			default:
				f.required++
			}
			f.Params = append(f.Params, Param{Name: p})
		}
	}
	if f.variadic {
		f.required = len(f.Params) - 1
	}
	return f
}

func (r registry) def(name string, variants ...*Function) {
	if len(variants) == 1 {
		r[name] = variants[0]
		return
	}
	r[name] = &Function{Name: name, overloads: variants, Params: variants[0].Params, required: variants[0].required, isBuiltin: true}
}

// BuiltinFunctions returns the names of FEEL's built-in functions.
func BuiltinFunctions() []string {
	out := make([]string, 0, len(builtinTable))
	for n := range builtinTable {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// unwrap applies FEEL's "from singleton list" conversion to a parameter
// that is not a list.
func unwrap(v Value) Value {
	if l, ok := v.([]Value); ok && len(l) == 1 {
		return l[0]
	}
	return v
}

// listOf applies the "to singleton list" conversion to a list parameter.
func listOf(v Value) ([]Value, bool) {
	switch x := v.(type) {
	case []Value:
		return x, true
	case nil:
		return nil, false
	}
	return []Value{v}, true
}

func num(v Value) (*apd.Decimal, bool) { d, ok := unwrap(v).(*apd.Decimal); return d, ok }

func str(v Value) (string, bool) { s, ok := unwrap(v).(string); return s, ok }

func intArg(v Value) (int64, bool) {
	d, ok := num(v)
	if !ok {
		return 0, false
	}
	var i apd.Decimal
	if _, err := decCtx.RoundToIntegralValue(&i, d); err != nil {
		return 0, false
	}
	if i.Cmp(d) != 0 {
		// truncate toward zero like Java's intValue
		c := *decCtx
		c.Rounding = apd.RoundDown
		c.RoundToIntegralValue(&i, d)
	}
	n, err := i.Int64()
	return n, err == nil
}

// listArgs returns the list argument of functions that take either a list
// or varargs (min, max, sum, ...).
func listArgs(args []Value) ([]Value, bool) {
	if len(args) == 1 {
		if l, ok := args[0].([]Value); ok {
			return l, true
		}
	}
	if len(args) == 0 {
		return nil, false
	}
	return args, true
}

func registerConversion(r registry) {
	r.def("date",
		sig("date", "from", func(rt *Runtime, a []Value) Value {
			switch x := a[0].(type) {
			case string:
				if d, ok := ParseDate(x); ok {
					return d
				}
				return rt.warnf("date: invalid date %q", x)
			case Date:
				return x
			case DateTime:
				return x.Date()
			}
			return rt.warnf("date: invalid argument %s", Kind(a[0]))
		}),
		sig("date", "year, month, day", func(rt *Runtime, a []Value) Value {
			y, ok1 := intArg(a[0])
			m, ok2 := intArg(a[1])
			d, ok3 := intArg(a[2])
			if !ok1 || !ok2 || !ok3 || m < 1 || m > 12 || d < 1 || y > 999999999 || y < -999999999 || d > int64(daysIn(int(y), int(m))) {
				return rt.warn("date: invalid year, month or day")
			}
			return Date{int(y), int(m), int(d)}
		}))
	r.def("date and time",
		sig("date and time", "from", func(rt *Runtime, a []Value) Value {
			switch x := a[0].(type) {
			case string:
				if dt, ok := ParseDateTime(x); ok {
					return dt
				}
				return rt.warnf("date and time: invalid value %q", x)
			case DateTime:
				return x
			case Date:
				return DateTime{Year: x.Year, Month: x.Month, Day: x.Day}
			}
			return rt.warnf("date and time: invalid argument %s", Kind(a[0]))
		}),
		sig("date and time", "date, time", func(rt *Runtime, a []Value) Value {
			var d Date
			switch x := a[0].(type) {
			case Date:
				d = x
			case DateTime:
				d = x.Date()
			default:
				return rt.warn("date and time: first argument is not a date")
			}
			t, ok := a[1].(Time)
			if !ok {
				return rt.warn("date and time: second argument is not a time")
			}
			return dateTimeOf(d, t)
		}))
	r.def("time",
		sig("time", "from", func(rt *Runtime, a []Value) Value {
			switch x := a[0].(type) {
			case string:
				if t, ok := ParseTime(x); ok {
					return t
				}
				return rt.warnf("time: invalid time %q", x)
			case Time:
				return x
			case DateTime:
				return x.Time()
			case Date:
				return Time{Zone: Zone{Kind: ZoneOffset}}
			}
			return rt.warnf("time: invalid argument %s", Kind(a[0]))
		}),
		sig("time", "hour, minute, second, offset?", func(rt *Runtime, a []Value) Value {
			h, ok1 := intArg(a[0])
			m, ok2 := intArg(a[1])
			s, ok3 := num(a[2])
			if !ok1 || !ok2 || !ok3 || h < 0 || h > 23 || m < 0 || m > 59 {
				return rt.warn("time: invalid hour, minute or second")
			}
			var whole, frac apd.Decimal
			s.Modf(&whole, &frac)
			sec, err := whole.Int64()
			if err != nil || sec < 0 || sec > 59 {
				return rt.warn("time: invalid second")
			}
			var ns apd.Decimal
			decCtx.Mul(&ns, &frac, apd.New(1, 9))
			nsi, _ := ns.Int64()
			t := Time{Hour: int(h), Minute: int(m), Second: int(sec), Nanosecond: int(nsi)}
			if len(a) > 3 && a[3] != nil {
				d, ok := a[3].(Duration)
				if !ok || d.Sec > 18*3600 || d.Sec < -18*3600 {
					return rt.warn("time: invalid offset")
				}
				t.Zone = Zone{Kind: ZoneOffset, Offset: int(d.Sec)}
			}
			return t
		}))
	r.def("number", sig("number", "from, grouping separator?, decimal separator?", func(rt *Runtime, a []Value) Value {
		s, ok := str(a[0])
		if !ok {
			return rt.warn("number: from is not a string")
		}
		var gs, ds Value
		if len(a) > 1 {
			gs = a[1]
		}
		if len(a) > 2 {
			ds = a[2]
		}
		if gs != nil {
			g, ok := str(gs)
			if !ok || (g != " " && g != "," && g != ".") {
				return rt.warn("number: invalid grouping separator")
			}
			s = strings.ReplaceAll(s, g, "")
		}
		if ds != nil {
			d, ok := str(ds)
			if !ok || (d != "," && d != ".") || (gs != nil && gs == ds) {
				return rt.warn("number: invalid decimal separator")
			}
			s = strings.Replace(s, d, ".", 1)
		}
		n, err := ParseNumber(s)
		if err != nil {
			return rt.warnf("number: invalid number %q", s)
		}
		return n
	}))
	r.def("string", sig("string", "from", func(rt *Runtime, a []Value) Value {
		if a[0] == nil {
			return nil
		}
		if left := rt.bytesLeft(); left >= 0 {
			rt.needBytes(renderedSize(a[0], left))
		}
		return String(a[0])
	}))
	r.def("duration", sig("duration", "from", func(rt *Runtime, a []Value) Value {
		s, ok := str(a[0])
		if !ok {
			return rt.warn("duration: from is not a string")
		}
		if d, ok := ParseDuration(s); ok {
			return d
		}
		return rt.warnf("duration: invalid duration %q", s)
	}))
	r.def("years and months duration", sig("years and months duration", "from, to", func(rt *Runtime, a []Value) Value {
		from, ok1 := toDateTime(a[0])
		to, ok2 := toDateTime(a[1])
		if !ok1 || !ok2 {
			return rt.warn("years and months duration: arguments must be dates")
		}
		return YearsMonths(monthsBetween(from, to))
	}))
	r.def("not", sig("not", "negand", func(rt *Runtime, a []Value) Value {
		if b, ok := a[0].(bool); ok {
			return !b
		}
		return rt.warnf("not: %s is not a boolean", Kind(a[0]))
	}))
	r.def("is", sig("is", "value1, value2", func(rt *Runtime, a []Value) Value {
		return isSame(a[0], a[1])
	}))
}

func isSame(a, b Value) bool {
	if Kind(a) != Kind(b) {
		return false
	}
	switch x := a.(type) {
	case Time:
		y := b.(Time)
		return x.Zone.Kind == y.Zone.Kind && x.Zone.Name == y.Zone.Name && x == Time{y.Hour, y.Minute, y.Second, y.Nanosecond, x.Zone} && x.Zone.Offset == y.Zone.Offset
	case DateTime:
		y := b.(DateTime)
		return x.Zone.Kind == y.Zone.Kind && x.Zone.Name == y.Zone.Name && x.Zone.Offset == y.Zone.Offset && localCmp(x, y, false) == 0
	}
	r, ok := equal(a, b)
	return ok && r
}

func toDateTime(v Value) (DateTime, bool) {
	switch x := v.(type) {
	case Date:
		return DateTime{Year: x.Year, Month: x.Month, Day: x.Day}, true
	case DateTime:
		return x, true
	}
	return DateTime{}, false
}

func monthsBetween(from, to DateTime) int64 {
	m := int64(to.Year-from.Year)*12 + int64(to.Month-from.Month)
	// whole months between the dates (the time of day does not count)
	rest := func(d DateTime) [1]int { return [1]int{d.Day} }
	rf, rt := rest(from), rest(to)
	cmp := 0
	for i := range rf {
		if rt[i] != rf[i] {
			if rt[i] < rf[i] {
				cmp = -1
			} else {
				cmp = 1
			}
			break
		}
	}
	if m > 0 && cmp < 0 {
		m--
	} else if m < 0 && cmp > 0 {
		m++
	}
	return m
}

func codePoints(s string) []rune { return []rune(s) }

func registerString(r registry) {
	r.def("substring", sig("substring", "string, start position, length?", func(rt *Runtime, a []Value) Value {
		s, ok := str(a[0])
		start, ok2 := intArg(a[1])
		if !ok || !ok2 {
			return rt.warn("substring: invalid arguments")
		}
		r := codePoints(s)
		n := int64(len(r))
		if start < 0 {
			start = n + start + 1
		}
		if start < 1 || start > n+1 && n > 0 || (n == 0 && start != 1) {
			if start < 1 && len(a) < 3 {
				start = 1
			} else if start < 1 {
				return rt.warn("substring: start position out of range")
			} else {
				return rt.warn("substring: start position out of range")
			}
		}
		end := n + 1
		if len(a) > 2 && a[2] != nil {
			l, ok := intArg(a[2])
			if !ok || l < 0 {
				return rt.warn("substring: invalid length")
			}
			end = start + l
			if end > n+1 {
				end = n + 1
			}
		}
		if start > n+1 {
			return ""
		}
		return string(r[start-1 : end-1])
	}))
	r.def("string length", sig("string length", "string", func(rt *Runtime, a []Value) Value {
		s, ok := str(a[0])
		if !ok {
			return rt.warn("string length: not a string")
		}
		return Number(int64(utf8.RuneCountInString(s)))
	}))
	r.def("upper case", sig("upper case", "string", strFn(strings.ToUpper)))
	r.def("lower case", sig("lower case", "string", strFn(strings.ToLower)))
	r.def("substring before", sig("substring before", "string, match", func(rt *Runtime, a []Value) Value {
		s, ok1 := str(a[0])
		m, ok2 := str(a[1])
		if !ok1 || !ok2 {
			return rt.warn("substring before: invalid arguments")
		}
		if i := strings.Index(s, m); i >= 0 {
			return s[:i]
		}
		return ""
	}))
	r.def("substring after", sig("substring after", "string, match", func(rt *Runtime, a []Value) Value {
		s, ok1 := str(a[0])
		m, ok2 := str(a[1])
		if !ok1 || !ok2 {
			return rt.warn("substring after: invalid arguments")
		}
		if i := strings.Index(s, m); i >= 0 {
			return s[i+len(m):]
		}
		return ""
	}))
	r.def("contains", sig("contains", "string, match", str2Bool(strings.Contains)))
	r.def("starts with", sig("starts with", "string, match", str2Bool(strings.HasPrefix)))
	r.def("ends with", sig("ends with", "string, match", str2Bool(strings.HasSuffix)))
	r.def("matches", sig("matches", "input, pattern, flags?", func(rt *Runtime, a []Value) Value {
		s, ok1 := str(a[0])
		p, ok2 := str(a[1])
		if !ok1 || !ok2 {
			return rt.warn("matches: invalid arguments")
		}
		flags := ""
		if len(a) > 2 && a[2] != nil {
			f, ok := str(a[2])
			if !ok {
				return rt.warn("matches: invalid flags")
			}
			flags = f
		}
		re, err := rt.cachedRegexp(p, flags)
		if err != nil {
			return rt.warnf("matches: %v", err)
		}
		ok, err := re.MatchString(s)
		if err != nil {
			return rt.regexpFailed("matches", err)
		}
		return ok
	}))
	r.def("replace", sig("replace", "input, pattern, replacement, flags?", func(rt *Runtime, a []Value) Value {
		s, ok1 := str(a[0])
		p, ok2 := str(a[1])
		r, ok3 := str(a[2])
		if !ok1 || !ok2 || !ok3 {
			return rt.warn("replace: invalid arguments")
		}
		flags := ""
		if len(a) > 3 && a[3] != nil {
			f, ok := str(a[3])
			if !ok {
				return rt.warn("replace: invalid flags")
			}
			flags = f
		}
		re, err := rt.cachedRegexp(p, flags)
		if err != nil {
			return rt.warnf("replace: %v", err)
		}
		out, err := re.ReplaceAllWithin(s, r, rt.replaceBound())
		if err != nil {
			return rt.regexpFailed("replace", err)
		}
		return out
	}))
	r.def("split", sig("split", "string, delimiter", func(rt *Runtime, a []Value) Value {
		s, ok1 := str(a[0])
		d, ok2 := str(a[1])
		if !ok1 || !ok2 {
			return rt.warn("split: invalid arguments")
		}
		re, err := rt.cachedRegexp(d, "")
		if err != nil {
			return rt.warnf("split: %v", err)
		}
		limit := rt.rowsLeft() // at most one part more than allowed, to know
		if limit >= 0 {
			limit++
		}
		parts, err := re.Split(s, limit)
		if err != nil {
			return rt.regexpFailed("split", err)
		}
		rt.needRows(int64(len(parts)))
		out := make([]Value, len(parts))
		for i, p := range parts {
			out[i] = p
		}
		return out
	}))
	r.def("string join", sig("string join", "list, delimiter?", func(rt *Runtime, a []Value) Value {
		l, ok := listOf(a[0])
		if !ok {
			return rt.warn("string join: not a list")
		}
		delim := ""
		if len(a) > 1 && a[1] != nil {
			d, ok := str(a[1])
			if !ok {
				return rt.warn("string join: delimiter is not a string")
			}
			delim = d
		}
		parts := make([]string, 0, len(l))
		size := int64(0)
		for _, e := range l {
			if e == nil {
				continue
			}
			s, ok := str(e)
			if !ok {
				return rt.warn("string join: list element is not a string")
			}
			parts = append(parts, s)
			size += int64(len(s) + len(delim))
		}
		rt.needBytes(size)
		return strings.Join(parts, delim)
	}))
}

func strFn(f func(string) string) builtinImpl {
	return func(rt *Runtime, a []Value) Value {
		s, ok := str(a[0])
		if !ok {
			return rt.warn("argument is not a string")
		}
		return f(s)
	}
}

func str2Bool(f func(string, string) bool) builtinImpl {
	return func(rt *Runtime, a []Value) Value {
		s, ok1 := str(a[0])
		m, ok2 := str(a[1])
		if !ok1 || !ok2 {
			return rt.warn("arguments are not strings")
		}
		return f(s, m)
	}
}

func registerList(r registry) {
	r.def("list contains", sig("list contains", "list, element", func(rt *Runtime, a []Value) Value {
		l, ok := listOf(a[0])
		if !ok {
			return rt.warn("list contains: not a list")
		}
		for _, e := range l {
			if r, ok := equal(e, a[1]); ok && r {
				return true
			}
		}
		return false
	}))
	r.def("count", sig("count", "list", func(rt *Runtime, a []Value) Value {
		l, ok := listOf(a[0])
		if !ok {
			return rt.warn("count: not a list")
		}
		return Number(int64(len(l)))
	}))
	minmax := func(name string, want int) builtinImpl {
		return func(rt *Runtime, a []Value) Value {
			l, ok := listArgs(a)
			if !ok {
				return rt.warnf("%s: invalid arguments", name)
			}
			if len(l) == 0 {
				return nil
			}
			best := l[0]
			for _, e := range l[1:] {
				c, ok := compare(e, best)
				if !ok {
					return rt.warnf("%s: values are not comparable", name)
				}
				if c == want {
					best = e
				}
			}
			if _, ok := compare(best, best); !ok {
				return rt.warnf("%s: values are not comparable", name)
			}
			return best
		}
	}
	r.def("min", sig("min", "list", minmax("min", -1)), sig("min", "c...", minmax("min", -1)))
	r.def("max", sig("max", "list", minmax("max", 1)), sig("max", "c...", minmax("max", 1)))
	sum := func(rt *Runtime, a []Value) Value {
		l, ok := listArgs(a)
		if !ok {
			return rt.warn("sum: invalid arguments")
		}
		if len(l) == 0 {
			return nil
		}
		total := new(apd.Decimal)
		for _, e := range l {
			d, ok := num(e)
			if !ok {
				return rt.warn("sum: element is not a number")
			}
			decCtx.Add(total, total, d)
		}
		return total
	}
	r.def("sum", sig("sum", "list", sum), sig("sum", "n...", sum))
	mean := func(rt *Runtime, a []Value) Value {
		l, ok := listArgs(a)
		if !ok || len(l) == 0 {
			return rt.warn("mean: invalid arguments")
		}
		s := sum(rt, []Value{l})
		d, ok := num(s)
		if !ok {
			return nil
		}
		r := new(apd.Decimal)
		decCtx.Quo(r, d, apd.New(int64(len(l)), 0))
		return r
	}
	r.def("mean", sig("mean", "list", mean), sig("mean", "n...", mean))
	all := func(rt *Runtime, a []Value) Value {
		l, ok := listArgs(a)
		if !ok {
			if len(a) == 1 {
				if b, isB := a[0].(bool); isB {
					return b
				}
			}
			return rt.warn("all: invalid arguments")
		}
		res := Value(true)
		for _, e := range l {
			switch e {
			case false:
				return false
			case true:
			default:
				res = rt.warn("all: element is not a boolean")
			}
		}
		return res
	}
	r.def("all", sig("all", "list", all), sig("all", "b...", all))
	anyFn := func(rt *Runtime, a []Value) Value {
		l, ok := listArgs(a)
		if !ok {
			if len(a) == 1 {
				if b, isB := a[0].(bool); isB {
					return b
				}
			}
			return rt.warn("any: invalid arguments")
		}
		res := Value(false)
		for _, e := range l {
			switch e {
			case true:
				return true
			case false:
			default:
				res = rt.warn("any: element is not a boolean")
			}
		}
		return res
	}
	r.def("any", sig("any", "list", anyFn), sig("any", "b...", anyFn))
	r.def("sublist", sig("sublist", "list, start position, length?", func(rt *Runtime, a []Value) Value {
		l, ok := listOf(a[0])
		start, ok2 := intArg(a[1])
		if !ok || !ok2 {
			return rt.warn("sublist: invalid arguments")
		}
		n := int64(len(l))
		if start < 0 {
			start = n + start + 1
		}
		if start < 1 || start > n {
			return rt.warn("sublist: start position out of range")
		}
		end := n + 1
		if len(a) > 2 && a[2] != nil {
			ln, ok := intArg(a[2])
			if !ok || ln < 0 || start+ln > n+1 {
				return rt.warn("sublist: invalid length")
			}
			end = start + ln
		}
		return append([]Value{}, l[start-1:end-1]...)
	}))
	r.def("append", sig("append", "list, item...", func(rt *Runtime, a []Value) Value {
		l, ok := listOf(a[0])
		if !ok {
			return rt.warn("append: not a list")
		}
		rt.needRows(int64(len(l) + len(a) - 1))
		out := make([]Value, 0, len(l)+len(a)-1)
		out = append(out, l...)
		return append(out, a[1:]...)
	}))
	r.def("concatenate", sig("concatenate", "list...", func(rt *Runtime, a []Value) Value {
		n := 0
		for _, e := range a {
			l, ok := e.([]Value)
			if !ok {
				return rt.warn("concatenate: argument is not a list")
			}
			n += len(l)
		}
		rt.needRows(int64(n))
		out := make([]Value, 0, n)
		for _, e := range a {
			out = append(out, e.([]Value)...)
		}
		return out
	}))
	r.def("insert before", sig("insert before", "list, position, newItem", func(rt *Runtime, a []Value) Value {
		l, ok := listOf(a[0])
		p, ok2 := intArg(a[1])
		if !ok || !ok2 {
			return rt.warn("insert before: invalid arguments")
		}
		n := int64(len(l))
		if p < 0 {
			p = n + p + 1
		}
		if p < 1 || p > n {
			return rt.warn("insert before: position out of range")
		}
		out := make([]Value, 0, n+1)
		out = append(out, l[:p-1]...)
		out = append(out, a[2])
		return append(out, l[p-1:]...)
	}))
	r.def("remove", sig("remove", "list, position", func(rt *Runtime, a []Value) Value {
		l, ok := listOf(a[0])
		p, ok2 := intArg(a[1])
		if !ok || !ok2 {
			return rt.warn("remove: invalid arguments")
		}
		n := int64(len(l))
		if p < 0 {
			p = n + p + 1
		}
		if p < 1 || p > n {
			return rt.warn("remove: position out of range")
		}
		out := make([]Value, 0, n-1)
		out = append(out, l[:p-1]...)
		return append(out, l[p:]...)
	}))
	r.def("reverse", sig("reverse", "list", func(rt *Runtime, a []Value) Value {
		l, ok := listOf(a[0])
		if !ok {
			return rt.warn("reverse: not a list")
		}
		out := make([]Value, len(l))
		for i, e := range l {
			out[len(l)-1-i] = e
		}
		return out
	}))
	r.def("index of", sig("index of", "list, match", func(rt *Runtime, a []Value) Value {
		l, ok := listOf(a[0])
		if !ok {
			return rt.warn("index of: not a list")
		}
		out := []Value{}
		for i, e := range l {
			if r, ok := equal(e, a[1]); ok && r {
				out = append(out, Number(int64(i+1)))
			}
		}
		return out
	}))
	r.def("union", sig("union", "list...", func(rt *Runtime, a []Value) Value {
		out := []Value{}
		for _, e := range a {
			l, ok := e.([]Value)
			if !ok {
				return rt.warn("union: argument is not a list")
			}
			for _, x := range l {
				rt.step(len(out)) // containsValue compares with each
				if !containsValue(out, x) {
					out = append(out, x)
				}
			}
		}
		return out
	}))
	r.def("distinct values", sig("distinct values", "list", func(rt *Runtime, a []Value) Value {
		l, ok := listOf(a[0])
		if !ok {
			return rt.warn("distinct values: not a list")
		}
		out := []Value{}
		for _, x := range l {
			rt.step(len(out)) // containsValue compares with each
			if !containsValue(out, x) {
				out = append(out, x)
			}
		}
		return out
	}))
	r.def("flatten", sig("flatten", "list", func(rt *Runtime, a []Value) Value {
		l, ok := listOf(a[0])
		if !ok {
			return rt.warn("flatten: not a list")
		}
		rt.needRows(leafCount(l, rt.rowsLeft()))
		out := []Value{}
		var rec func([]Value)
		rec = func(l []Value) {
			for _, e := range l {
				if sub, ok := e.([]Value); ok {
					rec(sub)
				} else {
					out = append(out, e)
				}
			}
		}
		rec(l)
		return out
	}))
	product := func(rt *Runtime, a []Value) Value {
		l, ok := listArgs(a)
		if !ok || len(l) == 0 {
			return rt.warn("product: invalid arguments")
		}
		r := apd.New(1, 0)
		for _, e := range l {
			d, ok := num(e)
			if !ok {
				return rt.warn("product: element is not a number")
			}
			decCtx.Mul(r, r, d)
		}
		return r
	}
	r.def("product", sig("product", "list", product), sig("product", "n...", product))
	median := func(rt *Runtime, a []Value) Value {
		l, ok := listArgs(a)
		if !ok {
			return rt.warn("median: invalid arguments")
		}
		if len(l) == 0 {
			return nil
		}
		ds, ok := numbers(l)
		if !ok {
			return rt.warn("median: element is not a number")
		}
		sort.Slice(ds, func(i, j int) bool { return ds[i].Cmp(ds[j]) < 0 })
		n := len(ds)
		if n%2 == 1 {
			return ds[n/2]
		}
		r := new(apd.Decimal)
		decCtx.Add(r, ds[n/2-1], ds[n/2])
		decCtx.Quo(r, r, apd.New(2, 0))
		return r
	}
	r.def("median", sig("median", "list", median), sig("median", "n...", median))
	stddev := func(rt *Runtime, a []Value) Value {
		l, ok := listArgs(a)
		if !ok {
			return rt.warn("stddev: invalid arguments")
		}
		ds, ok := numbers(l)
		if !ok || len(ds) < 2 {
			return rt.warn("stddev: needs at least two numbers")
		}
		mean := new(apd.Decimal)
		for _, d := range ds {
			decCtx.Add(mean, mean, d)
		}
		decCtx.Quo(mean, mean, apd.New(int64(len(ds)), 0))
		ss := new(apd.Decimal)
		for _, d := range ds {
			var diff apd.Decimal
			decCtx.Sub(&diff, d, mean)
			decCtx.Mul(&diff, &diff, &diff)
			decCtx.Add(ss, ss, &diff)
		}
		decCtx.Quo(ss, ss, apd.New(int64(len(ds)-1), 0))
		r := new(apd.Decimal)
		decCtx.Sqrt(r, ss)
		return r
	}
	r.def("stddev", sig("stddev", "list", stddev), sig("stddev", "n...", stddev))
	mode := func(rt *Runtime, a []Value) Value {
		l, ok := listArgs(a)
		if !ok {
			return rt.warn("mode: invalid arguments")
		}
		ds, ok := numbers(l)
		if !ok {
			return rt.warn("mode: element is not a number")
		}
		sort.Slice(ds, func(i, j int) bool { return ds[i].Cmp(ds[j]) < 0 })
		best := 0
		var out []Value
		for i := 0; i < len(ds); {
			j := i
			for j < len(ds) && ds[j].Cmp(ds[i]) == 0 {
				j++
			}
			switch c := j - i; {
			case c > best:
				best = c
				out = []Value{ds[i]}
			case c == best:
				out = append(out, ds[i])
			}
			i = j
		}
		if out == nil {
			out = []Value{}
		}
		return out
	}
	r.def("mode", sig("mode", "list", mode), sig("mode", "n...", mode))
	r.def("list replace", sig("list replace", "list, position, newItem", listReplace), sig("list replace", "list, match, newItem", listReplace))
}

func listReplace(rt *Runtime, a []Value) Value {
	{
		l, ok := listOf(a[0])
		if !ok {
			return rt.warn("list replace: not a list")
		}
		out := append([]Value{}, l...)
		switch p := a[1].(type) {
		case *apd.Decimal:
			i, ok := intArg(p)
			n := int64(len(l))
			if i < 0 {
				i = n + i + 1
			}
			if !ok || i < 1 || i > n {
				return rt.warn("list replace: position out of range")
			}
			out[i-1] = a[2]
		case *Function:
			for i, e := range l {
				switch r := p.Call(rt, []Value{e, a[2]}); r {
				case true:
					out[i] = a[2]
				case false:
				default:
					return rt.warn("list replace: match function did not return a boolean")
				}
			}
		default:
			return rt.warn("list replace: position is neither a number nor a function")
		}
		return out
	}
}

func registerSort(r registry) {
	r.def("sort", sig("sort", "list, precedes?", func(rt *Runtime, a []Value) Value {
		l, ok := listOf(a[0])
		if !ok {
			return rt.warn("sort: not a list")
		}
		out := append([]Value{}, l...)
		var fn *Function
		if len(a) > 1 && a[1] != nil {
			f, ok := a[1].(*Function)
			if !ok {
				return rt.warn("sort: precedes is not a function")
			}
			fn = f
		}
		bad := false
		sort.SliceStable(out, func(i, j int) bool {
			if fn != nil {
				r := fn.Call(rt, []Value{out[i], out[j]})
				if b, ok := r.(bool); ok {
					return b
				}
				bad = true
				return false
			}
			c, ok := compare(out[i], out[j])
			if !ok {
				bad = true
			}
			return c < 0
		})
		if bad {
			return rt.warn("sort: elements are not comparable")
		}
		return out
	}))
}

func containsValue(l []Value, x Value) bool {
	for _, e := range l {
		if r, ok := equal(e, x); ok && r {
			return true
		}
	}
	return false
}

func numbers(l []Value) ([]*apd.Decimal, bool) {
	out := make([]*apd.Decimal, len(l))
	for i, e := range l {
		d, ok := num(e)
		if !ok {
			return nil, false
		}
		out[i] = d
	}
	return out, true
}

func roundScale(rt *Runtime, a []Value, mode apd.Rounder, name string) Value {
	d, ok := num(a[0])
	if !ok {
		return rt.warnf("%s: not a number", name)
	}
	scale := int64(0)
	if len(a) > 1 {
		if a[1] == nil {
			return rt.warnf("%s: scale is null", name)
		}
		s, ok := intArg(a[1])
		if !ok || s < -6111 || s > 6176 {
			return rt.warnf("%s: invalid scale", name)
		}
		scale = s
	}
	ctx := *decCtx
	ctx.Rounding = mode
	r := new(apd.Decimal)
	if _, err := ctx.Quantize(r, d, -int32(scale)); err != nil {
		// more digits than the precision: the number is already exact at this scale
		if d.Exponent >= -int32(scale) {
			return d
		}
		return rt.warnf("%s: %v", name, err)
	}
	return r
}

func registerNumeric(r registry) {
	r.def("decimal", sig("decimal", "n, scale", func(rt *Runtime, a []Value) Value {
		return roundScale(rt, a, apd.RoundHalfEven, "decimal")
	}))
	r.def("floor", sig("floor", "n, scale?", func(rt *Runtime, a []Value) Value {
		return roundScale(rt, a, apd.RoundFloor, "floor")
	}))
	r.def("ceiling", sig("ceiling", "n, scale?", func(rt *Runtime, a []Value) Value {
		return roundScale(rt, a, apd.RoundCeiling, "ceiling")
	}))
	r.def("round up", sig("round up", "n, scale", func(rt *Runtime, a []Value) Value {
		return roundScale(rt, a, apd.RoundUp, "round up")
	}))
	r.def("round down", sig("round down", "n, scale", func(rt *Runtime, a []Value) Value {
		return roundScale(rt, a, apd.RoundDown, "round down")
	}))
	r.def("round half up", sig("round half up", "n, scale", func(rt *Runtime, a []Value) Value {
		return roundScale(rt, a, apd.RoundHalfUp, "round half up")
	}))
	r.def("round half down", sig("round half down", "n, scale", func(rt *Runtime, a []Value) Value {
		return roundScale(rt, a, apd.RoundHalfDown, "round half down")
	}))
	r.def("abs", sig("abs", "n", func(rt *Runtime, a []Value) Value {
		switch x := a[0].(type) {
		case *apd.Decimal:
			r := new(apd.Decimal)
			r.Abs(x)
			return r
		case Duration:
			if x.Sec < 0 || x.Nano < 0 {
				return x.neg()
			}
			return x
		case YearsMonths:
			if x < 0 {
				return -x
			}
			return x
		}
		return rt.warn("abs: not a number")
	}))
	r.def("modulo", sig("modulo", "dividend, divisor", func(rt *Runtime, a []Value) Value {
		x, ok1 := num(a[0])
		y, ok2 := num(a[1])
		if !ok1 || !ok2 || y.IsZero() {
			return rt.warn("modulo: invalid arguments")
		}
		r := new(apd.Decimal)
		if _, err := decCtx.Rem(r, x, y); err != nil {
			return rt.warnf("modulo: %v", err)
		}
		if !r.IsZero() && r.Negative != y.Negative {
			decCtx.Add(r, r, y)
		}
		return r
	}))
	r.def("sqrt", sig("sqrt", "number", func(rt *Runtime, a []Value) Value {
		x, ok := num(a[0])
		if !ok || x.Negative && !x.IsZero() {
			return rt.warn("sqrt: invalid argument")
		}
		r := new(apd.Decimal)
		decCtx.Sqrt(r, x)
		return r
	}))
	r.def("log", sig("log", "number", func(rt *Runtime, a []Value) Value {
		x, ok := num(a[0])
		if !ok || x.Sign() <= 0 {
			return rt.warn("log: invalid argument")
		}
		r := new(apd.Decimal)
		decCtx.Ln(r, x)
		return r
	}))
	r.def("exp", sig("exp", "number", func(rt *Runtime, a []Value) Value {
		x, ok := num(a[0])
		if !ok {
			return rt.warn("exp: invalid argument")
		}
		r := new(apd.Decimal)
		if _, err := decCtx.Exp(r, x); err != nil {
			return rt.warn("exp: overflow")
		}
		return r
	}))
	parity := func(name string, want int64) builtinImpl {
		return func(rt *Runtime, a []Value) Value {
			x, ok := num(a[0])
			if !ok || !isIntegral(x) {
				return rt.warnf("%s: not an integer", name)
			}
			r := new(apd.Decimal)
			decCtx.Rem(r, x, apd.New(2, 0))
			r.Abs(r)
			return r.Cmp(apd.New(want, 0)) == 0
		}
	}
	r.def("odd", sig("odd", "number", parity("odd", 1)))
	r.def("even", sig("even", "number", parity("even", 0)))
}

func registerContext(r registry) {
	r.def("get value", sig("get value", "m, key", func(rt *Runtime, a []Value) Value {
		c, ok := unwrap(a[0]).(*Context)
		if !ok {
			return rt.warn("get value: not a context")
		}
		switch k := a[1].(type) {
		case string:
			v, _ := c.Get(k)
			return v
		case []Value:
			var cur Value = c
			for _, e := range k {
				ks, ok := str(e)
				cc, ok2 := cur.(*Context)
				if !ok || !ok2 {
					return nil
				}
				cur, _ = cc.Get(ks)
			}
			return cur
		}
		return rt.warn("get value: key is not a string")
	}))
	r.def("get entries", sig("get entries", "m", func(rt *Runtime, a []Value) Value {
		c, ok := a[0].(*Context)
		if !ok {
			return rt.warn("get entries: not a context")
		}
		out := make([]Value, c.Len())
		for i, k := range c.keys {
			e := NewContext(2)
			e.Put("key", k)
			e.Put("value", c.vals[i])
			out[i] = e
		}
		return out
	}))
	r.def("context", sig("context", "entries", func(rt *Runtime, a []Value) Value {
		var l []Value
		switch x := a[0].(type) {
		case []Value:
			l = x
		case *Context:
			l = []Value{x}
		default:
			return rt.warn("context: entries is not a list")
		}
		out := NewContext(len(l))
		for _, e := range l {
			ec, ok := e.(*Context)
			if !ok {
				return rt.warn("context: entry is not a context")
			}
			k, hasK := ec.Get("key")
			v, hasV := ec.Get("value")
			ks, isStr := k.(string)
			if !hasK || !hasV || !isStr {
				return rt.warn("context: entry needs key and value")
			}
			if _, dup := out.Get(ks); dup {
				return rt.warnf("context: duplicate key %q", ks)
			}
			out.Put(ks, v)
		}
		return out
	}))
	putPath := func(rt *Runtime, a []Value) Value {
		c, ok := a[0].(*Context)
		if !ok {
			return rt.warn("context put: not a context")
		}
		switch k := a[1].(type) {
		case string:
			n := c.clone()
			n.Put(k, a[2])
			return n
		case []Value:
			return contextPutPath(rt, c, k, a[2])
		}
		return rt.warn("context put: keys is neither a string nor a list")
	}
	// positional calls take the first variant (a key or a list of keys);
	// a named "key" must be a single string
	r.def("context put",
		sig("context put", "context, keys, value", putPath),
		sig("context put", "context, key, value", func(rt *Runtime, a []Value) Value {
			if _, ok := a[1].(string); !ok {
				return rt.warn("context put: key is not a string")
			}
			return putPath(rt, a)
		}))
	r.def("context merge", sig("context merge", "contexts", func(rt *Runtime, a []Value) Value {
		l, ok := listOf(a[0])
		if !ok {
			return rt.warn("context merge: not a list")
		}
		out := NewContext(0)
		for _, e := range l {
			c, ok := e.(*Context)
			if !ok {
				return rt.warn("context merge: element is not a context")
			}
			for i, k := range c.keys {
				out.Put(k, c.vals[i])
			}
		}
		return out
	}))
}

func contextPutPath(rt *Runtime, c *Context, keys []Value, v Value) Value {
	if len(keys) == 0 {
		return rt.warn("context put: empty key list")
	}
	k, ok := str(keys[0])
	if !ok {
		return rt.warn("context put: key is not a string")
	}
	n := c.clone()
	if len(keys) == 1 {
		n.Put(k, v)
		return n
	}
	sub, _ := c.Get(k)
	sc, ok := sub.(*Context)
	if !ok {
		if sub != nil {
			return rt.warn("context put: path does not lead to a context")
		}
		sc = NewContext(0)
	}
	r := contextPutPath(rt, sc, keys[1:], v)
	if r == nil {
		return nil
	}
	n.Put(k, r)
	return n
}

func registerTemporal(r registry) {
	r.def("day of year", sig("day of year", "date", func(rt *Runtime, a []Value) Value {
		d, ok := dateOf(a[0])
		if !ok {
			return rt.warn("day of year: not a date")
		}
		return Number(int64(d.goTime().YearDay()))
	}))
	r.def("day of week", sig("day of week", "date", func(rt *Runtime, a []Value) Value {
		d, ok := dateOf(a[0])
		if !ok {
			return rt.warn("day of week: not a date")
		}
		return d.goTime().Weekday().String()
	}))
	r.def("month of year", sig("month of year", "date", func(rt *Runtime, a []Value) Value {
		d, ok := dateOf(a[0])
		if !ok {
			return rt.warn("month of year: not a date")
		}
		return d.goTime().Month().String()
	}))
	r.def("week of year", sig("week of year", "date", func(rt *Runtime, a []Value) Value {
		d, ok := dateOf(a[0])
		if !ok {
			return rt.warn("week of year: not a date")
		}
		_, w := d.goTime().ISOWeek()
		return Number(int64(w))
	}))
	r.def("now", sig("now", "", func(rt *Runtime, a []Value) Value {
		t := rt.now()
		_, off := t.Zone()
		return fromGoTime(t, Zone{Kind: ZoneOffset, Offset: off})
	}))
	r.def("today", sig("today", "", func(rt *Runtime, a []Value) Value {
		return dateFromGo(rt.now())
	}))
}

func dateOf(v Value) (Date, bool) {
	switch x := v.(type) {
	case Date:
		return x, true
	case DateTime:
		return x.Date(), true
	}
	return Date{}, false
}
