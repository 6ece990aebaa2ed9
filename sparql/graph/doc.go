// Package graph is regelkit's one place for RDF: terms, triples and quads,
// indexed in-memory graphs and datasets, and the parsers and serialisers of
// the RDF syntaxes (Turtle, TriG, N-Triples, N-Quads, RDF/XML, JSON-LD).
// Every other package that reads or writes RDF goes through it, so it
// follows the W3C specifications exactly and is checked against their test
// suites. Graphs compare by isomorphism and print in a canonical N-Triples
// form for tests and diffs.
//
// The one call a newcomer needs:
//
//	g, err := graph.ParseGraph(r, graph.Turtle, graph.ParseOptions{Base: "http://example.org/"})
package graph
