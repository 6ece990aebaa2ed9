package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"

	"github.com/regelkit/regelkit/sparql/graph/internal/benchdata"
)

func main() {
	n := flag.Int("n", 500000, "number of triples (a multiple of 20)")
	flag.Parse()
	w := bufio.NewWriter(os.Stdout)
	if err := benchdata.WriteTurtle(w, *n); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
