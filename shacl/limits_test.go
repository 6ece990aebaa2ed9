package shacl_test

import (
	"context"
	"errors"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/regelkit/regelkit/shacl"
	"github.com/regelkit/regelkit/sparql/graph"
)

// smallStack lowers the goroutine stack limit for the rest of the test
// from 1 GB to 16 MB: validation must stay far below it whatever the data,
// and recursion that follows the data overflows it (a fatal error, not a
// recoverable panic) at a size a test can build quickly.
func smallStack(t *testing.T) {
	old := debug.SetMaxStack(16 << 20)
	t.Cleanup(func() { debug.SetMaxStack(old) })
}

// noTimeout lets the tests of long inputs take what a loaded machine needs:
// they test answers and stack use, not speed.
var noTimeout = shacl.Options{Limits: shacl.Limits{Timeout: -1}}

// listShapes is CPRMV's hasPartListShape: a list conforms when it is
// rdf:nil or its rest conforms, so validating a list recurses once per
// member.
const listShapes = `ex:L sh:targetObjectsOf ex:items ; sh:or ( [ sh:hasValue rdf:nil ]
  [ sh:property [ sh:path rdf:first ; sh:datatype xsd:integer ] ;
    sh:property [ sh:path rdf:rest ; sh:minCount 1 ; sh:node ex:L ] ] ) .`

// longList returns a graph with ex:head ex:items ( 1 1 ... ) of n members
// and a function that makes member i a string ("x"), or an integer again.
func longList(n int) (*graph.Graph, func(i int, bad bool)) {
	g := graph.NewGraph()
	node := func(i int) graph.Term { return graph.Blank("m" + strconv.Itoa(i)) }
	one, x := graph.Literal("1", graph.XSDInteger), graph.String("x")
	first := graph.IRI(graph.RDFFirst)
	g.Add(graph.Triple{S: graph.IRI("http://example.org/head"), P: graph.IRI("http://example.org/items"), O: node(0)})
	for i := range n {
		next := graph.IRI(graph.RDFNil)
		if i < n-1 {
			next = node(i + 1)
		}
		g.Add(graph.Triple{S: node(i), P: first, O: one})
		g.Add(graph.Triple{S: node(i), P: graph.IRI(graph.RDFRest), O: next})
	}
	set := func(i int, bad bool) {
		old, new := x, one
		if bad {
			old, new = one, x
		}
		g.Remove(graph.Triple{S: node(i), P: first, O: old})
		g.Add(graph.Triple{S: node(i), P: first, O: new})
	}
	return g, set
}

// Before the recursion was cut, a 250,000-member list killed the process
// with a stack overflow; now it validates, in bounded stack, to
// the answer the recursive definition gives.
func TestRecursiveShapeOverLongList(t *testing.T) {
	smallStack(t)
	const n = 250_000
	v, err := shacl.CompileWith(parse(t, listShapes), noTimeout)
	if err != nil {
		t.Fatal(err)
	}
	data, set := longList(n)
	for _, tc := range []struct {
		bad  int
		want bool
	}{{-1, true}, {n - 1, false}, {0, false}} {
		if tc.bad >= 0 {
			set(tc.bad, true)
		}
		start := time.Now()
		rep, err := v.Validate(context.Background(), data)
		if err != nil {
			t.Fatalf("bad member %d: %v", tc.bad, err)
		}
		if rep.Conforms != tc.want {
			t.Errorf("bad member %d: conforms %v, want %v (%d results)", tc.bad, rep.Conforms, tc.want, len(rep.Results))
		}
		if !tc.want && (len(rep.Results) != 1 || rep.Results[0].ComponentName() != "Or") {
			t.Errorf("bad member %d: results %v, want one Or result", tc.bad, summary(rep))
		}
		t.Logf("bad member %d: %v", tc.bad, time.Since(start))
		if tc.bad >= 0 {
			set(tc.bad, false)
		}
	}
}

// A cyclic list conforms (the inner visit of a node already being checked
// conforms), also when the cycle is far longer than the depth at which
// checks are suspended.
func TestRecursiveShapeOverLongCycle(t *testing.T) {
	smallStack(t)
	v, err := shacl.CompileWith(parse(t, listShapes), noTimeout)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{3, 1000, 50_000} {
		g := graph.NewGraph()
		node := func(i int) graph.Term { return graph.Blank("c" + strconv.Itoa(i%n)) }
		ex := "http://example.org/"
		g.Add(graph.Triple{S: graph.IRI(ex + "head"), P: graph.IRI(ex + "items"), O: node(0)})
		for i := range n {
			g.Add(graph.Triple{S: node(i), P: graph.IRI(graph.RDFFirst), O: graph.Literal(strconv.Itoa(i), graph.XSDInteger)})
			g.Add(graph.Triple{S: node(i), P: graph.IRI(graph.RDFRest), O: node(i + 1)})
		}
		rep, err := v.Validate(context.Background(), g)
		if err != nil {
			t.Fatalf("cycle of %d: %v", n, err)
		}
		if !rep.Conforms {
			t.Errorf("cycle of %d: %v, want conforming", n, summary(rep))
		}
	}
}

