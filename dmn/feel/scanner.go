package feel

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Pos is a byte offset into the source of an expression, plus one; the zero
// Pos (NoPos) means "no position".
type Pos int

// NoPos is the zero Pos.
const NoPos Pos = 0

// Position is a human-readable source position (1-based line and column, in runes).
type Position struct {
	Offset int // byte offset, 0-based
	Line   int
	Column int
}

func (p Position) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Column) }

// PositionOf converts p to line and column within src.
func PositionOf(src string, p Pos) Position {
	off := int(p) - 1
	if off < 0 {
		off = 0
	}
	if off > len(src) {
		off = len(src)
	}
	line, col := 1, 1
	for _, r := range src[:off] {
		if r == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return Position{Offset: off, Line: line, Column: col}
}

// Error is a positioned FEEL syntax error.
type Error struct {
	Pos Position
	Msg string
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// ErrorList is a list of syntax errors, in source order.
type ErrorList []*Error

func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	return fmt.Sprintf("%s (and %d more errors)", l[0].Error(), len(l)-1)
}

type tokKind uint8

const (
	tEOF tokKind = iota
	tIllegal
	tIdent
	tNumber
	tString
	tAt
	tLParen
	tRParen
	tLBrack
	tRBrack
	tLBrace
	tRBrace
	tComma
	tColon
	tDot
	tDotDot
	tPlus
	tMinus
	tStar
	tStarStar
	tSlash
	tEq
	tNeq
	tLt
	tLe
	tGt
	tGe
	tArrow
	tQMark
)

var tokNames = [...]string{
	tEOF: "end of expression", tIllegal: "illegal character", tIdent: "name", tNumber: "number", tString: "string",
	tAt: "@", tLParen: "(", tRParen: ")", tLBrack: "[", tRBrack: "]", tLBrace: "{", tRBrace: "}", tComma: ",",
	tColon: ":", tDot: ".", tDotDot: "..", tPlus: "+", tMinus: "-", tStar: "*", tStarStar: "**", tSlash: "/",
	tEq: "=", tNeq: "!=", tLt: "<", tLe: "<=", tGt: ">", tGe: ">=", tArrow: "->", tQMark: "?",
}

func (k tokKind) String() string { return tokNames[k] }

type token struct {
	kind  tokKind
	start int // byte offset
	end   int
	text  string // identifier text, decoded string literal, number text
	err   string // for tIllegal and bad strings
}

func isNameStart(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || (r >= 0xC0 && r != 0xD7 && r != 0xF7 && r <= 0x2FF) ||
		(r >= 0x370 && r <= 0x37D) || (r >= 0x37F && r <= 0x1FFF && !unicode.IsSpace(r) && !unicode.IsPunct(r)) ||
		(r >= 0x200C && r <= 0x200D) || (r >= 0x2070 && r <= 0x218F) || (r >= 0x2C00 && r <= 0x2FEF) ||
		(r >= 0x3001 && r <= 0xD7FF) || (r >= 0xF900 && r <= 0xFDCF) || (r >= 0xFDF0 && r <= 0xFFFD) || (r >= 0x10000 && r <= 0xEFFFF)
}

func isNamePart(r rune) bool {
	return isNameStart(r) || unicode.IsDigit(r) || r == 0xB7 || (r >= 0x300 && r <= 0x36F) || (r >= 0x203F && r <= 0x2040)
}

var keywords = map[string]bool{
	"and": true, "or": true, "not": false, "true": true, "false": true, "null": true, "if": true, "then": true,
	"else": true, "for": true, "in": true, "return": true, "some": true, "every": true, "satisfies": true,
	"between": true, "instance": true, "of": true, "function": true, "external": true,
}

func isKeyword(s string) bool { return keywords[s] }

// skipSpace skips white space and comments from off.
func skipSpace(src string, off int) int {
	for off < len(src) {
		c := src[off]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			off++
		case c == '/' && off+1 < len(src) && src[off+1] == '/':
			for off < len(src) && src[off] != '\n' {
				off++
			}
		case c == '/' && off+1 < len(src) && src[off+1] == '*':
			end := strings.Index(src[off+2:], "*/")
			if end < 0 {
				return len(src)
			}
			off += end + 4
		case c >= 0x80:
			r, n := utf8.DecodeRuneInString(src[off:])
			if !unicode.IsSpace(r) && r != 0xFEFF && r != 0x200B {
				return off
			}
			off += n
		default:
			return off
		}
	}
	return off
}

