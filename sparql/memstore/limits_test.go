package memstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/regelkit/regelkit/sparql/graph"
)

// hostileStore holds n triples over 10 predicates: enough for cross
// products of billions of rows.
func hostileStore(t testing.TB, n int, opts Options) *Store {
	t.Helper()
	s := NewWithOptions(opts)
	quads := make([]graph.Quad, n)
	for i := range quads {
		quads[i] = graph.Quad{
			S: graph.IRI(fmt.Sprintf("http://ex/s%d", i)),
			P: graph.IRI(fmt.Sprintf("http://ex/p%d", i%10)),
			O: graph.String(fmt.Sprintf("o%d", i)),
		}
	}
	s.Add(quads...)
	return s
}

// peakHeapGrowth runs fn and returns the largest heap growth seen while
// it ran, sampling every few milliseconds.
func peakHeapGrowth(fn func()) uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	peak := base
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var m runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-time.After(5 * time.Millisecond):
			}
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapAlloc)
		}
	}()
	fn()
	close(done)
	wg.Wait()
	runtime.ReadMemStats(&ms)
	peak = max(peak, ms.HeapAlloc)
	return peak - base
}

func wantLimit(t *testing.T, err error, limit string, bound int64) {
	t.Helper()
	var le *LimitError
	if !errors.As(err, &le) {
		t.Fatalf("got %v, want a *LimitError on %s", err, limit)
	}
	if le.Limit != limit || le.Max != bound {
		t.Fatalf("got LimitError{%s, %d}, want {%s, %d}", le.Limit, le.Max, limit, bound)
	}
}

// Hostile ~100-byte queries that once ran out of memory or ran for minutes end quickly in
// a LimitError, with the heap growing by less than 200 MB.
func TestHostileQueriesStopAtLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("runs each reproduction up to its limit")
	}
	s := hostileStore(t, 3000, Options{})
	var binds strings.Builder
	binds.WriteString(`SELECT ?y31 WHERE { BIND("0123456789abcdef" AS ?y0) `)
	for i := range 31 {
		fmt.Fprintf(&binds, "BIND(CONCAT(?y%d, ?y%d) AS ?y%d) ", i, i, i+1)
	}
	binds.WriteString("}")
	tests := []struct {
		name   string
		query  string
		limits Limits
		limit  string
		bound  int64
	}{
		{"ORDER BY RAND() LIMIT 1 over a 3-way cross product",
			`SELECT * WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i } ORDER BY RAND() LIMIT 1`,
			Limits{Timeout: time.Second}, "Timeout", int64(time.Second)},
		{"ORDER BY RAND() over a 3-way cross product",
			`SELECT * WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i } ORDER BY RAND()`,
			Limits{}, "MaxRows", 500_000},
		{"31 chained BIND(CONCAT(?x, ?x))", binds.String(), Limits{}, "MaxBytes", 1 << 20},
		{"GROUP_CONCAT over a cross product",
			`SELECT (GROUP_CONCAT(?c) AS ?all) WHERE { ?a ?b ?c . ?d ?e ?f }`,
			Limits{}, "MaxBytes", 1 << 20},
		{"4-pattern COUNT",
			`SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }`,
			Limits{Timeout: 500 * time.Millisecond}, "Timeout", int64(500 * time.Millisecond)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			start := time.Now()
			grew := peakHeapGrowth(func() {
				_, err = s.QueryWith(context.Background(), tt.query, QueryOptions{Limits: tt.limits})
			})
			took := time.Since(start)
			wantLimit(t, err, tt.limit, tt.bound)
			t.Logf("%s after %v, heap grew %d MB", err, took.Round(time.Millisecond), grew>>20)
			if took > 10*time.Second {
				t.Errorf("took %v, want seconds", took)
			}
			if grew > 200<<20 {
				t.Errorf("heap grew %d MB, want under 200 MB", grew>>20)
			}
		})
	}
}

