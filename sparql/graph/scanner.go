package graph

import (
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"
)

// tokKind is the kind of a Turtle-family token.
type tokKind uint8

const (
	tEOF     tokKind = iota
	tEOL             // end of line (N-Triples and N-Quads only)
	tIRI             // <...>; val is the IRI with UCHARs decoded, unresolved
	tPName           // prefix:local; val is the raw text, colon at s.colon
	tBlank           // _:label; val is the label
	tString          // val is the decoded string; s.strForm says how it was quoted
	tLang            // @tag; val is the tag without '@'
	tInteger         // val is the lexical form
	tDecimal         //
	tDouble          //
	tWord            // a bare word: a, true, false, PREFIX, BASE, GRAPH
	tDot
	tSemicolon
	tComma
	tLBracket
	tRBracket
	tLParen
	tRParen
	tLBrace
	tRBrace
	tCaretCaret
)

// String forms, for syntaxes that allow only some (N-Triples: double quotes).
const (
	strDouble = iota
	strSingle
	strLong
)

const maxLineKeep = 1 << 16

// scanner splits a Turtle, TriG, N-Triples or N-Quads byte stream into
// tokens. It reads through a buffer that holds at least the current token
// (and, while it is short, the current line, for error columns), so a
// document is never held in memory as a whole.
type scanner struct {
	r        io.Reader
	buf      []byte
	pos      int
	eof      bool
	readErr  error
	lineMode bool // N-Triples/N-Quads: line ends are tokens

	// position of pos: line, index of the line's first byte in buf, and the
	// number of characters of the line already dropped from buf.
	line, lineStart, colBase int

	// current token
	tok                             tokKind
	val                             []byte
	colon                           int  // tPName: index of ':' in val
	localEsc                        bool // tPName: local part has '\' escapes
	strForm                         int
	tokStart, tokLine, tokLineStart int
	tokColBase                      int
	mark                            int // start of the pending raw run in buf
	scratch                         []byte
}

// bail is the panic value the parsers use to unwind on the first error;
// Parse recovers it and returns the error.
type bail struct{ err error }

// recoverBail, deferred, turns a bail panic into *err; other panics go on.
func recoverBail(err *error) {
	if e := recover(); e != nil {
		b, ok := e.(bail)
		if !ok {
			panic(e)
		}
		*err = b.err
	}
}

func newScanner(r io.Reader, lineMode bool) *scanner {
	return &scanner{r: r, buf: make([]byte, 0, 64<<10), line: 1, lineMode: lineMode}
}

// fill reads more input, keeping the current token (and the current line
// when it is short) in the buffer. It reports whether bytes were added.
func (s *scanner) fill() bool {
	if s.eof {
		return false
	}
	keep := s.tokLineStart
	if s.tokStart-keep > maxLineKeep {
		s.tokColBase += utf8.RuneCount(s.buf[keep:s.tokStart])
		if s.lineStart == s.tokLineStart {
			s.colBase, s.lineStart = s.tokColBase, s.tokStart
		}
		s.tokLineStart = s.tokStart
		keep = s.tokStart
	}
	if s.mark < keep {
		keep = s.mark
	}
	if keep > 0 {
		n := copy(s.buf, s.buf[keep:])
		s.buf = s.buf[:n]
		s.pos -= keep
		s.tokStart -= keep
		s.tokLineStart -= keep
		s.lineStart -= keep
		s.mark -= keep
	}
	if len(s.buf) == cap(s.buf) {
		nb := make([]byte, len(s.buf), 2*cap(s.buf))
		copy(nb, s.buf)
		s.buf = nb
	}
	for range 100 {
		n, err := s.r.Read(s.buf[len(s.buf):cap(s.buf)])
		s.buf = s.buf[:len(s.buf)+n]
		if err != nil {
			s.eof = true
			if err != io.EOF {
				s.readErr = err
			}
			return n > 0
		}
		if n > 0 {
			return true
		}
	}
	s.eof = true
	s.readErr = io.ErrNoProgress
	return false
}

// more makes sure buf[pos] exists; false at the end of input.
func (s *scanner) more() bool {
	for s.pos >= len(s.buf) {
		if !s.fill() {
			if s.readErr != nil {
				panic(bail{s.readErr})
			}
			return false
		}
	}
	return true
}

