package feel

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/cockroachdb/apd/v3"
)

// Runtime carries the per-evaluation state: the clock for now() and
// today(), the warnings that invalid operations produce (FEEL gives null
// plus a warning instead of failing), and the budget of the evaluation
// (see Run): a budget error stops the evaluation instead of giving null,
// and Run returns it.
type Runtime struct {
	// Now is the instant now() and today() return; zero means time.Now().
	Now time.Time
	// Warnings collects messages of operations that evaluated to null.
	Warnings []string
	// MaxWarnings caps Warnings (0: 100).
	MaxWarnings int
	// Unknown collects the names of variables that were referenced but not
	// found (they evaluate to null).
	Unknown []string
	// Errors collects what the host records with Fail: conditions that
	// make the host's evaluation fail instead of giving null (dmn records
	// an expression that did not compile when evaluation reaches it).
	Errors []error

	b budget
}

// Fail records err in Errors and its text in Warnings, and returns null.
func (rt *Runtime) Fail(err error) Value {
	if rt == nil {
		return nil
	}
	if len(rt.Errors) < 100 {
		rt.Errors = append(rt.Errors, err)
	}
	return rt.warn(err.Error())
}

func (rt *Runtime) warn(msg string) Value {
	if rt == nil {
		return nil
	}
	max := rt.MaxWarnings
	if max == 0 {
		max = 100
	}
	if len(rt.Warnings) < max {
		rt.Warnings = append(rt.Warnings, msg)
	}
	return nil
}

func (rt *Runtime) warnf(format string, args ...any) Value {
	if rt == nil {
		return nil
	}
	return rt.warn(fmt.Sprintf(format, args...))
}

func (rt *Runtime) now() time.Time {
	if rt == nil || rt.Now.IsZero() {
		return time.Now()
	}
	return rt.Now
}

// Env is a chain of variable frames an expression evaluates in. Frames are
// immutable once built; With and WithContext make child frames.
type Env struct {
	parent *Env
	rt     *Runtime
	names  []string
	vals   []Value
	ctx    *Context
	vars   map[string]Value
}

// NewEnv returns a root environment over vars (which it does not copy or
// modify) evaluating with rt (nil: a fresh Runtime).
func NewEnv(rt *Runtime, vars map[string]Value) *Env {
	if rt == nil {
		rt = &Runtime{}
	}
	return &Env{rt: rt, vars: vars}
}

// NewContextEnv returns a root environment whose variables are the
// entries of c, evaluating with rt (nil: a fresh Runtime).
func NewContextEnv(rt *Runtime, c *Context) *Env {
	if rt == nil {
		rt = &Runtime{}
	}
	return &Env{rt: rt, ctx: c}
}

// Runtime returns the environment's runtime.
func (e *Env) Runtime() *Runtime { return e.rt }

// NewFrameEnv returns a root environment binding names[i] to vals[i]
// (slices used as they are) evaluating with rt.
func NewFrameEnv(rt *Runtime, names []string, vals []Value) *Env {
	return &Env{rt: rt, names: names, vals: vals}
}

// With returns a child environment binding name to v.
func (e *Env) With(name string, v Value) *Env {
	return &Env{parent: e, rt: e.rt, names: []string{name}, vals: []Value{v}}
}

// WithContext returns a child environment whose variables are the entries of c.
func (e *Env) WithContext(c *Context) *Env {
	return &Env{parent: e, rt: e.rt, ctx: c}
}

// WithVars returns a child environment over a map of variables.
func (e *Env) WithVars(vars map[string]Value) *Env {
	return &Env{parent: e, rt: e.rt, vars: vars}
}

// Lookup finds a variable, innermost frame first.
func (e *Env) Lookup(name string) (Value, bool) {
	for f := e; f != nil; f = f.parent {
		for i := len(f.names) - 1; i >= 0; i-- {
			if f.names[i] == name {
				return f.vals[i], true
			}
		}
		if f.ctx != nil {
			if v, ok := f.ctx.Get(name); ok {
				return v, true
			}
		}
		if f.vars != nil {
			if v, ok := f.vars[name]; ok {
				return v, true
			}
		}
	}
	return nil, false
}

