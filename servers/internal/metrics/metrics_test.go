package metrics_test

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

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/servers/internal/envconfig"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/lifecycle"
	"github.com/regelkit/regelkit/servers/internal/metrics"
	"github.com/regelkit/regelkit/servers/internal/metrics/metricstest"
	"github.com/regelkit/regelkit/servers/internal/openapi"
)

// rowsError has the shape of every engine's LimitError.
type rowsError struct{}

func (rowsError) Error() string         { return "test: query exceeded MaxRows (10 solutions)" }
func (rowsError) LimitExceeded() string { return "MaxRows" }

// newServer is a real httpapi router behind the real middleware, as the
// servers build it, with a few routes.
func newServer(t testing.TB, cfg metrics.Config) (*metrics.Metrics, http.Handler) {
	t.Helper()
	m := metrics.New(metrics.Options{Server: "test", Config: cfg})
	r := httpapi.NewRouter(httpapi.RouterOptions{OnLimit: m.LimitExceeded})
	metrics.MuxTemplates(r.Mux())
	r.Handle("GET", "/v1/task/{id}", func(w http.ResponseWriter, req *http.Request) error {
		return httpapi.WriteData(w, http.StatusOK, "ok")
	}, openapi.Operation{}, httpapi.Legacy())
	r.Handle("GET", "/v1/rows", func(w http.ResponseWriter, req *http.Request) error {
		return fmt.Errorf("evaluating: %w", rowsError{})
	}, openapi.Operation{})
	r.Handle("GET", "/v1/big", func(w http.ResponseWriter, req *http.Request) error {
		return httpapi.WriteData(w, http.StatusOK, strings.Repeat("x", 200))
	}, openapi.Operation{}, httpapi.ResponseLimit(64))
	return m, m.Wrap(httpapi.Middleware(r, httpapi.MiddlewareOptions{Version: "test"}))
}

func do(t testing.TB, h http.Handler, method, path string) int {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(method, path, nil))
	return rec.Code
}

