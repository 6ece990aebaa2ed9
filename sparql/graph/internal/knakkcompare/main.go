package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/knakk/rdf"
	"github.com/regelkit/regelkit/sparql/graph"
)

const mf = "http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#"

func knakkParse(path string, f rdf.Format, base string) (g *graph.Graph, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	dec := rdf.NewTripleDecoder(bytes.NewReader(data), f)
	if base != "" {
		b, _ := rdf.NewIRI(base)
		dec.SetOption(rdf.Base, b)
	}
	g = graph.NewGraph()
	for {
		t, err := dec.Decode()
		if err == io.EOF {
			return g, nil
		}
		if err != nil {
			return nil, err
		}
		g.Add(graph.Triple{S: graph.FromKnakk(t.Subj), P: graph.FromKnakk(t.Pred), O: graph.FromKnakk(t.Obj)})
	}
}

func suite(dir string, f rdf.Format) {
	path, err := filepath.Abs(filepath.Join(dir, "manifest.ttl"))
	if err != nil {
		panic(err)
	}
	r, err := os.Open(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer r.Close()
	m, err := graph.ParseGraph(r, graph.Turtle, graph.ParseOptions{Base: "file://" + path})
	if err != nil {
		panic(err)
	}
	man, _ := m.Subject(graph.IRI(graph.RDFType), graph.IRI(mf+"Manifest"))
	assumed, _ := m.Object(man, graph.IRI(mf+"assumedTestBase"))
	head, _ := m.Object(man, graph.IRI(mf+"entries"))
	entries, _ := m.List(head)
	pass, fail := 0, 0
	for _, e := range entries {
		kind, _ := m.Object(e, graph.IRI(graph.RDFType))
		act, _ := m.Object(e, graph.IRI(mf+"action"))
		res, _ := m.Object(e, graph.IRI(mf+"result"))
		file := strings.TrimPrefix(act.Value, "file://")
		base := ""
		if assumed.Kind == graph.KindIRI {
			base = assumed.Value + filepath.Base(file)
		}
		g, err := knakkParse(file, f, base)
		ok := false
		switch k := kind.Value; {
		case strings.Contains(k, "Negative"):
			ok = err != nil
		case strings.HasSuffix(k, "PositiveSyntax"):
			ok = err == nil
		default:
			if err == nil {
				data, rerr := os.ReadFile(strings.TrimPrefix(res.Value, "file://"))
				want, werr := graph.ParseGraph(bytes.NewReader(data), graph.NTriples, graph.ParseOptions{})
				ok = rerr == nil && werr == nil && graph.Isomorphic(g, want)
			}
		}
		if ok {
			pass++
		} else {
			fail++
		}
	}
	fmt.Printf("knakk/rdf %s: %d passed, %d failed\n", filepath.Base(dir), pass, fail)
}

func main() {
	suites := flag.String("suites", filepath.Join("..", "shared", "testsuites", "rdf-tests"), "the W3C rdf-tests folder")
	flag.Parse()
	root := filepath.Join(*suites, "rdf", "rdf11")
	suite(filepath.Join(root, "rdf-turtle"), rdf.Turtle)
	suite(filepath.Join(root, "rdf-n-triples"), rdf.NTriples)
	if flag.NArg() > 0 {
		data, err := os.ReadFile(flag.Arg(0))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		for range 3 {
			t0 := time.Now()
			dec := rdf.NewTripleDecoder(bytes.NewReader(data), rdf.Turtle)
			n := 0
			for {
				_, err := dec.Decode()
				if err == io.EOF {
					break
				}
				if err != nil {
					fmt.Println("error after", n, err)
					break
				}
				n++
			}
			s := time.Since(t0).Seconds()
			fmt.Printf("knakk/rdf Turtle: %d triples in %.3f s = %.0f triples/s\n", n, s, float64(n)/s)
		}
	}
}