// scan returns the token starting at or after off.
func scan(src string, off int) token {
	off = skipSpace(src, off)
	if off >= len(src) {
		return token{kind: tEOF, start: len(src), end: len(src)}
	}
	c := src[off]
	one := func(k tokKind) token { return token{kind: k, start: off, end: off + 1} }
	two := func(k tokKind) token { return token{kind: k, start: off, end: off + 2} }
	next := byte(0)
	if off+1 < len(src) {
		next = src[off+1]
	}
	switch c {
	case '(':
		return one(tLParen)
	case ')':
		return one(tRParen)
	case '[':
		return one(tLBrack)
	case ']':
		return one(tRBrack)
	case '{':
		return one(tLBrace)
	case '}':
		return one(tRBrace)
	case ',':
		return one(tComma)
	case ':':
		return one(tColon)
	case '+':
		return one(tPlus)
	case '-':
		if next == '>' {
			return two(tArrow)
		}
		return one(tMinus)
	case '*':
		if next == '*' {
			return two(tStarStar)
		}
		return one(tStar)
	case '/':
		return one(tSlash)
	case '=':
		return one(tEq)
	case '!':
		if next == '=' {
			return two(tNeq)
		}
		return token{kind: tIllegal, start: off, end: off + 1, err: "unexpected '!'"}
	case '<':
		if next == '=' {
			return two(tLe)
		}
		return one(tLt)
	case '>':
		if next == '=' {
			return two(tGe)
		}
		return one(tGt)
	case '?':
		return one(tQMark)
	case '@':
		return one(tAt)
	case '.':
		if next == '.' {
			return two(tDotDot)
		}
		if next >= '0' && next <= '9' {
			return scanNumber(src, off)
		}
		return one(tDot)
	case '"':
		return scanString(src, off)
	}
	if c >= '0' && c <= '9' {
		return scanNumber(src, off)
	}
	r, n := utf8.DecodeRuneInString(src[off:])
	if isNameStart(r) {
		end := off + n
		for end < len(src) {
			r2, n2 := utf8.DecodeRuneInString(src[end:])
			if !isNamePart(r2) {
				break
			}
			end += n2
		}
		return token{kind: tIdent, start: off, end: end, text: src[off:end]}
	}
	return token{kind: tIllegal, start: off, end: off + n, err: fmt.Sprintf("unexpected character %q", r)}
}

func scanNumber(src string, off int) token {
	i := off
	for i < len(src) && src[i] >= '0' && src[i] <= '9' {
		i++
	}
	if i+1 < len(src) && src[i] == '.' && src[i+1] >= '0' && src[i+1] <= '9' {
		i++
		for i < len(src) && src[i] >= '0' && src[i] <= '9' {
			i++
		}
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		j := i + 1
		if j < len(src) && (src[j] == '+' || src[j] == '-') {
			j++
		}
		if j < len(src) && src[j] >= '0' && src[j] <= '9' {
			for j < len(src) && src[j] >= '0' && src[j] <= '9' {
				j++
			}
			i = j
		}
	}
	return token{kind: tNumber, start: off, end: i, text: src[off:i]}
}

func scanString(src string, off int) token {
	var b strings.Builder
	i := off + 1
	for i < len(src) {
		c := src[i]
		switch {
		case c == '"':
			return token{kind: tString, start: off, end: i + 1, text: b.String()}
		case c == '\\' && i+1 < len(src):
			e := src[i+1]
			switch e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 'f':
				b.WriteByte('\f')
			case 'b':
				b.WriteByte('\b')
			case '"', '\\', '\'':
				b.WriteByte(e)
			case 'u':
				r, n, ok := hexRune(src[i+2:], 4)
				if !ok {
					return token{kind: tIllegal, start: off, end: i + 2, err: "invalid \\u escape"}
				}
				i += n
				// surrogate pair
				if r >= 0xD800 && r < 0xDC00 && strings.HasPrefix(src[i+2:], "\\u") {
					if r2, n2, ok2 := hexRune(src[i+4:], 4); ok2 && r2 >= 0xDC00 && r2 < 0xE000 {
						r = (r-0xD800)<<10 + (r2 - 0xDC00) + 0x10000
						i += 2 + n2
					}
				}
				b.WriteRune(r)
			case 'U':
				r, n, ok := hexRune(src[i+2:], 6)
				if !ok {
					return token{kind: tIllegal, start: off, end: i + 2, err: "invalid \\U escape"}
				}
				i += n
				b.WriteRune(r)
			default:
				// not a FEEL escape: keep the backslash (regular expressions use \d, \s …)
				b.WriteByte('\\')
				b.WriteByte(e)
			}
			i += 2
		default:
			b.WriteByte(c)
			i++
		}
	}
	return token{kind: tIllegal, start: off, end: len(src), err: "string literal not terminated"}
}

func hexRune(s string, n int) (rune, int, bool) {
	if len(s) < n {
		return 0, 0, false
	}
	var r rune
	for i := 0; i < n; i++ {
		c := s[i]
		var v byte
		switch {
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		default:
			return 0, 0, false
		}
		r = r<<4 | rune(v)
	}
	return r, n, true
}
