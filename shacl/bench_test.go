package shacl_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/regelkit/regelkit/shacl"
	"github.com/regelkit/regelkit/sparql/graph"
)

const benchShapes = `
ex:PersonShape a sh:NodeShape ;
  sh:targetClass ex:Person ;
  sh:property [ sh:path ex:name ; sh:minCount 1 ; sh:maxCount 1 ; sh:datatype xsd:string ; sh:minLength 1 ] ;
  sh:property [ sh:path ex:email ; sh:pattern "^[^@]+@[^@]+$" ] ;
  sh:property [ sh:path ex:born ; sh:datatype xsd:date ; sh:maxExclusive "2030-01-01"^^xsd:date ] ;
  sh:property [ sh:path ex:knows ; sh:class ex:Person ; sh:node ex:NamedShape ] ;
  sh:property [ sh:path ex:label ; sh:uniqueLang true ; sh:languageIn ( "nl" "en" ) ] .
ex:NamedShape sh:property [ sh:path ex:name ; sh:minCount 1 ] .
`

// persons builds n persons with six triples each; every tenth has a
// second name.
func persons(n int) *graph.Graph {
	g := graph.NewGraph()
	ex := "http://example.org/"
	for i := range n {
		p := graph.IRI(ex + "p" + strconv.Itoa(i))
		add := func(pred string, o graph.Term) { g.Add(graph.Triple{S: p, P: graph.IRI(ex + pred), O: o}) }
		g.Add(graph.Triple{S: p, P: graph.IRI(graph.RDFType), O: graph.IRI(ex + "Person")})
		add("name", graph.String("Person "+strconv.Itoa(i)))
		if i%10 == 0 {
			add("name", graph.String("Alias "+strconv.Itoa(i)))
		}
		add("email", graph.String("p"+strconv.Itoa(i)+"@example.org"))
		add("born", graph.Literal("1990-01-01", graph.XSDDate))
		add("knows", graph.IRI(ex+"p"+strconv.Itoa((i+1)%n)))
		add("label", graph.LangLiteral("persoon", "nl"))
	}
	return g
}

// BenchmarkValidate validates 20,000 persons (about 122,000 triples)
// against one node shape with five property shapes.
func BenchmarkValidate(b *testing.B) {
	v, err := shacl.Compile(parse(b, benchShapes))
	if err != nil {
		b.Fatal(err)
	}
	g := persons(20_000)
	b.ReportMetric(float64(g.Len()), "triples")
	b.ResetTimer()
	for b.Loop() {
		rep, err := v.Validate(context.Background(), g)
		if err != nil {
			b.Fatal(err)
		}
		if len(rep.Results) != 2_000 {
			b.Fatalf("%d results", len(rep.Results))
		}
	}
}

// BenchmarkReportGraph writes 2,000 results as an RDF validation report.
func BenchmarkReportGraph(b *testing.B) {
	v, _ := shacl.Compile(parse(b, benchShapes))
	rep, _ := v.Validate(context.Background(), persons(20_000))
	for b.Loop() {
		rep.Graph()
	}
}
