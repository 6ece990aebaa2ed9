package memstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/regelkit/regelkit/sparql"
	"github.com/regelkit/regelkit/sparql/graph"
	"github.com/regelkit/regelkit/sparql/memstore/internal/algebra"
)

// HandlerOptions configure the SPARQL 1.1 Protocol handler.
type HandlerOptions struct {
	// ReadOnly refuses updates and Graph Store writes (PUT, POST of RDF,
	// DELETE) with 403 Forbidden.
	ReadOnly bool
	// Timeout bounds each query or update; zero means 60 seconds.
	Timeout time.Duration
	// MaxBodyBytes bounds a request body; zero means 10 MB.
	MaxBodyBytes int64
	// MountPath is the URL path the handler is served at, e.g. "/sparql".
	// When set, a request for a path below it (/sparql/people/1) names the
	// graph whose IRI is the request URL, the Graph Store Protocol's
	// direct graph identification, and graphs created by POST get IRIs
	// there; the caller must route those paths to the handler. Empty:
	// graphs are named only by ?graph= and ?default.
	MountPath string
	// Logger receives one line per failed request; nil discards.
	Logger *slog.Logger
	// Explain lets a query request carry explain=true to get, instead of
	// its results, the plans its evaluation chose (Store.Explain) as
	// text/plain. A debugging aid: the query still runs in full under
	// its limits. Off, the parameter is ignored.
	Explain bool
}

// Handler returns an http.Handler that serves the store over the SPARQL
// 1.1 Protocol: queries by GET (?query=) or POST (form or
// application/sparql-query), updates by POST (form or
// application/sparql-update). Results are JSON, XML, CSV or TSV and graphs
// Turtle, N-Triples, JSON-LD or RDF/XML, chosen by the Accept header.
//
// The same handler serves the SPARQL 1.1 Graph Store HTTP Protocol on
// ?default and ?graph=<iri> (and below MountPath): GET and HEAD read a
// graph, PUT replaces it, POST merges into it and DELETE drops it; a POST
// of RDF to the endpoint itself creates a new graph (201 and Location).
// A GET of the endpoint without parameters returns its service
// description (RDF).
func (s *Store) Handler(opts HandlerOptions) http.Handler {
	if opts.Timeout <= 0 {
		opts.Timeout = 60 * time.Second
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = 10 << 20
	}
	opts.MountPath = strings.TrimSuffix(opts.MountPath, "/")
	return &handler{s: s, opts: opts}
}

type handler struct {
	s    *Store
	opts HandlerOptions
}

var resultOffers = []string{sparql.MediaResultsJSON, sparql.MediaResultsXML, sparql.MediaCSV, sparql.MediaTSV, "application/json", "application/xml"}
var graphOffers = []string{sparql.MediaTurtle, sparql.MediaNTriples, sparql.MediaJSONLD, "application/rdf+xml", "application/n-quads", "application/trig", "text/plain"}

func (h *handler) fail(w http.ResponseWriter, r *http.Request, status int, msg string) {
	if h.opts.Logger != nil {
		h.opts.Logger.Info("sparql request failed", "method", r.Method, "status", status, "error", msg)
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	io.WriteString(w, msg+"\n")
}

// failErr answers a failed query or update. An internal failure (500)
// keeps its cause out of the body, which strangers read; the log has it.
func (h *handler) failErr(w http.ResponseWriter, r *http.Request, err error) {
	status := statusOf(err)
	if status == http.StatusInternalServerError {
		if h.opts.Logger != nil {
			h.opts.Logger.Error("sparql evaluation failed", "method", r.Method, "error", err)
		}
		h.fail(w, r, status, "internal error while evaluating the request")
		return
	}
	h.fail(w, r, status, err.Error())
}

// requestURL is the URL the client used, without query: the base IRI of
// queries and updates, the endpoint of the service description and the
// IRI of directly identified graphs.
func requestURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host + r.URL.EscapedPath()
}

