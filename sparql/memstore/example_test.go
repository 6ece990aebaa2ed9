package memstore_test

import (
	"context"
	"fmt"
	"strings"

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
