package dmn

import (
	"github.com/regelkit/regelkit/dmn/feel"
)

// boxed is a compiled boxed expression.
type boxed interface {
	eval(env *feel.Env) feel.Value
}

type exprCompiler struct {
	cd    *compiledDefs
	owner string // id of the DRG element
	pos   Pos
}

// errExpr is an expression that did not compile: evaluating it reaches
// the problem.
type errExpr struct{ p Problem }

func (x errExpr) eval(env *feel.Env) feel.Value { return reach(env.Runtime(), x.p) }

func (c *exprCompiler) fail(e Expression, format string, args ...any) boxed {
	id, pos := c.owner, c.pos
	if e != nil {
		if e.expressionID() != "" {
			id = e.expressionID()
		}
		if p := e.position(); p.Line > 0 {
			pos = p
		}
	}
	return errExpr{c.cd.problem(id, pos, format, args...)}
}

type feelExpr struct{ x *feel.Expression }

func (f feelExpr) eval(env *feel.Env) feel.Value { return f.x.Eval(env) }

func (c *exprCompiler) literal(text string, e Expression, names []string) boxed {
	x, err := feel.CompileExpr(text, c.cd.feelScope(names))
	if err != nil {
		return c.fail(e, "FEEL syntax error in %q: %v", text, err)
	}
	return feelExpr{x}
}

// literalIn is literal for text inside an element that is not a boxed
// expression (a decision table rule), which problems are attributed to.
func (c *exprCompiler) literalIn(text, id string, pos Pos, names []string) boxed {
	x, err := feel.CompileExpr(text, c.cd.feelScope(names))
	if err != nil {
		return errExpr{c.cd.problem(id, pos, "FEEL syntax error in %q: %v", text, err)}
	}
	return feelExpr{x}
}

func (c *exprCompiler) compile(e Expression, names []string) boxed {
	switch x := e.(type) {
	case nil:
		return constExpr{}
	case *LiteralExpression:
		if x.Text == "" {
			return constExpr{}
		}
		lit := c.literal(x.Text, x, names)
		if x.TypeRef != "" {
			t, ok := c.cd.resolveType(x.TypeRef)
			if !ok {
				return c.fail(x, "unknown type %q", x.TypeRef)
			}
			if t != nil {
				return typedExpr{lit, t}
			}
		}
		return lit
	case *DecisionTable:
		return c.table(x, names, "", nil)
	case *Context:
		return c.context(x, names)
	case *Invocation:
		return c.invocation(x, names)
	case *List:
		l := &listExpr{}
		for _, it := range x.Items {
			l.items = append(l.items, c.compile(it, names))
		}
		return l
	case *Relation:
		r := &relationExpr{}
		for _, col := range x.Columns {
			r.cols = append(r.cols, col.Name)
		}
		for _, row := range x.Rows {
			if len(row) != len(x.Columns) {
				return c.fail(x, "relation row has %d cells, %d columns", len(row), len(x.Columns))
			}
			var cells []boxed
			for _, cell := range row {
				cells = append(cells, c.compile(cell, names))
			}
			r.rows = append(r.rows, cells)
		}
		return r
	case *FunctionDefinition:
		return c.function(x, names)
	case *Conditional:
		return &condExpr{c.compile(x.If, names), c.compile(x.Then, names), c.compile(x.Else, names)}
	case *Iterator:
		inner := append(append([]string{}, names...), x.Variable)
		return &iterExpr{kind: x.Kind, name: x.Variable, in: c.compile(x.In, names), body: c.compile(x.Body, inner)}
	case *Filter:
		return &filterExpr{in: c.compile(x.In, names), match: c.compile(x.Match, append(append([]string{}, names...), "item"))}
	}
	return c.fail(e, "unsupported boxed expression %T", e)
}

// typedExpr coerces the value of a boxed expression to its typeRef.
type typedExpr struct {
	x boxed
	t *feel.Type
}

func (te typedExpr) eval(env *feel.Env) feel.Value {
	v := te.x.eval(env)
	cv, ok := te.t.Coerce(v)
	if !ok {
		return env.Runtime().Warnf("value %s does not conform to %s", feel.Excerpt(v), te.t)
	}
	return cv
}

type constExpr struct{ v feel.Value }

