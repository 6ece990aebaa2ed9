package memstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/regelkit/regelkit/sparql/graph"
)

func TestHandlerProtocol(t *testing.T) {
	s := New()
	srv := httptest.NewServer(s.Handler(HandlerOptions{MaxBodyBytes: 1 << 10}))
	defer srv.Close()
	ro := httptest.NewServer(s.Handler(HandlerOptions{ReadOnly: true}))
	defer ro.Close()

	do := func(method, target, ctype, body string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(method, target, strings.NewReader(body))
		if ctype != "" {
			req.Header.Set("Content-Type", ctype)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	form := func(k, v string) string { return url.Values{k: {v}}.Encode() }

	if code, body := do("POST", srv.URL, "application/x-www-form-urlencoded", form("update", `INSERT DATA { GRAPH <http://ex/g> { <http://ex/a> <http://ex/p> "in g" } <http://ex/a> <http://ex/p> "in default" }`)); code != http.StatusNoContent {
		t.Fatalf("form update: %d %s", code, body)
	}
	q := url.QueryEscape(`SELECT ?o WHERE { ?s ?p ?o }`)
	if code, body := do("GET", srv.URL+"?query="+q, "", ""); code != 200 || !strings.Contains(body, "in default") || strings.Contains(body, "in g") {
		t.Errorf("plain query: %d %s", code, body)
	}
	if code, body := do("GET", srv.URL+"?query="+q+"&default-graph-uri="+url.QueryEscape("http://ex/g"), "", ""); code != 200 || !strings.Contains(body, "in g") || strings.Contains(body, "in default") {
		t.Errorf("default-graph-uri: %d %s", code, body)
	}
	if code, _ := do("GET", srv.URL+"?update=x", "", ""); code != http.StatusBadRequest {
		t.Errorf("update by GET: %d, want 400", code)
	}
	if code, _ := do("POST", srv.URL, "application/sparql-query", "ASK {"+strings.Repeat(" ", 2000)+"}"); code != http.StatusRequestEntityTooLarge {
		t.Errorf("oversized body: %d, want 413", code)
	}
	if code, _ := do("POST", ro.URL, "application/x-www-form-urlencoded", form("update", "CLEAR ALL")); code != http.StatusForbidden {
		t.Errorf("read-only form update: %d, want 403", code)
	}
	if code, _ := do("POST", ro.URL, "application/sparql-update", "CLEAR ALL"); code != http.StatusForbidden {
		t.Errorf("read-only update: %d, want 403", code)
	}
	if code, body := do("POST", srv.URL, "application/sparql-update", "LOAD <http://example.org/x>"); code != http.StatusBadRequest || !strings.Contains(body, "LOAD") {
		t.Errorf("LOAD: %d %s, want 400 naming LOAD", code, body)
	}
	if code, _ := do("POST", srv.URL, "application/x-www-form-urlencoded", form("query", "ASK {}")+"&"+form("update", "CLEAR ALL")); code != http.StatusBadRequest {
		t.Errorf("query and update together: %d, want 400", code)
	}
	if s.Len() != 2 {
		t.Errorf("store has %d quads, want 2", s.Len())
	}
}

// gspDo sends one request to the handler through httptest and returns the
// status, the Content-Type and the body.
func gspDo(t *testing.T, h http.Handler, method, target, ctype, accept, body string) (int, string, string) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, target, rd)
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code, rec.Header().Get("Content-Type"), rec.Body.String()
}

