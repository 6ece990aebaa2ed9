package catalog

import (
	"bytes"
	"testing"

	"github.com/regelkit/regelkit/sparql/graph"
)

func TestQuadsShapeAndDeterminism(t *testing.T) {
	count := map[string]int{}
	n := 0
	for q := range Quads(Options{Models: 100}) {
		n++
		if q.P.Value == graph.RDFType {
			count[q.O.Value]++
		}
	}
	if count[CPRMV+"DecisionModel"] != 80 || count[CPRMV041+"DecisionModel"] != 20 {
		t.Errorf("model classes: %v", count)
	}
	if count[CPSV+"Input"] != 300 || count[CPSV+"Output"] != 200 {
		t.Errorf("variables: %v", count)
	}
	if n < 4500 || n > 5500 {
		t.Errorf("%d triples for 100 models, want about 5,000", n)
	}
	var a, b bytes.Buffer
	WriteNTriples(&a, Options{Models: 30})
	WriteNTriples(&b, Options{Models: 30})
	if a.String() != b.String() {
		t.Error("two runs differ")
	}
	if _, err := graph.ParseGraph(&a, graph.NTriples, graph.ParseOptions{}); err != nil {
		t.Errorf("output is not valid N-Triples: %v", err)
	}
}
