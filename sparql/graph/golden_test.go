package graph

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/regelkit/regelkit/sparql/suitetest"
)

// TestWriterGolden writes testdata/golden/writer-input.trig as Turtle
// (its default graph) and as TriG and compares the documents with the
// golden files beside it (refresh with -update after reading the diff);
// each golden file must also parse back to the graph it was written from.
func TestWriterGolden(t *testing.T) {
	src := filepath.Join("testdata", "golden", "writer-input.trig")
	f, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d := NewDataset()
	if err := Parse(f, TriG, ParseOptions{Base: "http://example.org/base/"}, func(q Quad) error { d.Add(q); return nil }); err != nil {
		t.Fatal(err)
	}
	opt := WriteOptions{Prefixes: NewPrefixes(
		"ex", "http://example.org/ns#",
		"xsd", "http://www.w3.org/2001/XMLSchema#",
		"rdfs", "http://www.w3.org/2000/01/rdf-schema#",
	)}

	var ttl bytes.Buffer
	if err := WriteGraph(&ttl, Turtle, d.Default(), opt); err != nil {
		t.Fatal(err)
	}
	suitetest.Golden(t, filepath.Join("testdata", "golden", "writer.ttl"), ttl.Bytes())
	back, err := ParseGraph(bytes.NewReader(ttl.Bytes()), Turtle, ParseOptions{})
	if err != nil {
		t.Fatalf("the Turtle written does not parse: %v", err)
	}
	if !Isomorphic(back, d.Default()) {
		t.Error("the Turtle written does not parse back to the default graph")
	}

	var trig bytes.Buffer
	if err := WriteDataset(&trig, TriG, d, opt); err != nil {
		t.Fatal(err)
	}
	suitetest.Golden(t, filepath.Join("testdata", "golden", "writer.trig"), trig.Bytes())
	backD := NewDataset()
	if err := Parse(bytes.NewReader(trig.Bytes()), TriG, ParseOptions{}, func(q Quad) error { backD.Add(q); return nil }); err != nil {
		t.Fatalf("the TriG written does not parse: %v", err)
	}
	if !IsomorphicDatasets(backD, d) {
		t.Error("the TriG written does not parse back to the dataset")
	}
}
