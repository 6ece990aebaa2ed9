package graph

import (
	"errors"
	"fmt"
)

// ParseError is a syntax error in an RDF document, positioned at a line and
// column, both counted from 1. The column counts characters, except in
// RDF/XML, where it is encoding/xml's byte column. Msg says what was
// expected and what was found. JSON-LD processing errors (as opposed to
// JSON syntax errors) have no position: Line is 0.
type ParseError struct {
	Line, Column int
	Msg          string
}

func (e *ParseError) Error() string {
	if e.Line <= 0 {
		return e.Msg
	}
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// ErrUnsupported is returned (wrapped) when a format cannot be read or
// written by the requested call, e.g. parsing TriG with ParseGraph when the
// document has named graphs.
var ErrUnsupported = errors.New("graph: unsupported")
