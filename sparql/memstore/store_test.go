package memstore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/regelkit/regelkit/sparql/graph"
)

func mustLoad(t testing.TB, s *Store, ttl string) {
	t.Helper()
	if err := s.Load(context.Background(), strings.NewReader(ttl), graph.Turtle); err != nil {
		t.Fatal(err)
	}
}

func column(t *testing.T, s *Store, q, v string) string {
	t.Helper()
	res, err := s.Select(context.Background(), q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	var parts []string
	for _, sol := range res.Solutions {
		if x, ok := sol[v]; ok {
			parts = append(parts, x.Value)
		} else {
			parts = append(parts, "-")
		}
	}
	return strings.Join(parts, " ")
}

const people = `@prefix : <http://ex/> .
:alice :name "Alice" ; :age 34 ; :knows :bob , :carol .
:bob :name "Bob" ; :age 27 ; :knows :carol .
:carol :name "Carol"@en ; :age 41 .
:dave :name "Dave" .
`

func TestQueryFeatures(t *testing.T) {
	s := New()
	mustLoad(t, s, people)
	const p = "PREFIX : <http://ex/> "
	for _, tc := range []struct{ q, v, want string }{
		{`SELECT ?n WHERE { ?x :name ?n } ORDER BY ?n`, "n", "Alice Bob Dave Carol"},
		{`SELECT ?n WHERE { ?x :name ?n ; :age ?a } ORDER BY DESC(?a)`, "n", "Carol Alice Bob"},
		{`SELECT ?x WHERE { :alice :knows+ ?x } ORDER BY ?x`, "x", "http://ex/bob http://ex/carol"},
		{`SELECT ?x WHERE { ?x :knows* :carol } ORDER BY ?x`, "x", "http://ex/alice http://ex/bob http://ex/carol"},
		{`SELECT ?a WHERE { ?x :name ?n OPTIONAL { ?x :age ?a } } ORDER BY ?n`, "a", "34 27 - 41"},
		{`SELECT ?n WHERE { ?x :name ?n MINUS { ?x :knows ?y } } ORDER BY ?n`, "n", "Dave Carol"},
		{`SELECT ?n WHERE { ?x :name ?n FILTER NOT EXISTS { ?x :age ?a } }`, "n", "Dave"},
		{`SELECT (SUM(?a) AS ?s) (AVG(?a) AS ?m) (MAX(?a) AS ?mx) WHERE { ?x :age ?a }`, "s", "102"},
		{`SELECT (GROUP_CONCAT(?n; SEPARATOR="|") AS ?g) WHERE { SELECT ?n { ?x :name ?n } ORDER BY ?n }`, "g", "Alice|Bob|Dave|Carol"},
		{`SELECT ?x (COUNT(?y) AS ?c) WHERE { ?x :knows ?y } GROUP BY ?x HAVING (COUNT(?y) > 1)`, "c", "2"},
		{`SELECT ?u WHERE { ?x :name ?n BIND(UCASE(?n) AS ?u) FILTER(STRSTARTS(?u, "C")) }`, "u", "CAROL"},
		{`SELECT ?x WHERE { VALUES ?x { :alice :zed } ?x :age ?a }`, "x", "http://ex/alice"},
		{`SELECT ?n WHERE { { ?x :age 27 } UNION { ?x :age 41 } ?x :name ?n } ORDER BY ?n`, "n", "Bob Carol"},
		{`SELECT ?n WHERE { ?x :name ?n } ORDER BY ?n LIMIT 2 OFFSET 1`, "n", "Bob Dave"},
		{`SELECT DISTINCT ?y WHERE { ?x :knows ?y } ORDER BY ?y`, "y", "http://ex/bob http://ex/carol"},
		{`SELECT ?l WHERE { ?x :name ?n FILTER(LANG(?n) != "") BIND(LANG(?n) AS ?l) }`, "l", "en"},
		{`SELECT ?r WHERE { BIND(REPLACE("a-b-c", "-", "+") AS ?r) }`, "r", "a+b+c"},
		{`SELECT ?r WHERE { BIND(REPLACE("abc", "(b)", "[$1]") AS ?r) }`, "r", "a[b]c"},
		{`SELECT ?r WHERE { BIND(REPLACE("a/b/c", "/", "$", "q") AS ?r) }`, "r", "a$b$c"}, // q: replacement as is
		{`SELECT ?r WHERE { BIND(REPLACE("a.b.c", ".", "\\$1", "q") AS ?r) }`, "r", `a\$1b\$1c`},
		{`SELECT ?r WHERE { BIND(REPLACE("a b", " ", "", "x") AS ?r) }`, "r", "-"}, // x leaves an empty pattern: an error
		{`SELECT ?n WHERE { ?x :name ?n FILTER REGEX(?n, "^[a-z-[aeiou]]", "i") } ORDER BY ?n`, "n", "Bob Dave Carol"},
		{`SELECT ?b WHERE { BIND(REGEX("a\rb", "a.b") AS ?b) }`, "b", "false"},
		{`SELECT ?b WHERE { BIND(REGEX("a\rb", "a.b", "s") AS ?b) }`, "b", "true"},
		{`SELECT ?b WHERE { BIND(REGEX("aa", "(a)\\1") AS ?b) }`, "b", "true"},                     // a back reference runs on regexp2
		{`SELECT ?b WHERE { VALUES ?p { "^\\d$" } BIND(REGEX("\u0663", ?p) AS ?b) }`, "b", "true"}, // a pattern known only per row
		{`SELECT ?b WHERE { VALUES ?p { "(a)\\1" "\\1(a)" } BIND(REGEX("aa", ?p) AS ?b) }`, "b", "true -"},
		{`SELECT ?b WHERE { VALUES ?f { "i" "g" } BIND(REGEX("A", "a", ?f) AS ?b) }`, "b", "true -"},
		{`SELECT ?d WHERE { BIND(10/4 AS ?d) }`, "d", "2.5"},
		{`SELECT ?h WHERE { BIND(SHA256("abc") AS ?h) }`, "h", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
		{`SELECT ?y WHERE { BIND(YEAR("2024-02-29T10:00:00Z"^^<http://www.w3.org/2001/XMLSchema#dateTime>) AS ?y) }`, "y", "2024"},
	} {
		if got := column(t, s, p+tc.q, tc.v); got != tc.want {
			t.Errorf("%s\n got %q\nwant %q", tc.q, got, tc.want)
		}
	}
}

func TestUpdateIsAtomic(t *testing.T) {
	s := New()
	mustLoad(t, s, people)
	before := s.Len()
	err := s.Update(context.Background(), `INSERT DATA { <http://ex/x> <http://ex/p> 1 } ; CREATE GRAPH <http://ex/g> ; CREATE GRAPH <http://ex/g>`)
	var ue *UpdateError
	if !errors.As(err, &ue) {
		t.Fatalf("err = %v, want UpdateError for the second CREATE", err)
	}
	if s.Len() != before {
		t.Errorf("a failed request changed the store: %d quads, want %d", s.Len(), before)
	}
	if err := s.Update(context.Background(), `LOAD <http://example.org/x.ttl>`); !errors.Is(err, ErrLoadUnsupported) {
		t.Errorf("LOAD: %v, want ErrLoadUnsupported", err)
	}
}

func TestUpdateModify(t *testing.T) {
	s := New()
	mustLoad(t, s, people)
	ctx := context.Background()
	err := s.Update(ctx, `PREFIX : <http://ex/>
DELETE { ?x :age ?a } INSERT { ?x :age ?b } WHERE { ?x :age ?a BIND(?a + 1 AS ?b) } ;
INSERT { GRAPH :friends { ?x :knows ?y } } WHERE { ?x :knows ?y } ;
DELETE WHERE { :bob :knows ?z }`)
	if err != nil {
		t.Fatal(err)
	}
	if got := column(t, s, `PREFIX : <http://ex/> SELECT ?a { ?x :age ?a } ORDER BY ?a`, "a"); got != "28 35 42" {
		t.Errorf("ages = %s", got)
	}
	if got := column(t, s, `PREFIX : <http://ex/> SELECT (COUNT(*) AS ?c) { GRAPH :friends { ?x :knows ?y } }`, "c"); got != "3" {
		t.Errorf("friends graph count = %s, want 3", got)
	}
	if got := column(t, s, `PREFIX : <http://ex/> SELECT (COUNT(*) AS ?c) { ?x :knows ?y }`, "c"); got != "2" {
		t.Errorf("default knows count = %s, want 2", got)
	}
}

func TestQueryTimeout(t *testing.T) {
	s := New()
	var b strings.Builder
	b.WriteString("@prefix : <http://ex/> .\n")
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&b, ":n%d :p :n%d .\n", i, (i+1)%2000)
	}
	mustLoad(t, s, b.String())
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := s.Select(ctx, `SELECT * WHERE { ?a <http://ex/p>* ?b . ?c <http://ex/p>* ?d }`)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want deadline exceeded", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("cancellation took %v", d)
	}
}