type evalFn func(env *Env) Value

// Expression is a compiled FEEL expression; it is safe for concurrent use.
type Expression struct {
	src string
	ast Node
	fn  evalFn
}

// Source returns the expression text.
func (x *Expression) Source() string { return x.src }

// AST returns the parsed expression.
func (x *Expression) AST() Node { return x.ast }

// Eval evaluates the expression in env. Outside Runtime.Run it is an
// evaluation of its own: a budget error makes it null and is recorded in
// env.Runtime().Errors.
func (x *Expression) Eval(env *Env) Value {
	if env.rt.b.guarded {
		return x.fn(env) // small enough to inline: the hot path inside Run
	}
	return x.evalAlone(env)
}

// evalAlone is Runtime.evalAlone without its closure, for callers that
// evaluate one expression at a time.
func (x *Expression) evalAlone(env *Env) (v Value) {
	rt := env.rt
	rt.b = defaultBudget
	rt.b.guarded = true
	defer rt.endAlone(&v)
	return x.fn(env)
}

// CompileExpr parses and compiles an expression.
func CompileExpr(src string, scope *Scope) (*Expression, error) {
	n, err := ParseExpr(src, scope)
	if err != nil {
		return nil, err
	}
	c := &compiler{scope: scope, src: src}
	return &Expression{src: src, ast: n, fn: c.compile(n)}, nil
}

// CompileNode compiles an already parsed expression.
func CompileNode(n Node, src string, scope *Scope) *Expression {
	c := &compiler{scope: scope, src: src}
	return &Expression{src: src, ast: n, fn: c.compile(n)}
}

// Eval parses and evaluates src once with vars (a convenience for tests and tools).
func Eval(src string, vars map[string]Value) (Value, error) {
	names := make([]string, 0, len(vars))
	for k := range vars {
		names = append(names, k)
	}
	x, err := CompileExpr(src, &Scope{Names: names})
	if err != nil {
		return nil, err
	}
	return x.Eval(NewEnv(nil, vars)), nil
}

type compiler struct {
	scope *Scope
	src   string
}

func constFn(v Value) evalFn { return func(*Env) Value { return v } }

func (c *compiler) compile(n Node) evalFn {
	switch x := n.(type) {
	case *NumberLit:
		return constFn(x.Value)
	case *StringLit:
		return constFn(x.Value)
	case *BoolLit:
		return constFn(x.Value)
	case *NullLit:
		return constFn(nil)
	case *TemporalLit:
		v, ok := parseTemporal(x.Text)
		if !ok {
			text := x.Text
			return func(env *Env) Value { return env.rt.warnf("invalid temporal literal @%q", text) }
		}
		return constFn(v)
	case *Name:
		return c.compileName(x.Name)
	case *Path:
		xf := c.compile(x.X)
		name := x.Name
		return func(env *Env) Value { return member(env.rt, xf(env), name) }
	case *Filter:
		return c.compileFilter(x)
	case *Call:
		return c.compileCall(x)
	case *Binary:
		return c.compileBinary(x)
	case *Negation:
		xf := c.compile(x.X)
		return func(env *Env) Value { return negate(env.rt, xf(env)) }
	case *Between:
		return c.compileBetween(x)
	case *In:
		return c.compileIn(x)
	case *InstanceOf:
		return c.compileInstanceOf(x)
	case *If:
		cf, tf, ef := c.compile(x.Cond), c.compile(x.Then), c.compile(x.Else)
		return func(env *Env) Value {
			if b, ok := cf(env).(bool); ok && b {
				return tf(env)
			}
			return ef(env)
		}
	case *For:
		return c.compileFor(x)
	case *Quantified:
		return c.compileQuantified(x)
	case *List:
		return c.compileList(x)
	case *ContextLit:
		return c.compileContextLit(x)
	case *FuncDef:
		return c.compileFuncDef(x)
	case *RangeLit:
		return c.compileRangeLit(x)
	case *UnaryCompare:
		return c.compileUnaryCompare(x)
	case *UnaryTests:
		return func(env *Env) Value { return env.rt.warn("unary tests used as an expression") }
	}
	return func(env *Env) Value { return env.rt.warnf("unsupported expression %T", n) }
}

