package chain

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"
	"time"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/sparql"
)

// Execution is the result of a chain run (explorer spec §2.4): the merged
// outputs of every step, the steps in order and the total duration in
// milliseconds.
type Execution struct {
	Results       map[string]any `json:"results"`
	Steps         []Step         `json:"steps"`
	TotalDuration float64        `json:"totalDuration"`
}

// Step is one evaluated model of a chain: its identifier (the engine's
// decision key), a copy of the variables it was sent, its outputs and
// its duration in milliseconds. Values are plain JSON values; numbers are
// json.Number with their exact decimal text.
type Step struct {
	DMN      string         `json:"dmn"`
	Inputs   map[string]any `json:"inputs"`
	Outputs  map[string]any `json:"outputs"`
	Duration float64        `json:"duration"`
}

// StepError is a chain step the engine could not evaluate. Its message
// names the model first: "SZW_BijstandsnormInformatie: no rule matched
// (SZW_Bijstandsnormtermijn)", "RONL_X: engine returned 500 RestException: …".
type StepError struct {
	Model string // the model's identifier (engine decision key)
	// NoRuleMatched is the id of the decision whose table matched no rule
	// (the model's own decision or one it requires), or "".
	NoRuleMatched string
	Err           error // the engine's error, nil for a result without rows
}

func (e *StepError) Error() string {
	if e.NoRuleMatched != "" {
		return fmt.Sprintf("%s: no rule matched (%s)", e.Model, e.NoRuleMatched)
	}
	var ee *engine.Error
	var eve *engine.EvaluationError
	switch {
	case errors.As(e.Err, &ee):
		msg := fmt.Sprintf("%s: engine returned %d", e.Model, ee.Status)
		if ee.Type != "" {
			msg += " " + ee.Type
		}
		if ee.Message != "" {
			msg += ": " + ee.Message
		}
		return msg
	case errors.As(e.Err, &eve):
		// The evaluation error already starts with the decision key.
		if eve.DecisionKey == e.Model {
			return eve.Error()
		}
		return e.Model + ": " + eve.Error()
	case errors.Is(e.Err, engine.ErrUnavailable):
		return e.Model + ": engine unavailable: " + strings.TrimPrefix(e.Err.Error(), "engine: unavailable: ")
	case e.Err != nil:
		return e.Model + ": " + strings.TrimPrefix(e.Err.Error(), "engine: ")
	}
	return e.Model + ": evaluation failed"
}

func (e *StepError) Unwrap() error { return e.Err }

// evaluate runs one model and turns an empty result or an engine failure
// into a *StepError. A context error is returned as it is.
func evaluate(ctx context.Context, eng engine.Decisions, key string, vars engine.Variables) (engine.Result, time.Duration, error) {
	start := time.Now()
	res, err := eng.Evaluate(ctx, key, "", vars)
	took := time.Since(start)
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return nil, took, cerr
		}
		se := &StepError{Model: key, Err: err}
		var eve *engine.EvaluationError
		if errors.As(err, &eve) && eve.NoRuleMatched != "" {
			se.NoRuleMatched = eve.NoRuleMatched
		}
		return nil, took, se
	}
	if res.NoRuleMatched() {
		return nil, took, &StepError{Model: key, NoRuleMatched: key}
	}
	return res, took, nil
}

// outputsOf collapses a result the way Operaton's
// variable merging do: one row gives its entries; several rows give, per
// output name, the list of its values in row order (a Json variable).
func outputsOf(res engine.Result) (engine.Variables, error) {
	if len(res) == 1 {
		return maps.Clone(engine.Variables(res[0])), nil
	}
	out := engine.Variables{}
	for name, col := range res.Values() {
		// engine.JSON keeps the column's values as they came (json.Number
		// stays a number) and names the output when one cannot be encoded.
		v, err := engine.JSON(col)
		if err != nil {
			return nil, fmt.Errorf("output %s: %w", name, err)
		}
		out[name] = v
	}
	return out, nil
}

// runStep evaluates one model and collapses its result into outputs.
func runStep(ctx context.Context, eng engine.Decisions, key string, vars engine.Variables) (engine.Variables, time.Duration, error) {
	res, took, err := evaluate(ctx, eng, key, vars)
	if err != nil {
		return nil, took, err
	}
	outs, err := outputsOf(res)
	if err != nil {
		return nil, took, &StepError{Model: key, Err: err}
	}
	return outs, took, nil
}

