package feel

import (
	"strconv"
	"testing"
)

// evalWith compiles src with the given variables and evaluates it,
// returning the FEEL literal of the result and the warnings.
func evalWith(t *testing.T, src string, vars map[string]Value) (string, []string) {
	t.Helper()
	names := make([]string, 0, len(vars))
	for k := range vars {
		names = append(names, k)
	}
	x, err := CompileExpr(src, &Scope{Names: names})
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	rt := &Runtime{}
	return Literal(x.Eval(NewEnv(rt, vars))), rt.Warnings
}

// TestRegexpXMLSchemaMeaning checks that matches, replace and split read
// patterns as XPath does (sparql/graph/xsdregexp), in the places where
// feel's former translation of its own read them as RE2 does. Pattern and
// input are passed as variables so that FEEL's string escapes play no part.
func TestRegexpXMLSchemaMeaning(t *testing.T) {
	cases := []struct {
		input, pattern, flags string
		want                  string
	}{
		{"١٢٣", `^\d+$`, "", "true"},  // \d is any Unicode digit
		{"a_b", `^\w+$`, "", "false"}, // _ is punctuation, not \w
		{"héllo€", `^\w+$`, "", "true"},
		{"\f", `\s`, "", "false"},           // form feed is not XML white space
		{"a b", "a b", "xq", "true"},        // q switches x off
		{"ab", "a b", "xq", "false"},        // so the space stays
		{"-", `^[+--/-[,]]$`, "", "true"},   // + to -, and /, minus ','
		{".", `^[+--/-[,]]$`, "", "false"},  // the leftover hyphen is no range
		{"[", `^[\[-\]-[\\]]$`, "", "true"}, // subtraction with escapes
		{`\`, `^[\[-\]-[\\]]$`, "", "false"},
		{"a:b", `^[\i]+$`, "", "true"}, // \i inside a class
		{"1", `^[\i]+$`, "", "false"},
		{"aβ", `^[\P{IsGreek}]+$`, "", "false"},
		{"-.9", `^[\c-[\i]]+$`, "", "true"},
	}
	for _, tc := range cases {
		vars := map[string]Value{"input": tc.input, "pattern": tc.pattern, "flags": tc.flags}
		got, warnings := evalWith(t, `matches(input, pattern, flags)`, vars)
		if got != tc.want || len(warnings) != 0 {
			t.Errorf("matches(%q, %q, %q) = %s (warnings %q), want %s", tc.input, tc.pattern, tc.flags, got, warnings, tc.want)
		}
	}

	got, _ := evalWith(t, `split(s, pattern)`, map[string]Value{"s": "a1b٢c", "pattern": `\d`})
	if want := `["a", "b", "c"]`; got != want {
		t.Errorf(`split("a1b٢c", "\d") = %s, want %s`, got, want)
	}
	got, _ = evalWith(t, `replace(s, pattern, "$", "q")`, map[string]Value{"s": "a.b.c", "pattern": "."})
	if want := `"a$b$c"`; got != want {
		t.Errorf(`replace("a.b.c", ".", "$", "q") = %s, want %s`, got, want)
	}
	got, _ = evalWith(t, `replace(s, pattern, "[$1]", "x")`, map[string]Value{"s": "a1b22", "pattern": `( \d + )`})
	if want := `"a[1]b[22]"`; got != want {
		t.Errorf(`replace("a1b22", "( \d + )", "[$1]", "x") = %s, want %s`, got, want)
	}
}

// TestRegexpWarnings checks that a pattern, flags or replacement XPath
// rejects, or a pattern this package cannot run, makes the function null
// with a warning naming the problem.
func TestRegexpWarnings(t *testing.T) {
	cases := []struct {
		src, pattern, want string
	}{
		{`matches("a", pattern, "g")`, "a", `matches: regular expression "a": unknown flag 'g' in flags "g"`},
		{`matches("aa", pattern)`, `\1(a)`, `matches: regular expression "\\1(a)": back reference \1 refers to no group closed before it`},
		{`replace("aa", pattern, "$")`, `a`, `replace: regular expression "a": replacement "$": $ must be followed by a digit`},
		{`replace("aa", pattern, "x")`, `a?`, `replace: regular expression "a?": the pattern matches the empty string, which replace does not allow`},
		{`matches("a b", pattern)`, `a\b`, `matches: regular expression "a\\b": invalid escape \b`},
		{`matches("a", pattern)`, `(?i)A`, `matches: regular expression "(?i)A": "(?i": the only group extension XPath knows is (?:`},
		{`replace("abc", pattern, "x")`, `[z-a]`, `replace: regular expression "[z-a]": range "z-a" is out of order`},
		{`replace("abc", pattern, "x", "q")`, `b`, ""},
		{`split("a,b", pattern)`, `\p{IsKlingon}`, `split: regular expression "\\p{IsKlingon}": Unicode block IsKlingon is not supported`},
		{`split("a,b", pattern)`, `[a`, `split: regular expression "[a": unterminated character class "[a"`},
	}
	for _, tc := range cases {
		got, warnings := evalWith(t, tc.src, map[string]Value{"pattern": tc.pattern})
		if tc.want == "" {
			if got == "null" || len(warnings) != 0 {
				t.Errorf("%s with pattern %q = %s, warnings %q; want a value and no warning", tc.src, tc.pattern, got, warnings)
			}
			continue
		}
		if got != "null" {
			t.Errorf("%s with pattern %q = %s, want null", tc.src, tc.pattern, got)
		}
		if len(warnings) != 1 || warnings[0] != tc.want {
			t.Errorf("%s with pattern %q: warnings %q, want [%q]", tc.src, tc.pattern, warnings, tc.want)
		}
	}
}

// TestRegexpCacheBound evaluates matches with far more distinct patterns
// than the cache holds: every answer is right and the cache stays bounded.
func TestRegexpCacheBound(t *testing.T) {
	x, err := CompileExpr(`matches(name, pattern)`, &Scope{Names: []string{"name", "pattern"}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 1000 {
		p := "^a" + strconv.Itoa(i) + "$"
		env := NewEnv(&Runtime{}, map[string]Value{"name": "a" + strconv.Itoa(i), "pattern": p})
		if got := x.Eval(env); got != true {
			t.Fatalf("matches(%q, %q) = %v, want true", "a"+strconv.Itoa(i), p, got)
		}
		env = NewEnv(&Runtime{}, map[string]Value{"name": "a" + strconv.Itoa(i) + "x", "pattern": p})
		if got := x.Eval(env); got != false {
			t.Fatalf("matches(%q, %q) = %v, want false", "a"+strconv.Itoa(i)+"x", p, got)
		}
	}
	if n := regexpCache.Len(); n > 256 {
		t.Errorf("regexpCache holds %d patterns, want at most 256", n)
	}
}
