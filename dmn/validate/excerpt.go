package validate

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Bounds on what a report quotes. A message names the input it is about,
// but a model can be megabytes and one expression can cause thousands of
// findings: quoting the whole input in each made the report grow with the
// product of the two (a 31 KB expression gave 125 MB of JSON). With these
// bounds the report grows with the number of findings only, and that
// number is capped per code too.
const (
	// MaxExcerpt is how many characters of an expression, attribute value
	// or id a message quotes; the rest is replaced by "…" and its length.
	MaxExcerpt = 200
	// MaxListed is how many names one input expression contributes as
	// INT-007 issues; one more issue counts the rest.
	MaxListed = 20
	// MaxIssuesPerCode is how many issues of one code a report lists; one
	// more issue of that code counts the rest, which Summary still counts.
	MaxIssuesPerCode = 1000

	maxIDExcerpt    = 100  // ids in locations and element descriptions
	maxMessageBytes = 2048 // any message, whatever its parts
)

// clipRunes returns the first n runes of s and the number of runes left out.
func clipRunes(s string, n int) (head string, rest int) {
	if len(s) <= n { // n runes take at least n bytes
		return s, 0
	}
	i, count := 0, 0
	for i < len(s) && count < n {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		count++
	}
	if i == len(s) {
		return s, 0
	}
	return s[:i], utf8.RuneCountInString(s[i:])
}

// quoted renders s as %q does, shortened to max characters: a longer text
// ends in "…" inside the quotes and the number of characters left out
// follows, e.g. "a + b + …" (30512 more characters).
func quoted(s string, max int) string {
	head, rest := clipRunes(s, max)
	if rest == 0 {
		return strconv.Quote(s)
	}
	return strconv.Quote(head+"…") + " (" + strconv.Itoa(rest) + " more characters)"
}

// excerpt quotes an input text (an expression, an attribute value) for a
// message: at most MaxExcerpt characters.
func excerpt(s string) string { return quoted(s, MaxExcerpt) }

// clipText shortens a text that is not quoted (a parser's message, which
// may itself quote input) to max characters, ending it in "…" and the
// number of characters left out.
func clipText(s string, max int) string {
	head, rest := clipRunes(s, max)
	if rest == 0 {
		return s
	}
	return head + "… (" + strconv.Itoa(rest) + " more characters)"
}

// clipBytes cuts s to at most max bytes on a rune boundary, ending it in
// "…": the last guard on a message, whatever went into it.
func clipBytes(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// listNames joins at most max names, each quoted, and says how many more
// there are: "a", "b", … and 12 more.
func listNames(names []string, max int) string {
	var b strings.Builder
	for i, n := range names {
		if i == max {
			fmt.Fprintf(&b, ", … and %d more", len(names)-max)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(quoted(n, maxIDExcerpt))
	}
	return b.String()
}
