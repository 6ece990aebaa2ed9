package validate

import (
	"encoding/json"
)

// Severity grades an issue. Only errors make a model invalid.
type Severity string

// Severities.
const (
	Error   Severity = "error"
	Warning Severity = "warning"
	Info    Severity = "info"
)

// LayerKey names one of the five check layers as the response spells it.
type LayerKey string

// The five layers, in check order.
const (
	LayerBase        LayerKey = "base"        // 1 structure
	LayerBusiness    LayerKey = "business"    // 2 decision tables
	LayerExecution   LayerKey = "execution"   // 3 CPRMV attributes
	LayerInteraction LayerKey = "interaction" // 4 decision requirements diagram
	LayerContent     LayerKey = "content"     // 5 metadata quality
)

// LayerKeys lists the layers in check order.
var LayerKeys = [...]LayerKey{LayerBase, LayerBusiness, LayerExecution, LayerInteraction, LayerContent}

// Label is the human-readable name of a layer in the response.
func (k LayerKey) Label() string {
	switch k {
	case LayerBase:
		return "Base DMN"
	case LayerBusiness:
		return "Business Rules"
	case LayerExecution:
		return "Execution Rules"
	case LayerInteraction:
		return "Interaction Rules"
	case LayerContent:
		return "Content"
	}
	return string(k)
}

// Issue is one finding. Location is the element path such as
// `<decision id="d1"> > <rule id="r3">`; Line and Column (1-based, the
// column counted in bytes) point at the element's start tag or, for
// BASE-PARSE, at the parse failure. Empty Location and zero Line/Column mean
// not applicable and are written as JSON null.
type Issue struct {
	Severity Severity
	Code     string
	Message  string
	Location string
	Line     int
	Column   int
}

// MarshalJSON writes every key, with null for what does not apply.
func (i Issue) MarshalJSON() ([]byte, error) {
	out := struct {
		Severity Severity `json:"severity"`
		Code     string   `json:"code"`
		Message  string   `json:"message"`
		Location *string  `json:"location"`
		Line     *int     `json:"line"`
		Column   *int     `json:"column"`
	}{Severity: i.Severity, Code: i.Code, Message: i.Message}
	if i.Location != "" {
		out.Location = &i.Location
	}
	if i.Line > 0 {
		out.Line = &i.Line
		out.Column = &i.Column
	}
	return json.Marshal(out)
}

// Layer holds the issues of one check layer.
type Layer struct {
	Label  string  `json:"label"`
	Issues []Issue `json:"issues"`
}

// Layers holds the five layers under the keys of the response.
type Layers struct {
	Base        Layer `json:"base"`
	Business    Layer `json:"business"`
	Execution   Layer `json:"execution"`
	Interaction Layer `json:"interaction"`
	Content     Layer `json:"content"`
}

// Get returns the layer with key k.
func (l *Layers) Get(k LayerKey) *Layer {
	switch k {
	case LayerBase:
		return &l.Base
	case LayerBusiness:
		return &l.Business
	case LayerExecution:
		return &l.Execution
	case LayerInteraction:
		return &l.Interaction
	case LayerContent:
		return &l.Content
	}
	return nil
}

// Summary counts the issues by severity.
type Summary struct {
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Infos    int `json:"infos"`
}

// Report is the result of Validate. Its JSON form is the data member of
// the POST /v1/dmns/validate response.
type Report struct {
	// Valid is true when the document parsed and no issue is an error.
	Valid bool
	// ParseError is the text of the XML parse failure, "" when it parsed.
	ParseError string
	Layers     Layers
	Summary    Summary
}

// Issues returns every issue in layer order.
func (r *Report) Issues() []Issue {
	var out []Issue
	for _, k := range LayerKeys {
		out = append(out, r.Layers.Get(k).Issues...)
	}
	return out
}

// MarshalJSON writes parseError as null when the document parsed and every
// issue list as an array, never null.
func (r Report) MarshalJSON() ([]byte, error) {
	for _, k := range LayerKeys {
		if l := r.Layers.Get(k); l.Issues == nil {
			l.Issues = []Issue{}
		}
	}
	out := struct {
		Valid      bool    `json:"valid"`
		ParseError *string `json:"parseError"`
		Layers     Layers  `json:"layers"`
		Summary    Summary `json:"summary"`
	}{Valid: r.Valid, Layers: r.Layers, Summary: r.Summary}
	if r.ParseError != "" {
		out.ParseError = &r.ParseError
	}
	return json.Marshal(out)
}

// Code describes one issue code: its fixed severity, its layer and the rule it checks.
type Code struct {
	Code     string
	Severity Severity
	Layer    LayerKey
	Rule     string
}

