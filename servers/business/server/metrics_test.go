package server

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/regelkit/regelkit/engine/local/pgstore/pgtest"
	"github.com/regelkit/regelkit/servers/internal/metrics"
	"github.com/regelkit/regelkit/servers/internal/metrics/metricstest"
)

// send makes one request through the business API's real handler.
func send(t testing.TB, h http.Handler, method, path, body string, headers ...string) int {
	t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code
}

func TestMetricsAfterAScriptedRun(t *testing.T) {
	register := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusServiceUnavailable)
	}))
	defer register.Close()
	feed := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusInternalServerError)
	}))
	defer feed.Close()
	ta := newTestApp(t, map[string]string{"BRP_UPSTREAM_URL": register.URL, "BERICHTEN_FEED_URL": feed.URL,
		"ISSUE_TRACKER_BASE_URL": feed.URL, "ISSUE_TRACKER_TOKEN": "t", "ISSUE_TRACKER_PROJECT_PATH": "g/p"})
	h := ta.Handler()
	cw := bearer(ta.token(t, caseworker("utrecht")))
	for _, c := range []struct {
		method, path, body string
		headers            []string
		want               int
	}{
		{"GET", "/", "", nil, 200},
		{"POST", "/v1/decision/SVB_LeeftijdsInformatie/evaluate", leeftijdBody, cw, 200},
		{"POST", "/v1/decision/Nope/evaluate", "{}", cw, 404},
		{"POST", "/v1/decision/SVB_LeeftijdsInformatie/evaluate", leeftijdBody, nil, 401},
		{"GET", "/v1/nothing/here", "", nil, 404},
		{"GET", "/v1/public/nieuws", "", nil, 200}, // the embedded feed: a miss
		{"GET", "/v1/public/nieuws", "", nil, 200}, // a hit
		{"GET", "/v1/public/berichten", "", nil, 502},
		{"GET", "/v1/public/use-cases", "", nil, 502}, // the tracker is down too
		{"POST", "/v1/brp/personen", `{"type": "RaadpleegMetBurgerservicenummer", "burgerservicenummer": ["999992235"], "fields": ["naam"]}`, cw, 503},
	} {
		if got := send(t, h, c.method, c.path, c.body, c.headers...); got != c.want {
			t.Fatalf("%s %s: %d, want %d", c.method, c.path, got, c.want)
		}
	}
	fams := metricstest.Check(t, h, []metricstest.Sample{
		{Name: "http_requests_total", Labels: []string{"server", "business", "route", "/", "method", "GET", "status", "200"}, Want: 1},
		{Name: "http_requests_total", Labels: []string{"route", "/v1/decision/{key}/evaluate", "method", "POST", "status", "200"}, Want: 1},
		{Name: "http_requests_total", Labels: []string{"route", "/v1/decision/{key}/evaluate", "method", "POST", "status", "404"}, Want: 1},
		{Name: "http_requests_total", Labels: []string{"route", "/v1/decision/{key}/evaluate", "method", "POST", "status", "401"}, Want: 1},
		{Name: "http_requests_total", Labels: []string{"route", "unmatched", "method", "GET", "status", "404"}, Want: 1},
		{Name: "http_request_duration_seconds", Labels: []string{"route", "/v1/decision/{key}/evaluate", "method", "POST"}, Want: 3},
		{Name: "http_requests_in_flight", Labels: []string{"server", "business"}, Want: 0},
		{Name: "outbound_request_errors_total", Labels: []string{"target", "brp", "kind", "status"}, Want: 1},
		{Name: "outbound_request_errors_total", Labels: []string{"target", "upstream", "kind", "status"}, Want: 2},
		{Name: "cache_misses_total", Labels: []string{"cache", "news"}, Want: 1},
		{Name: "cache_hits_total", Labels: []string{"cache", "news"}, Want: 1},
		{Name: "cache_misses_total", Labels: []string{"cache", "berichten"}, Want: 1},
		{Name: "http_requests_total", Labels: []string{"route", "/v1/public/nieuws", "method", "GET", "status", "200"}, Want: 2},
		{Name: "audit_dropped_total", Labels: []string{"server", "business"}, Want: 0},
		{Name: "audit_failed_total", Labels: []string{"server", "business"}, Want: 0},
	})
	for _, name := range []string{"audit_queue_depth", "go_goroutines", "process_open_fds"} {
		if fams[name] == nil {
			t.Errorf("no %s in the scrape", name)
		}
	}
	// The register's number travels in the request body: never in a label.
	for name, f := range fams {
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if strings.Contains(l.GetValue(), "999992235") {
					t.Errorf("%s carries the citizen number in %s", name, l.GetName())
				}
			}
		}
	}
}