// endpointURL is requestURL for a request at the endpoint itself, whose
// path may carry a trailing slash.
func (h *handler) endpointURL(r *http.Request) string {
	return strings.TrimSuffix(requestURL(r), "/")
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	params := r.URL.Query()
	if target, ok, msg := h.graphTarget(r, params); msg != "" {
		h.fail(w, r, http.StatusBadRequest, msg)
		return
	} else if ok {
		h.serveGraph(w, r, target)
		return
	}
	var query, update string
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		if params.Has("update") {
			h.fail(w, r, http.StatusBadRequest, "updates must be sent with POST")
			return
		}
		if len(params["query"]) > 1 {
			h.fail(w, r, http.StatusBadRequest, "send one query parameter, not several")
			return
		}
		query = params.Get("query")
		if query == "" {
			if len(params) == 0 {
				h.serviceDescription(w, r)
				return
			}
			h.fail(w, r, http.StatusBadRequest, "missing query parameter")
			return
		}
	case http.MethodPost:
		var ok bool
		if query, update, ok = h.readPost(w, r, params); !ok {
			return
		}
	default:
		// PUT and DELETE are for graphs (?default, ?graph=), not the endpoint
		w.Header().Set("Allow", "GET, HEAD, POST")
		h.fail(w, r, http.StatusMethodNotAllowed, r.Method+" is not allowed on the endpoint; PUT and DELETE name a graph with ?default or ?graph=<iri>")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), h.opts.Timeout)
	defer cancel()
	if update != "" {
		h.update(ctx, w, r, update, params)
		return
	}
	h.query(ctx, w, r, query, params)
}

// readPost reads the query or update of a POST request (a body of
// application/sparql-query, application/sparql-update or a form, whose
// fields it adds to params). When ok is false it has answered the
// request: with an error, or by storing a posted RDF document as a new
// graph.
func (h *handler) readPost(w http.ResponseWriter, r *http.Request, params url.Values) (query, update string, ok bool) {
	ct, ctParams, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil {
		h.fail(w, r, http.StatusUnsupportedMediaType, "missing or invalid Content-Type; use application/sparql-query, application/sparql-update or a form")
		return "", "", false
	}
	if ct != sparql.MediaQuery && ct != sparql.MediaUpdate && ct != sparql.MediaForm {
		if _, ok := rdfPayloadFormat(ct); ok {
			// an RDF document posted to the endpoint: a new graph
			h.serveGraph(w, r, graphTarget{})
			return "", "", false
		}
		h.fail(w, r, http.StatusUnsupportedMediaType, "unsupported Content-Type "+excerpt(ct)+"; use application/sparql-query, application/sparql-update or a form")
		return "", "", false
	}
	if cs, ok := ctParams["charset"]; ok && !strings.EqualFold(cs, "utf-8") {
		h.fail(w, r, http.StatusUnsupportedMediaType, "unsupported charset "+excerpt(cs)+"; SPARQL requests are UTF-8")
		return "", "", false
	}
	if ct == sparql.MediaUpdate && h.opts.ReadOnly {
		h.fail(w, r, http.StatusForbidden, "this endpoint is read-only: updates are refused")
		return "", "", false
	}
	body, ok := h.readBody(w, r)
	if !ok {
		return "", "", false
	}
	if !utf8.Valid(body) {
		h.fail(w, r, http.StatusBadRequest, "the request body is not UTF-8")
		return "", "", false
	}
	switch ct {
	case sparql.MediaQuery:
		query = string(body)
	case sparql.MediaUpdate:
		update = string(body)
	case sparql.MediaForm:
		form, err := url.ParseQuery(string(body))
		if err != nil {
			h.fail(w, r, http.StatusBadRequest, "malformed form body")
			return "", "", false
		}
		if len(form["query"]) > 1 || len(form["update"]) > 1 {
			h.fail(w, r, http.StatusBadRequest, "send one query or update, not several")
			return "", "", false
		}
		for k, v := range form {
			params[k] = append(params[k], v...)
		}
		query, update = form.Get("query"), form.Get("update")
	}
	if (query == "") == (update == "") {
		h.fail(w, r, http.StatusBadRequest, "send exactly one of query or update")
		return "", "", false
	}
	return query, update, true
}

