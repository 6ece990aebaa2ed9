package feel

import (
	"testing"
)

// DMN 1.5 10.3.2.9 (instance of), 10.3.2.13 (functions, external
// functions) and 10.3.2.7 (type conversions); expected values are the
// spec's semantics written by hand.
func TestTypesInstanceOf(t *testing.T) {
	checkEval(t, []evalCase{
		{`1 instance of number`, `true`},
		{`"a" instance of string`, `true`},
		{`true instance of boolean`, `true`},
		{`null instance of Null`, `true`},
		{`null instance of number`, `false`},
		{`1 instance of Any`, `true`},
		{`date("2024-01-01") instance of date`, `true`},
		{`date("2024-01-01") instance of date and time`, `false`},
		{`time("10:00:00") instance of time`, `true`},
		{`date and time("2024-01-01T10:00:00") instance of date and time`, `true`},
		{`duration("P1D") instance of days and time duration`, `true`},
		{`duration("P1Y") instance of years and months duration`, `true`},
		{`duration("P1Y") instance of days and time duration`, `false`},
		{`[1, 2] instance of list<number>`, `true`},
		{`[1, "a"] instance of list<number>`, `false`},
		{`[] instance of list<string>`, `true`},
		{`[[1]] instance of list<list<number>>`, `true`},
		{`[1..2] instance of range<number>`, `true`},
		{`["a".."b"] instance of range<number>`, `false`},
		{`{a: 1, b: "x"} instance of context<a: number>`, `true`},
		{`{a: 1} instance of context<a: number, b: string>`, `false`},
		{`{a: "1"} instance of context<a: number>`, `false`},
		{`(function(x) x) instance of function<Any>->Any`, `true`},
		{`(function(x: number) x) instance of function<number>->Any`, `true`},
		{`(function(x: number, y: number) x) instance of function<number>->Any`, `false`},
		{`1 instance of function<Any>->Any`, `false`},
		{`abs instance of function<number>->number`, `true`},
		{`[1] instance of list<Any>`, `true`},
		{`{} instance of context`, `true`},
		{`[1] instance of list`, `true`},
		{`[1..2] instance of range`, `true`},
		{`(function() 1) instance of function`, `true`},
		{`1 instance of context`, `false`},
		// function types are contravariant in their parameters (10.3.2.9.1)
		{`(function(x: list<number>) x) instance of function<list<number>>->Any`, `true`},
		{`(function(x: list<number>) x) instance of function<list<string>>->Any`, `false`},
		{`(function(x: list<number>) x) instance of function<list>->Any`, `false`},
		{`(function(x: number) x) instance of function<Any>->Any`, `false`},
		{`(function(x: context<a: number>) x) instance of function<context<a: number, b: string>>->Any`, `true`},
		{`(function(x: context<a: number, b: string>) x) instance of function<context<a: number>>->Any`, `false`},
		{`(function(x: range<number>) x) instance of function<range<number>>->Any`, `true`},
		{`(function(x: function<number>->number) x) instance of function<function<number>->number>->Any`, `true`},
		{`(function(x: string) x) instance of function<number>->Any`, `false`},
	})
}

