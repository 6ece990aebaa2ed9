package xsdregexp

import (
	"errors"
	"testing"
	"unicode/utf8"
)

func FuzzCompile(f *testing.F) {
	for _, s := range []string{
		"^h", "a.b", "[A-Z-[OI]]", `\p{IsBasicLatin}+`, `(a)\1`, `^\i\c*$`, `[\S\W-[\d]]`,
		" a\n\r\t[\\n]c ", "a?+*.{}()[]c", `[a-z-[a-y-[c]]]`, `\p{IsKlingon}`, `[+--/-[,]]`,
		`(?:ab)+?$`, `[^\P{IsGreek}]`, `^(a)\1$`, `(a)(b)\2\1`, `(a)\10`, `\1(a)`, `(a)[\1]`, `(a+)+\1b`, `\`, `[`, `[\`, `[a-`, `\p{`, "a{2,", "\xff",
	} {
		f.Add(s, "")
		f.Add(s, "ismx")
	}
	f.Add("a b", "xq")
	f.Add("A.C", "qi")
	f.Fuzz(func(t *testing.T, pattern, flags string) {
		re, err := Compile(pattern, flags)
		if err != nil {
			var re *Error
			if !errors.As(err, &re) {
				t.Fatalf("Compile(%q, %q): error %T %v is not a *Error", pattern, flags, err, err)
			}
		} else {
			ok, err := re.MatchString(pattern)
			var le *LimitError
			if err != nil && !errors.As(err, &le) {
				t.Fatalf("Compile(%q, %q).MatchString: error %T %v is not a *LimitError", pattern, flags, err, err)
			}
			// where the backtracking engine also runs the pattern, it agrees
			if bt, err := compileBacktrackingForTest(pattern, flags); err == nil && re.bt == nil {
				if bok, err := bt.MatchString(pattern); err == nil && bok != ok {
					t.Fatalf("Compile(%q, %q) on itself: RE2 %v, backtracking %v", pattern, flags, ok, bok)
				}
			}
		}
		if !utf8.ValidString(pattern) {
			return
		}
		for _, q := range []string{"q", "qi", "xq", "qsmx"} {
			re, err := Compile(pattern, q)
			if err != nil {
				t.Fatalf("Compile(%q, %q): %v", pattern, q, err)
			}
			if pattern == "" {
				continue // matches the empty string: ReplaceAll refuses it
			}
			if out, err := re.ReplaceAll(pattern, ""); out != "" || err != nil {
				t.Fatalf("Compile(%q, %q) does not match the pattern itself: ReplaceAll gives %q, %v", pattern, q, out, err)
			}
		}
	})
}
