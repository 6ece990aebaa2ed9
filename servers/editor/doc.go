// Command editor serves the legal-text editor's services (spec area A) from
// one binary: the path-routing front of spec §4.1 in front of the prediction
// service, the two FLINT converters, the editor backend over a graph store,
// and an embedded single-page web application.
//
// It runs with no external service: the graph store is an in-memory SPARQL
// store seeded with examples/editor and answering as dataset local/editor.
// Configuration comes from environment variables with defaults (see the
// README), printed at start-up with secrets masked.
//
//	go run ./servers/editor   # on :8084
package main
