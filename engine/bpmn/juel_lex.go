package bpmn

import (
	"strings"
)

// A JUEL token kind.
type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tInt
	tFloat
	tString
	tOp      // punctuation and symbolic operators
	tKeyword // and or not eq ne lt gt le ge div mod empty true false null
)

type token struct {
	kind tokKind
	text string // identifier, operator or keyword text; decoded string literal
	pos  int    // byte offset in the expression source
}

var keywords = map[string]bool{
	"and": true, "or": true, "not": true, "eq": true, "ne": true, "lt": true, "gt": true,
	"le": true, "ge": true, "div": true, "mod": true, "empty": true, "true": true,
	"false": true, "null": true, "instanceof": true,
}

// lexJUEL scans the body of one ${…} (src[start:end]) into tokens. Symbols
// outside the subset (=, ;, ->, +=, {, }, …) are refused here, so that an
// EL 3.0 construct fails at deployment and not when a token reaches it.
func lexJUEL(src string, start, end int) ([]token, *ExprError) {
	var toks []token
	i := start
	for i < end {
		c := src[i]
		var t token
		var next int
		var err *ExprError
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
			continue
		case isIdentStart(c):
			t, next = lexWord(src, i, end)
		case c >= '0' && c <= '9' || c == '.' && i+1 < end && src[i+1] >= '0' && src[i+1] <= '9':
			t, next, err = lexNumber(src, i, end)
		case c == '\'' || c == '"':
			t, next, err = lexString(src, i, end)
		default:
			t, next, err = lexOperator(src, i, end)
		}
		if err != nil {
			return nil, err
		}
		toks = append(toks, t)
		i = next
	}
	toks = append(toks, token{kind: tEOF, pos: end})
	return toks, nil
}

// lexWord scans an identifier or keyword at src[i]; the lex functions
// return the token and the offset after it.
func lexWord(src string, i, end int) (token, int) {
	j := i + 1
	for j < end && isIdentPart(src[j]) {
		j++
	}
	word := src[i:j]
	k := tIdent
	if keywords[word] {
		k = tKeyword
	}
	return token{kind: k, text: word, pos: i}, j
}

// lexNumber scans an integer or floating-point literal at src[i].
func lexNumber(src string, i, end int) (token, int, *ExprError) {
	j := i
	k := tInt
	for j < end && src[j] >= '0' && src[j] <= '9' {
		j++
	}
	if j < end && src[j] == '.' && (j+1 >= end || src[j+1] >= '0' && src[j+1] <= '9' || !isIdentStart(src[j+1])) {
		k = tFloat
		j++
		for j < end && src[j] >= '0' && src[j] <= '9' {
			j++
		}
	}
	if j < end && (src[j] == 'e' || src[j] == 'E') {
		k = tFloat
		j++
		if j < end && (src[j] == '+' || src[j] == '-') {
			j++
		}
		d := j
		for j < end && src[j] >= '0' && src[j] <= '9' {
			j++
		}
		if d == j {
			return token{}, 0, &ExprError{pos: j, Msg: "malformed number exponent"}
		}
	}
	return token{kind: k, text: src[i:j], pos: i}, j, nil
}

// lexString scans a quoted string literal at src[i], with \\, \' and \"
// escapes.
func lexString(src string, i, end int) (token, int, *ExprError) {
	q := src[i]
	var b strings.Builder
	for j := i + 1; j < end; j++ {
		d := src[j]
		if d == '\\' && j+1 < end && (src[j+1] == '\\' || src[j+1] == '\'' || src[j+1] == '"') {
			b.WriteByte(src[j+1])
			j++
			continue
		}
		if d == q {
			return token{kind: tString, text: b.String(), pos: i}, j + 1, nil
		}
		b.WriteByte(d)
	}
	return token{}, 0, &ExprError{pos: i, Msg: "unterminated string literal"}
}

// lexOperator scans an operator or punctuation at src[i].
func lexOperator(src string, i, end int) (token, int, *ExprError) {
	op := ""
	if i+1 < end {
		switch two := src[i : i+2]; two {
		case "==", "!=", "<=", ">=", "&&", "||":
			op = two
		case "->", "+=", "=>":
			return token{}, 0, &ExprError{pos: i, Msg: "unsupported operator " + two}
		}
	}
	if op == "" {
		switch c := src[i]; c {
		case '<', '>', '!', '+', '-', '*', '/', '%', '(', ')', '[', ']', '.', ',', '?', ':':
			op = string(c)
		default:
			return token{}, 0, &ExprError{pos: i, Msg: "unsupported character " + quoteRune(src, i)}
		}
	}
	return token{kind: tOp, text: op, pos: i}, i + len(op), nil
}

// isIdentStart accepts every byte of a multi-byte UTF-8 sequence, so that
// Java identifiers with letters outside ASCII (${gehuwdeNaïef}) lex.
func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$' || c >= 0x80
}

func isIdentPart(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

func quoteRune(src string, i int) string {
	r := []rune(src[i:min(len(src), i+4)])
	if len(r) == 0 {
		return "''"
	}
	return "'" + string(r[0]) + "'"
}
