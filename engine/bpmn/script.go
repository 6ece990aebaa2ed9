package bpmn

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dop251/goja"
)

// ScriptScope is the variable scope a script task runs against: it reads
// like Variables and lists and changes variables for execution.setVariable
// and execution.removeVariable. The runtime implements it over an
// execution; when it also implements ExecutionInfo, scripts can call
// execution.getProcessBusinessKey() and the like.
type ScriptScope interface {
	Variables
	VariableNames() []string
	SetVariable(name string, value any) error
	RemoveVariable(name string) error
}

// ScriptError is a script that failed: a JavaScript exception, a value
// that cannot be stored as a variable, a cancelled context.
type ScriptError struct {
	ElementID string // the script task (or listener's element)
	Msg       string
	Err       error // the cause, e.g. context.Canceled
}

func (e *ScriptError) Error() string {
	return fmt.Sprintf("bpmn: script of %q: %s", e.ElementID, e.Msg)
}

func (e *ScriptError) Unwrap() error { return e.Err }

// timeoutSignal is what the timer interrupts a runtime with.
type timeoutSignal struct{}

// RunScript runs a compiled script task (or listener or parameter
// script) and returns its completion value (the value of the last
// expression statement), as camunda:resultVariable stores it.
//
// The script sees every variable of scope as a global (a copy: assigning
// a global does not change the variable, as in Operaton; use
// execution.setVariable), the object execution with setVariable,
// getVariable, hasVariable, removeVariable (and setVariableLocal,
// getVariables, getProcessBusinessKey, getProcessInstanceId,
// getBusinessKey, getActivityId when scope knows them), a no-op print, and
// these java.lang shims, which convert as Java does and throw a
// NumberFormatException-like TypeError on bad input:
//
//	java.lang.Boolean.valueOf(x)   true for true and for "true" in any case, else false
//	java.lang.Integer.valueOf(x)   a whole number in 32 bits, from a number or decimal string (also parseInt)
//	java.lang.Long.valueOf(x)      a whole number in 64 bits (also parseLong)
//	java.lang.Double.valueOf(x)    a number, from a number or numeric string (also parseDouble)
//	java.lang.String.valueOf(x)    the string form; null gives "null"
//
// Objects and arrays among the variables are plain JavaScript values that
// also answer the Java Map and List methods (get, containsKey, getEntry,
// size, isEmpty), and a DecisionResult is an array of row objects that
// also answers getSingleResult, getFirstResult, getResultList,
// getSingleEntry, collectEntries, get and size: scripts written for
// Nashorn or GraalJS on Java collections and scripts written for plain
// JavaScript both work. There is no require, no file system and no
// network.
//
// Limits: Timeout interrupts the script (and so does ctx); MaxDepth
// bounds the JavaScript call stack and the nesting of stored values;
// MaxRows and MaxBytes bound every value stored with setVariable and the
// result. goja has no memory limit and checks for interrupts only between
// instructions, so RunScript also bounds the builtins that could run long
// or allocate much in one call (String repeat/padStart/padEnd by MaxBytes;
// the Array methods, Array.from and JSON.stringify refuse arrays longer
// than MaxRows), removes ArrayBuffer, DataView and the typed arrays (each
// guard is installed when the script's text names the builtin), and
// stops a run that grows the heap by more than 16 × MaxBytes (sampled
// every 10 ms, confirmed after a garbage collection). An exceeded limit is
// a *LimitError, a JavaScript failure a *ScriptError. Scripts come from
// deployments, which only trusted callers may make; these bounds keep a
// faulty script from taking the server down, they are not a sandbox for
// hostile code.
func RunScript(ctx context.Context, s *Script, scope ScriptScope, limits Limits) (any, error) {
	if s == nil || s.program == nil {
		return nil, &ScriptError{Msg: "script was not compiled"}
	}
	id := s.program.elementID
	if err := ctx.Err(); err != nil {
		return nil, &ScriptError{ElementID: id, Msg: err.Error(), Err: err}
	}
	lim := limits.resolved()
	vm := goja.New()
	if lim.MaxDepth > 0 {
		vm.SetMaxCallStackSize(lim.MaxDepth)
	}
	r := &scriptRun{vm: vm, scope: scope, lim: lim, id: id, guards: s.program.guards}
	if err := r.setup(); err != nil {
		return nil, err
	}
	stop := context.AfterFunc(ctx, func() { vm.Interrupt(ctx) })
	defer stop()
	if lim.Timeout > 0 {
		t := time.AfterFunc(lim.Timeout, func() { vm.Interrupt(timeoutSignal{}) })
		defer t.Stop()
	}
	if lim.MaxBytes > 0 {
		defer watchHeap(vm, heapFactor*lim.MaxBytes)()
	}
	v, err := vm.RunProgram(s.program.prog)
	if err != nil {
		return nil, r.failure(ctx, err)
	}
	out, err := r.fromJS(v, "result")
	if err != nil {
		return nil, err
	}
	return out, nil
}