// TestMetricsAuditDatabase: the audit log's queries are timed under
// target "database".
func TestMetricsAuditDatabase(t *testing.T) {
	db := pgtest.New(t)
	ta := newTestApp(t, map[string]string{"DATABASE_URL": db.URL})
	h := ta.Handler()
	cw := bearer(ta.token(t, caseworker("utrecht")))
	if got := send(t, h, "POST", "/v1/decision/SVB_LeeftijdsInformatie/evaluate", leeftijdBody, cw...); got != 200 {
		t.Fatalf("evaluate: %d", got)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		fams, err := metricstest.ScrapeHandler(h, "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		if n, _ := metricstest.Value(fams, "outbound_request_duration_seconds", "target", "database"); n > 0 {
			if f, _ := metricstest.Value(fams, "outbound_request_errors_total", "target", "database", "kind", "query"); f != 0 {
				t.Errorf("%v failed database queries", f)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("no database query timed 10 s after an audited request")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestMetricsDistinctIDsAddNoSeries: 10,000 requests with distinct keys
// are counted under the route template.
func TestMetricsDistinctIDsAddNoSeries(t *testing.T) {
	ta := newTestApp(t, map[string]string{"RATE_LIMIT_MAX_REQUESTS": "100000"})
	h := ta.Handler()
	send(t, h, "POST", "/v1/decision/first/evaluate", "{}")
	send(t, h, "GET", "/v1/unknown/first", "")
	before := metricstest.RequestSeries(t, h)
	for i := range 10000 {
		if got := send(t, h, "POST", fmt.Sprintf("/v1/decision/key-%d/evaluate", i), "{}"); got != 401 {
			t.Fatalf("request %d: %d, want 401", i, got)
		}
		send(t, h, "GET", fmt.Sprintf("/v1/unknown/id-%d", i), "")
	}
	if after := metricstest.RequestSeries(t, h); after != before {
		t.Errorf("%d request series before, %d after 20,000 requests with distinct ids", before, after)
	}
}

// TestMetricsExposure: on the public port in development, off it outside
// development unless METRICS=true, and only on the METRICS_ADDR listener
// when that is set.
func TestMetricsExposure(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want metrics.Config
	}{
		{nil, metrics.Config{Public: true}},
		{map[string]string{"DEPLOYMENT_ENV": "test"}, metrics.Config{Public: true}},
		{map[string]string{"DEPLOYMENT_ENV": "production"}, metrics.Config{}},
		{map[string]string{"DEPLOYMENT_ENV": "acceptance", "METRICS": "true"}, metrics.Config{Public: true}},
		{map[string]string{"DEPLOYMENT_ENV": "production", "METRICS_ADDR": ":9090"}, metrics.Config{Addr: ":9090"}},
		{map[string]string{"METRICS_ADDR": ":9090"}, metrics.Config{Addr: ":9090"}},
	} {
		if got := configFrom(t, c.env).Metrics; got != c.want {
			t.Errorf("%v: %+v, want %+v", c.env, got, c.want)
		}
	}
	for _, c := range []struct {
		env    map[string]string
		public int
	}{
		{nil, 200},
		{map[string]string{"METRICS": "false"}, 404},
		{map[string]string{"METRICS_ADDR": "127.0.0.1:9090"}, 404},
	} {
		ta := newTestApp(t, c.env)
		if got := send(t, ta.Handler(), "GET", "/metrics", ""); got != c.public {
			t.Errorf("%v: public GET /metrics %d, want %d", c.env, got, c.public)
		}
		if got := send(t, ta.metrics.Only(), "GET", "/metrics", ""); got != 200 {
			t.Errorf("%v: the metrics listener's handler answers %d", c.env, got)
		}
	}
}