func (k constExpr) eval(*feel.Env) feel.Value { return k.v }

type contextEntry struct {
	name string
	typ  *feel.Type
	val  boxed
}

type contextExpr struct {
	entries []contextEntry
	result  boxed
}

func (c *exprCompiler) context(x *Context, names []string) boxed {
	ce := &contextExpr{}
	scope := append([]string{}, names...)
	for _, en := range x.Entries {
		if en.Variable != nil {
			scope = append(scope, en.Variable.Name)
		}
	}
	for _, en := range x.Entries {
		if en.Variable == nil {
			ce.result = c.compile(en.Value, scope)
			continue
		}
		var t *feel.Type
		if en.Variable.TypeRef != "" {
			rt, ok := c.cd.resolveType(en.Variable.TypeRef)
			if !ok {
				return c.fail(x, "unknown type %q", en.Variable.TypeRef)
			}
			t = rt
		}
		ce.entries = append(ce.entries, contextEntry{name: en.Variable.Name, typ: t, val: c.compile(en.Value, scope)})
	}
	return ce
}

func (x *contextExpr) eval(env *feel.Env) feel.Value {
	ctx := feel.NewContext(len(x.entries))
	inner := env.WithContext(ctx)
	for _, e := range x.entries {
		v := e.val.eval(inner)
		if e.typ != nil {
			cv, ok := e.typ.Coerce(v)
			if !ok {
				env.Runtime().Warnf("context entry %q does not conform to %s", e.name, e.typ)
			}
			v = cv
		}
		ctx.Put(e.name, v)
	}
	if x.result != nil {
		return x.result.eval(inner)
	}
	return ctx
}

type invocationExpr struct {
	fn    boxed
	names []string
	vals  []boxed
}

func (c *exprCompiler) invocation(x *Invocation, names []string) boxed {
	inv := &invocationExpr{}
	if lit, ok := x.Called.(*LiteralExpression); ok {
		inv.fn = c.literal(lit.Text, lit, names)
	} else if x.Called != nil {
		inv.fn = c.compile(x.Called, names)
	} else {
		return c.fail(x, "invocation without a function")
	}
	for _, b := range x.Bindings {
		inv.names = append(inv.names, b.Parameter.Name)
		inv.vals = append(inv.vals, c.compile(b.Value, names))
	}
	return inv
}

func (x *invocationExpr) eval(env *feel.Env) feel.Value {
	fv := x.fn.eval(env)
	fn, ok := fv.(*feel.Function)
	if !ok {
		return env.Runtime().Warnf("invocation of %s, which is not a function", feel.Kind(fv))
	}
	vals := make([]feel.Value, len(x.vals))
	for i, b := range x.vals {
		vals[i] = b.eval(env)
	}
	return fn.CallNamed(env.Runtime(), x.names, vals)
}

type listExpr struct{ items []boxed }

func (x *listExpr) eval(env *feel.Env) feel.Value {
	out := make([]feel.Value, len(x.items))
	for i, it := range x.items {
		out[i] = it.eval(env)
	}
	return out
}

type relationExpr struct {
	cols []string
	rows [][]boxed
}

func (x *relationExpr) eval(env *feel.Env) feel.Value {
	out := make([]feel.Value, len(x.rows))
	for i, row := range x.rows {
		ctx := feel.NewContext(len(x.cols))
		for j, cell := range row {
			ctx.Put(x.cols[j], cell.eval(env))
		}
		out[i] = ctx
	}
	return out
}

type funcExpr struct {
	params []feel.Param
	body   boxed
	kind   string
}

func (c *exprCompiler) function(x *FunctionDefinition, names []string) boxed {
	f := &funcExpr{kind: x.Kind}
	inner := append([]string{}, names...)
	for _, p := range x.Parameters {
		t, ok := c.cd.resolveType(p.TypeRef)
		if !ok {
			return c.fail(x, "unknown type %q of parameter %q", p.TypeRef, p.Name)
		}
		f.params = append(f.params, feel.Param{Name: p.Name, Type: t})
		inner = append(inner, p.Name)
	}
	switch x.Kind {
	case "", "FEEL":
	case "Java":
		return &javaFuncExpr{params: f.params, def: c.compile(x.Body, names)}
	default:
		return c.fail(x, "function kind %s is not supported", x.Kind)
	}
	f.body = c.compile(x.Body, inner)
	return f
}

