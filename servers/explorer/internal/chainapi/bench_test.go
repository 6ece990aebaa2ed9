package chainapi_test

import (
	"context"
	"net/url"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/regelkit/regelkit/chain"
	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/servers/explorer/internal/chainapi"
	"github.com/regelkit/regelkit/servers/internal/apitest"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/sparql"
	"github.com/regelkit/regelkit/sparql/memstore"
	"github.com/regelkit/regelkit/sparql/memstore/catalog"
)

// reportLatencies reports the median and the 99th percentile of per-request
// latencies in milliseconds.
func reportLatencies(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	pct := func(p float64) float64 {
		i := int(float64(len(lat)-1) * p)
		return float64(lat[i].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
}

// BenchmarkLocalPassHTTP posts the worked example to
// /v1/chains/execute/localpass over real HTTP on the embedded defaults.
func BenchmarkLocalPassHTTP(b *testing.B) {
	for _, steps := range []bool{false, true} {
		name := "final"
		if steps {
			name = "withSteps"
		}
		b.Run(name, func(b *testing.B) {
			e := newEnv(b, nil)
			body := map[string]any{"inputs": workedExample(), "options": map[string]any{"includeIntermediateSteps": steps}}
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for b.Loop() {
				start := time.Now()
				resp := e.c.Post("/v1/chains/execute/localpass", body)
				lat = append(lat, time.Since(start))
				if resp.Status != 200 {
					b.Fatalf("status %d: %s", resp.Status, resp.Body)
				}
			}
			reportLatencies(b, lat)
		})
	}
}

var (
	catalogueOnce  sync.Once
	catalogueStore *memstore.Store
)

// catalogue is the generated 10,000-model knowledge graph (~500,000
// triples), built once per test binary.
func catalogue() *memstore.Store {
	catalogueOnce.Do(func() {
		catalogueStore = memstore.New()
		catalogueStore.Add(slices.Collect(catalog.Quads(catalog.Options{Models: 10000}))...)
	})
	return catalogueStore
}

const catalogueURL = "https://catalogue.test/sparql"

func catalogueClient(t testing.TB) *apitest.Client {
	store := catalogue()
	r := httpapi.NewRouter(httpapi.RouterOptions{})
	chainapi.Register(r, chainapi.Deps{
		Resolve: func(context.Context, string) (sparql.Endpoint, error) { return store, nil },
		Catalog: &chain.Catalog{},
		Engine:  local.New(local.Options{}),
	})
	return apitest.New(t, httpapi.Middleware(r, httpapi.MiddlewareOptions{Version: "bench"}))
}

// BenchmarkListDMNsCatalogue is GET /v1/dmns over the 10,000-model
// catalogue: uncached (refresh=true: every listing query runs) and cached.
func BenchmarkListDMNsCatalogue(b *testing.B) {
	c := catalogueClient(b)
	path := "/v1/dmns?endpoint=" + url.QueryEscape(catalogueURL)
	for _, tc := range []struct{ name, suffix string }{{"uncached", "&refresh=true"}, {"cached", ""}} {
		b.Run(tc.name, func(b *testing.B) {
			c.Get(path).ExpectStatus(b, 200) // fill the cache
			lat := make([]time.Duration, 0, b.N)
			var size int
			b.ResetTimer()
			for b.Loop() {
				start := time.Now()
				resp := c.Get(path + tc.suffix)
				lat = append(lat, time.Since(start))
				if resp.Status != 200 {
					b.Fatalf("status %d", resp.Status)
				}
				size = len(resp.Body)
			}
			b.ReportMetric(float64(size)/(1<<20), "MB/response")
			reportLatencies(b, lat)
		})
	}
}

// TestListDMNsCatalogue lists the 10,000-model catalogue over HTTP: the
// first call runs the listing queries, the second is served from the
// cache. Wall-clock figures are logged, not asserted: they depend on the
// machine's load (the targets are under 2 s and under 50 ms; see doc.go).
func TestListDMNsCatalogue(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 500,000-triple catalogue")
	}
	c := catalogueClient(t)
	path := "/v1/dmns?endpoint=" + url.QueryEscape(catalogueURL)
	for i, wantCached := range []bool{false, true} {
		start := time.Now()
		resp := c.Get(path)
		took := time.Since(start)
		var d struct {
			DMNs   []chain.Model `json:"dmns"`
			Cached bool          `json:"cached"`
		}
		resp.Data(t, 200, &d)
		if len(d.DMNs) != 10000 || d.Cached != wantCached {
			t.Fatalf("call %d: %d models, cached %v", i+1, len(d.DMNs), d.Cached)
		}
		if n := len(d.DMNs[42].Inputs) + len(d.DMNs[42].Outputs); n != 5 {
			t.Errorf("model %s has %d variables, want 3 inputs and 2 outputs", d.DMNs[42].Identifier, n)
		}
		t.Logf("GET /v1/dmns, 10,000 models, cached=%v: %v (%.1f MB)", d.Cached, took, float64(len(resp.Body))/(1<<20))
	}
}
