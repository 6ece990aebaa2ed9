package bpmn

import (
	"fmt"
	"time"
)

// Limits bound the work of one evaluation: one JUEL expression or one
// script task. A zero field takes the package default (see DefaultLimits);
// a negative field disables that bound.
type Limits struct {
	Timeout  time.Duration // wall time of one script run (the ctx also cancels)
	MaxDepth int           // JavaScript call stack depth; nesting of values a script sets
	MaxRows  int           // elements of one array or object a script sets
	MaxBytes int64         // bytes of one value a script sets (strings, and the JSON size of arrays and objects)
}

// DefaultLimits returns the bounds used when a Limits field is zero.
func DefaultLimits() Limits {
	return Limits{
		Timeout:  5 * time.Second,
		MaxDepth: 200,
		MaxRows:  100_000,
		MaxBytes: 4 << 20,
	}
}

// resolved fills zero fields with the defaults and turns negative ones
// into "no bound" (zero).
func (l Limits) resolved() Limits {
	d := DefaultLimits()
	if l.Timeout == 0 {
		l.Timeout = d.Timeout
	} else if l.Timeout < 0 {
		l.Timeout = 0
	}
	if l.MaxDepth == 0 {
		l.MaxDepth = d.MaxDepth
	} else if l.MaxDepth < 0 {
		l.MaxDepth = 0
	}
	if l.MaxRows == 0 {
		l.MaxRows = d.MaxRows
	} else if l.MaxRows < 0 {
		l.MaxRows = 0
	}
	if l.MaxBytes == 0 {
		l.MaxBytes = d.MaxBytes
	} else if l.MaxBytes < 0 {
		l.MaxBytes = 0
	}
	return l
}

// LimitError reports that an evaluation stopped at one of its Limits.
type LimitError struct {
	Limit string // the Limits field that was exceeded: "Timeout", "MaxDepth", "MaxRows", "MaxBytes"
	Max   int64  // its bound (nanoseconds for Timeout)
}

func (e *LimitError) Error() string {
	switch e.Limit {
	case "Timeout":
		return fmt.Sprintf("bpmn: script exceeded Timeout (%s)", time.Duration(e.Max))
	case "MaxDepth":
		return fmt.Sprintf("bpmn: script exceeded MaxDepth (%d levels)", e.Max)
	case "MaxRows":
		return fmt.Sprintf("bpmn: script exceeded MaxRows (%d elements)", e.Max)
	case "MaxBytes":
		return fmt.Sprintf("bpmn: script exceeded MaxBytes (%d bytes)", e.Max)
	}
	return fmt.Sprintf("bpmn: script exceeded %s (%d)", e.Limit, e.Max)
}

// LimitExceeded returns e.Limit; servers match this method structurally.
func (e *LimitError) LimitExceeded() string { return e.Limit }
