package shacl_test

import (
	"bufio"
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/shacl"
	"github.com/regelkit/regelkit/sparql/graph"
	"github.com/regelkit/regelkit/sparql/suitetest"
)

// The W3C SHACL test suite (data-shapes-test-suite). Only the Core tests
// run: the manifests reachable from tests/core/manifest.ttl (98 sht:Validate
// entries). The SHACL-SPARQL tests under tests/sparql are out of scope.

const (
	mf  = "http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#"
	sht = "http://www.w3.org/ns/shacl-test#"
	sh  = "http://www.w3.org/ns/shacl#"
)

func suiteDir(t *testing.T) string {
	dir := suitetest.Dir(t, suitetest.SHACL)
	return filepath.Join(dir, "data-shapes-test-suite", "tests", "core", "manifest.ttl")
}

func fileIRI(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		panic(err)
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

func iriPath(iri string) string {
	u, err := url.Parse(iri)
	if err != nil || u.Scheme != "file" {
		return ""
	}
	return filepath.FromSlash(u.Path)
}

type suiteLoader struct {
	graphs map[string]*graph.Graph
}

func (l *suiteLoader) load(iri string) (*graph.Graph, error) {
	if g, ok := l.graphs[iri]; ok {
		return g, nil
	}
	f, err := os.Open(iriPath(iri))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	g, err := graph.ParseGraph(bufio.NewReader(f), graph.Turtle, graph.ParseOptions{Base: iri})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", iri, err)
	}
	l.graphs[iri] = g
	return g, nil
}

type suiteTest struct {
	name          string
	manifest      *graph.Graph
	entry         graph.Term
	data, shapesG string
}

// collect walks the manifests from root and returns every sht:Validate
// entry.
func (l *suiteLoader) collect(t *testing.T, iri string, out *[]suiteTest) {
	g, err := l.load(iri)
	if err != nil {
		t.Fatal(err)
	}
	for inc := range g.Objects(graph.IRI(iri), graph.IRI(mf+"include")) {
		l.collect(t, inc.Value, out)
	}
	for list := range g.Objects(graph.IRI(iri), graph.IRI(mf+"entries")) {
		entries, ok := g.List(list)
		if !ok {
			t.Fatalf("%s: mf:entries is not a list", iri)
		}
		for _, e := range entries {
			if !g.Has(graph.Triple{S: e, P: graph.IRI(graph.RDFType), O: graph.IRI(sht + "Validate")}) {
				continue
			}
			action, _ := g.Object(e, graph.IRI(mf+"action"))
			data, _ := g.Object(action, graph.IRI(sht+"dataGraph"))
			shapes, _ := g.Object(action, graph.IRI(sht+"shapesGraph"))
			name := strings.TrimSuffix(strings.TrimPrefix(e.Value, "file://"), "")
			if i := strings.Index(name, "/tests/"); i >= 0 {
				name = name[i+len("/tests/"):]
			}
			*out = append(*out, suiteTest{name: name, manifest: g, entry: e, data: data.Value, shapesG: shapes.Value})
		}
	}
}

// expectedReport extracts the mf:result node with its results and their
// path structures.
func expectedReport(g *graph.Graph, entry graph.Term) (*graph.Graph, bool) {
	out := graph.NewGraph()
	r, ok := g.Object(entry, graph.IRI(mf+"result"))
	if !ok {
		return nil, false
	}
	conforms := false
	for t := range g.Match(r, graph.Term{}, graph.Term{}) {
		out.Add(t)
		if t.P.Value == sh+"conforms" {
			conforms = t.O.Value == "true"
		}
		if t.P.Value != sh+"result" {
			continue
		}
		for rt := range g.Match(t.O, graph.Term{}, graph.Term{}) {
			out.Add(rt)
			if rt.P.Value == sh+"resultPath" {
				addClosure(g, out, rt.O)
			}
		}
	}
	return out, conforms
}

func addClosure(g, out *graph.Graph, n graph.Term) {
	if !n.IsBlank() {
		return
	}
	for t := range g.Match(n, graph.Term{}, graph.Term{}) {
		if out.Add(t) {
			addClosure(g, out, t.O)
		}
	}
}

