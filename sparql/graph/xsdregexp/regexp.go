package xsdregexp

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"time"

	"github.com/dlclark/regexp2"
	r2syntax "github.com/dlclark/regexp2/syntax"
)

// DefaultMatchTimeout bounds one match, replace or split of a pattern with
// back references when Options.MatchTimeout is zero.
const DefaultMatchTimeout = time.Second

// Options tune CompileWith.
type Options struct {
	// MatchTimeout bounds the wall time of one MatchString, ReplaceAll or
	// Split of a pattern with back references, which the backtracking
	// engine may take exponential time over. Zero means
	// DefaultMatchTimeout, a negative value no bound. Patterns without
	// back references run on RE2 in linear time and need none.
	MatchTimeout time.Duration
	// MaxBytes bounds the length of a ReplaceAll result, which a short
	// replacement repeated at every match can make far longer than its
	// input. Zero or negative: no bound.
	MaxBytes int64
}

// Regexp is a compiled XPath regular expression; it is safe for
// concurrent use. Patterns without back references run on Go's RE2
// (regexp, linear time); patterns with them on github.com/dlclark/regexp2,
// a backtracking engine, under Options.MatchTimeout.
type Regexp struct {
	pattern  string
	groups   int  // capturing groups, for $N in replacements
	literal  bool // the q flag: replacements are literal too
	maxBytes int64
	re2      *regexp.Regexp
	bt       *regexp2.Regexp // when the pattern has back references
}

// LimitError reports that a match ran past Options.MatchTimeout (Limit
// "MatchTimeout", Max in nanoseconds) or a replacement past
// Options.MaxBytes (Limit "MaxBytes"). Servers map it as every other
// budget error, through its LimitExceeded method.
type LimitError struct {
	Pattern string
	Limit   string
	Max     int64
}

func (e *LimitError) Error() string {
	if e.Limit == "MatchTimeout" {
		return fmt.Sprintf("regular expression %q: match exceeded MatchTimeout (%s)", e.Pattern, time.Duration(e.Max))
	}
	return fmt.Sprintf("regular expression %q: result exceeded %s (%d bytes)", e.Pattern, e.Limit, e.Max)
}

// LimitExceeded returns the name of the bound that was exceeded.
func (e *LimitError) LimitExceeded() string { return e.Limit }

// Compile is CompileWith with the default Options.
func Compile(pattern, flags string) (*Regexp, error) {
	return CompileWith(pattern, flags, Options{})
}

// CompileWith compiles an XPath regular expression with the flags of
// XPath's fn:matches, as FEEL's matches, replace and split, SPARQL's REGEX
// and REPLACE and SHACL's sh:pattern with sh:flags require. The flags are
// s (the dot matches every character; without it neither \n nor \r), m (^
// and $ match at line breaks), i (case-insensitive), x (white space outside
// character classes is removed first) and q (the pattern is a literal
// string; q leaves i in force and switches m, s and x off); each may
// repeat, in any order.
//
// The pattern language is XML Schema's with XPath's additions (^ and $
// anchors, reluctant quantifiers, (?: groups, back references). Where XML
// Schema reads a construct differently from RE2 the pattern is rewritten:
// \d is any Unicode digit, \w any letter, mark, number or symbol, \s only
// space, tab, CR and LF; \i and \c are XML name characters; \p{IsGreek} is
// a Unicode block; [a-z-[aeiou]] subtracts one class from another. A back
// reference \N takes as many digits as keep N within the groups opened
// before it, and its group must have closed. Constructs XPath does not
// know (\b, \Q, (?i), [[:alpha:]]) are errors rather than quietly taking
// their RE2 meaning.
//
// Every error is an *Error naming the flag or the part of the pattern at
// fault.
func CompileWith(pattern, flags string, opts Options) (*Regexp, error) {
	body, groups, backrefs, literal, terr := translate(pattern, flags)
	if terr != nil {
		return nil, terr
	}
	re := &Regexp{pattern: pattern, groups: groups, literal: literal, maxBytes: opts.MaxBytes}
	if !backrefs {
		r, err := regexp.Compile(body)
		if err != nil {
			msg := err.Error()
			var se *syntax.Error
			if errors.As(err, &se) {
				msg = se.Code.String()
				if se.Expr != "" && strings.Contains(pattern, se.Expr) {
					msg += ": " + se.Expr
				}
			}
			return nil, &Error{Pattern: pattern, Msg: msg, Err: err}
		}
		re.re2 = r
		return re, nil
	}
	return re, re.compileBacktracking(body, opts.MatchTimeout)
}

