package backend

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"slices"
	"strings"

	"github.com/regelkit/regelkit/servers/editor/internal/flint"
	"github.com/regelkit/regelkit/sparql"
	"github.com/regelkit/regelkit/sparql/graph"
)

// DefaultMaxBodyBytes bounds request bodies (64 MiB).
const DefaultMaxBodyBytes = 64 << 20

// Options configure the backend.
type Options struct {
	// Stores are the graph stores by dataset "<organisation>/<dataset>".
	// Every dataset listed may be named by getTasksFromGraphStore.
	Stores map[string]GraphStore
	// Dataset is the configured dataset, used by every other endpoint.
	Dataset string
	// MaxBodyBytes bounds a request body; zero means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// Logger receives failures (never request bodies); nil discards.
	Logger *slog.Logger
}

type handler struct {
	opts Options
	mux  *http.ServeMux
	log  *slog.Logger
}

// New returns the backend's http.Handler.
func New(opts Options) http.Handler {
	if opts.MaxBodyBytes == 0 {
		opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	h := &handler{opts: opts, mux: http.NewServeMux(), log: opts.Logger}
	if h.log == nil {
		h.log = slog.New(slog.DiscardHandler)
	}
	h.mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		WriteJSON(w, http.StatusOK, message("Editor backend is running!"))
	})
	h.mux.HandleFunc("GET /api/getSources", h.getSources)
	h.mux.HandleFunc("POST /api/getSource", h.getSource)
	h.mux.HandleFunc("POST /api/getTasksFromGraphStore", h.getTasks)
	h.mux.HandleFunc("POST /api/getTasksFromTriply", h.getTasks)
	h.mux.HandleFunc("POST /api/getTask", h.getTask)
	h.mux.HandleFunc("POST /api/saveTaskAtGraphStore", h.saveTask)
	h.mux.HandleFunc("POST /api/saveTaskAtTriply", h.saveTask)
	h.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		WriteJSON(w, http.StatusNotFound, message("Not found!"))
	})
	return h.mux
}

func message(m string) map[string]any { return map[string]any{"message": m} }

// WriteJSON writes v as the JSON body (no HTML escaping: TriG and IRIs
// stay readable). The editor's services share it.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		status, buf = http.StatusInternalServerError, *bytes.NewBufferString(`{"message":"Internal error!"}`)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

func (h *handler) store() GraphStore { return h.opts.Stores[h.opts.Dataset] }

// decode reads a JSON object body; false means the answer was sent.
func (h *handler) decode(w http.ResponseWriter, r *http.Request, dst any) bool {
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.opts.MaxBodyBytes))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		WriteJSON(w, http.StatusRequestEntityTooLarge, message("Payload too large!"))
		return false
	case err != nil, json.Unmarshal(data, dst) != nil:
		WriteJSON(w, http.StatusBadRequest, message("Bad request!"))
		return false
	}
	return true
}

const listPrefixes = `PREFIX src: <` + flint.NSSrc + `>
PREFIX calc: <` + flint.NSCalc + `>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
`

// Sources need all four fields.
const sourcesQuery = listPrefixes + `SELECT DISTINCT ?iri ?title ?date ?editor WHERE {
  GRAPH ?g { ?iri a src:Source ; src:hasTitle ?title ; src:editedBy ?e . ?e rdfs:label ?editor .
             ?event src:generates ?iri ; src:ends ?date . }
}`

// Tasks need a title; date and editor are optional.
const tasksQuery = listPrefixes + `SELECT DISTINCT ?iri ?title ?date ?editor WHERE {
  GRAPH ?g { ?iri a calc:Task ; rdfs:label ?title .
    OPTIONAL { ?iri calc:hasEditedDate ?date }
    OPTIONAL { ?iri calc:hasEditor ?e . ?e rdfs:label ?editor } }
}`

// listing runs a listing query and shapes its answer the same way for every
// store: the four variables, newest first, undated last, then by IRI.
func listing(ctx context.Context, s GraphStore, query string) (*sparql.Results, error) {
	res, err := s.Select(ctx, query)
	if err != nil {
		return nil, err
	}
	sols := slices.Clone(res.Solutions)
	slices.SortStableFunc(sols, func(a, b sparql.Solution) int {
		da, okA := a["date"]
		db, okB := b["date"]
		switch {
		case okA && !okB:
			return -1
		case !okA && okB:
			return 1
		case okA && okB:
			switch graph.CompareLiterals(db, da) {
			case graph.Less:
				return -1
			case graph.Greater:
				return 1
			}
			if c := cmp.Compare(db.Value, da.Value); c != 0 {
				return c
			}
		}
		return cmp.Compare(a["iri"].Value, b["iri"].Value)
	})
	return &sparql.Results{Vars: []string{"iri", "title", "date", "editor"}, Solutions: sols}, nil
}

func (h *handler) getSources(w http.ResponseWriter, r *http.Request) {
	res, err := listing(r.Context(), h.store(), sourcesQuery)
	if err != nil {
		h.log.Warn("getSources failed", "error", errClass(err))
		WriteJSON(w, http.StatusInternalServerError, message("Issue retrieving the sources!"))
		return
	}
	WriteJSON(w, http.StatusOK, map[string]any{"message": "Sources retrieved!", "sources": res})
}

// decodeIRI reads the {iri} body of getSource and getTask.
func (h *handler) decodeIRI(w http.ResponseWriter, r *http.Request) (string, bool) {
	var body struct {
		IRI string `json:"iri"`
	}
	if !h.decode(w, r, &body) {
		return "", false
	}
	if !validIRI(body.IRI) {
		WriteJSON(w, http.StatusBadRequest, message("Bad request!"))
		return "", false
	}
	return body.IRI, true
}

