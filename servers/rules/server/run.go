package server

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	_ "time/tzdata" // "today" is the Europe/Amsterdam date on any host

	"github.com/regelkit/regelkit/norms/cprmv"
	"github.com/regelkit/regelkit/servers/internal/lifecycle"
)

// version is the server's build version, sent as API-Version; the API's
// own version in GET / is the CPRMV vocabulary version. Release builds set
// it with -ldflags "-X github.com/regelkit/regelkit/servers/rules/server.version=…".
var version = "0.1.0"

// Options inject dependencies the rules API otherwise builds itself. A nil
// field: the server builds its own, as when it runs alone.
type Options struct {
	// Lookup reads the environment; nil: os.LookupEnv.
	Lookup func(string) (string, bool)
	// Logger; nil: one built from LOG_LEVEL and LOG_FORMAT on stderr.
	Logger *slog.Logger
	// Repository is consulted first; the configured repository
	// (RULES_REPOSITORY) answers what it does not have. The stack passes
	// one that reads DMN deployments from its shared engine.
	Repository cprmv.Repository
}

// Server is the rules API, configured and wired, ready to serve.
type Server struct {
	a *app
}

// New reads the configuration and wires the rules API.
func New(_ context.Context, o Options) (*Server, error) {
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
		opts := &slog.HandlerOptions{Level: cfg.LogLevel}
		logger = slog.New(slog.NewTextHandler(os.Stderr, opts))
		if cfg.LogFormat == "json" {
			logger = slog.New(slog.NewJSONHandler(os.Stderr, opts))
		}
	}
	logger.Info("configuration", env.LogAttrs()...)
	a, err := newApp(cfg, logger)
	if err != nil {
		return nil, err
	}
	return &Server{a: a}, nil
}

// Shutdown is the life-cycle configuration (SHUTDOWN_GRACE, SHUTDOWN_DELAY).
func (s *Server) Shutdown() lifecycle.Options {
	o := s.a.cfg.Shutdown
	o.Logger = s.a.logger
	return o
}

// Listeners returns the listener, with readiness on GET / (the spec's
// health or welcome route).
func (s *Server) Listeners(lc *lifecycle.Lifecycle) []lifecycle.Server {
	cfg, logger := s.a.cfg, s.a.logger
	return append([]lifecycle.Server{{
		Name: "rules", Addr: net.JoinHostPort(cfg.Host, strconv.Itoa(cfg.Port)), Handler: lc.Ready(s.Handler(), "/"),
		Ready: func(addr net.Addr) {
			logger.Info("rules API listening", "addr", addr.String(), "version", version, "repository", cfg.Repository)
		},
	}}, s.a.metrics.Listeners("rules", logger)...)
}

// Handler is the rules API's router behind its middleware.
func (s *Server) Handler() http.Handler { return s.a.Handler() }

// Close releases what New opened (nothing today).
func (s *Server) Close() {}

// Run is the rules API's main: it serves until ctx is cancelled (on
// SIGTERM) and then shuts down gracefully.
func Run(ctx context.Context, o Options) error {
	s, err := New(ctx, o)
	if err != nil {
		return err
	}
	defer s.Close()
	lc := lifecycle.New(s.Shutdown())
	return lc.Run(ctx, s.Listeners(lc)...)
}
