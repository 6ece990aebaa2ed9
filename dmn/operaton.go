package dmn

import (
	"context"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/regelkit/regelkit/dmn/feel"
)

// evaluateOperaton evaluates like the Camunda 7 / Operaton DMN engine: the
// required decisions in depth-first post-order (requirements in document
// order), all sharing one variable map into which each result list is
// merged. A decision that fails fails the evaluation with an *EvalError.
func (m *Model) evaluateOperaton(ctx context.Context, target *element, inputs inputSet, rt *feel.Runtime) (Result, error) {
	order := target.opOrder
	var env *feel.Env
	switch {
	case inputs.c != nil:
		env = feel.NewContextEnv(rt, inputs.c)
	case feelValues(inputs.m):
		env = feel.NewEnv(rt, inputs.m) // used as it is: nothing is written to it
	default:
		vars := make(map[string]feel.Value, len(inputs.m))
		for k, v := range inputs.m {
			vars[k] = ToValue(v)
		}
		env = feel.NewEnv(rt, vars)
	}
	// results of required decisions go into merged, a frame over the
	// inputs, so that they replace inputs of the same name
	var merged map[string]feel.Value
	var noMatch map[string]string // output name -> id of the decision that matched no rule
	var rowBuf [4]Row
	res := Result{Decisions: make([]DecisionResult, 0, len(order))}
	for _, e := range order {
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		w0, u0, e0 := len(rt.Warnings), len(rt.Unknown), len(rt.Errors)
		dr := DecisionResult{ID: e.id, Name: e.name, elem: e, pick: -1}
		denv := env
		if len(e.knows) > 0 {
			denv = env.WithFrame(e.knowNames, e.knowValues)
		}
		var tableFailure *EvalError
		switch {
		case e.problem != nil:
			reach(rt, *e.problem)
		case e.table != nil:
			tr := e.table.evalRules(denv, true)
			dr.Value, dr.NoRuleMatched, dr.Rules, dr.pick, dr.order = tr.value, tr.noMatch, tr.rules, tr.pick, tr.order
			dr.OutputNames = e.table.outNames
			tableFailure = tr.failure
		case e.logic != nil:
			dr.Value = e.logic.eval(denv)
			if _, literal := e.dec.Logic.(*LiteralExpression); literal && e.dec.Variable != nil && dr.Value != nil {
				// Operaton converts a literal expression's result to its
				// variable's typeRef as it converts table outputs
				cv, why := operatonTypeOf(e.dec.Variable.TypeRef).convert(dr.Value)
				if why != "" {
					tableFailure = literalConvertFailure(e.dec.Variable, dr.Value, why)
				}
				dr.Value = cv
			}
		}
		if f := decisionFailure(e.id, rt, u0, e0, true, tableFailure); f != nil {
			if f.Kind == UnknownVariable {
				f.NoRuleMatched = noMatch[f.Variable]
			}
			return Result{}, f
		}
		if n := len(rt.Warnings); n > w0 {
			dr.Messages = append([]string(nil), rt.Warnings[w0:n]...)
		}
		res.Decisions = append(res.Decisions, dr)
		if e == target {
			break
		}
		// merge the result list into the shared variable map
		rows := dr.AppendRows(rowBuf[:0])
		switch {
		case len(rows) == 0:
			if e.table != nil {
				if noMatch == nil {
					noMatch = map[string]string{}
				}
				for _, n := range e.table.outNames {
					noMatch[n] = e.id
				}
			}
		default:
			if merged == nil {
				merged = make(map[string]feel.Value, 4*len(order))
				env = env.WithVars(merged)
			}
			if len(rows) == 1 && !e.mergesAsList() {
				for i, n := range rows[0].Names {
					merged[n] = rows[0].Values[i]
				}
			} else {
				mergeColumns(merged, rows)
			}
		}
	}
	res.Messages = rt.Warnings
	return res, nil
}

// mergesAsList reports whether Operaton merges even a single row of the
// decision's result as lists: COLLECT without aggregation and RULE ORDER.
func (e *element) mergesAsList() bool {
	return e.table != nil && ((e.table.hit == HitCollect && e.table.agg == "") || e.table.hit == HitRuleOrder)
}

// mergeColumns puts, for every output name of the rows, the list of its
// values over the rows that have it into vars.
func mergeColumns(vars map[string]feel.Value, rows []Row) {
	done := map[string]bool{}
	for _, r := range rows {
		for _, n := range r.Names {
			if done[n] {
				continue
			}
			done[n] = true
			col := make([]feel.Value, 0, len(rows))
			for _, r2 := range rows {
				if v, ok := r2.Get(n); ok {
					col = append(col, v)
				}
			}
			vars[n] = col
		}
	}
}

// feelValues reports whether every value of the map is a FEEL value
// ToValue would return unchanged (lists and contexts are not checked, so
// they count as not).
func feelValues(m map[string]any) bool {
	for _, v := range m {
		switch v.(type) {
		case nil, *apd.Decimal, string, bool, feel.Date, feel.Time, feel.DateTime, feel.Duration, feel.YearsMonths:
		default:
			return false
		}
	}
	return true
}

// operatonOrder lists the decisions Operaton evaluates for e: its required
// decisions depth-first in document order, each once, then e.
func (e *element) operatonOrder() []*element {
	var order []*element
	seen := map[*element]bool{}
	var visit func(x *element)
	visit = func(x *element) {
		if seen[x] {
			return
		}
		seen[x] = true
		for _, r := range x.reqs {
			if r.kind == kDecision {
				visit(r)
			}
		}
		order = append(order, x)
	}
	visit(e)
	return order
}

// operatonScope lists every name an Operaton-mode decision may see, so that
// names with spaces or operator characters parse as names: all input data,
// decision and decision variable names and decision table output names of
// the model. (Input expressions are expressions, not names; inside input
// entries the input's value is cellInput, see compiledTable.)
func (cd *compiledDefs) operatonScope(names []string) []string {
	seen := map[string]bool{}
	for _, n := range names {
		seen[n] = true
	}
	add := func(n string) {
		n = strings.TrimSpace(n)
		if n != "" && !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	for _, in := range cd.d.InputData {
		add(in.Name)
	}
	for _, d := range cd.d.Decisions {
		add(d.Name)
		if d.Variable != nil {
			add(d.Variable.Name)
		}
		if dt, ok := d.Logic.(*DecisionTable); ok {
			for _, o := range dt.Outputs {
				add(o.Name)
			}
		}
	}
	return names
}
