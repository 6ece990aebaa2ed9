package chain

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"time"

	"github.com/regelkit/regelkit/dmn"
	"github.com/regelkit/regelkit/engine"
)

// FixedModel is what a fixed chain knows of one model without asking a
// knowledge graph: its identifier (the engine's decision key), its title
// and the input variables it declares.
type FixedModel struct {
	Identifier string
	Title      string
	Inputs     []string
}

// FixedModelFromDMN reads a FixedModel from a DMN file (through
// dmn.ParseBytes, so it gets the DMN parser's bounds and positioned
// errors) whose decision with id identifier is the model's top decision:
// the title is that decision's name (else the definitions' name, else the
// identifier) and the inputs are the names of the file's inputData, in
// document order.
func FixedModelFromDMN(identifier string, dmnXML []byte) (FixedModel, error) {
	defs, err := dmn.ParseBytes(dmnXML)
	if err != nil {
		return FixedModel{}, fmt.Errorf("%s: %w", identifier, err)
	}
	m := FixedModel{Identifier: identifier}
	found := false
	for _, d := range defs.Decisions {
		if d.ID == identifier {
			found = true
			m.Title = strings.TrimSpace(d.Name)
			break
		}
	}
	if !found {
		return FixedModel{}, fmt.Errorf("%s: no decision with id %q", identifier, identifier)
	}
	for _, in := range defs.InputData {
		name := in.Name
		if in.Variable != nil && in.Variable.Name != "" {
			name = in.Variable.Name
		}
		if name != "" {
			m.Inputs = append(m.Inputs, name)
		}
	}
	if m.Title == "" {
		m.Title = strings.TrimSpace(defs.Name)
	}
	if m.Title == "" {
		m.Title = identifier
	}
	return m, nil
}

// FixedChain is a chain of known models, such as the local-pass chain:
// every step is sent the accumulated variables, each input a model
// declares that is still absent is sent as null, and the final outputs
// are picked from the merged results.
type FixedChain struct {
	Models       []FixedModel
	FinalOutputs []string
	// Fields are the request inputs and their types (see Variables).
	Fields []InputField
}

// The local-pass chain (explorer spec §2.5): the identifiers of
// its three models in execution order and its two final outputs.
var (
	LocalPassIdentifiers  = []string{"SVB_LeeftijdsInformatie", "SZW_BijstandsnormInformatie", "RONL_LocalpassEindresultaat"}
	LocalPassFinalOutputs = []string{"aanmerkingLocalPass", "aanmerkingKindPakket"}
)

// Field types of a fixed chain's request inputs.
const (
	FieldDate    = "date"    // a YYYY-MM-DD string naming a calendar day
	FieldBoolean = "boolean" // true or false
	FieldNumber  = "number"  // a JSON number (kept exact)
)

// InputField is a request input of a fixed chain and its type.
type InputField struct{ Name, Type string }

// LocalPassFields are the request inputs of the local-pass chain
// (explorer spec §4, POST /v1/chains/execute/localpass).
var LocalPassFields = []InputField{
	{"geboortedatumAanvrager", FieldDate},
	{"geboortedatumPartner", FieldDate},
	{"dagVanAanvraag", FieldDate},
	{"aanvragerAlleenstaand", FieldBoolean},
	{"aanvragerHeeftKinderen", FieldBoolean},
	{"aanvragerHeeftKind4Tm17", FieldBoolean},
	{"aanvragerInwonerMunicipality", FieldBoolean},
	{"maandelijksBrutoInkomenAanvrager", FieldNumber},
	{"aanvragerUitkeringBaanbrekers", FieldBoolean},
	{"aanvragerVoedselbankpasCity", FieldBoolean},
	{"aanvragerKwijtscheldingGemeentelijkeBelastingen", FieldBoolean},
	{"aanvragerSchuldhulptrajectCreditBank", FieldBoolean},
	{"aanvragerDitKalenderjaarAlAangevraagd", FieldBoolean},
	{"aanvragerAanmerkingStudieFinanciering", FieldBoolean},
}

// InputError lists the request inputs of a fixed chain that do not have
// their field's type, each as "inputs.<name> must be …".
type InputError struct{ Problems []string }

func (e *InputError) Error() string { return strings.Join(e.Problems, "; ") }

