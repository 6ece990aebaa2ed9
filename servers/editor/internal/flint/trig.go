package flint

import (
	"bytes"
	"io"
	"iter"
	"slices"

	"github.com/regelkit/regelkit/sparql/graph"
)

// WriteTriG writes a dataset deterministically: the graph named first (the
// task graph) before the others in IRI order, triples sorted within each
// graph, the prefixes of Prefixes.
func WriteTriG(w io.Writer, ds *graph.Dataset, first graph.Term) error {
	names := ds.Names()
	slices.SortFunc(names, func(a, b graph.Term) int {
		switch {
		case a == b:
			return 0
		case a == first:
			return -1
		case b == first:
			return 1
		}
		return graph.CompareTerms(a, b)
	})
	if ds.Default().Len() > 0 {
		names = append([]graph.Term{{}}, names...)
	}
	// The graph writer orders graphs by name; to put the task graph first,
	// each graph is written on its own and the prefix header kept once. A
	// labelled blank node (one referenced twice) would be scoped to the whole
	// document, so then the dataset is written in one piece instead.
	var out bytes.Buffer
	for i, n := range names {
		var buf bytes.Buffer
		if err := graph.Write(&buf, graph.TriG, sortedQuads(ds, []graph.Term{n}), graph.WriteOptions{Prefixes: Prefixes()}); err != nil {
			return err
		}
		chunk := buf.Bytes()
		if bytes.Contains(chunk, []byte("_:")) {
			return graph.Write(w, graph.TriG, sortedQuads(ds, names), graph.WriteOptions{Prefixes: Prefixes()})
		}
		if i > 0 {
			if k := bytes.Index(chunk, []byte("\n\n")); k >= 0 {
				chunk = chunk[k+2:]
			}
		}
		out.Write(chunk)
	}
	_, err := w.Write(out.Bytes())
	return err
}

// WriteTurtle writes one graph as Turtle, triples sorted.
func WriteTurtle(w io.Writer, g *graph.Graph) error {
	ds := graph.NewDataset()
	ds.SetGraph(graph.Term{}, g)
	return graph.Write(w, graph.Turtle, sortedQuads(ds, []graph.Term{{}}), graph.WriteOptions{Prefixes: Prefixes()})
}

func sortedQuads(ds *graph.Dataset, names []graph.Term) iter.Seq[graph.Quad] {
	return func(yield func(graph.Quad) bool) {
		for _, n := range names {
			g := ds.Graph(n)
			if g == nil {
				continue
			}
			ts := slices.Collect(g.Triples())
			slices.SortFunc(ts, func(a, b graph.Triple) int {
				if c := graph.CompareTerms(a.S, b.S); c != 0 {
					return c
				}
				if c := graph.CompareTerms(a.P, b.P); c != 0 {
					return c
				}
				return graph.CompareTerms(a.O, b.O)
			})
			for _, t := range ts {
				if !yield(graph.Quad{S: t.S, P: t.P, O: t.O, G: n}) {
					return
				}
			}
		}
	}
}
