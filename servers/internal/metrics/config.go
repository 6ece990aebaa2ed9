package metrics

import (
	"log/slog"
	"net"
	"net/http"

	"github.com/regelkit/regelkit/servers/internal/envconfig"
	"github.com/regelkit/regelkit/servers/internal/lifecycle"
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

// Listeners is the METRICS_ADDR listener of the server called name, for
// its lifecycle.Run beside the public one; none when Config.Addr is empty.
// It serves only GET /metrics and is not wrapped in readiness: a scrape
// during a drain still answers.
func (m *Metrics) Listeners(name string, logger *slog.Logger) []lifecycle.Server {
	if m.cfg.Addr == "" {
		return nil
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return []lifecycle.Server{{
		Name: name + " metrics", Addr: m.cfg.Addr, Handler: m.Only(),
		Ready: func(addr net.Addr) { logger.Info(name+" metrics listening", "addr", addr.String(), "path", Path) },
	}}
}

// Only is the handler of the metrics listener: GET /metrics and nothing
// else.
func (m *Metrics) Only() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET "+Path, m.Handler())
	return mux
}
