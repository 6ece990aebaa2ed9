package local

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/regelkit/regelkit/dmn"
	"github.com/regelkit/regelkit/dmn/feel"
	"github.com/regelkit/regelkit/engine"
)

// Evaluate evaluates the latest version of the decision with the key (of
// the tenant; "" = no tenant). Required decisions are evaluated first, the
// way Operaton does (see the package documentation). The result has one
// row per matched rule (none when no rule matched). Failures are
// *engine.VariableError (a variable FEEL cannot take), *engine.Error (404
// for an unknown key) or *engine.EvaluationError.
func (e *Engine) Evaluate(ctx context.Context, key, tenantID string, vars engine.Variables) (engine.Result, error) {
	d, err := e.byKey(key, tenantID)
	if err != nil {
		return nil, err
	}
	return e.evaluate(ctx, d, vars)
}

// EvaluateDefinition evaluates the decision definition with the id.
func (e *Engine) EvaluateDefinition(ctx context.Context, id string, vars engine.Variables) (engine.Result, error) {
	d, err := e.byID(id)
	if err != nil {
		return nil, err
	}
	return e.evaluate(ctx, d, vars)
}

func (e *Engine) evaluate(ctx context.Context, d *definition, vars engine.Variables) (engine.Result, error) {
	inputs, err := vars.FEEL()
	if err != nil {
		return nil, err
	}
	opts := dmn.EvalOptions{}
	if e.opts.Now != nil {
		opts.Now = e.opts.Now()
	}
	fail := func(decisionID string, cause error) error {
		return &engine.EvaluationError{DecisionKey: d.def.Key, DefinitionID: d.def.ID, DecisionID: decisionID, Err: cause}
	}
	m := d.res.model
	if e.opts.Standard {
		res, err := m.EvaluateWith(ctx, d.plan.id, inputs, opts)
		if err != nil {
			if cerr := ctx.Err(); cerr != nil {
				return nil, cerr
			}
			return nil, fail(d.plan.id, err)
		}
		for _, dr := range res.Decisions {
			if p := d.res.problemIn(dr.Messages); p != "" {
				return nil, fail(dr.ID, errors.New(p))
			}
		}
		rows, err := d.plan.rows(res.Main())
		if err != nil {
			return nil, fail(d.plan.id, err)
		}
		return d.plan.result(rows, fail)
	}

	// Operaton: every decision of the plan on its own, all sharing the
	// variable map; each result merged into it by output name.
	noMatch := map[string]string{} // output name -> decision that matched no rule
	for _, p := range d.plan.evalOrder {
		res, err := m.EvaluateWith(ctx, p.id, inputs, opts)
		if err != nil {
			if cerr := ctx.Err(); cerr != nil {
				return nil, cerr
			}
			var ee *dmn.EvalError
			if errors.As(err, &ee) {
				return nil, &engine.EvaluationError{DecisionKey: d.def.Key, DefinitionID: d.def.ID, DecisionID: ee.DecisionID,
					Variable: ee.Variable, NoRuleMatched: noMatch[ee.Variable], Err: err}
			}
			return nil, fail(p.id, err)
		}
		dr := res.Main()
		if prob := d.res.problemIn(dr.Messages); prob != "" {
			return nil, fail(p.id, errors.New(prob))
		}
		rows, err := p.rows(dr)
		if err != nil {
			return nil, fail(p.id, err)
		}
		if p == d.plan {
			return p.result(rows, fail)
		}
		switch {
		case len(rows) == 0:
			for _, o := range p.outputs {
				noMatch[o.name] = p.id
			}
		case len(rows) == 1 && !(p.table && ((p.hit == dmn.HitCollect && p.agg == "") || p.hit == dmn.HitRuleOrder)):
			for i := 0; i < rows[0].Len(); i++ {
				k, v := rows[0].Entry(i)
				inputs[k] = v
			}
		default:
			for _, o := range p.outputs {
				col := make([]feel.Value, len(rows))
				for i, r := range rows {
					col[i], _ = r.Get(o.name)
				}
				inputs[o.name] = col
			}
		}
	}
	return nil, fail(d.plan.id, errors.New("the decision is not in its own evaluation order"))
}

// problemIn returns the first message that is a compile problem of the model.
func (c *compiledResource) problemIn(msgs []string) string {
	for _, m := range msgs {
		if c.problems[m] {
			return m
		}
	}
	return ""
}

