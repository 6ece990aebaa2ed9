package main

import (
	"strings"

	"github.com/regelkit/regelkit/sparql/graph"
)

// focusIndex finds where a Turtle-family file first names each SHACL
// focus node, so an issue about a node points at a line an editor or a
// pull-request annotation can show. The parser keeps no positions, so this
// is a light scan of the text: IRIs written <...> and prefixed names
// (expanded with the file's own prefixes), skipping comments and string
// literals. Blank nodes and nodes the text never names have no position.
type focusIndex struct {
	lines *lineIndex
	first map[string]int // IRI → byte offset of its first mention
}

// newFocusIndex scans data once and records the first mention of each
// IRI in wanted; the map holds only those, so it is bounded by the number
// of issues, not by the file.
func newFocusIndex(data []byte, prefixes *graph.Prefixes, wanted map[string]bool) *focusIndex {
	x := &focusIndex{lines: newLineIndex(data), first: make(map[string]int)}
	note := func(iri string, off int) {
		if wanted[iri] {
			if _, seen := x.first[iri]; !seen {
				x.first[iri] = off
			}
		}
	}
	text := string(data)
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '<':
			end := strings.IndexAny(text[i+1:], "> \t\r\n")
			if end < 0 {
				return x
			}
			if text[i+1+end] == '>' {
				note(text[i+1:i+1+end], i)
				i += end + 2
			} else {
				i += end + 1
			}
		case c == '#':
			end := strings.IndexByte(text[i:], '\n')
			if end < 0 {
				return x
			}
			i += end
		case c == '"' || c == '\'':
			i = skipString(text, i)
		case isDelimiter(c):
			i++
		default:
			end := i
			for end < len(text) && !isDelimiter(text[end]) && text[end] != '"' && text[end] != '\'' && text[end] != '<' {
				end++
			}
			tok := strings.TrimRight(text[i:end], ".")
			if p, local, ok := strings.Cut(tok, ":"); ok && prefixes != nil {
				if ns, ok := prefixes.Namespace(p); ok {
					note(ns+local, i)
				}
			}
			i = max(end, i+1)
		}
	}
	return x
}

// skipString returns the offset after the string literal starting at i,
// long ("""...""") or short, honouring backslash escapes.
func skipString(text string, i int) int {
	q := text[i]
	long := strings.Repeat(string(q), 3)
	if strings.HasPrefix(text[i:], long) {
		for j := i + 3; j < len(text); j++ {
			if text[j] == '\\' {
				j++
				continue
			}
			if strings.HasPrefix(text[j:], long) {
				return j + 3
			}
		}
		return len(text)
	}
	for j := i + 1; j < len(text); j++ {
		switch text[j] {
		case '\\':
			j++
		case q, '\n':
			return j + 1
		}
	}
	return len(text)
}

func isDelimiter(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', ';', ',', '(', ')', '[', ']', '{', '}', '>':
		return true
	}
	return false
}

// find returns the line and column of the first mention of an IRI focus
// node, or zeros.
func (x *focusIndex) find(focus string) (int, int) {
	off, ok := x.first[focus]
	if !ok {
		return 0, 0
	}
	return x.lines.position(off)
}
