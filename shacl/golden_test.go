package shacl_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/regelkit/regelkit/shacl"
	"github.com/regelkit/regelkit/sparql/graph"
	"github.com/regelkit/regelkit/sparql/suitetest"
)

func readTurtle(t *testing.T, path string) *graph.Graph {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := graph.ParseGraph(f, graph.Turtle, graph.ParseOptions{})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return g
}

// TestReportGolden validates testdata/golden/data.ttl against shapes.ttl
// and compares the validation report, written as Turtle, with
// testdata/golden/report.ttl (refresh with -update after reading the
// diff).
func TestReportGolden(t *testing.T) {
	dir := filepath.Join("testdata", "golden")
	v, err := shacl.Compile(readTurtle(t, filepath.Join(dir, "shapes.ttl")))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := v.Validate(context.Background(), readTurtle(t, filepath.Join(dir, "data.ttl")))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	prefixes := graph.NewPrefixes(
		"sh", "http://www.w3.org/ns/shacl#",
		"xsd", "http://www.w3.org/2001/XMLSchema#",
		"ex", "http://example.org/ns#",
	)
	if err := graph.WriteGraph(&out, graph.Turtle, rep.Graph(), graph.WriteOptions{Prefixes: prefixes}); err != nil {
		t.Fatal(err)
	}
	suitetest.Golden(t, filepath.Join(dir, "report.ttl"), out.Bytes())
}