func (c *compiler) compileBetween(x *Between) evalFn {
	xf, lf, hf := c.compile(x.X), c.compile(x.Low), c.compile(x.High)
	return func(env *Env) Value {
		v, lo, hi := xf(env), lf(env), hf(env)
		c1, ok1 := compare(lo, v)
		c2, ok2 := compare(v, hi)
		if !ok1 || !ok2 {
			return env.rt.warn("between: values are not comparable")
		}
		return c1 <= 0 && c2 <= 0
	}
}

func (c *compiler) compileIn(x *In) evalFn {
	xf := c.compile(x.X)
	tests := make([]testFn, len(x.Tests))
	for i, t := range x.Tests {
		tests[i] = c.compileTest(t, true)
	}
	return func(env *Env) Value {
		v := xf(env)
		var sawNull bool
		for _, t := range tests {
			switch t(env, v) {
			case true:
				return true
			case nil:
				sawNull = true
			}
		}
		if sawNull {
			return nil
		}
		return false
	}
}

func (c *compiler) compileInstanceOf(x *InstanceOf) evalFn {
	xf := c.compile(x.X)
	t, ok := resolveTypeNode(x.Type, c.scope)
	if !ok {
		name := c.src
		return func(env *Env) Value { return env.rt.warnf("unknown type in %q", name) }
	}
	return func(env *Env) Value {
		v := xf(env)
		if t.Kind == KindAny {
			return v != nil
		}
		return t.conformsC(v, env.rt, false)
	}
}

func (c *compiler) compileList(x *List) evalFn {
	fs := make([]evalFn, len(x.Elems))
	for i, e := range x.Elems {
		fs[i] = c.compile(e)
	}
	return func(env *Env) Value {
		env.rt.addRows(len(fs))
		l := make([]Value, len(fs))
		for i, f := range fs {
			l[i] = f(env)
		}
		return l
	}
}

func (c *compiler) compileContextLit(x *ContextLit) evalFn {
	keys := make([]string, len(x.Entries))
	fs := make([]evalFn, len(x.Entries))
	for i, e := range x.Entries {
		keys[i] = e.Key
		fs[i] = c.compile(e.Value)
	}
	return func(env *Env) Value {
		ctx := NewContext(len(keys))
		inner := env.WithContext(ctx)
		for i, f := range fs {
			if _, dup := ctx.Get(keys[i]); dup {
				return env.rt.warnf("duplicate context key %q", keys[i])
			}
			ctx.Put(keys[i], f(inner))
		}
		return ctx
	}
}

func (c *compiler) compileRangeLit(x *RangeLit) evalFn {
	if r, ok := constRange(x); ok {
		return constFn(r)
	}
	sf, ef := c.compile(x.Low), c.compile(x.High)
	si, ei := x.LowIncluded, x.HighIncluded
	return func(env *Env) Value {
		s, e := sf(env), ef(env)
		if s == nil && e == nil {
			return env.rt.warn("range with two null endpoints")
		}
		if s != nil && e != nil {
			if _, ok := compare(s, e); !ok {
				return env.rt.warn("range endpoints are not comparable")
			}
		} else if !rangeEndpointOK(s) || !rangeEndpointOK(e) {
			return env.rt.warn("invalid range endpoint")
		}
		return Range{Start: s, End: e, StartIncluded: si, EndIncluded: ei}
	}
}

func (c *compiler) compileUnaryCompare(x *UnaryCompare) evalFn {
	xf := c.compile(x.X)
	op := x.Op
	return func(env *Env) Value {
		v := xf(env)
		if v == nil || !rangeEndpointOK(v) {
			return env.rt.warn("invalid unary test operand")
		}
		switch op {
		case OpLt:
			return Range{StartUnbounded: true, End: v}
		case OpLe:
			return Range{StartUnbounded: true, End: v, EndIncluded: true}
		case OpGt:
			return Range{EndUnbounded: true, Start: v}
		case OpGe:
			return Range{EndUnbounded: true, Start: v, StartIncluded: true}
		case OpEq:
			return Range{Start: v, End: v, StartIncluded: true, EndIncluded: true, op: '='}
		case OpNeq:
			return Range{Start: v, End: v, op: '!'}
		}
		return nil
	}
}

