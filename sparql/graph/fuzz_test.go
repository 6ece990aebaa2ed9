package graph

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/sparql/suitetest"
)

const fuzzBase = "http://example.org/base/doc"

var turtleSeeds = []string{
	"@prefix ex: <http://example.org/> .\nex:s ex:p ex:o ; ex:q \"x\"@en, 1, 2.5, 1e3, true ; a ex:C .",
	"PREFIX : <http://e/>\nBASE <http://b/>\n:s :p ( 1 [ :q \"\"\"long\nstring\"\"\" ] () ) .",
	"_:a <p> _:b . [] <p> [ <q> 'single' ] . <s> <p> \"\\u00e9\\U0001F600\\t\"^^<dt> .",
	"@prefix p: <http://p/> . p:a\\~b.c p:d%20e p:f: .",
	"<s> <p> -.2e3, +.7, 0.5 .",
	"<a> <b> <c>",
	"_::a <b> <c> .",
}

var trigSeeds = []string{
	"@prefix ex: <http://example.org/> .\nex:g { ex:s ex:p ex:o . ex:s ex:q [ ex:r 1 ] }",
	"GRAPH <http://g> { <s> <p> <o> } { <s> <p> ( 1 2 ) } _:g { _:a <p> _:a . }",
	"[] { <s> <p> <o> . } <s> <p> <o> .",
	"<g> { <s> <p> <o> ",
}

// addDeepSeeds adds the documents of deepDocs in format f: nested just
// beyond the parsers' limit, and moderately deep ones that parse.
func addDeepSeeds(f *testing.F, formats ...Format) {
	for _, n := range []int{maxNesting + 2, 200} {
		for _, d := range deepDocs(n) {
			for _, want := range formats {
				if d.format == want {
					f.Add(d.src)
				}
			}
		}
	}
}

// addSuiteSeeds adds the files of a W3C suite folder, when present.
func addSuiteSeeds(f *testing.F, dir, ext string) {
	root, err := suitetest.RDFTests.Lookup()
	if err != nil {
		return
	}
	files, _ := filepath.Glob(filepath.Join(root, "rdf", "rdf11", dir, "*"+ext))
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil && len(data) < 4096 {
			f.Add(string(data))
		}
	}
}

// checkRoundTrip writes d in each format and parses it back; the result
// must be isomorphic to d.
func checkRoundTrip(t *testing.T, d *Dataset, formats ...Format) {
	t.Helper()
	for _, out := range formats {
		var buf bytes.Buffer
		if err := WriteDataset(&buf, out, d, WriteOptions{}); err != nil {
			t.Fatalf("writing %v: %v", out, err)
		}
		back, err := ParseDataset(bytes.NewReader(buf.Bytes()), out, ParseOptions{})
		if err != nil {
			t.Fatalf("re-parsing %v: %v\n%s", out, err, buf.String())
		}
		if !IsomorphicDatasets(d, back) {
			t.Fatalf("%v round trip not isomorphic:\n%s\nwant\n%s", out, buf.String(), CanonicalNQuads(d))
		}
	}
}

func FuzzTurtle(f *testing.F) {
	for _, s := range turtleSeeds {
		f.Add(s)
	}
	addSuiteSeeds(f, "rdf-turtle", ".ttl")
	addDeepSeeds(f, Turtle)
	f.Fuzz(func(t *testing.T, src string) {
		pfx := NewPrefixes()
		d, err := ParseDataset(strings.NewReader(src), Turtle, ParseOptions{Base: fuzzBase, Prefixes: pfx})
		if err != nil {
			return
		}
		checkRoundTrip(t, d, Turtle, NTriples)
		var buf bytes.Buffer
		if err := WriteDataset(&buf, Turtle, d, WriteOptions{Prefixes: pfx, Base: fuzzBase}); err != nil {
			t.Fatal(err)
		}
		back, err := ParseDataset(&buf, Turtle, ParseOptions{Base: fuzzBase})
		if err != nil || !IsomorphicDatasets(d, back) {
			t.Fatalf("Turtle with prefixes and base does not round-trip: %v", err)
		}
	})
}

func FuzzTriG(f *testing.F) {
	for _, s := range append(trigSeeds, turtleSeeds...) {
		f.Add(s)
	}
	addSuiteSeeds(f, "rdf-trig", ".trig")
	addDeepSeeds(f, TriG)
	f.Fuzz(func(t *testing.T, src string) {
		d, err := ParseDataset(strings.NewReader(src), TriG, ParseOptions{Base: fuzzBase})
		if err != nil {
			return
		}
		checkRoundTrip(t, d, TriG, NQuads)
	})
}

func FuzzNTriples(f *testing.F) {
	f.Add("<http://a> <http://b> \"c\\u00e9\"@en .\n_:x <http://b> <http://c> . # comment\n")
	f.Add("<http://a> <http://b> \"1\"^^<http://www.w3.org/2001/XMLSchema#integer> .")
	addSuiteSeeds(f, "rdf-n-triples", ".nt")
	f.Fuzz(func(t *testing.T, src string) {
		d, err := ParseDataset(strings.NewReader(src), NTriples, ParseOptions{})
		if err != nil {
			return
		}
		checkRoundTrip(t, d, NTriples, Turtle)
	})
}

func FuzzNQuads(f *testing.F) {
	f.Add("<http://a> <http://b> <http://c> <http://g> .\n<http://a> <http://b> _:c _:g .\n")
	addSuiteSeeds(f, "rdf-n-quads", ".nq")
	f.Fuzz(func(t *testing.T, src string) {
		d, err := ParseDataset(strings.NewReader(src), NQuads, ParseOptions{})
		if err != nil {
			return
		}
		checkRoundTrip(t, d, NQuads, TriG)
	})
}

func FuzzRDFXML(f *testing.F) {
	f.Add(`<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://example.org/">
  <ex:T rdf:about="s" ex:a="v"><ex:p rdf:parseType="Resource"><ex:q xml:lang="nl">x</ex:q></ex:p>
  <ex:l rdf:parseType="Literal"><b>bold</b></ex:l><ex:c rdf:parseType="Collection"><rdf:Description/></ex:c>
  <rdf:li rdf:ID="r">1</rdf:li></ex:T></rdf:RDF>`)
	addDeepSeeds(f, RDFXML)
	f.Fuzz(func(t *testing.T, src string) {
		d, err := ParseDataset(strings.NewReader(src), RDFXML, ParseOptions{Base: fuzzBase})
		if err != nil {
			return
		}
		checkRoundTrip(t, d, NTriples)
	})
}

func FuzzJSONLD(f *testing.F) {
	f.Add(`{"@context": {"ex": "http://example.org/"}, "@id": "ex:s", "ex:p": [{"@value": "x", "@language": "nl"}, {"@id": "_:b"}]}`)
	f.Add(`{"@graph": [{"@id": "http://s", "http://p": {"@list": [1, 2.5, true]}}], "@id": "http://g"}`)
	addDeepSeeds(f, JSONLD)
	f.Fuzz(func(t *testing.T, src string) {
		d, err := ParseDataset(strings.NewReader(src), JSONLD, ParseOptions{Base: fuzzBase})
		if err != nil {
			return
		}
		checkRoundTrip(t, d, NQuads)
	})
}
