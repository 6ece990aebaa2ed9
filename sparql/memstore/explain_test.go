package memstore

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/sparql/graph"
)

// explainStore: 100 things, one of them named.
func explainStore() *Store {
	s := New()
	for i := range 100 {
		sub := graph.IRI("http://ex/s" + strconv.Itoa(i))
		s.Add(graph.Quad{S: sub, P: graph.IRI("http://ex/type"), O: graph.IRI("http://ex/Thing")})
		if i == 7 {
			s.Add(graph.Quad{S: sub, P: graph.IRI("http://ex/name"), O: graph.String("seven")})
		}
	}
	return s
}

// Explain shows the order the planner chose: the selective pattern
// first, whatever the written order.
func TestExplainBinaryPlan(t *testing.T) {
	s := explainStore()
	got, err := s.Explain(t.Context(), `SELECT * WHERE { ?s <http://ex/type> <http://ex/Thing> . ?s <http://ex/name> ?n }`, QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := `SELECT: 1 results; 1 plans
BGP#1, 2 patterns, bound on entry: none
  binary joins, estimated peak 1:
    1. ?s <http://ex/name> ?n
    2. ?s <http://ex/type> <http://ex/Thing>
`
	if got != want {
		t.Errorf("plan:\n%s\nwant:\n%s", got, want)
	}
}

// A group of joined operands shows its operand order, and each operand
// its plan under the variables bound when it ran.
func TestExplainJoinOrder(t *testing.T) {
	s := explainStore()
	got, err := s.Explain(t.Context(), `SELECT * WHERE { { ?s <http://ex/type> ?t } UNION { ?s <http://ex/kind> ?t } ?s <http://ex/name> "seven" }`, QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"SELECT: 1 results; 4 plans\n",
		"JOIN#4, 2 operands, bound on entry: none\n    1. operand 2: BGP#3\n    2. operand 1: UNION of BGP#1 and BGP#2\n",
		"BGP#1, 1 patterns, bound on entry: ?s\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("plan lacks %q:\n%s", want, got)
		}
	}
	if _, err := s.Explain(t.Context(), `SELECT * WHERE { ?s ?p`, QueryOptions{}); err == nil {
		t.Error("Explain of a syntax error: no error")
	}
}

// The handler answers explain=true with the plan only when its Explain
// option is on; otherwise the parameter is ignored.
func TestHandlerExplain(t *testing.T) {
	s := explainStore()
	q := url.QueryEscape(`SELECT * WHERE { ?s <http://ex/type> <http://ex/Thing> . ?s <http://ex/name> ?n }`)
	for _, on := range []bool{true, false} {
		srv := httptest.NewServer(s.Handler(HandlerOptions{Explain: on}))
		resp, err := http.Get(srv.URL + "?explain=true&query=" + q)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		srv.Close()
		ct := resp.Header.Get("Content-Type")
		if on && (ct != "text/plain; charset=utf-8" || !strings.Contains(string(body), "    1. ?s <http://ex/name> ?n\n")) {
			t.Errorf("Explain on: %s %q", ct, body)
		}
		if !on && (!strings.HasPrefix(ct, "application/sparql-results+json") || !strings.Contains(string(body), `"value":"seven"`)) {
			t.Errorf("Explain off: %s %q", ct, body)
		}
	}
}

// The plan text is bounded: past maxExplainPlans plans only a count.
func TestExplainBounded(t *testing.T) {
	s := explainStore()
	var b strings.Builder
	b.WriteString("SELECT * WHERE { ")
	for i := range 250 {
		if i > 0 {
			b.WriteString(" UNION ")
		}
		b.WriteString("{ ?s <http://ex/p" + strconv.Itoa(i) + "> ?o }")
	}
	b.WriteString(" }")
	got, err := s.Explain(t.Context(), b.String(), QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got, "SELECT: 0 results; 250 plans\n") || !strings.HasSuffix(got, "(50 more plans not shown)\n") || strings.Count(got, "BGP#") != 200 {
		t.Errorf("plan of %d bytes, %d BGPs shown; want 200 and a count of the other 50:\n%s…", len(got), strings.Count(got, "BGP#"), got[:min(len(got), 300)])
	}
}
