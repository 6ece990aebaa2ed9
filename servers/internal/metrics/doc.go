// Package metrics is the Prometheus instrumentation of the regelkit
// servers: request counts, latencies and in-flight requests per route
// template, outbound calls per target, cache hits and misses, budget aborts
// and a server's own gauges, all in one registry per server (never the
// global default registry), so several servers share a process without
// clashing.
//
// A server creates one Metrics, wraps its public handler and lets the mux
// name the route template of each request:
//
//	m := metrics.New(metrics.Options{Server: "explorer", Config: cfg.Metrics})
//	metrics.MuxTemplates(router.Mux())
//	h := m.Wrap(httpapi.Middleware(router, …)) // serves /metrics too when Config.Public
//	listeners = append(listeners, m.Listeners("explorer", logger)...) // METRICS_ADDR, for lifecycle.Run
//
// Labels are bounded by construction: the route is the mux template
// (/v1/task/{id}) or "unmatched", the method one of the standard methods or
// OTHER, the limit one of the Limits field names or "other", and every
// other label a name the server fixes in code.
package metrics
