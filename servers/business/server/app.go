package server

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/regelkit/regelkit/docmgmt"
	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/engine/local/pgstore"
	"github.com/regelkit/regelkit/engine/operaton"
	"github.com/regelkit/regelkit/examples"
	"github.com/regelkit/regelkit/servers/business/internal/public"
	"github.com/regelkit/regelkit/servers/business/internal/tracker"
	"github.com/regelkit/regelkit/servers/internal/auth"
	"github.com/regelkit/regelkit/servers/internal/enginehttp"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/metrics"
	"github.com/regelkit/regelkit/servers/internal/openapi"
	"github.com/regelkit/regelkit/servers/internal/ratelimit"
)

const (
	serviceName    = "RONL Business API"
	openAPIPath    = "/v1/openapi.json"
	healthPath     = "/v1/health"
	engineRESTPath = "/engine-rest"
	// maxJSONBody is the default JSON body limit.
	maxJSONBody = 1 << 20
)

// app is the business API: configuration, dependencies and router.
type app struct {
	cfg          *config
	logger       *slog.Logger
	started      time.Time
	router       *httpapi.Router
	engine       engine.ProcessEngine
	boardOwners  *boardOwnerCache
	embedded     bool
	verifier     *auth.Verifier
	auth         *auth.Authenticator
	dev          *auth.DevIdentity // nil unless the development identity is in use
	limiter      *ratelimit.Limiter
	writeLimiter *ratelimit.Limiter
	audit        *auditor
	metrics      *metrics.Metrics
	external     *http.Client
	mounted      map[string]string // root's endpoint map: only what is served
	public       *public.Public
	tracker      *tracker.Tracker
	docmgmt      docmgmt.Client // /v1/docmgmt and the document worker
	// stopDocWorker stops the external-task worker; nil when none runs.
	stopDocWorker func(context.Context) error
	closers       []func()
}

// newApp wires the business API.
func newApp(ctx context.Context, cfg *config, logger *slog.Logger) (*app, error) {
	a := &app{cfg: cfg, logger: logger, started: time.Now(), mounted: map[string]string{}}
	a.metrics = metrics.New(metrics.Options{Server: "business", Config: cfg.Metrics})
	var err error
	var closeEngine func()
	if a.engine, a.embedded, closeEngine, err = newEngine(ctx, cfg, a.metrics); err != nil {
		a.Close()
		return nil, fmt.Errorf("process engine: %w", err)
	}
	a.closers = append(a.closers, closeEngine)
	a.boardOwners = newBoardOwnerCache(maxBoardOwners)
	if err := a.newIdentity(ctx); err != nil {
		a.Close()
		return nil, err
	}
	a.auth = &auth.Authenticator{Verifier: a.verifier, Logger: logger}
	a.limiter = ratelimit.New(ratelimit.Options{Max: cfg.RateLimitMax, Window: cfg.RateLimitWindow})
	a.writeLimiter = ratelimit.New(ratelimit.Options{Max: 10, Window: 15 * time.Minute})
	if a.audit, err = newAuditor(ctx, cfg, logger, a.metrics); err != nil {
		a.Close()
		return nil, fmt.Errorf("audit log: %w", err)
	}
	a.instrument()
	a.closers = append(a.closers, a.audit.close)
	a.external = a.metrics.Client("upstream", &http.Client{Timeout: 5 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}})

	doc := openapi.New(serviceName, version,
		"Token-protected front of the decision and process engine for caseworkers, citizens' portals and machine clients.")
	doc.DefaultResponse = &openapi.Response{
		Description: "failure envelope",
		Content:     openapi.JSON(doc.AddSchema("ErrorEnvelope", openapi.ErrorEnvelope())),
	}
	if err := a.newDocs(ctx); err != nil { // document management and its worker
		a.Close()
		return nil, err
	}
	if err := a.newPublic(ctx); err != nil {
		a.Close()
		return nil, fmt.Errorf("public content: %w", err)
	}
	a.router = httpapi.NewRouter(httpapi.RouterOptions{
		Development:  cfg.development(),
		Logger:       logger,
		Doc:          doc,
		MaxBodyBytes: maxJSONBody,
		OnLimit:      a.metrics.LimitExceeded,
	})
	metrics.MuxTemplates(a.router.Mux())
	a.routes()
	if err := a.assistantRoutes(ctx, a.router); err != nil {
		a.Close()
		return nil, fmt.Errorf("assistant: %w", err)
	}
	return a, nil
}

// newIdentity sets up token verification: the identity provider's JWKS
// when IDP_URL is set, else (development only; validate refuses it
// elsewhere) the development identity's key file.
func (a *app) newIdentity(ctx context.Context) error {
	opts := auth.VerifierOptions{
		Issuer: a.cfg.JWTIssuer, Audience: a.cfg.JWTAudience,
		CacheTTL: a.cfg.TokenCacheTTL, Leeway: a.cfg.JWTLeeway, Logger: a.logger,
	}
	if a.cfg.devIdentity() {
		if !a.cfg.development() {
			return fmt.Errorf("the development identity is refused in %s; set IDP_URL", a.cfg.Environment)
		}
		path, err := devKeyPath(a.cfg)
		if err != nil {
			return err
		}
		if a.dev, err = auth.LoadDevIdentity(path); err != nil {
			return err
		}
		opts.Keys = a.dev.Keys()
	} else {
		opts.JWKSURL = a.cfg.jwksURL()
	}
	v, err := auth.NewVerifier(ctx, opts)
	if err != nil {
		return fmt.Errorf("token verification: %w", err)
	}
	a.verifier = v
	a.closers = append(a.closers, v.Close)
	return nil
}

