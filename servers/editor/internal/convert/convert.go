package convert

import (
	"bytes"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"html/template"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/regelkit/regelkit/servers/editor/internal/backend"
	"github.com/regelkit/regelkit/servers/editor/internal/flint"
	"github.com/regelkit/regelkit/sparql/graph"
)

// Options configure the converters.
type Options struct {
	// Store serves the standalone pages (graph names and downloads); nil
	// leaves only the conversion endpoints.
	Store backend.GraphStore
	// APIKey, when set, is required in X-API-KEY by JSONToRDF.
	APIKey string
	// MaxBodyBytes bounds a request body; zero means 64 MiB.
	MaxBodyBytes int64
	// Limits bound each conversion.
	Limits flint.Limits
	// Now stamps calc:hasEditedDate; nil means time.Now.
	Now    func() time.Time
	Logger *slog.Logger
}

func (o *Options) maxBody() int64 {
	if o.MaxBodyBytes == 0 {
		return backend.DefaultMaxBodyBytes
	}
	return o.MaxBodyBytes
}

func errorBody(msg string) map[string]any { return map[string]any{"error": msg} }

// readBody reads a bounded body; false means the answer was sent.
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, bool) {
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		backend.WriteJSON(w, http.StatusRequestEntityTooLarge, errorBody("Payload too large."))
		return nil, false
	case err != nil:
		backend.WriteJSON(w, http.StatusBadRequest, errorBody("Could not read the request body."))
		return nil, false
	}
	return data, true
}

// writeConversionError maps flint's errors: schema → 422 with details,
// limits → 400 naming the bound.
func writeConversionError(w http.ResponseWriter, err error) {
	var se *flint.SchemaError
	var le *flint.LimitError
	switch {
	case errors.As(err, &se):
		body := errorBody(se.Message)
		if len(se.Details) > 0 {
			body["details"] = se.Details
		}
		backend.WriteJSON(w, http.StatusUnprocessableEntity, body)
	case errors.As(err, &le):
		backend.WriteJSON(w, http.StatusBadRequest, map[string]any{"error": le.Error(), "code": "LIMIT_EXCEEDED"})
	default:
		backend.WriteJSON(w, http.StatusServiceUnavailable, errorBody("Conversion stopped."))
	}
}

// RDFToJSON returns the RDF-to-JSON converter with its standalone pages.
func RDFToJSON(opts Options) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /process_graph", func(w http.ResponseWriter, r *http.Request) {
		data, ok := readBody(w, r, opts.maxBody())
		if !ok {
			return
		}
		processGraph(w, r, data, opts)
	})
	if opts.Store != nil {
		mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) { picker(w, r, opts) })
		mux.HandleFunc("GET /get_graph_names", func(w http.ResponseWriter, r *http.Request) {
			names, err := opts.Store.GraphNames(r.Context())
			if err != nil {
				backend.WriteJSON(w, http.StatusBadGateway, errorBody("Graph store unreachable."))
				return
			}
			slices.Sort(names)
			backend.WriteJSON(w, http.StatusOK, append([]string{}, names...))
		})
		mux.HandleFunc("GET /download_graph/{graph_iri...}", func(w http.ResponseWriter, r *http.Request) {
			turtle, ok := download(w, r, opts)
			if !ok {
				return
			}
			w.Header().Set("Content-Type", "text/turtle; charset=utf-8")
			_, _ = w.Write(turtle)
		})
		mux.HandleFunc("GET /process_and_download_graph/{graph_iri...}", func(w http.ResponseWriter, r *http.Request) {
			turtle, ok := download(w, r, opts)
			if !ok {
				return
			}
			processGraph(w, r, turtle, opts)
		})
	}
	return mux
}

// graphIRI decodes the {graph_iri...} path value, repairing the
// scheme:/host that path cleaning makes of scheme://host.
func graphIRI(r *http.Request) string {
	raw := r.PathValue("graph_iri")
	if dec, err := url.PathUnescape(raw); err == nil {
		raw = dec
	}
	if i := strings.Index(raw, ":/"); i > 0 && !strings.HasPrefix(raw[i:], "://") {
		raw = raw[:i] + "://" + raw[i+2:]
	}
	return raw
}

