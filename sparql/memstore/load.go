package memstore

import (
	"context"
	"io"

	"github.com/regelkit/regelkit/sparql/graph"
)

// LoadOption configures Load.
type LoadOption func(*loadConfig)

type loadConfig struct {
	base  string
	graph graph.Term
}

// IntoGraph loads the triples of a triple format (Turtle, N-Triples) into
// the named graph iri instead of the default graph. Quads of TriG and
// N-Quads that name their graph keep it.
func IntoGraph(iri string) LoadOption {
	return func(c *loadConfig) { c.graph = graph.IRI(iri) }
}

// WithBase sets the base IRI for relative IRIs in the document.
func WithBase(base string) LoadOption {
	return func(c *loadConfig) { c.base = base }
}

// Load parses an RDF document (Turtle, TriG, N-Triples, N-Quads, and the
// other formats graph.Parse reads) and adds its quads in one write. On a
// syntax error (a *graph.ParseError with line and column) nothing is
// added. Blank nodes of each Load are distinct from those already stored.
func (s *Store) Load(ctx context.Context, r io.Reader, format graph.Format, opts ...LoadOption) error {
	var cfg loadConfig
	for _, o := range opts {
		o(&cfg)
	}
	return s.write(func(w *writer) error {
		n := 0
		return graph.Parse(r, format, graph.ParseOptions{Base: cfg.base, Graph: cfg.graph}, func(q graph.Quad) error {
			n++
			if n&4095 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			w.add(q)
			return nil
		})
	})
}
