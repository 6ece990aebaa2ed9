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
	m := d.res.model
	if e.opts.Standard {
		res, err := m.EvaluateWith(ctx, d.plan.id, inputs, opts)
		if err != nil {
			return nil, d.failure(ctx, d.plan.id, err)
		}
		for _, dr := range res.Decisions {
			if p := d.res.problemIn(dr.Messages); p != "" {
				return nil, d.failure(ctx, dr.ID, errors.New(p))
			}
		}
		var one [1]row
		rows, err := d.plan.rows(res.Main(), &one)
		if err != nil {
			return nil, d.failure(ctx, d.plan.id, err)
		}
		return d.result(ctx, rows)
	}

	// dmn evaluates the required decisions and merges their results; when
	// one of them was merged unlike Operaton (or anything failed) the
	// evaluation is repeated step by step
	res, err := m.EvaluateWith(ctx, d.plan.id, inputs, opts)
	if err == nil && !d.res.mergedUnlikeOperaton(res) {
		for _, dr := range res.Decisions {
			if p := d.res.problemIn(dr.Messages); p != "" {
				return nil, d.failure(ctx, dr.ID, errors.New(p))
			}
		}
		var one [1]row
		rows, err := d.plan.rows(res.Main(), &one)
		if err != nil {
			return nil, d.failure(ctx, d.plan.id, err)
		}
		return d.result(ctx, rows)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return e.evaluateStepwise(ctx, d, inputs, opts)
}

// evaluateStepwise evaluates like Operaton with every decision of the plan
// on its own, all sharing the variable map; each result is merged into it
// by output name.
func (e *Engine) evaluateStepwise(ctx context.Context, d *definition, inputs map[string]any, opts dmn.EvalOptions) (engine.Result, error) {
	m, err := d.res.stepwiseModel()
	if err != nil {
		return nil, d.failure(ctx, d.plan.id, err)
	}
	var noMatch map[string]string // output name -> decision that matched no rule
	var one [1]row
	for _, p := range d.plan.evalOrder {
		res, err := m.EvaluateWith(ctx, p.id, inputs, opts)
		if err != nil {
			var ee *dmn.EvalError
			if ctx.Err() == nil && errors.As(err, &ee) {
				return nil, &engine.EvaluationError{DecisionKey: d.def.Key, DefinitionID: d.def.ID, DecisionID: ee.DecisionID,
					Variable: ee.Variable, NoRuleMatched: noMatch[ee.Variable], Err: err}
			}
			return nil, d.failure(ctx, p.id, err)
		}
		dr := res.Main()
		if prob := d.res.problemIn(dr.Messages); prob != "" {
			return nil, d.failure(ctx, p.id, errors.New(prob))
		}
		rows, err := p.rows(dr, &one)
		if err != nil {
			return nil, d.failure(ctx, p.id, err)
		}
		if p == d.plan {
			return d.result(ctx, rows)
		}
		switch {
		case len(rows) == 0:
			if noMatch == nil {
				noMatch = map[string]string{}
			}
			for _, o := range p.outputs {
				noMatch[o.name] = p.id
			}
		case len(rows) == 1 && !(p.table && ((p.hit == dmn.HitCollect && p.agg == "") || p.hit == dmn.HitRuleOrder)):
			for i, o := range p.outputs {
				inputs[o.name] = rows[0][i]
			}
		default:
			for i, o := range p.outputs {
				col := make([]feel.Value, len(rows))
				for j, r := range rows {
					col[j] = r[i]
				}
				inputs[o.name] = col
			}
		}
	}
	return nil, d.failure(ctx, d.plan.id, errors.New("the decision is not in its own evaluation order"))
}

// failure is the error of a failed evaluation: the context's error when it
// ended, else an *engine.EvaluationError.
func (d *definition) failure(ctx context.Context, decisionID string, cause error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return &engine.EvaluationError{DecisionKey: d.def.Key, DefinitionID: d.def.ID, DecisionID: decisionID, Err: cause}
}

