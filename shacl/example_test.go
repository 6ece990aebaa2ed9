package shacl_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

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

// Limits bound every validation of a Validator; a server sets them from
// its configuration and maps the *LimitError to a 4xx or 503 answer.
func ExampleCompileWith() {
	shapes, _ := graph.ParseGraph(strings.NewReader(`
@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix ex: <http://example.org/> .
ex:S sh:targetClass ex:Item ; sh:property [ sh:path ex:code ; sh:minCount 1 ] .
`), graph.Turtle, graph.ParseOptions{})
	data, _ := graph.ParseGraph(strings.NewReader(`
@prefix ex: <http://example.org/> .
ex:a a ex:Item . ex:b a ex:Item . ex:c a ex:Item .
`), graph.Turtle, graph.ParseOptions{})

	v, err := shacl.CompileWith(shapes, shacl.Options{Limits: shacl.Limits{Timeout: 5 * time.Second, MaxRows: 2}})
	if err != nil {
		fmt.Println(err)
		return
	}
	_, err = v.Validate(context.Background(), data)
	var le *shacl.LimitError
	if errors.As(err, &le) {
		fmt.Println(le.LimitExceeded(), le.Max)
		fmt.Println(err)
	}
	// Output:
	// MaxRows 2
	// shacl: validation exceeded MaxRows (2 results)
}
