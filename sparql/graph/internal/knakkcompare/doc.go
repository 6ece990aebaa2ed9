// Command knakkcompare measures github.com/knakk/rdf on the W3C Turtle and
// N-Triples suites (evaluation results compared with this package's
// Isomorphic) and, given a file, its Turtle parsing speed; the defects and
// the speed it shows are summarised in the sparql/graph package
// documentation.
//
//	go run ./sparql/graph/internal/knakkcompare -suites ../shared/testsuites/rdf-tests /tmp/bench.ttl
package main
