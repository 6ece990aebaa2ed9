package metrics

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
)

// Database returns a pgx query tracer (pgx.ConnConfig.Tracer) that times
// every query and exec under target ("database") in
// outbound_request_duration_seconds and counts the failed ones with
// kind="query". A nil Metrics returns nil, which pgx treats as no tracer.
func (m *Metrics) Database(target string) pgx.QueryTracer {
	if m == nil {
		return nil
	}
	return &queryTracer{
		duration: m.outDuration.WithLabelValues(target),
		failed:   m.outErrors.WithLabelValues(target, "query"),
	}
}

type queryTracer struct {
	duration interface{ Observe(float64) }
	failed   interface{ Inc() }
}

type queryStartKey struct{}

func (t *queryTracer) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	return context.WithValue(ctx, queryStartKey{}, time.Now())
}

func (t *queryTracer) TraceQueryEnd(ctx context.Context, _ *pgx.Conn, data pgx.TraceQueryEndData) {
	if start, ok := ctx.Value(queryStartKey{}).(time.Time); ok {
		t.duration.Observe(time.Since(start).Seconds())
	}
	if data.Err != nil {
		t.failed.Inc()
	}
}
