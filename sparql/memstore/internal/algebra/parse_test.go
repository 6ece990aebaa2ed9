package algebra

import (
	"fmt"
	"strings"
	"testing"
)

func TestParseQueryAlgebra(t *testing.T) {
	tests := []struct {
		q, want string
	}{
		{`SELECT ?s WHERE { ?s <p> ?o }`, "(project (?s)\n  (bgp (?s <p> ?o)))"},
		{`PREFIX ex: <http://ex/> SELECT * { ?s ex:p/ex:q ?o OPTIONAL { ?o ex:r ?x FILTER(?x > 1) } }`,
			"(project (?s ?o ?x)\n  (leftjoin (> ?x \"1\"^^<http://www.w3.org/2001/XMLSchema#integer>)\n    (bgp (?s <http://ex/p> _:_p1) (_:_p1 <http://ex/q> ?o))\n    (bgp (?o <http://ex/r> ?x))))"},
		{`ASK { ?s <p>* ?o }`, "(path ?s (<p>)* ?o)"},
		{`SELECT (COUNT(*) AS ?c) { ?s ?p ?o } GROUP BY ?s HAVING (COUNT(*) > 1)`,
			"(project (?c)\n  (extend ?c ?_:agg0\n    (filter (> ?_:agg1 \"1\"^^<http://www.w3.org/2001/XMLSchema#integer>)\n      (group (?s AS ?s) (?_:agg0=COUNT(*) ?_:agg1=COUNT(*))\n        (bgp (?s ?p ?o))))))"},
	}
	for _, tt := range tests {
		q, err := ParseQuery(tt.q, Options{})
		if err != nil {
			t.Errorf("%s: %v", tt.q, err)
			continue
		}
		if got := String(q.Pattern); got != tt.want {
			t.Errorf("%s:\ngot  %s\nwant %s", tt.q, got, tt.want)
		}
	}
}

func TestParseErrorsPositioned(t *testing.T) {
	tests := []struct{ q, want string }{
		{"SELECT ?x WHERE {\n  ?x <p> \n}", "3:1"},
		{"SELECT * { ?s ?p ?o } GROUP BY ?s", "not allowed"},
		{"SELECT ?x { ex:a ?p ?x }", "undefined prefix"},
		{"SELECT * WHERE { VALUES (?a ?b) { (1) } }", "VALUES row"},
		// LIMIT and OFFSET: out of range, repeated, not an integer
		{"SELECT * { ?s ?p ?o }\nLIMIT 99999999999999999999", "2:7: LIMIT 99999999999999999999 is out of range"},
		{"SELECT * { ?s ?p ?o } OFFSET 1 limit 1" + strings.Repeat("0", 100), "1:38: LIMIT 100000000000000000000000000000... is out of range"},
		{"SELECT * { ?s ?p ?o } LIMIT 1 LIMIT 2", "1:31:"},
		{"SELECT * { ?s ?p ?o } OFFSET 1 LIMIT 2 OFFSET 3", "1:40:"},
		{"ASK { ?s ?p ?o } LIMIT -1", "1:24: expected an integer after LIMIT"},
		{"SELECT * { ?s ?p ?o } OFFSET 1.5", "1:30: expected an integer after OFFSET"},
	}
	for _, tt := range tests {
		_, err := ParseQuery(tt.q, Options{})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: got %v, want error containing %q", tt.q, err, tt.want)
		}
	}
}

func TestParseUpdateOps(t *testing.T) {
	u, err := ParseUpdate(`PREFIX ex: <http://ex/>
INSERT DATA { ex:a ex:p 1 . GRAPH ex:g { ex:a ex:q "x" } } ;
WITH ex:g DELETE { ?s ex:q ?o } INSERT { ?s ex:r ?o } WHERE { ?s ex:q ?o } ;
CLEAR SILENT GRAPH ex:g ; DROP ALL ; CREATE GRAPH ex:h ; COPY DEFAULT TO ex:h ; MOVE ex:h TO DEFAULT ; ADD ex:x TO ex:y ;
LOAD <http://example.org/data.ttl> INTO GRAPH ex:z`, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, op := range u.Ops {
		kinds = append(kinds, strings.TrimPrefix(fmt.Sprintf("%T", op), "*algebra."))
	}
	want := "InsertData Modify Clear Drop Create Transfer Transfer Transfer Load"
	if got := strings.Join(kinds, " "); got != want {
		t.Errorf("ops = %s, want %s", got, want)
	}
	if m := u.Ops[1].(*Modify); m.With != "http://ex/g" || len(m.Delete) != 1 || len(m.Insert) != 1 {
		t.Errorf("modify = %+v", m)
	}
}

func TestUpdateErrorsPositioned(t *testing.T) {
	for _, tt := range []struct{ u, want string }{
		{"DELETE DATA { ?s <p> <o> }", "1:15: variables are not allowed"},
		{"INSERT DATA { <s> <p> <o> } ;;", "1:30"},
		{"DELETE WHERE { _:a <p> <o> }", "blank nodes are not allowed"},
		{"CREATE DEAFULT", "expected GRAPH"},
	} {
		_, err := ParseUpdate(tt.u, Options{})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: got %v, want error containing %q", tt.u, err, tt.want)
		}
	}
}