// mergedUnlikeOperaton reports whether dmn merged a required decision's
// result into the variables unlike Operaton: a single-hit table with
// several matching rules (dmn merges a list per output; Operaton takes one
// row or fails), a COUNT with one match (dmn merges the row, Operaton the
// count), a table that failed without a result.
func (c *compiledResource) mergedUnlikeOperaton(res dmn.Result) bool {
	for _, dr := range res.Decisions[:max(len(res.Decisions)-1, 0)] {
		p := c.byID[dr.ID]
		if p == nil || !p.table {
			continue
		}
		switch {
		case !dr.NoRuleMatched && len(dr.Rules) == 0:
			return true
		case p.hit == dmn.HitCollect:
			if p.agg == "COUNT" && len(dr.Rules) == 1 {
				return true
			}
		case p.hit == dmn.HitRuleOrder:
		default:
			if len(dr.Rules) > 1 {
				return true
			}
		}
	}
	return false
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

// row is one entry of a result list: the values of the decision's
// outputs, in the order of decisionPlan.outputs.
type row = []feel.Value

// rows turns a decision's result into Operaton's result list: for a
// decision table one row per matched rule for RULE ORDER, OUTPUT ORDER and
// COLLECT; one row for UNIQUE, ANY, FIRST, PRIORITY and an aggregating
// COLLECT; none when no rule matched. Other logic gives one row with the
// decision's variable.
func (p *decisionPlan) rows(dr dmn.DecisionResult, one *[1]row) ([]row, error) {
	single := func(r row) []row {
		one[0] = r
		return one[:]
	}
	if !p.table {
		return single(row{dr.Value}), nil
	}
	if dr.NoRuleMatched {
		return nil, nil
	}
	failed := func() error {
		if len(dr.Messages) > 0 {
			return errors.New(dr.Messages[0])
		}
		return fmt.Errorf("decision table %s has no result", p.id)
	}
	ruleRows := func() []row {
		rows := make([]row, len(dr.Rules))
		for i, r := range dr.Rules {
			rows[i] = r.Outputs
		}
		return rows
	}
	switch p.hit {
	case dmn.HitUnique, "":
		if len(dr.Rules) > 1 {
			return nil, fmt.Errorf("hit policy UNIQUE only allows a single rule to match, but %d rules match (%s)", len(dr.Rules), ruleIDs(dr.Rules))
		}
		if len(dr.Rules) == 0 {
			return nil, failed()
		}
		return single(dr.Rules[0].Outputs), nil
	case dmn.HitFirst:
		if len(dr.Rules) == 0 {
			return nil, failed()
		}
		return single(dr.Rules[0].Outputs), nil
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
		return single(dr.Rules[0].Outputs), nil
	case dmn.HitRuleOrder:
		return ruleRows(), nil
	case dmn.HitCollect:
		if p.agg != "" {
			if dr.Value == nil && len(dr.Messages) > 0 {
				return nil, failed()
			}
			return single(row{dr.Value}), nil
		}
		return ruleRows(), nil
	case dmn.HitPriority:
		// dmn picked the row; its value is the output (one) or a context (several)
		if dr.Value == nil && len(dr.Messages) > 0 {
			return nil, failed()
		}
		return single(p.valueRow(dr.Value)), nil
	case dmn.HitOutputOrder:
		list, ok := dr.Value.([]feel.Value)
		if !ok {
			return nil, failed()
		}
		rows := make([]row, len(list))
		for i, v := range list {
			rows[i] = p.valueRow(v)
		}
		return rows, nil
	}
	return nil, fmt.Errorf("hit policy %s is not supported", p.hit)
}

// valueRow makes a row of a table's row value: the single output's value,
// or a context with every output.
func (p *decisionPlan) valueRow(v feel.Value) row {
	if len(p.outputs) == 1 {
		return row{v}
	}
	r := make(row, len(p.outputs))
	if ctx, ok := v.(*feel.Context); ok {
		for i, o := range p.outputs {
			r[i], _ = ctx.Get(o.name)
		}
	}
	return r
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

// result converts the decision's rows to variables, typing numbers by the
// output's typeRef where Operaton would (double → Double, long → Long).
func (d *definition) result(ctx context.Context, rows []row) (engine.Result, error) {
	p := d.plan
	out := make(engine.Result, len(rows))
	for i, r := range rows {
		m := make(map[string]engine.Variable, len(p.outputs))
		for j, o := range p.outputs {
			var x feel.Value
			if j < len(r) {
				x = r[j]
			}
			v, err := engine.FromFEEL(x)
			if err != nil {
				return nil, d.failure(ctx, p.id, fmt.Errorf("output %q: %w", o.name, err))
			}
			m[o.name] = typed(o.typeRef, v)
		}
		out[i] = m
	}
	return out, nil
}

func typed(typeRef string, v engine.Variable) engine.Variable {
	switch v.Type {
	case engine.TypeInteger, engine.TypeLong, engine.TypeDouble:
	default:
		return v
	}
	switch strings.ToLower(typeRef) {
	case "double":
		v.Type = engine.TypeDouble
	case "long":
		if v.Type == engine.TypeInteger {
			v.Type = engine.TypeLong
		}
	}
	return v
}
