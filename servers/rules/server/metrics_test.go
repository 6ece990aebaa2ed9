package server

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/regelkit/regelkit/servers/internal/metrics"
	"github.com/regelkit/regelkit/servers/internal/metrics/metricstest"
)

func rulesApp(t *testing.T, env map[string]string) *app {
	t.Helper()
	a, err := newApp(testConfig(t, env), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func status(h http.Handler, path string) int {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
	return rec.Code
}

func TestMetricsAfterAScriptedRun(t *testing.T) {
	h := rulesApp(t, nil).Handler()
	for _, c := range []struct {
		path string
		want int
	}{
		{"/", 200},
		{"/methods", 200},
		{"/rules/BWBR0015703_2025-07-01_0,Artikel%2020", 200},
		{"/rules/BWBR0015703_2025-07-01_0,Artikel%2099999", 404},
		{"/nothing/here", 404},
	} {
		if got := status(h, c.path); got != c.want {
			t.Fatalf("GET %s: %d, want %d", c.path, got, c.want)
		}
	}
	fams := metricstest.Check(t, h, []metricstest.Sample{
		{Name: "http_requests_total", Labels: []string{"server", "rules", "route", "/", "method", "GET", "status", "200"}, Want: 1},
		{Name: "http_requests_total", Labels: []string{"route", "/methods", "method", "GET", "status", "200"}, Want: 1},
		{Name: "http_requests_total", Labels: []string{"route", "/rules/{rule_id_path:.+}", "method", "GET", "status", "200"}, Want: 1},
		{Name: "http_requests_total", Labels: []string{"route", "/rules/{rule_id_path:.+}", "method", "GET", "status", "404"}, Want: 1},
		{Name: "http_requests_total", Labels: []string{"route", "unmatched", "method", "GET", "status", "404"}, Want: 1},
		{Name: "http_request_duration_seconds", Labels: []string{"route", "/rules/{rule_id_path:.+}", "method", "GET"}, Want: 2},
		{Name: "http_requests_in_flight", Labels: []string{"server", "rules"}, Want: 0},
	})
	if fams["go_goroutines"] == nil {
		t.Error("no Go runtime series")
	}
}

// TestMetricsRepositoryCalls: calls to the publication repository are
// timed, and its 5xx answers counted, under target "repository".
func TestMetricsRepositoryCalls(t *testing.T) {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusInternalServerError)
	}))
	defer upstream.Close()
	h := rulesApp(t, map[string]string{"RULES_REPOSITORY": "http", "RULES_OFFICIAL_REPOSITORY_URL": upstream.URL,
		"RULES_SRU_URL": upstream.URL + "/sru"}).Handler()
	if got := status(h, "/rules/BWBR0015703_2025-07-01_0"); got != http.StatusBadGateway {
		t.Fatalf("a repository that is down: %d, want 502", got)
	}
	fams, err := metricstest.ScrapeHandler(h, "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	calls, _ := metricstest.Value(fams, "outbound_request_duration_seconds", "target", "repository")
	failed, _ := metricstest.Value(fams, "outbound_request_errors_total", "target", "repository", "kind", "status")
	if calls < 1 || failed != calls {
		t.Errorf("repository calls %v, 5xx %v; want at least one, all failed", calls, failed)
	}
}

func TestMetricsDistinctIDsAddNoSeries(t *testing.T) {
	h := rulesApp(t, nil).Handler()
	status(h, "/rules/BWBR9000000_2025-07-01_0")
	status(h, "/unknown/first")
	before := metricstest.RequestSeries(t, h)
	for i := range 10000 {
		status(h, fmt.Sprintf("/rules/BWBR%07d_2025-07-01_0", i))
		status(h, fmt.Sprintf("/unknown/id-%d", i))
	}
	if after := metricstest.RequestSeries(t, h); after != before {
		t.Errorf("%d request series before, %d after 20,000 requests with distinct ids", before, after)
	}
}

func TestMetricsExposure(t *testing.T) {
	for _, c := range []struct {
		env    map[string]string
		want   metrics.Config
		public int
	}{
		{nil, metrics.Config{Public: true}, 200},
		{map[string]string{"ENVIRONMENT": "production"}, metrics.Config{}, 404},
		{map[string]string{"ENVIRONMENT": "acceptance", "METRICS": "true"}, metrics.Config{Public: true}, 200},
		{map[string]string{"ENVIRONMENT": "production", "METRICS_ADDR": ":9090"}, metrics.Config{Addr: ":9090"}, 404},
	} {
		a := rulesApp(t, c.env)
		if a.cfg.Metrics != c.want {
			t.Errorf("%v: %+v, want %+v", c.env, a.cfg.Metrics, c.want)
		}
		if got := status(a.Handler(), "/metrics"); got != c.public {
			t.Errorf("%v: public GET /metrics %d, want %d", c.env, got, c.public)
		}
		if got := status(a.metrics.Only(), "/metrics"); got != 200 {
			t.Errorf("%v: the metrics listener's handler answers %d", c.env, got)
		}
	}
}
