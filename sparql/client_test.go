package sparql_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/regelkit/regelkit/sparql"
	"github.com/regelkit/regelkit/sparql/graph"
	"github.com/regelkit/regelkit/sparql/memstore"
)

const exampleData = `@prefix ex: <http://example.org/> .
ex:m1 a ex:Model ; ex:id "M1" ; ex:title "Eerste"@nl .
ex:m2 a ex:Model ; ex:id "M2" ; ex:title "Tweede"@nl ; ex:uses ex:m1 .
`

func newStoreServer(t *testing.T, opts memstore.HandlerOptions) (*memstore.Store, *httptest.Server) {
	t.Helper()
	s := memstore.New()
	if err := s.Load(context.Background(), strings.NewReader(exampleData), graph.Turtle); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler(opts))
	t.Cleanup(srv.Close)
	return s, srv
}

func TestClientAgainstMemstore(t *testing.T) {
	ctx := context.Background()
	for _, mode := range []struct {
		name string
		opts sparql.ClientOptions
	}{
		{"default", sparql.ClientOptions{}},
		{"form", sparql.ClientOptions{QueryMethod: sparql.MethodForm}},
		{"direct", sparql.ClientOptions{QueryMethod: sparql.MethodDirect}},
		{"get", sparql.ClientOptions{QueryMethod: sparql.MethodGet}},
		{"deprecated get", sparql.ClientOptions{Get: true}},
	} {
		t.Run(mode.name, func(t *testing.T) {
			_, srv := newStoreServer(t, memstore.HandlerOptions{})
			c := sparql.NewClient(srv.URL, mode.opts)
			res, err := c.Select(ctx, `PREFIX ex: <http://example.org/> SELECT ?id ?t WHERE { ?m a ex:Model ; ex:id ?id OPTIONAL { ?m ex:title ?t } } ORDER BY ?id`)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := strings.Join(res.Vars, ","), "id,t"; got != want {
				t.Errorf("vars = %s, want %s", got, want)
			}
			if len(res.Solutions) != 2 || res.Solutions[0]["id"] != graph.String("M1") || res.Solutions[1]["t"] != graph.LangLiteral("Tweede", "nl") {
				t.Errorf("solutions = %v", res.Solutions)
			}
			ok, err := c.Ask(ctx, `ASK { <http://example.org/m2> <http://example.org/uses> <http://example.org/m1> }`)
			if err != nil || !ok {
				t.Errorf("Ask = %v, %v; want true", ok, err)
			}
			g, err := c.Construct(ctx, `CONSTRUCT { ?b <http://example.org/usedBy> ?a } WHERE { ?a <http://example.org/uses> ?b }`)
			if err != nil {
				t.Fatal(err)
			}
			want := graph.NewGraphOf(graph.Triple{S: graph.IRI("http://example.org/m1"), P: graph.IRI("http://example.org/usedBy"), O: graph.IRI("http://example.org/m2")})
			if !graph.Isomorphic(g, want) {
				t.Errorf("Construct = %v", graph.CanonicalNTriples(g))
			}
			if err := c.Update(ctx, `INSERT DATA { <http://example.org/m3> a <http://example.org/Model> }`); err != nil {
				t.Fatal(err)
			}
			res, err = c.Select(ctx, `SELECT (COUNT(?m) AS ?n) WHERE { ?m a <http://example.org/Model> }`)
			if err != nil {
				t.Fatal(err)
			}
			if n := res.Solutions[0]["n"]; n != graph.Literal("3", graph.XSDInteger) {
				t.Errorf("count after update = %v, want 3", n)
			}
		})
	}
}

func TestClientAuth(t *testing.T) {
	s := memstore.New()
	inner := s.Handler(memstore.HandlerOptions{})
	var gotAuth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotAuth = r.Header.Get("Authorization")
		inner.ServeHTTP(w, r)
	}))
	defer srv.Close()
	ctx := context.Background()
	if _, err := sparql.NewClient(srv.URL, sparql.ClientOptions{BearerToken: "tok"}).Ask(ctx, "ASK {}"); err != nil {
		t.Fatal(err)
	}
	if gotAuth != "Bearer tok" {
		t.Errorf("Authorization = %q, want bearer", gotAuth)
	}
	if _, err := sparql.NewClient(srv.URL, sparql.ClientOptions{Username: "u", Password: "p"}).Ask(ctx, "ASK {}"); err != nil {
		t.Fatal(err)
	}
	if gotAuth != "Basic dTpw" {
		t.Errorf("Authorization = %q, want basic u:p", gotAuth)
	}
}