func TestHandlerGraphStore(t *testing.T) {
	s := New()
	h := s.Handler(HandlerOptions{MaxBodyBytes: 1 << 10, MountPath: "/sparql"})
	const g = "/sparql?graph=http%3A%2F%2Fex%2Fg"
	if code, _, body := gspDo(t, h, "PUT", g, "text/turtle", "", `<http://ex/a> <http://ex/p> "one" .`); code != http.StatusCreated {
		t.Fatalf("PUT new graph: %d %s, want 201", code, body)
	}
	if code, _, body := gspDo(t, h, "PUT", g, "text/turtle; charset=UTF-8", "", `<http://ex/a> <http://ex/p> "two" .`); code != http.StatusNoContent {
		t.Fatalf("PUT existing graph: %d %s, want 204", code, body)
	}
	if code, ct, body := gspDo(t, h, "GET", g, "", "application/n-triples", ""); code != 200 || ct != "application/n-triples; charset=utf-8" || body != "<http://ex/a> <http://ex/p> \"two\" .\n" {
		t.Errorf("GET after PUT: %d %q %q, want only the second PUT's triple", code, ct, body)
	}
	if code, _, body := gspDo(t, h, "POST", g, "application/n-triples", "", `<http://ex/a> <http://ex/p> "three" .`); code != http.StatusOK {
		t.Errorf("POST into existing graph: %d %s, want 200", code, body)
	}
	if n := len(s.Quads()); n != 2 {
		t.Errorf("after POST the store has %d quads, want 2", n)
	}
	// direct identification: the request URL names the graph
	if code, _, body := gspDo(t, h, "PUT", "http://kg.example/sparql/people/1", "text/turtle", "", `<#me> a <http://xmlns.com/foaf/0.1/Person> .`); code != http.StatusCreated {
		t.Fatalf("PUT direct: %d %s", code, body)
	}
	if code, _, body := gspDo(t, h, "GET", "/sparql?graph="+url.QueryEscape("http://kg.example/sparql/people/1"), "", "application/n-triples", ""); code != 200 ||
		body != "<http://kg.example/sparql/people/1#me> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://xmlns.com/foaf/0.1/Person> .\n" {
		t.Errorf("GET of a directly put graph: %d %q (relative IRIs resolve against the graph IRI)", code, body)
	}
	// a new graph by POST to the endpoint
	req := httptest.NewRequest("POST", "http://kg.example/sparql", strings.NewReader(`<http://ex/n> <http://ex/p> 1 .`))
	req.Header.Set("Content-Type", "text/turtle")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	loc := rec.Header().Get("Location")
	if rec.Code != http.StatusCreated || !strings.HasPrefix(loc, "http://kg.example/sparql/graphs/") {
		t.Fatalf("POST to the endpoint: %d Location %q, want 201 and a graph under the endpoint", rec.Code, loc)
	}
	if code, _, _ := gspDo(t, h, "HEAD", loc, "", "", ""); code != 200 {
		t.Errorf("HEAD of the new graph by its path: %d, want 200", code)
	}
	for _, tc := range []struct {
		name, method, target, ctype, accept, body string
		want                                      int
		inBody                                    string
	}{
		{"missing graph", "GET", "/sparql?graph=http%3A%2F%2Fex%2Fnone", "", "", "", 404, "no graph"},
		{"delete missing graph", "DELETE", "/sparql?graph=http%3A%2F%2Fex%2Fnone", "", "", "", 404, "no graph"},
		{"relative graph IRI", "GET", "/sparql?graph=people", "", "", "", 400, "absolute IRI"},
		{"default and graph", "GET", "/sparql?default&graph=http%3A%2F%2Fex%2Fg", "", "", "", 400, "not both"},
		{"two graphs", "GET", "/sparql?graph=http%3A%2F%2Fex%2Fg&graph=http%3A%2F%2Fex%2Fh", "", "", "", 400, "one graph"},
		{"no acceptable format", "GET", g, "", "application/sparql-results+json", "", 406, "text/turtle"},
		{"bad Turtle", "PUT", g, "text/turtle", "", "<http://ex/a> <http://ex/p> .", 400, "line 1, column"},
		{"not RDF", "PUT", g, "text/plain", "", "hello", 415, "text/plain"},
		{"no content type", "PUT", g, "", "", "hello", 415, "Content-Type"},
		{"UTF-16", "PUT", g, "text/turtle; charset=UTF-16", "", "x", 415, "charset"},
		{"named graph in payload", "PUT", g, "application/trig", "", "<http://ex/o> { <http://ex/a> <http://ex/p> 1 }", 400, "one graph"},
		{"too large", "PUT", g, "text/turtle", "", "<http://ex/a> <http://ex/p> \"" + strings.Repeat("x", 2000) + "\" .", 413, "over 1024 bytes"},
		{"PATCH", "PATCH", g, "text/turtle", "", "", 405, "not allowed"},
	} {
		code, _, body := gspDo(t, h, tc.method, tc.target, tc.ctype, tc.accept, tc.body)
		if code != tc.want || !strings.Contains(body, tc.inBody) {
			t.Errorf("%s: %d %q, want %d containing %q", tc.name, code, body, tc.want, tc.inBody)
		}
	}
	if n := len(s.Quads()); n != 4 {
		t.Errorf("refused requests changed the store: %d quads, want 4", n)
	}
	if code, _, _ := gspDo(t, h, "DELETE", g, "", "", ""); code != 200 {
		t.Errorf("DELETE: %d, want 200", code)
	}
	if code, _, _ := gspDo(t, h, "GET", g, "", "", ""); code != 404 {
		t.Errorf("GET after DELETE: %d, want 404", code)
	}
}