func rangeEndpointOK(v Value) bool {
	switch v.(type) {
	case nil, *apd.Decimal, string, Date, Time, DateTime, Duration, YearsMonths:
		return true
	}
	return false
}

func parseTemporal(s string) (Value, bool) {
	if strings.HasPrefix(s, "P") || strings.HasPrefix(s, "-P") {
		return ParseDuration(s)
	}
	if strings.Contains(s, "T") {
		dt, ok := ParseDateTime(s)
		return dt, ok
	}
	if len(s) > 2 && s[2] == ':' {
		t, ok := ParseTime(s)
		return t, ok
	}
	d, ok := ParseDate(s)
	return d, ok
}

func (c *compiler) compileName(name string) evalFn {
	b := builtinTable[name]
	return func(env *Env) Value {
		if v, ok := env.Lookup(name); ok {
			return v
		}
		if b != nil {
			return b
		}
		if len(env.rt.Unknown) < 100 {
			env.rt.Unknown = append(env.rt.Unknown, name)
		}
		return env.rt.warnf("unknown variable %q", name)
	}
}

// member implements path access x.name.
func member(rt *Runtime, x Value, name string) Value {
	switch v := x.(type) {
	case *Context:
		if r, ok := v.Get(name); ok {
			return r
		}
		return rt.warnf("no context entry %q", name)
	case []Value:
		out := make([]Value, len(v))
		for i, e := range v {
			out[i] = member(rt, e, name)
		}
		return out
	case Date:
		switch name {
		case "year":
			return Number(int64(v.Year))
		case "month":
			return Number(int64(v.Month))
		case "day":
			return Number(int64(v.Day))
		case "weekday":
			return Number(int64(isoWeekday(v)))
		}
	case DateTime:
		switch name {
		case "year":
			return Number(int64(v.Year))
		case "month":
			return Number(int64(v.Month))
		case "day":
			return Number(int64(v.Day))
		case "weekday":
			return Number(int64(isoWeekday(v.Date())))
		case "hour", "minute", "second", "time offset", "timezone":
			return timeMember(v.Time(), v, name)
		}
	case Time:
		return timeMember(v, nil, name)
	case Duration:
		switch name {
		case "days":
			return Number(v.Sec / 86400)
		case "hours":
			return Number(v.Sec / 3600 % 24)
		case "minutes":
			return Number(v.Sec / 60 % 60)
		case "seconds":
			if v.Nano != 0 {
				return durationSeconds(Duration{Sec: v.Sec % 60, Nano: v.Nano})
			}
			return Number(v.Sec % 60)
		}
	case YearsMonths:
		switch name {
		case "years":
			return Number(int64(v) / 12)
		case "months":
			return Number(int64(v) % 12)
		}
	case Range:
		switch name {
		case "start":
			return v.Start
		case "end":
			return v.End
		case "start included":
			return v.StartIncluded
		case "end included":
			return v.EndIncluded
		}
	}
	return rt.warnf("no member %q on %s", name, Kind(x))
}

func timeMember(t Time, dt Value, name string) Value {
	switch name {
	case "hour":
		return Number(int64(t.Hour))
	case "minute":
		return Number(int64(t.Minute))
	case "second":
		if t.Nanosecond != 0 {
			return durationSeconds(Duration{Sec: int64(t.Second), Nano: int32(t.Nanosecond)})
		}
		return Number(int64(t.Second))
	case "time offset":
		switch t.Zone.Kind {
		case ZoneOffset:
			return Duration{Sec: int64(t.Zone.Offset)}
		case ZoneName:
			if d, ok := dt.(DateTime); ok {
				_, off := d.goTime().Zone()
				return Duration{Sec: int64(off)}
			}
		}
		return nil
	case "timezone":
		if t.Zone.Kind == ZoneName {
			return t.Zone.Name
		}
		return nil
	}
	return nil
}

