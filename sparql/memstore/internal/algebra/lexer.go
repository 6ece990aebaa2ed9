package algebra

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Pos is a position in the query text: 1-based line and column (in runes).
type Pos struct{ Line, Col int }

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Error is a syntax or static-semantics error with its position.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string { return fmt.Sprintf("sparql: %s: %s", e.Pos, e.Msg) }

type tokKind int

const (
	tEOF     tokKind = iota
	tIRI             // <...>, val = IRI text (unresolved)
	tPName           // prefix:local, val = prefix, val2 = local (unescaped)
	tBNode           // _:label, val = label
	tVar             // ?x / $x, val = name
	tString          // val = unescaped text
	tLangTag         // val = tag without '@'
	tInteger
	tDecimal
	tDouble
	tName // bare word: keyword, 'a', true, false
	tPunct
)

type token struct {
	kind tokKind
	val  string
	val2 string
	pos  Pos
	off  int
}

func (t token) String() string {
	switch t.kind {
	case tEOF:
		return "end of input"
	case tIRI:
		return "<" + t.val + ">"
	case tPName:
		return t.val + ":" + t.val2
	case tBNode:
		return "_:" + t.val
	case tVar:
		return "?" + t.val
	case tString:
		return strconv.Quote(t.val)
	case tLangTag:
		return "@" + t.val
	}
	return strconv.Quote(t.val)
}

type lexer struct {
	src  string
	off  int
	line int
	col  int
}

func (lx *lexer) errAt(p Pos, format string, args ...any) *Error {
	return &Error{Pos: p, Msg: fmt.Sprintf(format, args...)}
}

func (lx *lexer) pos() Pos { return Pos{lx.line, lx.col} }

func (lx *lexer) peekRune() (rune, int) {
	if lx.off >= len(lx.src) {
		return -1, 0
	}
	c := lx.src[lx.off]
	if c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(lx.src[lx.off:])
}

func (lx *lexer) advance(n int) {
	for i := 0; i < n; {
		c := lx.src[lx.off+i]
		if c == '\n' {
			lx.line++
			lx.col = 1
			i++
			continue
		}
		_, size := utf8.DecodeRuneInString(lx.src[lx.off+i:])
		i += size
		lx.col++
	}
	lx.off += n
}

func (lx *lexer) skipSpace() {
	for lx.off < len(lx.src) {
		c := lx.src[lx.off]
		switch c {
		case ' ', '\t', '\r', '\n':
			lx.advance(1)
		case '#':
			for lx.off < len(lx.src) && lx.src[lx.off] != '\n' {
				lx.advance(1)
			}
		default:
			return
		}
	}
}

func isPNCharsBase(r rune) bool {
	return (r >= 'A' && r <= 'Z') || (r >= 'a' && r <= 'z') ||
		(r >= 0xC0 && r <= 0xD6) || (r >= 0xD8 && r <= 0xF6) || (r >= 0xF8 && r <= 0x2FF) ||
		(r >= 0x370 && r <= 0x37D) || (r >= 0x37F && r <= 0x1FFF) || (r >= 0x200C && r <= 0x200D) ||
		(r >= 0x2070 && r <= 0x218F) || (r >= 0x2C00 && r <= 0x2FEF) || (r >= 0x3001 && r <= 0xD7FF) ||
		(r >= 0xF900 && r <= 0xFDCF) || (r >= 0xFDF0 && r <= 0xFFFD) || (r >= 0x10000 && r <= 0xEFFFF)
}

func isPNCharsU(r rune) bool { return isPNCharsBase(r) || r == '_' }

