package graph

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestWriteRejectsWhatItCannotCarry(t *testing.T) {
	s, p := IRI("http://example.org/s"), IRI("http://example.org/p")
	for _, c := range []struct {
		name    string
		triple  Triple
		formats []Format
	}{
		{"IRI with a space", Triple{s, p, IRI("http://example.org/a b")}, []Format{Turtle, TriG, NTriples, NQuads, JSONLD, RDFXML}},
		{"relative IRI", Triple{s, p, IRI("a/b")}, []Format{NTriples, NQuads, JSONLD, RDFXML}},
		{"bad language tag", Triple{s, p, LangLiteral("x", "en us")}, []Format{Turtle, TriG, NTriples, NQuads, JSONLD, RDFXML}},
		{"relative datatype", Triple{s, p, Literal("x", "dt")}, []Format{Turtle, NTriples, RDFXML}},
		{"blank predicate", Triple{s, Blank("p"), s}, []Format{Turtle, TriG, NTriples, NQuads, JSONLD, RDFXML}},
		{"literal subject", Triple{String("s"), p, s}, []Format{Turtle, TriG, NTriples, NQuads, JSONLD, RDFXML}},
	} {
		for _, f := range c.formats {
			err := WriteGraph(&bytes.Buffer{}, f, NewGraphOf(c.triple), WriteOptions{})
			if !errors.Is(err, ErrUnsupported) {
				t.Errorf("%s in %v: err = %v, want ErrUnsupported", c.name, f, err)
			}
		}
	}
	// Turtle may hold relative IRIs: they read back the same without a base.
	g := NewGraphOf(Triple{IRI("s"), IRI("p"), IRI("../o")})
	var buf bytes.Buffer
	if err := WriteGraph(&buf, Turtle, g, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if back := parseTurtle(t, buf.String(), ParseOptions{}); !back.Equal(g) {
		t.Errorf("relative IRIs in Turtle: %s", buf.String())
	}
}

func TestWriteNamedGraphsInTripleFormats(t *testing.T) {
	quads := func(yield func(Quad) bool) {
		yield(Quad{IRI("http://s"), IRI("http://p"), IRI("http://o"), IRI("http://g")})
	}
	for _, f := range []Format{Turtle, NTriples, RDFXML} {
		if err := Write(&bytes.Buffer{}, f, quads, WriteOptions{}); !errors.Is(err, ErrUnsupported) {
			t.Errorf("%v with a named graph: err = %v", f, err)
		}
	}
}

func TestWriteTurtleLayout(t *testing.T) {
	g := parseTurtle(t, `@prefix ex: <http://example.org/> .
ex:s ex:p ex:o2, ex:o1 ; a ex:C ; ex:list ( 1 "two" ) ; ex:node [ ex:q "x" ] ;
  ex:num 1.5, -2, 1E3, "1."^^<http://www.w3.org/2001/XMLSchema#decimal>, "abc"^^<http://www.w3.org/2001/XMLSchema#integer> .`, ParseOptions{})
	var buf bytes.Buffer
	err := WriteGraph(&buf, Turtle, g, WriteOptions{Prefixes: NewPrefixes("ex", "http://example.org/", "bad prefix", "http://x/", "xsd", XSD)})
	if err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"@prefix ex: <http://example.org/> .\n",
		"@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n",
		"ex:s a ex:C ;",        // rdf:type first, as 'a'
		"ex:p ex:o2, ex:o1 ;",  // object list
		`ex:list ( 1 "two" )`,  // collection inline
		`ex:node [ ex:q "x" ]`, // blank node inline
		`1.5, -2, 1E3, "1."^^xsd:decimal, "abc"^^xsd:integer .`, // bare numbers only when the lexical form is Turtle's
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "bad prefix") {
		t.Errorf("invalid prefix name written:\n%s", out)
	}
}

// TestRegressionTurtleLocalNames: knakk's Turtle encoder wrote local names
// that are not valid Turtle. Here every prefixed name written must read
// back as the same IRI.
func TestRegressionTurtleLocalNames(t *testing.T) {
	ns := "http://example.org/"
	var triples []Triple
	for _, local := range []string{"a.b", "a.", ".a", "-a", "a-b", "7", "a/b", "a#b", "a%20b", "a%2", "a:b", "a~b", "", "é", "a b"} {
		if local == "a b" {
			continue // not an IRI at all
		}
		triples = append(triples, Triple{IRI(ns + "s"), IRI(ns + "p"), IRI(ns + local)})
	}
	g := NewGraphOf(triples...)
	var buf bytes.Buffer
	if err := WriteGraph(&buf, Turtle, g, WriteOptions{Prefixes: NewPrefixes("ex", ns)}); err != nil {
		t.Fatal(err)
	}
	back, err := ParseGraph(&buf, Turtle, ParseOptions{})
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if !back.Equal(g) {
		got := slices.Collect(back.Objects(Term{}, Term{}))
		t.Errorf("local names changed: %v", got)
	}
}
