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
		`(?:ab)+?$`, `[^\P{IsGreek}]`, `\`, `[`, `[\`, `[a-`, `\p{`, "a{2,", "\xff",
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
			re.MatchString(pattern)
		}
		if !utf8.ValidString(pattern) {
			return
		}
		for _, q := range []string{"q", "qi", "xq", "qsmx"} {
			re, err := Compile(pattern, q)
			if err != nil {
				t.Fatalf("Compile(%q, %q): %v", pattern, q, err)
			}
			if loc := re.FindStringIndex(pattern); loc == nil || loc[0] != 0 || loc[1] != len(pattern) {
				t.Fatalf("Compile(%q, %q) does not match the pattern itself: %v", pattern, q, loc)
			}
		}
	})
}
