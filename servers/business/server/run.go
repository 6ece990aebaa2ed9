package server

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/servers/internal/auth"
	"github.com/regelkit/regelkit/servers/internal/lifecycle"
)

// version is the server's version string, sent as API-Version on every
// response. Release builds set it with
// -ldflags "-X github.com/regelkit/regelkit/servers/business/server.version=…".
var version = "0.1.0"

// Options inject dependencies the business API otherwise builds itself:
// the all-in-one stack passes one engine to every server. A nil field: the
// server builds its own, as when it runs alone.
type Options struct {
	// Lookup reads the environment; nil: os.LookupEnv.
	Lookup func(string) (string, bool)
	// Logger; nil: one built from LOG_LEVEL and LOG_FORMAT on stderr.
	Logger *slog.Logger
	// Engine replaces the embedded engine (and ENGINE_URL); the example
	// models are deployed into it.
	Engine *local.Engine
}

// Server is the business API, configured and wired, ready to serve.
type Server struct {
	a *app
}

// New reads and checks the configuration and wires the business API.
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
		logger = newLogger(cfg, os.Stderr)
	}
	warnings, err := cfg.validate()
	if err != nil {
		return nil, err
	}
	for _, w := range warnings {
		logger.Warn("configuration: " + w)
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

// Listeners registers the background workers with lc, which stops them
// once the requests have drained (the external-task worker first, then
// the audit queue), and returns the listener, with readiness on the
// health routes.
func (s *Server) Listeners(lc *lifecycle.Lifecycle) []lifecycle.Server {
	cfg, logger := s.a.cfg, s.a.logger
	lc.Add("audit queue", lifecycle.CloseFunc(s.a.audit.flush))
	if s.a.stopDocWorker != nil {
		lc.Add("document worker", lifecycle.CloseFunc(s.a.stopDocWorker))
	}
	return append([]lifecycle.Server{{
		Name: "business", Addr: net.JoinHostPort(cfg.Host, strconv.Itoa(cfg.Port)),
		Handler: lc.Ready(s.Handler(), healthPath, healthPath+"/ready", "/api/health"),
		Ready: func(addr net.Addr) {
			logger.Info("business API listening", "addr", addr.String(), "version", version, "environment", cfg.Environment)
		},
	}}, s.a.metrics.Listeners("business", logger)...)
}

// Handler is the business API's router behind its middleware.
func (s *Server) Handler() http.Handler { return s.a.Handler() }

// Close releases what New opened.
func (s *Server) Close() { s.a.Close() }

// DevToken signs a token of the development identity for t, as the token
// command does; an error when the server does not use that identity.
func (s *Server) DevToken(t TokenRequest) (string, error) {
	if s.a.dev == nil {
		return "", errors.New("the development identity is not in use")
	}
	c, err := t.claims(s.a.cfg)
	if err != nil {
		return "", err
	}
	return s.a.dev.Token(c)
}

// Run is the business API's main: it serves until ctx is cancelled (on
// SIGTERM) and then shuts down gracefully.
func Run(ctx context.Context, o Options) error {
	s, err := New(ctx, o)
	if err != nil {
		return err
	}
	defer s.Close()
	if s.a.dev != nil {
		s.a.logger.Info("development identity: get a token with `go run ./servers/business token -role caseworker -municipality heusden`")
	}
	lc := lifecycle.New(s.Shutdown())
	return lc.Run(ctx, s.Listeners(lc)...)
}

func newLogger(cfg *config, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// TokenRequest is what a development token says; the token command's
// flags.
type TokenRequest struct {
	Roles        []string // realm roles: citizen, caseworker, hr-medewerker, admin
	Municipality string   // tenant; required for human tokens
	LoA          string   // basis, midden, substantieel, hoog
	Subject      string   // default dev-<roles>-<municipality>, or service-account-<client> for a machine
	BSN          string   // citizen number claim (fictional numbers only)
	OrgType      string   // organisation_type; default municipality
	Machine      bool     // a machine token: no municipality, no roles
	Client       string   // azp; required for a machine, default ronl-frontend otherwise
	TTL          time.Duration
}

func (t TokenRequest) claims(cfg *config) (auth.TokenClaims, error) {
	c := auth.TokenClaims{Issuer: cfg.JWTIssuer, Audience: cfg.JWTAudience, LoA: t.LoA, BSN: t.BSN, TTL: t.TTL}
	if t.Machine {
		if t.Client == "" {
			return c, errors.New("token: -m2m needs -azp <client>, e.g. -azp operaton-mcp-client")
		}
		c.Client, c.Subject, c.LoA = t.Client, "service-account-"+t.Client, ""
		if t.Subject != "" {
			c.Subject = t.Subject
		}
		return c, nil
	}
	if t.Municipality == "" {
		return c, errors.New("token: -municipality is required (or -m2m for a machine token)")
	}
	c.Municipality, c.OrganisationType = t.Municipality, cmp.Or(t.OrgType, "municipality")
	c.Roles = t.Roles
	c.Client = cmp.Or(t.Client, "ronl-frontend")
	c.Subject = cmp.Or(t.Subject, "dev-"+strings.Join(c.Roles, "-")+"-"+t.Municipality)
	c.Username, c.Name = c.Subject, c.Subject
	return c, nil
}

// TokenCommand prints a token of the development identity, which the
// server started with the same environment accepts. Refused outside
// development and when an identity provider is configured.
func TokenCommand(args []string, lookup func(string) (string, bool), stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("token", flag.ContinueOnError)
	fs.SetOutput(stderr)
	role := fs.String("role", "caseworker", "realm roles, comma-separated: citizen, caseworker, hr-medewerker, admin")
	municipality := fs.String("municipality", "", "tenant (municipality claim); required for human tokens")
	loa := fs.String("loa", "hoog", "assurance level: basis, midden, substantieel, hoog")
	sub := fs.String("sub", "", "subject; default dev-<role>-<municipality>, or service-account-<azp> with -m2m")
	bsn := fs.String("bsn", "", "citizen number claim (fictional numbers only)")
	orgType := fs.String("organisation-type", "municipality", "organisation_type claim")
	m2m := fs.Bool("m2m", false, "a machine token: no municipality, no roles, azp from -azp")
	azp := fs.String("azp", "", "client (azp claim); required with -m2m, default ronl-frontend otherwise")
	ttl := fs.Duration("ttl", time.Hour, "lifetime")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg, _, err := loadConfig(lookup)
	if err != nil {
		return fmt.Errorf("configuration: %w", err)
	}
	if !cfg.development() {
		return fmt.Errorf("token: refused in %s; the development identity serves development only", cfg.Environment)
	}
	if !cfg.devIdentity() {
		return errors.New("token: IDP_URL is set, so the server verifies the identity provider's tokens; get one there")
	}
	t := TokenRequest{Municipality: *municipality, LoA: *loa, Subject: *sub, BSN: *bsn, OrgType: *orgType,
		Machine: *m2m, Client: *azp, TTL: *ttl}
	for _, r := range strings.Split(*role, ",") {
		if r = strings.TrimSpace(r); r != "" {
			t.Roles = append(t.Roles, r)
		}
	}
	c, err := t.claims(cfg)
	if err != nil {
		return err
	}
	path, err := devKeyPath(cfg)
	if err != nil {
		return err
	}
	dev, err := auth.LoadDevIdentity(path)
	if err != nil {
		return err
	}
	token, err := dev.Token(c)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(stdout, token)
	return err
}