type scriptRun struct {
	vm     *goja.Runtime
	scope  ScriptScope
	lim    Limits
	id     string
	guards guards
	// shared method values, created once per run
	mapMethods, listMethods, resultMethods map[string]goja.Value
}

func (r *scriptRun) failure(ctx context.Context, err error) error {
	var ie *goja.InterruptedError
	if errors.As(err, &ie) {
		switch v := ie.Value().(type) {
		case timeoutSignal:
			return &LimitError{Limit: "Timeout", Max: int64(r.lim.Timeout)}
		case *LimitError:
			return v
		case context.Context:
			return &ScriptError{ElementID: r.id, Msg: v.Err().Error(), Err: v.Err()}
		}
		return &ScriptError{ElementID: r.id, Msg: ie.Error()}
	}
	var so *goja.StackOverflowError
	if errors.As(err, &so) {
		return &LimitError{Limit: "MaxDepth", Max: int64(r.lim.MaxDepth)}
	}
	var ex *goja.Exception
	if errors.As(err, &ex) {
		// A Go error thrown from a host function keeps its type.
		if ge, ok := ex.Value().Export().(error); ok {
			var le *LimitError
			if errors.As(ge, &le) {
				return le
			}
		}
		return &ScriptError{ElementID: r.id, Msg: excerpt(ex.Error(), 500), Err: err}
	}
	return &ScriptError{ElementID: r.id, Msg: excerpt(err.Error(), 500), Err: err}
}

// throw aborts the script with err: a *LimitError interrupts it, so a
// try/catch in the script cannot swallow a bound.
func (r *scriptRun) throw(err error) {
	var le *LimitError
	if errors.As(err, &le) {
		r.vm.Interrupt(le)
	}
	panic(r.vm.NewGoError(err))
}

func (r *scriptRun) setup() error {
	vm := r.vm
	r.methods()
	r.guardBuiltins(r.guards)
	names := r.scope.VariableNames()
	sort.Strings(names)
	for _, name := range names {
		v, _ := r.scope.Variable(name)
		jv, err := r.toJS(v, 0)
		if err != nil {
			return &ScriptError{ElementID: r.id, Msg: fmt.Sprintf("variable %q: %v", name, err)}
		}
		if err := vm.Set(name, jv); err != nil {
			return &ScriptError{ElementID: r.id, Msg: err.Error()}
		}
	}
	ex := vm.NewObject()
	str := func(call goja.FunctionCall, i int) string {
		a := call.Argument(i)
		if goja.IsUndefined(a) || goja.IsNull(a) {
			panic(vm.NewTypeError("variable name is null"))
		}
		return a.String()
	}
	set := func(call goja.FunctionCall) goja.Value {
		name := str(call, 0)
		v, err := r.fromJS(call.Argument(1), name)
		if err != nil {
			r.throw(err)
		}
		if err := r.scope.SetVariable(name, v); err != nil {
			r.throw(err)
		}
		return goja.Undefined()
	}
	_ = ex.Set("setVariable", set)
	_ = ex.Set("setVariableLocal", set)
	get := func(call goja.FunctionCall) goja.Value {
		v, ok := r.scope.Variable(str(call, 0))
		if !ok {
			return goja.Null()
		}
		jv, err := r.toJS(v, 0)
		if err != nil {
			r.throw(err)
		}
		return jv
	}
	_ = ex.Set("getVariable", get)
	_ = ex.Set("getVariableLocal", get)
	has := func(call goja.FunctionCall) goja.Value {
		_, ok := r.scope.Variable(str(call, 0))
		return vm.ToValue(ok)
	}
	_ = ex.Set("hasVariable", has)
	_ = ex.Set("hasVariableLocal", has)
	_ = ex.Set("removeVariable", func(call goja.FunctionCall) goja.Value {
		if err := r.scope.RemoveVariable(str(call, 0)); err != nil {
			r.throw(err)
		}
		return goja.Undefined()
	})
	_ = ex.Set("getVariables", func(goja.FunctionCall) goja.Value {
		m := map[string]any{}
		for _, n := range r.scope.VariableNames() {
			m[n], _ = r.scope.Variable(n)
		}
		jv, err := r.toJS(m, 0)
		if err != nil {
			r.throw(err)
		}
		return jv
	})
	if info, ok := r.scope.(ExecutionInfo); ok {
		for _, prop := range []string{"processBusinessKey", "businessKey", "processInstanceId", "id", "activityId", "processDefinitionId", "tenantId"} {
			v, ok := info.ExecutionProperty(prop)
			if !ok {
				continue
			}
			jv := vm.ToValue(v)
			_ = ex.Set(prop, jv)
			_ = ex.Set("get"+strings.ToUpper(prop[:1])+prop[1:], func(goja.FunctionCall) goja.Value { return jv })
		}
	}
	if err := vm.Set("execution", ex); err != nil {
		return err
	}
	_ = vm.Set("print", func(goja.FunctionCall) goja.Value { return goja.Undefined() })
	return vm.Set("java", r.javaShims())
}

