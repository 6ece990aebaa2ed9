package shacl_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/regelkit/regelkit/shacl"
	"github.com/regelkit/regelkit/sparql/graph"
)

func Example() {
	shapes, _ := graph.ParseGraph(strings.NewReader(`
@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix foaf: <http://xmlns.com/foaf/0.1/> .
@prefix ex: <http://example.org/> .
ex:PersonShape a sh:NodeShape ;
  sh:targetClass foaf:Person ;
  sh:property [ sh:path foaf:name ; sh:minCount 1 ; sh:maxCount 1 ] .
`), graph.Turtle, graph.ParseOptions{})
	data, _ := graph.ParseGraph(strings.NewReader(`
@prefix foaf: <http://xmlns.com/foaf/0.1/> .
@prefix ex: <http://example.org/> .
ex:alice a foaf:Person ; foaf:name "Alice" .
ex:bob a foaf:Person ; foaf:name "Bob", "Robert" .
`), graph.Turtle, graph.ParseOptions{})

	v, err := shacl.Compile(shapes)
	if err != nil {
		fmt.Println(err)
		return
	}
	report, err := v.Validate(context.Background(), data)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("conforms:", report.Conforms)
	for _, r := range report.Results {
		fmt.Println(r.ComponentName(), r.Focus.Value, r.Path)
	}
	// Output:
	// conforms: false
	// MaxCount http://example.org/bob <http://xmlns.com/foaf/0.1/name>
}
