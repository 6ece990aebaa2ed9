package feel

import (
	"github.com/cockroachdb/apd/v3"
)

// testFn evaluates one positive unary test against the input: true, false or null.
type testFn func(env *Env, in Value) Value

// Tests is a compiled list of unary tests (a decision table input entry,
// an allowed-values list); it is safe for concurrent use.
type Tests struct {
	src   string
	ast   *UnaryTests
	any   bool
	not   bool
	tests []testFn
}

// CompileUnaryTests parses and compiles unary tests.
func CompileUnaryTests(src string, scope *Scope) (*Tests, error) {
	ut, err := ParseUnaryTests(src, scope)
	if err != nil {
		return nil, err
	}
	return CompileTestsNode(ut, src, scope), nil
}

// CompileTestsNode compiles already parsed unary tests.
func CompileTestsNode(ut *UnaryTests, src string, scope *Scope) *Tests {
	c := &compiler{scope: scope, src: src}
	t := &Tests{src: src, ast: ut, any: ut.Any, not: ut.Not}
	for _, n := range ut.Tests {
		t.tests = append(t.tests, c.compileTest(n, false))
	}
	return t
}

// Source returns the tests' text.
func (t *Tests) Source() string { return t.src }

// AST returns the parsed tests.
func (t *Tests) AST() *UnaryTests { return t.ast }

// IsAny reports whether the tests are "-" (match anything).
func (t *Tests) IsAny() bool { return t.any }

// Match reports whether in satisfies the tests, with no variables in scope.
func (t *Tests) Match(in Value, rt *Runtime) bool {
	if t.any {
		return true
	}
	if rt == nil {
		rt = &Runtime{}
	}
	return t.Eval(&Env{rt: rt}, in) == true
}

// MatchEnv reports whether in satisfies the tests, evaluated in env.
func (t *Tests) MatchEnv(env *Env, in Value) bool {
	if t.any {
		return true
	}
	return t.Eval(env, in) == true
}

// Eval evaluates the tests against in: true, false or null. Outside
// Runtime.Run it is an evaluation of its own (see Expression.Eval).
func (t *Tests) Eval(env *Env, in Value) Value {
	if t.any {
		return true
	}
	if !env.rt.b.guarded {
		var v Value
		env.rt.evalAlone(func() { v = t.Eval(env, in) })
		return v
	}
	sawNull := false
	for _, f := range t.tests {
		r := f(env, in)
		if b, ok := r.(bool); ok {
			if b {
				return !t.not
			}
			continue
		}
		if r == nil {
			sawNull = true
		}
	}
	if sawNull {
		return nil
	}
	return t.not
}

// usesInput reports whether n refers to "?".
func usesInput(n Node) bool {
	found := false
	Inspect(n, func(m Node) bool {
		if nm, ok := m.(*Name); ok && nm.Name == "?" {
			found = true
		}
		return !found
	})
	return found
}

func literalValue(n Node) (Value, bool) {
	switch x := n.(type) {
	case *NumberLit:
		return x.Value, true
	case *StringLit:
		return x.Value, true
	case *BoolLit:
		return x.Value, true
	case *TemporalLit:
		return parseTemporal(x.Text)
	case *Negation:
		if v, ok := literalValue(x.X); ok {
			if d, isNum := v.(*apd.Decimal); isNum {
				r := new(apd.Decimal)
				r.Neg(d)
				return r, true
			}
		}
	}
	return nil, false
}

// compileTest compiles a positive unary test. inOp is true for the
// right-hand side of the "in" operator, where a boolean result only counts
// as the test's outcome when the test mentions "?".
func (c *compiler) compileTest(n Node, inOp bool) testFn {
	switch x := n.(type) {
	case *UnaryCompare:
		op := x.Op
		if lit, ok := literalValue(x.X); ok {
			return func(env *Env, in Value) Value { return unaryCmp(env.rt, op, in, lit) }
		}
		xf := c.compile(x.X)
		return func(env *Env, in Value) Value { return unaryCmp(env.rt, op, in, xf(env)) }
	case *NullLit:
		return func(env *Env, in Value) Value { return in == nil }
	case *RangeLit:
		if r, ok := constRange(x); ok {
			lo, ok1 := r.Start.(*apd.Decimal)
			hi, ok2 := r.End.(*apd.Decimal)
			if ok1 && ok2 {
				// numeric interval: compare decimals directly
				loIn, hiIn := r.StartIncluded, r.EndIncluded
				return func(env *Env, in Value) Value {
					d, ok := in.(*apd.Decimal)
					if !ok {
						return rangeIncludes(env.rt, r, in)
					}
					c := lo.Cmp(d)
					if c > 0 || (c == 0 && !loIn) {
						return false
					}
					c = d.Cmp(hi)
					return c < 0 || (c == 0 && hiIn)
				}
			}
			return func(env *Env, in Value) Value { return rangeIncludes(env.rt, r, in) }
		}
	}
	if lit, ok := literalValue(n); ok {
		return func(env *Env, in Value) Value {
			r, ok := equal(in, lit)
			if !ok {
				return false
			}
			return r
		}
	}
	f := c.compile(n)
	q := usesInput(n)
	return func(env *Env, in Value) Value {
		e := env
		if q {
			e = env.With("?", in)
		}
		v := f(e)
		switch r := v.(type) {
		case bool:
			if q || (!inOp && !isBool(in)) {
				return r
			}
		case []Value:
			for _, item := range r {
				if rg, isRange := item.(Range); isRange {
					if rangeIncludes(env.rt, rg, in) == true {
						return true
					}
					continue
				}
				if eq, ok := equal(in, item); ok && eq {
					return true
				}
			}
			if _, inList := in.([]Value); inList {
				if eq, ok := equal(in, r); ok && eq {
					return true
				}
			}
			return false
		case Range:
			return rangeIncludes(env.rt, r, in)
		}
		if v == nil && in != nil {
			return false
		}
		eq, ok := equal(in, v)
		if !ok {
			return false
		}
		return eq
	}
}