func value(t *testing.T, h http.Handler, name string, labels ...string) float64 {
	t.Helper()
	fams, err := metricstest.ScrapeHandler(h, "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	v, ok := metricstest.Value(fams, name, labels...)
	if !ok {
		t.Fatalf("no %s%v in the scrape", name, labels)
	}
	return v
}

func TestRouteTemplatesAndStatuses(t *testing.T) {
	_, h := newServer(t, metrics.Config{Public: true})
	for _, p := range []string{"/v1/task/1", "/v1/task/2", "/api/task/3"} {
		if c := do(t, h, "GET", p); c != 200 {
			t.Fatalf("GET %s: %d", p, c)
		}
	}
	do(t, h, "GET", "/v1/nothing/here")
	do(t, h, "POST", "/v1/task/1") // 405
	do(t, h, "BREW", "/v1/task/1") // an invented method
	do(t, h, "GET", "/v1/rows")    // 400 LIMIT_EXCEEDED MaxRows
	do(t, h, "GET", "/v1/big")     // 400 LIMIT_EXCEEDED MaxResponseBytes
	fams := metricstest.Check(t, h, []metricstest.Sample{
		{Name: "http_requests_total", Labels: []string{"route", "/v1/task/{id}", "method", "GET", "status", "200", "server", "test"}, Want: 2},
		{Name: "http_requests_total", Labels: []string{"route", "/api/task/{id}", "method", "GET", "status", "200"}, Want: 1},
		{Name: "http_requests_total", Labels: []string{"route", "unmatched", "method", "GET", "status", "404"}, Want: 1},
		{Name: "http_requests_total", Labels: []string{"route", "unmatched", "method", "POST", "status", "405"}, Want: 1},
		{Name: "http_requests_total", Labels: []string{"route", "unmatched", "method", "OTHER", "status", "405"}, Want: 1},
		{Name: "http_requests_total", Labels: []string{"route", "/v1/rows", "method", "GET", "status", "400"}, Want: 1},
		{Name: "http_request_duration_seconds", Labels: []string{"route", "/v1/task/{id}", "method", "GET"}, Want: 2},
		{Name: "http_requests_in_flight", Labels: []string{"server", "test"}, Want: 0},
		{Name: "limit_exceeded_total", Labels: []string{"limit", "MaxRows"}, Want: 1},
		{Name: "limit_exceeded_total", Labels: []string{"limit", "MaxResponseBytes"}, Want: 1},
	})
	for _, name := range []string{"go_goroutines", "process_cpu_seconds_total"} {
		if fams[name] == nil {
			t.Errorf("no %s: the runtime and process collectors are missing", name)
		}
	}
	// The scrape itself is not counted.
	if _, ok := metricstest.Value(fams, "http_requests_total", "route", "/metrics"); ok {
		t.Error("scrapes are counted as requests")
	}
}

func TestDistinctIDsAddNoSeries(t *testing.T) {
	_, h := newServer(t, metrics.Config{Public: true})
	for i := range 10 {
		do(t, h, "GET", fmt.Sprintf("/v1/task/%d", i))
		do(t, h, "GET", fmt.Sprintf("/v1/unknown/%d", i))
	}
	before, err := metricstest.ScrapeHandler(h, "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 10000 {
		do(t, h, "GET", fmt.Sprintf("/v1/task/id-%d", i))
		do(t, h, "GET", fmt.Sprintf("/v1/unknown/id-%d", i))
	}
	after, err := metricstest.ScrapeHandler(h, "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"http_requests_total", "http_request_duration_seconds"} {
		if b, a := len(before[name].GetMetric()), len(after[name].GetMetric()); a != b {
			t.Errorf("%s: %d series before, %d after 20000 requests with distinct ids", name, b, a)
		}
	}
	v, _ := metricstest.Value(after, "http_requests_total", "route", "/v1/task/{id}", "status", "200")
	if v != 10010 {
		t.Errorf("requests counted under /v1/task/{id}: %v, want 10010", v)
	}
}

func TestWrapServesMetricsOnlyWhenPublic(t *testing.T) {
	_, h := newServer(t, metrics.Config{})
	if c := do(t, h, "GET", "/metrics"); c != http.StatusNotFound {
		t.Errorf("GET /metrics with Public off: %d, want 404 from the router", c)
	}
	m, h := newServer(t, metrics.Config{Public: true})
	if c := do(t, h, "GET", "/metrics"); c != http.StatusOK {
		t.Errorf("GET /metrics with Public on: %d, want 200", c)
	}
	only := m.Only()
	if c := do(t, only, "GET", "/metrics"); c != 200 {
		t.Errorf("metrics listener GET /metrics: %d", c)
	}
	if c := do(t, only, "GET", "/v1/task/1"); c != http.StatusNotFound {
		t.Errorf("metrics listener GET /v1/task/1: %d, want 404", c)
	}
}

func TestRead(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		def  metrics.Config
		want metrics.Config
	}{
		{nil, metrics.Config{Public: true}, metrics.Config{Public: true}},                      // development
		{nil, metrics.Config{}, metrics.Config{}},                                              // production
		{map[string]string{"METRICS": "true"}, metrics.Config{}, metrics.Config{Public: true}}, // enabled in production
		{map[string]string{"METRICS_ADDR": ":9090"}, metrics.Config{}, metrics.Config{Addr: ":9090"}},
		{map[string]string{"METRICS_ADDR": ":9090"}, metrics.Config{Public: true}, metrics.Config{Addr: ":9090"}},
		{map[string]string{"METRICS_ADDR": ":9090", "METRICS": "on"}, metrics.Config{}, metrics.Config{Addr: ":9090", Public: true}},
	} {
		env := envconfig.FromMap(c.env)
		if got := metrics.Read(env, c.def); got != c.want || env.Err() != nil {
			t.Errorf("Read(%v, default %+v) = %+v (%v), want %+v", c.env, c.def, got, env.Err(), c.want)
		}
	}
	env := envconfig.FromMap(map[string]string{"METRICS": "maybe"})
	metrics.Read(env, metrics.Config{})
	if env.Err() == nil || !strings.Contains(env.Err().Error(), "METRICS") {
		t.Errorf("METRICS=maybe: error %v", env.Err())
	}
}

