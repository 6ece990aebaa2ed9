package memstore

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/sparql/memstore/internal/algebra"
)

// TestCompileErrors: an unknown function and a constant regular
// expression that does not compile fail the whole query (or update)
// before it runs, with a *SyntaxError at the call naming the cause,
// instead of an expression error on every row.
func TestCompileErrors(t *testing.T) {
	s := New()
	mustLoad(t, s, people)
	long := strings.Repeat("(", 300)
	for _, tc := range []struct {
		q         string
		line, col int
		msg       string
	}{
		{`PREFIX : <http://ex/> SELECT ?x WHERE { ?x :name ?n FILTER(:nosuch(?n)) }`, 1, 60, "unknown function <http://ex/nosuch>"},
		{"SELECT ?b WHERE {\n  BIND(REGEX(\"a\", \"a\", \"g\") AS ?b) }", 2, 8, `invalid regular expression "a" with flags "g": unknown flag 'g'`},
		{`SELECT ?b WHERE { BIND(REGEX("a", "(a") AS ?b) }`, 1, 24, `invalid regular expression "(a": `},
		{`SELECT ?r WHERE { BIND(REPLACE("a", "[", "b") AS ?r) }`, 1, 24, `invalid regular expression "[": `},
		// inside EXISTS, a subquery and an OPTIONAL that matches nothing:
		// compiled, so reported, though never evaluated
		{`SELECT * WHERE { FILTER NOT EXISTS { BIND(<http://ex/f>() AS ?y) } }`, 1, 43, "unknown function <http://ex/f>"},
		{`SELECT * WHERE { { SELECT (REGEX("a", "*") AS ?b) {} } }`, 1, 28, `invalid regular expression "*": `},
		{`SELECT * WHERE { OPTIONAL { ?x <http://nothing> ?y FILTER(REGEX(?y, "a{2,1}")) } }`, 1, 59, `invalid regular expression "a{2,1}": `},
		{`SELECT ?b WHERE { BIND(<http://www.w3.org/2001/XMLSchema#integer>("1", "2") AS ?b) }`, 1, 24, "wrong number of arguments (2, want 1)"},
		{`SELECT ?b WHERE { BIND(<http://www.w3.org/2001/XMLSchema#gYear>("2020") AS ?b) }`, 1, 24, "unknown function <http://www.w3.org/2001/XMLSchema#gYear>"},
		{`SELECT ?b WHERE { BIND(BOUND(1) AS ?b) }`, 1, 24, "BOUND takes a variable"},
		// the pattern is quoted in a bounded excerpt
		{`SELECT ?b WHERE { BIND(REGEX("a", "` + long + `") AS ?b) }`, 1, 24, `invalid regular expression "` + strings.Repeat("(", 100) + `..."`},
	} {
		_, err := s.Query(context.Background(), tc.q)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%s: error %v, want a *SyntaxError", tc.q, err)
			continue
		}
		if se.Line != tc.line || se.Column != tc.col || !strings.HasPrefix(se.Msg, tc.msg) {
			t.Errorf("%s:\n got %d:%d %q\nwant %d:%d %q...", tc.q, se.Line, se.Column, se.Msg, tc.line, tc.col, tc.msg)
		}
		if len(se.Msg) > 300 {
			t.Errorf("%s: message of %d bytes", tc.q, len(se.Msg))
		}
	}

	// an update fails before changing anything
	before := s.Len()
	err := s.Update(context.Background(), `PREFIX : <http://ex/> DELETE { ?x :name ?n } WHERE { ?x :name ?n FILTER(REGEX(?n, "[z-a]")) }`)
	var se *SyntaxError
	if !errors.As(err, &se) || !strings.HasPrefix(se.Msg, `invalid regular expression "[z-a]"`) || se.Column != 73 {
		t.Errorf("update: error %v, want a *SyntaxError at 1:73 naming the pattern", err)
	}
	if s.Len() != before {
		t.Errorf("the failed update changed the store: %d quads, want %d", s.Len(), before)
	}

	// a pattern known only per row stays an expression error of that row
	if got := column(t, s, `SELECT ?b WHERE { VALUES ?f { "i" "g" } BIND(REGEX("A", "a", ?f) AS ?b) }`, "b"); got != "true -" {
		t.Errorf("per-row flags: got %q, want %q", got, "true -")
	}
}

// TestCompileErrorThroughHandler: the protocol handler answers a query
// with an unknown function 400 with the position and the function.
func TestCompileErrorThroughHandler(t *testing.T) {
	srv := httptest.NewServer(New().Handler(HandlerOptions{}))
	defer srv.Close()
	q := `SELECT * WHERE { BIND(<http://ex/f>(1) AS ?y) }`
	resp, err := http.Get(srv.URL + "?" + url.Values{"query": {q}}.Encode())
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), "1:23") || !strings.Contains(string(body), "unknown function <http://ex/f>") {
		t.Errorf("got %d %s, want 400 naming 1:23 and the function", resp.StatusCode, body)
	}
}

// TestFunctionTableComplete: every operator and built-in the parser
// produces has an evaluator, so none of them is "unknown" at compile time.
func TestFunctionTableComplete(t *testing.T) {
	names := algebra.CallNames()
	if len(names) < 60 { // 17 operators and 50 built-ins today
		t.Fatalf("the parser names only %d calls", len(names))
	}
	for _, name := range names {
		if functions[name] == nil {
			t.Errorf("no evaluator for %s", name)
		}
	}
}