// javaFuncExpr is a boxed function of kind Java: its body is a context with
// class and method signature (see feel.ExternalFunction).
type javaFuncExpr struct {
	params []feel.Param
	def    boxed
}

func (x *javaFuncExpr) eval(env *feel.Env) feel.Value {
	d := feel.NewContext(1)
	d.Put("java", x.def.eval(env))
	return feel.ExternalFunction(env.Runtime(), x.params, d)
}

func (x *funcExpr) eval(env *feel.Env) feel.Value {
	closure := env
	params := x.params
	names := make([]string, len(params))
	for i, p := range params {
		names[i] = p.Name
	}
	return feel.NewFunction("function", params, nil, func(rt *feel.Runtime, args []feel.Value) feel.Value {
		vals, ok := bindArgs(rt, "function", params, args)
		if !ok {
			return nil
		}
		return x.body.eval(closure.WithFrame(names, vals))
	})
}

// bindArgs coerces arguments to their parameters' types (missing ones are
// null); ok is false, with a warning, when one does not conform.
func bindArgs(rt *feel.Runtime, fn string, params []feel.Param, args []feel.Value) ([]feel.Value, bool) {
	vals := make([]feel.Value, len(params))
	for i, p := range params {
		var a feel.Value
		if i < len(args) {
			a = args[i]
		}
		if p.Type != nil {
			cv, ok := p.Type.Coerce(a)
			if !ok {
				rt.Warnf("%s: argument %q does not conform to %s", fn, p.Name, p.Type)
				return nil, false
			}
			a = cv
		}
		vals[i] = a
	}
	return vals, true
}

type condExpr struct{ cond, then, els boxed }

func (x *condExpr) eval(env *feel.Env) feel.Value {
	switch c := x.cond.eval(env); c {
	case true:
		return x.then.eval(env)
	case false, nil:
		return x.els.eval(env)
	default:
		return env.Runtime().Warnf("conditional: condition is %s, not a boolean", feel.Kind(c))
	}
}

type iterExpr struct {
	kind string
	name string
	in   boxed
	body boxed
}

func (x *iterExpr) eval(env *feel.Env) feel.Value {
	dom := x.in.eval(env)
	list, ok := dom.([]feel.Value)
	if !ok {
		if x.kind != "for" || dom == nil {
			return env.Runtime().Warnf("%s: iteration over %s, not a list", x.kind, feel.Kind(dom))
		}
		list = []feel.Value{dom}
	}
	// FEEL's own for and quantifiers count the same against the budget
	if x.kind == "for" {
		env.Runtime().Spend(len(list), len(list))
	} else {
		env.Runtime().Spend(len(list), 0)
	}
	switch x.kind {
	case "for":
		out := make([]feel.Value, 0, len(list))
		for _, it := range list {
			out = append(out, x.body.eval(env.With(x.name, it)))
		}
		return out
	case "some":
		for _, it := range list {
			switch r := x.body.eval(env.With(x.name, it)); r {
			case true:
				return true
			case false:
			default:
				return env.Runtime().Warnf("some: satisfies gave %s, not a boolean", feel.Kind(r))
			}
		}
		return false
	default: // every
		for _, it := range list {
			switch r := x.body.eval(env.With(x.name, it)); r {
			case false:
				return false
			case true:
			default:
				return env.Runtime().Warnf("every: satisfies gave %s, not a boolean", feel.Kind(r))
			}
		}
		return true
	}
}

type filterExpr struct{ in, match boxed }

func (x *filterExpr) eval(env *feel.Env) feel.Value {
	dom := x.in.eval(env)
	list, ok := dom.([]feel.Value)
	if !ok {
		if dom == nil {
			return nil
		}
		list = []feel.Value{dom}
	}
	env.Runtime().Spend(len(list), 0)
	out := []feel.Value{}
	for _, it := range list {
		inner := env.With("item", it)
		if c, ok := it.(*feel.Context); ok {
			inner = inner.WithContext(c)
		}
		switch r := x.match.eval(inner); r {
		case true:
			out = append(out, it)
		case false, nil:
		default:
			return env.Runtime().Warnf("filter: match gave %s, not a boolean", feel.Kind(r))
		}
	}
	return out
}