func TestFunctionsAndConversion(t *testing.T) {
	checkEval(t, []evalCase{
		// typed parameters convert singleton lists and reject others
		{`(function(x: number) x + 1)([1])`, `2`},
		{`(function(x: number) x + 1)("a")`, `null`},
		{`(function(x: list<number>) count(x))(3)`, `1`},
		{`(function(x: date and time) x)(date("2024-01-01"))`, `date and time("2024-01-01T00:00:00Z")`},
		// named and missing arguments
		{`(function(a, b) a - b)(b: 1, a: 3)`, `2`},
		{`(function(a, b) a - b)(c: 1, a: 3)`, `null`},
		{`(function(a, b) a)(1, 2, 3)`, `null`},
		{`substring(start position: 2, string: "abc")`, `"bc"`},
		{`substring(string: "abc", length: 1, start position: 1)`, `"a"`},
		{`max(list: [1, 2])`, `2`},
		{`string join(list: ["a", "b"], delimiter: ",")`, `"a,b"`},
		// closures capture their context
		{`{y: 2, f: function(x) x * y}.f(3)`, `6`},
		{`{g: function(f, x) f(x), r: g(function(v) v + 1, 1)}.r`, `2`},
		{`{f: abs, r: f(-2)}.r`, `2`},
		// external Java functions provided natively
		{`{max: function(a, b) external {java: {class: "java.lang.Math", method signature: "max(double, double)"}}, r: max(1, 2)}.r`, `2`},
		{`{min: function(a, b) external {java: {class: "java.lang.Math", method signature: "min(int,int)"}}, r: min(1, 2)}.r`, `1`},
		{`{f: function(a) external {java: {class: "java.lang.Math", method signature: "floor(double)"}}, r: f(1.5)}.r`, `1`},
		{`{f: function(a) external {java: {class: "java.lang.Math", method signature: "sqrt(double)"}}, r: f(-1)}.r`, `null`},
		{`{f: function(a) external {java: {class: "java.lang.Math", method signature: "sqrt(double)"}}, r: f("x")}.r`, `null`},
		{`{f: function(a) external {java: {class: "java.lang.Integer", method signature: "valueOf(java.lang.String)"}}, r: f(" 12 ")}.r`, `12`},
		{`{f: function(a) external {java: {class: "java.lang.Integer", method signature: "valueOf(java.lang.String)"}}, r: f("1.5")}.r`, `null`},
		{`{f: function(a) external {java: {class: "java.lang.Double", method signature: "valueOf(java.lang.String)"}}, r: f("x")}.r`, `null`},
		{`{f: function(a) external {java: {class: "java.lang.Double", method signature: "valueOf(double)"}}, r: f(true)}.r`, `null`},
		{`{f: function(a) external {java: {class: "java.lang.String", method signature: "valueOf(char)"}}, r: f("x")}.r`, `"x"`},
		{`{f: function(a) external {java: {class: "java.lang.String", method signature: "valueOf(char)"}}, r: f("xy")}.r`, `null`},
		{`{f: function(a) external {java: {class: "java.lang.String", method signature: "valueOf(java.lang.Object)"}}, r: f(1)}.r`, `"1"`},
		{`{f: function(a, b) external {java: {class: "java.lang.String", method signature: "format(java.lang.String, [Ljava.lang.Object;)"}}, r: f("%s-%s", ["a", "b"])}.r`, `"a-b"`},
		{`{f: function(a, b) external {java: {class: "java.lang.String", method signature: "format(java.lang.String, [Ljava.lang.Object;)"}}, r: f("%d", [1])}.r`, `null`},
		{`{f: function(a) external {java: {class: "java.lang.Foo", method signature: "bar()"}}, r: f(1)}.r`, `null`},
		{`{f: function(a) external {js: "x"}, r: f(1)}.r`, `null`},
		{`{f: function(a) external 1, r: f(1)}.r`, `null`},
		{`{f: function(a) external {java: 1}, r: f(1)}.r`, `null`},
		{`{f: function(a) external {java: {class: 1}}, r: f(1)}.r`, `null`},
		// paths and filters over lists of contexts
		{`[{a: 1}, {a: 2}].a`, `[1, 2]`},
		{`[{a: 1}, {b: 2}].a`, `[1, null]`},
		{`[1, 2, 3][item >= 2]`, `[2, 3]`},
		{`[{x: 1}, {x: 2}][x > 1]`, `[{x: 2}]`},
		{`[1, 2, 3][0]`, `null`},
		{`[1, 2, 3][4]`, `null`},
		{`[1, 2, 3][-3]`, `1`},
		{`1[1]`, `1`},
		{`[1, 2][true]`, `[1, 2]`},
		{`[1, 2]["a"]`, `[]`},
		// iteration forms
		{`for x in [1, 2], y in [x] return x + y`, `[2, 4]`},
		{`for i in 3..1 return i`, `[3, 2, 1]`},
		{`for d in @"2024-01-01"..@"2024-01-03" return d.day`, `[1, 2, 3]`},
		{`for x in null return x`, `null`},
		{`some x in [1, 2], y in [2, 3] satisfies x = y`, `true`},
		{`every x in [] satisfies false`, `true`},
		{`some x in [1, "a"] satisfies x > 0`, `true`},
		{`for i in [1..3) return i`, `[1, 2]`},
		{`for i in (1..3] return i`, `[2, 3]`},
		{`for d in [@"2024-01-30"..@"2024-02-01") return d.day`, `[30, 31]`},
		{`for d in (@"2024-01-30"..@"2024-02-01"] return d.day`, `[31, 1]`},
		{`for i in [3..1] return i`, `null`},
		{`for i in 1.5..3 return i`, `null`},
		{`for i in > 3 return i`, `null`},
		{`for i in 5 return i`, `[5]`},
		{`[[1]..[2]]`, `null`},
		{`[{a: 1}..{a: 2}]`, `null`},
		{`date and time("2024-01-01T10:00:00") < date and time("2024-01-01T11:00:00")`, `true`},
		{`date and time("2024-01-01T10:00:00") = date and time("2024-01-01T10:00:00")`, `true`},
		{`date and time("2024-01-01T10:00:00") = date and time("2024-01-01T10:00:00Z")`, `false`},
		{`time("10:00:00") = time("10:00:00")`, `true`},
		{`time("10:00:00") < time("10:00:01")`, `true`},
		// comparison and arithmetic across kinds
		{`"a" < "b"`, `true`},
		{`[1] < [2]`, `null`},
		{`true > false`, `null`},
		{`1 != 2`, `true`},
		{`"a" * 2`, `null`},
		{`-"a"`, `null`},
		{`1 between 2 and 0`, `false`},
		{`"b" between "a" and "c"`, `true`},
		{`null = null`, `true`},
		{`null != 1`, `true`},
		{`[1, [2]] = [1, [2]]`, `true`},
		{`{a: [1]} = {a: [2]}`, `false`},
		{`[1..2] = [1..2]`, `true`},
		{`[1..2] = (1..2]`, `false`},
		{`0.1 * 3 = 0.3`, `true`},
		{`10 ** -1`, `0.1`},
		{`2 ** 0.5 > 1.41`, `true`},
		{`1 in [[1, 2]]`, `false`},
		{`[1, 2] in [[1, 2]]`, `true`},
		{`1 in []`, `false`},
		{`1 in (1, 2)`, `true`},
		{`1 in (not(1))`, `false`},
	})
}