// Every materialising operator counts its rows against MaxRows, and just
// under the bound the same query answers.
func TestMaxRowsPerOperator(t *testing.T) {
	s := hostileStore(t, 100, Options{})
	ctx := context.Background()
	const p = "PREFIX ex: <http://ex/> "
	for _, tc := range []struct{ name, q string }{
		{"SELECT results", `SELECT ?s WHERE { ?s ?p ?o }`},
		{"ORDER BY", `SELECT ?s WHERE { ?s ?p ?o } ORDER BY ?o`},
		{"ORDER BY under LIMIT", `SELECT ?s WHERE { ?s ?p ?o } ORDER BY ?o LIMIT 51`},
		{"ORDER BY under LIMIT with a large OFFSET", `SELECT ?s WHERE { ?s ?p ?o } ORDER BY ?o LIMIT 1 OFFSET 60`},
		{"DISTINCT", `SELECT DISTINCT ?s WHERE { ?s ?p ?o } LIMIT 1 OFFSET 70`},
		{"GROUP BY", `SELECT ?s (COUNT(*) AS ?n) WHERE { ?s ?p ?o } GROUP BY ?s LIMIT 1`},
		{"subquery", `SELECT ?s WHERE { { SELECT ?s WHERE { ?s ?p ?o } } FILTER(?s = ex:s1) }`},
		{"MINUS", `SELECT ?s WHERE { ex:s1 ?p ?o MINUS { ?s ?q ?x } }`},
		{"CONSTRUCT", `CONSTRUCT { ?s ex:q ?o } WHERE { ?s ?p ?o }`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.QueryWith(ctx, p+tc.q, QueryOptions{Limits: Limits{MaxRows: 50}})
			wantLimit(t, err, "MaxRows", 50)
			if _, err := s.QueryWith(ctx, p+tc.q, QueryOptions{Limits: Limits{MaxRows: 100}}); err != nil {
				t.Errorf("with MaxRows 100: %v", err)
			}
		})
	}
}

