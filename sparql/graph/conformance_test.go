package graph

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/sparql/suitetest"
)

// The W3C RDF 1.1 syntax suites are read from ../shared/testsuites/rdf-tests
// beside the repository (REGELKIT_RDF_TESTS names another rdf-tests folder).

const (
	mf   = "http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#"
	rdft = "http://www.w3.org/ns/rdftest#"
)

func rdfTestsDir(t *testing.T) string {
	t.Helper()
	return suitetest.Dir(t, suitetest.RDFTests)
}

// suiteTest is one entry of a manifest.
type suiteTest struct {
	id             string // the entry IRI's fragment, e.g. "turtle-syntax-file-01"
	name, kind     string // kind: the rdft: type's local name
	action, result string // file paths
	base           string // base IRI for the action
}

func fileIRI(path string) string { return "file://" + filepath.ToSlash(path) }

// readManifest parses a suite manifest with this package's Turtle parser.
func readManifest(t *testing.T, dir string) []suiteTest {
	t.Helper()
	path := filepath.Join(dir, "manifest.ttl")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := ParseGraph(f, Turtle, ParseOptions{Base: fileIRI(path)})
	if err != nil {
		t.Fatalf("manifest %s: %v", path, err)
	}
	manifest, ok := g.Subject(IRI(RDFType), IRI(mf+"Manifest"))
	if !ok {
		t.Fatalf("manifest %s: no mf:Manifest", path)
	}
	assumed, _ := g.Object(manifest, IRI(mf+"assumedTestBase"))
	head, ok := g.Object(manifest, IRI(mf+"entries"))
	if !ok {
		t.Fatalf("manifest %s: no mf:entries", path)
	}
	entries, ok := g.List(head)
	if !ok {
		t.Fatalf("manifest %s: malformed mf:entries list", path)
	}
	localPath := func(iri Term) string {
		return filepath.FromSlash(strings.TrimPrefix(iri.Value, "file://"))
	}
	var tests []suiteTest
	for _, e := range entries {
		var st suiteTest
		if n, ok := g.Object(e, IRI(mf+"name")); ok {
			st.name = n.Value
		}
		st.id = st.name
		if i := strings.LastIndexByte(e.Value, '#'); i >= 0 && e.Kind == KindIRI {
			st.id = e.Value[i+1:]
		}
		if k, ok := g.Object(e, IRI(RDFType)); ok {
			st.kind = strings.TrimPrefix(k.Value, rdft)
		}
		if a, ok := g.Object(e, IRI(mf+"action")); ok {
			st.action = localPath(a)
			if assumed.Kind == KindIRI {
				st.base = assumed.Value + filepath.Base(st.action)
			}
		}
		if r, ok := g.Object(e, IRI(mf+"result")); ok {
			st.result = localPath(r)
		}
		tests = append(tests, st)
	}
	return tests
}

func parseFile(path string, f Format, base string) (*Dataset, error) {
	r, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return ParseDataset(bufio.NewReader(r), f, ParseOptions{Base: base})
}

// runSuiteTest runs one test and returns an error describing a failure.
func runSuiteTest(st suiteTest, f Format) error {
	switch {
	case strings.HasSuffix(st.kind, "NegativeSyntax") || strings.HasSuffix(st.kind, "NegativeEval"):
		if _, err := parseFile(st.action, f, st.base); err == nil {
			return fmt.Errorf("parsed without error, want a syntax error")
		}
		return nil
	case strings.HasSuffix(st.kind, "PositiveSyntax"):
		_, err := parseFile(st.action, f, st.base)
		return err
	case strings.HasSuffix(st.kind, "Eval"):
		got, err := parseFile(st.action, f, st.base)
		if err != nil {
			return err
		}
		rf := NTriples
		if f == TriG || f == NQuads {
			rf = NQuads
		}
		want, err := parseFile(st.result, rf, "")
		if err != nil {
			return fmt.Errorf("reading expected result: %v", err)
		}
		if !IsomorphicDatasets(got, want) {
			return fmt.Errorf("result not isomorphic to %s:\ngot:\n%swant:\n%s",
				filepath.Base(st.result), CanonicalNQuads(got), CanonicalNQuads(want))
		}
		return nil
	}
	return fmt.Errorf("unknown test type %q", st.kind)
}

