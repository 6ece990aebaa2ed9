package upstream_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/regelkit/regelkit/servers/internal/outbound"
	"github.com/regelkit/regelkit/servers/internal/upstream"
	"github.com/regelkit/regelkit/sparql"
	"github.com/regelkit/regelkit/sparql/memstore"
)

type limitErr struct{ limit string }

func (e *limitErr) Error() string         { return "sparql: query exceeded " + e.limit + " (10)" }
func (e *limitErr) LimitExceeded() string { return e.limit }

// TestSPARQLError runs real failures through the real client and store.
func TestSPARQLError(t *testing.T) {
	ctx := context.Background()
	answer := func(status int, ctype, body string) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Query().Get("slow") != "" {
				time.Sleep(300 * time.Millisecond)
			}
			w.Header().Set("Content-Type", ctype)
			w.WriteHeader(status)
			fmt.Fprint(w, body)
		}))
		t.Cleanup(srv.Close)
		return srv.URL
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	closed := "http://" + ln.Addr().String() + "/sparql"
	ln.Close()
	selectOn := func(u string, opts sparql.ClientOptions) error {
		_, err := sparql.NewClient(u, opts).Select(ctx, "SELECT * WHERE { ?s ?p ?o }")
		return err
	}
	_, storeErr := memstore.New().Query(ctx, "SELECT WHERE {")
	strict := &outbound.Policy{Strict: true}
	_, refusedErr := strict.Check("https://169.254.169.254/latest")

	cases := []struct {
		name     string
		err      error
		own      bool // the server's own query: SPARQLError, else CallerQueryError
		status   int
		code     string
		mention  string
		noLeak   string // must not be in the message
		hasCause bool   // DevDetail carries the cause
	}{
		{"syntax error of the embedded store", storeErr, false, 400, "QUERY_ERROR", "syntax error", "", false},
		{"own query: syntax error of the embedded store", storeErr, true, 502, "QUERY_ERROR", "rejected the server's query", "", true},
		{"own query: endpoint 400", selectOn(answer(400, "text/plain", "SP030 at 10.2.3.4"), sparql.ClientOptions{}), true, 502, "QUERY_ERROR", "rejected the server's query", "10.2.3.4", true},
		{"endpoint 400", selectOn(answer(400, "text/plain", "Virtuoso 37000 Error SP030: syntax error\n at line 1"), sparql.ClientOptions{}),
			false, 400, "QUERY_ERROR", "answered 400 Bad Request: Virtuoso 37000 Error SP030: syntax error at line 1", "", false},
		{"endpoint 500", selectOn(answer(500, "text/plain", "driver: connection to 10.9.8.7 lost"), sparql.ClientOptions{}),
			false, 502, "QUERY_ERROR", "answered 500 Internal Server Error", "10.9.8.7", true},
		{"endpoint 401", selectOn(answer(401, "text/plain", "no"), sparql.ClientOptions{}), false, 502, "QUERY_ERROR", "answered 401 Unauthorized", "", true},
		{"html login page", selectOn(answer(200, "text/html", "<html>login</html>"), sparql.ClientOptions{}),
			false, 502, "QUERY_ERROR", `did not answer with SPARQL results (Content-Type "text/html")`, "", true},
		{"unreachable", selectOn(closed, sparql.ClientOptions{}), false, 502, "DISCOVERY_ERROR", "unreachable", "127.0.0.1", true},
		{"slow", selectOn(answer(200, sparql.MediaResultsJSON, "{}")+"?slow=1", sparql.ClientOptions{Timeout: 50 * time.Millisecond}),
			false, 504, "QUERY_ERROR", "did not answer in time", "127.0.0.1", true},
		{"too large", selectOn(answer(200, sparql.MediaResultsJSON, strings.Repeat(" ", 2000)), sparql.ClientOptions{MaxResponseBytes: 1000}),
			false, 502, "QUERY_ERROR", "exceeds the size limit", "", false},
		{"refused", refusedErr, false, 400, "INVALID_REQUEST", "link-local", "", false},
		{"limit", fmt.Errorf("listing: %w", &limitErr{"MaxRows"}), false, 400, "LIMIT_EXCEEDED", "MaxRows (10)", "", false},
		{"time limit", fmt.Errorf("listing: %w", &limitErr{"Timeout"}), false, 503, "LIMIT_EXCEEDED", "Timeout (10)", "", false},
		{"other", errors.New("strange failure at 10.1.1.1"), false, 502, "QUERY_ERROR", "the SPARQL request failed", "10.1.1.1", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.err == nil {
				t.Fatal("the failure did not happen")
			}
			code := "QUERY_ERROR"
			if tc.code == "DISCOVERY_ERROR" {
				code = tc.code
			}
			mapErr := upstream.CallerQueryError
			if tc.own {
				mapErr = upstream.SPARQLError
			}
			e := mapErr(code, "Failed to list DMNs", tc.err)
			if e.Status != tc.status || e.Code != tc.code {
				t.Fatalf("got %d %s (%s), want %d %s", e.Status, e.Code, e.Message, tc.status, tc.code)
			}
			if !strings.Contains(e.Message, tc.mention) {
				t.Errorf("message %q lacks %q", e.Message, tc.mention)
			}
			if tc.noLeak != "" && strings.Contains(e.Message, tc.noLeak) {
				t.Errorf("message %q leaks %q", e.Message, tc.noLeak)
			}
			if tc.hasCause != (e.DevDetail != "") {
				t.Errorf("DevDetail = %q", e.DevDetail)
			}
			if !errors.Is(e, tc.err) {
				t.Error("the cause must stay in the chain")
			}
		})
	}
}

func TestTransport(t *testing.T) {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	_, refused := http.Get("http://" + addr + "/engine-rest/version")
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { time.Sleep(300 * time.Millisecond) }))
	defer slow.Close()
	_, timedOut := (&http.Client{Timeout: 50 * time.Millisecond}).Get(slow.URL)
	cases := []struct {
		err    error
		status int
		msg    string
	}{
		{refused, 502, "the decision engine is unreachable"},
		{fmt.Errorf("step M1: %w", timedOut), 504, "the decision engine did not answer in time"},
		{context.DeadlineExceeded, 504, "the decision engine did not answer in time"},
	}
	for _, tc := range cases {
		e := upstream.Transport("EXECUTION_ERROR", "the decision engine", tc.err)
		if e == nil || e.Status != tc.status || e.Message != tc.msg || e.Code != "EXECUTION_ERROR" {
			t.Errorf("Transport(%v) = %+v, want %d %q", tc.err, e, tc.status, tc.msg)
			continue
		}
		if strings.Contains(e.Message, addr) || e.DevDetail == "" {
			t.Errorf("address in the message or no DevDetail: %+v", e)
		}
	}
	if e := upstream.Transport("EXECUTION_ERROR", "x", errors.New("engine returned 500: no rule matched")); e != nil {
		t.Errorf("an answered failure is not a transport failure: %+v", e)
	}
}