func isPNChars(r rune) bool {
	return isPNCharsU(r) || r == '-' || (r >= '0' && r <= '9') || r == 0xB7 ||
		(r >= 0x300 && r <= 0x36F) || (r >= 0x203F && r <= 0x2040)
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// next scans the next token.
func (lx *lexer) next() (token, error) {
	lx.skipSpace()
	p := lx.pos()
	tok := token{pos: p, off: lx.off}
	if lx.off >= len(lx.src) {
		tok.kind = tEOF
		return tok, nil
	}
	r, size := lx.peekRune()
	s := lx.src[lx.off:]
	switch {
	case r == '<':
		return lx.iriOrLess(tok, s), nil
	case r == '?' || r == '$':
		return lx.variable(tok, s)
	case r == '"' || r == '\'':
		val, n, err := scanString(s)
		if err != nil {
			return tok, lx.errAt(p, "%s", err)
		}
		lx.advance(n)
		tok.kind, tok.val = tString, val
		return tok, nil
	case r == '@':
		return lx.langTag(tok, s)
	case isDigit(r) || (r == '.' && len(s) > 1 && isDigit(rune(s[1]))):
		kind, n := scanNumber(s)
		lx.advance(n)
		tok.kind, tok.val = kind, s[:n]
		return tok, nil
	case r == '_' && strings.HasPrefix(s, "_:"):
		n := scanBNodeLabel(s[2:])
		if n == 0 {
			return tok, lx.errAt(p, "blank node label expected after '_:'")
		}
		lx.advance(2 + n)
		tok.kind, tok.val = tBNode, s[2:2+n]
		return tok, nil
	case isPNCharsBase(r) || r == ':':
		return lx.nameOrPName(tok, s, r)
	}
	return lx.punct(tok, s, r, size)
}

// iriOrLess scans an IRI reference, or the operator < or <=.
func (lx *lexer) iriOrLess(tok token, s string) token {
	if iri, n, ok := scanIRIRef(s); ok {
		lx.advance(n)
		tok.kind, tok.val = tIRI, iri
		return tok
	}
	tok.kind, tok.val = tPunct, "<"
	if strings.HasPrefix(s, "<=") {
		tok.val = "<="
	}
	lx.advance(len(tok.val))
	return tok
}

// variable scans ?name or $name, or the punctuation ? (a path modifier).
func (lx *lexer) variable(tok token, s string) (token, error) {
	if n := scanVarName(s[1:]); n > 0 {
		lx.advance(1 + n)
		tok.kind, tok.val = tVar, s[1:1+n]
		return tok, nil
	}
	if s[0] == '$' {
		return tok, lx.errAt(tok.pos, "'$' must start a variable name")
	}
	lx.advance(1)
	tok.kind, tok.val = tPunct, "?"
	return tok, nil
}

// langTag scans @tag(-subtag)*.
func (lx *lexer) langTag(tok token, s string) (token, error) {
	n := 1
	for n < len(s) && (s[n] >= 'a' && s[n] <= 'z' || s[n] >= 'A' && s[n] <= 'Z') {
		n++
	}
	if n == 1 {
		return tok, lx.errAt(tok.pos, "'@' must start a language tag")
	}
	for n < len(s) && s[n] == '-' {
		m := n + 1
		for m < len(s) && (s[m] >= 'a' && s[m] <= 'z' || s[m] >= 'A' && s[m] <= 'Z' || s[m] >= '0' && s[m] <= '9') {
			m++
		}
		if m == n+1 {
			break
		}
		n = m
	}
	lx.advance(n)
	tok.kind, tok.val = tLangTag, s[1:n]
	return tok, nil
}

// nameOrPName scans a prefixed name, or a bare word (a keyword: ASCII
// letters, digits and '_').
func (lx *lexer) nameOrPName(tok token, s string, r rune) (token, error) {
	n := 0
	if r != ':' {
		n = scanPrefix(s)
	}
	if n < len(s) && s[n] == ':' {
		local, m, err := scanLocal(s[n+1:])
		if err != nil {
			return tok, lx.errAt(tok.pos, "%s", err)
		}
		lx.advance(n + 1 + m)
		tok.kind, tok.val, tok.val2 = tPName, s[:n], local
		return tok, nil
	}
	m := 0
	for m < len(s) && (s[m] == '_' || s[m] >= 'a' && s[m] <= 'z' || s[m] >= 'A' && s[m] <= 'Z' || m > 0 && s[m] >= '0' && s[m] <= '9') {
		m++
	}
	if m == 0 {
		return tok, lx.errAt(tok.pos, "unexpected character %q", r)
	}
	lx.advance(m)
	tok.kind, tok.val = tName, s[:m]
	return tok, nil
}

// punct scans an operator or punctuation mark.
func (lx *lexer) punct(tok token, s string, r rune, size int) (token, error) {
	for _, op := range []string{"^^", "&&", "||", "!=", ">="} {
		if strings.HasPrefix(s, op) {
			lx.advance(2)
			tok.kind, tok.val = tPunct, op
			return tok, nil
		}
	}
	if strings.ContainsRune("{}()[].,;*+-/!=<>^|", r) {
		lx.advance(size)
		tok.kind, tok.val = tPunct, string(r)
		return tok, nil
	}
	return tok, lx.errAt(tok.pos, "unexpected character %q", r)
}

func scanIRIRef(s string) (string, int, bool) {
	var b strings.Builder
	i := 1
	for i < len(s) {
		c := s[i]
		switch {
		case c == '>':
			return b.String(), i + 1, true
		case c <= 0x20 || c == '<' || c == '"' || c == '{' || c == '}' || c == '|' || c == '^' || c == '`':
			return "", 0, false
		case c == '\\':
			r, n, ok := scanUCHAR(s[i:])
			if !ok {
				return "", 0, false
			}
			b.WriteRune(r)
			i += n
		default:
			b.WriteByte(c)
			i++
		}
	}
	return "", 0, false
}

func scanUCHAR(s string) (rune, int, bool) {
	if len(s) < 2 {
		return 0, 0, false
	}
	n := 0
	switch s[1] {
	case 'u':
		n = 4
	case 'U':
		n = 8
	default:
		return 0, 0, false
	}
	if len(s) < 2+n {
		return 0, 0, false
	}
	for i := 2; i < 2+n; i++ {
		if !isHex(s[i]) {
			return 0, 0, false
		}
	}
	v, err := strconv.ParseUint(s[2:2+n], 16, 32)
	if err != nil || v > unicode.MaxRune {
		return 0, 0, false
	}
	return rune(v), 2 + n, true
}

func scanVarName(s string) int {
	n := 0
	for n < len(s) {
		r, size := utf8.DecodeRuneInString(s[n:])
		ok := isPNCharsU(r) || isDigit(r)
		if n > 0 {
			ok = ok || r == 0xB7 || (r >= 0x300 && r <= 0x36F) || (r >= 0x203F && r <= 0x2040)
		}
		if !ok {
			break
		}
		n += size
	}
	return n
}

func scanString(s string) (string, int, error) {
	q := s[0]
	long := len(s) >= 3 && s[1] == q && s[2] == q
	i := 1
	if long {
		i = 3
	}
	var b strings.Builder
	for {
		if i >= len(s) {
			return "", 0, fmt.Errorf("unterminated string")
		}
		c := s[i]
		if long {
			if c == q && i+2 < len(s) && s[i+1] == q && s[i+2] == q {
				// Up to two further quotes belong to the string.
				j := i + 3
				for j < len(s) && s[j] == q && j-i < 5 {
					j++
				}
				b.WriteString(s[i : j-3])
				return b.String(), j, nil
			}
		} else {
			if c == q {
				return b.String(), i + 1, nil
			}
			if c == '\n' || c == '\r' {
				return "", 0, fmt.Errorf("newline in string")
			}
		}
		if c == '\\' {
			if i+1 >= len(s) {
				return "", 0, fmt.Errorf("unterminated string")
			}
			switch s[i+1] {
			case 't':
				b.WriteByte('\t')
			case 'b':
				b.WriteByte('\b')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 'f':
				b.WriteByte('\f')
			case '"':
				b.WriteByte('"')
			case '\'':
				b.WriteByte('\'')
			case '\\':
				b.WriteByte('\\')
			case 'u', 'U':
				r, n, ok := scanUCHAR(s[i:])
				if !ok {
					return "", 0, fmt.Errorf("bad \\u escape in string")
				}
				b.WriteRune(r)
				i += n
				continue
			default:
				return "", 0, fmt.Errorf("unknown escape \\%c in string", s[i+1])
			}
			i += 2
			continue
		}
		b.WriteByte(c)
		i++
	}
}

func scanNumber(s string) (tokKind, int) {
	n := 0
	for n < len(s) && isDigit(rune(s[n])) {
		n++
	}
	kind := tInteger
	if n < len(s) && s[n] == '.' {
		m := n + 1
		for m < len(s) && isDigit(rune(s[m])) {
			m++
		}
		if m > n+1 {
			kind, n = tDecimal, m
		} else if m < len(s) && (s[m] == 'e' || s[m] == 'E') && expLen(s[m:]) > 0 {
			return tDouble, m + expLen(s[m:])
		}
	}
	if n < len(s) && (s[n] == 'e' || s[n] == 'E') {
		if e := expLen(s[n:]); e > 0 {
			return tDouble, n + e
		}
	}
	return kind, n
}

func expLen(s string) int {
	n := 1
	if n < len(s) && (s[n] == '+' || s[n] == '-') {
		n++
	}
	d := n
	for n < len(s) && isDigit(rune(s[n])) {
		n++
	}
	if n == d {
		return 0
	}
	return n
}

func scanBNodeLabel(s string) int {
	return scanDotted(s, func(r rune) bool { return isPNCharsU(r) || isDigit(r) })
}

func scanPrefix(s string) int { return scanDotted(s, isPNCharsBase) }

// scanDotted scans a name whose first rune satisfies first and whose
// other runes are PN_CHARS or '.', not ending in '.'; it returns its length.
func scanDotted(s string, first func(rune) bool) int {
	n, last := 0, 0
	for n < len(s) {
		r, size := utf8.DecodeRuneInString(s[n:])
		if n == 0 {
			if !first(r) {
				return 0
			}
		} else if !isPNChars(r) && r != '.' {
			break
		}
		n += size
		if r != '.' {
			last = n
		}
	}
	return last
}

// scanLocal scans PN_LOCAL and returns its unescaped value and length.
func scanLocal(s string) (string, int, error) {
	var b strings.Builder
	n, last := 0, 0
	lastLen := 0
	for n < len(s) {
		r, size := utf8.DecodeRuneInString(s[n:])
		switch {
		case r == '%':
			if n+2 >= len(s) || !isHex(s[n+1]) || !isHex(s[n+2]) {
				return "", 0, fmt.Errorf("bad percent escape in prefixed name")
			}
			b.WriteString(s[n : n+3])
			n += 3
			last, lastLen = n, b.Len()
			continue
		case r == '\\':
			if n+1 < len(s) && strings.IndexByte("_~.-!$&'()*+,;=/?#@%", s[n+1]) >= 0 {
				b.WriteByte(s[n+1])
				n += 2
				last, lastLen = n, b.Len()
				continue
			}
			return "", 0, fmt.Errorf("bad escape in prefixed name")
		case n == 0 && (isPNCharsU(r) || r == ':' || isDigit(r)):
		case n > 0 && (isPNChars(r) || r == ':' || r == '.'):
		default:
			return b.String()[:lastLen], last, nil
		}
		b.WriteRune(r)
		n += size
		if r != '.' {
			last, lastLen = n, b.Len()
		}
	}
	return b.String()[:lastLen], last, nil
}