var suites = []struct {
	name, dir string
	format    Format
}{
	{"turtle", "rdf-turtle", Turtle},
	{"ntriples", "rdf-n-triples", NTriples},
	{"trig", "rdf-trig", TriG},
	{"nquads", "rdf-n-quads", NQuads},
}

// TestConformance runs the W3C RDF 1.1 Turtle, N-Triples, TriG and N-Quads
// suites and fails when a test listed in testdata/conformance/<suite>.txt
// fails.
func TestConformance(t *testing.T) {
	root := rdfTestsDir(t)
	for _, s := range suites {
		t.Run(s.name, func(t *testing.T) {
			tests := readManifest(t, filepath.Join(root, "rdf", "rdf11", s.dir))
			res := suitetest.NewResults(s.name)
			for _, st := range tests {
				res.Record(t, st.id, runSuiteTest(st, s.format))
			}
			res.Check(t, filepath.Join("testdata", "conformance", s.name+".txt"))
		})
	}
}

// TestConformanceRoundTrip parses every evaluation and positive syntax test
// of the suites (N-Triples and N-Quads have only the latter), writes the
// result in the same format, in N-Quads, TriG and (for graphs) Turtle, and
// parses it again; the two must be isomorphic.
func TestConformanceRoundTrip(t *testing.T) {
	root := rdfTestsDir(t)
	for _, s := range suites {
		t.Run(s.name, func(t *testing.T) {
			tests := readManifest(t, filepath.Join(root, "rdf", "rdf11", s.dir))
			n, inexpressible := 0, 0
			for _, st := range tests {
				if strings.Contains(st.kind, "Negative") {
					continue
				}
				pfx := NewPrefixes()
				src, err := os.ReadFile(st.action)
				if err != nil {
					t.Fatal(err)
				}
				d, err := ParseDataset(bytes.NewReader(src), s.format, ParseOptions{Base: st.base, Prefixes: pfx})
				if err != nil {
					t.Errorf("%s: %v", st.name, err)
					continue
				}
				for _, out := range []Format{s.format, NQuads, TriG, Turtle, JSONLD, RDFXML} {
					if !out.HasNamedGraphs() && len(d.Names()) > 0 {
						continue
					}
					opt := WriteOptions{}
					if out == Turtle || out == TriG {
						// With the document's prefixes and base, to exercise
						// prefixed names and relative IRIs.
						opt = WriteOptions{Prefixes: pfx, Base: st.base}
					}
					var buf bytes.Buffer
					err := WriteDataset(&buf, out, d, opt)
					if out == RDFXML && errors.Is(err, ErrUnsupported) {
						// Predicates such as <http://a/1> and control
						// characters have no RDF/XML form.
						inexpressible++
						continue
					}
					if err != nil {
						t.Errorf("%s: writing %v: %v", st.name, out, err)
						continue
					}
					back, err := ParseDataset(bytes.NewReader(buf.Bytes()), out, ParseOptions{Base: "http://unused.example/"})
					if err != nil {
						t.Errorf("%s: re-parsing %v: %v\n%s", st.name, out, err, buf.String())
						continue
					}
					if !IsomorphicDatasets(d, back) {
						t.Errorf("%s: %v round trip not isomorphic:\n%s", st.name, out, buf.String())
					}
					n++
				}
			}
			t.Logf("%s: %d round trips (%d documents not expressible in RDF/XML)", s.name, n, inexpressible)
			if n == 0 {
				t.Errorf("%s: no evaluation tests found", s.name)
			}
		})
	}
}
