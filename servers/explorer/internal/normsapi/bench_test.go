package normsapi_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/regelkit/regelkit/norms"
	"github.com/regelkit/regelkit/servers/explorer/internal/normsapi"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
)

// benchHandler is the real router behind the real middleware over the
// embedded example knowledge graph.
func benchHandler(b *testing.B) http.Handler {
	store := exampleStore(b)
	r := httpapi.NewRouter(httpapi.RouterOptions{})
	normsapi.Register(r, normsapi.Deps{Service: norms.NewService(norms.Options{}), Endpoint: store})
	return httpapi.Middleware(r, httpapi.MiddlewareOptions{Version: "bench"})
}

// serve sends one GET and returns the recorder.
func serve(h http.Handler, path string, headers ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodGet, path, nil)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// measure runs one request per iteration, records every latency and
// reports the median and the 99th percentile in microseconds.
func measure(b *testing.B, h http.Handler, want int, path string, headers ...string) {
	b.Helper()
	var lat []time.Duration
	for b.Loop() {
		start := time.Now()
		rec := serve(h, path, headers...)
		lat = append(lat, time.Since(start))
		if rec.Code != want {
			b.Fatalf("status %d, want %d", rec.Code, want)
		}
	}
	slices.Sort(lat)
	at := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Nanoseconds()) / 1e3 }
	b.ReportMetric(at(0.50), "p50-µs")
	b.ReportMetric(at(0.99), "p99-µs")
}

// BenchmarkNotModified is a conditional request for one ruleset answered
// 304 by the short-circuit (target: p99 under 2 ms).
func BenchmarkNotModified(b *testing.B) {
	h := benchHandler(b)
	path := "/v1/norms?rulesetid=BWBR0015703"
	etag := serve(h, path).Header().Get("ETag")
	measure(b, h, http.StatusNotModified, path, "If-None-Match", etag)
}

// BenchmarkFullSingleRuleset is the same request without a validator: the
// rules query and the encoding run every time.
func BenchmarkFullSingleRuleset(b *testing.B) {
	h := benchHandler(b)
	measure(b, h, http.StatusOK, "/v1/norms?rulesetid=BWBR0015703")
}
