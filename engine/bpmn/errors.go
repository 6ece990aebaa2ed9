package bpmn

import (
	"fmt"
	"strings"
)

// ParseError is a problem with a BPMN document found at deployment:
// malformed XML, a document over its bounds, an unsupported element, an
// expression or script that does not compile, a dangling reference.
type ParseError struct {
	Resource     string // the resource name given in ParseOptions
	Line, Column int    // of the offending element's start tag (0 when unknown)
	ElementID    string // the offending element's id, when it has one
	Msg          string
}

func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString("bpmn: ")
	if e.Resource != "" {
		fmt.Fprintf(&b, "%s: ", e.Resource)
	}
	switch {
	case e.Line > 0 && e.Column > 0:
		fmt.Fprintf(&b, "line %d, column %d: ", e.Line, e.Column)
	case e.Line > 0:
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	if e.ElementID != "" {
		fmt.Fprintf(&b, "element %q: ", e.ElementID)
	}
	b.WriteString(e.Msg)
	return b.String()
}

// ErrorList is every problem Parse found, in document order. Parse
// returns at most maxErrors of them.
type ErrorList []*ParseError

func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "bpmn: no errors"
	case 1:
		return l[0].Error()
	}
	return fmt.Sprintf("%s (and %d more errors)", l[0].Error(), len(l)-1)
}

// Unwrap lets errors.As find the first *ParseError.
func (l ErrorList) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}

const maxErrors = 20
