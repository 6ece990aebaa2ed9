package httpapi

import (
	"errors"
	"log/slog"
	"net/http"
	"sort"
	"strings"

	"github.com/gorilla/mux"

	"github.com/regelkit/regelkit/servers/internal/openapi"
)

// HandlerFunc is an API handler. A returned *Error is written as the failure
// envelope; any other error as 500 INTERNAL_ERROR (its text only in
// development). A handler that has already written its response must not
// return an error.
type HandlerFunc func(w http.ResponseWriter, r *http.Request) error

// RouterOptions configure a Router.
type RouterOptions struct {
	// Development puts the text of unexpected errors and panics into the 500
	// message. Outside development the message is "Internal server error".
	Development bool
	// Logger receives handler failures; nil discards them.
	Logger *slog.Logger
	// MaxBodyBytes limits every request body (DefaultMaxBodyBytes when 0).
	MaxBodyBytes int64
	// MaxResponseBytes is the response ceiling of every route
	// (DefaultMaxResponseBytes when 0, none when negative); ResponseLimit
	// sets a route's own.
	MaxResponseBytes int64
	// Doc records every route; nil creates an empty document.
	Doc *openapi.Document
	// OnLimit, when set, is told of every LIMIT_EXCEEDED answer the router
	// writes, with the Limits field exceeded ("Timeout", "MaxRows", …,
	// "MaxResponseBytes"; "" when unknown): the servers' metrics count them.
	OnLimit func(limit string)
}

// Route is one registered method and path template.
type Route struct {
	Method string
	Path   string
	Legacy bool // a deprecated /api alias of a /v1 route
}

// Router is a gorilla/mux router that records every route in an OpenAPI
// document and answers unknown routes and methods with the envelope.
type Router struct {
	mux    *mux.Router
	opts   RouterOptions
	doc    *openapi.Document
	routes []Route
}

// RouteOption changes one registration.
type RouteOption func(*routeConfig)

type routeConfig struct {
	legacy      bool
	maxBytes    int64
	maxResponse int64
	jsonBody    bool
}

// Legacy also mounts the route under its deprecated /api alias: the /v1
// prefix replaced by /api. The alias answers exactly like the /v1 route plus
// the headers `Deprecation: true` and `Link: </v1/...>; rel="successor-version"`
// (the request's own path with /api replaced by /v1, so path parameters are
// kept).
func Legacy() RouteOption { return func(c *routeConfig) { c.legacy = true } }

// BodyLimit sets this route's body limit in bytes.
func BodyLimit(n int64) RouteOption { return func(c *routeConfig) { c.maxBytes = n } }

// ResponseLimit sets this route's response ceiling in bytes (negative:
// none). A JSON response over it is replaced by 400 LIMIT_EXCEEDED; a raw
// Write past it fails with ErrResponseTooLarge.
func ResponseLimit(n int64) RouteOption { return func(c *routeConfig) { c.maxResponse = n } }

