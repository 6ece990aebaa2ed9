package server

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local/pgstore/pgtest"
	"github.com/regelkit/regelkit/servers/internal/metrics/metricstest"
)

// get sends one request through the explorer's real handler.
func get(t testing.TB, h http.Handler, path string) int {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
	return rec.Code
}

// TestMetricsAfterAScriptedRun: the documented series, with route
// templates, statuses, the listing cache, outbound calls and budget aborts.
func TestMetricsAfterAScriptedRun(t *testing.T) {
	a, _ := newTestApp(t, nil) // development: /metrics on the public router
	h := a.Handler()
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusInternalServerError)
	}))
	defer broken.Close()
	for _, c := range []struct {
		path string
		want int
	}{
		{"/", 200},
		{"/v1/dmns?endpoint=/v1/sparql", 200}, // the listing cache: a miss
		{"/v1/dmns?endpoint=/v1/sparql", 200}, // a hit
		{"/v1/dmns/no-such-model?endpoint=/v1/sparql", 404},
		{"/api/health", 200},
		{"/v1/nope/42", 404},
		{"/v1/dmns?endpoint=" + url.QueryEscape(broken.URL+"/sparql"), 502},
	} {
		if got := get(t, h, c.path); got != c.want {
			t.Fatalf("GET %s: %d, want %d", c.path, got, c.want)
		}
	}
	fams := metricstest.Check(t, h, []metricstest.Sample{
		{Name: "http_requests_total", Labels: []string{"server", "explorer", "route", "/", "method", "GET", "status", "200"}, Want: 1},
		{Name: "http_requests_total", Labels: []string{"route", "/v1/dmns", "method", "GET", "status", "200"}, Want: 2},
		{Name: "http_requests_total", Labels: []string{"route", "/v1/dmns", "method", "GET", "status", "502"}, Want: 1},
		{Name: "http_requests_total", Labels: []string{"route", "/v1/dmns/{identifier}", "method", "GET", "status", "404"}, Want: 1},
		{Name: "http_requests_total", Labels: []string{"route", "/api/health", "method", "GET", "status", "200"}, Want: 1},
		{Name: "http_requests_total", Labels: []string{"route", "unmatched", "method", "GET", "status", "404"}, Want: 1},
		{Name: "http_request_duration_seconds", Labels: []string{"route", "/v1/dmns", "method", "GET"}, Want: 3},
		{Name: "http_requests_in_flight", Labels: []string{"server", "explorer"}, Want: 0},
		// /v1/dmns twice and /v1/dmns/{identifier} once on the embedded
		// store: one miss, two hits; the broken endpoint: one more miss.
		{Name: "cache_misses_total", Labels: []string{"cache", "chain_listing"}, Want: 2},
		{Name: "cache_hits_total", Labels: []string{"cache", "chain_listing"}, Want: 2},
		{Name: "outbound_request_errors_total", Labels: []string{"target", "sparql", "kind", "status"}, Want: 1},
	})
	for _, name := range []string{"go_goroutines", "process_resident_memory_bytes", "outbound_request_duration_seconds"} {
		if fams[name] == nil {
			t.Errorf("no %s in the scrape", name)
		}
	}
	// The process gauges are there exactly when the engine has a process
	// side.
	_, processes := a.engine.(engine.Processes)
	for _, name := range []string{"engine_tasks_open", "engine_process_instances_running"} {
		if (fams[name] != nil) != processes {
			t.Errorf("%s in the scrape: %v; the engine implements engine.Processes: %v", name, fams[name] != nil, processes)
		}
		// The embedded engine answers: 0 or more, never -1.
		if v, ok := metricstest.Value(fams, name); ok && v < 0 {
			t.Errorf("%s = %v: the embedded engine did not answer the scrape", name, v)
		}
	}
}

func TestMetricsBudgetAborts(t *testing.T) {
	a, _ := newTestApp(t, map[string]string{"EVAL_MAX_ROWS": "1"})
	h := a.Handler()
	if got := get(t, h, "/v1/dmns?endpoint=/v1/sparql"); got != http.StatusBadRequest {
		t.Fatalf("GET /v1/dmns with EVAL_MAX_ROWS=1: %d, want 400 LIMIT_EXCEEDED", got)
	}
	fams, err := metricstest.ScrapeHandler(h, "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := metricstest.Value(fams, "limit_exceeded_total", "server", "explorer", "limit", "MaxRows"); v != 1 {
		t.Errorf("limit_exceeded_total{limit=MaxRows} = %v, want 1", v)
	}
}

// TestMetricsDistinctIDsAddNoSeries: 10,000 requests with distinct ids
// are counted under the route template, never as new series.
func TestMetricsDistinctIDsAddNoSeries(t *testing.T) {
	a, _ := newTestApp(t, nil)
	h := a.Handler()
	get(t, h, "/v1/dmns/first?endpoint=/v1/sparql")
	get(t, h, "/v1/unknown/first")
	before := metricstest.RequestSeries(t, h)
	for i := range 10000 {
		get(t, h, fmt.Sprintf("/v1/dmns/id-%d?endpoint=/v1/sparql", i))
		get(t, h, fmt.Sprintf("/v1/unknown/id-%d", i))
	}
	if after := metricstest.RequestSeries(t, h); after != before {
		t.Errorf("%d request series before, %d after 20,000 requests with distinct ids", before, after)
	}
}

// TestMetricsExposure: on the public router in development, off it in
// production unless METRICS=true, and only on the METRICS_ADDR listener
// when that is set.
func TestMetricsExposure(t *testing.T) {
	for _, c := range []struct {
		env    map[string]string
		public int
	}{
		{nil, 200},
		{map[string]string{"ENVIRONMENT": "production"}, 404},
		{map[string]string{"ENVIRONMENT": "production", "METRICS": "true"}, 200},
		{map[string]string{"ENVIRONMENT": "production", "METRICS_ADDR": ":9090"}, 404},
		{map[string]string{"METRICS_ADDR": "127.0.0.1:9090"}, 404},
	} {
		a, _ := newTestApp(t, c.env)
		if got := get(t, a.Handler(), "/metrics"); got != c.public {
			t.Errorf("%v: public GET /metrics %d, want %d", c.env, got, c.public)
		}
		if c.env["METRICS_ADDR"] != "" {
			if a.cfg.Metrics.Addr != c.env["METRICS_ADDR"] {
				t.Errorf("%v: Addr %q", c.env, a.cfg.Metrics.Addr)
			}
			if got := get(t, a.metrics.Only(), "/metrics"); got != 200 {
				t.Errorf("%v: the metrics listener answers %d", c.env, got)
			}
		}
	}
}

// TestMetricsAssetDatabase: the asset store's queries are timed under
// target "database".
func TestMetricsAssetDatabase(t *testing.T) {
	db := pgtest.New(t)
	a, _ := newTestApp(t, map[string]string{"DATABASE_URL": db.URL})
	h := a.Handler()
	if got := get(t, h, "/v1/assets/bpmn"); got != 200 {
		t.Fatalf("GET /v1/assets/bpmn: %d", got)
	}
	fams, err := metricstest.ScrapeHandler(h, "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := metricstest.Value(fams, "outbound_request_duration_seconds", "target", "database"); n < 1 {
		t.Errorf("database queries timed: %v, want at least 1", n)
	}
	if f, ok := metricstest.Value(fams, "outbound_request_errors_total", "target", "database", "kind", "query"); ok && f != 0 {
		t.Errorf("%v failed database queries", f)
	}
}