func isoWeekday(d Date) int {
	w := int(d.goTime().Weekday())
	if w == 0 {
		return 7
	}
	return w
}

func negate(rt *Runtime, v Value) Value {
	switch x := v.(type) {
	case *apd.Decimal:
		r := new(apd.Decimal)
		r.Neg(x)
		return r
	case Duration:
		return x.neg()
	case YearsMonths:
		return -x
	}
	return rt.warnf("cannot negate %s", Kind(v))
}

func (c *compiler) compileBinary(x *Binary) evalFn {
	xf, yf := c.compile(x.X), c.compile(x.Y)
	op := x.Op
	switch op {
	case OpAnd:
		return func(env *Env) Value {
			a := xf(env)
			if a == false {
				return false
			}
			b := yf(env)
			if b == false {
				return false
			}
			if a == true && b == true {
				return true
			}
			return nil
		}
	case OpOr:
		return func(env *Env) Value {
			a := xf(env)
			if a == true {
				return true
			}
			b := yf(env)
			if b == true {
				return true
			}
			if a == false && b == false {
				return false
			}
			return nil
		}
	case OpEq:
		return func(env *Env) Value {
			a, b := xf(env), yf(env)
			r, ok := equal(a, b)
			if !ok {
				return env.rt.warnf("cannot compare %s = %s", Kind(a), Kind(b))
			}
			return r
		}
	case OpNeq:
		return func(env *Env) Value {
			a, b := xf(env), yf(env)
			r, ok := equal(a, b)
			if !ok {
				return env.rt.warnf("cannot compare %s != %s", Kind(a), Kind(b))
			}
			return !r
		}
	case OpLt, OpLe, OpGt, OpGe:
		return func(env *Env) Value {
			a, b := xf(env), yf(env)
			return cmpOp(env.rt, op, a, b)
		}
	}
	return func(env *Env) Value { return env.rt.arith(op, xf(env), yf(env)) }
}

func cmpOp(rt *Runtime, op Op, a, b Value) Value {
	r, ok := compare(a, b)
	if !ok {
		if a == nil || b == nil {
			return nil
		}
		return rt.warnf("cannot compare %s %s %s", Kind(a), op, Kind(b))
	}
	switch op {
	case OpLt:
		return r < 0
	case OpLe:
		return r <= 0
	case OpGt:
		return r > 0
	case OpGe:
		return r >= 0
	}
	return nil
}

func (c *compiler) compileFilter(x *Filter) evalFn {
	lf := c.compile(x.X)
	ff := c.compile(x.Filter)
	_, constNum := x.Filter.(*NumberLit)
	if n, ok := x.Filter.(*Negation); ok {
		_, constNum = n.X.(*NumberLit)
	}
	return func(env *Env) Value {
		lv := lf(env)
		list, isList := lv.([]Value)
		if !isList {
			if lv == nil {
				return nil
			}
			list = []Value{lv}
		}
		if constNum {
			return index(env.rt, list, ff(env))
		}
		var out []Value
		for i, item := range list {
			env.rt.step(1)
			inner := env.With("item", item)
			if ctx, ok := item.(*Context); ok {
				inner = &Env{parent: inner, rt: env.rt, ctx: ctx}
			}
			r := ff(inner)
			if i == 0 {
				if _, isNum := r.(*apd.Decimal); isNum {
					return index(env.rt, list, r)
				}
			}
			if r == true {
				out = append(out, item)
			}
		}
		if len(list) == 0 {
			if r, isNum := ff(env).(*apd.Decimal); isNum {
				return index(env.rt, list, r)
			}
		}
		if out == nil {
			out = []Value{}
		}
		env.rt.addRows(len(out))
		return out
	}
}