func TestTypeAPI(t *testing.T) {
	tests := []struct {
		src, str string
		in, out  string // a value that conforms and one that does not
	}{
		{`list<number>`, `list<number>`, `[1]`, `["a"]`},
		{`range<date>`, `range<date>`, `[@"2024-01-01"..@"2024-02-01"]`, `[1..2]`},
		{`context<a: string, b: number>`, `context<a: string, b: number>`, `{a: "x", b: 1}`, `{a: 1, b: 1}`},
		{`function<number, string>->Any`, `function<number, string>->Any`, `function(a: number, b: string) true`, `function(a) 1`},
		{`years and months duration`, `years and months duration`, `duration("P1Y")`, `duration("P1D")`},
	}
	for _, tc := range tests {
		n, err := ParseExpr(`x instance of `+tc.src, &Scope{Names: []string{"x"}})
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		io, ok := n.(*InstanceOf)
		if !ok {
			t.Fatalf("%s: parsed to %T", tc.src, n)
		}
		if io.Type.Pos() >= io.Type.End() {
			t.Errorf("%s: type node spans %v..%v", tc.src, io.Type.Pos(), io.Type.End())
		}
		typ, ok := ResolveType(io.Type, nil)
		if !ok {
			t.Fatalf("%s: not resolved", tc.src)
		}
		if got := typ.String(); got != tc.str {
			t.Errorf("String() = %q, want %q", got, tc.str)
		}
		if !typ.Conforms(mustEval(t, tc.in)) {
			t.Errorf("%s does not conform to %s", tc.in, tc.src)
		}
		if typ.Conforms(mustEval(t, tc.out)) {
			t.Errorf("%s conforms to %s", tc.out, tc.src)
		}
	}
	if _, ok := ResolveType(&NamedType{Name: "no such type"}, nil); ok {
		t.Error("unknown type name resolved")
	}
	for _, name := range []string{"feel:number", "Long", "dateTime", "dayTimeDuration", "yearMonthDuration", "context", "list", "range", "function", "Any", "Null", "boolean", "time"} {
		if _, ok := BuiltinType(name); !ok {
			t.Errorf("BuiltinType(%q) unknown", name)
		}
	}
	if _, ok := BuiltinType("nope"); ok {
		t.Error(`BuiltinType("nope") known`)
	}
	// coercion (10.3.2.9.4): singleton lists, lists of one, date to date and time
	list, _ := ResolveType(&ListType{Elem: &NamedType{Name: "number"}}, nil)
	coerce := []struct {
		typ  *Type
		in   string
		want string
		ok   bool
	}{
		{NumberType, `[1]`, `1`, true},
		{list, `1`, `[1]`, true},
		{DateTimeType, `date("2024-01-01")`, `date and time("2024-01-01T00:00:00Z")`, true},
		{StringType, `1`, `null`, false},
		{NumberType, `null`, `null`, true},
		{list, `["a"]`, `null`, false},
	}
	for _, tc := range coerce {
		got, ok := tc.typ.Coerce(mustEval(t, tc.in))
		if Literal(got) != tc.want || ok != tc.ok {
			t.Errorf("%s.Coerce(%s) = %s, %v; want %s, %v", tc.typ, tc.in, Literal(got), ok, tc.want, tc.ok)
		}
	}
}

