package server

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/regelkit/regelkit/examples"
	"github.com/regelkit/regelkit/servers/business/internal/assistant"
	"github.com/regelkit/regelkit/servers/business/internal/mcptools"
	"github.com/regelkit/regelkit/servers/internal/assets"
	"github.com/regelkit/regelkit/servers/internal/auth"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/openapi"
	"github.com/regelkit/regelkit/sparql/graph"
	"github.com/regelkit/regelkit/sparql/memstore"
)

const mcpServerPath = "/v1/mcp/server"

// knowledgeGraphLimits bound the model's SPARQL: it writes the queries.
var knowledgeGraphLimits = memstore.Limits{Timeout: 10 * time.Second, MaxRows: 10_000, MaxBytes: 1 << 20, MaxTotalBytes: 64 << 20}

// embeddedKnowledgeGraph loads the example knowledge graph into a bounded
// store.
func embeddedKnowledgeGraph(ctx context.Context) (*memstore.Store, error) {
	s := memstore.NewWithOptions(memstore.Options{Limits: knowledgeGraphLimits})
	for _, path := range examples.KnowledgeGraph {
		data, err := fs.ReadFile(examples.FS, path)
		if err != nil {
			return nil, err
		}
		if err := s.Load(ctx, bytes.NewReader(data), graph.Turtle); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	return s, nil
}

var providerID = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,31}$`)

// mcpExternal parses CPRMV_* and MCP_EXTERNAL_SERVERS into the external
// providers.
func (c *config) mcpExternal() ([]mcptools.External, error) {
	var out []mcptools.External
	if c.CPRMVEnabled {
		out = append(out, mcptools.External{ID: mcptools.ProviderCPRMV, DisplayName: "Rule-serving API",
			Description: "Norms and rules of Dutch and European law by reference", URL: c.CPRMVURL, Allowed: mcptools.CPRMVTools})
	}
	if c.TriplyDBMCPEnabled {
		out = append(out, mcptools.External{ID: mcptools.ProviderTriplyDB, DisplayName: "Knowledge graph (hosted)",
			Description: "Decision models, rules, services, organisations and concepts of the hosted knowledge graph",
			URL:         c.TriplyDBEndpoint, Allowed: mcptools.TriplyDBTools, BearerToken: c.TriplyDBToken})
	}
	seen := map[string]bool{mcptools.ProviderOperaton: true, mcptools.ProviderTriplyDB: true, mcptools.ProviderLDE: true, mcptools.ProviderCPRMV: true}
	for _, entry := range c.MCPExternal {
		id, target, ok := strings.Cut(entry, "=")
		id, target = strings.TrimSpace(id), strings.TrimSpace(target)
		if !ok || !providerID.MatchString(id) || target == "" {
			return nil, fmt.Errorf("MCP_EXTERNAL_SERVERS entry %q must be id=URL or id=command (id: lower-case letters, digits, - or _)", entry)
		}
		if seen[id] {
			return nil, fmt.Errorf("MCP_EXTERNAL_SERVERS names the provider %q twice or takes a built-in id", id)
		}
		seen[id] = true
		e := mcptools.External{ID: id, DisplayName: id, Description: "External MCP server " + id}
		if strings.HasPrefix(target, "http://") || strings.HasPrefix(target, "https://") {
			e.URL = target
		} else {
			e.Command = strings.Fields(target)
		}
		out = append(out, e)
	}
	return out, nil
}

// assistantRoutes mounts the AI assistant (spec §4.8) and regelkit's MCP
// server, both for caseworkers and admins.
func (a *app) assistantRoutes(ctx context.Context, r *httpapi.Router) error {
	kg, err := embeddedKnowledgeGraph(ctx)
	if err != nil {
		return fmt.Errorf("knowledge graph: %w", err)
	}
	tools := mcptools.Options{Engine: a.engine, Graph: kg, EngineTimeout: a.cfg.EngineTimeout, Version: version}
	if pe, err := a.processEngine(); err == nil {
		tools.Processes = pe
	}
	if a.cfg.LDEMCPEnabled {
		// A reader: the explorer owns and migrates these tables. An
		// unreachable database is no boot failure; the provider shows
		// connected:false until it answers.
		store, err := assets.Open(ctx, a.cfg.LDEDatabaseURL, assets.Options{Logger: a.logger, Reader: true, Tracer: a.metrics.Database("lde")})
		if err != nil {
			return fmt.Errorf("LDE_DATABASE_URL: %w", err)
		}
		a.closers = append(a.closers, store.Close)
		tools.Assets = store
	}
	external, err := a.cfg.mcpExternal()
	if err != nil {
		return err
	}
	var catalog *mcptools.Catalog
	if a.cfg.MCPEnabled {
		catalog = mcptools.NewCatalog(tools, a.logger, external...)
		a.closers = append(a.closers, catalog.Close)
		// External providers connect in the background: boot does not wait
		// for them, and each shows connected:false until it is reached.
		cctx, cancel := context.WithCancel(context.Background())
		a.closers = append(a.closers, cancel)
		go catalog.Connect(cctx)
	}
	svc := assistant.New(assistant.Options{
		Enabled: a.cfg.MCPEnabled, AnthropicKey: a.cfg.AnthropicAPIKey, OpenAIKey: a.cfg.OpenAIAPIKey,
		AnthropicBaseURL: a.cfg.AnthropicBaseURL, OpenAIBaseURL: a.cfg.OpenAIBaseURL,
		Catalog: catalogOrNil(catalog), Logger: a.logger, HTTPClient: a.metrics.Client("assistant", nil),
	})

	a.mounted["mcp"] = "/v1/mcp"
	role := auth.RequireRole(auth.RoleCaseworker, auth.RoleAdmin)
	tags := []string{"assistant"}
	r.Handle("GET", "/v1/mcp/sources", a.auth.Guard(svc.HandleSources, role), openapi.Operation{
		Summary:     "The assistant's tool providers",
		Description: "JWT with role caseworker or admin. data: [{id, displayName, description, connected}]; [] when MCP_ENABLED=false.",
		Tags:        tags, Responses: map[string]openapi.Response{"200": {Description: "sources"}},
	})
	r.Handle("GET", "/v1/mcp/models", a.auth.Guard(svc.HandleModels, role), openapi.Operation{
		Summary:     "The language models usable as modelId",
		Description: "data: [{id, displayName, providerId, providerDisplayName}] of the providers whose API key is set, listed even when the assistant is disabled.",
		Tags:        tags, Responses: map[string]openapi.Response{"200": {Description: "models"}},
	})
	r.Handle("POST", "/v1/mcp/chat", a.auth.Guard(svc.HandleChat, role), openapi.Operation{
		Summary: "One agentic turn of the assistant, streamed as server-sent events",
		Description: "Body {message, modelId, history?: [{role: user|assistant, content}] (≤ 50), sources?: [provider ids]}. " +
			"Events `data: {type: status|delta|done|error, ...}`; `: keep-alive` comments every 15 s; at most 10 tool rounds; 480 s per turn; " +
			"error {type, code: TIMEOUT|MODEL_ERROR|TOOL_ERROR|INTERNAL, message} ends the stream without done. " +
			"Before the stream: 400 INVALID_REQUEST, 503 MCP_DISABLED, 503 MCP_NOT_CONNECTED, 429 RATE_LIMIT_EXCEEDED (64 turns in progress). " +
			"Not audited; the text is never logged.",
		Tags: tags,
		Responses: map[string]openapi.Response{
			"200": {Description: "text/event-stream"},
			"400": {Description: "INVALID_REQUEST"},
			"429": {Description: "RATE_LIMIT_EXCEEDED"},
			"503": {Description: "MCP_DISABLED or MCP_NOT_CONNECTED"},
		},
	})
	if !a.cfg.MCPServer {
		return nil
	}
	h := mcptools.Handler(tools, func(r *http.Request) (mcptools.Caller, bool) {
		p := auth.FromContext(r.Context())
		if p == nil {
			return mcptools.Caller{}, false
		}
		return mcptools.Caller{UserID: p.UserID, Tenant: p.Tenant}, true
	})
	guarded := a.auth.GuardHTTP(h, func(w http.ResponseWriter, r *http.Request, f *auth.Failure) {
		// GuardHTTP hands a 401 over with its reason as the code; this
		// route answers the envelope's UNAUTHORIZED like the others.
		if f.Status == http.StatusUnauthorized {
			g := *f
			g.Code = auth.CodeUnauthorized
			f = &g
		}
		_ = httpapi.WriteError(w, f.APIError())
	}, role)
	r.HandleRaw(mcpServerPath, guarded, map[string]openapi.Operation{"POST": {
		Summary: "regelkit's read-only tools as an MCP server (Streamable HTTP, stateless)",
		Description: "JWT with role caseworker or admin. Model Context Protocol JSON-RPC: initialize, tools/list, tools/call. " +
			"Tools: decision_list, decision_getByKey, decision_evaluate (municipality = the caller's), deployment_*, " +
			"processDefinition_*, processInstance_* and task_* (instances and tasks whose municipality is the caller's), sparql_query, " +
			"the knowledge-graph lists and rules_rules__rule_id_path__get (norms), with LDE_MCP_ENABLED the explorer's assets " +
			"(bundle_*, form_*, document_*); definitions and assets are those of the caller's municipality and untenanted ones.",
		Tags:      tags,
		Responses: map[string]openapi.Response{"200": {Description: "JSON-RPC response"}, "401": {Description: "UNAUTHORIZED"}, "403": {Description: "FORBIDDEN"}},
	}})
	return nil
}

// catalogOrNil keeps a nil *Catalog a nil interface.
func catalogOrNil(c *mcptools.Catalog) assistant.Catalog {
	if c == nil {
		return nil
	}
	return c
}
