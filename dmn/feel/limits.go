package feel

import (
	"fmt"
	"time"

	"github.com/regelkit/regelkit/sparql/graph/xsdregexp"
)

// Limits bound the work of one evaluation. A zero field takes the package
// default (see DefaultLimits); a negative field disables that bound.
// Parse nesting is bounded separately, by MaxNesting.
type Limits struct {
	Timeout time.Duration // wall time of one evaluation (Runtime.Context also cancels)
	// MaxDepth bounds the nesting of calls of user-defined functions:
	// FEEL function definitions, business knowledge models, decision
	// services; so it is the recursion budget.
	MaxDepth int
	// MaxRows bounds the list elements one evaluation builds, in total
	// (for results, list literals, built-in results such as concatenate).
	MaxRows int
	// MaxBytes bounds the bytes of the strings one evaluation builds, in
	// total (+ on strings, string join, substring, replace, string(...)),
	// so also of any one string.
	MaxBytes int64
}

// DefaultLimits returns the bounds used when a Limits field is zero.
func DefaultLimits() Limits {
	return Limits{Timeout: 10 * time.Second, MaxDepth: 500, MaxRows: 1_000_000, MaxBytes: 64 << 20}
}

// LimitError reports that an evaluation stopped at one of its Limits.
type LimitError struct {
	Limit string // the Limits field that was exceeded: "Timeout", "MaxDepth", "MaxRows" or "MaxBytes"
	Max   int64  // its bound (nanoseconds for Timeout)
}

func (e *LimitError) Error() string {
	switch e.Limit {
	case "Timeout":
		return fmt.Sprintf("feel: evaluation exceeded Timeout (%s)", time.Duration(e.Max))
	case "MaxDepth":
		return fmt.Sprintf("feel: evaluation exceeded MaxDepth (%d nested function calls)", e.Max)
	case "MaxRows":
		return fmt.Sprintf("feel: evaluation exceeded MaxRows (%d list elements)", e.Max)
	case "MaxBytes":
		return fmt.Sprintf("feel: evaluation exceeded MaxBytes (%d bytes of strings)", e.Max)
	}
	return fmt.Sprintf("feel: evaluation exceeded %s (%d)", e.Limit, e.Max)
}

// LimitExceeded returns the name of the Limits field that was exceeded;
// servers match this method structurally.
func (e *LimitError) LimitExceeded() string { return e.Limit }

// budget is the running account of one evaluation against its Limits.
type budget struct {
	guarded  bool // inside Run: aborts unwind to the outermost Run
	max      Limits
	depth    int
	rows     int64
	bytes    int64
	steps    int
	deadline time.Time // set at the first clock check
	err      error
}

// abort is the panic value that unwinds an evaluation stopped by its
// budget; Run recovers it.
type abort struct{}

// Err returns the error that stopped the last evaluation early: a
// *LimitError, or the error of Runtime.Context. Nil when it ran to its end.
func (rt *Runtime) Err() error { return rt.b.err }

// Run runs f as one evaluation under rt.Limits and rt.Context and returns
// the error that stopped it early (see Err). A host that evaluates many
// expressions as one evaluation (package dmn) wraps them in one Run, so
// that a budget error unwinds all of them at once and the budget counts
// them together; Expression.Eval, Tests and Function calls made outside a
// Run are each an evaluation of their own. Run within Run just calls f.
func (rt *Runtime) Run(f func()) (err error) {
	if rt.b.guarded {
		f()
		return rt.b.err
	}
	rt.begin()
	defer rt.end(&err)
	f()
	return nil
}

func (rt *Runtime) begin() {
	d := DefaultLimits()
	l := rt.Limits
	if l.Timeout != 0 {
		d.Timeout = l.Timeout
	}
	if l.MaxDepth != 0 {
		d.MaxDepth = l.MaxDepth
	}
	if l.MaxRows != 0 {
		d.MaxRows = l.MaxRows
	}
	if l.MaxBytes != 0 {
		d.MaxBytes = l.MaxBytes
	}
	rt.b = budget{guarded: true, max: d}
}

func (rt *Runtime) end(err *error) {
	rt.b.guarded = false
	if r := recover(); r != nil {
		if _, ok := r.(abort); !ok {
			panic(r)
		}
	}
	*err = rt.b.err
}

// stop ends the evaluation with err.
func (rt *Runtime) stop(err error) {
	if rt.b.err == nil {
		rt.b.err = err
	}
	panic(abort{})
}

// step counts n units of work (iterations, calls) and every 1024 units
// looks at the clock and the context.
func (rt *Runtime) step(n int) {
	rt.b.steps += n
	if rt.b.steps < 1024 {
		return
	}
	rt.b.steps = 0
	if rt.Context != nil {
		if err := rt.Context.Err(); err != nil {
			rt.stop(err)
		}
	}
	if rt.b.max.Timeout < 0 {
		return
	}
	now := time.Now()
	if rt.b.deadline.IsZero() {
		rt.b.deadline = now.Add(rt.b.max.Timeout)
	} else if now.After(rt.b.deadline) {
		rt.stop(&LimitError{Limit: "Timeout", Max: int64(rt.b.max.Timeout)})
	}
}

