package cprmv

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/shacl"
	"github.com/regelkit/regelkit/sparql/graph"
)

func shapes(t *testing.T) *shacl.Validator {
	t.Helper()
	b, err := vocab.ReadFile("vocab/cprmv.shacl.ttl")
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.ParseGraph(bytes.NewReader(b), graph.Turtle, graph.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	v, err := shacl.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestOutputConformsToShapes validates the RDF of every fixture, whole and
// narrowed, against cprmv.shacl.ttl: a RuleSet has an id, exactly one
// validFrom (where the source has a date) and a method; every hasPart list
// is non-empty and holds only rules; a rule has at most one definition and
// one postDefinition.
func TestOutputConformsToShapes(t *testing.T) {
	v := shapes(t)
	s := newService(t, Options{})
	for name, path := range goldenCases {
		if name == "formex" {
			continue // CELLAR ids carry no date, so no validFrom: checked below
		}
		body := get(t, s, Request{Path: path, Format: "turtle"})
		g, err := graph.ParseGraph(bytes.NewReader(body), graph.Turtle, graph.ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := v.Validate(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		if !rep.Conforms {
			t.Errorf("%s does not conform: %+v", name, rep.Results)
		}
	}
	// The shapes can fail: two definitions on a rule, a list holding a
	// non-rule, and the dateless Formex rule set.
	body := string(get(t, s, Request{Path: "BWBR0015703_2025-07-01_0,Artikel 20,lid 1", Format: "turtle2"}))
	bad := strings.Replace(body, `"De norm bedraagt per maand voor:"@nl .`,
		`"De norm bedraagt per maand voor:"@nl .`+"\n"+lineSubject(body, "De norm bedraagt")+
			` <`+NS+`definition> "tweede"@nl .`, 1)
	bad = strings.Replace(bad, `<`+NS+`Rule> .`, `<`+NS+`Other> .`, 1)
	g, err := graph.ParseGraph(strings.NewReader(bad), graph.NTriples, graph.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rep, _ := v.Validate(context.Background(), g)
	if rep.Conforms || len(rep.Results) < 2 {
		t.Errorf("broken graph conforms: %+v", rep.Results)
	}
	body = string(get(t, s, Request{Path: goldenCases["formex"], Format: "turtle2"}))
	g, _ = graph.ParseGraph(strings.NewReader(body), graph.NTriples, graph.ParseOptions{})
	if rep, _ := v.Validate(context.Background(), g); rep.Conforms {
		t.Error("a rule set without validFrom must not conform")
	}
}

// lineSubject returns the subject of the N-Triples line containing s.
func lineSubject(doc, s string) string {
	for _, line := range strings.Split(doc, "\n") {
		if strings.Contains(line, s) {
			return strings.Fields(line)[0]
		}
	}
	return ""
}