// A chain of 100,000 shapes, each requiring sh:node the next, compiles and
// validates (the compiler used to recurse once per shape).
func TestLongShapeChain(t *testing.T) {
	smallStack(t)
	const n = 100_000
	var b strings.Builder
	b.WriteString("ex:S0 sh:targetNode ex:a .\n")
	for i := range n {
		b.WriteString("ex:S" + strconv.Itoa(i) + " sh:node ex:S" + strconv.Itoa(i+1) + " .\n")
	}
	b.WriteString("ex:S" + strconv.Itoa(n) + " sh:class ex:C .\n")
	v, err := shacl.CompileWith(parse(t, b.String()), noTimeout)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := v.Validate(context.Background(), parse(t, `ex:a a ex:D .`))
	if err != nil {
		t.Fatal(err)
	}
	if got := summary(rep); len(got) != 1 || got[0] != "Node ex:a ex:a" {
		t.Errorf("results %v, want [Node ex:a ex:a]", got)
	}
	rep, err = v.Validate(context.Background(), parse(t, `ex:a a ex:C .`))
	if err != nil || !rep.Conforms {
		t.Errorf("conforming data: %v %v", err, rep)
	}
}

// A property shape that holds itself as sh:property recurses through the
// data without a conformance check to memoise; over a cycle it would never
// end. It stops at MaxDepth.
func TestPropertyRecursionStopsAtMaxDepth(t *testing.T) {
	smallStack(t)
	shapes := `ex:S sh:targetNode ex:a ; sh:property ex:P .
ex:P sh:path ex:next ; sh:property ex:P ; sh:nodeKind sh:Literal .`
	for _, tc := range []struct {
		name   string
		limits shacl.Limits
		max    int64
	}{{"default", shacl.Limits{}, shacl.DefaultMaxDepth}, {"set", shacl.Limits{MaxDepth: 40}, 40},
		{"disabled", shacl.Limits{MaxDepth: -1}, 10_000}, {"too large", shacl.Limits{MaxDepth: 1 << 30}, 10_000}} {
		v, err := shacl.CompileWith(parse(t, shapes), shacl.Options{Limits: tc.limits})
		if err != nil {
			t.Fatal(err)
		}
		_, err = v.Validate(context.Background(), parse(t, `ex:a ex:next ex:b . ex:b ex:next ex:a .`))
		var le *shacl.LimitError
		if !errors.As(err, &le) || le.Limit != "MaxDepth" || le.Max != tc.max || le.LimitExceeded() != "MaxDepth" {
			t.Fatalf("%s: error %v, want MaxDepth %d", tc.name, err, tc.max)
		}
		if !strings.Contains(err.Error(), "MaxDepth ("+strconv.FormatInt(tc.max, 10)+" nested shapes") {
			t.Errorf("message %q", err)
		}
	}
	// A short chain under the same shapes ends well within the bound.
	rep := validate(t, shapes, `ex:a ex:next ex:b . ex:b ex:next ex:c .`)
	if got := summary(rep); len(got) != 2 {
		t.Errorf("results %v, want two NodeKind results", got)
	}
}

// A small MaxDepth suspends conformance checks early; the answers stay
// the same.
func TestSmallMaxDepthKeepsAnswers(t *testing.T) {
	v, err := shacl.CompileWith(parse(t, listShapes), shacl.Options{Limits: shacl.Limits{MaxDepth: 4}})
	if err != nil {
		t.Fatal(err)
	}
	data, set := longList(10)
	for _, bad := range []int{-1, 7, 0} {
		if bad >= 0 {
			set(bad, true)
		}
		rep, err := v.Validate(context.Background(), data)
		if want := bad < 0; err != nil || rep.Conforms != want {
			t.Errorf("bad %d: %v %v, want conforms %v", bad, rep, err, want)
		}
		if bad >= 0 {
			set(bad, false)
		}
	}
}

func TestMaxRows(t *testing.T) {
	shapes := `ex:S sh:targetClass ex:C ; sh:datatype xsd:string .`
	var b strings.Builder
	for i := range 50 {
		b.WriteString("ex:n" + strconv.Itoa(i) + " a ex:C .\n")
	}
	for _, tc := range []struct {
		max     int
		wantErr bool
	}{{49, true}, {50, false}, {-1, false}} {
		v, err := shacl.CompileWith(parse(t, shapes), shacl.Options{Limits: shacl.Limits{MaxRows: tc.max}})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := v.Validate(context.Background(), parse(t, b.String()))
		var le *shacl.LimitError
		if tc.wantErr {
			if !errors.As(err, &le) || le.Limit != "MaxRows" || le.Max != 49 || rep != nil {
				t.Errorf("MaxRows %d: %v %v, want a MaxRows error", tc.max, rep, err)
			}
			if err != nil && err.Error() != "shacl: validation exceeded MaxRows (49 results)" {
				t.Errorf("message %q", err)
			}
			continue
		}
		if err != nil || len(rep.Results) != 50 {
			t.Errorf("MaxRows %d: %v, want 50 results", tc.max, err)
		}
	}
}