var fuzzSeeds = []string{
	`SELECT ?s WHERE { ?s <p> ?o }`,
	`PREFIX : <http://ex/> SELECT DISTINCT ?x (COUNT(*) AS ?n) FROM <g> WHERE { ?x :p/:q* [ :r "a"@en ] OPTIONAL { ?x ^:s ?y FILTER(?y > 1.5e0) } MINUS { ?x :t ?z } BIND(STR(?x) AS ?sx) VALUES (?a) { (1) (UNDEF) } } GROUP BY ?x HAVING (COUNT(*) > 1) ORDER BY DESC(?n) LIMIT 10 OFFSET 2`,
	`CONSTRUCT WHERE { ?s ?p ?o }`,
	`ASK { GRAPH ?g { ?s !(<a>|^<b>) ?o } FILTER NOT EXISTS { ?s <c> ( 1 2 ) } }`,
	`DESCRIBE <x> ?y WHERE { ?y <p> "\u00e9" }`,
	`SELECT * { { SELECT ?x { ?x ?p ?o } LIMIT 1 } UNION { SERVICE SILENT <http://x> { ?x ?p ?o } } }`,
}

// fuzzDepth is the MaxDepth the fuzz targets also parse with, small
// enough that short inputs reach it.
const fuzzDepth = 12

func FuzzParseQuery(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		q, err := ParseQuery(src, Options{Base: "http://example.org/"})
		if err != nil {
			if e, ok := err.(*Error); !ok || strings.HasPrefix(e.Msg, "internal error") {
				t.Fatalf("error %T: %v", err, err)
			}
		} else {
			_ = String(q.Pattern)
		}
		q, err = ParseQuery(src, Options{Base: "http://example.org/", MaxDepth: fuzzDepth})
		if err != nil {
			if e, ok := err.(*Error); !ok || strings.HasPrefix(e.Msg, "internal error") {
				t.Fatalf("error %T: %v", err, err)
			}
			return
		}
		if d := nodeDepth(q.Pattern); d > fuzzDepth {
			t.Fatalf("algebra depth %d passed MaxDepth %d:\n%s", d, fuzzDepth, String(q.Pattern))
		}
	})
}

func FuzzParseUpdate(f *testing.F) {
	for _, s := range []string{
		`INSERT DATA { <a> <b> <c> }`,
		`PREFIX : <http://ex/> WITH :g DELETE { ?s :p ?o } INSERT { ?s :q [ :r ?o ] } USING :h WHERE { ?s :p ?o }`,
		`DELETE WHERE { GRAPH ?g { ?s ?p ?o } } ; CLEAR ALL ; COPY SILENT <a> TO DEFAULT`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		_, err := ParseUpdate(src, Options{})
		if err != nil {
			if e, ok := err.(*Error); !ok || strings.HasPrefix(e.Msg, "internal error") {
				t.Fatalf("error %T: %v", err, err)
			}
		}
		u, err := ParseUpdate(src, Options{MaxDepth: fuzzDepth})
		if err != nil {
			if e, ok := err.(*Error); !ok || strings.HasPrefix(e.Msg, "internal error") {
				t.Fatalf("error %T: %v", err, err)
			}
			return
		}
		for _, op := range u.Ops {
			switch op := op.(type) {
			case *Modify:
				if d := nodeDepth(op.Where); d > fuzzDepth {
					t.Fatalf("WHERE depth %d passed MaxDepth %d", d, fuzzDepth)
				}
			case *DeleteWhere:
				if len(op.Quads) >= fuzzDepth {
					t.Fatalf("DELETE WHERE with %d quads passed MaxDepth %d", len(op.Quads), fuzzDepth)
				}
			}
		}
	})
}

// BenchmarkParseQuery parses and translates the fuzz seeds, which use
// every construct of the grammar, once per iteration.
func BenchmarkParseQuery(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range fuzzSeeds {
			if _, err := ParseQuery(s, Options{Base: "http://example.org/"}); err != nil {
				b.Fatalf("%s: %v", s, err)
			}
		}
	}
}
