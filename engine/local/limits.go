package local

import (
	"fmt"
	"time"

	"github.com/regelkit/regelkit/engine/bpmn"
)

// Limits bound the work of one process command (a start, a task
// completion, …): everything the engine runs until the instances reach
// their next wait states. A zero field takes the package default (see
// DefaultLimits); a negative field disables that bound. Timeout, MaxDepth
// (the JavaScript call stack), MaxRows and MaxBytes also bound each
// script as bpmn.Limits.
type Limits struct {
	Timeout time.Duration // wall time of one script (the ctx also cancels the command)
	// MaxDepth bounds the call-activity depth of an instance (a process
	// that calls itself stops here) and a script's call stack.
	MaxDepth int
	MaxRows  int   // elements of one array or object a script sets
	MaxBytes int64 // bytes of one value a script sets; the variables of one instance, in total, are bounded by MaxVariableBytes
	// MaxSteps bounds the elements one command passes through: a loop of
	// gateways and tasks without a wait state stops here.
	MaxSteps int64
	// MaxVariableBytes bounds the estimated size of one instance's
	// variables after a command.
	MaxVariableBytes int64
}

// DefaultLimits returns the bounds used when a Limits field is zero.
func DefaultLimits() Limits {
	b := bpmn.DefaultLimits()
	return Limits{Timeout: b.Timeout, MaxDepth: 50, MaxRows: b.MaxRows, MaxBytes: b.MaxBytes,
		MaxSteps: 10_000, MaxVariableBytes: 16 << 20}
}

func (l Limits) resolved() Limits {
	d := DefaultLimits()
	if l.Timeout == 0 {
		l.Timeout = d.Timeout
	}
	if l.MaxDepth == 0 {
		l.MaxDepth = d.MaxDepth
	}
	if l.MaxRows == 0 {
		l.MaxRows = d.MaxRows
	}
	if l.MaxBytes == 0 {
		l.MaxBytes = d.MaxBytes
	}
	if l.MaxSteps == 0 {
		l.MaxSteps = d.MaxSteps
	}
	if l.MaxVariableBytes == 0 {
		l.MaxVariableBytes = d.MaxVariableBytes
	}
	return l
}

// script returns the bounds of one script (negative fields stay
// negative: no bound).
func (l Limits) script() bpmn.Limits {
	return bpmn.Limits{Timeout: l.Timeout, MaxDepth: scriptDepth(l.MaxDepth), MaxRows: l.MaxRows, MaxBytes: l.MaxBytes}
}

// scriptDepth is the JavaScript stack bound: the call-depth bound is much
// smaller than a useful stack, so the script gets bpmn's default unless
// depth is unbounded.
func scriptDepth(d int) int {
	if d < 0 {
		return -1
	}
	return 0
}

// LimitError reports that a process command stopped at one of its Limits.
// Nothing of the command is kept.
type LimitError struct {
	Limit     string // "MaxSteps", "MaxDepth" or "MaxVariableBytes"
	Max       int64
	ElementID string // the element the command stopped at, when known
}

func (e *LimitError) Error() string {
	at := ""
	if e.ElementID != "" {
		at = fmt.Sprintf(" at element %q", e.ElementID)
	}
	switch e.Limit {
	case "MaxSteps":
		return fmt.Sprintf("local: process command exceeded MaxSteps (%d elements without a wait state)%s", e.Max, at)
	case "MaxDepth":
		return fmt.Sprintf("local: process command exceeded MaxDepth (%d nested call activities)%s", e.Max, at)
	case "MaxVariableBytes":
		return fmt.Sprintf("local: process instance exceeded MaxVariableBytes (%d bytes of variables)%s", e.Max, at)
	}
	return fmt.Sprintf("local: process command exceeded %s (%d)%s", e.Limit, e.Max, at)
}

// LimitExceeded returns e.Limit; servers match this method structurally.
func (e *LimitError) LimitExceeded() string { return e.Limit }