// Variables checks request inputs (JSON values as encoding/json decodes
// them, numbers preferably as json.Number) against the chain's fields and
// converts them to engine variables. A null counts as absent; an absent
// field is sent to the models as null by Run; inputs that are not fields
// of the chain are ignored. Dates stay YYYY-MM-DD strings.
func (c *FixedChain) Variables(inputs map[string]any) (engine.Variables, error) {
	vars := engine.Variables{}
	var problems []string
	for _, f := range c.Fields {
		raw, ok := inputs[f.Name]
		if !ok || raw == nil {
			continue
		}
		var v engine.Variable
		good := false
		switch f.Type {
		case FieldDate:
			if s, isString := raw.(string); isString && isDate(s) {
				v, good = engine.String(s), true
			}
		case FieldBoolean:
			if b, isBool := raw.(bool); isBool {
				v, good = engine.Boolean(b), true
			}
		case FieldNumber:
			switch n := raw.(type) {
			case json.Number, float64, int, int64:
				var err error
				v, err = engine.Infer(n)
				good = err == nil
			}
		}
		if !good {
			problems = append(problems, fmt.Sprintf("inputs.%s must be %s", f.Name, fieldKind[f.Type]))
			continue
		}
		vars[f.Name] = v
	}
	if len(problems) > 0 {
		return nil, &InputError{Problems: problems}
	}
	return vars, nil
}

var fieldKind = map[string]string{
	FieldDate:    "a date string YYYY-MM-DD",
	FieldBoolean: "a boolean",
	FieldNumber:  "a number",
}

// isDate reports whether s is YYYY-MM-DD naming a real calendar day.
func isDate(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	_, err := time.Parse(time.DateOnly, s)
	return err == nil
}

// NewLocalPass returns the local-pass chain over the three DMN files of
// its models, given in execution order (the identifiers of
// LocalPassIdentifiers).
func NewLocalPass(dmnFiles ...[]byte) (*FixedChain, error) {
	if len(dmnFiles) != len(LocalPassIdentifiers) {
		return nil, fmt.Errorf("the local-pass chain needs %d DMN files, got %d", len(LocalPassIdentifiers), len(dmnFiles))
	}
	c := &FixedChain{FinalOutputs: LocalPassFinalOutputs, Fields: LocalPassFields}
	for i, id := range LocalPassIdentifiers {
		m, err := FixedModelFromDMN(id, dmnFiles[i])
		if err != nil {
			return nil, err
		}
		c.Models = append(c.Models, m)
	}
	return c, nil
}

// ID is the chain's identifier: the model identifiers joined with "->".
func (c *FixedChain) ID() string {
	ids := make([]string, len(c.Models))
	for i, m := range c.Models {
		ids[i] = m.Identifier
	}
	return strings.Join(ids, "->")
}

// FixedResult is the result of a fixed chain (explorer spec §2.5).
// Durations are in milliseconds; Steps is nil unless asked for.
type FixedResult struct {
	ChainID       string         `json:"chainId"`
	ExecutionTime float64        `json:"executionTime"`
	FinalOutputs  map[string]any `json:"finalOutputs"`
	Steps         []FixedStep    `json:"steps,omitempty"`
}

// FixedStep is one step of a fixed chain: the inputs are the variables
// the model declares, as they were sent.
type FixedStep struct {
	DMNID         string         `json:"dmnId"`
	DMNTitle      string         `json:"dmnTitle"`
	Inputs        map[string]any `json:"inputs"`
	Outputs       map[string]any `json:"outputs"`
	ExecutionTime float64        `json:"executionTime"`
}

// RunOptions tune FixedChain.Run.
type RunOptions struct {
	// Steps adds the intermediate steps (each model's declared inputs,
	// outputs and time) to the result.
	Steps bool
}

// Run executes the chain on eng. A step the engine cannot evaluate, or
// whose result has no rows, stops the run with a *StepError naming the
// model.
func (c *FixedChain) Run(ctx context.Context, eng engine.Decisions, inputs engine.Variables, opts RunOptions) (*FixedResult, error) {
	start := time.Now()
	vars := maps.Clone(inputs)
	if vars == nil {
		vars = engine.Variables{}
	}
	results := engine.Variables{}
	out := &FixedResult{ChainID: c.ID()}
	for _, m := range c.Models {
		declared := make(map[string]any, len(m.Inputs))
		for _, name := range m.Inputs {
			v, ok := vars[name]
			if !ok {
				v = engine.Null()
				vars[name] = v
			}
			declared[name] = v.Plain()
		}
		outs, took, err := runStep(ctx, eng, m.Identifier, maps.Clone(vars))
		if err != nil {
			return nil, err
		}
		maps.Copy(vars, outs)
		maps.Copy(results, outs)
		if opts.Steps {
			out.Steps = append(out.Steps, FixedStep{DMNID: m.Identifier, DMNTitle: m.Title,
				Inputs: declared, Outputs: Plain(outs), ExecutionTime: millis(took)})
		}
	}
	out.FinalOutputs = make(map[string]any, len(c.FinalOutputs))
	for _, name := range c.FinalOutputs {
		var v any // null when no step produced it
		if x, ok := results[name]; ok {
			v = x.Plain()
		}
		out.FinalOutputs[name] = v
	}
	out.ExecutionTime = millis(time.Since(start))
	return out, nil
}