// rows turns a decision's result into Operaton's result list: for a
// decision table one row per matched rule for RULE ORDER, OUTPUT ORDER and
// COLLECT; one row for UNIQUE, ANY, FIRST, PRIORITY and an aggregating
// COLLECT; none when no rule matched. Other logic gives one row with the
// decision's variable.
func (p *decisionPlan) rows(dr dmn.DecisionResult) ([]*feel.Context, error) {
	if !p.table {
		return []*feel.Context{rowOf(p.outputs[0].name, dr.Value)}, nil
	}
	if dr.NoRuleMatched {
		return nil, nil
	}
	ruleRow := func(r dmn.RuleMatch) *feel.Context {
		c := feel.NewContext(len(p.outputs))
		for i, o := range p.outputs {
			var v feel.Value
			if i < len(r.Outputs) {
				v = r.Outputs[i]
			}
			c.Put(o.name, v)
		}
		return c
	}
	failed := func() error {
		if len(dr.Messages) > 0 {
			return errors.New(dr.Messages[0])
		}
		return fmt.Errorf("decision table %s has no result", p.id)
	}
	switch p.hit {
	case dmn.HitUnique, "":
		if len(dr.Rules) > 1 {
			return nil, fmt.Errorf("hit policy UNIQUE only allows a single rule to match, but %d rules match (%s)", len(dr.Rules), ruleIDs(dr.Rules))
		}
		if len(dr.Rules) == 0 {
			return nil, failed()
		}
		return []*feel.Context{ruleRow(dr.Rules[0])}, nil
	case dmn.HitFirst:
		if len(dr.Rules) == 0 {
			return nil, failed()
		}
		return []*feel.Context{ruleRow(dr.Rules[0])}, nil
	case dmn.HitAny:
		if len(dr.Rules) == 0 {
			return nil, failed()
		}
		for _, r := range dr.Rules[1:] {
			for i := range r.Outputs {
				if eq, ok := feel.Equal(r.Outputs[i], dr.Rules[0].Outputs[i]).(bool); !ok || !eq {
					return nil, fmt.Errorf("hit policy ANY only allows matching rules with equal outputs, but %s differ", ruleIDs(dr.Rules))
				}
			}
		}
		return []*feel.Context{ruleRow(dr.Rules[0])}, nil
	case dmn.HitRuleOrder:
		rows := make([]*feel.Context, len(dr.Rules))
		for i, r := range dr.Rules {
			rows[i] = ruleRow(r)
		}
		return rows, nil
	case dmn.HitCollect:
		if p.agg != "" {
			if dr.Value == nil && len(dr.Messages) > 0 {
				return nil, failed()
			}
			return []*feel.Context{rowOf(p.outputs[0].name, dr.Value)}, nil
		}
		rows := make([]*feel.Context, len(dr.Rules))
		for i, r := range dr.Rules {
			rows[i] = ruleRow(r)
		}
		return rows, nil
	case dmn.HitPriority:
		// dmn picked the row; its value is the output (one) or a context (several)
		if dr.Value == nil && len(dr.Messages) > 0 {
			return nil, failed()
		}
		return []*feel.Context{p.valueRow(dr.Value)}, nil
	case dmn.HitOutputOrder:
		list, ok := dr.Value.([]feel.Value)
		if !ok {
			return nil, failed()
		}
		rows := make([]*feel.Context, len(list))
		for i, v := range list {
			rows[i] = p.valueRow(v)
		}
		return rows, nil
	}
	return nil, fmt.Errorf("hit policy %s is not supported", p.hit)
}

func rowOf(name string, v feel.Value) *feel.Context {
	c := feel.NewContext(1)
	c.Put(name, v)
	return c
}

// valueRow makes a row of a table's row value: the single output's value,
// or a context with every output.
func (p *decisionPlan) valueRow(v feel.Value) *feel.Context {
	if len(p.outputs) == 1 {
		return rowOf(p.outputs[0].name, v)
	}
	c := feel.NewContext(len(p.outputs))
	ctx, _ := v.(*feel.Context)
	for _, o := range p.outputs {
		var x feel.Value
		if ctx != nil {
			x, _ = ctx.Get(o.name)
		}
		c.Put(o.name, x)
	}
	return c
}

func ruleIDs(rules []dmn.RuleMatch) string {
	ids := make([]string, len(rules))
	for i, r := range rules {
		ids[i] = r.ID
		if ids[i] == "" {
			ids[i] = fmt.Sprintf("rule %d", r.Index+1)
		}
	}
	return strings.Join(ids, ", ")
}

// result converts rows to variables, typing numbers by the output's
// typeRef where Operaton would (double → Double, long → Long).
func (p *decisionPlan) result(rows []*feel.Context, fail func(string, error) error) (engine.Result, error) {
	out := make(engine.Result, len(rows))
	for i, r := range rows {
		row := make(map[string]engine.Variable, r.Len())
		for j := 0; j < r.Len(); j++ {
			k, x := r.Entry(j)
			v, err := engine.FromFEEL(x)
			if err != nil {
				return nil, fail(p.id, fmt.Errorf("output %q: %w", k, err))
			}
			row[k] = p.typed(k, v)
		}
		out[i] = row
	}
	return out, nil
}

func (p *decisionPlan) typed(name string, v engine.Variable) engine.Variable {
	switch v.Type {
	case engine.TypeInteger, engine.TypeLong, engine.TypeDouble:
	default:
		return v
	}
	for _, o := range p.outputs {
		if o.name != name {
			continue
		}
		switch strings.ToLower(o.typeRef) {
		case "double":
			v.Type = engine.TypeDouble
		case "long":
			if v.Type == engine.TypeInteger {
				v.Type = engine.TypeLong
			}
		}
	}
	return v
}
