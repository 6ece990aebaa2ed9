package dmn

import (
	"context"
	"fmt"
	"strings"

	"github.com/regelkit/regelkit/dmn/feel"
)

// EvalError is an evaluation failure in Operaton mode: a decision
// referenced a variable that is not in the variable map.
type EvalError struct {
	DecisionID string
	Variable   string
	// NoRuleMatched is the id of an earlier decision that matched no rule
	// and so did not provide the variable, or "".
	NoRuleMatched string
}

func (e *EvalError) Error() string {
	if e.NoRuleMatched != "" {
		return fmt.Sprintf("dmn: decision %s: unknown variable %q: no rule matched (%s)", e.DecisionID, e.Variable, e.NoRuleMatched)
	}
	return fmt.Sprintf("dmn: decision %s: unknown variable %q", e.DecisionID, e.Variable)
}

// Rows returns the decision's result as Operaton returns it: one context
// per matched rule with every output by name (a decision table), or one
// context with the decision's variable name (other logic). A decision
// table that matched no rule has no rows.
func (d DecisionResult) Rows() []*feel.Context {
	if d.OutputNames != nil {
		rows := make([]*feel.Context, len(d.Rules))
		for i, r := range d.Rules {
			c := feel.NewContext(len(r.Outputs))
			for j, v := range r.Outputs {
				c.Put(d.OutputNames[j], v)
			}
			rows[i] = c
		}
		return rows
	}
	c := feel.NewContext(1)
	name := d.variable
	if name == "" {
		name = d.Name
	}
	c.Put(name, d.Value)
	return []*feel.Context{c}
}

// evaluateOperaton evaluates like the Camunda 7 / Operaton DMN engine: the
// required decisions in depth-first post-order (requirements in document
// order), all sharing one variable map into which each result is merged.
func (m *Model) evaluateOperaton(ctx context.Context, target *element, inputs map[string]any, opts EvalOptions) (Result, error) {
	var order []*element
	seen := map[*element]bool{}
	var visit func(e *element)
	visit = func(e *element) {
		if seen[e] {
			return
		}
		seen[e] = true
		for _, r := range e.reqs {
			if r.kind == kDecision {
				visit(r)
			}
		}
		order = append(order, e)
	}
	visit(target)
	vars := make(map[string]feel.Value, len(inputs)+len(order))
	for k, v := range inputs {
		vars[k] = ToValue(v)
	}
	rt := &feel.Runtime{Now: opts.Now}
	ev := m.newEvaluation(ctx, inputs, rt)
	noMatch := map[string]string{} // output/variable name -> id of the decision that matched no rule
	var res Result
	for _, e := range order {
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		w0 := len(rt.Warnings)
		rt.Unknown = rt.Unknown[:0]
		dr := DecisionResult{ID: e.id, Name: e.name}
		if e.dec.Variable != nil && e.dec.Variable.Name != "" {
			dr.variable = e.dec.Variable.Name
		}
		var v feel.Value
		env := feel.NewEnv(rt, vars)
		if len(e.knows) > 0 {
			names := make([]string, len(e.knows))
			vals := make([]feel.Value, len(e.knows))
			for i, k := range e.knows {
				names[i], vals[i] = k.name, k.fn
			}
			env = env.WithFrame(names, vals)
		}
		switch {
		case e.problem != "":
			rt.Warnf("%s", e.problem)
		case e.table != nil:
			var rules []RuleMatch
			v, dr.NoRuleMatched = e.table.evalRules(env, &rules)
			dr.Rules, dr.OutputNames = rules, e.table.outNames
		case e.logic != nil:
			v = e.logic.eval(env)
		}
		if len(rt.Unknown) > 0 {
			name := rt.Unknown[0]
			return Result{}, &EvalError{DecisionID: e.id, Variable: name, NoRuleMatched: noMatch[name]}
		}
		dr.Value = v
		if n := len(rt.Warnings); n > w0 {
			dr.Messages = append([]string(nil), rt.Warnings[w0:n]...)
		}
		res.Decisions = append(res.Decisions, dr)
		ev.slots[e.idx] = slot{v: v, st: stDone}
		if e == target {
			break
		}
		// merge the result into the shared variable map
		rows := dr.Rows()
		switch {
		case len(rows) == 0:
			if e.table != nil {
				for _, n := range e.table.outNames {
					noMatch[n] = e.id
				}
			}
		case len(rows) == 1 && !(e.table != nil && ((e.table.hit == HitCollect && e.table.agg == "") || e.table.hit == HitRuleOrder)):
			for i := 0; i < rows[0].Len(); i++ {
				k, kv := rows[0].Entry(i)
				vars[k] = kv
			}
		default:
			if e.table != nil && e.table.agg != "" {
				// an aggregated collect has one value
				vars[e.table.outNames[0]] = v
				continue
			}
			for j, name := range e.table.outNames {
				col := make([]feel.Value, len(rows))
				for i, r := range rows {
					_, col[i] = r.Entry(j)
				}
				vars[name] = col
			}
		}
	}
	res.Messages = rt.Warnings
	return res, nil
}

// operatonScope lists every name an Operaton-mode decision may see: all
// input data, decision names and decision table output names of the model.
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
		if dt, ok := d.Logic.(*DecisionTable); ok {
			for _, o := range dt.Outputs {
				add(o.Name)
			}
			for _, in := range dt.Inputs {
				add(strings.TrimSpace(in.Expression))
			}
		}
	}
	return names
}