func TestClientErrors(t *testing.T) {
	ctx := context.Background()
	serve := func(status int, ctype, body string, delay time.Duration) *httptest.Server {
		done := make(chan struct{})
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if delay > 0 {
				select {
				case <-time.After(delay):
				case <-r.Context().Done():
					return
				case <-done:
					return
				}
			}
			w.Header().Set("Content-Type", ctype)
			w.WriteHeader(status)
			io.WriteString(w, body)
		}))
		t.Cleanup(srv.Close)
		t.Cleanup(func() { close(done) })
		return srv
	}

	t.Run("500", func(t *testing.T) {
		srv := serve(500, "text/plain", "triple store exploded: out of memory", 0)
		_, err := sparql.NewClient(srv.URL, sparql.ClientOptions{}).Select(ctx, "SELECT * {}")
		var he *sparql.HTTPError
		if !errors.As(err, &he) || he.StatusCode != 500 || !strings.Contains(he.Body, "exploded") || he.URL != srv.URL {
			t.Fatalf("err = %#v, want HTTPError 500 with body excerpt", err)
		}
	})
	t.Run("long error body is cut", func(t *testing.T) {
		srv := serve(502, "text/plain", strings.Repeat("x", 5000), 0)
		_, err := sparql.NewClient(srv.URL, sparql.ClientOptions{}).Select(ctx, "SELECT * {}")
		var he *sparql.HTTPError
		if !errors.As(err, &he) || len(he.Body) > 600 {
			t.Fatalf("err = %v, want a short excerpt", err)
		}
	})
	t.Run("malformed JSON", func(t *testing.T) {
		srv := serve(200, sparql.MediaResultsJSON, `{"head": {"vars": ["x"]}, "results": {"bindings": [ {"x": `, 0)
		_, err := sparql.NewClient(srv.URL, sparql.ClientOptions{}).Select(ctx, "SELECT * {}")
		var ne *sparql.NotSPARQLError
		var fe *sparql.FormatError
		if !errors.As(err, &ne) || !errors.As(err, &fe) {
			t.Fatalf("err = %v, want NotSPARQLError wrapping a FormatError", err)
		}
	})
	t.Run("HTML page", func(t *testing.T) {
		srv := serve(200, "text/html; charset=utf-8", "<html><body>Please log in</body></html>", 0)
		_, err := sparql.NewClient(srv.URL, sparql.ClientOptions{}).Select(ctx, "SELECT * {}")
		var ne *sparql.NotSPARQLError
		if !errors.As(err, &ne) || ne.ContentType != "text/html" || !strings.Contains(ne.Body, "log in") {
			t.Fatalf("err = %v, want NotSPARQLError for text/html", err)
		}
		_, err = sparql.NewClient(srv.URL, sparql.ClientOptions{}).Construct(ctx, "CONSTRUCT WHERE {}")
		if !errors.As(err, &ne) {
			t.Fatalf("Construct err = %v, want NotSPARQLError", err)
		}
	})
	t.Run("slow endpoint times out", func(t *testing.T) {
		srv := serve(200, sparql.MediaResultsJSON, `{"head":{},"boolean":true}`, 2*time.Second)
		start := time.Now()
		_, err := sparql.NewClient(srv.URL, sparql.ClientOptions{Timeout: 100 * time.Millisecond}).Ask(ctx, "ASK {}")
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want a deadline error", err)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("took %v; the timeout did not cut the request", d)
		}
	})
	t.Run("response too large", func(t *testing.T) {
		srv := serve(200, sparql.MediaResultsJSON, `{"head":{"vars":[]},"results":{"bindings":[`+strings.Repeat(`{},`, 1000)+`{}]}}`, 0)
		_, err := sparql.NewClient(srv.URL, sparql.ClientOptions{MaxResponseBytes: 100}).Select(ctx, "SELECT * {}")
		if !errors.Is(err, sparql.ErrResponseTooLarge) {
			t.Fatalf("err = %v, want ErrResponseTooLarge", err)
		}
	})
	t.Run("read-only handler refuses updates", func(t *testing.T) {
		_, srv := newStoreServer(t, memstore.HandlerOptions{ReadOnly: true})
		err := sparql.NewClient(srv.URL, sparql.ClientOptions{}).Update(ctx, "INSERT DATA { <a:s> <a:p> <a:o> }")
		var he *sparql.HTTPError
		if !errors.As(err, &he) || he.StatusCode != http.StatusForbidden {
			t.Fatalf("err = %v, want 403", err)
		}
	})
	t.Run("syntax error is 400 with position", func(t *testing.T) {
		_, srv := newStoreServer(t, memstore.HandlerOptions{})
		_, err := sparql.NewClient(srv.URL, sparql.ClientOptions{}).Select(ctx, "SELECT ?x WHERE {\n ?x ?y }")
		var he *sparql.HTTPError
		if !errors.As(err, &he) || he.StatusCode != http.StatusBadRequest || !strings.Contains(he.Body, "2:") {
			t.Fatalf("err = %v, want 400 naming line 2", err)
		}
	})
}

