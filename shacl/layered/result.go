package layered

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/regelkit/regelkit/shacl"
	"github.com/regelkit/regelkit/sparql/graph"
)

// Result is the outcome of a layered check; it marshals to the `data` of
// the explorer's SHACL responses.
type Result struct {
	// Valid: no parse error, no error-severity issue, every layer loaded.
	Valid bool `json:"valid"`
	// ParseError is the Turtle syntax error ("line L, column C: ..."), or
	// nil.
	ParseError *string `json:"parseError"`
	Layers     Layers  `json:"layers"`
	Summary    Summary `json:"summary"`
	// Complete is true when every layer is loaded.
	Complete bool `json:"complete"`
}

// Layer returns the result of the layer with the given key.
func (r *Result) Layer(key string) (LayerResult, bool) {
	for _, l := range r.Layers {
		if l.Key == key {
			return l, true
		}
	}
	return LayerResult{}, false
}

// Summary counts issues by severity over all layers.
type Summary struct {
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Infos    int `json:"infos"`
}

// LayerResult is one layer's outcome.
type LayerResult struct {
	Key    string  `json:"-"`
	Label  string  `json:"label"`
	Loaded bool    `json:"loaded"`
	Issues []Issue `json:"issues"`
}

// Layers marshals as a JSON object keyed by layer key, in layer order.
type Layers []LayerResult

// MarshalJSON writes {"<key>": {label, loaded, issues}, ...} in order.
func (ls Layers) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, l := range ls {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(l.Key)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(l)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Issue severities.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
	SeverityInfo    = "info"
)

// Issue is one SHACL finding as the explorer reports it.
type Issue struct {
	Severity string `json:"severity"`
	// Code is SHACL-<COMPONENT>, e.g. SHACL-MAXCOUNT.
	Code    string `json:"code"`
	Message string `json:"message"`
	// Location is the focus node and, for property shapes, the compact
	// path: "https://example.org/org/1 foaf:homepage".
	Location string `json:"location,omitempty"`
}

// issue converts one validation result (explorer notes §6.5).
func (c *Checker) issue(data *graph.Graph, r shacl.Result) Issue {
	is := Issue{Severity: severity(r.Severity), Code: code(r)}
	var msgs []string
	for _, m := range r.Messages {
		msgs = append(msgs, m.Value)
	}
	is.Message = strings.Join(msgs, "; ")
	if is.Message == "" {
		is.Message = is.Code
	}
	is.Location = render(r.Focus)
	if r.Path != nil {
		is.Location += " " + r.Path.Format(c.locations)
		// Cardinality and uniqueness findings are only actionable with every
		// value in view: list them all, never truncated.
		if vals := r.Path.Values(data, r.Focus); len(vals) > 1 {
			parts := make([]string, len(vals))
			for i, v := range vals {
				parts[i] = render(v)
			}
			is.Message += fmt.Sprintf(" Found %d values: %s.", len(vals), strings.Join(parts, ", "))
		}
	}
	return is
}

func severity(t graph.Term) string {
	switch t {
	case shacl.Warning:
		return SeverityWarning
	case shacl.Info:
		return SeverityInfo
	}
	return SeverityError
}

func code(r shacl.Result) string {
	name := r.ComponentName()
	if name == "" {
		return "SHACL-CONSTRAINT"
	}
	return "SHACL-" + strings.ToUpper(name)
}

// render writes a term for a message or location: IRIs in full, blank
// nodes as _:label, literals by their lexical form with runs of whitespace
// collapsed to one space.
func render(t graph.Term) string {
	switch t.Kind {
	case graph.KindIRI:
		return t.Value
	case graph.KindBlank:
		return "_:" + t.Value
	}
	return strings.Join(strings.Fields(t.Value), " ")
}
