package memstore_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/regelkit/regelkit/sparql/graph"
	"github.com/regelkit/regelkit/sparql/memstore"
)

func Example() {
	ctx := context.Background()
	s := memstore.New()
	err := s.Load(ctx, strings.NewReader(`
		@prefix dct: <http://purl.org/dc/terms/> .
		<http://example.org/m1> dct:identifier "RONL_A" ; dct:title "Leeftijd"@nl .
		<http://example.org/m2> dct:identifier "RONL_B" ; dct:title "Bijstandsnorm"@nl .`), graph.Turtle)
	if err != nil {
		panic(err)
	}
	res, err := s.Select(ctx, `PREFIX dct: <http://purl.org/dc/terms/>
		SELECT ?id ?title WHERE { ?m dct:identifier ?id ; dct:title ?title } ORDER BY ?id`)
	if err != nil {
		panic(err)
	}
	for _, sol := range res.Solutions {
		fmt.Println(sol["id"].Value, sol["title"].Value)
	}
	// Output:
	// RONL_A Leeftijd
	// RONL_B Bijstandsnorm
}

// Limits bound every query on a store; a query that passes one ends with
// a *LimitError naming the bound, which servers map to 400 or 503.
func ExampleLimits() {
	ctx := context.Background()
	s := memstore.NewWithOptions(memstore.Options{Limits: memstore.Limits{MaxRows: 2, Timeout: 5 * time.Second}})
	s.Add(
		graph.Quad{S: graph.IRI("http://example.org/a"), P: graph.IRI("http://example.org/p"), O: graph.String("1")},
		graph.Quad{S: graph.IRI("http://example.org/b"), P: graph.IRI("http://example.org/p"), O: graph.String("2")},
		graph.Quad{S: graph.IRI("http://example.org/c"), P: graph.IRI("http://example.org/p"), O: graph.String("3")},
	)
	_, err := s.Select(ctx, `SELECT ?s WHERE { ?s ?p ?o }`)
	var le *memstore.LimitError
	if errors.As(err, &le) {
		fmt.Println(le.Limit, le.Max)
		fmt.Println(err)
	}
	// ORDER BY under LIMIT keeps only LIMIT rows, so it stays under MaxRows
	res, err := s.Select(ctx, `SELECT ?s WHERE { ?s ?p ?o } ORDER BY DESC(?o) LIMIT 1`)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Solutions[0]["s"].Value)
	// Output:
	// MaxRows 2
	// sparql: query exceeded MaxRows (2 solutions)
	// http://example.org/c
}