func isBool(v Value) bool { _, ok := v.(bool); return ok }

// constRange folds a range literal with literal, comparable endpoints.
func constRange(x *RangeLit) (Range, bool) {
	lo, ok1 := literalValue(x.Low)
	hi, ok2 := literalValue(x.High)
	if !ok1 || !ok2 {
		return Range{}, false
	}
	if _, ok := compare(lo, hi); !ok {
		return Range{}, false
	}
	return Range{Start: lo, End: hi, StartIncluded: x.LowIncluded, EndIncluded: x.HighIncluded}, true
}

func unaryCmp(rt *Runtime, op Op, in, v Value) Value {
	switch op {
	case OpEq:
		r, ok := equal(in, v)
		if !ok {
			return false
		}
		return r
	case OpNeq:
		r, ok := equal(in, v)
		if !ok {
			return false
		}
		return !r
	}
	if in == nil || v == nil {
		return nil
	}
	return cmpOp(rt, op, in, v)
}

// rangeIncludes reports whether r contains x (null when not comparable).
func rangeIncludes(rt *Runtime, r Range, x Value) Value {
	if x == nil {
		return rt.warn("range test on null")
	}
	switch r.op {
	case '=':
		eq, _ := equal(x, r.Start)
		return eq
	case '!':
		eq, _ := equal(x, r.Start)
		return !eq
	}
	if (!r.StartUnbounded && r.Start == nil) || (!r.EndUnbounded && r.End == nil) {
		return rt.warn("range with a null endpoint")
	}
	if !r.StartUnbounded {
		c, ok := compare(r.Start, x)
		if !ok {
			return nil
		}
		if c > 0 || (c == 0 && !r.StartIncluded) {
			return false
		}
	}
	if !r.EndUnbounded {
		c, ok := compare(x, r.End)
		if !ok {
			return nil
		}
		if c > 0 || (c == 0 && !r.EndIncluded) {
			return false
		}
	}
	return true
}

// Inspect walks the syntax tree in depth-first order like go/ast.Inspect:
// f is called for each node; when it returns false the node's children are skipped.
func Inspect(n Node, f func(Node) bool) {
	if n == nil || !f(n) {
		return
	}
	walk := func(ns ...Node) {
		for _, c := range ns {
			if c != nil {
				Inspect(c, f)
			}
		}
	}
	switch x := n.(type) {
	case *Path:
		walk(x.X)
	case *Filter:
		walk(x.X, x.Filter)
	case *Call:
		walk(x.Fun)
		walk(x.Args...)
		for _, a := range x.Named {
			walk(a.Value)
		}
	case *Binary:
		walk(x.X, x.Y)
	case *Negation:
		walk(x.X)
	case *Between:
		walk(x.X, x.Low, x.High)
	case *In:
		walk(x.X)
		walk(x.Tests...)
	case *InstanceOf:
		walk(x.X)
	case *If:
		walk(x.Cond, x.Then, x.Else)
	case *For:
		for _, it := range x.Iters {
			walk(it.In, it.To)
		}
		walk(x.Return)
	case *Quantified:
		for _, it := range x.Iters {
			walk(it.In, it.To)
		}
		walk(x.Satisfies)
	case *List:
		walk(x.Elems...)
	case *ContextLit:
		for _, e := range x.Entries {
			walk(e.Value)
		}
	case *FuncDef:
		walk(x.Body)
	case *RangeLit:
		walk(x.Low, x.High)
	case *UnaryCompare:
		walk(x.X)
	case *UnaryTests:
		walk(x.Tests...)
	}
}

// Index returns the position of the first positive test that in satisfies,
// or -1 (used to rank decision table outputs by their output values).
// Outside Runtime.Run it is an evaluation of its own.
func (t *Tests) Index(env *Env, in Value) int {
	if !env.rt.guarded() {
		r := -1
		env.rt.evalAlone(func() { r = t.Index(env, in) })
		return r
	}
	for i, f := range t.tests {
		if f(env, in) == true {
			return i
		}
	}
	return -1
}

// Len is the number of positive tests.
func (t *Tests) Len() int { return len(t.tests) }
