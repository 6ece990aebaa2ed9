package server

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/regelkit/regelkit/servers/internal/metrics"
	"github.com/regelkit/regelkit/servers/internal/metrics/metricstest"
)

func editorApp(t *testing.T, env map[string]string) *app {
	t.Helper()
	cfg, _, err := loadConfig(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if err != nil {
		t.Fatal(err)
	}
	a, err := newApp(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestMetricsAfterAScriptedRun(t *testing.T) {
	a := editorApp(t, map[string]string{"METRICS": "true"})
	h := a.Handler()
	for _, c := range []struct {
		method, path string
		want         int
	}{
		{"GET", "/api/getSources", 200},
		{"GET", "/api/getSources", 200},
		{"GET", "/swagger", 200},
		{"GET", "/api/openapi.json", 200},
		{"GET", "/some/page/of/the/app", 200}, // the single-page app's history mode
	} {
		if got := send(h, c.method, c.path, "").Code; got != c.want {
			t.Fatalf("%s %s: %d, want %d", c.method, c.path, got, c.want)
		}
	}
	metricstest.Check(t, h, []metricstest.Sample{
		// The backend's own mux names the route.
		{Name: "http_requests_total", Labels: []string{"server", "editor", "route", "/api/getSources", "method", "GET", "status", "200"}, Want: 2},
		{Name: "http_requests_total", Labels: []string{"route", "/swagger", "method", "GET", "status", "200"}, Want: 1},
		{Name: "http_requests_total", Labels: []string{"route", "/api/openapi.json", "method", "GET", "status", "200"}, Want: 1},
		{Name: "http_requests_total", Labels: []string{"route", "/", "method", "GET", "status", "200"}, Want: 1},
		{Name: "http_request_duration_seconds", Labels: []string{"route", "/api/getSources", "method", "GET"}, Want: 2},
		{Name: "http_requests_in_flight", Labels: []string{"server", "editor"}, Want: 0},
	})
}

// TestMetricsSPARQLCalls: queries to a configured endpoint are timed
// under target "sparql", its 5xx answers counted.
func TestMetricsSPARQLCalls(t *testing.T) {
	endpoint := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusInternalServerError)
	}))
	defer endpoint.Close()
	a := editorApp(t, map[string]string{"METRICS": "true", "GRAPHSTORE_SPARQL_URL": endpoint.URL})
	h := a.Handler()
	if got := send(h, "GET", "/api/getSources", "").Code; got < 500 {
		t.Fatalf("sources from an endpoint that is down: %d, want 5xx", got)
	}
	fams, err := metricstest.ScrapeHandler(h, "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := metricstest.Value(fams, "outbound_request_errors_total", "target", "sparql", "kind", "status"); v != 1 {
		t.Errorf("sparql 5xx counted %v times, want 1", v)
	}
}

func TestMetricsDistinctIDsAddNoSeries(t *testing.T) {
	h := editorApp(t, map[string]string{"METRICS": "true"}).Handler()
	send(h, "GET", "/api/unknown/first", "")
	send(h, "GET", "/page/first", "")
	before := metricstest.RequestSeries(t, h)
	for i := range 10000 {
		send(h, "GET", fmt.Sprintf("/api/unknown/id-%d", i), "")
		send(h, "GET", fmt.Sprintf("/page/id-%d", i), "")
	}
	if after := metricstest.RequestSeries(t, h); after != before {
		t.Errorf("%d request series before, %d after 20,000 requests with distinct paths", before, after)
	}
}

// TestMetricsExposure: the editor has no deployment environment, so
// /metrics is off its public port unless METRICS=true.
func TestMetricsExposure(t *testing.T) {
	for _, c := range []struct {
		env    map[string]string
		want   metrics.Config
		public string // the start of the body: the metrics or the app's page
	}{
		{nil, metrics.Config{}, "<!"},
		{map[string]string{"METRICS": "true"}, metrics.Config{Public: true}, "# HELP"},
		{map[string]string{"METRICS_ADDR": ":9090"}, metrics.Config{Addr: ":9090"}, "<!"},
	} {
		a := editorApp(t, c.env)
		if a.cfg.Metrics != c.want {
			t.Errorf("%v: %+v, want %+v", c.env, a.cfg.Metrics, c.want)
		}
		body := send(a.Handler(), "GET", "/metrics", "", "Accept", "text/plain").Body.String()
		if len(body) < len(c.public) || body[:len(c.public)] != c.public {
			t.Errorf("%v: public GET /metrics starts %q, want %q", c.env, body[:min(len(body), 40)], c.public)
		}
		if got := send(a.metrics.Only(), "GET", "/metrics", "").Code; got != 200 {
			t.Errorf("%v: the metrics listener's handler answers %d", c.env, got)
		}
	}
}
