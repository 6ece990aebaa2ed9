// Command benchturtle writes the sparql/graph benchmark document to
// standard output:
//
//	go run ./sparql/graph/internal/benchdata/benchturtle -n 500000 > /tmp/bench.ttl
package main