// NewRouter returns an empty router.
func NewRouter(opts RouterOptions) *Router {
	if opts.MaxBodyBytes == 0 {
		opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if opts.MaxResponseBytes == 0 {
		opts.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	doc := opts.Doc
	if doc == nil {
		doc = openapi.New("regelkit", "", "")
	}
	rt := &Router{mux: mux.NewRouter(), opts: opts, doc: doc}
	rt.mux.NotFoundHandler = http.HandlerFunc(rt.notFound)
	rt.mux.MethodNotAllowedHandler = http.HandlerFunc(rt.methodNotAllowed)
	return rt
}

// Doc returns the OpenAPI document the routes are recorded in.
func (rt *Router) Doc() *openapi.Document { return rt.doc }

// Routes lists every registered route (aliases included), sorted by path.
func (rt *Router) Routes() []Route {
	out := append([]Route(nil), rt.routes...)
	sort.Slice(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Method < out[j].Method
	})
	return out
}

// Mux exposes the underlying router, e.g. to walk it in tests.
func (rt *Router) Mux() *mux.Router { return rt.mux }

// Handle registers h for method and path (gorilla/mux template syntax, which
// matches OpenAPI's {name}). Register literal paths before parameterised
// siblings (/v1/dmns/cycles before /v1/dmns/{identifier}); mux matches in
// registration order.
//
// A route whose operation documents a JSON request body (op.RequestBody
// with application/json or a +json type) refuses any other declared body
// type with 415 UNSUPPORTED_MEDIA_TYPE before h runs; DecodeJSON refuses it
// on every other route.
func (rt *Router) Handle(method, path string, h HandlerFunc, op openapi.Operation, options ...RouteOption) {
	cfg := routeConfig{maxBytes: rt.opts.MaxBodyBytes, maxResponse: rt.opts.MaxResponseBytes, jsonBody: takesJSON(op.RequestBody)}
	for _, o := range options {
		o(&cfg)
	}
	handler := rt.wrap(h, cfg)
	if cfg.jsonBody {
		op = withResponse(op, "415", openapi.Failure("the body is not declared as JSON", CodeUnsupportedMediaType))
	}
	rt.mux.Handle(path, handler).Methods(method)
	rt.doc.Add(method, path, op)
	rt.routes = append(rt.routes, Route{Method: method, Path: path})
	if cfg.legacy {
		if !strings.HasPrefix(path, "/v1/") {
			panic("httpapi: Legacy needs a /v1/ path, got " + path)
		}
		alias := "/api/" + strings.TrimPrefix(path, "/v1/")
		rt.mux.Handle(alias, deprecated(handler)).Methods(method)
		legacyOp := op
		legacyOp.OperationID = ""
		legacyOp.Deprecated = true
		legacyOp.Description = strings.TrimSpace("Deprecated alias of " + path + "; answers the same plus " +
			"`Deprecation: true` and a `Link` to the successor. Removed in v2.0.0. " + op.Description)
		rt.doc.Add(method, alias, legacyOp)
		rt.routes = append(rt.routes, Route{Method: method, Path: alias, Legacy: true})
	}
}

// HandleRaw registers a plain http.Handler that writes its own responses
// (a protocol handler such as the SPARQL endpoint) for each method of ops,
// documented by the operation given for that method.
func (rt *Router) HandleRaw(path string, h http.Handler, ops map[string]openapi.Operation) {
	methods := make([]string, 0, len(ops))
	for m := range ops {
		methods = append(methods, m)
	}
	sort.Strings(methods)
	rt.mux.Handle(path, h).Methods(methods...)
	for _, m := range methods {
		rt.doc.Add(m, path, ops[m])
		rt.routes = append(rt.routes, Route{Method: m, Path: path})
	}
}

// ServeHTTP dispatches to the registered routes.
func (rt *Router) ServeHTTP(w http.ResponseWriter, r *http.Request) { rt.mux.ServeHTTP(w, r) }

func (rt *Router) wrap(h HandlerFunc, cfg routeConfig) http.Handler {
	maxBytes := cfg.maxBytes
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if cfg.jsonBody {
			if err := RequireJSON(r); err != nil {
				_ = WriteError(w, err.(*Error))
				return
			}
		}
		if r.ContentLength > maxBytes {
			_ = WriteError(w, payloadTooLarge(maxBytes))
			return
		}
		if r.Body != nil {
			r.Body = http.MaxBytesReader(w, r.Body, maxBytes)
		}
		rw := &trackingWriter{ResponseWriter: w, limit: max(cfg.maxResponse, 0)}
		if err := h(rw, r); err != nil {
			rt.fail(rw, r, err)
			return
		}
		rw.commit() // a status without a body (204, 304)
	})
}

// fail writes err as the failure envelope.
//
// A limit error anywhere in err's chain wins over the handler's own
// mapping (LimitError), so a bound hit deep in an engine is never a 500; a
// bare context deadline is 503 LIMIT_EXCEEDED. Outside development the
// client gets Message only; DevDetail is added in development.
func (rt *Router) fail(w *trackingWriter, r *http.Request, err error) {
	var apiErr *Error
	switch {
	case LimitError(err) != nil:
		apiErr = LimitError(err)
	case errors.Is(err, ErrResponseTooLarge) && !w.wrote:
		apiErr = responseTooLarge(w.limit+1, w.limit)
	case errors.As(err, &apiErr):
	case isDeadline(err):
		apiErr = timeoutError(err)
	default:
		msg := "Internal server error"
		if rt.opts.Development {
			msg = err.Error()
		}
		apiErr = &Error{Status: http.StatusInternalServerError, Code: CodeInternal, Message: msg, Cause: err}
	}
	if apiErr.DevDetail != "" && rt.opts.Development {
		dev := *apiErr
		dev.Message += " (" + apiErr.DevDetail + ")"
		apiErr = &dev
	}
	switch {
	case apiErr.Code == CodeInternal:
		// Unexpected: the error text is needed to fix it.
		rt.opts.Logger.ErrorContext(r.Context(), "request failed",
			"method", r.Method, "path", r.URL.Path, "code", apiErr.Code,
			"request_id", RequestID(r.Context()), "error", err.Error())
	case apiErr.Status >= 500:
		// An expected failure (engine, query, database): its message went to
		// the client and may quote evaluation details derived from a
		// person's inputs, so the log gets the code only.
		// The DevDetail of an upstream failure (an address, a driver
		// message) is what an operator needs, and carries no inputs.
		attrs := []any{"method", r.Method, "path", r.URL.Path, "code", apiErr.Code,
			"request_id", RequestID(r.Context())}
		if apiErr.DevDetail != "" {
			attrs = append(attrs, "detail", apiErr.DevDetail)
		}
		rt.opts.Logger.WarnContext(r.Context(), "request failed", attrs...)
	}
	if apiErr.Code == CodeLimitExceeded && rt.opts.OnLimit != nil {
		rt.opts.OnLimit(apiErr.limit)
	}
	if w.wrote {
		rt.opts.Logger.ErrorContext(r.Context(), "handler returned an error after writing its response",
			"path", r.URL.Path, "error", err.Error())
		return
	}
	_ = WriteError(w, apiErr)
}