func TestClientRawQueryForProxy(t *testing.T) {
	_, srv := newStoreServer(t, memstore.HandlerOptions{ReadOnly: true})
	resp, err := sparql.NewClient(srv.URL, sparql.ClientOptions{}).Query(context.Background(), `SELECT ?id WHERE { ?m <http://example.org/id> ?id } ORDER BY ?id LIMIT 1`)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"head":{"vars":["id"]},"results":{"bindings":[{"id":{"type":"literal","value":"M1"}}]}}`
	if resp.ContentType != sparql.MediaResultsJSON || string(resp.Body) != want {
		t.Errorf("got %s %s\nwant %s", resp.ContentType, resp.Body, want)
	}
}

func TestHandlerFormats(t *testing.T) {
	_, srv := newStoreServer(t, memstore.HandlerOptions{ReadOnly: true})
	q := "SELECT ?id WHERE { ?m <http://example.org/id> ?id } ORDER BY ?id"
	for _, tc := range []struct{ accept, ctype, body string }{
		{"text/csv", "text/csv; charset=utf-8", "id\r\nM1\r\nM2\r\n"},
		{"text/tab-separated-values", "text/tab-separated-values; charset=utf-8", "?id\n\"M1\"\n\"M2\"\n"},
		{"application/sparql-results+xml", "application/sparql-results+xml; charset=utf-8", "<literal>M1</literal>"},
		{"", "application/sparql-results+json; charset=utf-8", `"value":"M2"`},
	} {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"?query="+urlEncode(q), nil)
		if tc.accept != "" {
			req.Header.Set("Accept", tc.accept)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != tc.ctype || !strings.Contains(string(body), tc.body) {
			t.Errorf("Accept %q: %d %s %q", tc.accept, resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
	}
	// graphs by Accept
	for _, tc := range []struct{ accept, ctype, body string }{
		{"text/turtle", "text/turtle", "Eerste"},
		{"application/n-triples", "application/n-triples", `<http://example.org/m1> <http://example.org/title> "Eerste"@nl .`},
		{"application/ld+json", "application/ld+json", `"@value": "Eerste"`},
	} {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"?query="+urlEncode("DESCRIBE <http://example.org/m1>"), nil)
		req.Header.Set("Accept", tc.accept)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), tc.ctype) || !strings.Contains(strings.ReplaceAll(string(body), "\":\"", "\": \""), tc.body) {
			t.Errorf("Accept %q: %d %s %q", tc.accept, resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
	}
	// wrong method, wrong content type
	resp, _ := http.Post(srv.URL, "text/plain", strings.NewReader("ASK {}"))
	if resp.StatusCode != http.StatusUnsupportedMediaType {
		t.Errorf("text/plain POST: %d, want 415", resp.StatusCode)
	}
	req, _ := http.NewRequest(http.MethodDelete, srv.URL, nil)
	resp, _ = http.DefaultClient.Do(req)
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("DELETE: %d, want 405", resp.StatusCode)
	}
}

func urlEncode(s string) string {
	return strings.NewReplacer("%", "%25", " ", "%20", "?", "%3F", "{", "%7B", "}", "%7D", "<", "%3C", ">", "%3E", "#", "%23", "&", "%26", "+", "%2B").Replace(s)
}

