package server

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/regelkit/regelkit/norms/cprmv"
)

// BenchmarkCachedRulePath serves one narrowed cprmv-json path of a cached
// rule set through the real handler chain (middleware, router, service)
// and reports the latency percentiles.
//
//	go test ./servers/rules -run XXX -bench CachedRulePath -benchtime 20000x
func BenchmarkCachedRulePath(b *testing.B) {
	a, _ := newTestServer(b, nil, cprmv.Limits{})
	h := a.Handler()
	const path = "/rules/BWBR0015703_2025-07-01_0,Artikel%2020,lid%201"
	serve := func() time.Duration {
		start := time.Now()
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
		if w.Code != http.StatusOK {
			b.Fatalf("%d %s", w.Code, w.Body)
		}
		return time.Since(start)
	}
	serve() // fills the cache
	lat := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		lat = append(lat, serve())
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}