// withResponse documents a response the router gives on the route's behalf,
// unless the operation documents that status itself. The map is copied:
// operations may share one.
func withResponse(op openapi.Operation, status string, resp openapi.Response) openapi.Operation {
	if _, ok := op.Responses[status]; ok {
		return op
	}
	rs := make(map[string]openapi.Response, len(op.Responses)+1)
	for k, v := range op.Responses {
		rs[k] = v
	}
	rs[status] = resp
	op.Responses = rs
	return op
}

func deprecated(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		successor := "/v1/" + strings.TrimPrefix(r.URL.EscapedPath(), "/api/")
		w.Header().Set("Deprecation", "true")
		w.Header().Set("Link", "<"+successor+`>; rel="successor-version"`)
		h.ServeHTTP(w, r)
	})
}

func (rt *Router) notFound(w http.ResponseWriter, r *http.Request) {
	_ = WriteError(w, NotFound("Endpoint not found: %s %s", r.Method, r.URL.Path))
}

func (rt *Router) methodNotAllowed(w http.ResponseWriter, r *http.Request) {
	allowed := rt.allowedMethods(r)
	e := Errorf(http.StatusMethodNotAllowed, CodeMethodNotAllowed,
		"Method %s not allowed for %s (allowed: %s)", r.Method, r.URL.Path, strings.Join(allowed, ", "))
	e.Header = http.Header{"Allow": {strings.Join(allowed, ", ")}}
	_ = WriteError(w, e)
}

// allowedMethods lists the methods registered for r's path.
func (rt *Router) allowedMethods(r *http.Request) []string {
	seen := map[string]bool{}
	_ = rt.mux.Walk(func(route *mux.Route, _ *mux.Router, _ []*mux.Route) error {
		var m mux.RouteMatch
		probe := r.Clone(r.Context())
		methods, _ := route.GetMethods()
		for _, method := range methods {
			probe.Method = method
			if route.Match(probe, &m) && m.MatchErr == nil {
				seen[method] = true
			}
		}
		return nil
	})
	out := make([]string, 0, len(seen))
	for m := range seen {
		out = append(out, m)
	}
	sort.Strings(out)
	return out
}

// trackingWriter remembers whether the response has started and keeps it
// under the route's ceiling. With a ceiling, the status is held back until
// the first byte of the body passes the check, so a handler whose first
// Write is too large still gets its error envelope out.
type trackingWriter struct {
	http.ResponseWriter
	wrote   bool  // the status went out
	pending int   // a status held back (limit > 0)
	limit   int64 // 0: none
	written int64
}

func (w *trackingWriter) WriteHeader(code int) {
	if w.limit > 0 && !w.wrote && code >= 200 {
		if w.pending == 0 {
			w.pending = code
		}
		return
	}
	w.wrote = true
	w.ResponseWriter.WriteHeader(code)
}

// commit sends a held-back status.
func (w *trackingWriter) commit() {
	if w.pending != 0 && !w.wrote {
		w.wrote = true
		w.ResponseWriter.WriteHeader(w.pending)
	}
}

func (w *trackingWriter) Write(b []byte) (int, error) {
	if w.limit > 0 && w.written+int64(len(b)) > w.limit {
		return 0, ErrResponseTooLarge
	}
	w.commit()
	w.wrote = true
	n, err := w.ResponseWriter.Write(b)
	w.written += int64(n)
	return n, err
}

// unlimited lifts the ceiling for one error envelope; a status held back
// for a body that was never written is dropped.
func (w *trackingWriter) unlimited() http.ResponseWriter {
	w.limit = 0
	w.pending = 0
	return w
}

func (w *trackingWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		w.commit()
		w.wrote = true
		f.Flush()
	}
}

func (w *trackingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
