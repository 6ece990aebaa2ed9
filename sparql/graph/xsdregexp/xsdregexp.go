package xsdregexp

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"
)

// translate reads flags and pattern and returns the pattern rewritten for
// RE2 (or, when it has back references, for regexp2), the number of
// capturing groups, whether it has back references and whether q made it a
// literal.
func translate(pattern, flags string) (body string, groups int, backrefs, literal bool, err *Error) {
	var dotAll, multiLine, foldCase, spaces bool
	for _, f := range flags {
		switch f {
		case 's':
			dotAll = true
		case 'm':
			multiLine = true
		case 'i':
			foldCase = true
		case 'x':
			spaces = true
		case 'q':
			literal = true
		default:
			return "", 0, false, false, &Error{Pattern: pattern, Msg: fmt.Sprintf("unknown flag %q in flags %q", f, flags)}
		}
	}
	if !utf8.ValidString(pattern) {
		return "", 0, false, false, &Error{Pattern: pattern, Msg: "the pattern is not valid UTF-8"}
	}
	if literal {
		dotAll, multiLine = false, false
		body = regexp.QuoteMeta(pattern)
	} else {
		src := pattern
		if spaces {
			src = stripSpace(src)
		}
		t := &translator{src: []rune(src), dotAll: dotAll, multiLine: multiLine}
		if err := t.translate(); err != nil {
			err.Pattern = pattern
			return "", 0, false, false, err
		}
		body, groups, backrefs = t.out.String(), len(t.closed), t.backrefs
	}
	prefix := ""
	if foldCase {
		prefix += "i"
	}
	if multiLine {
		prefix += "m"
	}
	if dotAll {
		prefix += "s"
	}
	if prefix != "" {
		body = "(?" + prefix + ")" + body
	}
	return body, groups, backrefs, literal, nil
}

// Error is the error Compile returns: an unknown flag, a pattern XPath
// rejects, or one that uses a feature this package cannot express; and the
// error ReplaceAll and Split return for a pattern that matches the empty
// string or an invalid replacement. Msg names the flag or the part of the
// pattern at fault.
type Error struct {
	Pattern string // as given to Compile
	Msg     string
	// Err is ErrUnsupported for valid XPath that cannot run (a Unicode
	// block this package does not know), RE2's *syntax.Error when RE2
	// rejected the rewritten pattern, regexp2's error when regexp2 rejected
	// a pattern with back references, else nil.
	Err error
}

func (e *Error) Error() string {
	if errors.Is(e.Err, ErrUnsupported) {
		return fmt.Sprintf("regular expression %q: %s is not supported", e.Pattern, e.Msg)
	}
	return fmt.Sprintf("regular expression %q: %s", e.Pattern, e.Msg)
}

func (e *Error) Unwrap() error { return e.Err }

// ErrUnsupported is wrapped by an *Error for a valid XPath pattern that
// cannot run: a Unicode block this package does not know. It is this package's own sentinel, not graph.ErrUnsupported: the
// package imports nothing outside the standard library.
var ErrUnsupported = errors.New("xsdregexp: unsupported")