// Readers running while a writer adds batches must always see whole
// batches: the count of ?x :batch ?n triples is a multiple of the batch size.
func TestSnapshotIsolation(t *testing.T) {
	s := New()
	ctx := context.Background()
	const batch = 50
	var wg sync.WaitGroup
	stop := make(chan struct{})
	errs := make(chan error, 4)
	for r := 0; r < 3; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				res, err := s.Select(ctx, `SELECT (COUNT(*) AS ?c) WHERE { ?x <http://ex/batch> ?n }`)
				if err != nil {
					errs <- err
					return
				}
				var n int
				fmt.Sscan(res.Solutions[0]["c"].Value, &n)
				if n%batch != 0 {
					errs <- fmt.Errorf("reader saw %d triples, not a whole number of batches", n)
					return
				}
			}
		}()
	}
	for i := 0; i < 40; i++ {
		var b strings.Builder
		b.WriteString("INSERT DATA {")
		for j := 0; j < batch; j++ {
			fmt.Fprintf(&b, " <http://ex/s%d_%d> <http://ex/batch> %d .", i, j, j)
		}
		b.WriteString(" }")
		if err := s.Update(ctx, b.String()); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got := column(t, s, `SELECT (COUNT(*) AS ?c) WHERE { ?x <http://ex/batch> ?n }`, "c"); got != "2000" {
		t.Errorf("final count %s", got)
	}
}

