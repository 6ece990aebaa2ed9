package graph

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
)

var benchFile = flag.String("graph.benchfile", "", "write the generated benchmark Turtle file here (TestWriteBenchmarkFile)")

const benchTriples = 500_000

// writeBenchTurtle writes a Turtle document of exactly n triples (n a
// multiple of 20): prefixed names, typed and language-tagged literals,
// blank node property lists and collections, 20 triples per subject.
func writeBenchTurtle(w io.Writer, n int) error {
	var b bytes.Buffer
	b.WriteString(`@prefix ex: <http://example.org/data/> .
@prefix voc: <http://example.org/vocab#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix dct: <http://purl.org/dc/terms/> .

`)
	tags := []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"}
	for i := range n / 20 {
		fmt.Fprintf(&b, `ex:item%d a voc:Thing%d ;
    rdfs:label "Item %d"@en, "Ding %d"@nl ;
    dct:created "2024-%02d-%02dT10:00:00Z"^^xsd:dateTime ;
    voc:count %d ;
    voc:score %d.%d ;
    voc:weight %de-3 ;
    voc:active %v ;
    voc:related ex:item%d ;
    dct:description "A generated item, number %d, with a \"quoted\" word." ;
    voc:address [ voc:street "Street %d" ; voc:number %d ] ;
    voc:tags ( "%s" "%s" "%s" ) .

`, i, i%10, i, i, i%12+1, i%28+1, i, i%100, i%10, i, i%2 == 0, (i*7919)%(n/20), i, i%500, i%200,
			tags[i%8], tags[(i+3)%8], tags[(i+5)%8])
		if b.Len() > 1<<20 {
			if _, err := w.Write(b.Bytes()); err != nil {
				return err
			}
			b.Reset()
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

var benchData = sync.OnceValue(func() []byte {
	var b bytes.Buffer
	if err := writeBenchTurtle(&b, benchTriples); err != nil {
		panic(err)
	}
	return b.Bytes()
})

// TestWriteBenchmarkFile writes the benchmark document to the file named by
// -graph.benchfile, for timing other parsers (such as n3) on the same input.
func TestWriteBenchmarkFile(t *testing.T) {
	if *benchFile == "" {
		t.Skip("set -graph.benchfile to write the benchmark document")
	}
	if err := os.WriteFile(*benchFile, benchData(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestBenchmarkDocument(t *testing.T) {
	// The generator must produce what it claims: 20 triples per block.
	var b strings.Builder
	if err := writeBenchTurtle(&b, 2000); err != nil {
		t.Fatal(err)
	}
	g, err := ParseGraph(strings.NewReader(b.String()), Turtle, ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if g.Len() != 2000 {
		t.Fatalf("generated document has %d triples, want 2000", g.Len())
	}
}

// BenchmarkParseTurtle parses the 500,000-triple document, counting the
// triples without storing them.
func BenchmarkParseTurtle(b *testing.B) {
	data := benchData()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		n := 0
		err := Parse(bytes.NewReader(data), Turtle, ParseOptions{}, func(Quad) error { n++; return nil })
		if err != nil || n != benchTriples {
			b.Fatalf("parsed %d triples: %v", n, err)
		}
	}
	b.ReportMetric(float64(benchTriples)*float64(b.N)/b.Elapsed().Seconds(), "triples/s")
}

// BenchmarkParseGraphTurtle parses the document into a Graph and reports
// the live heap per stored triple.
func BenchmarkParseGraphTurtle(b *testing.B) {
	data := benchData()
	b.SetBytes(int64(len(data)))
	var perTriple float64
	for b.Loop() {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		g, err := ParseGraph(bytes.NewReader(data), Turtle, ParseOptions{})
		if err != nil || g.Len() != benchTriples {
			b.Fatalf("graph has %d triples: %v", g.Len(), err)
		}
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&after)
		perTriple = float64(after.HeapAlloc-before.HeapAlloc) / float64(g.Len())
		runtime.KeepAlive(g)
		b.StartTimer()
	}
	b.ReportMetric(float64(benchTriples)*float64(b.N)/b.Elapsed().Seconds(), "triples/s")
	b.ReportMetric(perTriple, "heapB/triple")
}

func BenchmarkParseNTriples(b *testing.B) {
	g, err := ParseGraph(bytes.NewReader(benchData()), Turtle, ParseOptions{})
	if err != nil {
		b.Fatal(err)
	}
	var nt bytes.Buffer
	if err := WriteGraph(&nt, NTriples, g, WriteOptions{}); err != nil {
		b.Fatal(err)
	}
	data := nt.Bytes()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for b.Loop() {
		n := 0
		if err := Parse(bytes.NewReader(data), NTriples, ParseOptions{}, func(Quad) error { n++; return nil }); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(g.Len())*float64(b.N)/b.Elapsed().Seconds(), "triples/s")
}

func BenchmarkWriteTurtle(b *testing.B) {
	pfx := NewPrefixes()
	g, err := ParseGraph(bytes.NewReader(benchData()), Turtle, ParseOptions{Prefixes: pfx})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if err := WriteGraph(io.Discard, Turtle, g, WriteOptions{Prefixes: pfx}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(g.Len())*float64(b.N)/b.Elapsed().Seconds(), "triples/s")
}

func BenchmarkWriteNTriples(b *testing.B) {
	g, err := ParseGraph(bytes.NewReader(benchData()), Turtle, ParseOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if err := WriteGraph(io.Discard, NTriples, g, WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(g.Len())*float64(b.N)/b.Elapsed().Seconds(), "triples/s")
}

func BenchmarkGraphMatch(b *testing.B) {
	g, err := ParseGraph(bytes.NewReader(benchData()), Turtle, ParseOptions{})
	if err != nil {
		b.Fatal(err)
	}
	label := IRI(RDFS + "label")
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		s := IRI(fmt.Sprintf("http://example.org/data/item%d", i%(benchTriples/20)))
		n := 0
		for range g.Match(s, label, Term{}) {
			n++
		}
		if n != 2 {
			b.Fatalf("%v has %d labels", s, n)
		}
	}
}

func BenchmarkIsomorphic(b *testing.B) {
	var src bytes.Buffer
	if err := writeBenchTurtle(&src, 20000); err != nil {
		b.Fatal(err)
	}
	g1, err1 := ParseGraph(bytes.NewReader(src.Bytes()), Turtle, ParseOptions{})
	g2, err2 := ParseGraph(bytes.NewReader(src.Bytes()), Turtle, ParseOptions{})
	if err1 != nil || err2 != nil {
		b.Fatal(err1, err2)
	}
	b.ResetTimer()
	for b.Loop() {
		if !Isomorphic(g1, g2) {
			b.Fatal("not isomorphic")
		}
	}
}
