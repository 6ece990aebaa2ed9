package xsdregexp

import (
	"errors"
	"reflect"
	"regexp/syntax"
	"testing"
)

func TestCompileMatches(t *testing.T) {
	cases := []struct {
		pattern, flags, input string
		want                  bool
	}{
		// flags
		{"^h", "i", "Hello", true},
		{"^h", "", "Hello", false},
		{"DeFghI", "i", "abcdefghijk", true},
		{"GHI", "", "abcdefghi", false},
		{"^b$", "", "a\nb\nc", false},
		{"^b$", "m", "a\nb\nc", true},
		{"^b$", "mm", "a\nb\nc", true},
		{"^b$", "", "b", true},
		{"b$", "", "b\n", false}, // $ is the end of the string, not before a final newline
		{"^B$", "mi", "a\nb", true},
		{"a.c", "", "abc", true},

		// "." matches neither \n nor \r without s, and every character with it
		{"a.b", "", "a\rb", false},
		{"a.b", "", "a\nb", false},
		{"a.b", "s", "a\rb", true},
		{"a.b", "s", "a\nb", true},
		{"a.b", "", "a\u2028b", true},
		{"a.b", "", "a\u0085b", true},
		{"^.$", "", "😀", true},
		{"a[.]b", "", "axb", false}, // a dot in a class is a dot
		{"a[.]b", "", "a.b", true},

		// x removes white space outside classes, before the pattern is read
		{" a\n\r\t[\\n]c ", "x", "a\nc", true},
		{" a\n\r\t[\\n]c ", "x", "a c", false},
		{"a b", "x", "ab", true},
		{"a b", "x", "a b", false},
		{"a[ ]b", "x", "a b", true},
		{"a[ ]b", "x", "ab", false},
		{`a\ d`, "x", "a5", true}, // the backslash escapes the next kept character
		{"a{2, 3}", "x", "aaa", true},
		{"( ? : ab ) +$", "x", "abab", true},
		{`\p{ Is Greek }`, "x", "α", true},
		{"^[a-z-[ aeiou]]+$", "x", "b c", false}, // the space inside the class is subtracted too
		{"^[a-z -[aeiou]]+$", "x", "b c", true},

		// q: the pattern is a literal; i still applies, m, s and x do not
		{"a.c", "q", "abc", false},
		{"a.c", "q", "xa.cx", true},
		{"a?+*.{}()[]c", "q", "a?+*.{}()[]c", true},
		{`\d`, "q", `\d`, true},
		{`\d`, "q", "5", false},
		{"A.C", "qi", "xa.cx", true},
		{"A.C", "q", "xa.cx", false},
		{"a b", "qx", "ab", false},
		{"a b", "xq", "a b", true},
		{"^a$", "qm", "x\na\ny", false},
		{"^a$", "qm", "^a$", true},
		{"a.b", "qs", "a\nb", false},

		// escapes
		{`\$`, "", "$", true},
		{`a\.c`, "", "abc", false},
		{`a\.c`, "", "a.c", true},
		{`\^`, "", "^", true},
		{`[\^]`, "", "^", true},
		{`[a\-z]`, "", "-", true},
		{`[a\-z]`, "", "b", false},
		{`a\tb`, "", "a\tb", true},
		{`[\n\r]`, "", "\r", true},
		{`[\[\]]`, "", "]", true},
		{`\{\}`, "", "{}", true},
		{"[a-]", "", "-", true},
		{"[-a]", "", "-", true},
		{"[a^]", "", "^", true},
		{"[$]", "", "$", true},
		{"a|b", "", "b", true},
		{"(?:ab)+$", "", "abab", true},
		{"^a+?$", "", "aaa", true},
		{"^ab{1,2}c$", "", "abbc", true},
		{"^ab{1,2}c$", "", "abbbc", false},
		{"]", "", "]", true},

		// \d, \s, \w with XML Schema's meaning, not RE2's ASCII one
		{`^\d+$`, "", "123", true},
		{`^\d+$`, "", "١٢٣", true}, // Arabic-Indic digits are \p{Nd}
		{`^\d+$`, "", "12a", false},
		{`^\D+$`, "", "ab", true},
		{`\D`, "", "7", false},
		{`\s`, "", "\t", true},
		{`\s`, "", "\f", false}, // form feed is not XML white space
		{`\s`, "", "\u00a0", false},
		{`\S`, "", "\f", true},
		{`\S`, "", " ", false},
		{`^\w+$`, "", "héllo€", true}, // letters and symbols
		{`^\w+$`, "", "a,b", false},
		{`^\w+$`, "", "a_b", false}, // _ is punctuation (Pc)
		{`\W`, "", "a b", true},
		{`\W`, "", "ab", false},

		// XML name characters
		{`^\i\c*$`, "", "_foo-1.x", true},
		{`^\i\c*$`, "", "ns:élan", true},
		{`^\i\c*$`, "", "1abc", false},
		{`^\i\c*$`, "", "a b", false},
		{`^\c$`, "", "·", true},
		{`^\I$`, "", "1", true},
		{`\I`, "", "a", false},
		{`^\C$`, "", " ", true},
		{`^\C$`, "", "-", false},
		{`^[\i]+$`, "", "a:b", true}, // \i inside a class joins it
		{`^[\i\d]+$`, "", "a1", true},
		{`^[\i-[:_]]+$`, "", "abc", true},
		{`^[\i-[:_]]+$`, "", "a:b", false},
		{`^[\c-[\i]]+$`, "", "-.9", true},
		{`^[\c-[\i]]+$`, "", "a", false},

		// negated escapes inside a class
		{`^[\S]+$`, "", "ab", true},
		{`^[\S]+$`, "", "a b", false},
		{`^[\W\d]+$`, "", "1, 2", true},
		{`^[\W\d]+$`, "", "a", false},
		{`^[\I1]+$`, "", "1-1", true},
		{`^[^\S]+$`, "", " \t", true},
		{`^[^\S]+$`, "", " x", false},

		// blocks and categories
		{`^\p{IsBasicLatin}+$`, "", "hi there", true},
		{`^\p{IsBasicLatin}+$`, "", "héllo", false},
		{`\p{IsGreek}`, "", "α", true},
		{`\p{IsGreek}`, "", "a", false},
		{`^\P{IsGreek}$`, "", "a", true},
		{`^\P{IsGreek}$`, "", "α", false},
		{`\p{IsCyrillic}`, "", "ж", true},
		{`\p{IsLatin-1Supplement}`, "", "é", true},
		{`^[\p{IsGreek}a]+$`, "", "aαβ", true},
		{`^[\P{IsGreek}]+$`, "", "ab", true}, // a negated block inside a class
		{`^[\P{IsGreek}]+$`, "", "aβ", false},
		{`^[\P{IsBasicLatin}x]+$`, "", "xé", true},
		{`^\p{Lu}$`, "", "A", true},
		{`^\p{Lu}$`, "", "a", false},
		{`\P{L}`, "", "5", true},
		{`\P{L}`, "", "a", false},
		{`^\p{Nd}$`, "", "٣", true},
		{`^\p{Cn}$`, "", "\u0378", true},
		{`^[\p{Lu}-[A-Y]]$`, "", "Z", true},
		{`^[\p{Lu}-[A-Y]]$`, "", "B", false},
		{`^[\p{Lu}-[A-Y]]$`, "", "Á", true},

		// class subtraction
		{"[A-Z-[OI]]", "i", "x", true},
		{"[A-Z-[OI]]", "", "O", false},
		{"[A-Z-[OI]]", "", "P", true},
		{"^[A-Z-[OI]]$", "", "I", false},
		{"^[a-z-[aeiou]]+$", "", "bcd", true},
		{"^[a-z-[aeiou]]+$", "", "bad", false},
		{`^[\d-[5]]+$`, "", "1234", true},
		{`^[\d-[5]]+$`, "", "45", false},
		{`^[\d-[5]]+$`, "", "٣", true},
		{"^[a-z-[a-y-[c]]]$", "", "c", true}, // a-z minus (a-y minus c) = {c, z}
		{"^[a-z-[a-y-[c]]]$", "", "z", true},
		{"^[a-z-[a-y-[c]]]$", "", "b", false},
		{"^[^a-c-[x]]$", "", "x", false},
		{"^[^a-c-[x]]$", "", "d", true},
		{"^[^a-c-[x]]$", "", "a", false},
		{"^[^a-c-[x]]$", "", "\n", true},
		{"[a-[a]]", "", "a", false}, // nothing is left
		{"^x[a-[a]]?$", "", "x", true},
		{"^[一-龥-[二]]$", "", "一", true}, // a range of 20,000 characters
		{"^[一-龥-[二]]$", "", "二", false},
		{"^[+--/-[,]]$", "", "-", true}, // + to -, and /, minus ',' leaves + - /
		{"^[+--/-[,]]$", "", "+", true},
		{"^[+--/-[,]]$", "", "/", true},
		{"^[+--/-[,]]$", "", ",", false},
		{"^[+--/-[,]]$", "", ".", false}, // the hyphen left over must not become a range
		{`^[\[-\]-[\\]]$`, "", "[", true},
		{`^[\[-\]-[\\]]$`, "", `\`, false},

		// patterns from the SPARQL and SHACL suites
		{"^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$", "i", "73ab1a71-3a5a-4e6b-9fd5-0a7b2c8b4e21", true},
		{`example\.com`, "", "http://example.com/", true},
		{`a[b\n]c`, "", "a\nc", true},
		{`^\d{3}-\d{2}-\d{4}$`, "", "123-45-6789", true},
		{`^\d{3}-\d{2}-\d{4}$`, "", "123-45-678", false},
		{"^[2-8][0-9]*$", "", "42", true},
		{"Aldi", "i", "ALDI", true},
		{"[^a-z0-9]", "", "-", true},

		// back references, which run on the backtracking engine
		{`^(a)\1$`, "", "aa", true},
		{`^(a)\1$`, "", "ab", false},
		{`(a)\1`, "i", "aA", true}, // DMN TCK K2-MatchesFunc-17
		{`^(['"])[a-z]*\1$`, "", `"abc"`, true},
		{`^(['"])[a-z]*\1$`, "", `"abc'`, false},
		{`^(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\10$`, "", "abcdefghijj", true},
		{`^(a)\10$`, "", "aa0", true}, // one group: \10 is \1 and a 0
		{`^(a)\10$`, "", "aa", false},
		{`^((a)b)\2\1$`, "", "abaab", true},
		{`^(a)\1$`, "", "aa\n", false}, // $ is the very end on regexp2 too
		{`^(a)\1$`, "m", "aa\nb", true},
		{`^(\d)\1$`, "", "٣٣", true},
		{`^(.)\1$`, "", "😀😀", true},
	}
	for _, tc := range cases {
		re, err := Compile(tc.pattern, tc.flags)
		if err != nil {
			t.Errorf("Compile(%q, %q): %v", tc.pattern, tc.flags, err)
			continue
		}
		if got, err := re.MatchString(tc.input); got != tc.want || err != nil {
			t.Errorf("Compile(%q, %q) on %q = %v, %v, want %v", tc.pattern, tc.flags, tc.input, got, err, tc.want)
		}
		// the same pattern forced onto the backtracking engine means the same
		bt, err := compileBacktrackingForTest(tc.pattern, tc.flags)
		if err != nil {
			t.Errorf("backtracking Compile(%q, %q): %v", tc.pattern, tc.flags, err)
			continue
		}
		if got, err := bt.MatchString(tc.input); got != tc.want || err != nil {
			t.Errorf("backtracking Compile(%q, %q) on %q = %v, %v, want %v", tc.pattern, tc.flags, tc.input, got, err, tc.want)
		}
	}
}

// compileBacktrackingForTest compiles a pattern for regexp2 even without
// back references.
func compileBacktrackingForTest(pattern, flags string) (*Regexp, error) {
	body, groups, _, literal, terr := translate(pattern, flags)
	if terr != nil {
		return nil, terr
	}
	re := &Regexp{pattern: pattern, groups: groups, literal: literal}
	return re, re.compileBacktracking(body, 0)
}

func TestCompileErrors(t *testing.T) {
	cases := []struct {
		pattern, flags string
		msg            string // the whole message
		unsupported    bool
		re2            bool // RE2 rejected the rewritten pattern
	}{
		{"a", "gi", `regular expression "a": unknown flag 'g' in flags "gi"`, false, false},
		{"a", "iX", `regular expression "a": unknown flag 'X' in flags "iX"`, false, false},
		{"a", " ", `regular expression "a": unknown flag ' ' in flags " "`, false, false},
		{`(a)\1`, "", "", false, false},
		{`(a)\1`, "q", "", false, false}, // literal: fine
		{`\1(a)`, "", `regular expression "\\1(a)": back reference \1 refers to no group closed before it`, false, false},
		{`(a\1)`, "", `regular expression "(a\\1)": back reference \1 refers to no group closed before it`, false, false},
		{`(?:a)\1`, "", `regular expression "(?:a)\\1": back reference \1 refers to no group closed before it`, false, false},
		{`(a)[\1]`, "", `regular expression "(a)[\\1]": back reference \1 inside a character class`, false, false},
		{`(a)\1(`, "", `regular expression "(a)\\1(": missing closing )`, false, false},
		{`\p{IsKlingon}`, "", `regular expression "\\p{IsKlingon}": Unicode block IsKlingon is not supported`, true, false},
		{`\p{Greek}`, "", `regular expression "\\p{Greek}": \p{Greek}: unknown Unicode category`, false, false},
		{`\P{Cs}`, "", `regular expression "\\P{Cs}": \P{Cs}: unknown Unicode category`, false, false},
		{`\b`, "", `regular expression "\\b": invalid escape \b`, false, false},
		{`\Qa\E`, "", `regular expression "\\Qa\\E": invalid escape \Q`, false, false},
		{`\0`, "", `regular expression "\\0": invalid escape \0`, false, false},
		{`\`, "", `regular expression "\\": the pattern ends in a lone \`, false, false},
		{`\pL`, "", `regular expression "\\pL": \p must be followed by {name}`, false, false},
		{`\p{L`, "", `regular expression "\\p{L": unterminated \p{`, false, false},
		{`(?i)a`, "", `regular expression "(?i)a": "(?i": the only group extension XPath knows is (?:`, false, false},
		{`(?P<n>a)`, "", `regular expression "(?P<n>a)": "(?P": the only group extension XPath knows is (?:`, false, false},
		{`(?`, "", `regular expression "(?": "(?": the only group extension XPath knows is (?:`, false, false},
		{`[[:alpha:]]`, "", `regular expression "[[:alpha:]]": unescaped [ inside character class "[["`, false, false},
		{`[]`, "", `regular expression "[]": empty character class "[]"`, false, false},
		{`[^]`, "", `regular expression "[^]": empty character class "[^]"`, false, false},
		{`[a`, "", `regular expression "[a": unterminated character class "[a"`, false, false},
		{`[z-a]`, "", `regular expression "[z-a]": range "z-a" is out of order`, false, false},
		{`[a-\d]`, "", `regular expression "[a-\\d]": a range cannot end in a multi-character escape, in "[a-\\d"`, false, false},
		{`[a-z-[aeiou]x]`, "", `regular expression "[a-z-[aeiou]x]": a subtracted class must end its class, in "[a-z-[aeiou]x"`, false, false},
		{`[-[a]]`, "", `regular expression "[-[a]]": character class subtraction without a class to subtract from`, false, false},
		{"(a", "", `regular expression "(a": missing closing ): (a`, false, true},
		{"a**", "", `regular expression "a**": invalid nested repetition operator: **`, false, true},
		{"a{1001}", "", `regular expression "a{1001}": invalid repeat count: {1001}`, false, true},
		{"\xff", "", `regular expression "\xff": the pattern is not valid UTF-8`, false, false},
		{"\xff", "q", `regular expression "\xff": the pattern is not valid UTF-8`, false, false},
		{"a b", "x", "", false, false},
	}
	for _, tc := range cases {
		_, err := Compile(tc.pattern, tc.flags)
		if tc.msg == "" {
			if err != nil {
				t.Errorf("Compile(%q, %q): %v, want no error", tc.pattern, tc.flags, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("Compile(%q, %q): no error, want %s", tc.pattern, tc.flags, tc.msg)
			continue
		}
		if err.Error() != tc.msg {
			t.Errorf("Compile(%q, %q) error:\n got %s\nwant %s", tc.pattern, tc.flags, err, tc.msg)
		}
		var re *Error
		if !errors.As(err, &re) || re.Pattern != tc.pattern {
			t.Errorf("Compile(%q, %q): error %T %v is not a *Error for the pattern", tc.pattern, tc.flags, err, err)
		}
		if got := errors.Is(err, ErrUnsupported); got != tc.unsupported {
			t.Errorf("Compile(%q, %q): errors.Is(err, ErrUnsupported) = %v, want %v", tc.pattern, tc.flags, got, tc.unsupported)
		}
		var se *syntax.Error
		if got := errors.As(err, &se); got != tc.re2 {
			t.Errorf("Compile(%q, %q): wraps *syntax.Error = %v, want %v", tc.pattern, tc.flags, got, tc.re2)
		}
	}
}

func TestSubtractRanges(t *testing.T) {
	cases := []struct{ a, b, want []rune }{
		{[]rune{'a', 'z'}, []rune{'e', 'e'}, []rune{'a', 'd', 'f', 'z'}},
		{[]rune{'a', 'z'}, []rune{'a', 'a', 'z', 'z'}, []rune{'b', 'y'}},
		{[]rune{'a', 'z'}, []rune{'0', '9'}, []rune{'a', 'z'}},
		{[]rune{'a', 'c', 'x', 'z'}, []rune{'b', 'y'}, []rune{'a', 'a', 'z', 'z'}},
		{[]rune{'a', 'c'}, []rune{'0', 'z'}, nil},
		{[]rune{'a', 'c', 'e', 'g'}, []rune{'c', 'e'}, []rune{'a', 'b', 'f', 'g'}},
		{nil, []rune{'a', 'b'}, nil},
		{[]rune{0, 0x10FFFF}, []rune{0, 9, 11, 0x10FFFF}, []rune{10, 10}},
	}
	for _, tc := range cases {
		if got := subtractRanges(tc.a, tc.b); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("subtractRanges(%q, %q) = %q, want %q", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestStripSpace(t *testing.T) {
	cases := []struct{ in, want string }{
		{" a b\t\n\rc ", "abc"},
		{"a [ b ] c", "a[ b ]c"},
		{"[a-z-[ a ]] x", "[a-z-[ a ]]x"},
		{`\[ a ]`, `\[a]`},    // an escaped [ opens no class
		{`[\] ] b`, `[\] ]b`}, // an escaped ] closes none
		{`a\ d`, `a\d`},
		{"] a", "]a"},
	}
	for _, tc := range cases {
		if got := stripSpace(tc.in); got != tc.want {
			t.Errorf("stripSpace(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