// ensure makes n bytes from pos available if the input has them.
func (s *scanner) ensure(n int) {
	for len(s.buf)-s.pos < n && s.fill() {
	}
	if s.readErr != nil {
		panic(bail{s.readErr})
	}
}

// peekAt returns buf[pos+i], or 0 past the end of input.
func (s *scanner) peekAt(i int) byte {
	if s.pos+i >= len(s.buf) {
		s.ensure(i + 1)
		if s.pos+i >= len(s.buf) {
			return 0
		}
	}
	return s.buf[s.pos+i]
}

// decodeRune decodes the character at pos without consuming it.
func (s *scanner) decodeRune() (rune, int) {
	c := s.buf[s.pos]
	if c < utf8.RuneSelf {
		return rune(c), 1
	}
	s.ensure(utf8.UTFMax)
	r, w := utf8.DecodeRune(s.buf[s.pos:])
	if r == utf8.RuneError && w <= 1 {
		s.errorAtPos("invalid UTF-8 encoding")
	}
	return r, w
}

func (s *scanner) newline() {
	s.line++
	s.lineStart = s.pos
	s.colBase = 0
}

func (s *scanner) column(lineStart, colBase, at int) int {
	if at < lineStart || at > len(s.buf) {
		return colBase + 1
	}
	return colBase + utf8.RuneCount(s.buf[lineStart:at]) + 1
}

// errorAtPos fails at the current scanning position.
func (s *scanner) errorAtPos(format string, args ...any) {
	panic(bail{&ParseError{Line: s.line, Column: s.column(s.lineStart, s.colBase, s.pos), Msg: fmt.Sprintf(format, args...)}})
}

// errorAtToken fails at the start of the current token.
func (s *scanner) errorAtToken(format string, args ...any) {
	panic(bail{&ParseError{Line: s.tokLine, Column: s.column(s.tokLineStart, s.tokColBase, s.tokStart), Msg: fmt.Sprintf(format, args...)}})
}

// skipSpace skips white space and comments. In line mode it stops at a
// line end.
func (s *scanner) skipSpace() {
	for s.more() {
		switch s.buf[s.pos] {
		case ' ', '\t':
			s.pos++
		case '\n':
			if s.lineMode {
				return
			}
			s.pos++
			s.newline()
		case '\r':
			if s.lineMode {
				return
			}
			s.pos++
		case '#':
			s.skipComment()
		default:
			return
		}
	}
}

func (s *scanner) skipComment() {
	for s.more() {
		if c := s.buf[s.pos]; c == '\n' || c == '\r' {
			return
		}
		s.pos++
	}
}

// next scans the next token into s.tok and s.val.
func (s *scanner) next() {
	s.skipSpace()
	s.tokStart, s.tokLine, s.tokLineStart, s.tokColBase = s.pos, s.line, s.lineStart, s.colBase
	s.mark = s.pos
	s.val = nil
	if !s.more() {
		s.tok = tEOF
		return
	}
	c := s.buf[s.pos]
	switch c {
	case '\n', '\r': // line mode only
		s.pos++
		if c == '\r' && s.peekAt(0) == '\n' {
			s.pos++
		}
		s.newline()
		s.tok = tEOL
	case '<':
		s.scanIRI()
	case '"', '\'':
		s.scanString(c)
	case '_':
		s.scanBlank()
	case '@':
		s.scanLang()
	case '^':
		if s.peekAt(1) != '^' {
			s.pos++
			s.errorAtToken("expected '^^', found '^'")
		}
		s.pos += 2
		s.tok = tCaretCaret
	case '.':
		if d := s.peekAt(1); d >= '0' && d <= '9' && !s.lineMode {
			s.scanNumber()
			return
		}
		s.pos++
		s.tok = tDot
	case ';':
		s.pos++
		s.tok = tSemicolon
	case ',':
		s.pos++
		s.tok = tComma
	case '[':
		s.pos++
		s.tok = tLBracket
	case ']':
		s.pos++
		s.tok = tRBracket
	case '(':
		s.pos++
		s.tok = tLParen
	case ')':
		s.pos++
		s.tok = tRParen
	case '{':
		s.pos++
		s.tok = tLBrace
	case '}':
		s.pos++
		s.tok = tRBrace
	case '+', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		s.scanNumber()
	case ':':
		s.scanName()
	default:
		r, _ := s.decodeRune()
		if !isPNCharsBase(r) {
			s.errorAtPos("unexpected character %s", quoteRune(r))
		}
		s.scanName()
	}
}