func TestSyntaxErrorPosition(t *testing.T) {
	_, err := New().Select(context.Background(), "SELECT ?x WHERE {\n  ?x <p> \"unterminated\n}")
	var se *SyntaxError
	if !errors.As(err, &se) || se.Line != 2 {
		t.Fatalf("err = %v, want SyntaxError on line 2", err)
	}
}

func TestLoadIntoNamedGraphAndParseError(t *testing.T) {
	s := New()
	ctx := context.Background()
	if err := s.Load(ctx, strings.NewReader(`<http://ex/a> <http://ex/p> "x" .`), graph.NTriples, IntoGraph("http://ex/g")); err != nil {
		t.Fatal(err)
	}
	if ok, _ := s.Ask(ctx, `ASK { GRAPH <http://ex/g> { <http://ex/a> ?p ?o } }`); !ok {
		t.Error("triple not in the named graph")
	}
	err := s.Load(ctx, strings.NewReader("<http://ex/a> <http://ex/p> .\n"), graph.Turtle)
	var pe *graph.ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("err = %v, want graph.ParseError", err)
	}
	if s.Len() != 1 {
		t.Errorf("a failed load changed the store: %d quads", s.Len())
	}
}

func TestUnionDefaultGraph(t *testing.T) {
	ctx := context.Background()
	for _, union := range []bool{false, true} {
		s := NewWithOptions(Options{UnionDefaultGraph: union})
		if err := s.Update(ctx, `INSERT DATA { <http://ex/a> <http://ex/p> 1 . GRAPH <http://ex/g> { <http://ex/b> <http://ex/p> 2 . <http://ex/a> <http://ex/p> 1 } }`); err != nil {
			t.Fatal(err)
		}
		want := "1"
		if union {
			want = "1 2" // the triple in both graphs counts once
		}
		if got := column(t, s, `SELECT ?o WHERE { ?s <http://ex/p> ?o } ORDER BY ?o`, "o"); got != want {
			t.Errorf("union=%v: %s, want %s", union, got, want)
		}
	}
}
