package httpapi

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// ServeOptions configure Serve. Zero durations take the defaults shown.
type ServeOptions struct {
	ReadHeaderTimeout time.Duration // 10s
	ReadTimeout       time.Duration // 60s
	WriteTimeout      time.Duration // 120s
	IdleTimeout       time.Duration // 120s
	ShutdownTimeout   time.Duration // 20s: in-flight requests get this long after the signal
	Logger            *slog.Logger
	// Ready, when set, is called with the bound address once the listener is open.
	Ready func(addr net.Addr)
}

// Serve runs h on addr until ctx is cancelled (main cancels it on SIGINT or
// SIGTERM), then shuts down gracefully: the listener closes at once and
// in-flight requests get ShutdownTimeout to finish.
func Serve(ctx context.Context, addr string, h http.Handler, o ServeOptions) error {
	def := func(d *time.Duration, v time.Duration) {
		if *d == 0 {
			*d = v
		}
	}
	def(&o.ReadHeaderTimeout, 10*time.Second)
	def(&o.ReadTimeout, 60*time.Second)
	def(&o.WriteTimeout, 120*time.Second)
	def(&o.IdleTimeout, 120*time.Second)
	def(&o.ShutdownTimeout, 20*time.Second)
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: o.ReadHeaderTimeout,
		ReadTimeout:       o.ReadTimeout,
		WriteTimeout:      o.WriteTimeout,
		IdleTimeout:       o.IdleTimeout,
		ErrorLog:          slog.NewLogLogger(o.Logger.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	if o.Ready != nil {
		o.Ready(ln.Addr())
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	o.Logger.Info("shutting down", "timeout", o.ShutdownTimeout.String())
	sctx, cancel := context.WithTimeout(context.Background(), o.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return err
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
