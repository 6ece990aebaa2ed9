package server

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"

	"github.com/regelkit/regelkit/norms/cprmv"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/metrics"
	"github.com/regelkit/regelkit/servers/internal/openapi"
)

const (
	serviceName = "CPRMV Rules Serve API"
	openAPIPath = "/openapi.json"
	textPlain   = "text/plain; charset=utf-8"
)

//go:embed respec
var respecFiles embed.FS

type app struct {
	cfg     *config
	logger  *slog.Logger
	svc     *cprmv.Service
	router  *httpapi.Router
	methods map[string][]byte // /methods bodies per format, written once
	respec  map[string][]byte
	metrics *metrics.Metrics
}

func newApp(cfg *config, logger *slog.Logger) (*app, error) {
	m := metrics.New(metrics.Options{Server: "rules", Config: cfg.Metrics})
	repo, err := newRepository(cfg, m)
	if err != nil {
		return nil, err
	}
	if cfg.shared.Repository != nil {
		repo = cprmv.Fallback(cfg.shared.Repository, repo)
	}
	svc, err := cprmv.New(cprmv.Options{
		Repository: repo, BaseIRI: cfg.BaseIRI, CacheEntries: cfg.CacheEntries, CacheBytes: cfg.CacheBytes,
		Limits: cprmv.Limits{Timeout: cfg.Timeout, MaxBytes: cfg.MaxDocument},
	})
	if err != nil {
		return nil, err
	}
	return newAppWith(cfg, logger, svc, m)
}

// newAppWith builds the app around a service (tests pass one with a fixed
// clock or a test repository) and its metrics (nil: new ones).
func newAppWith(cfg *config, logger *slog.Logger, svc *cprmv.Service, m *metrics.Metrics) (*app, error) {
	if m == nil {
		m = metrics.New(metrics.Options{Server: "rules", Config: cfg.Metrics})
	}
	a := &app{cfg: cfg, logger: logger, svc: svc, methods: map[string][]byte{}, metrics: m}
	for _, f := range cprmv.Formats {
		if f == "cprmv-json" {
			continue
		}
		b, err := cprmv.WriteGraph(svc.Methods().Graph, f)
		if err != nil {
			return nil, fmt.Errorf("methods graph as %s: %w", f, err)
		}
		a.methods[f] = b
	}
	site, err := respecSite()
	if err != nil {
		return nil, err
	}
	a.respec = site
	doc := openapi.New(serviceName, cprmv.Version,
		"Serves the CPRMV methods graph, rules and rule sets from the official publication repositories "+
			"(BWB, CVDR, CELLAR Formex 4, DMN on Operaton) and resolves Juriconnect references. "+
			"Specification: [/respec/](/respec/).")
	a.router = httpapi.NewRouter(httpapi.RouterOptions{Development: cfg.development(), Logger: logger, Doc: doc,
		OnLimit: m.LimitExceeded})
	metrics.MuxTemplates(a.router.Mux())
	a.router.Mux().SkipClean(true) // /ref/cprmvapi/https://… keeps its "//"
	a.routes()
	return a, nil
}