// isSpace reports the characters the x flag removes.
func isSpace(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' }

// stripSpace removes white space outside character classes, as the x
// flag asks before the pattern is read: a backslash followed by white
// space escapes the next character that is kept.
func stripSpace(p string) string {
	var b strings.Builder
	depth := 0 // of nested classes, for subtraction
	escaped := false
	for _, r := range p {
		if depth == 0 && isSpace(r) {
			continue
		}
		switch {
		case escaped:
			escaped = false
		case r == '\\':
			escaped = true
		case r == '[':
			depth++
		case r == ']' && depth > 0:
			depth--
		}
		b.WriteRune(r)
	}
	return b.String()
}

// xsdBlocks maps XML Schema Unicode block names to RE2 class ranges.
var xsdBlocks = map[string]string{
	"IsBasicLatin":                  `\x{0}-\x{7F}`,
	"IsLatin-1Supplement":           `\x{80}-\x{FF}`,
	"IsLatinExtended-A":             `\x{100}-\x{17F}`,
	"IsLatinExtended-B":             `\x{180}-\x{24F}`,
	"IsIPAExtensions":               `\x{250}-\x{2AF}`,
	"IsSpacingModifierLetters":      `\x{2B0}-\x{2FF}`,
	"IsCombiningDiacriticalMarks":   `\x{300}-\x{36F}`,
	"IsGreek":                       `\x{370}-\x{3FF}`,
	"IsCyrillic":                    `\x{400}-\x{4FF}`,
	"IsArmenian":                    `\x{530}-\x{58F}`,
	"IsHebrew":                      `\x{590}-\x{5FF}`,
	"IsArabic":                      `\x{600}-\x{6FF}`,
	"IsDevanagari":                  `\x{900}-\x{97F}`,
	"IsThai":                        `\x{E00}-\x{E7F}`,
	"IsLatinExtendedAdditional":     `\x{1E00}-\x{1EFF}`,
	"IsGreekExtended":               `\x{1F00}-\x{1FFF}`,
	"IsGeneralPunctuation":          `\x{2000}-\x{206F}`,
	"IsCurrencySymbols":             `\x{20A0}-\x{20CF}`,
	"IsLetterlikeSymbols":           `\x{2100}-\x{214F}`,
	"IsNumberForms":                 `\x{2150}-\x{218F}`,
	"IsArrows":                      `\x{2190}-\x{21FF}`,
	"IsMathematicalOperators":       `\x{2200}-\x{22FF}`,
	"IsBoxDrawing":                  `\x{2500}-\x{257F}`,
	"IsDingbats":                    `\x{2700}-\x{27BF}`,
	"IsHiragana":                    `\x{3040}-\x{309F}`,
	"IsKatakana":                    `\x{30A0}-\x{30FF}`,
	"IsCJKUnifiedIdeographs":        `\x{4E00}-\x{9FFF}`,
	"IsHangulSyllables":             `\x{AC00}-\x{D7AF}`,
	"IsAlphabeticPresentationForms": `\x{FB00}-\x{FB4F}`,
	"IsHalfwidthandFullwidthForms":  `\x{FF00}-\x{FFEF}`,
}

// xsdCategories are the Unicode general categories XML Schema names in
// \p{...}; RE2 knows them all with the same meaning.
var xsdCategories = map[string]bool{
	"L": true, "Lu": true, "Ll": true, "Lt": true, "Lm": true, "Lo": true,
	"M": true, "Mn": true, "Mc": true, "Me": true,
	"N": true, "Nd": true, "Nl": true, "No": true,
	"P": true, "Pc": true, "Pd": true, "Ps": true, "Pe": true, "Pi": true, "Pf": true, "Po": true,
	"Z": true, "Zs": true, "Zl": true, "Zp": true,
	"S": true, "Sm": true, "Sc": true, "Sk": true, "So": true,
	"C": true, "Cc": true, "Cf": true, "Co": true, "Cn": true,
}

// classEscape is a multi-character escape as the body of an RE2 character
// class; negated means the escape stands for the complement of that class.
type classEscape struct {
	body    string
	negated bool
}

// multiCharEscapes gives XML Schema's meaning of \s \d \w \i \c and their
// upper-case complements, which differ from RE2's ASCII ones.
var multiCharEscapes = map[rune]classEscape{
	's': {`\t\n\r `, false}, 'S': {`\t\n\r `, true},
	'd': {`\p{Nd}`, false}, 'D': {`\p{Nd}`, true},
	// everything but punctuation, separators and "other" characters
	'w': {`\p{L}\p{M}\p{N}\p{S}`, false}, 'W': {`\p{L}\p{M}\p{N}\p{S}`, true},
	// XML name start characters and name characters
	'i': {`\p{L}_:`, false}, 'I': {`\p{L}_:`, true},
	'c': {`\p{L}\p{M}\p{N}._:\x{B7}\-`, false}, 'C': {`\p{L}\p{M}\p{N}._:\x{B7}\-`, true},
}

// singleCharEscapes are the escaped characters XPath allows, with the
// character each stands for.
var singleCharEscapes = map[rune]rune{
	'n': '\n', 'r': '\r', 't': '\t',
	'\\': '\\', '|': '|', '.': '.', '?': '?', '*': '*', '+': '+', '(': '(', ')': ')',
	'{': '{', '}': '}', '-': '-', '[': '[', ']': ']', '^': '^', '$': '$',
}

// translator rewrites an XPath pattern (after x-flag stripping) into
// RE2 syntax in one left-to-right pass.
type translator struct {
	src       []rune
	i         int
	dotAll    bool
	multiLine bool
	out       strings.Builder
	open      []int  // capturing groups opened and not yet closed, by number
	closed    []bool // closed[n-1]: group n has closed
	backrefs  bool   // the pattern has a back reference
}

// invalidPattern is an error for a pattern XPath rejects; the caller fills
// in the pattern.
func invalidPattern(format string, args ...any) *Error {
	return &Error{Msg: fmt.Sprintf(format, args...)}
}

// unsupportedPattern is an error for valid XPath that RE2 cannot run.
func unsupportedPattern(format string, args ...any) *Error {
	return &Error{Msg: fmt.Sprintf(format, args...), Err: ErrUnsupported}
}

func (t *translator) translate() *Error {
	for t.i < len(t.src) {
		switch r := t.src[t.i]; r {
		case '\\':
			if t.i+1 < len(t.src) && t.src[t.i+1] >= '1' && t.src[t.i+1] <= '9' {
				if err := t.backref(); err != nil {
					return err
				}
				continue
			}
			single, esc, err := t.escape()
			if err != nil {
				return err
			}
			switch {
			case esc == nil:
				t.out.WriteString(quoteClassRune(single))
			case esc.negated:
				t.out.WriteString("[^" + esc.body + "]")
			default:
				t.out.WriteString("[" + esc.body + "]")
			}
		case '[':
			cls, err := t.class()
			if err != nil {
				return err
			}
			t.out.WriteString(cls)
		case '.':
			if t.dotAll {
				t.out.WriteByte('.')
			} else {
				t.out.WriteString(`[^\n\r]`)
			}
			t.i++
		case '(':
			if t.i+1 < len(t.src) && t.src[t.i+1] == '?' {
				if t.i+2 >= len(t.src) || t.src[t.i+2] != ':' {
					return invalidPattern("%q: the only group extension XPath knows is (?:", string(t.src[t.i:min(t.i+3, len(t.src))]))
				}
				t.out.WriteString("(?:")
				t.i += 3
				t.open = append(t.open, 0)
				continue
			}
			t.closed = append(t.closed, false)
			t.open = append(t.open, len(t.closed))
			t.out.WriteByte('(')
			t.i++
		case ')':
			if n := len(t.open); n > 0 {
				if g := t.open[n-1]; g > 0 {
					t.closed[g-1] = true
				}
				t.open = t.open[:n-1]
			}
			t.out.WriteByte(')')
			t.i++
		case '$':
			// XPath's $ without m is the very end; RE2's $ is too, but
			// regexp2's also matches before a final newline. \z means the
			// end to both.
			if t.multiLine {
				t.out.WriteByte('$')
			} else {
				t.out.WriteString(`\z`)
			}
			t.i++
		default:
			t.out.WriteRune(r)
			t.i++
		}
	}
	return nil
}

// backref reads the back reference at t.i (a backslash and a digit 1-9):
// as XPath reads it, the number takes as many digits as keep it within the
// capturing groups opened so far, and its group must have closed.
func (t *translator) backref() *Error {
	j := t.i + 1
	n := int(t.src[j] - '0')
	j++
	for j < len(t.src) && t.src[j] >= '0' && t.src[j] <= '9' {
		m := n*10 + int(t.src[j]-'0')
		if m > len(t.closed) {
			break
		}
		n = m
		j++
	}
	if n > len(t.closed) || !t.closed[n-1] {
		return invalidPattern(`back reference \%d refers to no group closed before it`, n)
	}
	t.backrefs = true
	fmt.Fprintf(&t.out, `\k<%d>`, n)
	t.i = j
	return nil
}

// escape reads the escape at t.i: either a single character (esc nil) or
// a multi-character escape, category or block.
func (t *translator) escape() (single rune, esc *classEscape, err *Error) {
	if t.i+1 >= len(t.src) {
		return 0, nil, invalidPattern(`the pattern ends in a lone \`)
	}
	c := t.src[t.i+1]
	if r, ok := singleCharEscapes[c]; ok {
		t.i += 2
		return r, nil, nil
	}
	if e, ok := multiCharEscapes[c]; ok {
		t.i += 2
		return 0, &e, nil
	}
	switch {
	case c >= '1' && c <= '9':
		return 0, nil, invalidPattern(`back reference \%c inside a character class`, c)
	case c == 'p' || c == 'P':
		if t.i+2 >= len(t.src) || t.src[t.i+2] != '{' {
			return 0, nil, invalidPattern(`\%c must be followed by {name}`, c)
		}
		end := t.i + 3
		for end < len(t.src) && t.src[end] != '}' {
			end++
		}
		if end >= len(t.src) {
			return 0, nil, invalidPattern(`unterminated \%c{`, c)
		}
		name := string(t.src[t.i+3 : end])
		var e classEscape
		switch {
		case strings.HasPrefix(name, "Is"):
			rng, ok := xsdBlocks[name]
			if !ok {
				return 0, nil, unsupportedPattern("Unicode block %s", name)
			}
			e = classEscape{rng, c == 'P'}
		case xsdCategories[name]:
			e = classEscape{`\p{` + name + `}`, c == 'P'}
		default:
			return 0, nil, invalidPattern(`\%c{%s}: unknown Unicode category`, c, name)
		}
		t.i = end + 1
		return 0, &e, nil
	}
	return 0, nil, invalidPattern(`invalid escape \%c`, c)
}

// class reads the character class expression at t.i (XML Schema's
// charClassExpr, with subtraction) and returns it as one RE2 class.
func (t *translator) class() (string, *Error) {
	start := t.i
	t.i++ // [
	neg := false
	if t.i < len(t.src) && t.src[t.i] == '^' {
		neg = true
		t.i++
	}
	var body strings.Builder
	empty := true
	for {
		if t.i >= len(t.src) {
			return "", invalidPattern("unterminated character class %q", string(t.src[start:]))
		}
		r := t.src[t.i]
		if r == ']' {
			if empty {
				return "", invalidPattern("empty character class %q", string(t.src[start:t.i+1]))
			}
			t.i++
			return classText(neg, body.String()), nil
		}
		if r == '-' && t.i+1 < len(t.src) && t.src[t.i+1] == '[' {
			if empty {
				return "", invalidPattern("character class subtraction without a class to subtract from")
			}
			t.i++
			sub, err := t.class()
			if err != nil {
				return "", err
			}
			if t.i >= len(t.src) || t.src[t.i] != ']' {
				return "", invalidPattern("a subtracted class must end its class, in %q", string(t.src[start:min(t.i+1, len(t.src))]))
			}
			t.i++
			base, err := runeRanges(classText(neg, body.String()))
			if err != nil {
				return "", err
			}
			minus, err := runeRanges(sub)
			if err != nil {
				return "", err
			}
			return classText(false, rangesBody(subtractRanges(base, minus))), nil
		}
		if r == '[' {
			return "", invalidPattern("unescaped [ inside character class %q", string(t.src[start:t.i+1]))
		}
		empty = false
		itemStart := t.i
		lo := r
		if r == '\\' {
			single, esc, err := t.escape()
			if err != nil {
				return "", err
			}
			if esc != nil {
				frag, err := escapeInClass(esc)
				if err != nil {
					return "", err
				}
				body.WriteString(frag)
				continue
			}
			lo = single
		} else {
			t.i++
		}
		// a range lo-hi; a hyphen before ] or -[ is a plain character
		if t.i+1 < len(t.src) && t.src[t.i] == '-' && t.src[t.i+1] != ']' && t.src[t.i+1] != '[' {
			t.i++
			hi := t.src[t.i]
			if hi == '\\' {
				single, esc, err := t.escape()
				if err != nil {
					return "", err
				}
				if esc != nil {
					return "", invalidPattern("a range cannot end in a multi-character escape, in %q", string(t.src[start:t.i]))
				}
				hi = single
			} else {
				t.i++
			}
			if hi < lo {
				return "", invalidPattern("range %q is out of order", string(t.src[itemStart:t.i]))
			}
			body.WriteString(quoteClassRune(lo) + "-" + quoteClassRune(hi))
			continue
		}
		body.WriteString(quoteClassRune(lo))
	}
}

// escapeInClass returns a multi-character escape as part of a class body;
// RE2 cannot negate part of a class, so a negated one is spelled out.
func escapeInClass(e *classEscape) (string, *Error) {
	if !e.negated {
		return e.body, nil
	}
	rs, err := runeRanges("[^" + e.body + "]")
	if err != nil {
		return "", err
	}
	return rangesBody(rs), nil
}

// classText wraps a class body; an empty body matches nothing (or, negated,
// everything).
func classText(neg bool, body string) string {
	switch {
	case body == "" && neg:
		return `[\x{0}-\x{10FFFF}]`
	case body == "":
		return `[^\x{0}-\x{10FFFF}]`
	case neg:
		return "[^" + body + "]"
	}
	return "[" + body + "]"
}

// quoteClassRune spells one character so that RE2 reads it literally both
// inside and outside a class.
func quoteClassRune(r rune) string {
	if r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
		return string(r)
	}
	return fmt.Sprintf(`\x{%X}`, r)
}

// runeRanges returns the sorted, disjoint [lo, hi] pairs of an RE2 class.
func runeRanges(class string) ([]rune, *Error) {
	re, err := syntax.Parse(class, syntax.Perl)
	if err != nil {
		return nil, &Error{Msg: "invalid character class: " + err.Error(), Err: err}
	}
	switch re.Op {
	case syntax.OpCharClass:
		return re.Rune, nil
	case syntax.OpLiteral:
		if len(re.Rune) == 1 {
			return []rune{re.Rune[0], re.Rune[0]}, nil
		}
	case syntax.OpAnyChar:
		return []rune{0, unicode.MaxRune}, nil
	}
	return nil, &Error{Msg: fmt.Sprintf("internal error: %q is not a class", class)}
}

// subtractRanges returns a minus b, both sorted disjoint pairs.
func subtractRanges(a, b []rune) []rune {
	var out []rune
	j := 0
	for i := 0; i < len(a); i += 2 {
		lo, hi := a[i], a[i+1]
		for j < len(b) && b[j+1] < lo {
			j += 2
		}
		for k := j; k < len(b) && b[k] <= hi; k += 2 {
			if b[k] > lo {
				out = append(out, lo, b[k]-1)
			}
			lo = b[k+1] + 1
		}
		if lo <= hi {
			out = append(out, lo, hi)
		}
	}
	return out
}

// rangesBody spells sorted pairs as an RE2 class body.
func rangesBody(rs []rune) string {
	var b strings.Builder
	for i := 0; i < len(rs); i += 2 {
		b.WriteString(quoteClassRune(rs[i]))
		if rs[i+1] != rs[i] {
			b.WriteByte('-')
			b.WriteString(quoteClassRune(rs[i+1]))
		}
	}
	return b.String()
}
