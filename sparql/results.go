package sparql

import (
	"context"
	"sort"
	"strings"

	"github.com/regelkit/regelkit/sparql/graph"
)

// Endpoint is a SPARQL 1.1 service: anything that answers queries and
// updates. The HTTP Client implements it for remote endpoints and
// memstore.Store implements it in-process.
type Endpoint interface {
	// Select runs a SELECT query and returns its solutions.
	Select(ctx context.Context, query string) (*Results, error)
	// Ask runs an ASK query.
	Ask(ctx context.Context, query string) (bool, error)
	// Construct runs a CONSTRUCT or DESCRIBE query and returns the graph.
	Construct(ctx context.Context, query string) (*graph.Graph, error)
	// Update runs a SPARQL 1.1 Update request.
	Update(ctx context.Context, update string) error
}

// Solution is one row of a SELECT result: variable name (without '?') to
// RDF term. An unbound variable is absent from the map.
type Solution map[string]graph.Term

// Results is the answer to a SELECT query (Vars and Solutions) or, when
// Boolean is non-nil, to an ASK query.
//
// Results marshals to and from the SPARQL 1.1 Query Results JSON Format
// (MarshalJSON, UnmarshalJSON), so a proxy can pass it on unchanged.
type Results struct {
	Vars      []string
	Solutions []Solution
	// Boolean is the answer of an ASK query; nil for a SELECT result.
	Boolean *bool
	// Link holds the optional link IRIs of the result document's head.
	Link []string
}

// Len returns the number of solutions.
func (r *Results) Len() int { return len(r.Solutions) }

// Column returns the values of one variable, in solution order; unbound
// values are zero Terms.
func (r *Results) Column(name string) []graph.Term {
	out := make([]graph.Term, len(r.Solutions))
	for i, s := range r.Solutions {
		out[i] = s[name]
	}
	return out
}

// varsOf returns r.Vars, or for a result without a head the sorted union of
// the names bound in its solutions.
func (r *Results) varsOf() []string {
	if len(r.Vars) > 0 || len(r.Solutions) == 0 {
		return r.Vars
	}
	seen := map[string]bool{}
	var vars []string
	for _, s := range r.Solutions {
		for k := range s {
			if !seen[k] {
				seen[k] = true
				vars = append(vars, k)
			}
		}
	}
	sort.Strings(vars)
	return vars
}

// NormalizeAsk turns the table Virtuoso 7 sends for an ASK query instead of
// a boolean (one variable __ASK_RETVAL, one row holding 1 or 0) into the
// boolean result the SPARQL 1.1 result formats define, and reports whether
// it did. Any other result is left alone.
func (r *Results) NormalizeAsk() bool {
	if r.Boolean != nil || len(r.Vars) != 1 || !strings.EqualFold(r.Vars[0], "__ask_retval") || len(r.Solutions) > 1 {
		return false
	}
	b := false
	if len(r.Solutions) == 1 {
		switch r.Solutions[0][r.Vars[0]].Value {
		case "1", "true":
			b = true
		case "0", "false":
		default:
			return false
		}
	}
	*r = Results{Boolean: &b, Link: r.Link}
	return true
}
