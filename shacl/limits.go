package shacl

import (
	"fmt"
	"time"
)

// Limits bound the work of one Validate call. A zero field takes the
// package default (see DefaultLimits); a negative field disables that
// bound.
type Limits struct {
	// Timeout is the wall time of one validation (the ctx also cancels).
	Timeout time.Duration
	// MaxDepth bounds how deeply shape validations nest on the stack: a
	// property shape inside a node shape, a shape reached by sh:node,
	// sh:property, sh:and, sh:or, sh:xone, sh:not or
	// sh:qualifiedValueShape. Conformance checks (sh:node and the logical
	// components) never hit it: when they nest deeply, as over a long RDF
	// list, the validator suspends them and finishes the deepest first, so
	// a list of any length validates in bounded stack. Only sh:property
	// recursion through the data, which reports results as it goes, stops
	// at MaxDepth. A MaxDepth above 10,000, or a disabled one, counts as
	// 10,000: the stack would not survive much deeper nesting (a cyclic
	// sh:property recursion would otherwise end the process).
	MaxDepth int
	// MaxRows is the number of validation results reported before the
	// validation stops.
	MaxRows int
}

// Package defaults for Limits.
const (
	DefaultTimeout  = 30 * time.Second
	DefaultMaxDepth = 500
	DefaultMaxRows  = 100_000
	// hardMaxDepth caps MaxDepth, also when it is disabled.
	hardMaxDepth = 10_000
)

// DefaultLimits returns the bounds used when a Limits field is zero.
func DefaultLimits() Limits {
	return Limits{Timeout: DefaultTimeout, MaxDepth: DefaultMaxDepth, MaxRows: DefaultMaxRows}
}

// effective fills zero fields with the defaults.
func (l Limits) effective() Limits {
	d := DefaultLimits()
	if l.Timeout == 0 {
		l.Timeout = d.Timeout
	}
	if l.MaxDepth == 0 {
		l.MaxDepth = d.MaxDepth
	}
	if l.MaxDepth < 0 || l.MaxDepth > hardMaxDepth {
		l.MaxDepth = hardMaxDepth
	}
	if l.MaxRows == 0 {
		l.MaxRows = d.MaxRows
	}
	return l
}

// LimitError reports that a validation stopped at one of its Limits.
type LimitError struct {
	Limit string // the Limits field that was exceeded: "Timeout", "MaxDepth" or "MaxRows"
	Max   int64  // its bound (nanoseconds for Timeout)
}

func (e *LimitError) Error() string {
	switch e.Limit {
	case "Timeout":
		return fmt.Sprintf("shacl: validation exceeded Timeout (%v)", time.Duration(e.Max))
	case "MaxDepth":
		return fmt.Sprintf("shacl: validation exceeded MaxDepth (%d nested shapes; is a property shape recursive through the data?)", e.Max)
	case "MaxRows":
		return fmt.Sprintf("shacl: validation exceeded MaxRows (%d results)", e.Max)
	}
	return fmt.Sprintf("shacl: validation exceeded %s (%d)", e.Limit, e.Max)
}

// LimitExceeded returns e.Limit; servers match this method structurally.
func (e *LimitError) LimitExceeded() string { return e.Limit }

// Options configure a Validator.
type Options struct {
	// Limits bound each Validate call; the zero value takes DefaultLimits.
	Limits Limits
}