// TestClientQueryMethods pins what goes over the wire in each QueryMethod:
// Virtuoso 7 answers only the form (and GET) encodings, so form is the
// default.
func TestClientQueryMethods(t *testing.T) {
	type seen struct{ method, ctype, query, update, body string }
	var got []seen
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s := seen{method: r.Method, ctype: r.Header.Get("Content-Type"), query: r.URL.Query().Get("query")}
		if s.ctype == sparql.MediaForm {
			v, _ := url.ParseQuery(string(body))
			s.query, s.update = v.Get("query"), v.Get("update")
		} else {
			s.body = string(body)
		}
		got = append(got, s)
		w.Header().Set("Content-Type", sparql.MediaResultsJSON)
		io.WriteString(w, `{"head":{"vars":[]},"results":{"bindings":[]}}`)
	}))
	defer srv.Close()
	ctx := context.Background()
	const q, u = "SELECT * WHERE { ?s ?p ?o }", "INSERT DATA { <a:b> <a:c> <a:d> }"
	long := "SELECT * WHERE { ?s ?p ?o } #" + strings.Repeat("x", sparql.MaxGetURL)
	cases := []struct {
		method sparql.QueryMethod
		want   []seen
	}{
		{"", []seen{
			{method: "POST", ctype: "application/x-www-form-urlencoded", query: q},
			{method: "POST", ctype: "application/x-www-form-urlencoded", update: u},
			{method: "POST", ctype: "application/x-www-form-urlencoded", query: long},
		}},
		{sparql.MethodDirect, []seen{
			{method: "POST", ctype: "application/sparql-query", body: q},
			{method: "POST", ctype: "application/sparql-update", body: u},
			{method: "POST", ctype: "application/sparql-query", body: long},
		}},
		{sparql.MethodGet, []seen{
			{method: "GET", query: q},
			{method: "POST", ctype: "application/x-www-form-urlencoded", update: u},
			{method: "POST", ctype: "application/x-www-form-urlencoded", query: long},
		}},
	}
	for _, tc := range cases {
		got = nil
		c := sparql.NewClient(srv.URL, sparql.ClientOptions{QueryMethod: tc.method})
		if _, err := c.Select(ctx, q); err != nil {
			t.Fatal(err)
		}
		if err := c.Update(ctx, u); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Select(ctx, long); err != nil {
			t.Fatal(err)
		}
		if len(got) != len(tc.want) {
			t.Fatalf("%q: %d requests, want %d", tc.method, len(got), len(tc.want))
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%q request %d = %+v, want %+v", tc.method, i, got[i], tc.want[i])
			}
		}
	}
}

func TestParseQueryMethod(t *testing.T) {
	for in, want := range map[string]sparql.QueryMethod{"": "form", "FORM": "form", " direct ": "direct", "get": "get"} {
		if got, err := sparql.ParseQueryMethod(in); err != nil || got != want {
			t.Errorf("ParseQueryMethod(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := sparql.ParseQueryMethod("put"); err == nil || !strings.Contains(err.Error(), "form, direct or get") {
		t.Errorf("ParseQueryMethod(put) error = %v", err)
	}
}

// TestVirtuosoAsk: Virtuoso 7.2 answers ASK with a one-row table; the
// client reads it as the boolean it is.
func TestVirtuosoAsk(t *testing.T) {
	answer := func(value string) string {
		return `{ "head": { "link": [], "vars": ["__ASK_RETVAL"] },
  "results": { "distinct": false, "ordered": true, "bindings": [
    { "__ASK_RETVAL": { "type": "typed-literal", "datatype": "http://www.w3.org/2001/XMLSchema#integer", "value": "` + value + `" }} ] } }`
	}
	for body, want := range map[string]bool{answer("1"): true, answer("0"): false,
		`{"head":{"vars":["__ask_retval"]},"results":{"bindings":[]}}`: false} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", sparql.MediaResultsJSON)
			io.WriteString(w, body)
		}))
		got, err := sparql.NewClient(srv.URL, sparql.ClientOptions{}).Ask(context.Background(), "ASK {}")
		srv.Close()
		if err != nil || got != want {
			t.Errorf("Ask over %s = %v, %v; want %v", body, got, err, want)
		}
	}
	// A real SELECT result with another variable stays a table.
	res := &sparql.Results{Vars: []string{"n"}, Solutions: []sparql.Solution{{"n": graph.Literal("1", graph.XSDInteger)}}}
	if res.NormalizeAsk() || res.Boolean != nil {
		t.Error("a SELECT result was taken for an ASK")
	}
	odd := &sparql.Results{Vars: []string{"__ask_retval"}, Solutions: []sparql.Solution{{"__ask_retval": graph.String("maybe")}}}
	if odd.NormalizeAsk() {
		t.Error("a value other than 1/0/true/false must stay a table")
	}
}
