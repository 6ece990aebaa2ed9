// Package benchdata generates the Turtle document that the sparql/graph
// benchmarks parse, so other parsers (such as the npm package n3) can be
// timed on exactly the same input.
//
//	err := benchdata.WriteTurtle(w, 500_000)
package benchdata