// devKeyPath is DEV_IDENTITY_KEY_FILE or the user cache dir's
// regelkit/business-dev-key.pem.
func devKeyPath(cfg *config) (string, error) {
	if cfg.DevKeyFile != "" {
		return cfg.DevKeyFile, nil
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("development identity: no user cache dir (%w); set DEV_IDENTITY_KEY_FILE", err)
	}
	return filepath.Join(dir, "regelkit", "business-dev-key.pem"), nil
}

// newEngine returns the remote Operaton when PROCESS_ENGINE_URL is set, and
// otherwise the embedded engine (the shared one when the stack injects it)
// with the example decision models and the localpass process bundle deployed.
func newEngine(ctx context.Context, cfg *config, m *metrics.Metrics) (_ engine.ProcessEngine, embedded bool, closeEngine func(), err error) {
	closeEngine = func() {}
	if cfg.EngineURL != "" && cfg.shared.Engine == nil {
		c, err := operaton.New(operaton.Config{
			BaseURL: cfg.EngineURL, Username: cfg.EngineUser, Password: cfg.EnginePassword, Timeout: cfg.EngineTimeout,
			HTTPClient: m.Client("engine", nil),
		})
		return c, false, closeEngine, err
	}
	l := cfg.shared.Engine
	if l == nil {
		opts := local.Options{Version: "regelkit-" + version}
		if cfg.EngineDatabaseURL != "" {
			pc, err := pgxpool.ParseConfig(cfg.EngineDatabaseURL)
			if err != nil {
				return nil, false, closeEngine, errors.New("ENGINE_DATABASE_URL cannot be parsed")
			}
			pc.ConnConfig.Tracer = m.Database("database")
			pool, err := pgxpool.NewWithConfig(ctx, pc)
			if err != nil {
				return nil, false, closeEngine, err
			}
			// Open creates or checks the engine's tables: unlike the audit
			// log, the engine cannot work without its database.
			st, err := pgstore.Open(ctx, pool, pgstore.Options{})
			if err != nil {
				pool.Close()
				return nil, false, closeEngine, fmt.Errorf("engine database: %w", err)
			}
			opts.Store, closeEngine = st, pool.Close
		}
		l = local.New(opts)
	}
	fail := func(err error) (engine.ProcessEngine, bool, func(), error) {
		closeEngine()
		return nil, false, func() {}, err
	}
	var rs []engine.Resource
	for _, m := range examples.LocalPass {
		data, err := fs.ReadFile(examples.FS, m.Path)
		if err != nil {
			return fail(err)
		}
		rs = append(rs, engine.Resource{Name: filepath.Base(m.Path), Data: data})
	}
	if _, err := l.Deploy(ctx, engine.NewDeployment{Name: "localpass", Source: "regelkit-business",
		EnableDuplicateFiltering: true, Resources: rs}); err != nil {
		return fail(fmt.Errorf("deploying the example models: %w", err))
	}
	if err := deployProcessBundle(ctx, l, "processes/localpass"); err != nil {
		return fail(fmt.Errorf("deploying the example process: %w", err))
	}
	return l, true, closeEngine, nil
}

// Close releases the app's resources, last opened first.
func (a *app) Close() {
	for i := len(a.closers) - 1; i >= 0; i-- {
		a.closers[i]()
	}
	a.closers = nil
}

// routes registers every route. Literal paths come before parameterised
// siblings: mux matches in registration order.
func (a *app) routes() {
	r := a.router
	r.Handle("GET", "/", a.handleRoot, openapi.Operation{
		Summary: "Service information and the mounted route groups",
		Tags:    []string{"service"},
		Responses: map[string]openapi.Response{"200": {Description: "{name, version, status, environment, endpoints}",
			Content: openapi.JSON(rootSchema)}},
	})
	a.healthRoutes(r)
	a.decisionRoutes(r)
	a.processRoutes(r)
	a.taskRoutes(r)
	a.m2mRoutes(r)
	a.brpRoutes(r)
	a.adminRoutes(r)
	a.publicRoutes(r)
	a.docsRoutes(r) // hr, rip, docmgmt, bundle deployment
	if a.embedded && a.cfg.EngineREST {
		a.mountEngineREST(r)
	}
	r.Handle("GET", openAPIPath, a.handleOpenAPI, openapi.Operation{
		Summary:   "This OpenAPI 3.1 description",
		Tags:      []string{"service"},
		Responses: map[string]openapi.Response{"200": {Description: "the OpenAPI document"}},
	})
}

func (a *app) handleRoot(w http.ResponseWriter, r *http.Request) error {
	return httpapi.WriteJSON(w, http.StatusOK, map[string]any{
		"name":        serviceName,
		"version":     version,
		"status":      "running",
		"environment": a.cfg.Environment,
		"endpoints":   a.mounted,
	})
}

func (a *app) handleOpenAPI(w http.ResponseWriter, r *http.Request) error {
	return httpapi.WriteJSON(w, http.StatusOK, a.router.Doc())
}

// mountEngineREST serves the embedded engine under Operaton's paths, with no
// token: it is off outside development unless ENGINE_REST=true.
func (a *app) mountEngineREST(r *httpapi.Router) {
	enginehttp.Mount(r, a.engine, enginehttp.Options{BasePath: engineRESTPath, CORSOrigins: a.cfg.CORSOrigins, Logger: a.logger})
}
