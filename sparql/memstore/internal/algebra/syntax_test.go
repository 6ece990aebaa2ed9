package algebra

import (
	"strings"
	"testing"
)

// parseSyntax parses a query into its syntax tree without translating it.
func parseSyntax(t *testing.T, src string) *querySyntax {
	t.Helper()
	p, err := newParser(src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var qs *querySyntax
	func() {
		defer recoverErr(&err)
		p.prologue()
		qs = p.query()
	}()
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return qs
}

// The parser builds a syntax tree of every kind of group element, with
// EXISTS and aggregates as written; only the translation turns them into
// algebra.
func TestParseSyntaxTree(t *testing.T) {
	qs := parseSyntax(t, `PREFIX ex: <http://ex/>
SELECT ?s (COUNT(*) AS ?n) WHERE {
  ?s ex:p ?o .
  OPTIONAL { ?o ex:q ?x }
  MINUS { ?s ex:r ?o }
  BIND (1 AS ?one)
  VALUES ?v { 1 2 }
  GRAPH ?g { ?s ?p ?o }
  SERVICE SILENT <http://remote/> { ?s ?p ?o }
  { ?s ex:a ?o } UNION { ?s ex:b ?o } UNION { SELECT ?s { ?s ?p ?o } }
  FILTER (NOT EXISTS { ?s ex:c ?o })
} GROUP BY ?s HAVING (COUNT(*) > 1) ORDER BY ?s LIMIT 10 OFFSET 2`)
	if qs.form != Select || len(qs.sel.items) != 2 || qs.sel.items[0].v != "s" || qs.sel.items[1].v != "n" {
		t.Fatalf("select clause: %+v", qs.sel)
	}
	if _, ok := qs.sel.items[1].expr.(*Aggregate); !ok {
		t.Errorf("the select expression is %T, want the *Aggregate as written", qs.sel.items[1].expr)
	}
	want := []elemKind{elemTriples, elemOptional, elemMinus, elemBind, elemValues, elemGraph, elemService, elemUnion, elemFilter}
	var got []elemKind
	for _, e := range qs.where.elems {
		got = append(got, e.kind)
	}
	if len(got) != len(want) {
		t.Fatalf("elements %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("elements %v, want %v", got, want)
		}
	}
	el := qs.where.elems
	if el[3].bindV != "one" || el[4].values == nil || len(el[4].values.Rows) != 2 {
		t.Errorf("BIND %q, VALUES %+v", el[3].bindV, el[4].values)
	}
	if el[5].name.Var != "g" || !el[6].silent || el[6].name.Term.Value != "http://remote/" {
		t.Errorf("GRAPH name %+v, SERVICE %+v silent %v", el[5].name, el[6].name, el[6].silent)
	}
	if u := el[7].union; len(u) != 3 || u[2].sub == nil || u[2].sub.form != Select {
		t.Errorf("UNION of %d groups, the last a sub-select: %+v", len(u), u)
	}
	if ex, ok := el[8].expr.(*existsSyntax); !ok || !ex.not || len(ex.g.elems) != 1 {
		t.Errorf("FILTER holds %T, want NOT EXISTS as written", el[8].expr)
	}
	m := qs.mods
	if !m.grouped || len(m.keys) != 1 || len(m.having) != 1 || len(m.order) != 1 || m.limit != 10 || m.offset != 2 {
		t.Errorf("solution modifiers %+v", m)
	}
}

// Errors found while translating are positioned at the element or clause
// they concern.
func TestTranslationErrorsPositioned(t *testing.T) {
	tests := []struct{ q, want string }{
		{"SELECT * { ?s ?p ?o BIND(1 AS ?o) }", "1:31: BIND variable ?o is already in scope"},
		{"SELECT * { ?s ?p ?o FILTER(EXISTS { ?a ?b ?c BIND(1 AS ?c) }) }", "1:56: BIND variable ?c is already in scope"},
		{"SELECT ?s (1 AS ?s) { ?s ?p ?o }", "1:11: variable ?s is already bound before AS"},
		{"SELECT ?o { ?s ?p ?o } GROUP BY ?s", "1:8: variable ?o is neither grouped nor aggregated"},
		{"SELECT * { ?s ?p ?o }\nGROUP BY ?s", "2:12: SELECT * is not allowed with GROUP BY"},
		// the 1001st group of the chain starts at 8+9*1000-1
		{"ASK { {}" + strings.Repeat(" UNION {}", 1000) + " }", "1:9007: nesting deeper than 1000"},
	}
	for _, tt := range tests {
		_, err := ParseQuery(tt.q, Options{})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%.60q: got %v, want error containing %q", tt.q, err, tt.want)
		}
	}
	_, err := ParseUpdate("DELETE { ?s ?p ?o } WHERE { ?s ?p ?o BIND(2 AS ?p) }", Options{})
	if err == nil || !strings.Contains(err.Error(), "1:48: BIND variable ?p is already in scope") {
		t.Errorf("update: got %v, want the BIND positioned", err)
	}
}