func TestEqualCompare(t *testing.T) {
	tests := []struct {
		a, b  string
		equal string
		cmp   int
		ok    bool
	}{
		{`1`, `1.0`, `true`, 0, true},
		{`1`, `2`, `false`, -1, true},
		{`"b"`, `"a"`, `false`, 1, true},
		{`date("2024-01-02")`, `date("2024-01-01")`, `false`, 1, true},
		{`time("10:00:00Z")`, `time("11:00:00+01:00")`, `true`, 0, true},
		{`duration("P1D")`, `duration("PT24H")`, `true`, 0, true},
		{`duration("P1Y")`, `duration("P12M")`, `true`, 0, true},
		{`1`, `"1"`, `null`, 0, false},
		{`[1]`, `[1]`, `true`, 0, false},
		{`{a: 1}`, `{a: 2}`, `false`, 0, false},
	}
	for _, tc := range tests {
		a, b := mustEval(t, tc.a), mustEval(t, tc.b)
		if got := Literal(Equal(a, b)); got != tc.equal {
			t.Errorf("Equal(%s, %s) = %s, want %s", tc.a, tc.b, got, tc.equal)
		}
		c, ok := Compare(a, b)
		if ok != tc.ok || (ok && c != tc.cmp) {
			t.Errorf("Compare(%s, %s) = %d, %v; want %d, %v", tc.a, tc.b, c, ok, tc.cmp, tc.ok)
		}
	}
}

// Every node of a parsed expression spans a non-empty part of its source
// inside the root's span (positions are 1-based byte offsets).
func TestNodePositions(t *testing.T) {
	srcs := []string{
		`{a: [1, "s", true, null, @"P1D"], b: a[1].c(x: 2), c: -1 between 0 and 2, d: x in (1, 2), e: x instance of list<number>}`,
		`if some i in [1..2) satisfies i > 0 then for j in 1..2 return j else function(p: context<k: number>, q: range<number>, r: function<number>->number) p`,
		`every z in [] satisfies not(z)`,
	}
	for _, src := range srcs {
		n, err := ParseExpr(src, nil)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		count := 0
		Inspect(n, func(m Node) bool {
			count++
			if m.Pos() >= m.End() || m.Pos() < n.Pos() || m.End() > n.End() || int(m.End()) > len(src)+1 {
				t.Errorf("%T spans %d..%d in %q", m, m.Pos(), m.End(), src)
			}
			return true
		})
		if count < 5 {
			t.Errorf("%s: only %d nodes inspected", src, count)
		}
	}
}
