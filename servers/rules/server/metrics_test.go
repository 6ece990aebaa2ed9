package server

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/regelkit/regelkit/servers/internal/lifecycle"
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

// freePort finds a loopback port nothing listens on.
func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
}

// TestMetricsListenerInProduction runs the rules API as its main does,
// in production with METRICS_ADDR: the metrics listener serves /metrics,
// the public port does not.
func TestMetricsListenerInProduction(t *testing.T) {
	port, mport := freePort(t), freePort(t)
	env := map[string]string{"ENVIRONMENT": "production", "HOST": "127.0.0.1", "PORT": port,
		"METRICS_ADDR": "127.0.0.1:" + mport, "SHUTDOWN_DELAY": "0s"}
	s, err := New(t.Context(), Options{Lookup: func(k string) (string, bool) { v, ok := env[k]; return v, ok },
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx, cancel := context.WithCancel(t.Context())
	lc := lifecycle.New(s.Shutdown())
	done := make(chan error, 1)
	go func() { done <- lc.Run(ctx, s.Listeners(lc)...) }()
	get := func(url string) (int, string) {
		t.Helper()
		var resp *http.Response
		var err error
		for range 100 { // the listeners open in Run's goroutine
			if resp, err = http.Get(url); err == nil {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, _ := get("http://127.0.0.1:" + port + "/"); code != 200 {
		t.Fatalf("GET / on the public port: %d", code)
	}
	if code, _ := get("http://127.0.0.1:" + port + "/metrics"); code != 404 {
		t.Errorf("GET /metrics on the public port in production: %d, want 404", code)
	}
	code, body := get("http://127.0.0.1:" + mport + "/metrics")
	if code != 200 || !strings.Contains(body, `http_requests_total{method="GET",route="/",server="rules",status="200"} 1`) {
		t.Errorf("GET /metrics on METRICS_ADDR: %d\n%s", code, body)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the rules API did not stop")
	}
}