// Strings built by functions stop at MaxBytes (here 100 bytes); the same
// functions on shorter input answer.
func TestMaxBytesPerFunction(t *testing.T) {
	s := New()
	ctx := context.Background()
	a60 := strings.Repeat("a", 60)
	sp40 := strings.Repeat(" ", 40)
	for _, tc := range []struct{ name, expr, want string }{
		{"CONCAT", `CONCAT("` + a60 + `", "` + a60 + `")`, ""},
		{"CONCAT under", `CONCAT("` + a60 + `", "b")`, a60 + "b"},
		{"REPLACE growing", `REPLACE("` + a60 + `", "a", "bb")`, ""},
		{"REPLACE under", `REPLACE("aaa", "a", "bb")`, "bbbbbb"},
		{"REPLACE with group references", `REPLACE("` + a60[:40] + `", "(a)", "$1$1$1")`, ""},
		{"ENCODE_FOR_URI", `ENCODE_FOR_URI("` + sp40 + `")`, ""},
		{"ENCODE_FOR_URI under", `ENCODE_FOR_URI("a b")`, "a%20b"},
		{"UCASE of a built string", `UCASE(CONCAT("` + a60 + `", "` + a60[:30] + `", "ǆǆǆǆǆǆ"))`, ""},
		{"LCASE under", `LCASE("ABC")`, "abc"},
		{"SUBSTR under", `SUBSTR("abcdef", 2, 3)`, "bcd"},
		{"STRAFTER under", `STRAFTER("abc", "a")`, "bc"},
		{"STRBEFORE under", `STRBEFORE("abc", "c")`, "ab"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := `SELECT ?v WHERE { BIND(` + tc.expr + ` AS ?v) }`
			res, err := s.QueryWith(ctx, q, QueryOptions{Limits: Limits{MaxBytes: 100}})
			if tc.want == "" {
				wantLimit(t, err, "MaxBytes", 100)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Results.Solutions[0]["v"].Value; got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	// GROUP_CONCAT counts its separators too: 30 values of 3 bytes with
	// ", " are 148 bytes
	mustLoad(t, s, `@prefix : <http://ex/> . `+strings.Repeat(":a :p 1 . ", 1)+func() string {
		var b strings.Builder
		for i := range 30 {
			fmt.Fprintf(&b, ":a :v \"x%02d\" . ", i)
		}
		return b.String()
	}())
	q := `SELECT (GROUP_CONCAT(?v; SEPARATOR=", ") AS ?g) WHERE { ?s <http://ex/v> ?v }`
	_, err := s.QueryWith(ctx, q, QueryOptions{Limits: Limits{MaxBytes: 100}})
	wantLimit(t, err, "MaxBytes", 100)
	res, err := s.QueryWith(ctx, q, QueryOptions{Limits: Limits{MaxBytes: 148}})
	if err != nil {
		t.Fatal(err)
	}
	if got := len(res.Results.Solutions[0]["g"].Value); got != 148 {
		t.Errorf("GROUP_CONCAT gave %d bytes, want 148", got)
	}
}

func TestMaxTotalBytes(t *testing.T) {
	s := hostileStore(t, 1000, Options{})
	ctx := context.Background()
	// 1000 solutions of one variable hold well over 100 KB
	_, err := s.QueryWith(ctx, `SELECT ?s WHERE { ?s ?p ?o }`, QueryOptions{Limits: Limits{MaxTotalBytes: 100_000}})
	wantLimit(t, err, "MaxTotalBytes", 100_000)
	// new terms count too: 1000 computed strings of 200 bytes
	q := `SELECT (COUNT(?v) AS ?n) WHERE { ?s ?p ?o BIND(CONCAT(STR(?s), "` + strings.Repeat("x", 200) + `") AS ?v) }`
	_, err = s.QueryWith(ctx, q, QueryOptions{Limits: Limits{MaxTotalBytes: 100_000}})
	wantLimit(t, err, "MaxTotalBytes", 100_000)
	res, err := s.QueryWith(ctx, q, QueryOptions{Limits: Limits{MaxTotalBytes: 1 << 20}})
	if err != nil {
		t.Fatal(err)
	}
	if n := res.Results.Solutions[0]["n"].Value; n != "1000" {
		t.Errorf("count = %s, want 1000", n)
	}
}

// The store's Limits reach every way in: the sparql.Endpoint methods,
// updates and the protocol handler; a call can override them.
func TestStoreLimitsApplyEverywhere(t *testing.T) {
	s := hostileStore(t, 100, Options{Limits: Limits{MaxRows: 10}})
	ctx := context.Background()
	_, err := s.Select(ctx, `SELECT ?s WHERE { ?s ?p ?o }`)
	wantLimit(t, err, "MaxRows", 10)
	_, err = s.Ask(ctx, `ASK { { SELECT ?s WHERE { ?s ?p ?o } ORDER BY ?s } }`)
	wantLimit(t, err, "MaxRows", 10)
	_, err = s.Construct(ctx, `CONSTRUCT { ?s <http://ex/q> ?o } WHERE { ?s ?p ?o }`)
	wantLimit(t, err, "MaxRows", 10)
	err = s.Update(ctx, `INSERT { ?s <http://ex/q> 1 } WHERE { ?s ?p ?o }`)
	wantLimit(t, err, "MaxRows", 10)
	if s.Len() != 100 {
		t.Errorf("a failed update changed the store: %d quads, want 100", s.Len())
	}
	res, err := s.QueryWith(ctx, `SELECT ?s WHERE { ?s ?p ?o }`, QueryOptions{Limits: Limits{MaxRows: -1}})
	if err != nil || len(res.Results.Solutions) != 100 {
		t.Fatalf("MaxRows -1 disables the bound: %v", err)
	}
	if err := s.UpdateWith(ctx, `INSERT { ?s <http://ex/q> 1 } WHERE { ?s ?p ?o }`, UpdateOptions{Limits: Limits{MaxRows: 100}}); err != nil {
		t.Fatalf("update under a raised MaxRows: %v", err)
	}

	srv := httptest.NewServer(s.Handler(HandlerOptions{}))
	defer srv.Close()
	resp, err := http.PostForm(srv.URL, url.Values{"query": {`SELECT ?s WHERE { ?s ?p ?o }`}})
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	// the handler's owner maps *LimitError to its status; here it is
	// enough that the request fails and says which limit
	if resp.StatusCode < 400 || !strings.Contains(string(body), "MaxRows (10 solutions)") {
		t.Errorf("handler: %d %q, want a failure naming MaxRows (10 solutions)", resp.StatusCode, body)
	}
	resp, err = http.PostForm(srv.URL, url.Values{"query": {"ASK " + strings.Repeat("{", 200_000)}})
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), "1:1005: nesting deeper than 1000") {
		t.Errorf("handler, deep query: %d %q, want 400 with the positioned nesting error", resp.StatusCode, body)
	}
}

func TestSyntaxErrorForDeepQueries(t *testing.T) {
	s := New()
	ctx := context.Background()
	_, err := s.Query(ctx, "SELECT * WHERE { FILTER("+strings.Repeat("!", 3_000_000)+"?x) }")
	var syn *SyntaxError
	if !errors.As(err, &syn) || syn.Line != 1 || syn.Column != 1024 || syn.Msg != "nesting deeper than 1000" {
		t.Errorf("query: got %v, want a SyntaxError at 1:1024", err)
	}
	err = s.Update(ctx, "INSERT DATA { <a> <b> "+strings.Repeat("(", 200_000))
	if !errors.As(err, &syn) || syn.Column != 1023 || syn.Msg != "nesting deeper than 1000" {
		t.Errorf("update: got %v, want a SyntaxError at 1:1023", err)
	}
	// MaxDepth comes from the Limits, and the parse cache keeps queries
	// parsed under different bounds apart
	q := "ASK " + strings.Repeat("{", 20) + strings.Repeat("}", 20)
	if _, err := s.Query(ctx, q); err != nil {
		t.Fatal(err)
	}
	_, err = s.QueryWith(ctx, q, QueryOptions{Limits: Limits{MaxDepth: 10}})
	if !errors.As(err, &syn) || syn.Msg != "nesting deeper than 10" {
		t.Errorf("MaxDepth 10: got %v", err)
	}
}

func TestLimitError(t *testing.T) {
	for _, tc := range []struct {
		err  *LimitError
		want string
	}{
		{&LimitError{Limit: "Timeout", Max: int64(30 * time.Second)}, "sparql: query exceeded Timeout (30s)"},
		{&LimitError{Limit: "MaxRows", Max: 500000}, "sparql: query exceeded MaxRows (500000 solutions)"},
		{&LimitError{Limit: "MaxBytes", Max: 1048576}, "sparql: query exceeded MaxBytes (1048576 bytes in one string)"},
		{&LimitError{Limit: "MaxTotalBytes", Max: 268435456}, "sparql: query exceeded MaxTotalBytes (268435456 bytes)"},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
		// servers find it structurally
		var le interface{ LimitExceeded() string }
		if !errors.As(fmt.Errorf("wrapped: %w", tc.err), &le) || le.LimitExceeded() != tc.err.Limit {
			t.Errorf("%s: LimitExceeded not found through wrapping", tc.err.Limit)
		}
	}
	d := DefaultLimits()
	if d.Timeout != 30*time.Second || d.MaxDepth != 1000 || d.MaxRows != 500_000 || d.MaxBytes != 1<<20 || d.MaxTotalBytes != 256<<20 {
		t.Errorf("DefaultLimits() = %+v", d)
	}
}

// A caller's own deadline stays a context error, not a LimitError.
func TestContextDeadlineStaysContextError(t *testing.T) {
	s := hostileStore(t, 3000, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := s.Query(ctx, `SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }`)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v, want context.DeadlineExceeded", err)
	}
}

// Joins of VALUES tables touch no index; they still see the Timeout.
func TestTimeoutWithoutIndexScans(t *testing.T) {
	var vals strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&vals, "%d ", i)
	}
	v := vals.String()
	q := `SELECT (COUNT(*) AS ?n) WHERE { VALUES ?a { ` + v + ` } VALUES ?b { ` + v + ` } VALUES ?c { ` + v + ` } ?a <http://ex/none> ?b }`
	start := time.Now()
	_, err := New().QueryWith(context.Background(), q, QueryOptions{Limits: Limits{Timeout: 300 * time.Millisecond}})
	wantLimit(t, err, "Timeout", int64(300*time.Millisecond))
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("took %v", took)
	}
}