// update runs an update and answers 204.
func (h *handler) update(ctx context.Context, w http.ResponseWriter, r *http.Request, update string, params url.Values) {
	if h.opts.ReadOnly {
		h.fail(w, r, http.StatusForbidden, "this endpoint is read-only: updates are refused")
		return
	}
	base := h.endpointURL(r)
	opts := UpdateOptions{Base: base, UsingGraphs: params["using-graph-uri"], UsingNamedGraphs: params["using-named-graph-uri"]}
	if opts.UsingGraphs != nil || opts.UsingNamedGraphs != nil {
		if msg := usingConflict(update, base); msg != "" {
			h.fail(w, r, http.StatusBadRequest, msg)
			return
		}
	}
	if err := h.s.UpdateWith(ctx, update, opts); err != nil {
		h.failErr(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// query runs a query and writes its results or graph in the negotiated
// format.
func (h *handler) query(ctx context.Context, w http.ResponseWriter, r *http.Request, query string, params url.Values) {
	opts := QueryOptions{Base: h.endpointURL(r), DefaultGraphs: params["default-graph-uri"], NamedGraphs: params["named-graph-uri"]}
	if h.opts.Explain && params.Get("explain") == "true" {
		plan, err := h.s.Explain(ctx, query, opts)
		if err != nil {
			h.failErr(w, r, err)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, plan)
		return
	}
	q, x, err := h.s.prepare(ctx, query, opts)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	accept := r.Header.Get("Accept")
	if f := params.Get("format"); f != "" {
		accept = formatAlias(f)
	}
	if q.Form == algebra.Select {
		h.streamSelect(w, r, accept, q, x)
		return
	}
	res, err := x.runQuery(q)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	if res.Graph != nil {
		h.writeGraph(w, r, accept, res.Graph, false)
		return
	}
	mt := sparql.Negotiate(accept, resultOffers)
	if mt == "" {
		mt = sparql.MediaResultsJSON
	}
	w.Header().Add("Vary", "Accept")
	switch mt {
	case sparql.MediaResultsXML, "application/xml":
		w.Header().Set("Content-Type", sparql.MediaResultsXML+"; charset=utf-8")
		err = sparql.WriteXML(w, res.Results)
	case sparql.MediaCSV:
		w.Header().Set("Content-Type", sparql.MediaCSV+"; charset=utf-8")
		err = sparql.WriteCSV(w, res.Results)
	case sparql.MediaTSV:
		w.Header().Set("Content-Type", sparql.MediaTSV+"; charset=utf-8")
		err = sparql.WriteTSV(w, res.Results)
	default:
		w.Header().Set("Content-Type", sparql.MediaResultsJSON+"; charset=utf-8")
		err = sparql.WriteJSON(w, res.Results)
	}
	if err != nil && h.opts.Logger != nil {
		h.opts.Logger.Info("writing sparql results failed", "error", err)
	}
}

// streamSelect answers a SELECT query by encoding its solutions as
// evaluation produces them (sparql.RowWriter), so a long result is never
// held whole: memory stays at the writer's buffer. An error before the
// first buffer left (a limit, a syntax problem found while compiling) is
// answered as any failed query; once the response has started, a failure
// cuts the connection, so the client sees a truncated response, never a
// complete-looking one.
func (h *handler) streamSelect(w http.ResponseWriter, r *http.Request, accept string, q *algebra.Query, x *exec) {
	start := time.Now()
	mt := sparql.Negotiate(accept, resultOffers)
	if mt == "" {
		mt = sparql.MediaResultsJSON
	}
	switch mt {
	case "application/xml":
		mt = sparql.MediaResultsXML
	case "application/json":
		mt = sparql.MediaResultsJSON
	}
	out := &countingWriter{w: w}
	rw, err := sparql.NewRowWriter(out, mt, q.Vars)
	if err != nil {
		h.failErr(w, r, err)
		return
	}
	w.Header().Add("Vary", "Accept")
	w.Header().Set("Content-Type", mt+"; charset=utf-8")
	var writeErr error
	err = x.streamSelect(q, func(row []graph.Term) bool {
		writeErr = rw.WriteRow(row)
		return writeErr == nil
	})
	if err == nil && writeErr == nil {
		writeErr = rw.Close()
	}
	if h.opts.Logger != nil {
		h.opts.Logger.Debug("sparql select answered", "rows", rw.Rows(), "bytes", out.n, "duration", time.Since(start))
	}
	switch {
	case err != nil && out.n == 0:
		w.Header().Del("Content-Type")
		h.failErr(w, r, err)
	case err != nil:
		if h.opts.Logger != nil {
			h.opts.Logger.Info("sparql select failed after its results started; connection cut", "status", statusOf(err), "error", err)
		}
		panic(http.ErrAbortHandler)
	case writeErr != nil && h.opts.Logger != nil:
		h.opts.Logger.Info("writing sparql results failed", "error", writeErr)
	}
}

// countingWriter counts the bytes passed to the response.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += int64(n)
	return n, err
}

// readBody reads the request body within MaxBodyBytes; on failure it has
// answered the request.
func (h *handler) readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.opts.MaxBodyBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			h.fail(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body over %d bytes", h.opts.MaxBodyBytes))
			return nil, false
		}
		h.fail(w, r, http.StatusBadRequest, "reading the request body failed")
		return nil, false
	}
	return body, true
}

