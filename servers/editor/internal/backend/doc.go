// Package backend is the editor backend (spec area A §4.2): it lists the
// sources and tasks of a graph store, exports a source as Turtle and a task as
// TriG, and saves a task's new graphs, with the upstream messages and the
// status codes the editor service answers.
//
// The store is any SPARQL 1.1 endpoint (EndpointStore over sparql.Endpoint:
// the embedded memstore by default, TriplyDB, Virtuoso, Fuseki or GraphDB when
// configured). The one call a newcomer needs:
//
//	h := backend.New(backend.Options{Stores: map[string]backend.GraphStore{"local/editor": store}, Dataset: "local/editor"})
package backend