func quoteRune(r rune) string {
	if r < 0x20 || r == 0x7f {
		return fmt.Sprintf("U+%04X", r)
	}
	return strconv.QuoteRune(r)
}

// scanIRI scans an IRIREF, decoding UCHAR escapes.
func (s *scanner) scanIRI() {
	s.pos++ // '<'
	s.mark = s.pos
	escaped, high := false, false
	s.scratch = s.scratch[:0]
	for {
		if !s.more() {
			s.errorAtPos("unterminated IRI: expected '>', found end of input")
		}
		c := s.buf[s.pos]
		switch {
		case c == '>':
			s.finishRun(escaped, s.pos)
			s.pos++
			if high && !utf8.Valid(s.val) {
				s.errorAtToken("invalid UTF-8 encoding in IRI")
			}
			s.tok = tIRI
			return
		case c == '\\':
			s.scratch = append(s.scratch, s.buf[s.mark:s.pos]...)
			escaped = true
			if n := s.peekAt(1); n != 'u' && n != 'U' {
				s.errorAtPos("invalid escape in IRI: expected \\u or \\U")
			}
			at := s.pos - s.mark
			r := s.scanUCHAR()
			if r <= 0x20 || r == '<' || r == '>' || r == '"' || r == '{' || r == '}' || r == '|' || r == '^' || r == '`' || r == '\\' {
				s.pos = s.mark + at
				s.errorAtPos("escape denotes %s, which is not allowed in an IRI", quoteRune(r))
			}
			s.scratch = utf8.AppendRune(s.scratch, r)
			s.mark = s.pos
		case c <= 0x20 || c == '<' || c == '"' || c == '{' || c == '}' || c == '|' || c == '^' || c == '`':
			if c == '\n' || c == '\r' {
				s.errorAtPos("unterminated IRI: expected '>', found end of line")
			}
			s.errorAtPos("character %s is not allowed in an IRI", quoteRune(rune(c)))
		default:
			if c >= utf8.RuneSelf {
				high = true
			}
			s.pos++
		}
	}
}

// finishRun sets s.val to the token text from s.mark to end, joined to the
// decoded prefix in scratch when there were escapes.
func (s *scanner) finishRun(escaped bool, end int) {
	if escaped {
		s.scratch = append(s.scratch, s.buf[s.mark:end]...)
		s.val = s.scratch
	} else {
		s.val = s.buf[s.mark:end]
	}
}

// scanUCHAR decodes \uXXXX or \UXXXXXXXX at pos.
func (s *scanner) scanUCHAR() rune {
	n := 4
	if s.peekAt(1) == 'U' {
		n = 8
	}
	s.ensure(2 + n)
	var r rune
	for i := range n {
		c := s.peekAt(2 + i)
		if !isHex(c) {
			s.pos += 2 + i
			s.errorAtPos("invalid \\%c escape: expected %d hexadecimal digits", s.buf[s.pos-i-1], n)
		}
		r = r<<4 | hexVal(c)
	}
	if r >= 0xD800 && r <= 0xDFFF || r > utf8.MaxRune {
		s.errorAtPos("escape \\%s does not denote a Unicode character", s.buf[s.pos+1:s.pos+2+n])
	}
	s.pos += 2 + n
	return r
}