func (r *scriptRun) javaShims() *goja.Object {
	vm := r.vm
	numberFormat := func(v goja.Value) {
		panic(vm.NewTypeError("java.lang.NumberFormatException: For input string: \"%s\"", excerpt(v.String(), 40)))
	}
	whole := func(bits int) func(goja.FunctionCall) goja.Value {
		return func(call goja.FunctionCall) goja.Value {
			a := call.Argument(0)
			var i int64
			switch x := a.Export().(type) {
			case int64:
				i = x
			case float64:
				if x != math.Trunc(x) {
					numberFormat(a)
				}
				i = int64(x)
			case string:
				n, err := strconv.ParseInt(x, 10, bits)
				if err != nil {
					numberFormat(a)
				}
				i = n
			default:
				numberFormat(a)
			}
			if bits == 32 && (i > math.MaxInt32 || i < math.MinInt32) {
				numberFormat(a)
			}
			return vm.ToValue(i)
		}
	}
	double := func(call goja.FunctionCall) goja.Value {
		a := call.Argument(0)
		switch x := a.Export().(type) {
		case int64:
			return vm.ToValue(float64(x))
		case float64:
			return vm.ToValue(x)
		case string:
			f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
			if err != nil {
				numberFormat(a)
			}
			return vm.ToValue(f)
		}
		numberFormat(a)
		return nil
	}
	boolean := func(call goja.FunctionCall) goja.Value {
		switch x := call.Argument(0).Export().(type) {
		case bool:
			return vm.ToValue(x)
		case string:
			return vm.ToValue(strings.EqualFold(x, "true"))
		}
		return vm.ToValue(false)
	}
	str := func(call goja.FunctionCall) goja.Value {
		a := call.Argument(0)
		if goja.IsNull(a) || goja.IsUndefined(a) {
			return vm.ToValue("null")
		}
		return vm.ToValue(a.String())
	}
	class := func(fns map[string]func(goja.FunctionCall) goja.Value) *goja.Object {
		o := vm.NewObject()
		for k, f := range fns {
			_ = o.Set(k, f)
		}
		return o
	}
	lang := vm.NewObject()
	_ = lang.Set("Boolean", class(map[string]func(goja.FunctionCall) goja.Value{"valueOf": boolean, "parseBoolean": boolean}))
	_ = lang.Set("Integer", class(map[string]func(goja.FunctionCall) goja.Value{"valueOf": whole(32), "parseInt": whole(32)}))
	_ = lang.Set("Long", class(map[string]func(goja.FunctionCall) goja.Value{"valueOf": whole(64), "parseLong": whole(64)}))
	_ = lang.Set("Double", class(map[string]func(goja.FunctionCall) goja.Value{"valueOf": double, "parseDouble": double}))
	_ = lang.Set("String", class(map[string]func(goja.FunctionCall) goja.Value{"valueOf": str}))
	java := vm.NewObject()
	_ = java.Set("lang", lang)
	return java
}