func newRepository(cfg *config, m *metrics.Metrics) (cprmv.Repository, error) {
	var local cprmv.Repository
	if cfg.RepositoryDir != "" {
		if _, err := os.Stat(cfg.RepositoryDir); err != nil {
			return nil, fmt.Errorf("RULES_REPOSITORY_DIR: %w", err)
		}
		local = cprmv.LocalRepository(os.DirFS(cfg.RepositoryDir))
	} else {
		local = cprmv.EmbeddedRepository()
	}
	if cfg.Repository == "local" {
		return local, nil
	}
	var pem []byte
	if cfg.ExtraCAFile != "" {
		var err error
		if pem, err = os.ReadFile(cfg.ExtraCAFile); err != nil {
			return nil, fmt.Errorf("RULES_EXTRA_CA_FILE: %w", err)
		}
	}
	remote, err := cprmv.HTTPRepository(cprmv.HTTPOptions{
		Timeout: cfg.Timeout, LatestTTL: cfg.LatestTTL, ExtraCAPEM: pem,
		Wrap: func(rt http.RoundTripper) http.RoundTripper { return m.Transport("repository", rt) },
		Rewrite: map[string]string{
			officialRepository: strings.TrimRight(cfg.OfficialURL, "/"),
			officialSRU:        cfg.SRUURL,
			officialCellar:     strings.TrimRight(cfg.CellarURL, "/"),
			officialOperaton:   strings.TrimRight(cfg.OperatonURL, "/"),
		},
	})
	if err != nil {
		return nil, fmt.Errorf("RULES_EXTRA_CA_FILE: %w", err)
	}
	if cfg.Repository == "http" {
		return remote, nil
	}
	return cprmv.Fallback(local, remote), nil
}

// Handler is the router behind the middleware chain, with CORS open to
// every origin.
func (a *app) Handler() http.Handler {
	return a.metrics.Wrap(httpapi.Middleware(openCORS(a.router), httpapi.MiddlewareOptions{
		Version: version, Logger: a.logger, Development: a.cfg.development(),
	}))
}

func openCORS(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			w.Header().Set("Access-Control-Allow-Methods", "GET, OPTIONS")
			w.Header().Set("Access-Control-Allow-Headers", "*")
			w.Header().Set("Access-Control-Max-Age", "600")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		h.ServeHTTP(w, r)
	})
}

var (
	errorSchema = openapi.Object(map[string]openapi.Schema{"error": openapi.String("what went wrong")}, "error")
	plain       = func(s openapi.Schema) map[string]openapi.MediaType {
		return map[string]openapi.MediaType{textPlain: {Schema: s}}
	}
	failure = func(desc string) openapi.Response {
		return openapi.Response{Description: desc + " (a JSON object sent as text/plain)", Content: plain(errorSchema)}
	}
	formatParam = openapi.Parameter{Name: "format", In: "query", Schema: openapi.Enum("output format", cprmv.Formats...)}
)

