// Package lifecycle runs a server's listeners and background workers and
// stops them in order on SIGTERM: readiness turns false at once, the
// listeners close after Options.Delay, in-flight requests get
// Options.Grace to finish, then the workers are closed (last added first)
// and Run returns nil, so the process exits 0.
//
//	lc := lifecycle.New(lifecycle.Options{Grace: cfg.ShutdownGrace, Delay: cfg.ShutdownDelay, Logger: logger})
//	lc.Add("audit", auditQueue) // anything with Run(ctx) and Close(ctx)
//	return lc.Run(ctx, lifecycle.Server{Name: "business", Addr: ":3002",
//		Handler: lc.Ready(a.Handler(), "/v1/health", "/v1/health/ready")})
//
// One Lifecycle serves several servers at once (the all-in-one stack), and
// they drain together.
package lifecycle
