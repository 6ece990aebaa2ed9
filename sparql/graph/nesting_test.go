package graph

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"
)

const rdfXMLHead = `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://example.org/">`

// deepDocs returns, per syntax, a document nested n levels deep in one
// of the ways the syntax nests.
func deepDocs(n int) []struct {
	name   string
	format Format
	src    string
} {
	return []struct {
		name   string
		format Format
		src    string
	}{
		{"turtle collections", Turtle, "<http://s> <http://p> " + strings.Repeat("( ", n) + strings.Repeat(") ", n) + "."},
		{"turtle blank node property lists", Turtle, "<http://s> <http://p> " + strings.Repeat("[ <http://p> ", n) + "1 " + strings.Repeat("] ", n) + "."},
		{"turtle mixed", Turtle, "<http://s> <http://p> " + strings.Repeat("( [ <http://p> ", n/2) + "1" + strings.Repeat(" ] )", n/2) + " ."},
		{"trig blank node subject", TriG, "<http://g> { " + strings.Repeat("[ <http://p> ", n) + "1 " + strings.Repeat("] ", n) + ". }"},
		{"rdf/xml elements", RDFXML, rdfXMLHead + strings.Repeat(`<rdf:Description><ex:p>`, n/2) + strings.Repeat(`</ex:p></rdf:Description>`, n/2) + `</rdf:RDF>`},
		{"rdf/xml parseType Resource", RDFXML, rdfXMLHead + `<rdf:Description rdf:about="http://s">` + strings.Repeat(`<ex:p rdf:parseType="Resource">`, n) + strings.Repeat(`</ex:p>`, n) + `</rdf:Description></rdf:RDF>`},
		{"rdf/xml parseType Collection", RDFXML, rdfXMLHead + `<rdf:Description rdf:about="http://s">` + strings.Repeat(`<ex:p rdf:parseType="Collection"><rdf:Description>`, n/2) + strings.Repeat(`</rdf:Description></ex:p>`, n/2) + `</rdf:Description></rdf:RDF>`},
		{"json-ld objects", JSONLD, strings.Repeat(`{"http://example.org/p": `, n) + `"x"` + strings.Repeat("}", n)},
		{"json-ld arrays", JSONLD, `{"@id": "http://s", "http://example.org/p": ` + strings.Repeat("[", n) + `"x"` + strings.Repeat("]", n) + "}"},
	}
}

// Every recursive syntax refuses nesting beyond maxNesting with a
// positioned error, and parses nesting just within it.
func TestNestingLimits(t *testing.T) {
	for _, tc := range deepDocs(maxNesting + 2) {
		_, err := ParseDataset(strings.NewReader(tc.src), tc.format, ParseOptions{})
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line != 1 || pe.Column < 1000 || !strings.Contains(pe.Msg, "nested deeper than 10000 levels") {
			t.Errorf("%s: err = %v, want a positioned nesting error", tc.name, err)
		}
	}
	for _, tc := range deepDocs(maxNesting - 10) {
		if _, err := ParseDataset(strings.NewReader(tc.src), tc.format, ParseOptions{}); err != nil {
			t.Errorf("%s within the limit: %v", tc.name, err)
		}
	}
}

func TestJSONTooDeep(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want int64
	}{
		{`[[["x"]]]`, -1},
		{`[[[["x"]]]]`, 3},
		{`{"a": "[[[[[", "b": [[[1]]]}`, 22},
		{`{"a": "\"[[[[[", "b": [[1]]}`, -1},
		{`[[], [], [[{}]]]`, 11},
	} {
		if got := jsonTooDeep([]byte(tc.src), 3); got != tc.want {
			t.Errorf("jsonTooDeep(%s) = %d, want %d", tc.src, got, tc.want)
		}
	}
}

// chain returns a graph holding an RDF list of n members, or, when cyclic,
// the same chain with the last rdf:rest pointing back at the head.
func chain(n int, cyclic bool) (*Graph, Term) {
	g := NewGraph()
	node := func(i int) Term { return Blank("l" + strconv.Itoa(i)) }
	first, rest := IRI(RDFFirst), IRI(RDFRest)
	for i := range n {
		g.Add(Triple{S: node(i), P: first, O: Literal(strconv.Itoa(i), XSDInteger)})
		next := IRI(RDFNil)
		switch {
		case i < n-1:
			next = node(i + 1)
		case cyclic:
			next = node(0)
		}
		g.Add(Triple{S: node(i), P: rest, O: next})
	}
	return g, node(0)
}

// List walks iteratively: a 100,000-member list, and a cycle of the same
// length, which it reports as malformed.
func TestListLongAndCyclic(t *testing.T) {
	const n = 100_000
	g, head := chain(n, false)
	list, ok := g.List(head)
	if !ok || len(list) != n || list[n-1] != Literal("99999", XSDInteger) {
		t.Fatalf("List: ok %v, %d members", ok, len(list))
	}
	last := Blank("l" + strconv.Itoa(n-1))
	g.Remove(Triple{S: last, P: IRI(RDFRest), O: IRI(RDFNil)})
	g.Add(Triple{S: last, P: IRI(RDFRest), O: head})
	if _, ok := g.List(head); ok {
		t.Error("a cyclic list reported ok")
	}
}

// The Turtle writer checks every blank node for a collection it can write
// as ( ... ). It used to walk the rest of a cyclic chain from every node
// of it, quadratic work: 4,000 nodes took 12 s, 20,000 would take minutes.
func TestTurtleWriterCyclicChain(t *testing.T) {
	g, _ := chain(20_000, true)
	start := time.Now()
	var buf strings.Builder
	if err := WriteGraph(&buf, Turtle, g, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("writing took %v", d)
	}
	back, err := ParseGraph(strings.NewReader(buf.String()), Turtle, ParseOptions{})
	if err != nil || !Isomorphic(back, g) {
		t.Fatalf("round trip: %v, %d triples, isomorphic %v", err, back.Len(), err == nil && Isomorphic(back, g))
	}
}
