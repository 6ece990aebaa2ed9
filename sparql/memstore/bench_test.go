package memstore

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/regelkit/regelkit/sparql/graph"
	"github.com/regelkit/regelkit/sparql/memstore/catalog"
	"github.com/regelkit/regelkit/sparql/memstore/internal/algebra"
)

// The benchmarks run on the 10,000-model catalogue (about 500,000
// triples) that the explorer's discovery queries target.

var (
	benchOnce  sync.Once
	benchStore *Store
	benchNT    []byte
)

func catalogNTriples() []byte {
	var buf bytes.Buffer
	if err := catalog.WriteNTriples(&buf, catalog.Options{Models: 10000}); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

func catalogStore(b *testing.B) *Store {
	benchOnce.Do(func() {
		benchNT = catalogNTriples()
		benchStore = New()
		if err := benchStore.Load(context.Background(), bytes.NewReader(benchNT), graph.NTriples); err != nil {
			panic(err)
		}
	})
	return benchStore
}

// BenchmarkLoadCatalog parses and indexes the N-Triples catalogue and
// reports the heap the store keeps per triple.
func BenchmarkLoadCatalog(b *testing.B) {
	nt := catalogNTriples()
	b.SetBytes(int64(len(nt)))
	b.ResetTimer()
	var s *Store
	for i := 0; i < b.N; i++ {
		s = nil
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		s = New()
		if err := s.Load(context.Background(), bytes.NewReader(nt), graph.NTriples); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		runtime.GC()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(s.Len()), "B/triple")
		b.ReportMetric(float64(s.Len()), "triples")
		b.StartTimer()
	}
}

func benchQuery(b *testing.B, q string, wantMin int) { benchQueryOn(b, catalogStore(b), q, wantMin) }

func benchQueryOn(b *testing.B, s *Store, q string, wantMin int) {
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := s.Select(ctx, q)
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Solutions) < wantMin {
			b.Fatalf("%d rows, want at least %d", len(res.Solutions), wantMin)
		}
		b.ReportMetric(float64(len(res.Solutions)), "rows")
	}
}

func BenchmarkDiscoveryListing(b *testing.B) { benchQuery(b, catalog.ListingQuery, 10000) }
func BenchmarkDiscoveryPairs(b *testing.B)   { benchQuery(b, catalog.PairsQuery, 20000) }
func BenchmarkDiscoveryCycles(b *testing.B)  { benchQuery(b, catalog.CyclesQuery, 600) }

// BenchmarkPointLookup is the per-model input query the explorer runs
// after the listing.
func BenchmarkPointLookup(b *testing.B) {
	benchQuery(b, `PREFIX cpsv: <http://purl.org/vocab/cpsv#> PREFIX dct: <http://purl.org/dc/terms/>
SELECT ?v ?id ?title ?type WHERE { ?v cpsv:isRequiredBy <https://regels.example.org/model/4242> ; dct:identifier ?id ; dct:title ?title ; dct:type ?type } ORDER BY ?id`, 3)
}

func BenchmarkFilterContains(b *testing.B) {
	benchQuery(b, `PREFIX dct: <http://purl.org/dc/terms/>
SELECT ?m ?t WHERE { ?m dct:title ?t FILTER(CONTAINS(STR(?t), "4242")) }`, 1)
}

// Simpler variants of the discovery queries, used for the side-by-side
// comparison with Oxigraph (whose WASM build did not finish the full
// listing and pairs queries within ten minutes).
const benchPrefixes = `PREFIX cprmv: <https://cprmv.open-regels.nl/0.3.0/>
PREFIX cprmv041: <https://standaarden.open-regels.nl/standards/cprmv/0.4.1#>
PREFIX cpsv: <http://purl.org/vocab/cpsv#>
PREFIX dct: <http://purl.org/dc/terms/>
`

func BenchmarkDiscoveryListingSimple(b *testing.B) {
	benchQuery(b, benchPrefixes+`SELECT ?model ?identifier ?title ?description WHERE {
  { ?model a cprmv:DecisionModel } UNION { ?model a cprmv041:DecisionModel }
  ?model dct:identifier ?identifier ; dct:title ?title .
  OPTIONAL { ?model dct:description ?description }
} ORDER BY ?identifier`, 10000)
}