// usingConflict reports an update that names its dataset (USING, USING
// NAMED or WITH) although the request does too (using-graph-uri,
// using-named-graph-uri), which the protocol (§2.2.3) makes an error.
func usingConflict(update, base string) string {
	u, err := algebra.ParseUpdate(update, algebra.Options{Base: base})
	if err != nil {
		return "" // UpdateWith reports the syntax error
	}
	for i, op := range u.Ops {
		if m, ok := op.(*algebra.Modify); ok && (m.HasUsing || m.With != "") {
			return fmt.Sprintf("operation %d of the update has USING or WITH, which conflicts with the using-graph-uri and using-named-graph-uri parameters", i+1)
		}
	}
	return ""
}

// excerpt quotes at most 100 bytes of a caller's value.
func excerpt(s string) string {
	if len(s) > 100 {
		s = s[:100] + "..."
	}
	return strconv.Quote(s)
}

func formatAlias(f string) string {
	switch strings.ToLower(f) {
	case "json":
		return sparql.MediaResultsJSON
	case "xml":
		return sparql.MediaResultsXML
	case "csv":
		return sparql.MediaCSV
	case "tsv":
		return sparql.MediaTSV
	case "turtle", "ttl":
		return sparql.MediaTurtle
	case "ntriples", "nt":
		return sparql.MediaNTriples
	case "jsonld", "json-ld":
		return sparql.MediaJSONLD
	}
	return f
}

// writeGraph writes g in the format the Accept header asks for. When
// strict, an Accept header that admits no graph format gets 406;
// otherwise Turtle.
func (h *handler) writeGraph(w http.ResponseWriter, r *http.Request, accept string, g *graph.Graph, strict bool) {
	mt := sparql.Negotiate(accept, graphOffers)
	switch mt {
	case "":
		if strict {
			h.fail(w, r, http.StatusNotAcceptable, "no acceptable graph format; offered: "+strings.Join(graphOffers[:4], ", "))
			return
		}
		mt = sparql.MediaTurtle
	case "text/plain":
		mt = sparql.MediaNTriples
	}
	f, ok := graph.FormatFor(mt)
	if !ok {
		f, mt = graph.Turtle, sparql.MediaTurtle
	}
	w.Header().Add("Vary", "Accept")
	w.Header().Set("Content-Type", mt+"; charset=utf-8")
	if err := graph.WriteGraph(w, f, g, graph.WriteOptions{}); err != nil && h.opts.Logger != nil {
		h.opts.Logger.Info("writing graph failed", "error", err)
	}
}

// statusOf maps an evaluation error to its HTTP status. A budget error
// (any error with a LimitExceeded method, the shared limits contract) is
// 503 for Timeout and 400 for the other limits.
func statusOf(err error) int {
	var syn *SyntaxError
	var upd *UpdateError
	var limit interface{ LimitExceeded() string }
	switch {
	case errors.As(err, &limit):
		if limit.LimitExceeded() == "Timeout" {
			return http.StatusServiceUnavailable
		}
		return http.StatusBadRequest
	case errors.As(err, &syn), errors.As(err, &upd), errors.Is(err, ErrLoadUnsupported):
		return http.StatusBadRequest
	case errors.Is(err, context.DeadlineExceeded):
		return http.StatusServiceUnavailable
	case errors.Is(err, context.Canceled):
		return 499
	}
	return http.StatusInternalServerError
}
