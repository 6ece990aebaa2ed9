package local

import (
	"context"
	"errors"
	"fmt"

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
	d, err := e.byKeySynced(ctx, key, tenantID)
	if err != nil {
		return nil, err
	}
	return e.evaluate(ctx, d, vars)
}

// EvaluateDefinition evaluates the decision definition with the id.
func (e *Engine) EvaluateDefinition(ctx context.Context, id string, vars engine.Variables) (engine.Result, error) {
	d, err := e.byIDSynced(ctx, id)
	if err != nil {
		return nil, err
	}
	return e.evaluate(ctx, d, vars)
}

// smallInputs is the number of variables up to which they are passed to
// dmn as a context (a slice of names and values, looked up by scanning)
// rather than a map, which costs more to build than it saves in lookups.
const smallInputs = 16

func (e *Engine) evaluate(ctx context.Context, d *definition, vars engine.Variables) (engine.Result, error) {
	opts := dmn.EvalOptions{Limits: e.opts.Limits}
	if e.opts.Now != nil {
		opts.Now = e.opts.Now()
	}
	var res dmn.Result
	var err error
	if len(vars) <= smallInputs {
		in := feel.NewContext(len(vars))
		for name, v := range vars {
			x, err := FEEL(v)
			if err != nil {
				return nil, namedVariableError(name, err)
			}
			in.Put(name, x)
		}
		res, err = d.res.model.EvaluateContext(ctx, d.plan.id, in, opts)
	} else {
		in, verr := FEELInputs(vars)
		if verr != nil {
			return nil, verr
		}
		res, err = d.res.model.EvaluateWith(ctx, d.plan.id, in, opts)
	}
	if err != nil {
		return nil, d.failure(ctx, err)
	}
	main := res.Main()
	if e.opts.Standard {
		// with DMN semantics a failed decision is null; the evaluation
		// fails when the decision itself failed or any decision reached an
		// expression that did not compile
		for _, dr := range res.Decisions {
			if f := dr.Failure; f != nil && (dr.ID == main.ID || f.Kind == dmn.CompileProblem) {
				return nil, d.failure(ctx, f)
			}
		}
	}
	var buf [1]dmn.Row
	return d.result(ctx, main.AppendRows(buf[:0]))
}

// namedVariableError names the variable in a conversion error.
func namedVariableError(name string, err error) error {
	var ve *engine.VariableError
	if errors.As(err, &ve) {
		named := *ve
		named.Name = name
		return &named
	}
	return err
}

// failure is the error of a failed evaluation: the context's error when it
// ended, else an *engine.EvaluationError.
func (d *definition) failure(ctx context.Context, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		return cerr
	}
	ee := &engine.EvaluationError{DecisionKey: d.def.Key, DefinitionID: d.def.ID, DecisionID: d.plan.id, Err: err}
	var de *dmn.EvalError
	if errors.As(err, &de) {
		ee.DecisionID, ee.Err = de.DecisionID, reason{de}
		if de.Kind == dmn.UnknownVariable {
			ee.Variable, ee.NoRuleMatched = de.Variable, de.NoRuleMatched
		}
	}
	return ee
}

// reason is a dmn failure as the cause of an engine.EvaluationError, which
// names the decision itself: its text is the reason alone.
type reason struct{ err *dmn.EvalError }

func (r reason) Error() string { return r.err.Reason() }
func (r reason) Unwrap() error { return r.err }

// result converts the decision's result rows to variables, typing numbers
// by the output's typeRef where Operaton would (double → Double, long →
// Long).
func (d *definition) result(ctx context.Context, rows []dmn.Row) (engine.Result, error) {
	p := d.plan
	out := make(engine.Result, len(rows))
	for i, r := range rows {
		m := make(map[string]engine.Variable, len(r.Names))
		aligned := len(r.Names) == len(p.outputs)
		for j, name := range r.Names {
			v, err := FromFEEL(r.Values[j])
			if err != nil {
				return nil, d.failure(ctx, fmt.Errorf("output %q: %w", name, err))
			}
			if aligned {
				v = typed(p.outputs[j].num, v)
			} else {
				v = typed(p.numberTypeOf(name), v)
			}
			m[name] = v
		}
		out[i] = m
	}
	return out, nil
}

// numberTypeOf finds the number type of an output by name.
func (p *decisionPlan) numberTypeOf(name string) numberType {
	for _, o := range p.outputs {
		if o.name == name {
			return o.num
		}
	}
	return numberAsIs
}

func typed(n numberType, v engine.Variable) engine.Variable {
	if n == numberAsIs {
		return v
	}
	switch v.Type {
	case engine.TypeInteger, engine.TypeLong, engine.TypeDouble:
	default:
		return v
	}
	switch n {
	case numberDouble:
		v.Type = engine.TypeDouble
	case numberLong:
		if v.Type == engine.TypeInteger {
			v.Type = engine.TypeLong
		}
	}
	return v
}