func BenchmarkDiscoveryPairsByIdentifier(b *testing.B) {
	benchQuery(b, benchPrefixes+`SELECT ?dmn1 ?dmn2 ?outputVariable ?variableType WHERE {
  ?out a cpsv:Output ; cpsv:produces ?dmn1 ; dct:identifier ?outputVariable ; dct:type ?variableType .
  ?in a cpsv:Input ; cpsv:isRequiredBy ?dmn2 ; dct:identifier ?outputVariable ; dct:type ?variableType .
  FILTER(?dmn1 != ?dmn2)
}`, 20000)
}

var (
	valueOnce  sync.Once
	valueStore *Store
)

// valueStoreFor holds 20,000 measurements, each with an integer, a
// decimal, a double and a dateTime, for the benchmarks of comparisons
// and arithmetic by value.
func valueStoreFor(b *testing.B) *Store {
	valueOnce.Do(func() {
		const ex = "http://example.org/"
		s := New()
		var quads []graph.Quad
		for i := range 20000 {
			m := graph.IRI(ex + "m" + strconv.Itoa(i))
			add := func(p string, o graph.Term) { quads = append(quads, graph.Quad{S: m, P: graph.IRI(ex + p), O: o}) }
			add("n", graph.Literal(strconv.Itoa(i*7919%20000), graph.XSDInteger))
			add("d", graph.Literal(strconv.Itoa(i%100)+"."+strconv.Itoa(i%7)+"5", graph.XSDDecimal))
			add("f", graph.Literal(strconv.Itoa(i%1000)+".5E-1", graph.XSDDouble))
			add("t", graph.Literal(fmt.Sprintf("2024-%02d-%02dT%02d:00:00Z", i%12+1, i%28+1, i%24), graph.XSDDateTime))
		}
		s.Add(quads...)
		valueStore = s
	})
	return valueStore
}

func benchValueQuery(b *testing.B, q string, wantMin int) {
	benchQueryOn(b, valueStoreFor(b), q, wantMin)
}

// BenchmarkFilterCompare filters 20,000 rows on an integer, a decimal, a
// double and a dateTime (80,000 comparisons by value).
func BenchmarkFilterCompare(b *testing.B) {
	benchValueQuery(b, `PREFIX ex: <http://example.org/> PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>
SELECT ?m WHERE { ?m ex:n ?n ; ex:d ?d ; ex:f ?f ; ex:t ?t
  FILTER(?n >= 100 && ?d < 90.5 && ?f > 1 && ?t >= "2024-02-01T00:00:00Z"^^xsd:dateTime) }`, 1000)
}

// BenchmarkOrderByValue sorts 20,000 rows by a decimal and then a double.
func BenchmarkOrderByValue(b *testing.B) {
	benchValueQuery(b, `PREFIX ex: <http://example.org/>
SELECT ?m WHERE { ?m ex:d ?d ; ex:f ?f } ORDER BY ?d DESC(?f)`, 20000)
}

// BenchmarkArithmetic sums and averages 20,000 integers and decimals after
// adding and multiplying them.
func BenchmarkArithmetic(b *testing.B) {
	benchValueQuery(b, `PREFIX ex: <http://example.org/>
SELECT (SUM(?n * 2 + ?d) AS ?s) (AVG(?d) AS ?a) WHERE { ?m ex:n ?n ; ex:d ?d }`, 1)
}

var parseNumInputs = []graph.Term{
	graph.Literal("12345", graph.XSDInteger),
	graph.Literal("-42", graph.XSDInteger),
	graph.Literal("42.75", graph.XSDDecimal),
	graph.Literal("1.5E-1", graph.XSDDouble),
	graph.Literal("7", graph.XSD+"int"),
	graph.Literal("123456789012345678901234567890", graph.XSDInteger),
}

// BenchmarkParseNum reads numeric literals into the evaluation
// representation, the first step of every arithmetic operation.
func BenchmarkParseNum(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		for _, t := range parseNumInputs {
			if _, ok := parseNum(t); !ok {
				b.Fatal(t)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(parseNumInputs)), "ns/literal")
}

