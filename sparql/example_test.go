package sparql_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/regelkit/regelkit/sparql"
	"github.com/regelkit/regelkit/sparql/graph"
	"github.com/regelkit/regelkit/sparql/memstore"
)

// A Client talks the SPARQL 1.1 Protocol to any endpoint; here the
// endpoint is a memstore handler answered in-process.
func ExampleClient() {
	ctx := context.Background()
	store := memstore.New()
	_ = store.Load(ctx, strings.NewReader(`<http://example.org/m1> <http://purl.org/dc/terms/identifier> "RONL_A" .`), graph.NTriples)

	var ep sparql.Endpoint = sparql.NewClient("http://kg.internal/v1/sparql", sparql.ClientOptions{
		HTTPClient: sparql.InProcessClient(store.Handler(memstore.HandlerOptions{ReadOnly: true})),
	})
	res, err := ep.Select(ctx, `SELECT ?id WHERE { ?m <http://purl.org/dc/terms/identifier> ?id }`)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Solutions[0]["id"].Value)

	err = ep.Update(ctx, `INSERT DATA { <http://example.org/m2> <http://example.org/p> 1 }`)
	fmt.Println(err)
	// Output:
	// RONL_A
	// sparql: http://kg.internal/v1/sparql answered 403 Forbidden: this endpoint is read-only: updates are refused
}