// scanString scans a quoted string, decoding ECHAR and UCHAR escapes.
func (s *scanner) scanString(q byte) {
	long := false
	if s.peekAt(1) == q && s.peekAt(2) == q {
		long = true
		s.pos += 3
	} else {
		s.pos++
	}
	s.strForm = strDouble
	if long {
		s.strForm = strLong
	} else if q == '\'' {
		s.strForm = strSingle
	}
	s.mark = s.pos
	escaped, high := false, false
	s.scratch = s.scratch[:0]
	for {
		if !s.more() {
			s.errorAtToken("unterminated string: expected closing %c, found end of input", q)
		}
		c := s.buf[s.pos]
		switch {
		case c == q:
			if !long {
				s.finishRun(escaped, s.pos)
				s.pos++
				s.finishString(high)
				return
			}
			if s.peekAt(1) == q && s.peekAt(2) == q {
				s.finishRun(escaped, s.pos)
				s.pos += 3
				s.finishString(high)
				return
			}
			s.pos++
		case c == '\\':
			s.scratch = append(s.scratch, s.buf[s.mark:s.pos]...)
			escaped = true
			var r rune
			switch e := s.peekAt(1); e {
			case 't':
				r = '\t'
			case 'b':
				r = '\b'
			case 'n':
				r = '\n'
			case 'r':
				r = '\r'
			case 'f':
				r = '\f'
			case '"', '\'', '\\':
				r = rune(e)
			case 'u', 'U':
				r = s.scanUCHAR()
				s.scratch = utf8.AppendRune(s.scratch, r)
				s.mark = s.pos
				continue
			default:
				s.errorAtPos("invalid escape sequence in string: expected one of \\t \\b \\n \\r \\f \\\" \\' \\\\ \\u \\U")
			}
			s.pos += 2
			s.scratch = append(s.scratch, byte(r))
			s.mark = s.pos
		case c == '\n':
			if !long {
				s.errorAtPos("unterminated string: expected closing %c, found end of line", q)
			}
			s.pos++
			s.newline()
		case c == '\r':
			if !long {
				s.errorAtPos("unterminated string: expected closing %c, found end of line", q)
			}
			s.pos++
		default:
			if c >= utf8.RuneSelf {
				high = true
			}
			s.pos++
		}
	}
}

func (s *scanner) finishString(high bool) {
	if high && !utf8.Valid(s.val) {
		s.errorAtToken("invalid UTF-8 encoding in string")
	}
	s.tok = tString
}

// scanBlank scans _:label.
func (s *scanner) scanBlank() {
	if s.peekAt(1) != ':' {
		s.pos++
		s.errorAtPos("expected ':' after '_' (blank node label)")
	}
	s.pos += 2
	s.mark = s.pos
	if !s.more() {
		s.errorAtPos("expected blank node label after '_:', found end of input")
	}
	r, w := s.decodeRune()
	if !isPNCharsU(r) && !(r >= '0' && r <= '9') {
		s.errorAtPos("expected blank node label after '_:', found %s", quoteRune(r))
	}
	s.pos += w
	// end is an offset from mark: fill may move the buffer.
	end := s.pos - s.mark
	for s.more() {
		r, w := s.decodeRune()
		if r == '.' {
			s.pos += w
			continue
		}
		if !isPNChars(r) {
			break
		}
		s.pos += w
		end = s.pos - s.mark
	}
	s.pos = s.mark + end // a label does not end with '.'
	s.val = s.buf[s.mark:s.pos]
	s.tok = tBlank
}

// scanLang scans @tag (also @prefix and @base, which the parser tells apart).
func (s *scanner) scanLang() {
	s.pos++
	s.mark = s.pos
	n := 0
	for s.more() {
		c := s.buf[s.pos]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			s.pos++
			n++
			continue
		}
		break
	}
	if n == 0 {
		s.errorAtPos("expected language tag after '@'")
	}
	for s.peekAt(0) == '-' {
		c := s.peekAt(1)
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			s.pos++
			s.errorAtPos("expected letter or digit after '-' in language tag")
		}
		s.pos++
		for s.more() {
			c := s.buf[s.pos]
			if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
				s.pos++
				continue
			}
			break
		}
	}
	s.val = s.buf[s.mark:s.pos]
	s.tok = tLang
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// scanNumber scans INTEGER, DECIMAL or DOUBLE.
func (s *scanner) scanNumber() {
	s.mark = s.pos
	if c := s.buf[s.pos]; c == '+' || c == '-' {
		s.pos++
	}
	intDigits := 0
	for isDigit(s.peekAt(0)) {
		s.pos++
		intDigits++
	}
	kind := tInteger
	fracDigits := 0
	if s.peekAt(0) == '.' {
		switch d := s.peekAt(1); {
		case isDigit(d):
			s.pos++
			for isDigit(s.peekAt(0)) {
				s.pos++
				fracDigits++
			}
			kind = tDecimal
		case (d == 'e' || d == 'E') && intDigits > 0 && s.exponentAt(2):
			s.pos++
		}
	}
	if intDigits == 0 && fracDigits == 0 {
		s.errorAtToken("expected number after %q", s.buf[s.mark:s.pos])
	}
	if c := s.peekAt(0); c == 'e' || c == 'E' {
		if !s.exponentAt(1) {
			s.pos++
			s.errorAtPos("expected digits in exponent")
		}
		s.pos++
		if c := s.peekAt(0); c == '+' || c == '-' {
			s.pos++
		}
		for isDigit(s.peekAt(0)) {
			s.pos++
		}
		kind = tDouble
	}
	s.val = s.buf[s.mark:s.pos]
	s.tok = kind
}

