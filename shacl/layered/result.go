package layered

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
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
	// Truncated counts the values on the path that the message leaves
	// out: it quotes at most MaxQuotedValues of them, each cut to
	// MaxQuotedRunes characters.
	Truncated int `json:"truncated,omitempty"`
}

// Bounds of what an issue message quotes, so that the output stays linear
// in the input whatever the data.
const (
	MaxQuotedValues = 20
	MaxQuotedRunes  = 200
	// maxLocationRunes bounds the focus node in a location.
	maxLocationRunes = 500
)

// issues converts the results of one layer. Results
// that say the same thing about different values — one per-value
// constraint (sh:datatype, sh:class, ...) of one shape, on one focus node
// and path — become one issue: its message lists the values anyway, and a
// property with 5,000 bad values would otherwise repeat that list 5,000
// times.
func (c *Checker) issues(data *graph.Graph, results []shacl.Result) []Issue {
	type key struct {
		shape, component graph.Term
		location         string
	}
	var out []Issue
	seen := map[key]bool{}
	for _, r := range results {
		loc := c.location(r)
		if !r.Value.IsZero() {
			k := key{r.Shape, r.Component, loc}
			if seen[k] {
				continue
			}
			seen[k] = true
		}
		out = append(out, c.issue(data, r, loc))
	}
	return out
}

func (c *Checker) location(r shacl.Result) string {
	loc := excerpt(render(r.Focus), maxLocationRunes)
	if r.Path != nil {
		loc += " " + r.Path.Format(c.locations)
	}
	return loc
}

// issue converts one validation result.
func (c *Checker) issue(data *graph.Graph, r shacl.Result, location string) Issue {
	is := Issue{Severity: severity(r.Severity), Code: code(r), Location: location}
	var msgs []string
	for _, m := range r.Messages {
		msgs = append(msgs, m.Value)
	}
	is.Message = strings.Join(msgs, "; ")
	if is.Message == "" {
		is.Message = is.Code
	}
	if r.Path != nil {
		// Cardinality and uniqueness findings are only actionable with the
		// values in view: list them, up to MaxQuotedValues, and count the
		// rest.
		if vals := r.Path.Values(data, r.Focus); len(vals) > 1 {
			var b strings.Builder
			fmt.Fprintf(&b, " Found %d values: ", len(vals))
			for i, v := range vals[:min(len(vals), MaxQuotedValues)] {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(excerpt(render(v), MaxQuotedRunes))
			}
			if rest := len(vals) - MaxQuotedValues; rest > 0 {
				b.WriteString(", … and " + thousands(rest) + " more")
				is.Truncated = rest
			}
			b.WriteByte('.')
			is.Message += b.String()
		}
	}
	return is
}

// excerpt cuts s to at most n characters, marking a cut with "…".
func excerpt(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := 0
	for pos := range s {
		if i == n-1 {
			return s[:pos] + "…"
		}
		i++
	}
	return s
}

// thousands writes n with commas between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
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
