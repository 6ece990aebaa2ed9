package algebra

import (
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
	}
	for _, tt := range tests {
		_, err := ParseQuery(tt.q, Options{})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: got %v, want error containing %q", tt.q, err, tt.want)
		}
	}
}
