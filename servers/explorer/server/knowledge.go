package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/regelkit/regelkit/examples"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/metrics"
	"github.com/regelkit/regelkit/servers/internal/openapi"
	"github.com/regelkit/regelkit/servers/internal/outbound"
	"github.com/regelkit/regelkit/sparql"
	"github.com/regelkit/regelkit/sparql/graph"
	"github.com/regelkit/regelkit/sparql/memstore"
)

// sparqlPath is where the embedded knowledge graph is served read-only.
const sparqlPath = "/v1/sparql"

// knowledgeGraph resolves the SPARQL endpoints callers name. The embedded
// store (the example knowledge graph) is answered in-process; the
// configured default endpoint and any other URL go through the SPARQL
// client, other URLs only when the outbound policy permits them.
type knowledgeGraph struct {
	store       *memstore.Store // nil when the embedded store is off
	embeddedURL string          // the embedded endpoint's public URL
	port        int
	defaultURL  string          // caller-facing URL of the default endpoint
	def         sparql.Endpoint // the default endpoint (embedded store or client)
	policy      *outbound.Policy
	method      sparql.QueryMethod
	metrics     *metrics.Metrics // times the calls to remote endpoints; nil: not

	mu      sync.Mutex
	clients map[string]*sparql.Client
}

// newKnowledgeGraph loads the embedded store when configured and sets up
// the default endpoint.
func newKnowledgeGraph(ctx context.Context, cfg *config, m *metrics.Metrics) (*knowledgeGraph, error) {
	kg := &knowledgeGraph{
		embeddedURL: strings.TrimSuffix(cfg.PublicBaseURL, "/") + sparqlPath,
		port:        cfg.Port,
		policy:      &outbound.Policy{Strict: cfg.OutboundStrict, Allow: cfg.OutboundAllow, Timeout: cfg.SPARQLTimeout},
		clients:     map[string]*sparql.Client{},
		method:      cfg.SPARQLQueryMethod,
		metrics:     m,
	}
	if cfg.EmbeddedStore {
		kg.store = cfg.shared.KnowledgeGraph
		if kg.store == nil {
			kg.store = memstore.NewWithOptions(memstore.Options{Limits: cfg.Limits.SPARQL()})
		}
		for _, path := range examples.KnowledgeGraph {
			// The graph's engine links point at this server, on any port.
			data, err := examples.KnowledgeGraphFile(path, cfg.PublicBaseURL)
			if err != nil {
				return nil, err
			}
			err = kg.store.Load(ctx, bytes.NewReader(data), graph.Turtle, memstore.WithBase("https://data.regelkit.example/"))
			if err != nil {
				return nil, fmt.Errorf("loading example knowledge graph %s: %w", path, err)
			}
		}
	}
	switch {
	case cfg.SPARQLEndpoint != "":
		kg.defaultURL = cfg.SPARQLEndpoint
		// The operator's own endpoint always passes the policy.
		kg.policy.Allow = append(kg.policy.Allow, cfg.SPARQLEndpoint)
		kg.def = kg.client(cfg.SPARQLEndpoint)
	case kg.store != nil:
		kg.defaultURL = kg.embeddedURL
		kg.def = kg.store
	}
	return kg, nil
}

// client returns the (cached) SPARQL client for a URL the policy permits.
func (kg *knowledgeGraph) client(raw string) *sparql.Client {
	kg.mu.Lock()
	defer kg.mu.Unlock()
	if c, ok := kg.clients[raw]; ok {
		return c
	}
	c := sparql.NewClient(raw, sparql.ClientOptions{
		HTTPClient:  kg.metrics.Client("sparql", kg.policy.Client()),
		QueryMethod: kg.method,
		Header:      http.Header{"User-Agent": {"regelkit-explorer/" + version}},
	})
	if len(kg.clients) > 256 { // callers name endpoints freely: keep the cache bounded
		clear(kg.clients)
	}
	kg.clients[raw] = c
	return c
}

// errNoEndpoint is returned when no endpoint is named and none is configured.
var errNoEndpoint = errors.New("no SPARQL endpoint configured")

// Resolve returns the endpoint for a caller-supplied URL; "" means the
// default endpoint. A refused URL is a 400 INVALID_REQUEST.
func (kg *knowledgeGraph) Resolve(ctx context.Context, raw string) (sparql.Endpoint, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		if kg.def == nil {
			return nil, httpapi.InvalidRequest("%v", errNoEndpoint)
		}
		return kg.def, nil
	}
	if kg.store != nil && kg.isEmbedded(raw) {
		return kg.store, nil
	}
	if raw == kg.defaultURL && kg.def != nil {
		return kg.def, nil
	}
	if _, err := kg.policy.Check(raw); err != nil {
		return nil, httpapi.InvalidRequest("%v", err)
	}
	return kg.client(raw), nil
}

// isEmbedded reports whether raw names the embedded endpoint: its public
// URL, the bare path, or this server on a loopback name and its port.
func (kg *knowledgeGraph) isEmbedded(raw string) bool {
	if raw == sparqlPath || strings.TrimSuffix(raw, "/") == kg.embeddedURL {
		return true
	}
	u, err := url.Parse(raw)
	if err != nil || strings.TrimSuffix(u.Path, "/") != sparqlPath || u.RawQuery != "" {
		return false
	}
	switch u.Hostname() {
	case "localhost", "127.0.0.1", "::1":
		return u.Port() == fmt.Sprint(kg.port)
	}
	return false
}

// Ping probes the default endpoint with the cheapest query that touches
// data.
func (kg *knowledgeGraph) Ping(ctx context.Context) error {
	if kg.def == nil {
		return errNoEndpoint
	}
	_, err := kg.def.Select(ctx, "SELECT ?s ?p ?o WHERE { ?s ?p ?o } LIMIT 1")
	return err
}

// routes mounts the embedded store read-only at /v1/sparql.
func (kg *knowledgeGraph) routes(r *httpapi.Router) {
	if kg.store == nil {
		return
	}
	h := kg.store.Handler(memstore.HandlerOptions{ReadOnly: true})
	queryParam := openapi.Query("query", "SPARQL 1.1 query", true)
	r.HandleRaw(sparqlPath, h, map[string]openapi.Operation{
		"GET": {
			Summary:     "Query the embedded knowledge graph (SPARQL 1.1 Protocol)",
			Description: "Read-only. Results as SPARQL JSON, XML, CSV or TSV and graphs as Turtle, N-Triples or JSON-LD, by Accept.",
			Tags:        []string{"knowledge graph"},
			Parameters:  []openapi.Parameter{queryParam},
			Responses: map[string]openapi.Response{
				"200": {Description: "query results"},
				"400": {Description: "malformed query (plain text, with line and column)"},
			},
		},
		"POST": {
			Summary:     "Query the embedded knowledge graph (SPARQL 1.1 Protocol, POST)",
			Description: "Body application/sparql-query or a form with `query`. Updates are refused with 403: the embedded store is read-only.",
			Tags:        []string{"knowledge graph"},
			RequestBody: &openapi.RequestBody{Required: true, Content: map[string]openapi.MediaType{
				"application/sparql-query":          {Schema: openapi.String("SPARQL 1.1 query")},
				"application/x-www-form-urlencoded": {Schema: openapi.Object(map[string]openapi.Schema{"query": openapi.String("")}, "query")},
			}},
			Responses: map[string]openapi.Response{
				"200": {Description: "query results"},
				"403": {Description: "updates are refused"},
			},
		},
	})
}
