package norms_test

import (
	"context"
	"testing"

	"github.com/regelkit/regelkit/examples"
	"github.com/regelkit/regelkit/sparql"
	"github.com/regelkit/regelkit/sparql/graph"
	"github.com/regelkit/regelkit/sparql/memstore"
)

// exampleStore is a memstore loaded with the whole embedded example
// knowledge graph, as the explorer loads it.
func exampleStore(tb testing.TB) *memstore.Store {
	tb.Helper()
	s := memstore.New()
	for _, p := range examples.KnowledgeGraph {
		f, err := examples.FS.Open(p)
		if err != nil {
			tb.Fatal(err)
		}
		err = s.Load(context.Background(), f, graph.Turtle)
		f.Close()
		if err != nil {
			tb.Fatalf("%s: %v", p, err)
		}
	}
	return s
}

// countingEndpoint counts the queries sent to an endpoint and can fail the
// ones containing a marker.
type countingEndpoint struct {
	sparql.Endpoint
	selects  []string
	failWith func(query string) error
}

func (c *countingEndpoint) Select(ctx context.Context, q string) (*sparql.Results, error) {
	c.selects = append(c.selects, q)
	if c.failWith != nil {
		if err := c.failWith(q); err != nil {
			return nil, err
		}
	}
	return c.Endpoint.Select(ctx, q)
}
