package xsdregexp

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestReplaceAll(t *testing.T) {
	cases := []struct {
		pattern, flags, input, repl string
		want                        string
		err                         string // part of the error message, or ""
	}{
		{"a", "", "banana", "o", "bonono", ""},
		{"(an)+", "", "banana", "[$0]", "b[anan]a", ""},
		{"(a)(n)", "", "banana", "$2$1", "bnanaa", ""},
		{"(a)", "", "banana", "$1$1", "baanaanaa", ""},
		{"(a)", "", "banana", "$5", "bnn", ""},        // no group 5, at most 9: empty
		{"(a)", "", "banana", "$12", "ba2na2na2", ""}, // $12 with one group: group 1 and a literal 2
		{"(a)(b)?", "", "ab a", "[$2]", "[b] []", ""},
		{"a", "", "banana", `\$\\`, `b$\n$\n$\`, ""},
		{"a", "", "banana", `$`, "", "$ must be followed by a digit"},
		{"a", "", "banana", `\n`, "", `\ must be followed by \ or $`},
		{"a*", "", "banana", "x", "", "matches the empty string"},
		{"a.", "q", "a.a.ab", "$1", "$1$1ab", ""}, // q: pattern and replacement literal
		{`(a)\1`, "i", "xaAy", "<$1>", "x<a>y", ""},
		{`(.)\1`, "", "😀😀é", "$1", "😀é", ""}, // rune offsets of the backtracking engine become byte offsets
		{"é", "", "café é", "e", "cafe e", ""},
	}
	for _, tc := range cases {
		re, err := Compile(tc.pattern, tc.flags)
		if err != nil {
			t.Fatalf("Compile(%q, %q): %v", tc.pattern, tc.flags, err)
		}
		got, err := re.ReplaceAll(tc.input, tc.repl)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("replace(%q, %q, %q): %q, %v, want an error containing %q", tc.input, tc.pattern, tc.repl, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("replace(%q, %q, %q) = %q, %v, want %q", tc.input, tc.pattern, tc.repl, got, err, tc.want)
		}
	}
}

func TestSplit(t *testing.T) {
	cases := []struct {
		pattern, input string
		want           []string
	}{
		{",", "a,b,,c", []string{"a", "b", "", "c"}},
		{`\s*;\s*`, "a ; b;c", []string{"a", "b", "c"}},
		{",", "", []string{""}},
		{`(.)\1`, "xaabbyc", []string{"x", "", "yc"}},
	}
	for _, tc := range cases {
		re, err := Compile(tc.pattern, "")
		if err != nil {
			t.Fatal(err)
		}
		got, err := re.Split(tc.input, -1)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("split(%q, %q) = %q, %v, want %q", tc.input, tc.pattern, got, err, tc.want)
		}
	}
	re, _ := Compile(",", "")
	if got, err := re.Split("a,b,c", 2); err != nil || !reflect.DeepEqual(got, []string{"a", "b,c"}) {
		t.Errorf("split into at most 2: %q, %v", got, err)
	}
	re, _ = Compile(`(.)\1`, "")
	if got, err := re.Split("aaXbbYcc", 2); err != nil || !reflect.DeepEqual(got, []string{"", "XbbYcc"}) {
		t.Errorf("backtracking split into at most 2: %q, %v", got, err)
	}
	re, _ = Compile("x?", "")
	if _, err := re.Split("abc", -1); err == nil {
		t.Error("split with a pattern matching the empty string: no error")
	}
}

// TestLimits: a catastrophic back-reference pattern ends at its
// MatchTimeout with a *LimitError (not a silent false), and a replacement
// that grows past MaxBytes stops there.
func TestLimits(t *testing.T) {
	re, err := CompileWith(`^(a|aa)+\1b$`, "", Options{MatchTimeout: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	input := strings.Repeat("a", 80) + "c"
	start := time.Now()
	ok, err := re.MatchString(input)
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != "MatchTimeout" || le.Max != int64(20*time.Millisecond) || ok {
		t.Fatalf("MatchString = %v, %v; want a MatchTimeout *LimitError", ok, err)
	}
	if d := time.Since(start); d > 30*time.Second { // a hang, not a slow machine
		t.Errorf("the match took %v despite a 20ms MatchTimeout", d)
	}
	if want := `regular expression "^(a|aa)+\\1b$": match exceeded MatchTimeout (20ms)`; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	if _, err := re.ReplaceAll(input, "x"); !errors.As(err, &le) {
		t.Errorf("ReplaceAll: %v, want the *LimitError", err)
	}
	if _, err := re.Split(input, -1); !errors.As(err, &le) {
		t.Errorf("Split: %v, want the *LimitError", err)
	}

	grow, err := CompileWith("a", "", Options{MaxBytes: 1000})
	if err != nil {
		t.Fatal(err)
	}
	out, err := grow.ReplaceAll(strings.Repeat("a", 100), strings.Repeat("b", 10))
	if err != nil || len(out) != 1000 {
		t.Errorf("ReplaceAll to exactly MaxBytes: %d bytes, %v", len(out), err)
	}
	_, err = grow.ReplaceAll(strings.Repeat("a", 101), strings.Repeat("b", 10))
	if !errors.As(err, &le) || le.LimitExceeded() != "MaxBytes" || le.Max != 1000 {
		t.Errorf("ReplaceAll past MaxBytes: %v, want a MaxBytes *LimitError", err)
	}
}