func (re *Regexp) compileBacktracking(body string, timeout time.Duration) error {
	bt, err := regexp2.Compile(body, regexp2.None)
	if err != nil {
		msg := err.Error()
		var pe *r2syntax.Error
		if errors.As(err, &pe) {
			msg = pe.Code.String()
		}
		return &Error{Pattern: re.pattern, Msg: msg, Err: err}
	}
	switch {
	case timeout == 0:
		bt.MatchTimeout = DefaultMatchTimeout
	case timeout > 0:
		bt.MatchTimeout = timeout
	}
	re.bt = bt
	return nil
}

// String returns the pattern as given to Compile.
func (re *Regexp) String() string { return re.pattern }

// MatchString reports whether s contains a match. The error is a
// *LimitError when a pattern with back references ran past its
// MatchTimeout.
func (re *Regexp) MatchString(s string) (bool, error) {
	if re.bt == nil {
		return re.re2.MatchString(s), nil
	}
	ok, err := re.bt.MatchString(s)
	if err != nil {
		return false, re.timeout()
	}
	return ok, nil
}

func (re *Regexp) timeout() error {
	return &LimitError{Pattern: re.pattern, Limit: "MatchTimeout", Max: int64(re.bt.MatchTimeout)}
}

// match is one match: its byte offsets in the input and the text of each
// group (empty for a group that did not take part).
type match struct {
	start, end int
	groups     []string // groups[0] is the whole match
}

// eachMatch calls f for the first n (n < 0: every) non-overlapping match
// of s, left to right, until f returns an error.
func (re *Regexp) eachMatch(s string, n int, f func(m *match) error) error {
	if re.bt == nil {
		for _, loc := range re.re2.FindAllStringSubmatchIndex(s, n) {
			m := &match{start: loc[0], end: loc[1], groups: make([]string, len(loc)/2)}
			for g := range m.groups {
				if loc[2*g] >= 0 {
					m.groups[g] = s[loc[2*g]:loc[2*g+1]]
				}
			}
			if err := f(m); err != nil {
				return err
			}
		}
		return nil
	}
	// regexp2 counts in runes; offsets[i] is the byte offset of rune i.
	offsets := make([]int, 0, len(s)+1)
	for i := range s {
		offsets = append(offsets, i)
	}
	offsets = append(offsets, len(s))
	// each scan has MatchTimeout, and so have all of them together
	var deadline time.Time
	if re.bt.MatchTimeout != regexp2.DefaultMatchTimeout {
		deadline = time.Now().Add(re.bt.MatchTimeout)
	}
	bm, err := re.bt.FindStringMatch(s)
	for ; bm != nil && err == nil && n != 0; bm, err = re.bt.FindNextMatch(bm) {
		n--
		if !deadline.IsZero() && time.Now().After(deadline) {
			return re.timeout()
		}
		m := &match{start: offsets[bm.Index], end: offsets[bm.Index+bm.Length], groups: make([]string, re.groups+1)}
		for g := range m.groups {
			if gr := bm.GroupByNumber(g); gr != nil && len(gr.Captures) > 0 {
				m.groups[g] = gr.String()
			}
		}
		if ferr := f(m); ferr != nil {
			return ferr
		}
	}
	if err != nil {
		return re.timeout()
	}
	return nil
}

// matchesEmpty reports whether the pattern matches the empty string, which
// XPath's replace and tokenize refuse (FORX0003).
func (re *Regexp) matchesEmpty(fn string) error {
	empty, err := re.MatchString("")
	if err != nil {
		return err
	}
	if empty {
		return &Error{Pattern: re.pattern, Msg: "the pattern matches the empty string, which " + fn + " does not allow"}
	}
	return nil
}

