package server

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/regelkit/regelkit/chain"
	"github.com/regelkit/regelkit/docmgmt"
	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/norms"
	"github.com/regelkit/regelkit/servers/explorer/internal/chainapi"
	"github.com/regelkit/regelkit/servers/explorer/internal/dmnvalidation"
	"github.com/regelkit/regelkit/servers/explorer/internal/docmgmtapi"
	"github.com/regelkit/regelkit/servers/explorer/internal/normsapi"
	"github.com/regelkit/regelkit/servers/explorer/internal/shaclapi"
	"github.com/regelkit/regelkit/servers/internal/assets"
	"github.com/regelkit/regelkit/servers/internal/health"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/metrics"
	"github.com/regelkit/regelkit/servers/internal/openapi"
	"github.com/regelkit/regelkit/shacl/layered"
	"github.com/regelkit/regelkit/sparql"
)

const (
	serviceName = "Linked Data Explorer Backend"
	openAPIPath = "/v1/openapi.json"
	healthPath  = "/v1/health"
)

// app is the explorer: its configuration, its dependencies and its router.
type app struct {
	cfg     *config
	logger  *slog.Logger
	started time.Time
	router  *httpapi.Router
	health  *health.Checker
	kg      *knowledgeGraph
	engine  engine.Engine
	// embedded is true when engine is the in-process engine (not a remote Operaton).
	embedded  bool
	localPass *chain.FixedChain
	docmgmt   docmgmt.Client
	assets    *assets.Store // nil without DATABASE_URL
	shacl     *layered.Checker
	metrics   *metrics.Metrics
	closers   []func()
}

// newApp wires the explorer's dependencies and routes.
func newApp(ctx context.Context, cfg *config, logger *slog.Logger) (*app, error) {
	a := &app{cfg: cfg, logger: logger, started: time.Now()}
	a.metrics = metrics.New(metrics.Options{Server: "explorer", Config: cfg.Metrics})
	kg, err := newKnowledgeGraph(ctx, cfg, a.metrics)
	if err != nil {
		return nil, err
	}
	a.kg = kg
	if a.engine, a.embedded, err = newEngine(ctx, cfg, a.metrics); err != nil {
		return nil, fmt.Errorf("decision engine: %w", err)
	}
	if a.localPass, err = chainapi.LocalPassFromExamples(); err != nil {
		return nil, fmt.Errorf("local-pass chain: %w", err)
	}
	a.metrics.Engine(a.engine)
	if a.docmgmt, err = newDocmgmt(cfg, logger, a.metrics); err != nil {
		return nil, fmt.Errorf("document management: %w", err)
	}
	if cfg.DatabaseURL != "" {
		// An unreachable database is not fatal: asset routes answer 503
		// until it is back and the migrations then run on first use.
		if a.assets, err = assets.Open(ctx, cfg.DatabaseURL, assets.Options{Logger: logger, Tracer: a.metrics.Database("database")}); err != nil {
			return nil, fmt.Errorf("asset storage: %w", err)
		}
		a.closers = append(a.closers, a.assets.Close)
	}
	doc := openapi.New(serviceName, version,
		"Discovery, chaining and execution of decision models published as linked data; "+
			"DMN and SHACL validation; legal norms under a stability contract.")
	doc.DefaultResponse = &openapi.Response{
		Description: "failure envelope",
		Content:     openapi.JSON(doc.AddSchema("ErrorEnvelope", openapi.ErrorEnvelope())),
	}
	a.router = httpapi.NewRouter(httpapi.RouterOptions{
		Development:      cfg.development(),
		Logger:           logger,
		Doc:              doc,
		MaxResponseBytes: cfg.Limits.MaxResponseBytes,
		OnLimit:          a.metrics.LimitExceeded,
	})
	metrics.MuxTemplates(a.router.Mux())
	a.health = &health.Checker{
		Name:          serviceName,
		Version:       version,
		Environment:   cfg.Environment,
		Documentation: openAPIPath,
		Started:       a.started,
		Development:   cfg.development(),
		Logger:        logger,
		Probes: []health.Probe{
			{Name: "triplydb", Check: a.kg.Ping},
			{Name: "operaton", Check: engineProbe(a.engine)},
		},
	}
	// A shape set that fails to load is reported, not fatal: its layer is
	// loaded:false and every SHACL result invalid (fail closed).
	checker, err := layered.BuiltinWith(layered.Options{Limits: cfg.Limits.SHACL()})
	if err != nil {
		logger.Error("SHACL shape set failed to load", "error", err.Error())
	}
	a.shacl = checker
	a.health.Extra = shaclapi.HealthExtra(checker)
	a.routes()
	return a, nil
}

// newDocmgmt returns the stub client unless live mode is configured.
func newDocmgmt(cfg *config, logger *slog.Logger, m *metrics.Metrics) (docmgmt.Client, error) {
	if cfg.DocmgmtStub {
		return docmgmt.NewStub(docmgmt.StubConfig{Library: cfg.DocmgmtLibrary}), nil
	}
	return docmgmt.NewLive(docmgmt.LiveConfig{
		BaseURL: cfg.DocmgmtBaseURL, Library: cfg.DocmgmtLibrary,
		UserID: cfg.DocmgmtUserID, Password: cfg.DocmgmtPassword, Logger: logger,
		HTTPClient: m.Client("docmgmt", nil),
	})
}