// addRows counts n list elements about to be built.
func (rt *Runtime) addRows(n int) {
	rt.b.rows += int64(n)
	if m := rt.b.max.MaxRows; m >= 0 && rt.b.rows > int64(m) {
		rt.stop(&LimitError{Limit: "MaxRows", Max: int64(m)})
	}
}

// addBytes counts n bytes of strings about to be built.
func (rt *Runtime) addBytes(n int) {
	rt.b.bytes += int64(n)
	if m := rt.b.max.MaxBytes; m >= 0 && rt.b.bytes > m {
		rt.stop(&LimitError{Limit: "MaxBytes", Max: m})
	}
}

// account counts a built-in's result.
func (rt *Runtime) account(v Value) {
	switch x := v.(type) {
	case string:
		rt.addBytes(len(x))
	case []Value:
		rt.addRows(len(x))
	}
}

// enterCall counts a call of a user-defined function; the caller
// decrements rt.b.depth when it returns.
func (rt *Runtime) enterCall() {
	rt.b.depth++
	if m := rt.b.max.MaxDepth; m >= 0 && rt.b.depth > m {
		rt.stop(&LimitError{Limit: "MaxDepth", Max: int64(m)})
	}
	rt.step(1)
}

// needBytes stops the evaluation when building n more bytes of strings
// would exceed MaxBytes; unlike addBytes it counts nothing, for a
// built-in whose result account counts afterwards.
func (rt *Runtime) needBytes(n int64) {
	if left := rt.bytesLeft(); left >= 0 && n > left {
		rt.addBytes(int(min(n, 1<<62)))
	}
}

// needRows is needBytes for list elements and MaxRows.
func (rt *Runtime) needRows(n int64) {
	if left := rt.rowsLeft(); left >= 0 && n > int64(left) {
		rt.addRows(int(min(n, 1<<62)))
	}
}

// rowsLeft is what MaxRows still allows (-1: no bound).
func (rt *Runtime) rowsLeft() int {
	if rt.b.max.MaxRows < 0 {
		return -1
	}
	return max(rt.b.max.MaxRows-int(rt.b.rows), 0)
}

// leafCount counts the non-list items under l, stopping once past limit
// (when limit >= 0); nested lists may share structure, so flattening can
// be far larger than what was built.
func leafCount(l []Value, limit int) int64 {
	n := int64(0)
	stack := [][]Value{l}
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, e := range top {
			if sub, ok := e.([]Value); ok {
				stack = append(stack, sub)
				continue
			}
			if n++; limit >= 0 && n > int64(limit) {
				return n
			}
		}
	}
	return n
}

// renderedSize estimates the bytes of String(v), stopping once past limit
// (when limit >= 0): a list may hold one long string many times.
func renderedSize(v Value, limit int64) int64 {
	n := int64(0)
	stack := []Value{v}
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch x := top.(type) {
		case string:
			n += int64(len(x)) + 2
		case []Value:
			n += 2
			stack = append(stack, x...)
		case *Context:
			for i := 0; i < x.Len(); i++ {
				k, e := x.Entry(i)
				n += int64(len(k)) + 4
				stack = append(stack, e)
			}
		default:
			n += 8
		}
		if limit >= 0 && n > limit {
			return n
		}
	}
	return n
}

// bytesLeft is what MaxBytes still allows (-1: no bound).
func (rt *Runtime) bytesLeft() int64 {
	if rt.b.max.MaxBytes < 0 {
		return -1
	}
	return max(rt.b.max.MaxBytes-rt.b.bytes, 0)
}

// compileRegexp compiles a pattern of matches, replace or split: a back
// reference runs under a match time limit no longer than the evaluation's
// Timeout, and replace may build no more than MaxBytes allows.
func (rt *Runtime) compileRegexp(pattern, flags string) (*xsdregexp.Regexp, error) {
	opts := xsdregexp.Options{}
	if t := rt.b.max.Timeout; t > 0 && t < xsdregexp.DefaultMatchTimeout {
		opts.MatchTimeout = t
	}
	if left := rt.bytesLeft(); left >= 0 {
		opts.MaxBytes = max(left, 1)
	}
	return xsdregexp.CompileWith(pattern, flags, opts)
}

// regexpFailed turns an error of a compiled pattern into FEEL's result: a
// budget error stops the evaluation, anything else (a pattern matching
// the empty string, a bad replacement) is null with a warning.
func (rt *Runtime) regexpFailed(fn string, err error) Value {
	if le, ok := err.(*xsdregexp.LimitError); ok {
		if le.Limit == "MaxBytes" {
			rt.stop(&LimitError{Limit: "MaxBytes", Max: rt.b.max.MaxBytes})
		}
		rt.stop(&LimitError{Limit: "Timeout", Max: le.Max})
	}
	return rt.warnf("%s: %v", fn, err)
}

// guarded reports whether rt is inside Run; the public entry points that
// are not run their work through Run.
func (rt *Runtime) guarded() bool { return rt.b.guarded }