func index(rt *Runtime, list []Value, iv Value) Value {
	d, ok := iv.(*apd.Decimal)
	if !ok {
		if b, isBool := iv.(bool); isBool {
			if b {
				return list
			}
			return []Value{}
		}
		return rt.warn("filter is neither boolean nor number")
	}
	i, err := d.Int64()
	if err != nil || !isIntegral(d) {
		return rt.warn("list index is not an integer")
	}
	n := int64(len(list))
	switch {
	case i > 0 && i <= n:
		return list[i-1]
	case i < 0 && -i <= n:
		return list[n+i]
	}
	return rt.warnf("list index %d out of range", i)
}

func (c *compiler) compileCall(x *Call) evalFn {
	ff := c.compile(x.Fun)
	if x.Named != nil {
		names := make([]string, len(x.Named))
		fs := make([]evalFn, len(x.Named))
		for i, a := range x.Named {
			names[i] = a.Name
			fs[i] = c.compile(a.Value)
		}
		return func(env *Env) Value {
			fv := ff(env)
			fn, ok := fv.(*Function)
			if !ok {
				return env.rt.warnf("%s is not a function", Kind(fv))
			}
			vals := make([]Value, len(fs))
			for i, f := range fs {
				vals[i] = f(env)
			}
			return fn.CallNamed(env.rt, names, vals)
		}
	}
	fs := make([]evalFn, len(x.Args))
	for i, a := range x.Args {
		fs[i] = c.compile(a)
	}
	return func(env *Env) Value {
		fv := ff(env)
		fn, ok := fv.(*Function)
		if !ok {
			return env.rt.warnf("%s is not a function", Kind(fv))
		}
		args := make([]Value, len(fs))
		for i, f := range fs {
			args[i] = f(env)
		}
		return fn.Call(env.rt, args)
	}
}

// Call invokes f with positional arguments. Outside Runtime.Run it is an
// evaluation of its own (see Expression.Eval).
func (f *Function) Call(rt *Runtime, args []Value) Value {
	if rt == nil {
		rt = &Runtime{}
	}
	if !rt.guarded() {
		var v Value
		rt.evalAlone(func() { v = f.Call(rt, args) })
		return v
	}
	if f.overloads != nil {
		for _, o := range f.overloads {
			if o.accepts(len(args)) {
				return o.invoke(rt, args)
			}
		}
		return rt.warnf("%s: no variant takes %d arguments", f.Name, len(args))
	}
	if !f.accepts(len(args)) {
		return rt.warnf("%s: expected %d arguments, got %d", f.Name, len(f.Params), len(args))
	}
	return f.invoke(rt, args)
}

func (f *Function) accepts(n int) bool {
	if f.variadic {
		return n >= f.required
	}
	return n >= f.required && n <= len(f.Params)
}

// invoke calls f, counting a built-in's result and a user-defined
// function's depth against the budget.
func (f *Function) invoke(rt *Runtime, args []Value) Value {
	if f.isBuiltin {
		v := f.call(rt, args)
		rt.account(v)
		return v
	}
	rt.enterCall()
	v := f.call(rt, args)
	rt.leaveCall()
	return v
}

// CallNamed invokes f with named arguments. Outside Runtime.Run it is an
// evaluation of its own (see Expression.Eval).
func (f *Function) CallNamed(rt *Runtime, names []string, vals []Value) Value {
	if rt == nil {
		rt = &Runtime{}
	}
	if !rt.guarded() {
		var v Value
		rt.evalAlone(func() { v = f.CallNamed(rt, names, vals) })
		return v
	}
	cands := f.overloads
	if cands == nil {
		cands = []*Function{f}
	}
	// first a variant that has every required parameter; user functions
	// take missing named parameters as null
	for _, o := range cands {
		args, set, ok := o.bindNamed(names, vals)
		if !ok {
			continue
		}
		last, missing := 0, false
		for j := range set {
			if set[j] {
				last = j + 1
			} else if j < o.required {
				missing = true
			}
		}
		if !missing {
			return o.invoke(rt, args[:max(last, o.required)])
		}
		if o.userDefined() {
			return o.invoke(rt, args)
		}
	}
	// then any variant that knows every name; missing parameters are null
	for _, o := range cands {
		if args, _, ok := o.bindNamed(names, vals); ok {
			return o.invoke(rt, args)
		}
	}
	return rt.warnf("%s: no variant takes parameters %s", f.Name, strings.Join(names, ", "))
}