// codeTable is the project's code table plus BIZ-015
// and BIZ-016.
var codeTable = []Code{
	{"BASE-PARSE", Error, LayerBase, "the document is not well-formed XML, or is unsafe (DTD, too deep, too large); line and column locate the failure"},
	{"BASE-ROOT", Error, LayerBase, "the root element is not definitions"},
	{"BASE-NS", Error, LayerBase, "the namespace of definitions is not a recognised DMN namespace"},
	{"BASE-NAME", Error, LayerBase, "definitions has no non-empty name attribute"},
	{"BASE-NSATTR", Error, LayerBase, "definitions has no non-empty namespace attribute"},
	{"BASE-EMPTY", Error, LayerBase, "the document has no decision element"},
	{"BASE-ERR", Error, LayerBase, "unexpected internal failure of the validator"},
	{"BIZ-001", Error, LayerBusiness, "hitPolicy is not one of UNIQUE, FIRST, ANY, COLLECT, RULE ORDER, OUTPUT ORDER, PRIORITY (absent means UNIQUE)"},
	{"BIZ-002", Warning, LayerBusiness, "an inputExpression has no typeRef"},
	{"BIZ-003", Warning, LayerBusiness, "an input typeRef is not a known FEEL type (string, boolean, integer, long, double, number, date, capitalised forms) or an itemDefinition of the model"},
	{"BIZ-004", Warning, LayerBusiness, "a decision-table output has no typeRef"},
	{"BIZ-005", Warning, LayerBusiness, "an output typeRef is not a known FEEL type or an itemDefinition of the model"},
	{"BIZ-006", Error, LayerBusiness, "a rule has a different number of inputEntry elements than the table has inputs"},
	{"BIZ-007", Error, LayerBusiness, "a rule has a different number of outputEntry elements than the table has outputs"},
	{"BIZ-008", Error, LayerBusiness, "UNIQUE or ANY table: two rules have identical (trimmed) text in every input entry"},
	{"BIZ-009", Warning, LayerBusiness, "UNIQUE or ANY table: a rule whose input entries are all empty or - next to at least one specific rule"},
	{"BIZ-010", Error, LayerBusiness, "a decision-table input has no id"},
	{"BIZ-011", Error, LayerBusiness, "a decision-table output has no id"},
	{"BIZ-012", Error, LayerBusiness, "a rule has no id"},
	{"BIZ-013", Error, LayerBusiness, "an inputEntry has no id"},
	{"BIZ-014", Error, LayerBusiness, "an outputEntry has no id"},
	{"BIZ-015", Error, LayerBusiness, "FEEL syntax error in an input entry, output entry or input expression; the message names the cell and the position in its text"},
	{"BIZ-016", Error, LayerBusiness, "UNIQUE table: two rules overlap semantically (numeric or date intervals, enumerations, negations); the message names both rule ids and an example input matching both"},
	{"EXEC-001", Info, LayerExecution, "no CPRMV attribute anywhere in the model; the other CPRMV checks are skipped"},
	{"EXEC-002", Error, LayerExecution, "decision cprmv:rulesetType is not one of decision-table, conditional-calculation, constraint-table, derivation-table"},
	{"EXEC-003", Warning, LayerExecution, "decision cprmv:implements does not match BWBR followed by 7 digits"},
	{"EXEC-004", Error, LayerExecution, "rule cprmv:ruleType is not one of temporal-period, conditional, derivation, constraint, decision-rule, default"},
	{"EXEC-005", Error, LayerExecution, "rule cprmv:confidence is not one of low, medium, high"},
	{"EXEC-006", Error, LayerExecution, "rule cprmv:validFrom is not a YYYY-MM-DD date"},
	{"EXEC-007", Error, LayerExecution, "rule cprmv:validUntil is not a YYYY-MM-DD date"},
	{"EXEC-008", Error, LayerExecution, "rule cprmv:validFrom is not before cprmv:validUntil"},
	{"EXEC-009", Warning, LayerExecution, "temporal-period rule without cprmv:validFrom"},
	{"EXEC-010", Warning, LayerExecution, "temporal-period rule without cprmv:validUntil"},
	{"EXEC-011", Warning, LayerExecution, "cell dct:source (or source1, source2, …) is neither a UUID nor an http(s) URL on pna-web.com"},
	{"EXEC-012", Warning, LayerExecution, "cell cprmv:isBasedOn (or isBasedOn1, …) is neither a JuriConnect citation nor an http(s) URL"},
	{"EXEC-013", Warning, LayerExecution, "rule cprmv:extends is neither a JuriConnect citation nor an http(s) URL"},
	{"INT-001", Error, LayerInteraction, "requiredInput href names no inputData id"},
	{"INT-002", Error, LayerInteraction, "requiredDecision href names no decision id"},
	{"INT-003", Error, LayerInteraction, "a decision requires itself, directly or through a cycle of required decisions"},
	{"INT-004", Warning, LayerInteraction, "informationRequirement without requiredInput or requiredDecision"},
	{"INT-005", Warning, LayerInteraction, "inputData referenced by no informationRequirement (only in a DRD: more than one decision or any informationRequirement)"},
	{"INT-006", Warning, LayerInteraction, "inputData name differs from its variable name"},
	{"INT-007", Warning, LayerInteraction, "a name used in an inputExpression is declared by no inputData (nor by a required decision's output)"},
	{"CON-001", Warning, LayerContent, "decision cprmv:title or cprmv:description present but empty"},
	{"CON-002", Warning, LayerContent, "inputData cprmv:description present but empty"},
	{"CON-003", Info, LayerContent, "rule cprmv:note present but empty"},
	{"CON-004", Info, LayerContent, "variable without typeRef"},
	{"CON-005", Info, LayerContent, "textAnnotation without text"},
}

var codeIndex = func() map[string]Code {
	m := make(map[string]Code, len(codeTable))
	for _, c := range codeTable {
		m[c.Code] = c
	}
	return m
}()

// Codes returns the code table: every code Validate can report, with its
// severity, layer and rule, in layer order.
func Codes() []Code { return append([]Code(nil), codeTable...) }
