package shacl

import (
	"strconv"
	"strings"

	"github.com/regelkit/regelkit/sparql/graph"
)

// Report is the outcome of a validation (SHACL §3.6).
type Report struct {
	// Conforms is true when there are no results at all, whatever their
	// severity.
	Conforms bool
	// Results in a stable order: by shape (shapes with targets sorted by
	// their N-Triples form), then focus node in index order, then the
	// shape's constraints in parameter order.
	Results []Result
}

// Result is one validation result (sh:ValidationResult).
type Result struct {
	Focus graph.Term // sh:focusNode
	// Path is sh:resultPath: the property shape's path, the offending
	// predicate for sh:closed, nil for node shapes.
	Path *Path
	// Value is sh:value; the zero Term for the components that name no
	// value (minCount, maxCount, uniqueLang, hasValue, qualified counts).
	Value     graph.Term
	Severity  graph.Term // sh:resultSeverity: the shape's sh:severity, sh:Violation by default
	Component graph.Term // sh:sourceConstraintComponent
	Shape     graph.Term // sh:sourceShape
	// Messages are the shape's sh:message values (sh:resultMessage). The
	// slice is shared with the Validator: do not modify it.
	Messages []graph.Term
}

// ComponentName returns the local name of the result's constraint
// component without the "ConstraintComponent" suffix, e.g. "MinCount".
func (r Result) ComponentName() string {
	name := r.Component.Value
	if i := strings.LastIndexAny(name, "#/"); i >= 0 {
		name = name[i+1:]
	}
	return strings.TrimSuffix(name, "ConstraintComponent")
}

// Graph returns the report as an RDF validation report: a blank node of
// type sh:ValidationReport with sh:conforms and one sh:result per result.
// Every result gets its own blank node and its own copy of the path
// structure.
func (rep *Report) Graph() *graph.Graph {
	g := graph.NewGraph()
	used := map[string]bool{}
	for _, res := range rep.Results {
		for _, t := range []graph.Term{res.Focus, res.Value, res.Shape} {
			if t.Kind == graph.KindBlank {
				used[t.Value] = true
			}
		}
	}
	n := 0
	newBlank := func() graph.Term {
		for {
			n++
			label := "report" + strconv.Itoa(n)
			if !used[label] {
				return graph.Blank(label)
			}
		}
	}
	root := newBlank()
	g.Add(graph.Triple{S: root, P: rdfType, O: shValidationReport})
	conforms := xsdFalse
	if rep.Conforms {
		conforms = xsdTrue
	}
	g.Add(graph.Triple{S: root, P: shConforms, O: conforms})
	for _, res := range rep.Results {
		x := newBlank()
		g.Add(graph.Triple{S: root, P: shResult, O: x})
		g.Add(graph.Triple{S: x, P: rdfType, O: shValidationResult})
		g.Add(graph.Triple{S: x, P: shFocusNode, O: res.Focus})
		if res.Path != nil {
			g.Add(graph.Triple{S: x, P: shResultPath, O: writePath(g, res.Path, newBlank)})
		}
		if !res.Value.IsZero() {
			g.Add(graph.Triple{S: x, P: shValue, O: res.Value})
		}
		g.Add(graph.Triple{S: x, P: shResultSeverity, O: res.Severity})
		g.Add(graph.Triple{S: x, P: shSourceConstraintComponent, O: res.Component})
		g.Add(graph.Triple{S: x, P: shSourceShape, O: res.Shape})
		for _, m := range res.Messages {
			g.Add(graph.Triple{S: x, P: shResultMessage, O: m})
		}
	}
	return g
}
