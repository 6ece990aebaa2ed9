package layered_test

import (
	"bufio"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/regelkit/regelkit/shacl/layered"
	"github.com/regelkit/regelkit/sparql/graph"
)

var (
	benchData = flag.String("shacl.benchdata", "", "write the 100k benchmark data graph as N-Triples into this directory")
	benchFile = flag.String("shacl.benchfile", "", "validate this N-Triples file against the built-in layers and log the timings")
)

// publishedGraph builds n organisations and n rules as a knowledge graph
// holds them, about 10 triples each, with one organisation in a hundred
// carrying a second homepage and one rule in a hundred a second Dutch
// title.
func publishedGraph(n int) *graph.Graph {
	const (
		cv   = "http://data.europa.eu/m8g/"
		dct  = "http://purl.org/dc/terms/"
		skos = "http://www.w3.org/2004/02/skos/core#"
		foaf = "http://xmlns.com/foaf/0.1/"
		cpsv = "http://purl.org/vocab/cpsv#"
		eli  = "http://data.europa.eu/eli/ontology#"
		base = "https://data.example.org/"
	)
	g := graph.NewGraph()
	iri := graph.IRI
	add := func(s, p, o graph.Term) { g.Add(graph.Triple{S: s, P: p, O: o}) }
	typ := iri(graph.RDFType)
	for k := range 500 {
		add(iri(base+"location/"+strconv.Itoa(k)), typ, iri(dct+"Location"))
		add(iri(base+"law/"+strconv.Itoa(k)), typ, iri(eli+"LegalResource"))
	}
	add(iri(base+"lang/nld"), typ, iri(dct+"LinguisticSystem"))
	add(iri(base+"concept/decision"), typ, iri(skos+"Concept"))
	for i := range n {
		id := strconv.Itoa(i)
		org := iri(base + "organisation/" + id)
		add(org, typ, iri(cv+"PublicOrganisation"))
		add(org, iri(dct+"identifier"), graph.String("org-"+id))
		add(org, iri(skos+"prefLabel"), graph.LangLiteral("Organisatie "+id, "nl"))
		add(org, iri(skos+"prefLabel"), graph.LangLiteral("Organisation "+id, "en"))
		add(org, iri(skos+"altLabel"), graph.LangLiteral("Org "+id, "nl"))
		add(org, iri(foaf+"homepage"), iri("https://org"+id+".example.org/"))
		if i%100 == 0 {
			add(org, iri(foaf+"homepage"), iri("https://www.org"+id+".example.org/"))
		}
		add(org, iri(cv+"spatial"), iri(base+"location/"+strconv.Itoa(i%500)))
		add(org, iri(dct+"spatial"), iri(base+"location/"+strconv.Itoa(i%500)))
		add(org, iri(foaf+"logo"), iri("https://org"+id+".example.org/logo.png"))
		add(org, iri(skos+"notation"), graph.String(id))

		rule := iri(base + "rule/" + id)
		add(rule, typ, iri(cpsv+"Rule"))
		add(rule, iri(dct+"identifier"), graph.String("rule-"+id))
		add(rule, iri(dct+"title"), graph.LangLiteral("Regel "+id, "nl"))
		add(rule, iri(dct+"title"), graph.LangLiteral("Rule "+id, "en"))
		if i%100 == 0 {
			add(rule, iri(dct+"title"), graph.LangLiteral("Andere regel "+id, "nl"))
		}
		add(rule, iri(dct+"description"), graph.LangLiteral("Beschrijving van regel "+id, "nl"))
		add(rule, iri(dct+"description"), graph.LangLiteral("Description of rule "+id, "en"))
		add(rule, iri(dct+"language"), iri(base+"lang/nld"))
		add(rule, iri(dct+"type"), iri(base+"concept/decision"))
		add(rule, iri(cpsv+"implements"), iri(base+"law/"+strconv.Itoa(i%500)))
		add(rule, iri(dct+"source"), graph.String("publication "+strconv.Itoa(i%7)))
	}
	return g
}

// TestWriteBenchmarkData writes the benchmark graph for side-by-side runs
// with other engines (go test -run WriteBenchmarkData -shacl.benchdata=DIR).
func TestWriteBenchmarkData(t *testing.T) {
	if *benchData == "" {
		t.Skip("set -shacl.benchdata=DIR to write the benchmark data")
	}
	f, err := os.Create(filepath.Join(*benchData, "data-100k.nt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	if err := graph.WriteGraph(w, graph.NTriples, publishedGraph(50_000), graph.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
}

// TestValidateFile times one check of an N-Triples file, for side-by-side
// runs with other engines on the same data
// (go test -run ValidateFile -v -shacl.benchfile=FILE).
func TestValidateFile(t *testing.T) {
	if *benchFile == "" {
		t.Skip("set -shacl.benchfile=FILE to time a check of that file")
	}
	c := builtin(t)
	start := time.Now()
	f, err := os.Open(*benchFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := graph.ParseGraph(bufio.NewReader(f), graph.NTriples, graph.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	loaded := time.Now()
	cpu0 := cpuTime()
	r, err := c.Check(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("loaded %d triples in %v; three layers in %v wall, %v CPU", g.Len(), loaded.Sub(start), time.Since(loaded), cpuTime()-cpu0)
	for _, l := range r.Layers {
		t.Logf("%s: %d issues", l.Key, len(l.Issues))
	}
}

// cpuTime is the user and system time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkCheck100k validates 50,000 organisations and 50,000 rules
// (about 1.05 million triples) against all three layers.
func BenchmarkCheck100k(b *testing.B) {
	c := builtin(b)
	g := publishedGraph(50_000)
	b.ReportMetric(float64(g.Len()), "triples")
	b.ResetTimer()
	for b.Loop() {
		r, err := c.Check(context.Background(), g)
		if err != nil {
			b.Fatal(err)
		}
		if r.Summary.Errors != 500+500 {
			b.Fatalf("%d errors", r.Summary.Errors)
		}
	}
}

// BenchmarkCheckTurtleSmall is one typical upload: a few organisations and
// rules, parsed and validated.
func BenchmarkCheckTurtleSmall(b *testing.B) {
	c := builtin(b)
	ttl := fixture(b, "org-collision-fail.ttl")
	for b.Loop() {
		if _, err := c.CheckTurtle(context.Background(), ttl); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBuiltin parses and compiles the three embedded shape sets.
func BenchmarkBuiltin(b *testing.B) {
	for b.Loop() {
		if _, err := layered.Builtin(); err != nil {
			b.Fatal(err)
		}
	}
}