// BenchmarkRegexPerRow matches 20,000 literals against a pattern bound
// per row (so not compiled once with the query): the cost of compiling
// it for every row, or of finding it in the pattern cache.
func BenchmarkRegexPerRow(b *testing.B) {
	benchValueQuery(b, `PREFIX ex: <http://example.org/>
SELECT ?m WHERE { VALUES ?p { "^1[0-9]*5$" } ?m ex:n ?n FILTER(REGEX(STR(?n), ?p)) }`, 100)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*20000), "ns/row")
}

// cyclesGenericQuery is the 3-hop cycle as a user writes it without the
// tuned query: three models of either DecisionModel class (a UNION per
// model), an output of each feeding an input of the next by identifier,
// no LIMIT. Joined in written order, the three UNIONs made a cross product
// of 10,000³ models (past a 30 s Timeout); reordered it takes as long as
// CyclesQuery.
const cyclesGenericQuery = `PREFIX cpsv: <http://purl.org/vocab/cpsv#>
PREFIX dct: <http://purl.org/dc/terms/>
PREFIX cprmv: <https://cprmv.open-regels.nl/0.3.0/>
PREFIX cprmv041: <https://standaarden.open-regels.nl/standards/cprmv/0.4.1#>
SELECT ?m1 ?t1 ?m2 ?t2 ?m3 ?t3 WHERE {
  { ?m1 a cprmv:DecisionModel } UNION { ?m1 a cprmv041:DecisionModel }
  { ?m2 a cprmv:DecisionModel } UNION { ?m2 a cprmv041:DecisionModel }
  { ?m3 a cprmv:DecisionModel } UNION { ?m3 a cprmv041:DecisionModel }
  ?m1 dct:title ?t1 . ?m2 dct:title ?t2 . ?m3 dct:title ?t3 .
  ?o1 a cpsv:Output ; cpsv:produces ?m1 ; dct:identifier ?x1 .
  ?i2 a cpsv:Input ; cpsv:isRequiredBy ?m2 ; dct:identifier ?x1 .
  ?o2 a cpsv:Output ; cpsv:produces ?m2 ; dct:identifier ?x2 .
  ?i3 a cpsv:Input ; cpsv:isRequiredBy ?m3 ; dct:identifier ?x2 .
  ?o3 a cpsv:Output ; cpsv:produces ?m3 ; dct:identifier ?x3 .
  ?i1 a cpsv:Input ; cpsv:isRequiredBy ?m1 ; dct:identifier ?x3 .
  FILTER(?m1 != ?m2 && ?m2 != ?m3 && ?m1 != ?m3)
}`

func BenchmarkDiscoveryCyclesGeneric(b *testing.B) { benchQuery(b, cyclesGenericQuery, 606) }

// BenchmarkDiscoveryCyclesWCOJ runs CyclesQuery (one cyclic BGP) forced
// to the generic join, for comparison with the planner's choice
// (BenchmarkDiscoveryCycles: the binary plan).
func BenchmarkDiscoveryCyclesWCOJ(b *testing.B) {
	s := catalogStore(b)
	q, err := algebra.ParseQuery(catalog.CyclesQuery, algebra.Options{MaxDepth: 100})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		x := s.newExec(b.Context(), newBudget(Limits{}.resolve(s.opts.Limits), time.Now()), s.current(), nil, nil)
		x.forceWCOJ = true
		res, err := x.runQuery(q)
		if err != nil {
			b.Fatal(err)
		}
		if n := len(res.Results.Solutions); n != 606 || x.gjRuns == 0 {
			b.Fatalf("%d rows, %d generic joins; want 606 rows by generic join", n, x.gjRuns)
		}
	}
}

// BenchmarkSkewedTriangle is a triangle query over two hub nodes (see
// hubStore): by generic join, as the planner chooses, and forced to the
// binary plan.
func BenchmarkSkewedTriangle(b *testing.B) {
	s := hubStore()
	q, err := algebra.ParseQuery(hubTriangle, algebra.Options{MaxDepth: 100})
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name   string
		binary bool
	}{{"planner", false}, {"binary", true}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				x := s.newExec(b.Context(), newBudget(Limits{}.resolve(s.opts.Limits), time.Now()), s.current(), nil, nil)
				x.noWCOJ = bc.binary
				res, err := x.runQuery(q)
				if err != nil {
					b.Fatal(err)
				}
				if n := len(res.Results.Solutions); n != 9000 {
					b.Fatalf("%d rows, want 9000", n)
				}
			}
		})
	}
}
