package memstore

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
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