// ReplaceAll replaces every match in s as XPath's fn:replace does: in
// replacement, $N stands for group N ($0 the whole match; a group that did
// not take part, or N over the groups but at most 9, is empty; a larger N
// drops its last digits until it names a group, which then stay literal),
// \$ for $ and \\ for \; with the q flag the replacement is literal. A
// pattern that matches the empty string, a $ without a digit and any other
// backslash are *Error values; a result past Options.MaxBytes or a match
// past the MatchTimeout a *LimitError.
func (re *Regexp) ReplaceAll(s, replacement string) (string, error) {
	return re.ReplaceAllWithin(s, replacement, re.maxBytes)
}

// ReplaceAllWithin is ReplaceAll with its own bound on the result's length
// instead of Options.MaxBytes (zero or negative: no bound), for callers
// whose budget differs per evaluation while the compiled pattern is shared.
func (re *Regexp) ReplaceAllWithin(s, replacement string, maxBytes int64) (string, error) {
	if err := re.matchesEmpty("replace"); err != nil {
		return "", err
	}
	parts, err := re.parseReplacement(replacement)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	last := 0
	err = re.eachMatch(s, -1, func(m *match) error {
		b.WriteString(s[last:m.start])
		for _, p := range parts {
			if p.group >= 0 {
				b.WriteString(m.groups[p.group])
			} else {
				b.WriteString(p.text)
			}
		}
		last = m.end
		if maxBytes > 0 && int64(b.Len()) > maxBytes {
			return &LimitError{Pattern: re.pattern, Limit: "MaxBytes", Max: maxBytes}
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	b.WriteString(s[last:])
	if maxBytes > 0 && int64(b.Len()) > maxBytes {
		return "", &LimitError{Pattern: re.pattern, Limit: "MaxBytes", Max: maxBytes}
	}
	return b.String(), nil
}

// replacementPart is literal text or (group >= 0) a group reference.
type replacementPart struct {
	text  string
	group int
}

func (re *Regexp) parseReplacement(r string) ([]replacementPart, error) {
	if re.literal {
		return []replacementPart{{text: r, group: -1}}, nil
	}
	var parts []replacementPart
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			parts = append(parts, replacementPart{text: lit.String(), group: -1})
			lit.Reset()
		}
	}
	bad := func(msg string) error {
		return &Error{Pattern: re.pattern, Msg: fmt.Sprintf("replacement %q: %s", r, msg)}
	}
	for i := 0; i < len(r); i++ {
		switch c := r[i]; c {
		case '\\':
			if i+1 >= len(r) || (r[i+1] != '\\' && r[i+1] != '$') {
				return nil, bad(`\ must be followed by \ or $`)
			}
			lit.WriteByte(r[i+1])
			i++
		case '$':
			j := i + 1
			for j < len(r) && r[j] >= '0' && r[j] <= '9' {
				j++
			}
			if j == i+1 {
				return nil, bad("$ must be followed by a digit")
			}
			digits := r[i+1 : j]
			// drop digits from the end while the number is over the groups
			// and over 9; the dropped digits are literal
			n, k := 0, 0
			for k < len(digits) {
				m := n*10 + int(digits[k]-'0')
				if k > 0 && m > re.groups && m > 9 {
					break
				}
				n = m
				k++
			}
			flush()
			if n <= re.groups {
				parts = append(parts, replacementPart{group: n})
			}
			lit.WriteString(digits[k:])
			i = j - 1
		default:
			lit.WriteByte(c)
		}
	}
	flush()
	return parts, nil
}

// Split splits s around the matches, as FEEL's split and XPath's
// fn:tokenize (with an empty s giving one empty string) do. As with Go's
// regexp.Split, n < 0 returns every part and n > 0 at most n, the last
// being the rest of s unsplit. A pattern that matches the empty string is
// an *Error, a match past the MatchTimeout a *LimitError.
func (re *Regexp) Split(s string, n int) ([]string, error) {
	if err := re.matchesEmpty("split"); err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, nil
	}
	var out []string
	last := 0
	err := re.eachMatch(s, n-1, func(m *match) error {
		out = append(out, s[last:m.start])
		last = m.end
		return nil
	})
	if err != nil {
		return nil, err
	}
	return append(out, s[last:]), nil
}