// Plain returns the variables as plain JSON-ready values (see
// engine.Variable.Plain); numbers keep their exact decimal text.
func Plain(vs engine.Variables) map[string]any {
	out := make(map[string]any, len(vs))
	for k, v := range vs {
		out[k] = v.Plain()
	}
	return out
}

func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Execute runs models in order on eng. Variables
// start as a copy of inputs; every step is sent all accumulated variables
// and its outputs are merged over them. Results holds the merged outputs
// of all steps (not the inputs), later steps overwriting earlier ones.
//
// Before each step after the first, every input the model declares that
// is absent from the variables is taken from the most recent earlier step
// whose output shares its skos:exactMatch concept under another
// identifier (semantic pass-forward). The links are read from ep, once
// and only when such an input is missing; a nil ep disables pass-forward.
//
// A step the engine cannot evaluate, or whose result has no rows, stops
// the run with a *StepError naming the model.
func Execute(ctx context.Context, eng engine.Decisions, ep sparql.Endpoint, models []Model, inputs engine.Variables) (*Execution, error) {
	start := time.Now()
	vars := maps.Clone(inputs)
	if vars == nil {
		vars = engine.Variables{}
	}
	results := engine.Variables{}
	out := &Execution{Steps: make([]Step, 0, len(models))}
	produced := make([]engine.Variables, 0, len(models)) // outputs per step
	var links []Pair
	linksRead := false
	for i, m := range models {
		if i > 0 && ep != nil {
			var missing []string
			for _, in := range m.Inputs {
				if _, ok := vars[in.Identifier]; !ok {
					missing = append(missing, in.Identifier)
				}
			}
			if len(missing) > 0 && !linksRead {
				var err error
				if links, err = SemanticLinks(ctx, ep, models); err != nil {
					return nil, err
				}
				linksRead = true
			}
			for _, in := range missing {
				if v, ok := passForward(models, produced, links, i, in); ok {
					vars[in] = v
				}
			}
		}
		sent := maps.Clone(vars)
		outs, took, err := runStep(ctx, eng, m.Identifier, sent)
		if err != nil {
			return nil, err
		}
		maps.Copy(vars, outs)
		maps.Copy(results, outs)
		produced = append(produced, outs)
		out.Steps = append(out.Steps, Step{DMN: m.Identifier, Inputs: Plain(sent), Outputs: Plain(outs), Duration: millis(took)})
	}
	out.Results = Plain(results)
	out.TotalDuration = millis(time.Since(start))
	return out, nil
}

// passForward finds the value for the declared input in of model i among
// the outputs of earlier steps linked to it semantically, the most recent
// step first.
func passForward(models []Model, produced []engine.Variables, links []Pair, i int, in string) (engine.Variable, bool) {
	for j := i - 1; j >= 0; j-- {
		for _, p := range links {
			if p.MatchType != MatchSemantic || p.InputVariable != in ||
				p.DMN1.URI != models[j].ID || p.DMN2.URI != models[i].ID {
				continue
			}
			if v, ok := produced[j][p.OutputVariable]; ok {
				return v, true
			}
		}
	}
	return engine.Variable{}, false
}

// ExecuteDRD evaluates a deployed DRD from its entry point: one
// evaluation of key (the executable, prefixed key an export returns, e.g.
// dmn2_RONL_LocalpassEindresultaat), which evaluates the required
// decisions first. The result has one step.
func ExecuteDRD(ctx context.Context, eng engine.Decisions, key string, inputs engine.Variables) (*Execution, error) {
	start := time.Now()
	sent := maps.Clone(inputs)
	if sent == nil {
		sent = engine.Variables{}
	}
	outs, took, err := runStep(ctx, eng, key, sent)
	if err != nil {
		return nil, err
	}
	return &Execution{
		Results:       Plain(outs),
		Steps:         []Step{{DMN: key, Inputs: Plain(sent), Outputs: Plain(outs), Duration: millis(took)}},
		TotalDuration: millis(time.Since(start)),
	}, nil
}
