package server

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"

	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/servers/internal/lifecycle"
	"github.com/regelkit/regelkit/sparql/memstore"
)

// version is the server's version string, sent as API-Version on every
// response. Release builds set it with
// -ldflags "-X github.com/regelkit/regelkit/servers/explorer/server.version=…".
var version = "0.1.0"

// Options inject dependencies the explorer otherwise builds itself: the
// all-in-one stack passes one engine and one knowledge graph to every
// server. A nil field: the explorer builds its own, as when it runs alone.
type Options struct {
	// Lookup reads the environment; nil: os.LookupEnv.
	Lookup func(string) (string, bool)
	// Logger; nil: one built from LOG_LEVEL and LOG_FORMAT on stderr.
	Logger *slog.Logger
	// Engine replaces the embedded engine (and OPERATON_BASE_URL); the
	// example models are deployed into it.
	Engine *local.Engine
	// KnowledgeGraph replaces the embedded store when EMBEDDED_STORE is
	// on; the example knowledge graph is loaded into it.
	KnowledgeGraph *memstore.Store
}

// Server is the explorer, configured and wired, ready to serve.
type Server struct {
	a *app
}

// New reads the configuration and wires the explorer.
func New(ctx context.Context, o Options) (*Server, error) {
	if o.Lookup == nil {
		o.Lookup = os.LookupEnv
	}
	cfg, env, err := loadConfig(o.Lookup)
	if err != nil {
		return nil, fmt.Errorf("configuration: %w", err)
	}
	cfg.shared = o
	logger := o.Logger
	if logger == nil {
		logger = newLogger(cfg)
	}
	logger.Info("configuration", env.LogAttrs()...)
	a, err := newApp(ctx, cfg, logger)
	if err != nil {
		return nil, err
	}
	logger.Info("dependencies", a.dependencies()...)
	return &Server{a: a}, nil
}

// Shutdown is the life-cycle configuration (SHUTDOWN_GRACE, SHUTDOWN_DELAY).
func (s *Server) Shutdown() lifecycle.Options {
	o := s.a.cfg.Shutdown
	o.Logger = s.a.logger
	return o
}

// Listeners registers the explorer's workers with lc and returns its
// listener, with readiness on the health route.
func (s *Server) Listeners(lc *lifecycle.Lifecycle) []lifecycle.Server {
	cfg, logger := s.a.cfg, s.a.logger
	return append([]lifecycle.Server{{
		Name: "explorer", Addr: ":" + strconv.Itoa(cfg.Port), Handler: lc.Ready(s.Handler(), healthPath, "/api/health"),
		Ready: func(addr net.Addr) {
			logger.Info("explorer listening", "addr", addr.String(), "version", version, "environment", cfg.Environment)
		},
	}}, s.a.metrics.Listeners("explorer", logger)...)
}

// Handler is the explorer's router behind its middleware.
func (s *Server) Handler() http.Handler { return s.a.Handler() }

// Close releases what New opened.
func (s *Server) Close() { s.a.Close() }

// Run is the explorer's main: it serves until ctx is cancelled (on SIGTERM)
// and then shuts down gracefully.
func Run(ctx context.Context, o Options) error {
	s, err := New(ctx, o)
	if err != nil {
		return err
	}
	defer s.Close()
	lc := lifecycle.New(s.Shutdown())
	return lc.Run(ctx, s.Listeners(lc)...)
}

func newLogger(cfg *config) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(os.Stderr, opts))
	}
	return slog.New(slog.NewTextHandler(os.Stderr, opts))
}
