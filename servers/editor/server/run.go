package server

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"

	"github.com/regelkit/regelkit/servers/internal/lifecycle"
	"github.com/regelkit/regelkit/sparql/memstore"
)

// version is sent as API-Version on every response. Release builds set it
// with -ldflags "-X github.com/regelkit/regelkit/servers/editor/server.version=…".
var version = "0.1.0"

// Options inject dependencies the editor otherwise builds itself: the
// all-in-one stack passes one knowledge graph to every server. A nil
// field: the editor builds its own, as when it runs alone.
type Options struct {
	// Lookup reads the environment; nil: os.LookupEnv.
	Lookup func(string) (string, bool)
	// Logger; nil: one built from LOG_FORMAT on stderr.
	Logger *slog.Logger
	// KnowledgeGraph replaces the embedded store (used when neither
	// SPARQL_URL nor GRAPHSTORE_URL is set); the example graphs are seeded
	// into it. It should union its named graphs into the default graph,
	// as the editor's own store does.
	KnowledgeGraph *memstore.Store
}

// Server is the editor, configured and wired, ready to serve.
type Server struct {
	a *app
}

// New reads the configuration and wires the editor.
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
		if cfg.LogFormat == "json" {
			logger = slog.New(slog.NewJSONHandler(os.Stderr, nil))
		} else {
			logger = slog.New(slog.NewTextHandler(os.Stderr, nil))
		}
	}
	logger.Info("configuration", env.LogAttrs()...)
	a, err := newApp(ctx, cfg, logger)
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

// readyPath is the editor's readiness route: the backend's GET / is not
// reachable through the front, whose / is the web application.
const readyPath = "/api/ready"

// Listeners returns the front, with readiness at GET /api/ready (200, 503
// while draining), and, with CONVERTER_PORT, the converter's pages; they
// drain together.
func (s *Server) Listeners(lc *lifecycle.Lifecycle) []lifecycle.Server {
	cfg, logger := s.a.cfg, s.a.logger
	out := []lifecycle.Server{{
		Name: "editor", Addr: ":" + strconv.Itoa(cfg.Port), Handler: lc.ReadyRoute(s.Handler(), readyPath),
		Ready: func(addr net.Addr) {
			logger.Info("editor listening", "addr", addr.String(), "version", version, "dataset", cfg.Dataset)
		},
	}}
	if cfg.ConverterPort != 0 {
		out = append(out, lifecycle.Server{
			Name: "converter pages", Addr: ":" + strconv.Itoa(cfg.ConverterPort), Handler: s.a.ConverterHandler(),
			Ready: func(addr net.Addr) { logger.Info("converter pages listening", "addr", addr.String()) },
		})
	}
	return append(out, s.a.metrics.Listeners("editor", logger)...)
}

// Handler is the editor's path-routing front.
func (s *Server) Handler() http.Handler { return s.a.Handler() }

// Close releases what New opened (nothing today).
func (s *Server) Close() {}

// Run is the editor's main: it serves until ctx is cancelled (on SIGTERM)
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
