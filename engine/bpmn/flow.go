package bpmn

import (
	"context"
	"fmt"
	"strings"
)

// NoFlowError is an exclusive gateway (or an activity with conditional
// flows) where no condition held and no default flow exists; Operaton
// fails the instance with the same message.
type NoFlowError struct{ ElementID string }

func (e *NoFlowError) Error() string {
	return fmt.Sprintf("bpmn: No outgoing sequence flow for the element with id '%s' could be selected for continuing the process", e.ElementID)
}

// Next returns the sequence flows a token takes when it leaves e, as
// Operaton chooses them. An exclusive gateway takes the first outgoing
// flow in document order whose condition holds, else its default flow.
// A parallel gateway takes every outgoing flow (conditions are ignored).
// Any other element takes every flow without a condition and every flow
// whose condition holds; when none qualifies it takes its default flow.
// No flow to take is a *NoFlowError when e has outgoing flows, and an
// empty list (the token ends) when it has none. A condition that fails to
// evaluate returns its *ExprError.
func (e *Element) Next(vars Variables) ([]*Flow, error) {
	switch e.Kind {
	case ParallelGateway:
		return e.Outgoing, nil
	case ExclusiveGateway:
		for _, f := range e.Outgoing {
			if f == e.Default {
				continue
			}
			ok, err := f.holds(vars)
			if err != nil {
				return nil, err
			}
			if ok {
				return []*Flow{f}, nil
			}
		}
		if e.Default != nil {
			return []*Flow{e.Default}, nil
		}
		return nil, &NoFlowError{ElementID: e.ID}
	}
	if len(e.Outgoing) == 0 {
		return nil, nil
	}
	var out []*Flow
	for _, f := range e.Outgoing {
		if f == e.Default {
			continue
		}
		ok, err := f.holds(vars)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		if e.Default == nil {
			return nil, &NoFlowError{ElementID: e.ID}
		}
		out = append(out, e.Default)
	}
	return out, nil
}

func (f *Flow) holds(vars Variables) (bool, error) {
	if f.Condition == nil {
		return true, nil
	}
	return f.Condition.EvalBool(vars)
}

// EvalList evaluates a comma-separated list attribute (candidate users
// and groups, candidate starters): the expression's value split on commas,
// trimmed, empty items dropped. A value that is a list gives its items.
// A nil expression gives nil.
func EvalList(e *Expr, vars Variables) ([]string, error) {
	if e == nil {
		return nil, nil
	}
	v, err := e.Eval(vars)
	if err != nil {
		return nil, err
	}
	var items []string
	add := func(s string) {
		for _, part := range strings.Split(s, ",") {
			if part = strings.TrimSpace(part); part != "" {
				items = append(items, part)
			}
		}
	}
	switch x := v.(type) {
	case nil:
	case []any:
		for _, item := range x {
			s, err := toString(normalize(item))
			if err != nil {
				return nil, e.wrap(err)
			}
			add(s)
		}
	default:
		s, err := toString(x)
		if err != nil {
			return nil, e.wrap(err)
		}
		add(s)
	}
	return items, nil
}

// Eval computes a camunda:inputOutput parameter's value: text as an
// expression (a literal stays a string), lists and maps item by item,
// a script with RunScript under limits; an empty parameter is nil.
// Nesting follows the parsed document, which Parse bounds.
func (p ParamValue) Eval(ctx context.Context, scope ScriptScope, limits Limits) (any, error) {
	switch {
	case p.Script != nil:
		return RunScript(ctx, p.Script, scope, limits)
	case p.IsList:
		out := make([]any, len(p.List))
		for i, item := range p.List {
			v, err := item.Eval(ctx, scope, limits)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case p.IsMap:
		out := make(map[string]any, len(p.Map))
		for _, entry := range p.Map {
			v, err := entry.Value.Eval(ctx, scope, limits)
			if err != nil {
				return nil, err
			}
			out[entry.Key] = v
		}
		return out, nil
	case p.Text != nil:
		return p.Text.Eval(scope)
	}
	return nil, nil
}