// dependencies says what each dependency resolved to, for the start-up
// log: the settings print what was configured, this what is in use (an
// empty SPARQL_ENDPOINT means the embedded store, and so on).
func (a *app) dependencies() []any {
	kg := "none"
	switch {
	case a.kg.def == nil:
	case a.kg.store != nil && a.kg.def == sparql.Endpoint(a.kg.store):
		kg = "embedded store at " + a.kg.embeddedURL
	default:
		kg = redactURL(a.kg.defaultURL)
	}
	eng := "embedded"
	if !a.embedded {
		eng = "operaton at " + redactURL(a.cfg.OperatonBaseURL)
	}
	docs := "stub"
	if !a.cfg.DocmgmtStub {
		docs = "live at " + redactURL(a.cfg.DocmgmtBaseURL)
	}
	assetStore := "off (503 DB_NOT_CONFIGURED)"
	if a.assets != nil {
		assetStore = "postgresql"
	}
	return []any{"knowledge_graph", kg, "engine", eng, "docmgmt", docs, "assets", assetStore,
		"outbound_strict", a.cfg.OutboundStrict, "sparql_query_method", string(a.cfg.SPARQLQueryMethod)}
}

func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Redacted()
}

// Handler is the router behind the middleware chain, measured, and with
// /metrics when METRICS is on.
func (a *app) Handler() http.Handler {
	return a.metrics.Wrap(httpapi.Middleware(a.router, httpapi.MiddlewareOptions{
		Version:     version,
		Logger:      a.logger,
		CORSOrigins: a.cfg.CORSOrigins,
		Development: a.cfg.development(),
	}))
}

// Close releases the app's resources.
func (a *app) Close() {
	for i := len(a.closers) - 1; i >= 0; i-- {
		a.closers[i]()
	}
}

// routes registers every route. Literal paths come before parameterised
// siblings: mux matches in registration order.
func (a *app) routes() {
	r := a.router
	r.Handle("GET", "/", a.handleRoot, openapi.Operation{
		Summary: "Service information and entry points",
		Tags:    []string{"service"},
		Responses: map[string]openapi.Response{"200": {Description: "service information",
			Content: openapi.JSON(rootSchema)}},
	})
	r.Handle("GET", healthPath, a.health.Handle, openapi.Operation{
		Summary:     "Health of the service and its dependencies",
		Description: "Not wrapped in the envelope. healthy → 200; degraded (a dependency down) or unhealthy (the check failed) → 503.",
		Tags:        []string{"service"},
		Responses: map[string]openapi.Response{
			"200": {Description: "healthy", Content: openapi.JSON(healthSchema)},
			"503": {Description: "degraded or unhealthy", Content: openapi.JSON(healthSchema)},
		},
	}, httpapi.Legacy())
	a.kg.routes(r)
	if a.embedded && a.cfg.EngineREST {
		a.mountEngineREST(r)
	}
	// Literal /v1/dmns/... paths before /v1/dmns/{identifier}.
	dmnvalidation.Register(r)
	chainapi.Register(r, chainapi.Deps{
		Resolve:   a.kg.Resolve,
		Catalog:   &chain.Catalog{Logger: a.logger, OnLookup: a.metrics.Cache("chain_listing").Observe},
		Engine:    a.engine,
		LocalPass: a.localPass,
		Logger:    a.logger,
	})
	normsapi.Register(r, normsapi.Deps{
		Service:  norms.NewService(norms.Options{Logger: a.logger}),
		Endpoint: a.kg.def,
		Resolve:  a.kg.Resolve,
	})
	shaclapi.Register(r, shaclapi.Deps{Checker: a.shacl, Default: a.kg.def, Resolve: a.kg.Resolve})
	docmgmtapi.Register(r, docmgmtapi.Deps{Client: a.docmgmt, Logger: a.logger})
	assets.Register(r, assets.Deps{Store: a.assets, Logger: a.logger})
	r.Handle("GET", openAPIPath, a.handleOpenAPI, openapi.Operation{
		Summary:   "This OpenAPI 3.1 description",
		Tags:      []string{"service"},
		Responses: map[string]openapi.Response{"200": {Description: "the OpenAPI document"}},
	})
}

func (a *app) handleRoot(w http.ResponseWriter, r *http.Request) error {
	return httpapi.WriteJSON(w, http.StatusOK, map[string]any{
		"name":          serviceName,
		"version":       version,
		"status":        "running",
		"environment":   a.cfg.Environment,
		"documentation": openAPIPath,
		"health":        healthPath,
		"endpoints": map[string]string{
			"health": healthPath,
			"dmns":   "/v1/dmns",
			"chains": "/v1/chains",
		},
		"legacy": map[string]string{
			"health": "/api/health (deprecated)",
			"dmns":   "/api/dmns (deprecated)",
			"chains": "/api/chains (deprecated)",
		},
	})
}

func (a *app) handleOpenAPI(w http.ResponseWriter, r *http.Request) error {
	return httpapi.WriteJSON(w, http.StatusOK, a.router.Doc())
}
