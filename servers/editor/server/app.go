package server

import (
	"context"
	"embed"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	editorexamples "github.com/regelkit/regelkit/examples/editor"
	"github.com/regelkit/regelkit/servers/editor/internal/backend"
	"github.com/regelkit/regelkit/servers/editor/internal/convert"
	"github.com/regelkit/regelkit/servers/editor/internal/predict"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/metrics"
	"github.com/regelkit/regelkit/sparql"
	"github.com/regelkit/regelkit/sparql/memstore"
)

//go:embed web
var webFS embed.FS

//go:embed openapi.json
var openAPIDoc []byte

// app holds the editor service's four handlers.
type app struct {
	backend, predict, toJSON, toRDF http.Handler
	store                           backend.GraphStore
	cfg                             *config
	logger                          *slog.Logger
	metrics                         *metrics.Metrics
}

func newApp(ctx context.Context, cfg *config, logger *slog.Logger) (*app, error) {
	m := metrics.New(metrics.Options{Server: "editor", Config: cfg.Metrics})
	stores := map[string]backend.GraphStore{}
	if cfg.SPARQLURL != "" {
		s := &backend.EndpointStore{Query: sparql.NewClient(cfg.SPARQLURL, sparql.ClientOptions{HTTPClient: m.Client("sparql", nil), BearerToken: cfg.ReadToken})}
		if !cfg.EmbeddedReadOnly {
			switch {
			case cfg.GraphStoreGSP != "":
				s.GraphStoreURL, s.BearerToken = cfg.GraphStoreGSP, cfg.WriteToken
			default:
				s.Update = sparql.NewClient(cmpOr(cfg.UpdateURL, cfg.SPARQLURL), sparql.ClientOptions{HTTPClient: m.Client("sparql", nil), BearerToken: cfg.WriteToken})
			}
		}
		stores[cfg.Dataset] = s
	} else if cfg.GraphStoreURL == "" {
		st := cfg.shared.KnowledgeGraph
		if st == nil {
			st = memstore.NewWithOptions(memstore.Options{UnionDefaultGraph: true})
		}
		s := &backend.EndpointStore{Query: st, Update: st}
		var seed fs.FS = editorexamples.FS
		if cfg.SeedDir != "" {
			seed = os.DirFS(cfg.SeedDir)
		}
		if err := backend.Seed(ctx, s, seed, time.Now); err != nil {
			return nil, err
		}
		if cfg.EmbeddedReadOnly {
			s.Update = nil
		}
		stores[embeddedDataset] = s
	} else {
		base := strings.TrimSuffix(cfg.GraphStoreURL, "/") + "/datasets/"
		for _, d := range cfg.AllowedDatasets {
			u := base + d + "/sparql"
			s := &backend.EndpointStore{Query: sparql.NewClient(u, sparql.ClientOptions{HTTPClient: m.Client("sparql", nil), BearerToken: cfg.ReadToken})}
			if cfg.WriteToken != "" && d == cfg.Dataset {
				if cfg.GraphStoreGSP != "" {
					s.GraphStoreURL, s.BearerToken = cfg.GraphStoreGSP, cfg.WriteToken
				} else {
					s.Update = sparql.NewClient(u, sparql.ClientOptions{HTTPClient: m.Client("sparql", nil), BearerToken: cfg.WriteToken})
				}
			}
			stores[d] = s
		}
	}
	store := stores[cfg.Dataset]
	if store == nil {
		store = stores[cfg.AllowedDatasets[0]]
	}
	convOpts := convert.Options{Store: store, APIKey: cfg.APIKey, MaxBodyBytes: cfg.MaxBodyBytes, Logger: logger}
	return &app{
		backend: backend.New(backend.Options{Stores: stores, Dataset: cfg.Dataset, MaxBodyBytes: cfg.MaxBodyBytes, Logger: logger}),
		predict: predict.New(predict.Options{ModelPath: cfg.ModelPath, DefaultModel: cfg.NLPDefaultModel, APIKey: cfg.APIKey}),
		toJSON:  convert.RDFToJSON(convOpts),
		toRDF:   convert.JSONToRDF(convOpts),
		store:   store,
		cfg:     cfg,
		logger:  logger,
		metrics: m,
	}, nil
}

// rewrite serves h with the request path replaced (the front strips /api).
func rewrite(h http.Handler, path string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r2 := r.Clone(r.Context())
		r2.URL.Path, r2.URL.RawPath = path, ""
		h.ServeHTTP(w, r2)
	})
}

// Handler is the path-routing front of spec §4.1.
func (a *app) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/api/predict", a.predict)
	mux.Handle("/api/process_graph", rewrite(a.toJSON, "/process_graph"))
	mux.Handle("/api/process_and_save", rewrite(a.toRDF, "/process_and_save"))
	mux.HandleFunc("GET /api/openapi.json", a.openAPI)
	mux.HandleFunc("GET /swagger/openapi.json", a.openAPI)
	mux.HandleFunc("GET /swagger", swaggerPage)
	mux.Handle("/api/", a.backend)
	mux.Handle("/", spa())
	return a.metrics.Wrap(cors(httpapi.Middleware(metrics.ServeMuxPatterns(mux),
		httpapi.MiddlewareOptions{Version: version, Logger: a.logger}), a.cfg.CORSOrigins))
}

// ConverterHandler serves the RDF-to-JSON converter on its own address,
// with the standalone graph pages of spec §4.4.
func (a *app) ConverterHandler() http.Handler {
	return a.metrics.Instrument(cors(httpapi.Middleware(metrics.Route("converter", a.toJSON),
		httpapi.MiddlewareOptions{Version: version, Logger: a.logger}), a.cfg.CORSOrigins))
}

func (a *app) openAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	_, _ = w.Write(openAPIDoc)
}

// cors allows every origin ("*") or a list, answering
// preflights, with the headers the front sends.
func cors(h http.Handler, origins []string) http.Handler {
	any := slices.Contains(origins, "*")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		allowed := origin != "" && (any || slices.Contains(origins, origin))
		if allowed {
			if any {
				w.Header().Set("Access-Control-Allow-Origin", "*")
			} else {
				w.Header().Set("Access-Control-Allow-Origin", origin)
				w.Header().Add("Vary", "Origin")
			}
		}
		if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			if !allowed {
				w.WriteHeader(http.StatusForbidden)
				return
			}
			w.Header().Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
			w.Header().Set("Access-Control-Allow-Headers", "Content-Type, X-API-KEY")
			w.Header().Set("Access-Control-Max-Age", "600")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// spa serves the embedded web application; unknown paths get index.html
// (history mode).
func spa() http.Handler {
	sub, _ := fs.Sub(webFS, "web")
	files := http.FileServerFS(sub)
	index, _ := fs.ReadFile(sub, "index.html")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name := strings.TrimPrefix(r.URL.Path, "/")
		if name != "" && name != "index.html" {
			if st, err := fs.Stat(sub, name); err == nil && !st.IsDir() {
				files.ServeHTTP(w, r)
				return
			}
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		_, _ = w.Write(index)
	})
}