// routes registers every route; regex templates are documented under their
// plain OpenAPI path.
func (a *app) routes() {
	r := a.router
	r.Handle("GET", "/", a.handleRoot, openapi.Operation{
		Summary: "The service title mapped to the CPRMV version it emits",
		Responses: map[string]openapi.Response{"200": {Description: `{"CPRMV Rules Serve API": "0.4.1"}`,
			Content: plain(openapi.AnyObject(""))}},
	})
	r.Handle("GET", openAPIPath, a.handleOpenAPI, openapi.Operation{
		Summary:   "This OpenAPI document",
		Responses: map[string]openapi.Response{"200": {Description: "OpenAPI 3.1", Content: openapi.JSON(openapi.AnyObject(""))}},
	})
	r.Handle("GET", "/methods", a.handleMethods, openapi.Operation{
		Summary: "The methods knowledge graph merged with the CPRMV vocabulary",
		Parameters: []openapi.Parameter{{Name: "format", In: "query",
			Schema: openapi.Enum("serialisation; default json-ld; turtle2 is one triple per line", "json-ld", "xml", "turtle", "ttl", "n3", "turtle2")}},
		Responses: map[string]openapi.Response{"200": {Description: "the graph", Content: plain(openapi.String(""))},
			"400": failure("Unsupported format.")},
	})
	a.handleRegex("/rules/{rule_id_path:.+}", "/rules/{rule_id_path}", a.handleRules, openapi.Operation{
		Summary: "A rule set, or a rule of it, narrowed to a rule path",
		Description: "rule_id_path is `{RuleSetId}` followed by rule ids separated by path_delimiter (default `,`, " +
			"when `/` also splits). Segments match rule ids ignoring case and everything but letters and digits; " +
			"each segment is searched depth-first below the previous match, so levels may be skipped, and an " +
			"ambiguous short path returns the **first** depth-first match. cprmv-json is rooted at the RuleSet, " +
			"each ancestor narrowed to the one child on the way down.",
		Parameters: []openapi.Parameter{
			{Name: "rule_id_path", In: "path", Required: true, Schema: openapi.Schema{"type": "string", "minLength": 10, "maxLength": 500}},
			{Name: "path_delimiter", In: "query", Schema: openapi.String("separator between identifiers; default ,")},
			formatParam,
			{Name: "language", In: "query", Schema: openapi.Enum("only nl (alias _language)", "nl")},
			{Name: "unformat", In: "query", Schema: openapi.String("parse pattern, e.g. {situatie:param_value}: € {norm:param_value}; forces cprmv-json")},
		},
		Responses: map[string]openapi.Response{
			"200": {Description: "the rules in the requested format", Content: plain(openapi.String(""))},
			"400": failure("unsupported identifier format, rule_id_path length, format, language or unformat pattern"),
			"404": failure("rule set not found; or the plain text `No rules found for given path...`"),
			"502": failure("Publication repository unavailable."),
		},
	})
	refResponses := map[string]openapi.Response{
		"302": {Description: "Location: the /rules/ path", Headers: map[string]openapi.Header{"Location": {Schema: openapi.String("")}}},
		"404": failure("not a valid or supported reference..."),
	}
	r.Handle("GET", "/ref", a.handleRefQuery, openapi.Operation{
		Summary:    "Resolve a reference, trying cprmvapi then Juriconnect",
		Parameters: []openapi.Parameter{openapi.Query("reference", "the reference text", true)},
		Responses:  refResponses,
	})
	a.handleRegex("/ref/{referencemethod}/{reference:.+}", "/ref/{referencemethod}/{reference}", a.handleRef, openapi.Operation{
		Summary: "Resolve a Juriconnect (jci1.3, jci1.31) or cprmvapi reference and redirect to its rule path",
		Description: "Never calls the network. Juriconnect keys hoofdstuk, paragraaf, artikel, lid, o/onderdeel become " +
			"path segments; g is the valid-on date (default today, Europe/Amsterdam); z and other keys are ignored.",
		Responses: refResponses,
	})
	r.Handle("GET", "/respec", a.handleRespecRedirect, openapi.Operation{
		Summary: "Redirects to /respec/", Responses: map[string]openapi.Response{"301": {Description: "to /respec/"}},
	})
	a.handleRegex("/respec/{file:.*}", "/respec/{file}", a.handleRespec, openapi.Operation{
		Summary: "The CPRMV specification (static HTML) with cprmv.ttl, cprmvmethods.ttl and cprmv.shacl.ttl",
		Responses: map[string]openapi.Response{"200": {Description: "a static file"},
			"404": {Description: "unknown file"}},
	})
}

// handleRegex registers a route whose template has a regex, documented
// under docPath.
func (a *app) handleRegex(muxPath, docPath string, h httpapi.HandlerFunc, op openapi.Operation) {
	a.router.Mux().Handle(muxPath, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			a.logger.ErrorContext(r.Context(), "request failed", "path", r.URL.Path, "error", err.Error())
			writeError(w, http.StatusInternalServerError, "Internal server error.")
		}
	})).Methods("GET")
	a.router.Doc().Add("GET", docPath, op)
}

func writeText(w http.ResponseWriter, status int, body []byte) error {
	w.Header().Set("Content-Type", textPlain)
	w.WriteHeader(status)
	_, err := w.Write(body)
	return err
}

// writeError writes {"error": msg}.
func writeError(w http.ResponseWriter, status int, msg string) {
	m, _ := json.Marshal(msg)
	var b bytes.Buffer
	b.WriteString(`{"error": `)
	b.Write(m)
	b.WriteString("}")
	_ = writeText(w, status, b.Bytes())
}