// exponentAt reports whether digits (optionally signed) start at pos+i.
func (s *scanner) exponentAt(i int) bool {
	c := s.peekAt(i)
	if c == '+' || c == '-' {
		c = s.peekAt(i + 1)
	}
	return isDigit(c)
}

// scanName scans a prefixed name or a bare word.
func (s *scanner) scanName() {
	s.mark = s.pos
	// PN_PREFIX, or a bare word.
	end := 0 // offset from mark: fill may move the buffer
	word := true
	for s.more() {
		c := s.buf[s.pos]
		if c == ':' {
			if s.mark+end != s.pos {
				s.errorAtPos("prefix name must not end with '.'")
			}
			s.colon = s.pos - s.mark
			s.pos++
			s.scanLocal()
			return
		}
		if c == '.' {
			s.pos++
			continue
		}
		r, w := s.decodeRune()
		if !isPNChars(r) {
			break
		}
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			word = false
		}
		s.pos += w
		end = s.pos - s.mark
	}
	s.pos = s.mark + end
	if !word {
		s.errorAtToken("expected ':' after prefix %q", s.buf[s.mark:s.pos])
	}
	s.val = s.buf[s.mark:s.pos]
	s.tok = tWord
}

// scanLocal scans PN_LOCAL after the colon of a prefixed name.
func (s *scanner) scanLocal() {
	s.localEsc = false
	end := s.pos - s.mark // offset from mark: fill may move the buffer
	first := true
	for s.more() {
		c := s.buf[s.pos]
		switch {
		case c == '%':
			if !isHex(s.peekAt(1)) || !isHex(s.peekAt(2)) {
				s.errorAtPos("expected two hexadecimal digits after '%%' in local name")
			}
			s.pos += 3
		case c == '\\':
			if !isLocalEscapable(s.peekAt(1)) {
				s.errorAtPos("invalid escape in local name")
			}
			s.localEsc = true
			s.pos += 2
		case c == '.':
			if first {
				goto done
			}
			s.pos++
			first = false
			continue
		case c == ':':
			s.pos++
		default:
			r, w := s.decodeRune()
			if first && !isPNCharsU(r) && !(r >= '0' && r <= '9') || !first && !isPNChars(r) {
				goto done
			}
			s.pos += w
		}
		first = false
		end = s.pos - s.mark
	}
done:
	s.pos = s.mark + end // a local name does not end with '.'
	s.val = s.buf[s.mark:s.pos]
	s.tok = tPName
}

// describe returns the current token as found in the input, for messages.
func (s *scanner) describe() string {
	switch s.tok {
	case tEOF:
		return "end of input"
	case tEOL:
		return "end of line"
	}
	text := s.buf[s.tokStart:s.pos]
	if utf8.RuneCount(text) > 40 {
		n := 0
		for i := range string(text) {
			if n == 37 {
				text = append(text[:i:i], "..."...)
				break
			}
			n++
		}
	}
	switch s.tok {
	case tIRI:
		return "IRI " + string(text)
	case tPName:
		return "prefixed name " + string(text)
	case tBlank:
		return "blank node " + string(text)
	case tString:
		return "string " + string(text)
	case tLang:
		return "language tag " + string(text)
	case tInteger, tDecimal, tDouble:
		return "number " + string(text)
	}
	return "'" + string(text) + "'"
}
