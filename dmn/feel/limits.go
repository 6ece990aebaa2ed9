package feel

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/regelkit/regelkit/sparql/graph/xsdregexp"
)

// Limits bound the work of one evaluation (see Runtime.Run). A zero field
// takes the package default (see DefaultLimits); a negative field
// disables that bound, and so does a count bound above math.MaxInt32.
// Parse nesting is bounded separately, by MaxNesting.
type Limits struct {
	Timeout time.Duration // wall time of one evaluation (its context also cancels)
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
// It is kept small (package dmn embeds a Runtime in every evaluation), so
// it counts down what is left and leaves the limits themselves, needed
// only for the error, to Run.
type budget struct {
	ctx       context.Context
	deadline  int64 // < 0: -Timeout, clock not read yet; > 0: Unix nanoseconds; 0: none
	rowsLeft  int32
	bytesLeft int32
	depthLeft int32
	steps     int32
	unbounded uint8 // the bounds disabled: bit per noRows, noBytes, noDepth
	guarded   bool  // inside Run: aborts unwind to the outermost Run
}

const (
	noRows uint8 = 1 << iota
	noBytes
	noDepth
)

// abort is the panic value that unwinds an evaluation stopped by its
// budget: the Limits field exceeded, or the context's error. Run recovers
// it.
type abort struct {
	limit string
	err   error
}

// Context returns the context of the evaluation running (see Run), or
// context.Background().
func (rt *Runtime) Context() context.Context {
	if rt.b.ctx != nil {
		return rt.b.ctx
	}
	return context.Background()
}

// Run runs f as one evaluation under the limits (zero fields take
// DefaultLimits) and ctx (which may be nil), and returns the error that
// stopped it early: a *LimitError, or ctx's error. A host that evaluates
// many expressions as one evaluation (package dmn) wraps them in one Run,
// so that a budget error unwinds all of them at once and the budget counts
// them together. Expression.Eval, Tests and Function calls made outside a
// Run are each an evaluation of their own under DefaultLimits; one that
// stops early is null, with the error in Runtime.Errors. Run within Run
// just calls f.
func (rt *Runtime) Run(ctx context.Context, limits Limits, f func()) (err error) {
	if rt.b.guarded {
		f()
		return nil
	}
	if limits == (Limits{}) {
		rt.b = defaultBudget
	} else {
		rt.b = newBudget(resolve(limits))
	}
	rt.b.ctx, rt.b.guarded = ctx, true
	defer rt.end(limits, &err)
	f()
	return nil
}

// defaultBudget is the budget of DefaultLimits, an immutable table that
// spares evaluations under the defaults the work of newBudget.
var defaultBudget = newBudget(DefaultLimits())

// resolve fills the zero fields of l with the defaults.
func resolve(l Limits) Limits {
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
	return l
}

// left is a bound as a countdown: bounds past what an int32 holds count
// as none (2 GiB of strings, two billion list elements or calls).
func left(max int64, flag uint8, unbounded *uint8) int32 {
	if max < 0 || max > math.MaxInt32 {
		*unbounded |= flag
		return math.MaxInt32
	}
	return int32(max)
}

func newBudget(l Limits) budget {
	var b budget
	if l.Timeout > 0 {
		b.deadline = -int64(l.Timeout)
	}
	b.rowsLeft = left(int64(l.MaxRows), noRows, &b.unbounded)
	b.bytesLeft = left(l.MaxBytes, noBytes, &b.unbounded)
	b.depthLeft = left(int64(l.MaxDepth), noDepth, &b.unbounded)
	return b
}

func (rt *Runtime) end(limits Limits, err *error) {
	rt.b.guarded = false
	if r := recover(); r != nil {
		*err = stopped(r, limits)
	}
}

// stopped is the error of the abort r recovered (any other panic goes
// on) under the limits given to Run.
func stopped(r any, limits Limits) error {
	a, ok := r.(abort)
	if !ok {
		panic(r)
	}
	l := resolve(limits)
	switch a.limit {
	case "Timeout":
		return &LimitError{Limit: a.limit, Max: int64(l.Timeout)}
	case "MaxDepth":
		return &LimitError{Limit: a.limit, Max: int64(l.MaxDepth)}
	case "MaxRows":
		return &LimitError{Limit: a.limit, Max: int64(l.MaxRows)}
	case "MaxBytes":
		return &LimitError{Limit: a.limit, Max: l.MaxBytes}
	}
	return a.err
}

// stop ends the evaluation at the named limit.
func (rt *Runtime) stop(limit string) { panic(abort{limit: limit}) }

// step counts n units of work (iterations, calls) and every 1024 units
// looks at the clock and the context.
func (rt *Runtime) step(n int) {
	rt.b.steps += int32(min(n, 1<<20))
	if rt.b.steps < 1024 {
		return
	}
	rt.b.steps = 0
	if rt.b.ctx != nil {
		if err := rt.b.ctx.Err(); err != nil {
			panic(abort{err: err})
		}
	}
	switch d := rt.b.deadline; {
	case d < 0:
		rt.b.deadline = time.Now().UnixNano() - d
	case d > 0 && time.Now().UnixNano() > d:
		rt.stop("Timeout")
	}
}

// addRows counts n list elements about to be built.
func (rt *Runtime) addRows(n int) { rt.spend(&rt.b.rowsLeft, n, noRows, "MaxRows") }

// addBytes counts n bytes of strings about to be built.
func (rt *Runtime) addBytes(n int) { rt.spend(&rt.b.bytesLeft, n, noBytes, "MaxBytes") }

// spend takes n from the countdown left of the named limit, stopping the
// evaluation when it has not that much left and is bounded (flag unset).
func (rt *Runtime) spend(left *int32, n int, flag uint8, limit string) {
	if int64(n) > int64(*left) {
		if rt.b.unbounded&flag != 0 {
			return
		}
		rt.stop(limit)
	}
	*left -= int32(n)
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

// enterCall counts a call of a user-defined function; leaveCall its return.
func (rt *Runtime) enterCall() {
	if rt.b.depthLeft <= 0 && rt.b.unbounded&noDepth == 0 {
		rt.stop("MaxDepth")
	}
	rt.b.depthLeft--
	rt.step(1)
}

func (rt *Runtime) leaveCall() { rt.b.depthLeft++ }

// needBytes stops the evaluation when building n more bytes of strings
// would exceed MaxBytes; unlike addBytes it counts nothing, for a
// built-in whose result account counts afterwards.
func (rt *Runtime) needBytes(n int64) {
	if n > int64(rt.b.bytesLeft) && rt.b.unbounded&noBytes == 0 {
		rt.stop("MaxBytes")
	}
}

// needRows is needBytes for list elements and MaxRows.
func (rt *Runtime) needRows(n int64) {
	if n > int64(rt.b.rowsLeft) && rt.b.unbounded&noRows == 0 {
		rt.stop("MaxRows")
	}
}

// rowsLeft is what MaxRows still allows (-1: no bound).
func (rt *Runtime) rowsLeft() int {
	if rt.b.unbounded&noRows != 0 {
		return -1
	}
	return int(max(rt.b.rowsLeft, 0))
}

// bytesLeft is what MaxBytes still allows (-1: no bound).
func (rt *Runtime) bytesLeft() int64 {
	if rt.b.unbounded&noBytes != 0 {
		return -1
	}
	return int64(max(rt.b.bytesLeft, 0))
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

// compileRegexp compiles a pattern of matches, replace or split: a back
// reference runs under a match time limit no longer than the evaluation's
// Timeout, and replace may build no more than MaxBytes allows.
func (rt *Runtime) compileRegexp(pattern, flags string) (*xsdregexp.Regexp, error) {
	opts := xsdregexp.Options{}
	t := time.Duration(-rt.b.deadline) // before the first clock check
	if rt.b.deadline > 0 {
		t = time.Duration(rt.b.deadline - time.Now().UnixNano())
	}
	if rt.b.deadline != 0 && t < xsdregexp.DefaultMatchTimeout {
		opts.MatchTimeout = max(t, time.Millisecond)
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
			rt.stop("MaxBytes")
		}
		rt.stop("Timeout")
	}
	return rt.warnf("%s: %v", fn, err)
}

// Spend counts work a host does inside Run on behalf of the evaluation:
// items it iterates (steps) and list elements it builds (rows), as FEEL's
// own for and filter count theirs. When that exceeds the budget it stops
// the evaluation, unwinding to Run. Outside Run it does nothing.
func (rt *Runtime) Spend(steps, rows int) {
	if !rt.b.guarded {
		return
	}
	rt.addRows(rows)
	rt.step(steps)
}

// guarded reports whether rt is inside Run; the public entry points that
// are not run their work through Run.
func (rt *Runtime) guarded() bool { return rt.b.guarded }

// evalAlone runs f as an evaluation of its own: one that stops early is
// null, with its error recorded by Fail.
func (rt *Runtime) evalAlone(f func()) {
	if err := rt.Run(context.TODO(), Limits{}, f); err != nil {
		rt.Fail(err)
	}
}

// endAlone ends an evaluation of Expression.Eval outside Run: one that
// stopped early is null, with its error recorded by Fail.
func (rt *Runtime) endAlone(v *Value) {
	rt.b.guarded = false
	if r := recover(); r != nil {
		*v = rt.Fail(stopped(r, Limits{}))
	}
}