// The parsed-query cache is bounded in entries and never keeps a long
// query.
func TestQueryCacheBounded(t *testing.T) {
	s := New()
	ctx := context.Background()
	for i := range 300 {
		if _, err := s.Query(ctx, fmt.Sprintf("ASK { ?s ?p %d }", i)); err != nil {
			t.Fatal(err)
		}
		if n := len(s.cache.m); n > 256 {
			t.Fatalf("after %d queries the cache holds %d, want at most 256", i+1, n)
		}
	}
	long := "ASK { ?s ?p ?o FILTER(?o IN (" + strings.Repeat("1, ", 12000) + "1)) }"
	if _, err := s.Query(ctx, long); err != nil {
		t.Fatal(err)
	}
	for k := range s.cache.m {
		if len(k) > 32<<10 {
			t.Fatalf("the cache keeps a %d-byte query", len(k))
		}
	}
}

// The issue-14 reproductions sent to the protocol handler: deep texts are
// 400 with the positioned nesting error, budget-breaking queries fail
// naming their limit (the handler's owner maps *LimitError to 400/503),
// and the server keeps answering.
func TestHandlerHostileRequests(t *testing.T) {
	s := hostileStore(t, 2000, Options{Limits: Limits{Timeout: 500 * time.Millisecond}})
	srv := httptest.NewServer(s.Handler(HandlerOptions{}))
	defer srv.Close()
	rep := strings.Repeat
	var binds strings.Builder
	binds.WriteString(`SELECT ?y31 WHERE { BIND("0123456789abcdef" AS ?y0) `)
	for i := range 31 {
		fmt.Fprintf(&binds, "BIND(CONCAT(?y%d, ?y%d) AS ?y%d) ", i, i, i+1)
	}
	binds.WriteString("}")
	post := func(form url.Values) (int, string) {
		t.Helper()
		resp, err := http.PostForm(srv.URL, form)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	for _, tc := range []struct {
		name, key, text, want string
		status                int // 0: any failure
	}{
		{"200,000 nested groups", "query", "SELECT * WHERE " + rep("{", 200_000), "1:1016: nesting deeper than 1000", 400},
		{"1,000,000 brackets in FILTER", "query", "SELECT * WHERE { FILTER(" + rep("(", 1_000_000) + "?x" + rep(")", 1_000_000) + ") }", "1:1024: nesting deeper than 1000", 400},
		{"1,000,000 brackets in a path", "query", "SELECT * WHERE { ?s " + rep("(", 1_000_000) + "<p>" + rep(")", 1_000_000) + " ?o }", "1:1020: nesting deeper than 1000", 400},
		{"3,000,000 unary !", "query", "SELECT * WHERE { FILTER(" + rep("!", 3_000_000) + "?x) }", "1:1024: nesting deeper than 1000", 400},
		{"200,000 nested groups in an update", "update", "DELETE { <a> <b> <c> } WHERE " + rep("{", 200_000), "1:1030: nesting deeper than 1000", 400},
		{"ORDER BY RAND() LIMIT 1", "query", `SELECT * WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i } ORDER BY RAND() LIMIT 1`, "Timeout (500ms)", 0},
		{"31 chained BIND(CONCAT)", "query", binds.String(), "MaxBytes (1048576 bytes in one string)", 0},
		{"GROUP_CONCAT over a cross product", "query", `SELECT (GROUP_CONCAT(?c) AS ?all) WHERE { ?a ?b ?c . ?d ?e ?f }`, "MaxBytes (1048576 bytes in one string)", 0},
		{"4-pattern COUNT", "query", `SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }`, "Timeout (500ms)", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			status, body := post(url.Values{tc.key: {tc.text}})
			if took := time.Since(start); took > 10*time.Second {
				t.Errorf("took %v", took)
			}
			if (tc.status != 0 && status != tc.status) || status < 400 || !strings.Contains(body, tc.want) {
				t.Errorf("got %d %q, want %d with %q", status, body, tc.status, tc.want)
			}
			// still alive
			if status, _ := post(url.Values{"query": {"ASK { ?s ?p ?o }"}}); status != http.StatusOK {
				t.Fatalf("the server stopped answering: %d", status)
			}
		})
	}
}