func TestHandlerReadOnlyGraphStore(t *testing.T) {
	s := New()
	s.Add(graph.Quad{S: graph.IRI("http://ex/a"), P: graph.IRI("http://ex/p"), O: graph.Literal("v", graph.XSDString), G: graph.IRI("http://ex/g")})
	h := s.Handler(HandlerOptions{ReadOnly: true, MountPath: "/v1/sparql"})
	for _, tc := range []struct{ method, target, ctype string }{
		{"PUT", "/v1/sparql?graph=http%3A%2F%2Fex%2Fg", "text/turtle"},
		{"POST", "/v1/sparql?graph=http%3A%2F%2Fex%2Fg", "text/turtle"},
		{"POST", "/v1/sparql?default", "text/turtle"},
		{"DELETE", "/v1/sparql?graph=http%3A%2F%2Fex%2Fg", ""},
		{"DELETE", "/v1/sparql/people/1", ""},
		{"POST", "/v1/sparql", "text/turtle"},
		{"POST", "/v1/sparql", "multipart/form-data; boundary=x"},
	} {
		if code, _, body := gspDo(t, h, tc.method, tc.target, tc.ctype, "", `<http://ex/b> <http://ex/p> 1 .`); code != http.StatusForbidden {
			t.Errorf("read-only %s %s: %d %s, want 403", tc.method, tc.target, code, body)
		}
	}
	if s.Len() != 1 {
		t.Errorf("read-only store changed: %d quads, want 1", s.Len())
	}
	if code, _, body := gspDo(t, h, "GET", "/v1/sparql?graph=http%3A%2F%2Fex%2Fg", "", "application/n-triples", ""); code != 200 || body != "<http://ex/a> <http://ex/p> \"v\" .\n" {
		t.Errorf("read-only GET of a graph: %d %q", code, body)
	}
	// the service description of a read-only endpoint offers no updates
	code, ct, body := gspDo(t, h, "GET", "http://kg.example/v1/sparql", "", "application/n-triples", "")
	if code != 200 || ct != "application/n-triples; charset=utf-8" {
		t.Fatalf("service description: %d %q", code, ct)
	}
	for _, want := range []string{
		`<http://www.w3.org/ns/sparql-service-description#endpoint> <http://kg.example/v1/sparql> .`,
		`<http://www.w3.org/ns/sparql-service-description#supportedLanguage> <http://www.w3.org/ns/sparql-service-description#SPARQL11Query> .`,
		`<http://www.w3.org/ns/sparql-service-description#name> <http://ex/g> .`,
		`<http://rdfs.org/ns/void#triples> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("service description lacks %s:\n%s", want, body)
		}
	}
	if strings.Contains(body, "SPARQL11Update") || strings.Contains(body, "inputFormat") {
		t.Errorf("read-only service description offers updates:\n%s", body)
	}
}

func TestHandlerProtocolErrors(t *testing.T) {
	s := New()
	h := s.Handler(HandlerOptions{})
	for _, tc := range []struct {
		name, method, target, ctype, body string
		want                              int
	}{
		{"two queries", "GET", "/?query=ASK%7B%7D&query=ASK%7B%7D", "", "", 400},
		{"two updates in a form", "POST", "/", "application/x-www-form-urlencoded", "update=CLEAR+ALL&update=CLEAR+ALL", 400},
		{"UTF-16 query", "POST", "/", "application/sparql-query; charset=UTF-16", "ASK {}", 415},
		{"query not UTF-8", "POST", "/", "application/sparql-query", "ASK { FILTER(\"\xff\") }", 400},
		{"USING and using-graph-uri", "POST", "/?using-graph-uri=http%3A%2F%2Fex%2Fg", "application/sparql-update", "INSERT { <http://ex/a> <http://ex/p> 1 } USING <http://ex/h> WHERE {}", 400},
		{"WITH and using-named-graph-uri", "POST", "/?using-named-graph-uri=http%3A%2F%2Fex%2Fg", "application/sparql-update", "WITH <http://ex/h> INSERT { <http://ex/a> <http://ex/p> 1 } WHERE {}", 400},
		{"PUT without a graph", "PUT", "/?query=ASK%7B%7D", "application/x-www-form-urlencoded", "", 405},
		{"plain JSON to the endpoint", "POST", "/", "application/json", `{"@id": "http://ex/a"}`, 415},
		{"text/plain to the endpoint", "POST", "/", "text/plain", "ASK {}", 415},
	} {
		if code, _, body := gspDo(t, h, tc.method, tc.target, tc.ctype, "", tc.body); code != tc.want {
			t.Errorf("%s: %d %s, want %d", tc.name, code, body, tc.want)
		}
	}
	if s.Len() != 0 {
		t.Errorf("refused updates changed the store: %d quads", s.Len())
	}
	// relative IRIs in an update resolve against the endpoint URL
	if code, _, body := gspDo(t, h, "POST", "http://kg.example/sparql", "application/sparql-update", "", "INSERT DATA { <s> <p> <o> }"); code != 204 {
		t.Fatalf("update with relative IRIs: %d %s", code, body)
	}
	if q := s.Quads(); len(q) != 1 || q[0].S.Value != "http://kg.example/s" {
		t.Errorf("relative IRIs resolved to %v, want against http://kg.example/sparql", q)
	}
}

// USING NAMED (and the protocol's using-named-graph-uri) restrict the named
// graphs of the WHERE clause to those listed.
func TestUpdateUsingNamedRestricts(t *testing.T) {
	s := New()
	err := s.Update(context.Background(), `INSERT DATA { GRAPH <http://ex/d1> { <http://ex/d1> a <http://ex/Doc> } GRAPH <http://ex/d2> { <http://ex/d2> a <http://ex/Doc> } } ;
INSERT { GRAPH <http://ex/out> { ?s a <http://ex/Seen> } } USING NAMED <http://ex/d1> WHERE { GRAPH ?g { ?s a <http://ex/Doc> } }`)
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	for _, q := range s.Quads() {
		if q.G.Value == "http://ex/out" {
			seen = append(seen, q.S.Value)
		}
	}
	if len(seen) != 1 || seen[0] != "http://ex/d1" {
		t.Errorf("USING NAMED <d1> saw %v, want only http://ex/d1", seen)
	}
}

// The service description lists at most maxDescribedGraphs named graphs,
// however many the store holds.
func TestServiceDescriptionBounded(t *testing.T) {
	s := New()
	for i := range maxDescribedGraphs + 5 {
		s.Add(graph.Quad{S: graph.IRI("http://ex/s"), P: graph.IRI("http://ex/p"), O: graph.IRI("http://ex/o"), G: graph.IRI("http://ex/g" + strconv.Itoa(i))})
	}
	code, _, body := gspDo(t, s.Handler(HandlerOptions{}), "GET", "/sparql", "", "application/n-triples", "")
	if n := strings.Count(body, "<http://www.w3.org/ns/sparql-service-description#namedGraph>"); code != 200 || n != maxDescribedGraphs {
		t.Errorf("service description: %d, %d named graphs listed, want 200 and %d", code, n, maxDescribedGraphs)
	}
}

// FuzzHandler sends arbitrary requests to a writable and a read-only
// handler: neither may panic or answer 5xx, and the read-only store never
// changes.
func FuzzHandler(f *testing.F) {
	for _, seed := range []struct{ method, target, ctype, body string }{
		{"GET", "/sparql?query=ASK%7B%7D", "", ""},
		{"POST", "/sparql", "application/sparql-update", "INSERT DATA { <http://ex/a> <http://ex/p> 1 }"},
		{"PUT", "/sparql?graph=http%3A%2F%2Fex%2Fg", "text/turtle", "<http://ex/a> <http://ex/p> [ <http://ex/q> ( 1 2 ) ] ."},
		{"POST", "/sparql", "multipart/form-data; boundary=b", "--b\r\nContent-Type: text/turtle\r\n\r\n<a> <b> <c> .\r\n--b--\r\n"},
		{"DELETE", "/sparql/people/1", "", ""},
		{"GET", "/sparql?default", "", ""},
		{"POST", "/sparql?using-graph-uri=x", "application/x-www-form-urlencoded", "update=WITH+%3Cx%3E+DELETE+%7B%7D+WHERE+%7B%7D"},
	} {
		f.Add(seed.method, seed.target, seed.ctype, seed.body)
	}
	f.Fuzz(func(t *testing.T, method, target, ctype, body string) {
		if !strings.HasPrefix(target, "/") {
			target = "/" + target
		}
		if _, err := url.ParseRequestURI(target); err != nil || strings.ContainsAny(method, " \t\r\n") || method == "" || strings.ContainsAny(ctype, "\r\n\x00") {
			t.Skip()
		}
		ro := New()
		ro.Add(graph.Quad{S: graph.IRI("http://ex/a"), P: graph.IRI("http://ex/p"), O: graph.IRI("http://ex/o")})
		for _, tc := range []struct {
			s  *Store
			ro bool
		}{{New(), false}, {ro, true}} {
			h := tc.s.Handler(HandlerOptions{ReadOnly: tc.ro, MountPath: "/sparql", MaxBodyBytes: 1 << 16, Timeout: 2 * time.Second})
			req, err := http.NewRequest(method, "http://kg.example"+target, strings.NewReader(body))
			if err != nil {
				t.Skip()
			}
			if ctype != "" {
				req.Header.Set("Content-Type", ctype)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code >= 500 && rec.Code != http.StatusServiceUnavailable {
				t.Fatalf("%s %s (%s): %d %s", method, target, ctype, rec.Code, rec.Body.String())
			}
		}
		if ro.Len() != 1 {
			t.Fatalf("the read-only store changed: %d quads", ro.Len())
		}
	})
}

// testLimitError has the shared limits contract's method, as the budget
// errors of every evaluating package do.
type testLimitError struct{ limit string }

func (e *testLimitError) Error() string         { return "exceeded " + e.limit }
func (e *testLimitError) LimitExceeded() string { return e.limit }

func TestStatusOfLimitErrors(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want int
	}{
		{fmt.Errorf("query: %w", &testLimitError{"Timeout"}), http.StatusServiceUnavailable},
		{fmt.Errorf("query: %w", &testLimitError{"MaxRows"}), http.StatusBadRequest},
		{&testLimitError{"MaxBytes"}, http.StatusBadRequest},
		{&SyntaxError{Line: 1, Column: 2, Msg: "x"}, http.StatusBadRequest},
		{context.DeadlineExceeded, http.StatusServiceUnavailable},
		{errors.New("something else"), http.StatusInternalServerError},
	} {
		if got := statusOf(tc.err); got != tc.want {
			t.Errorf("statusOf(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}

// An internal failure's cause stays out of the response body.
func TestFailErrHidesInternalCauses(t *testing.T) {
	h := New().Handler(HandlerOptions{}).(*handler)
	rec := httptest.NewRecorder()
	h.failErr(rec, httptest.NewRequest("GET", "/sparql?query=x", nil), &EvaluationError{Msg: "index out of range at 10.1.2.3"})
	if rec.Code != 500 || strings.Contains(rec.Body.String(), "10.1.2.3") || !strings.Contains(rec.Body.String(), "internal error") {
		t.Errorf("500 body %q", rec.Body.String())
	}
	rec = httptest.NewRecorder()
	h.failErr(rec, httptest.NewRequest("GET", "/sparql?query=x", nil), &SyntaxError{Line: 1, Column: 7, Msg: "expected '}'"})
	if rec.Code != 400 || !strings.Contains(rec.Body.String(), "1:7") {
		t.Errorf("400 body %q, want the position", rec.Body.String())
	}
}
