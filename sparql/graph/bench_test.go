package graph

import (
	"bytes"
	"fmt"
	"github.com/regelkit/regelkit/sparql/graph/internal/benchdata"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"
)

const benchTriples = 500_000

var benchData = sync.OnceValue(func() []byte {
	var b bytes.Buffer
	if err := benchdata.WriteTurtle(&b, benchTriples); err != nil {
		panic(err)
	}
	return b.Bytes()
})

func TestBenchmarkDocument(t *testing.T) {
	// The generator must produce what it claims: 20 triples per block.
	var b strings.Builder
	if err := benchdata.WriteTurtle(&b, 2000); err != nil {
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
	if err := benchdata.WriteTurtle(&src, 20000); err != nil {
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