// bindNamed places named arguments at their parameters' positions; ok is
// false when a name is unknown or repeated, or the function is variadic.
func (f *Function) bindNamed(names []string, vals []Value) (args []Value, set []bool, ok bool) {
	if f.variadic {
		return nil, nil, false
	}
	args = make([]Value, len(f.Params))
	set = make([]bool, len(f.Params))
	for i, n := range names {
		j := slices.IndexFunc(f.Params, func(p Param) bool { return p.Name == n })
		if j < 0 || set[j] {
			return nil, nil, false
		}
		args[j], set[j] = vals[i], true
	}
	return args, set, true
}

func (f *Function) userDefined() bool { return !f.isBuiltin }

func (c *compiler) compileFuncDef(x *FuncDef) evalFn {
	params := make([]Param, len(x.Params))
	for i, p := range x.Params {
		params[i].Name = p.Name
		if p.Type != nil {
			t, ok := resolveTypeNode(p.Type, c.scope)
			if ok {
				params[i].Type = t
			}
		}
	}
	body := c.compile(x.Body)
	if x.External {
		return func(env *Env) Value { return externalFunction(env.rt, params, body(env)) }
	}
	return func(env *Env) Value {
		closure := env
		f := &Function{Name: "anonymous function", Params: params, required: len(params)}
		f.call = func(rt *Runtime, args []Value) Value {
			inner := &Env{parent: closure, rt: rt, names: make([]string, len(params)), vals: make([]Value, len(params))}
			for i, p := range params {
				var a Value
				if i < len(args) {
					a = args[i]
				}
				if p.Type != nil {
					cv, ok := p.Type.coerce(a, rt)
					if !ok {
						return rt.warnf("argument %q does not conform to %s", p.Name, p.Type)
					}
					a = cv
				}
				inner.names[i] = p.Name
				inner.vals[i] = a
			}
			return body(inner)
		}
		return f
	}
}

// domain is what an iteration runs over: a list, or (ints) the integers
// from lo to hi by step, which are made one at a time instead of as a list.
type domain struct {
	list         []Value
	ints         bool
	lo, hi, step int64
}

// each calls f for every item in order until f returns false, counting
// a step of the budget per item; it reports whether f never did.
func (d domain) each(rt *Runtime, f func(Value) bool) bool {
	if !d.ints {
		for _, item := range d.list {
			rt.step(1)
			if !f(item) {
				return false
			}
		}
		return true
	}
	for i := d.lo; ; i += d.step {
		rt.step(1)
		if !f(apd.New(i, 0)) {
			return false
		}
		if i == d.hi {
			return true
		}
	}
}

// iterDomain evaluates the domain of an iteration.
func iterDomain(env *Env, in, to evalFn) (domain, bool) {
	v := in(env)
	if to != nil {
		e := to(env)
		if d1, ok := v.(Date); ok {
			if d2, ok := e.(Date); ok {
				return dateSeq(env.rt, d1, d2), true
			}
		}
		a, ok1 := v.(*apd.Decimal)
		b, ok2 := e.(*apd.Decimal)
		if !ok1 || !ok2 || !isIntegral(a) || !isIntegral(b) {
			return domain{}, false
		}
		return intSeq(a, b)
	}
	switch x := v.(type) {
	case []Value:
		return domain{list: x}, true
	case Range:
		if c, ok := compare(x.Start, x.End); !ok || c > 0 || x.op != 0 {
			return domain{}, false
		}
		a, ok1 := x.Start.(*apd.Decimal)
		b, ok2 := x.End.(*apd.Decimal)
		if ok1 && ok2 && isIntegral(a) && isIntegral(b) && !x.StartUnbounded && !x.EndUnbounded {
			lo, _ := a.Int64()
			hi, _ := b.Int64()
			if !x.StartIncluded {
				lo++
			}
			if !x.EndIncluded {
				hi--
			}
			return intSeq(apd.New(lo, 0), apd.New(hi, 0))
		}
		if d1, ok := x.Start.(Date); ok && !x.EndUnbounded {
			if d2, ok := x.End.(Date); ok {
				var out []Value
				cur := d1.goTime()
				if !x.StartIncluded {
					cur = cur.AddDate(0, 0, 1)
				}
				last := d2.goTime()
				for !cur.After(last) {
					d := dateFromGo(cur)
					if d == d2 && !x.EndIncluded {
						break
					}
					env.rt.addRows(1)
					out = append(out, d)
					cur = cur.AddDate(0, 0, 1)
				}
				return domain{list: out}, true
			}
		}
		return domain{}, false
	case nil:
		return domain{}, false
	}
	return domain{list: []Value{v}}, true
}