func (a *app) handleRoot(w http.ResponseWriter, _ *http.Request) error {
	return writeText(w, http.StatusOK, []byte(`{"`+serviceName+`": "`+cprmv.Version+`"}`))
}

func (a *app) handleOpenAPI(w http.ResponseWriter, _ *http.Request) error {
	b, err := json.Marshal(a.router.Doc())
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	_, err = w.Write(b)
	return err
}

func (a *app) handleMethods(w http.ResponseWriter, r *http.Request) error {
	format := r.URL.Query().Get("format")
	if format == "" {
		format = "json-ld"
	}
	body, ok := a.methods[format]
	if !ok {
		writeError(w, http.StatusBadRequest, cprmv.ErrFormat.Error())
		return nil
	}
	return writeText(w, http.StatusOK, body)
}

func (a *app) handleRules(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	lang := q.Get("language")
	if lang == "" {
		lang = q.Get("_language")
	}
	// The path after /rules/, decoded once: %2C and %2F count as delimiters.
	path := strings.TrimPrefix(r.URL.Path, "/rules/")
	body, err := a.svc.Rules(r.Context(), cprmv.Request{
		Path: path, Delimiter: q.Get("path_delimiter"), Format: q.Get("format"), Language: lang, Unformat: q.Get("unformat"),
	})
	if err != nil {
		return a.fail(w, r, err)
	}
	return writeText(w, http.StatusOK, body)
}

// fail maps the service's errors to the statuses and bodies of the
// rule-serving API's exact error texts.
func (a *app) fail(w http.ResponseWriter, r *http.Request, err error) error {
	switch {
	case errors.Is(err, cprmv.ErrNoRules):
		return writeText(w, http.StatusNotFound, []byte(cprmv.ErrNoRules.Error()))
	case errors.Is(err, cprmv.ErrUnsupportedID), errors.Is(err, cprmv.ErrPathLength), errors.Is(err, cprmv.ErrFormat),
		errors.Is(err, cprmv.ErrLanguage), errors.Is(err, cprmv.ErrPattern):
		writeError(w, http.StatusBadRequest, rootCause(err).Error())
	case errors.Is(err, cprmv.ErrNotFound):
		writeError(w, http.StatusNotFound, cprmv.ErrNotFound.Error())
	case errors.Is(err, cprmv.ErrUnavailable):
		// The cause (timeout, size, status) is for the operator; the rule
		// set id is public, no personal data.
		a.logger.WarnContext(r.Context(), "publication repository failed", "path", r.URL.Path, "error", err.Error())
		writeError(w, http.StatusBadGateway, cprmv.ErrUnavailable.Error())
	default:
		return err
	}
	return nil
}

func rootCause(err error) error {
	for _, e := range []error{cprmv.ErrUnsupportedID, cprmv.ErrPathLength, cprmv.ErrFormat, cprmv.ErrLanguage, cprmv.ErrPattern} {
		if errors.Is(err, e) {
			return e
		}
	}
	return err
}

func (a *app) handleRef(w http.ResponseWriter, r *http.Request) error {
	// Cut the reference from the raw path, so that it is decoded once,
	// part by part, by the resolver.
	raw := strings.TrimPrefix(r.URL.EscapedPath(), "/ref/")
	method, ref, _ := strings.Cut(raw, "/")
	return a.redirect(w, method, ref)
}

func (a *app) handleRefQuery(w http.ResponseWriter, r *http.Request) error {
	return a.redirect(w, "", r.URL.Query().Get("reference"))
}

func (a *app) redirect(w http.ResponseWriter, method, ref string) error {
	loc, err := a.svc.Resolve(method, ref)
	if err != nil {
		writeError(w, http.StatusNotFound, cprmv.ErrReference.Error())
		return nil
	}
	w.Header().Set("Location", loc)
	w.Header().Set("Content-Type", textPlain)
	w.WriteHeader(http.StatusFound)
	return nil
}