func (h *handler) getSource(w http.ResponseWriter, r *http.Request) {
	iri, ok := h.decodeIRI(w, r)
	if !ok {
		return
	}
	g, err := h.store().Graph(r.Context(), iri)
	if err != nil {
		h.log.Warn("getSource failed", "error", errClass(err))
		WriteJSON(w, http.StatusInternalServerError, message("Issue with the turtle file!"))
		return
	}
	if g.Len() == 0 {
		WriteJSON(w, http.StatusNotFound, message("Source not found!"))
		return
	}
	var buf bytes.Buffer
	if err := flint.WriteTurtle(&buf, g); err != nil {
		WriteJSON(w, http.StatusInternalServerError, message("Issue with the turtle file!"))
		return
	}
	WriteJSON(w, http.StatusOK, map[string]any{"message": "Source retreived!", "source": buf.String()})
}

var endpointPattern = regexp.MustCompile(`^(datasets/)?([A-Za-z0-9._-]+/[A-Za-z0-9._-]+)/sparql$`)

func (h *handler) getTasks(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Endpoint string `json:"endpoint"`
	}
	if !h.decode(w, r, &body) {
		return
	}
	m := endpointPattern.FindStringSubmatch(body.Endpoint)
	// Dot segments would move the path on the store's host.
	if m == nil || slices.ContainsFunc(strings.Split(m[2], "/"), func(s string) bool { return s == "." || s == ".." }) {
		WriteJSON(w, http.StatusBadRequest, message("Bad request!"))
		return
	}
	s, ok := h.opts.Stores[m[2]]
	if !ok {
		WriteJSON(w, http.StatusForbidden, message("Endpoint not allowed!"))
		return
	}
	res, err := listing(r.Context(), s, tasksQuery)
	if err != nil {
		h.log.Warn("getTasks failed", "error", errClass(err))
		WriteJSON(w, http.StatusInternalServerError, message("Issue retrieving the tasks!"))
		return
	}
	WriteJSON(w, http.StatusOK, map[string]any{"message": "Tasks retrieved!", "tasks": res})
}

func (h *handler) getTask(w http.ResponseWriter, r *http.Request) {
	iri, ok := h.decodeIRI(w, r)
	if !ok {
		return
	}
	ctx, s := r.Context(), h.store()
	fail := func(err error) {
		h.log.Warn("getTask failed", "error", errClass(err))
		WriteJSON(w, http.StatusInternalServerError, message("Issue retrieving the task! Error: "+errClass(err)))
	}
	tg, err := s.Graph(ctx, iri)
	if err != nil {
		fail(err)
		return
	}
	if tg.Len() == 0 {
		WriteJSON(w, http.StatusNotFound, message("Task not found!"))
		return
	}
	ds := graph.NewDataset()
	task := graph.IRI(iri)
	ds.SetGraph(task, tg)
	for o := range tg.Objects(task, graph.IRI(flint.NSCalc+"involves")) {
		if !o.IsIRI() || !validIRI(o.Value) || o == task {
			continue
		}
		g, err := s.Graph(ctx, o.Value)
		if err != nil {
			fail(err)
			return
		}
		if g.Len() == 0 {
			h.log.Info("getTask: involved graph missing, skipped", "graph", o.Value)
			continue
		}
		ds.SetGraph(o, g)
	}
	var buf bytes.Buffer
	if err := flint.WriteTriG(&buf, ds, task); err != nil {
		fail(err)
		return
	}
	WriteJSON(w, http.StatusOK, map[string]any{"message": "Task retrieved!", "task": buf.String()})
}

func (h *handler) saveTask(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Task string `json:"task"`
	}
	if !h.decode(w, r, &body) {
		return
	}
	ds, err := graph.ParseDataset(strings.NewReader(body.Task), graph.TriG, graph.ParseOptions{})
	if err != nil || ds.Default().Len() > 0 || len(ds.Names()) == 0 {
		WriteJSON(w, http.StatusBadRequest, message("Issue with the trig file!"))
		return
	}
	ctx, s := r.Context(), h.store()
	fail := func(err error) {
		if errors.Is(err, ErrReadOnly) {
			WriteJSON(w, http.StatusServiceUnavailable, message("Graph store is read-only!"))
			return
		}
		h.log.Warn("saveTask failed", "error", errClass(err))
		WriteJSON(w, http.StatusInternalServerError, message("Issue saving the task! Error: "+errClass(err)))
	}
	existing, err := s.GraphNames(ctx)
	if err != nil {
		fail(err)
		return
	}
	var fresh []graph.Term
	for _, n := range ds.Names() {
		if !n.IsIRI() || !validIRI(n.Value) {
			WriteJSON(w, http.StatusBadRequest, message("Issue with the trig file!"))
			return
		}
		if ds.Named(n).Len() > 0 && !slices.Contains(existing, n.Value) {
			fresh = append(fresh, n)
		}
	}
	if len(fresh) == 0 {
		WriteJSON(w, http.StatusConflict, message("Error!"))
		return
	}
	slices.SortFunc(fresh, graph.CompareTerms)
	for _, n := range fresh {
		if err := s.PutGraph(ctx, n.Value, ds.Named(n)); err != nil {
			fail(err)
			return
		}
	}
	WriteJSON(w, http.StatusOK, message("Task saved!"))
}

// errClass is the short error summary clients and logs see: never a URL,
// token or store body.
func errClass(err error) string {
	var le interface{ LimitExceeded() string }
	var he *sparql.HTTPError
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "graph store timed out"
	case errors.As(err, &le):
		return "graph store limit exceeded"
	case errors.As(err, &he):
		return "graph store refused the request"
	case errors.Is(err, ErrReadOnly):
		return "graph store is read-only"
	}
	return "graph store unreachable"
}
