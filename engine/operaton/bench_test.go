package operaton

import (
	"context"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/internal/enginetest"
	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/engine/rest"
)

// BenchmarkEvaluateOverHTTP is the whole remote path on loopback: this
// client → engine/rest → engine/local, evaluating the 10-rule table.
func BenchmarkEvaluateOverHTTP(b *testing.B) {
	e := local.New(local.Options{})
	ctx := context.Background()
	if _, err := e.Deploy(ctx, engine.NewDeployment{Resources: []engine.Resource{{Name: "t.dmn", Data: enginetest.TenRuleTable()}}}); err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(rest.NewHandler(e, rest.Options{}))
	defer srv.Close()
	c, err := New(Config{BaseURL: srv.URL + "/engine-rest", HTTPClient: srv.Client()})
	if err != nil {
		b.Fatal(err)
	}
	vars := enginetest.TenRuleLastRule()
	res, err := c.Evaluate(ctx, enginetest.TenRuleKey, "", vars)
	if err != nil || !res[0]["result"].Equal(engine.String("result 9")) {
		b.Fatalf("%v %v", res, err)
	}
	var lat []time.Duration
	b.ReportAllocs()
	for b.Loop() {
		start := time.Now()
		if _, err := c.Evaluate(ctx, enginetest.TenRuleKey, "", vars); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[(len(lat)-1)*99/100].Microseconds()), "p99-µs")
}