// A closure path over a long chain for every node of the chain is
// quadratic work; the Timeout ends it.
func TestTimeout(t *testing.T) {
	const n = 20_000
	var b strings.Builder
	for i := range n {
		b.WriteString("ex:n" + strconv.Itoa(i) + " a ex:C ; ex:next ex:n" + strconv.Itoa(i+1) + " .\n")
	}
	v, err := shacl.CompileWith(parse(t, `ex:S sh:targetClass ex:C ; sh:property [ sh:path [ sh:oneOrMorePath ex:next ] ; sh:nodeKind sh:IRI ] .`),
		shacl.Options{Limits: shacl.Limits{Timeout: 50 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	data := parse(t, b.String())
	start := time.Now()
	_, err = v.Validate(context.Background(), data)
	var le *shacl.LimitError
	if !errors.As(err, &le) || le.Limit != "Timeout" || le.Max != int64(50*time.Millisecond) {
		t.Fatalf("error %v, want a Timeout LimitError", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("stopped after %v", d)
	}
	// The caller's context cancels too, with its own error.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	v, _ = shacl.Compile(parse(t, `ex:S sh:targetClass ex:C ; sh:property [ sh:path [ sh:oneOrMorePath ex:next ] ; sh:nodeKind sh:IRI ] .`))
	if _, err := v.Validate(ctx, data); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("cancelled validation: %v", err)
	}
}

// Path nodes shared in the shapes graph must not unfold exponentially.
func TestSharedPathNodesAreBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("ex:S sh:targetNode ex:a ; sh:property [ sh:path _:p0 ; sh:minCount 1 ] .\n")
	for i := range 40 {
		b.WriteString("_:p" + strconv.Itoa(i) + " sh:alternativePath ( _:p" + strconv.Itoa(i+1) + " _:p" + strconv.Itoa(i+1) + " ) .\n")
	}
	b.WriteString("_:p40 sh:inversePath ex:q .\n")
	_, err := shacl.Compile(parse(t, b.String()))
	var se *shacl.ShapeError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "more than 10000 elements") {
		t.Fatalf("error %v, want a ShapeError about the path's size", err)
	}
	// Deep nesting is refused with its own message.
	b.Reset()
	b.WriteString("ex:S sh:targetNode ex:a ; sh:property [ sh:path _:p0 ; sh:minCount 1 ] .\n")
	for i := range 100 {
		b.WriteString("_:p" + strconv.Itoa(i) + " sh:zeroOrMorePath _:p" + strconv.Itoa(i+1) + " .\n")
	}
	b.WriteString("_:p100 sh:inversePath ex:q .\n")
	if _, err := shacl.Compile(parse(t, b.String())); err == nil || !strings.Contains(err.Error(), "nests deeper than 64 levels") {
		t.Fatalf("error %v, want a nesting error", err)
	}
}

// Lists in the shapes graph (sh:in, sh:and, sh:ignoredProperties) are read
// iteratively; a cyclic one is a ShapeError, not a hang.
func TestLongAndCyclicShapeLists(t *testing.T) {
	smallStack(t)
	const n = 100_000
	members := func(f func(i int) string) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(" " + f(i))
		}
		return b.String()
	}
	shapes := `ex:S sh:targetNode ex:a, ex:b ; sh:in (` + members(func(i int) string { return "ex:v" + strconv.Itoa(i) }) + ` ex:a ) ;
  sh:and (` + members(func(int) string { return "ex:T" }) + ` ) ;
  sh:closed true ; sh:ignoredProperties (` + members(func(i int) string { return "ex:p" + strconv.Itoa(i) }) + ` ) .
ex:T sh:nodeKind sh:IRI .`
	rep := validate(t, shapes, `ex:a ex:p7 1 . ex:b ex:q 1 .`)
	if got := summary(rep); len(got) != 2 || got[0] != "Closed ex:b \"1\"" || got[1] != "In ex:b ex:b" {
		t.Errorf("results %v", got)
	}
	_, err := shacl.Compile(parse(t, `ex:S sh:targetNode ex:a ; sh:in _:l . _:l rdf:first 1 ; rdf:rest _:m . _:m rdf:first 2 ; rdf:rest _:l .`))
	var se *shacl.ShapeError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "well-formed RDF list") {
		t.Errorf("cyclic sh:in: %v, want a ShapeError", err)
	}
}