// freeAddr finds a loopback port nothing listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

func TestMetricsListener(t *testing.T) {
	if l := metrics.New(metrics.Options{Server: "test"}).Listeners("test", nil); len(l) != 0 {
		t.Fatalf("listeners without METRICS_ADDR: %+v", l)
	}
	addr := freeAddr(t)
	m := metrics.New(metrics.Options{Server: "test", Config: metrics.Config{Addr: addr}})
	m.LimitExceeded("Timeout")
	ls := m.Listeners("test", nil)
	if len(ls) != 1 || ls[0].Addr != addr {
		t.Fatalf("listeners: %+v", ls)
	}
	ctx, cancel := context.WithCancel(t.Context())
	lc := lifecycle.New(lifecycle.Options{Grace: time.Second})
	done := make(chan error, 1)
	go func() { done <- lc.Run(ctx, ls...) }()
	var resp *http.Response
	var err error
	for range 100 { // the listener opens in Run's goroutine
		if resp, err = http.Get("http://" + addr + "/metrics"); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	fams, err := metricstest.Scrape(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := metricstest.Value(fams, "limit_exceeded_total", "limit", "Timeout"); v != 1 {
		t.Errorf("the listener's scrape: limit_exceeded_total %v, want 1", v)
	}
	other, err := http.Get("http://" + addr + "/v1/health")
	if err != nil {
		t.Fatal(err)
	}
	other.Body.Close()
	if other.StatusCode != http.StatusNotFound {
		t.Errorf("the metrics listener answers /v1/health with %d, want 404", other.StatusCode)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the metrics listener did not stop")
	}
}

func TestTransportAndCache(t *testing.T) {
	m, h := newServer(t, metrics.Config{Public: true})
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/fail" {
			w.WriteHeader(http.StatusBadGateway)
		}
	}))
	c := m.Client("engine", up.Client())
	for _, p := range []string{"/ok", "/ok", "/fail"} {
		resp, err := c.Get(up.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	up.Close()
	if _, err := c.Get(up.URL + "/gone"); err == nil {
		t.Fatal("a closed server answered")
	}
	if got := value(t, h, "outbound_request_duration_seconds", "target", "engine"); got != 4 {
		t.Errorf("engine calls timed: %v, want 4", got)
	}
	if got := value(t, h, "outbound_request_errors_total", "target", "engine", "kind", "status"); got != 1 {
		t.Errorf("engine 5xx: %v, want 1", got)
	}
	if got := value(t, h, "outbound_request_errors_total", "target", "engine", "kind", "transport"); got != 1 {
		t.Errorf("engine transport errors: %v, want 1", got)
	}

	lc := m.Cache("chain_listing")
	lc.Observe(true)
	lc.Observe(true)
	lc.Observe(false)
	if got := value(t, h, "cache_hits_total", "cache", "chain_listing"); got != 2 {
		t.Errorf("hits %v, want 2", got)
	}
	if got := value(t, h, "cache_misses_total", "cache", "chain_listing"); got != 1 {
		t.Errorf("misses %v, want 1", got)
	}

	depth := 7.0
	m.GaugeFunc("audit_queue_depth", "test", func() float64 { return depth })
	if got := value(t, h, "audit_queue_depth", "server", "test"); got != 7 {
		t.Errorf("gauge %v, want 7", got)
	}
}

// processes answers the two queries a scrape makes; the rest of
// engine.Processes is not called (no engine in the tree implements it yet).
type processes struct {
	engine.Processes
	instances int
	err       error
}

func (p processes) ProcessInstances(ctx context.Context, q engine.ProcessInstanceQuery) ([]engine.ProcessInstance, error) {
	if q.MaxResults <= 0 {
		return nil, errors.New("unbounded instance listing")
	}
	return make([]engine.ProcessInstance, min(p.instances, q.MaxResults)), p.err
}

func (p processes) TaskCount(ctx context.Context, q engine.TaskQuery) (int, error) { return 3, p.err }

// counting also counts instances itself.
type counting struct{ processes }

func (counting) ProcessInstanceCount(ctx context.Context, q engine.ProcessInstanceQuery) (int, error) {
	return 4321, nil
}

func TestEngineGauges(t *testing.T) {
	m, h := newServer(t, metrics.Config{Public: true})
	m.Engine(processes{instances: 12})
	if got := value(t, h, "engine_process_instances_running"); got != 12 {
		t.Errorf("running instances %v, want 12", got)
	}
	m, h = newServer(t, metrics.Config{Public: true})
	m.Engine(processes{instances: 5000})
	if got := value(t, h, "engine_process_instances_running"); got != 1000 {
		t.Errorf("running instances listed %v, want the cap 1000", got)
	}
	m, h = newServer(t, metrics.Config{Public: true})
	m.Engine(counting{processes{instances: 5000}})
	if got := value(t, h, "engine_process_instances_running"); got != 4321 {
		t.Errorf("running instances of an engine that counts %v, want its count 4321", got)
	}
	if got := value(t, h, "engine_tasks_open"); got != 3 {
		t.Errorf("open tasks %v, want 3", got)
	}
	m, h = newServer(t, metrics.Config{Public: true})
	m.Engine(processes{err: errors.New("down")})
	if got := value(t, h, "engine_tasks_open"); got != -1 {
		t.Errorf("open tasks of an engine that is down: %v, want -1", got)
	}
	m, h = newServer(t, metrics.Config{Public: true})
	m.Engine(struct{}{}) // a decision-only engine
	fams, _ := metricstest.ScrapeHandler(h, "/metrics")
	if fams["engine_tasks_open"] != nil {
		t.Error("engine gauges registered for an engine without processes")
	}
}

func TestTwoServersInOneProcess(t *testing.T) {
	a := metrics.New(metrics.Options{Server: "a"})
	b := metrics.New(metrics.Options{Server: "b"})
	a.LimitExceeded("Timeout")
	fa, _ := metricstest.ScrapeHandler(a.Handler(), "/metrics")
	fb, _ := metricstest.ScrapeHandler(b.Handler(), "/metrics")
	if v, _ := metricstest.Value(fa, "limit_exceeded_total", "server", "a", "limit", "Timeout"); v != 1 {
		t.Errorf("a: %v", v)
	}
	if _, ok := metricstest.Value(fb, "limit_exceeded_total", "limit", "Timeout"); ok {
		t.Error("b sees a's series")
	}
	a.LimitExceeded("MaxEverything")
	fa, _ = metricstest.ScrapeHandler(a.Handler(), "/metrics")
	if v, _ := metricstest.Value(fa, "limit_exceeded_total", "limit", "other"); v != 1 {
		t.Errorf("an unknown limit name: %v under other, want 1", v)
	}
}

// BenchmarkMiddleware measures what instrumenting costs per request: the
// same route through the servers' middleware chain, without and with
// Wrap and MuxTemplates.
//
//	go test ./servers/internal/metrics -run XXX -bench Middleware -benchtime 200000x -count 5
func BenchmarkMiddleware(b *testing.B) {
	ok := func(w http.ResponseWriter, r *http.Request) error { w.WriteHeader(http.StatusNoContent); return nil }
	build := func(m *metrics.Metrics) http.Handler {
		r := httpapi.NewRouter(httpapi.RouterOptions{})
		r.Handle("GET", "/v1/task/{id}", ok, openapi.Operation{})
		h := httpapi.Middleware(r, httpapi.MiddlewareOptions{Version: "bench"})
		if m == nil {
			return h
		}
		metrics.MuxTemplates(r.Mux())
		return m.Wrap(h)
	}
	for _, c := range []struct {
		name string
		h    http.Handler
	}{
		{"bare", build(nil)},
		{"instrumented", build(metrics.New(metrics.Options{Server: "bench", Config: metrics.Config{Public: true}}))},
	} {
		b.Run(c.name, func(b *testing.B) {
			req := httptest.NewRequest("GET", "/v1/task/42", nil)
			b.ReportAllocs()
			for b.Loop() {
				w := httptest.NewRecorder()
				c.h.ServeHTTP(w, req)
			}
		})
	}
}