// A deep spine of OPTIONALs over a wide subtree: parsing and compiling
// stay linear (scope analyses are remembered per node), so the query
// reaches its Timeout in about a second instead of spending minutes
// before evaluation starts.
func TestDeepSpineCompilesQuickly(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 1.7 MB query")
	}
	var b strings.Builder
	b.WriteString("SELECT * WHERE ")
	const spine = 450 // each level nests an OPTIONAL and a BIND
	b.WriteString(strings.Repeat("{ ", spine))
	n := 0
	var union func(d int)
	union = func(d int) {
		if d == 0 {
			n++
			fmt.Fprintf(&b, "{ ?a%d ?b ?c }", n%500)
			return
		}
		b.WriteString("{ ")
		union(d - 1)
		b.WriteString(" UNION ")
		union(d - 1)
		b.WriteString(" }")
	}
	union(16)
	for i := range spine {
		fmt.Fprintf(&b, " OPTIONAL { ?x%d ?y ?z } BIND(1 AS ?w%d) }", i, i)
	}
	s := hostileStore(t, 100, Options{})
	start := time.Now()
	_, err := s.QueryWith(context.Background(), b.String(), QueryOptions{Limits: Limits{Timeout: 200 * time.Millisecond}})
	took := time.Since(start)
	t.Logf("%d bytes: %v after %v", b.Len(), err, took)
	if err != nil {
		var le *LimitError
		if !errors.As(err, &le) {
			t.Fatal(err)
		}
	}
	// before the analyses were remembered this took minutes
	if took > 20*time.Second {
		t.Errorf("took %v", took)
	}
}

// An update's templates multiply its solutions; the quads they would add
// count against MaxTotalBytes, and a refused update changes nothing.
func TestUpdateTemplatesBounded(t *testing.T) {
	s := hostileStore(t, 1000, Options{})
	ctx := context.Background()
	tmpl := ""
	for i := range 100 {
		tmpl += fmt.Sprintf("?s <http://ex/q%d> ?o . ", i)
	}
	// 1000 solutions × 100 quads × 48 bytes is 4.8 MB
	err := s.UpdateWith(ctx, "INSERT { "+tmpl+"} WHERE { ?s ?p ?o }", UpdateOptions{Limits: Limits{MaxTotalBytes: 1 << 20}})
	wantLimit(t, err, "MaxTotalBytes", 1<<20)
	if s.Len() != 1000 {
		t.Fatalf("the refused update changed the store: %d quads", s.Len())
	}
	if err := s.UpdateWith(ctx, "INSERT { "+tmpl+"} WHERE { ?s ?p ?o }", UpdateOptions{Limits: Limits{MaxTotalBytes: 8 << 20}}); err != nil {
		t.Fatal(err)
	}
	if s.Len() != 101_000 {
		t.Errorf("%d quads, want 101000", s.Len())
	}
}
