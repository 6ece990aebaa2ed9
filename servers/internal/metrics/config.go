package metrics

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"

	"github.com/regelkit/regelkit/servers/internal/envconfig"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
)

// Config says where a server serves /metrics.
type Config struct {
	// Public serves /metrics on the public port (METRICS).
	Public bool
	// Addr is a separate listener serving only /metrics, e.g. ":9090"
	// (METRICS_ADDR); empty: none.
	Addr string
}

// Read reads METRICS_ADDR and METRICS through env. def.Public is the
// server's default for METRICS (true in development); it only applies when
// METRICS_ADDR is empty, since a separate listener is the reason to keep
// the series off the public port.
func Read(env *envconfig.Reader, def Config) Config {
	var c Config
	c.Addr = env.String("METRICS_ADDR", def.Addr,
		"separate listener serving only /metrics (Prometheus), e.g. :9090; empty: none")
	c.Public = env.Bool("METRICS", def.Public && c.Addr == "",
		"serve /metrics (Prometheus) on the public port; default: true in development unless METRICS_ADDR is set, false otherwise")
	return c
}

// ServeBeside runs serve (the public server) and, when Config.Addr is
// set, the metrics listener beside it until ctx ends; when either stops,
// the other is shut down, and the first error is returned.
func (m *Metrics) ServeBeside(ctx context.Context, logger *slog.Logger, serve func(context.Context) error) error {
	if m.cfg.Addr == "" {
		return serve(ctx)
	}
	if _, _, err := net.SplitHostPort(m.cfg.Addr); err != nil {
		return errors.New("METRICS_ADDR must be host:port or :port, e.g. :9090")
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		defer cancel()
		done <- httpapi.Serve(ctx, m.cfg.Addr, m.Only(), httpapi.ServeOptions{
			Logger: logger,
			Ready:  func(addr net.Addr) { logger.Info("metrics listening", "addr", addr.String(), "path", Path) },
		})
	}()
	err := serve(ctx)
	cancel()
	if merr := <-done; err == nil && merr != nil {
		err = fmt.Errorf("metrics listener: %w", merr)
	}
	return err
}

// Only is the handler of the metrics listener: GET /metrics and nothing
// else.
func (m *Metrics) Only() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET "+Path, m.Handler())
	return mux
}
