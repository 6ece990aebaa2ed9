package graph_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/regelkit/regelkit/sparql/graph"
)

const shapes = `@prefix ex: <http://example.org/> .
@prefix dct: <http://purl.org/dc/terms/> .
ex:rule1 a ex:Rule ; dct:title "Zorgtoeslag"@nl, "Care allowance"@en ;
    ex:inputs ( ex:age ex:income ) .
`

func ExampleParseGraph() {
	prefixes := graph.NewPrefixes()
	g, err := graph.ParseGraph(strings.NewReader(shapes), graph.Turtle, graph.ParseOptions{Prefixes: prefixes})
	if err != nil {
		fmt.Println(err)
		return
	}
	rule := graph.IRI("http://example.org/rule1")
	for title := range g.Objects(rule, graph.IRI("http://purl.org/dc/terms/title")) {
		fmt.Println(title.Value, title.Lang)
	}
	head, _ := g.Object(rule, graph.IRI("http://example.org/inputs"))
	inputs, _ := g.List(head)
	for _, in := range inputs {
		short, _ := prefixes.Compact(in.Value)
		fmt.Println(short)
	}
	// Output:
	// Zorgtoeslag nl
	// Care allowance en
	// ex:age
	// ex:income
}

func ExampleParse() {
	src := "<http://example.org/a> <http://example.org/p> \"x\" .\n" +
		"<http://example.org/b> <http://example.org/p> \"y\" <http://example.org/g> .\n"
	err := graph.Parse(strings.NewReader(src), graph.NQuads, graph.ParseOptions{}, func(q graph.Quad) error {
		graphName := "default graph"
		if !q.G.IsZero() {
			graphName = q.G.Value
		}
		fmt.Println(q.S.Value, q.O.Value, graphName)
		return nil
	})
	fmt.Println(err)
	// Output:
	// http://example.org/a x default graph
	// http://example.org/b y http://example.org/g
	// <nil>
}

func ExampleParseError() {
	_, err := graph.ParseGraph(strings.NewReader("<http://a> <http://b> <http://c>\n<http://d> ."), graph.Turtle, graph.ParseOptions{})
	fmt.Println(err)
	// Output:
	// line 2, column 1: expected '.' after triples, found IRI <http://d>
}

func ExampleWriteGraph() {
	g, _ := graph.ParseGraph(strings.NewReader(shapes), graph.Turtle, graph.ParseOptions{})
	p := graph.NewPrefixes("ex", "http://example.org/", "dct", "http://purl.org/dc/terms/")
	if err := graph.WriteGraph(os.Stdout, graph.Turtle, g, graph.WriteOptions{Prefixes: p}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// @prefix ex: <http://example.org/> .
	// @prefix dct: <http://purl.org/dc/terms/> .
	//
	// ex:rule1 a ex:Rule ;
	//     dct:title "Zorgtoeslag"@nl, "Care allowance"@en ;
	//     ex:inputs ( ex:age ex:income ) .
}

func ExampleIsomorphic() {
	a, _ := graph.ParseGraph(strings.NewReader(`_:x <http://example.org/p> [ <http://example.org/q> 1 ] .`), graph.Turtle, graph.ParseOptions{})
	b, _ := graph.ParseGraph(strings.NewReader(`_:y <http://example.org/p> _:z . _:z <http://example.org/q> 1 .`), graph.Turtle, graph.ParseOptions{})
	fmt.Println(graph.Isomorphic(a, b))
	fmt.Print(graph.CanonicalNTriples(a))
	// Output:
	// true
	// _:c0 <http://example.org/q> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .
	// _:c1 <http://example.org/p> _:c0 .
}

func ExampleFormatFor() {
	for _, s := range []string{"text/turtle; charset=utf-8", ".jsonld", "rules.trig", "nt"} {
		f, ok := graph.FormatFor(s)
		fmt.Println(f, f.MediaType(), ok)
	}
	// Output:
	// Turtle text/turtle true
	// JSON-LD application/ld+json true
	// TriG application/trig true
	// N-Triples application/n-triples true
}

func ExampleDataset() {
	d := graph.NewDataset()
	g := graph.IRI("http://example.org/graph")
	d.Add(graph.Quad{S: graph.IRI("http://example.org/s"), P: graph.IRI("http://example.org/p"), O: graph.String("o"), G: g})
	if err := graph.WriteDataset(os.Stdout, graph.TriG, d, graph.WriteOptions{Prefixes: graph.NewPrefixes("ex", "http://example.org/")}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// @prefix ex: <http://example.org/> .
	//
	// ex:graph {
	//     ex:s ex:p "o" .
	// }
}

func ExampleCompareLiterals() {
	xsd := graph.XSD
	fmt.Println(graph.WellFormed(graph.Literal("128", xsd+"byte")))
	fmt.Println(graph.WellFormed(graph.Literal("2024-02-29", xsd+"date")))
	fmt.Println(graph.CompareLiterals(graph.Literal("1", xsd+"integer"), graph.Literal("1.0e0", xsd+"double")))
	fmt.Println(graph.CompareLiterals(graph.Literal("NaN", xsd+"double"), graph.Literal("1", xsd+"integer")))
	// Without a time zone the first could be anywhere from 2024-01-01T08:00Z
	// to 2024-01-02T12:00Z, so its order against noon UTC is unknown.
	fmt.Println(graph.CompareLiterals(graph.Literal("2024-01-01T22:00:00", xsd+"dateTime"),
		graph.Literal("2024-01-01T12:00:00Z", xsd+"dateTime")))
	// Output:
	// false
	// true
	// Equal
	// Unordered
	// Incomparable
}
