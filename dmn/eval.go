package dmn

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/regelkit/regelkit/dmn/feel"
)

// EvalOptions change one evaluation.
type EvalOptions struct {
	// Now is the instant now() and today() see; zero means the wall clock.
	Now time.Time
	// Limits bound the FEEL work of the evaluation (zero fields take
	// feel.DefaultLimits); MaxDepth is the recursion budget of business
	// knowledge models and decision services calling each other. An
	// evaluation that exceeds one fails with a *feel.LimitError.
	Limits feel.Limits
}

// runFEEL runs f as one FEEL evaluation on rt under opts and ctx, and
// returns the budget error that stopped it (a *feel.LimitError or ctx's
// error), wrapped with the kind and name of what was evaluated.
func runFEEL(ctx context.Context, rt *feel.Runtime, opts EvalOptions, kind, name string, f func()) error {
	if err := rt.Run(ctx, opts.Limits, f); err != nil {
		return fmt.Errorf("dmn: evaluating %s %q: %w", kind, name, err)
	}
	return nil
}

// Message is a message of an evaluation (FEEL warnings, type errors,
// hit-policy violations), attributed to a decision.
type Message struct {
	DecisionID string
	Text       string
}

// DecisionResult is the outcome of one evaluated decision.
type DecisionResult struct {
	ID, Name string
	Value    feel.Value
	Messages []string
	// NoRuleMatched is true when the decision's logic is a decision table
	// and no rule matched (the value is then null or the default output).
	NoRuleMatched bool
	// Rules are the matched rules of a decision table, in rule order; for
	// multi-hit tables one entry per matched rule.
	Rules []RuleMatch
	// OutputNames are the decision table's output names (for Rules).
	OutputNames []string
	// Failure is set when the decision failed: its table violated the hit
	// policy or met a value outside its input or output values, or it
	// reached an expression that did not compile. The value is then null.
	// (In Operaton mode Evaluate returns the failure as its error instead.)
	Failure *EvalError

	elem  *element // the decision, for Rows
	pick  int      // Rules index of a single-hit result row, or -1
	order []int    // Rules indexes in priority order (OUTPUT ORDER)
}

// Result holds every decision evaluated for a request, required decisions
// first and the requested decision last.
type Result struct {
	Decisions []DecisionResult
	// Messages are all messages of the evaluation in order, including
	// those about inputs that do not conform to their type.
	Messages []string
}

// Value returns the value of the decision with the given name or id.
func (r Result) Value(nameOrID string) (feel.Value, bool) {
	d, ok := r.Decision(nameOrID)
	if !ok {
		return nil, false
	}
	return d.Value, true
}

// Decision returns the result of the decision with the given name or id.
func (r Result) Decision(nameOrID string) (DecisionResult, bool) {
	for _, d := range r.Decisions {
		if d.Name == nameOrID || d.ID == nameOrID {
			return d, true
		}
	}
	return DecisionResult{}, false
}

// Main returns the result of the requested decision (the last one).
func (r Result) Main() DecisionResult {
	if len(r.Decisions) == 0 {
		return DecisionResult{}
	}
	return r.Decisions[len(r.Decisions)-1]
}

// ErrUnknownDecision is returned for a decision name or id the model does not have.
var ErrUnknownDecision = errors.New("dmn: unknown decision")

const (
	stNone uint8 = iota
	stBusy
	stDone
)

type slot struct {
	v  feel.Value
	st uint8
}

type evaluation struct {
	m       *Model
	ctx     context.Context
	rt      *feel.Runtime
	rtv     feel.Runtime // backs rt for top-level evaluations (one allocation less)
	inputs  inputSet
	slots   []slot
	results []DecisionResult
	fixed   map[*element]feel.Value
}

// Evaluate evaluates a decision of the main model (by name or id) and the
// decisions it requires. inputs maps input data names to values: Go values
// (string, bool, int…, float64, json.Number, time.Time, []any,
// map[string]any) are converted with ToValue; FEEL values are used as they
// are. Input data of an imported model are keyed "{namespace}name". An
// input that is missing is null.
func (m *Model) Evaluate(ctx context.Context, decision string, inputs map[string]any) (Result, error) {
	return m.EvaluateWith(ctx, decision, inputs, EvalOptions{})
}

// EvaluateWith is Evaluate with options.
func (m *Model) EvaluateWith(ctx context.Context, decision string, inputs map[string]any, opts EvalOptions) (Result, error) {
	return m.evaluate(ctx, decision, inputSet{m: inputs}, opts)
}