// normalise keeps the predicates the suite compares, plus the
// sh:resultMessage triples whose message the expected report mentions.
func normalise(actual, expected *graph.Graph) *graph.Graph {
	keep := map[string]bool{}
	for _, p := range []string{"result", "conforms", "focusNode", "resultSeverity", "sourceConstraint",
		"sourceConstraintComponent", "sourceShape", "value"} {
		keep[sh+p] = true
	}
	messages := map[graph.Term]bool{}
	for m := range expected.Objects(graph.Term{}, graph.IRI(sh+"resultMessage")) {
		messages[m] = true
	}
	out := graph.NewGraph()
	for t := range actual.Triples() {
		switch {
		case t.P.Value == graph.RDFType && (t.O.Value == sh+"ValidationReport" || t.O.Value == sh+"ValidationResult"):
			out.Add(t)
		case keep[t.P.Value]:
			out.Add(t)
		case t.P.Value == sh+"resultMessage" && messages[t.O]:
			out.Add(t)
		case t.P.Value == sh+"resultPath":
			out.Add(t)
			addClosure(actual, out, t.O)
		}
	}
	return out
}

func TestW3CCoreSuite(t *testing.T) {
	root := suiteDir(t)
	l := &suiteLoader{graphs: map[string]*graph.Graph{}}
	var tests []suiteTest
	l.collect(t, fileIRI(root), &tests)
	if len(tests) != 98 {
		t.Errorf("found %d Core tests, want 98", len(tests))
	}
	res := suitetest.NewResults("shacl-core")
	for _, tc := range tests {
		res.Record(t, tc.name, runSuiteTest(l, tc))
	}
	res.Check(t, filepath.Join("testdata", "conformance", "shacl-core.txt"))
}

func runSuiteTest(l *suiteLoader, tc suiteTest) error {
	data, err := l.load(tc.data)
	if err != nil {
		return err
	}
	shapes, err := l.load(tc.shapesG)
	if err != nil {
		return err
	}
	v, err := shacl.Compile(shapes)
	if err != nil {
		return fmt.Errorf("compile: %w", err)
	}
	rep, err := v.Validate(context.Background(), data)
	if err != nil {
		return err
	}
	want, conforms := expectedReport(tc.manifest, tc.entry)
	if want == nil {
		return fmt.Errorf("no mf:result")
	}
	if rep.Conforms != conforms {
		return fmt.Errorf("conforms = %v, want %v", rep.Conforms, conforms)
	}
	got := normalise(rep.Graph(), want)
	if !graph.Isomorphic(got, want) {
		return fmt.Errorf("report differs\n got:\n%s\nwant:\n%s", graph.CanonicalNTriples(got), graph.CanonicalNTriples(want))
	}
	return nil
}

// TestSuiteComparisonIsStrict makes sure the comparison above can fail: a
// report missing a result, or with another severity, does not match.
func TestSuiteComparisonIsStrict(t *testing.T) {
	root := suiteDir(t)
	l := &suiteLoader{graphs: map[string]*graph.Graph{}}
	var tests []suiteTest
	l.collect(t, fileIRI(root), &tests)
	var tc suiteTest
	for _, c := range tests {
		if c.name == "core/property/lessThan-002" {
			tc = c
		}
	}
	if tc.manifest == nil {
		t.Fatal("core/property/lessThan-002 not found")
	}
	if err := runSuiteTest(l, tc); err != nil {
		t.Fatal(err)
	}
	want, _ := expectedReport(tc.manifest, tc.entry)
	data, _ := l.load(tc.data)
	shapes, _ := l.load(tc.shapesG)
	v, _ := shacl.Compile(shapes)
	rep, _ := v.Validate(context.Background(), data)
	dropped := &shacl.Report{Conforms: false, Results: rep.Results[1:]}
	if graph.Isomorphic(normalise(dropped.Graph(), want), want) {
		t.Error("a report with a result dropped still matches")
	}
	changed := &shacl.Report{Conforms: false, Results: append([]shacl.Result(nil), rep.Results...)}
	changed.Results[0].Severity = shacl.Warning
	if graph.Isomorphic(normalise(changed.Graph(), want), want) {
		t.Error("a report with another severity still matches")
	}
}
