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
	"strings"
	"time"

	"github.com/regelkit/regelkit/sparql"
	"github.com/regelkit/regelkit/sparql/graph"
)

// HandlerOptions configure the SPARQL 1.1 Protocol handler.
type HandlerOptions struct {
	// ReadOnly refuses updates with 403 Forbidden.
	ReadOnly bool
	// Timeout bounds each query or update; zero means 60 seconds.
	Timeout time.Duration
	// MaxBodyBytes bounds a request body; zero means 10 MB.
	MaxBodyBytes int64
	// Logger receives one line per failed request; nil discards.
	Logger *slog.Logger
}

// Handler returns an http.Handler that serves the store over the SPARQL
// 1.1 Protocol: queries by GET (?query=) or POST (form or
// application/sparql-query), updates by POST (form or
// application/sparql-update). Results are JSON, XML, CSV or TSV and graphs
// Turtle, N-Triples or JSON-LD, chosen by the Accept header.
func (s *Store) Handler(opts HandlerOptions) http.Handler {
	if opts.Timeout <= 0 {
		opts.Timeout = 60 * time.Second
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = 10 << 20
	}
	return &handler{s: s, opts: opts}
}

type handler struct {
	s    *Store
	opts HandlerOptions
}

var resultOffers = []string{sparql.MediaResultsJSON, sparql.MediaResultsXML, sparql.MediaCSV, sparql.MediaTSV, "application/json", "application/xml"}
var graphOffers = []string{sparql.MediaTurtle, sparql.MediaNTriples, sparql.MediaJSONLD, "application/n-quads", "application/trig", "text/plain"}

func (h *handler) fail(w http.ResponseWriter, r *http.Request, status int, msg string) {
	if h.opts.Logger != nil {
		h.opts.Logger.Info("sparql request failed", "method", r.Method, "status", status, "error", msg)
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	io.WriteString(w, msg+"\n")
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var query, update string
	var params url.Values
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		params = r.URL.Query()
		query = params.Get("query")
		if params.Has("update") {
			h.fail(w, r, http.StatusBadRequest, "updates must be sent with POST")
			return
		}
		if query == "" {
			h.fail(w, r, http.StatusBadRequest, "missing query parameter")
			return
		}
	case http.MethodPost:
		ct, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if err != nil {
			h.fail(w, r, http.StatusUnsupportedMediaType, "missing or invalid Content-Type")
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.opts.MaxBodyBytes))
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				h.fail(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body over %d bytes", h.opts.MaxBodyBytes))
				return
			}
			h.fail(w, r, http.StatusBadRequest, "reading the request body failed")
			return
		}
		params = r.URL.Query()
		switch ct {
		case sparql.MediaQuery:
			query = string(body)
		case sparql.MediaUpdate:
			update = string(body)
		case sparql.MediaForm:
			form, err := url.ParseQuery(string(body))
			if err != nil {
				h.fail(w, r, http.StatusBadRequest, "malformed form body")
				return
			}
			for k, v := range form {
				params[k] = append(params[k], v...)
			}
			query, update = form.Get("query"), form.Get("update")
		default:
			h.fail(w, r, http.StatusUnsupportedMediaType, "unsupported Content-Type "+ct+"; use application/sparql-query, application/sparql-update or a form")
			return
		}
		if (query == "") == (update == "") {
			h.fail(w, r, http.StatusBadRequest, "send exactly one of query or update")
			return
		}
	default:
		w.Header().Set("Allow", "GET, HEAD, POST")
		h.fail(w, r, http.StatusMethodNotAllowed, "method not allowed")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), h.opts.Timeout)
	defer cancel()
	if update != "" {
		if h.opts.ReadOnly {
			h.fail(w, r, http.StatusForbidden, "this endpoint is read-only: updates are refused")
			return
		}
		err := h.s.UpdateWith(ctx, update, UpdateOptions{UsingGraphs: params["using-graph-uri"], UsingNamedGraphs: params["using-named-graph-uri"]})
		if err != nil {
			h.fail(w, r, statusOf(err), err.Error())
			return
		}
		w.WriteHeader(http.StatusNoContent)
		return
	}
	res, err := h.s.QueryWith(ctx, query, QueryOptions{DefaultGraphs: params["default-graph-uri"], NamedGraphs: params["named-graph-uri"]})
	if err != nil {
		h.fail(w, r, statusOf(err), err.Error())
		return
	}
	accept := r.Header.Get("Accept")
	if f := params.Get("format"); f != "" {
		accept = formatAlias(f)
	}
	if res.Graph != nil {
		h.writeGraph(w, r, accept, res.Graph)
		return
	}
	mt := sparql.Negotiate(accept, resultOffers)
	if mt == "" {
		mt = sparql.MediaResultsJSON
	}
	w.Header().Set("Vary", "Accept")
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

func (h *handler) writeGraph(w http.ResponseWriter, r *http.Request, accept string, g *graph.Graph) {
	mt := sparql.Negotiate(accept, graphOffers)
	if mt == "" || mt == "text/plain" {
		if mt == "" {
			mt = sparql.MediaTurtle
		} else {
			mt = sparql.MediaNTriples
		}
	}
	f, ok := graph.FormatFor(mt)
	if !ok {
		f, mt = graph.Turtle, sparql.MediaTurtle
	}
	w.Header().Set("Vary", "Accept")
	w.Header().Set("Content-Type", mt+"; charset=utf-8")
	if err := graph.WriteGraph(w, f, g, graph.WriteOptions{}); err != nil && h.opts.Logger != nil {
		h.opts.Logger.Info("writing graph failed", "error", err)
	}
}

func statusOf(err error) int {
	var syn *SyntaxError
	var upd *UpdateError
	switch {
	case errors.As(err, &syn), errors.As(err, &upd), errors.Is(err, ErrLoadUnsupported):
		return http.StatusBadRequest
	case errors.Is(err, context.DeadlineExceeded):
		return http.StatusServiceUnavailable
	case errors.Is(err, context.Canceled):
		return 499
	}
	return http.StatusInternalServerError
}