// methods creates the Java-collection methods once per run; they read
// this, so a script that changes an object sees its own changes.
func (r *scriptRun) methods() {
	vm := r.vm
	this := func(call goja.FunctionCall) *goja.Object { return call.This.ToObject(vm) }
	orNull := func(v goja.Value) goja.Value {
		if v == nil || goja.IsUndefined(v) {
			return goja.Null()
		}
		return v
	}
	keys := func(o *goja.Object) []string { return o.Keys() }
	length := func(o *goja.Object) int64 { return o.Get("length").ToInteger() }
	fn := func(f func(goja.FunctionCall) goja.Value) goja.Value { return vm.ToValue(f) }
	single := func(o *goja.Object, what string) goja.Value {
		ks := keys(o)
		switch len(ks) {
		case 0:
			return goja.Null()
		case 1:
			return o.Get(ks[0])
		}
		r.throw(&DecisionResultError{Msg: fmt.Sprintf("expected a single %s but found %d", what, len(ks))})
		return nil
	}
	r.mapMethods = map[string]goja.Value{
		"get":      fn(func(c goja.FunctionCall) goja.Value { return orNull(this(c).Get(c.Argument(0).String())) }),
		"getEntry": fn(func(c goja.FunctionCall) goja.Value { return orNull(this(c).Get(c.Argument(0).String())) }),
		"containsKey": fn(func(c goja.FunctionCall) goja.Value {
			k := c.Argument(0).String()
			for _, x := range keys(this(c)) {
				if x == k {
					return vm.ToValue(true)
				}
			}
			return vm.ToValue(false)
		}),
		"size":           fn(func(c goja.FunctionCall) goja.Value { return vm.ToValue(len(keys(this(c)))) }),
		"isEmpty":        fn(func(c goja.FunctionCall) goja.Value { return vm.ToValue(len(keys(this(c))) == 0) }),
		"getSingleEntry": fn(func(c goja.FunctionCall) goja.Value { return single(this(c), "entry") }),
		"getFirstEntry": fn(func(c goja.FunctionCall) goja.Value {
			ks := keys(this(c))
			if len(ks) == 0 {
				return goja.Null()
			}
			return this(c).Get(ks[0])
		}),
	}
	r.listMethods = map[string]goja.Value{
		"get":     fn(func(c goja.FunctionCall) goja.Value { return orNull(this(c).Get(c.Argument(0).String())) }),
		"size":    fn(func(c goja.FunctionCall) goja.Value { return vm.ToValue(length(this(c))) }),
		"isEmpty": fn(func(c goja.FunctionCall) goja.Value { return vm.ToValue(length(this(c)) == 0) }),
	}
	r.resultMethods = map[string]goja.Value{
		"getSingleResult": fn(func(c goja.FunctionCall) goja.Value {
			o := this(c)
			switch n := length(o); n {
			case 0:
				return goja.Null()
			case 1:
				return o.Get("0")
			default:
				r.throw(&DecisionResultError{Msg: fmt.Sprintf("expected a single result but found %d", n)})
				return nil
			}
		}),
		"getFirstResult": fn(func(c goja.FunctionCall) goja.Value { return orNull(this(c).Get("0")) }),
		"getResultList":  fn(func(c goja.FunctionCall) goja.Value { return this(c) }),
		"getSingleEntry": fn(func(c goja.FunctionCall) goja.Value {
			o := this(c)
			switch n := length(o); n {
			case 0:
				return goja.Null()
			case 1:
				return single(o.Get("0").ToObject(vm), "entry")
			default:
				r.throw(&DecisionResultError{Msg: fmt.Sprintf("expected a single result but found %d", n)})
				return nil
			}
		}),
		"collectEntries": fn(func(c goja.FunctionCall) goja.Value {
			o := this(c)
			name := c.Argument(0).String()
			var out []any
			for i := int64(0); i < length(o); i++ {
				row := o.Get(strconv.FormatInt(i, 10)).ToObject(vm)
				if v := row.Get(name); v != nil && !goja.IsUndefined(v) {
					out = append(out, v)
				}
			}
			return vm.NewArray(out...)
		}),
	}
	for k, v := range r.listMethods {
		if _, ok := r.resultMethods[k]; !ok {
			r.resultMethods[k] = v
		}
	}
}

