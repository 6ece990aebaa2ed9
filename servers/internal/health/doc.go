// Package health answers a server's GET /v1/health: it runs every dependency
// probe concurrently with a short timeout and reports the dependency states
// and the overall status (healthy 200; degraded or unhealthy 503).
//
//	c := &health.Checker{Name: "explorer", Version: "1.0.0", Probes: []health.Probe{
//		{Name: "triplydb", Check: store.Ping},
//	}}
//	router.Handle("GET", "/v1/health", c.Handle, op)
package health