// dateSeq lists the days from a to b, counting them against MaxRows.
func dateSeq(rt *Runtime, a, b Date) domain {
	step := 1
	if c, _ := compare(a, b); c > 0 {
		step = -1
	}
	var out []Value
	cur := a.goTime()
	for {
		rt.addRows(1)
		d := dateFromGo(cur)
		out = append(out, d)
		if d == b {
			return domain{list: out}
		}
		cur = cur.AddDate(0, 0, step)
	}
}

func intSeq(a, b *apd.Decimal) (domain, bool) {
	lo, err1 := a.Int64()
	hi, err2 := b.Int64()
	if err1 != nil || err2 != nil {
		return domain{}, false
	}
	step := int64(1)
	if hi < lo {
		step = -1
	}
	return domain{ints: true, lo: lo, hi: hi, step: step}, true
}

type compiledIter struct {
	name   string
	in, to evalFn
}

func (c *compiler) compileIters(its []Iteration) []compiledIter {
	out := make([]compiledIter, len(its))
	for i, it := range its {
		out[i] = compiledIter{name: it.Name, in: c.compile(it.In)}
		if it.To != nil {
			out[i].to = c.compile(it.To)
		}
	}
	return out
}

func (c *compiler) compileFor(x *For) evalFn {
	its := c.compileIters(x.Iters)
	ret := c.compile(x.Return)
	return func(env *Env) Value {
		out := []Value{}
		partial := &Env{parent: env, rt: env.rt, names: []string{"partial"}, vals: []Value{out}}
		var rec func(i int, e *Env) bool
		rec = func(i int, e *Env) bool {
			if i == len(its) {
				v := ret(e)
				e.rt.addRows(1)
				out = append(out, v)
				partial.vals[0] = out
				return true
			}
			dom, ok := iterDomain(e, its[i].in, its[i].to)
			if !ok {
				return false
			}
			return dom.each(e.rt, func(item Value) bool { return rec(i+1, e.With(its[i].name, item)) })
		}
		if !rec(0, partial) {
			return env.rt.warn("for: iteration domain is not a list or integer range")
		}
		return out
	}
}

func (c *compiler) compileQuantified(x *Quantified) evalFn {
	its := c.compileIters(x.Iters)
	sat := c.compile(x.Satisfies)
	every := x.Every
	return func(env *Env) Value {
		found := false
		failed := false
		var rec func(i int, e *Env) bool // returns false to stop
		rec = func(i int, e *Env) bool {
			if i == len(its) {
				r := sat(e)
				if every {
					if r != true {
						found = true
						return false
					}
				} else if r == true {
					found = true
					return false
				}
				return true
			}
			dom, ok := iterDomain(e, its[i].in, its[i].to)
			if !ok {
				failed = true
				return false
			}
			return dom.each(e.rt, func(item Value) bool { return rec(i+1, e.With(its[i].name, item)) })
		}
		rec(0, env)
		if failed {
			return env.rt.warn("quantified expression: domain is not a list")
		}
		if every {
			return !found
		}
		return found
	}
}

// Warnf records a warning (an operation that evaluated to null) and returns null.
func (rt *Runtime) Warnf(format string, args ...any) Value { return rt.warnf(format, args...) }

// WithFrame returns a child environment binding names[i] to vals[i]. The
// slices are used as they are, not copied.
func (e *Env) WithFrame(names []string, vals []Value) *Env {
	return &Env{parent: e, rt: e.rt, names: names, vals: vals}
}