func (r *scriptRun) hide(o *goja.Object, methods map[string]goja.Value) {
	for k, v := range methods {
		_ = o.DefineDataProperty(k, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	}
}

// toJS copies a Go value into fresh JavaScript values, so a script never
// changes the runtime's variables behind its back.
func (r *scriptRun) toJS(v any, depth int) (goja.Value, error) {
	if r.lim.MaxDepth > 0 && depth > r.lim.MaxDepth {
		return nil, &LimitError{Limit: "MaxDepth", Max: int64(r.lim.MaxDepth)}
	}
	vm := r.vm
	switch x := normalize(v).(type) {
	case nil:
		return goja.Null(), nil
	case bool, string, int64, float64:
		return vm.ToValue(x), nil
	case map[string]any:
		o := vm.NewObject()
		for _, k := range sortedKeys(x) {
			jv, err := r.toJS(x[k], depth+1)
			if err != nil {
				return nil, err
			}
			_ = o.Set(k, jv)
		}
		r.hide(o, r.mapMethods)
		return o, nil
	case []any:
		items := make([]any, len(x))
		for i, e := range x {
			jv, err := r.toJS(e, depth+1)
			if err != nil {
				return nil, err
			}
			items[i] = jv
		}
		a := vm.NewArray(items...)
		r.hide(a, r.listMethods)
		return a, nil
	case DecisionResult:
		items := make([]any, len(x))
		for i, row := range x {
			jv, err := r.toJS(row, depth+1)
			if err != nil {
				return nil, err
			}
			items[i] = jv
		}
		a := vm.NewArray(items...)
		r.hide(a, r.resultMethods)
		return a, nil
	case time.Time:
		return vm.ToValue(x), nil
	}
	return nil, fmt.Errorf("a value of type %T cannot be given to a script", v)
}

// fromJS exports a JavaScript value as a variable value within the
// limits: nil, bool, string, int64, float64, time.Time, []any and
// map[string]any.
func (r *scriptRun) fromJS(v goja.Value, name string) (any, error) {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return nil, nil
	}
	var size int64
	out, err := r.plain(v.Export(), name, 0, &size)
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (r *scriptRun) plain(v any, name string, depth int, size *int64) (any, error) {
	if r.lim.MaxDepth > 0 && depth > r.lim.MaxDepth {
		return nil, &LimitError{Limit: "MaxDepth", Max: int64(r.lim.MaxDepth)}
	}
	add := func(n int64) error {
		*size += n
		if r.lim.MaxBytes > 0 && *size > r.lim.MaxBytes {
			return &LimitError{Limit: "MaxBytes", Max: r.lim.MaxBytes}
		}
		return nil
	}
	rows := func(n int) error {
		if r.lim.MaxRows > 0 && n > r.lim.MaxRows {
			return &LimitError{Limit: "MaxRows", Max: int64(r.lim.MaxRows)}
		}
		return nil
	}
	switch x := v.(type) {
	case nil:
		return nil, add(4)
	case bool:
		return x, add(5)
	case int64:
		return x, add(8)
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return int64(x), add(8)
		}
		return x, add(8)
	case string:
		return x, add(int64(len(x)) + 2)
	case time.Time:
		return x, add(24)
	case []any:
		if err := rows(len(x)); err != nil {
			return nil, err
		}
		out := make([]any, len(x))
		for i, e := range x {
			p, err := r.plain(e, name, depth+1, size)
			if err != nil {
				return nil, err
			}
			out[i] = p
		}
		return out, add(2)
	case map[string]any:
		if err := rows(len(x)); err != nil {
			return nil, err
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			if _, isFunc := e.(func(goja.FunctionCall) goja.Value); isFunc {
				continue // a Java-collection method
			}
			p, err := r.plain(e, name, depth+1, size)
			if err != nil {
				return nil, err
			}
			out[k] = p
			if err := add(int64(len(k)) + 3); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return nil, &ScriptError{ElementID: r.id, Msg: fmt.Sprintf("variable %q: a %T cannot be stored as a process variable", name, v)}
}
