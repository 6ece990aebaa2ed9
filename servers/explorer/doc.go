// Command explorer is the linked-data explorer backend: it lists decision
// models published in a knowledge graph, finds and executes chains of them on
// a decision engine, validates DMN and RDF before publication and serves
// legal norms under a stability contract (../../shared/spec/explorer.md).
//
// It runs with no external service: configuration comes from environment
// variables with defaults (see the README), printed at start-up with secrets
// masked.
//
//	go run ./servers/explorer   # on :8081, with the example knowledge graph
package main