// download reads the named graph as Turtle; false means the answer was sent.
func download(w http.ResponseWriter, r *http.Request, opts Options) ([]byte, bool) {
	iri := graphIRI(r)
	if !graph.IsAbsoluteIRI(iri) || strings.ContainsAny(iri, "<>\"{}|^`\\ ") {
		backend.WriteJSON(w, http.StatusBadRequest, errorBody("Not a graph IRI."))
		return nil, false
	}
	g, err := opts.Store.Graph(r.Context(), iri)
	if err != nil {
		backend.WriteJSON(w, http.StatusBadGateway, errorBody("Graph store unreachable."))
		return nil, false
	}
	if g.Len() == 0 {
		backend.WriteJSON(w, http.StatusNotFound, errorBody("Graph not found."))
		return nil, false
	}
	var buf bytes.Buffer
	if err := flint.WriteTurtle(&buf, g); err != nil {
		backend.WriteJSON(w, http.StatusInternalServerError, errorBody("Graph cannot be written as Turtle."))
		return nil, false
	}
	return buf.Bytes(), true
}

func processGraph(w http.ResponseWriter, r *http.Request, data []byte, opts Options) {
	ds, err := graph.ParseDataset(bytes.NewReader(data), graph.TriG, graph.ParseOptions{})
	if err != nil {
		var pe *graph.ParseError
		msg := err.Error()
		if errors.As(err, &pe) {
			msg = pe.Error()
		}
		msg = strings.TrimPrefix(msg, "graph: ")
		if len(msg) > 300 {
			msg = msg[:300] + "…"
		}
		backend.WriteJSON(w, http.StatusBadRequest, errorBody("Invalid Turtle/TriG: "+msg))
		return
	}
	res, err := flint.FromDataset(r.Context(), ds, flint.Options{Limits: opts.Limits})
	if err != nil {
		writeConversionError(w, err)
		return
	}
	if res.Task != nil {
		backend.WriteJSON(w, http.StatusOK, res.Task)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	_, _ = w.Write(append(res.Source, '\n'))
}

// CheckAPIKey answers 401 unless the request carries the key (compared in
// constant time). An empty key checks nothing (development).
func CheckAPIKey(w http.ResponseWriter, r *http.Request, key string) bool {
	if key == "" || subtle.ConstantTimeCompare([]byte(r.Header.Get("X-API-KEY")), []byte(key)) == 1 {
		return true
	}
	backend.WriteJSON(w, http.StatusUnauthorized, errorBody("Unauthorized: Invalid key"))
	return false
}

// JSONToRDF returns the JSON-to-RDF converter.
func JSONToRDF(opts Options) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /process_and_save", func(w http.ResponseWriter, r *http.Request) {
		if !CheckAPIKey(w, r, opts.APIKey) {
			return
		}
		data, ok := readBody(w, r, opts.maxBody())
		if !ok {
			return
		}
		var t flint.Task
		if err := json.Unmarshal(data, &t); err != nil {
			backend.WriteJSON(w, http.StatusBadRequest, errorBody("Invalid JSON."))
			return
		}
		ds, err := flint.ToDataset(r.Context(), &t, flint.Options{Limits: opts.Limits, Now: opts.Now})
		if err != nil {
			writeConversionError(w, err)
			return
		}
		var buf bytes.Buffer
		if err := flint.WriteTriG(&buf, ds, graph.IRI(t.ID)); err != nil {
			backend.WriteJSON(w, http.StatusUnprocessableEntity, map[string]any{"error": "Invalid interpretation.", "details": []string{err.Error()}})
			return
		}
		w.Header().Set("Content-Type", "application/trig; charset=utf-8")
		_, _ = w.Write(buf.Bytes())
	})
	return mux
}

var pickerPage = template.Must(template.New("picker").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Graphs</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem}li{margin:.3rem 0}code{background:#f3f3f3;padding:0 .3rem}</style>
</head><body><h1>Graphs of the dataset</h1>
{{if .}}<ul>{{range .}}<li><code>{{.Name}}</code> —
<a href="download_graph/{{.Path}}">Turtle</a> ·
<a href="process_and_download_graph/{{.Path}}">editor JSON</a></li>{{end}}</ul>
{{else}}<p>The dataset has no named graphs.</p>{{end}}
</body></html>
`))

func picker(w http.ResponseWriter, r *http.Request, opts Options) {
	names, err := opts.Store.GraphNames(r.Context())
	if err != nil {
		http.Error(w, "graph store unreachable", http.StatusBadGateway)
		return
	}
	slices.Sort(names)
	type entry struct{ Name, Path string }
	entries := make([]entry, len(names))
	for i, n := range names {
		entries[i] = entry{n, url.PathEscape(n)}
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = pickerPage.Execute(w, entries)
}