// EvaluateContext is EvaluateWith with the inputs given as a FEEL context
// whose entries are FEEL values (used as they are, not converted). For a
// handful of inputs it is cheaper than a map: nothing is hashed.
func (m *Model) EvaluateContext(ctx context.Context, decision string, inputs *feel.Context, opts EvalOptions) (Result, error) {
	if inputs == nil {
		inputs = feel.NewContext(0)
	}
	return m.evaluate(ctx, decision, inputSet{c: inputs}, opts)
}

// inputSet holds the inputs of an evaluation: a map of Go or FEEL values,
// or a context of FEEL values.
type inputSet struct {
	m map[string]any
	c *feel.Context
}

func (in inputSet) get(name string) (any, bool) {
	if in.c != nil {
		return in.c.Get(name)
	}
	v, ok := in.m[name]
	return v, ok
}

func (m *Model) evaluate(ctx context.Context, decision string, inputs inputSet, opts EvalOptions) (Result, error) {
	e := m.findDecision(decision)
	if e == nil {
		return Result{}, fmt.Errorf("%w %q", ErrUnknownDecision, decision)
	}
	if m.opts.Operaton {
		rt := &feel.Runtime{Now: opts.Now}
		var res Result
		var err error
		if ferr := runFEEL(ctx, rt, opts, "decision", e.name, func() { res, err = m.evaluateOperaton(ctx, e, inputs, rt) }); ferr != nil {
			return Result{}, ferr
		}
		return res, err
	}
	ev := m.newEvaluation(ctx, inputs, nil)
	ev.rtv.Now = opts.Now
	if err := runFEEL(ctx, ev.rt, opts, "decision", e.name, func() { ev.value(e) }); err != nil {
		return Result{}, err
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	return Result{Decisions: ev.results, Messages: ev.rt.Warnings}, nil
}

// EvaluateAll evaluates every decision of the main model.
func (m *Model) EvaluateAll(ctx context.Context, inputs map[string]any, opts EvalOptions) (Result, error) {
	ev := m.newEvaluation(ctx, inputSet{m: inputs}, nil)
	ev.rtv.Now = opts.Now
	err := runFEEL(ctx, ev.rt, opts, "the decisions of", m.main.d.Name, func() {
		for _, e := range m.elems {
			if e.kind == kDecision && e.defs == m.main {
				ev.value(e)
			}
		}
	})
	if err != nil {
		return Result{}, err
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	return Result{Decisions: ev.results, Messages: ev.rt.Warnings}, nil
}

// newEvaluation starts an evaluation; a nil rt means the evaluation's own runtime.
func (m *Model) newEvaluation(ctx context.Context, inputs inputSet, rt *feel.Runtime) *evaluation {
	ev := &evaluation{m: m, ctx: ctx, rt: rt, inputs: inputs, slots: make([]slot, len(m.elems))}
	if rt == nil {
		ev.rt = &ev.rtv
	}
	return ev
}

func (m *Model) findDecision(name string) *element {
	for _, cd := range m.defs {
		if e, ok := cd.byName[name]; ok && e.kind == kDecision {
			return e
		}
		if e, ok := cd.byID[name]; ok && e.kind == kDecision {
			return e
		}
	}
	return nil
}

func (m *Model) findElement(name string, kind elemKind) *element {
	for _, cd := range m.defs {
		for _, e := range m.elems {
			if e.defs == cd && e.kind == kind && (e.name == name || e.id == name) {
				return e
			}
		}
	}
	return nil
}

// Invoke calls a business knowledge model or decision service of the main
// model by name with named arguments (converted with ToValue).
func (m *Model) Invoke(ctx context.Context, name string, args map[string]any, opts EvalOptions) (feel.Value, []string, error) {
	e := m.findElement(name, kBKM)
	if e == nil {
		e = m.findElement(name, kService)
	}
	if e == nil || e.fn == nil {
		return nil, nil, fmt.Errorf("dmn: unknown business knowledge model or decision service %q", name)
	}
	rt := &feel.Runtime{Now: opts.Now}
	names := make([]string, 0, len(args))
	vals := make([]feel.Value, 0, len(args))
	for _, p := range e.fn.Params {
		if v, ok := args[p.Name]; ok {
			names = append(names, p.Name)
			vals = append(vals, ToValue(v))
		}
	}
	var v feel.Value
	kind := "business knowledge model"
	if e.kind == kService {
		kind = "decision service"
	}
	err := runFEEL(ctx, rt, opts, kind, e.name, func() {
		if e.kind == kService {
			v = m.callService(ctx, e, rt, names, vals)
		} else {
			v = e.fn.CallNamed(rt, names, vals)
		}
	})
	if err != nil {
		return nil, rt.Warnings, err
	}
	return v, rt.Warnings, ctx.Err()
}

func (ev *evaluation) inputValue(e *element) feel.Value {
	var raw any
	found := false
	if ev.inputs.m != nil || ev.inputs.c != nil {
		if e.defs == ev.m.main {
			raw, found = ev.inputs.get(e.name)
		}
		if !found {
			raw, found = ev.inputs.get("{" + e.defs.d.Namespace + "}" + e.name)
		}
		if !found && e.defs != ev.m.main {
			raw, found = ev.inputs.get(e.name)
		}
	}
	if !found {
		return nil
	}
	v := toTypedValue(raw, e.typ)
	if e.typ != nil {
		cv, ok := e.typ.Coerce(v)
		if !ok {
			ev.rt.Warnf("input %q: value %s does not conform to %s", e.name, feel.Excerpt(v), e.typ)
		}
		v = cv
	}
	return v
}

func (ev *evaluation) value(e *element) feel.Value {
	s := &ev.slots[e.idx]
	switch s.st {
	case stDone:
		return s.v
	case stBusy:
		ev.rt.Warnf("dependency cycle through %q", e.name)
		return nil
	}
	if v, ok := ev.fixed[e]; ok {
		s.st, s.v = stDone, v
		return v
	}
	s.st = stBusy
	var v feel.Value
	switch e.kind {
	case kInput:
		v = ev.inputValue(e)
	case kDecision:
		v = ev.decision(e)
	case kBKM, kService:
		v = e.fn
	}
	s = &ev.slots[e.idx]
	s.st, s.v = stDone, v
	return v
}

func (ev *evaluation) decision(e *element) feel.Value {
	if ev.ctx.Err() != nil {
		return nil
	}
	for _, r := range e.reqs {
		ev.value(r)
	}
	w0, e0 := len(ev.rt.Warnings), len(ev.rt.Errors)
	res := DecisionResult{ID: e.id, Name: e.name, elem: e, pick: -1}
	var v feel.Value
	var tableFailure *EvalError
	switch {
	case e.problem != nil:
		reach(ev.rt, *e.problem)
	case e.logic == nil:
		// a decision without logic takes its value from the inputs (as an
		// input decision of a decision service would)
		if raw, ok := ev.inputs.get(e.name); ok {
			v = toTypedValue(raw, e.typ)
		}
	default:
		env := ev.scope(e)
		if e.table != nil {
			tr := e.table.evalRules(env, true)
			v, res.NoRuleMatched, res.Rules, res.pick, res.order = tr.value, tr.noMatch, tr.rules, tr.pick, tr.order
			res.OutputNames = e.table.outNames
			tableFailure = tr.failure
		} else {
			v = e.logic.eval(env)
		}
	}
	if e.typ != nil && v != nil {
		cv, ok := e.typ.Coerce(v)
		if !ok {
			ev.rt.Warnf("decision %q: value %s does not conform to type %s", e.name, feel.Excerpt(v), e.typ)
		}
		v = cv
	}
	if f := decisionFailure(e.id, ev.rt, 0, e0, false, tableFailure); f != nil {
		res.Failure, v = f, nil
	}
	res.Value = v
	if n := len(ev.rt.Warnings); n > w0 {
		res.Messages = append([]string(nil), ev.rt.Warnings[w0:n]...)
	}
	ev.results = append(ev.results, res)
	return v
}

// scope builds the environment of a decision: its required decisions,
// input data, business knowledge models and decision services by name;
// elements of imported models grouped in a context named by the import.
func (ev *evaluation) scope(e *element) *feel.Env {
	if e.staticNames != nil {
		vals := make([]feel.Value, len(e.staticNames))
		i := 0
		for _, r := range e.reqs {
			vals[i] = ev.value(r)
			i++
		}
		for _, k := range e.knows {
			vals[i] = k.fn
			i++
		}
		return feel.NewFrameEnv(ev.rt, e.staticNames, vals)
	}
	n := len(e.reqs) + len(e.knows)
	names := make([]string, 0, n)
	vals := make([]feel.Value, 0, n)
	var imported map[string]*feel.Context
	bind := func(r *element, v feel.Value) {
		if r.defs != e.defs {
			if imp, ok := e.defs.nsImport[r.defs.d.Namespace]; ok {
				if imported == nil {
					imported = map[string]*feel.Context{}
				}
				c := imported[imp]
				if c == nil {
					c = feel.NewContext(2)
					imported[imp] = c
					names = append(names, imp)
					vals = append(vals, c)
				}
				c.Put(r.name, v)
				return
			}
		}
		names = append(names, r.name)
		vals = append(vals, v)
	}
	for _, r := range e.reqs {
		bind(r, ev.value(r))
	}
	for _, k := range e.knows {
		bind(k, k.fn)
	}
	return feel.NewFrameEnv(ev.rt, names, vals)
}

// ---- business knowledge models and decision services ----

func (cd *compiledDefs) compileBKM(e *element, b *BKM) {
	var params []feel.Param
	var pnames []string
	c := &exprCompiler{cd: cd, owner: e.id, pos: e.pos}
	var body boxed
	if b.Logic == nil {
		body = constExpr{}
	} else {
		for _, p := range b.Logic.Parameters {
			t, ok := cd.resolveType(p.TypeRef)
			if !ok {
				cd.problem(e.id, e.pos, "unknown type %q of parameter %q", p.TypeRef, p.Name)
			}
			params = append(params, feel.Param{Name: p.Name, Type: t})
			pnames = append(pnames, p.Name)
		}
		if b.Logic.Kind != "" && b.Logic.Kind != "FEEL" {
			body = c.fail(b.Logic, "function kind %s is not supported", b.Logic.Kind)
		}
	}
	var result *feel.Type
	if e.typ != nil {
		if e.typ.Kind == feel.KindFunction {
			result = e.typ.Result
		} else {
			result = e.typ
		}
	}
	// the body is compiled after every BKM exists, since it may call others
	var knowNames []string
	for _, k := range e.knows {
		knowNames = append(knowNames, k.name)
	}
	e.fn = feel.NewFunction(e.name, params, result, func(rt *feel.Runtime, args []feel.Value) feel.Value {
		if body == nil {
			return rt.Warnf("business knowledge model %q has no logic", e.name)
		}
		vals, ok := bindArgs(rt, e.name, params, args)
		if !ok {
			return nil
		}
		env := feel.NewEnv(rt, nil)
		if len(e.knows) > 0 {
			kv := make([]feel.Value, len(e.knows))
			for i, k := range e.knows {
				kv[i] = k.fn
			}
			env = env.WithFrame(knowNames, kv)
		}
		v := body.eval(env.WithFrame(pnames, vals))
		if result != nil && v != nil {
			cv, ok := result.Coerce(v)
			if !ok {
				return rt.Warnf("%s: result %s does not conform to %s", e.name, feel.Excerpt(v), result)
			}
			v = cv
		}
		return v
	})
	if b.Logic != nil && body == nil {
		names := append(append([]string{}, knowNames...), pnames...)
		body = c.compile(b.Logic.Body, names)
	}
}

func (cd *compiledDefs) compileService(e *element) {
	params := make([]feel.Param, len(e.svcIn))
	for i, in := range e.svcIn {
		params[i] = feel.Param{Name: in.name, Type: in.typ}
	}
	m := cd.m
	e.fn = feel.NewFunction(e.name, params, nil, func(rt *feel.Runtime, args []feel.Value) feel.Value {
		names := make([]string, len(params))
		for i, p := range params {
			names[i] = p.Name
		}
		if len(args) < len(names) {
			names = names[:len(args)]
		}
		return m.callService(rt.Context(), e, rt, names, args)
	})
}

// callService evaluates a decision service with its parameters given by name.
func (m *Model) callService(ctx context.Context, e *element, rt *feel.Runtime, names []string, args []feel.Value) feel.Value {
	ev := m.newEvaluation(ctx, inputSet{}, rt)
	ev.fixed = map[*element]feel.Value{}
	for _, in := range e.svcIn {
		var v feel.Value
		for i, n := range names {
			if n == in.name {
				v = args[i]
			}
		}
		if in.typ != nil && v != nil {
			cv, ok := in.typ.Coerce(v)
			if !ok {
				return rt.Warnf("decision service %q: parameter %q does not conform to %s", e.name, in.name, in.typ)
			}
			v = cv
		}
		ev.fixed[in] = v
	}
	if len(e.svcOut) == 1 {
		v := ev.value(e.svcOut[0])
		return ev.serviceResult(e, v)
	}
	out := feel.NewContext(len(e.svcOut))
	for _, o := range e.svcOut {
		out.Put(o.name, ev.value(o))
	}
	return ev.serviceResult(e, out)
}

func (ev *evaluation) serviceResult(e *element, v feel.Value) feel.Value {
	t := e.typ
	if t != nil && t.Kind == feel.KindFunction {
		// a function type on the service variable types its result
		t = t.Result
	}
	if t != nil && v != nil {
		cv, ok := t.Coerce(v)
		if !ok {
			return ev.rt.Warnf("decision service %q: result does not conform to %s", e.name, t)
		}
		return cv
	}
	return v
}

// EvaluateService evaluates a decision service of the main model with its
// input decisions and input data given by name in inputs; the Result holds
// the service's output decisions (and the decisions they required).
func (m *Model) EvaluateService(ctx context.Context, service string, inputs map[string]any, opts EvalOptions) (Result, feel.Value, error) {
	e := m.findElement(service, kService)
	if e == nil {
		return Result{}, nil, fmt.Errorf("dmn: unknown decision service %q", service)
	}
	rt := &feel.Runtime{Now: opts.Now}
	ev := m.newEvaluation(ctx, inputSet{m: inputs}, rt)
	ev.fixed = map[*element]feel.Value{}
	for _, in := range e.svcIn {
		raw, ok := inputs[in.name]
		if !ok {
			ev.fixed[in] = nil
			continue
		}
		v := toTypedValue(raw, in.typ)
		if in.typ != nil && v != nil {
			cv, ok := in.typ.Coerce(v)
			if !ok {
				rt.Warnf("decision service %q: input %q does not conform to %s", e.name, in.name, in.typ)
			}
			v = cv
		}
		ev.fixed[in] = v
	}
	var out feel.Value
	err := runFEEL(ctx, rt, opts, "decision service", e.name, func() {
		if len(e.svcOut) == 1 {
			out = ev.serviceResult(e, ev.value(e.svcOut[0]))
		} else {
			c := feel.NewContext(len(e.svcOut))
			for _, o := range e.svcOut {
				c.Put(o.name, ev.value(o))
			}
			out = ev.serviceResult(e, c)
		}
	})
	if err != nil {
		return Result{}, nil, err
	}
	return Result{Decisions: ev.results, Messages: rt.Warnings}, out, ctx.Err()
}

// ---- model listing ----

// DecisionInfo describes a decision for callers that list a model.
type DecisionInfo struct {
	ID, Name          string
	TypeRef           string
	RequiredDecisions []string // names
	RequiredInputs    []string // names
	RequiredKnowledge []string // names of BKMs and decision services
	// HitPolicy and Outputs are set when the logic is a decision table.
	HitPolicy   HitPolicy
	Aggregation string
	Outputs     []OutputInfo
	Inputs      []TableInputInfo
}

// OutputInfo is a decision table output column.
type OutputInfo struct {
	ID, Name, TypeRef string
}

// TableInputInfo is a decision table input column.
type TableInputInfo struct {
	ID, Label, Expression, TypeRef string
}

// InputInfo describes an input data element.
type InputInfo struct {
	ID, Name, TypeRef string
}

// Decisions lists the main model's decisions in document order.
func (m *Model) Decisions() []DecisionInfo {
	var out []DecisionInfo
	for _, e := range m.elems {
		if e.kind != kDecision || e.defs != m.main {
			continue
		}
		di := DecisionInfo{ID: e.id, Name: e.name}
		if e.dec.Variable != nil {
			di.TypeRef = e.dec.Variable.TypeRef
		}
		for _, r := range e.reqs {
			if r.kind == kDecision {
				di.RequiredDecisions = append(di.RequiredDecisions, r.name)
			} else {
				di.RequiredInputs = append(di.RequiredInputs, r.name)
			}
		}
		for _, k := range e.knows {
			di.RequiredKnowledge = append(di.RequiredKnowledge, k.name)
		}
		if dt, ok := e.dec.Logic.(*DecisionTable); ok {
			di.HitPolicy = dt.HitPolicy
			di.Aggregation = dt.Aggregation
			for _, o := range dt.Outputs {
				di.Outputs = append(di.Outputs, OutputInfo{ID: o.ID, Name: o.Name, TypeRef: o.TypeRef})
			}
			for _, in := range dt.Inputs {
				di.Inputs = append(di.Inputs, TableInputInfo{ID: in.ID, Label: in.Label, Expression: strings.TrimSpace(in.Expression), TypeRef: in.TypeRef})
			}
		}
		out = append(out, di)
	}
	return out
}

// Inputs lists the main model's input data.
func (m *Model) Inputs() []InputInfo {
	var out []InputInfo
	for _, e := range m.elems {
		if e.kind == kInput && e.defs == m.main {
			ii := InputInfo{ID: e.id, Name: e.name}
			for _, in := range m.main.d.InputData {
				if in.ID == e.id && in.Variable != nil {
					ii.TypeRef = in.Variable.TypeRef
				}
			}
			out = append(out, ii)
		}
	}
	return out
}
