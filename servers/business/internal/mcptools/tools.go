package mcptools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/servers/internal/assets"
	"github.com/regelkit/regelkit/sparql"
)

// Options are the backing services of the in-process tools. A nil field
// makes its tools answer "not configured".
type Options struct {
	Engine engine.Engine
	// Processes is the engine's process side (nil: the process, task and
	// incident tools answer "not configured").
	Processes engine.Processes
	// Graph is the knowledge graph; bound it (memstore Limits) before
	// handing it over: sparql_query runs what the model writes.
	Graph sparql.Endpoint
	// Assets is the explorer's asset store, opened as a reader (nil: the
	// lde provider and its tools are not offered).
	Assets *assets.Store
	// EngineTimeout bounds one engine call; default 30 s.
	EngineTimeout time.Duration
	// Version is reported to MCP clients.
	Version string
}

// Caller is who the tools act for. Tenant is the municipality claim; ""
// sees only untenanted definitions.
type Caller struct {
	UserID string
	Tenant string
}

// TenantVariable is the decision variable set to the caller's tenant, as
// POST /v1/decision/{key}/evaluate does.
const TenantVariable = "municipality"

// Provider ids of the tool catalogue.
const (
	ProviderOperaton = "operaton"
	ProviderTriplyDB = "triplydb"
	ProviderCPRMV    = "cprmv"
	ProviderLDE      = "lde"
)

// maxToolOutput bounds a tool's answer; the assistant cuts further.
const maxToolOutput = 256 << 10

// notConfigured is the answer of a tool whose backing service is absent.
func notConfigured(tool, what string) *mcp.CallToolResult {
	return errorResult(tool + " is not configured on this server: " + what)
}

func errorResult(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: msg}}}
}

func jsonResult(v any) (*mcp.CallToolResult, error) {
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return nil, err
	}
	if len(b) > maxToolOutput {
		return errorResult(fmt.Sprintf("the answer is larger than %d bytes; narrow the request", maxToolOutput)), nil
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil
}

// objectSchema is the input schema of a tool: properties and required.
func objectSchema(props map[string]any, required ...string) json.RawMessage {
	s := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		s["required"] = required
	}
	b, _ := json.Marshal(s)
	return b
}

func str(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }
func intg(desc string) map[string]any {
	return map[string]any{"type": "integer", "minimum": 1, "maximum": 200, "description": desc}
}
func boolean(desc string) map[string]any {
	return map[string]any{"type": "boolean", "description": desc}
}

// handler is a tool's body: decoded arguments in, result out. The
// caller is in ctx (callerFrom).
type handler func(ctx context.Context, args map[string]any) (*mcp.CallToolResult, error)

// who tells a tool call's caller: fixed for a server built for one caller,
// read from the request's token for the shared server of Handler.
type who func(*mcp.CallToolRequest) Caller

type callerKey struct{}

func callerFrom(ctx context.Context) Caller {
	c, _ := ctx.Value(callerKey{}).(Caller)
	return c
}

func fixed(c Caller) who { return func(*mcp.CallToolRequest) Caller { return c } }

// add registers a raw tool: the arguments are decoded into a map and
// checked against nothing more than being an object; each handler reads
// what it needs with the typed getters below.
func add(s *mcp.Server, caller who, name, desc string, schema json.RawMessage, h handler) {
	s.AddTool(&mcp.Tool{Name: name, Description: desc, InputSchema: schema,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			args := map[string]any{}
			if raw := req.Params.Arguments; len(raw) > 0 && string(raw) != "null" {
				if err := json.Unmarshal(raw, &args); err != nil {
					return errorResult("arguments must be a JSON object"), nil
				}
			}
			if caller != nil {
				ctx = context.WithValue(ctx, callerKey{}, caller(req))
			}
			res, err := h(ctx, args)
			if err != nil {
				// A failing backend is the tool's failure, reported to the
				// model; the protocol error is kept for broken transports.
				return errorResult(err.Error()), nil
			}
			return res, nil
		})
}

type argError struct{ msg string }

func (e *argError) Error() string { return e.msg }

func stringArg(args map[string]any, name string, required bool) (string, error) {
	v, ok := args[name]
	if !ok || v == nil {
		if required {
			return "", &argError{name + " is required"}
		}
		return "", nil
	}
	s, ok := v.(string)
	if !ok || (required && strings.TrimSpace(s) == "") {
		return "", &argError{name + " must be a non-empty string"}
	}
	if len(s) > 64<<10 {
		return "", &argError{name + " is longer than 65536 bytes"}
	}
	return s, nil
}

func intArg(args map[string]any, name string, def, max int) (int, error) {
	v, ok := args[name]
	if !ok || v == nil {
		return def, nil
	}
	f, ok := v.(float64)
	if !ok || f != float64(int(f)) || f < 1 {
		return 0, &argError{name + " must be a positive integer"}
	}
	if int(f) > max {
		return max, nil
	}
	return int(f), nil
}

func boolArg(args map[string]any, name string, def bool) (bool, error) {
	v, ok := args[name]
	if !ok || v == nil {
		return def, nil
	}
	b, ok := v.(bool)
	if !ok {
		return false, &argError{name + " must be a boolean"}
	}
	return b, nil
}

// tenantQuery limits a definition query to the caller's tenant and the
// untenanted definitions.
func tenantQuery(q engine.DecisionDefinitionQuery, tenant string) engine.DecisionDefinitionQuery {
	if tenant == "" {
		q.WithoutTenantID = true
	} else {
		q.TenantIDIn = []string{tenant}
		q.IncludeDefinitionsWithoutTenantID = true
	}
	return q
}

type definition struct {
	ID       string  `json:"id"`
	Key      string  `json:"key"`
	Name     string  `json:"name"`
	Version  int     `json:"version"`
	Resource string  `json:"resource"`
	TenantID *string `json:"tenantId"`
}

func toDefinition(d engine.DecisionDefinition) definition {
	out := definition{ID: d.ID, Key: d.Key, Name: d.Name, Version: d.Version, Resource: d.Resource}
	if d.TenantID != "" {
		t := d.TenantID
		out.TenantID = &t
	}
	return out
}

// addOperaton registers the engine provider's tools (plus
// decision_evaluate): the decision and deployment tools over o.Engine, the
// process and task tools over o.Processes (processes.go).
func addOperaton(s *mcp.Server, o Options, caller who) {
	timeout := o.EngineTimeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	eng := o.Engine
	withEngine := func(name string, h handler) handler {
		return func(ctx context.Context, args map[string]any) (*mcp.CallToolResult, error) {
			if eng == nil {
				return notConfigured(name, "no decision engine"), nil
			}
			ctx, cancel := context.WithTimeout(ctx, timeout)
			defer cancel()
			return h(ctx, args)
		}
	}
	add(s, caller, "decision_list", "List decision definitions visible to the caller (untenanted and the caller's municipality).",
		objectSchema(map[string]any{
			"keyLike":       str("SQL LIKE pattern on the key, e.g. %toeslag%"),
			"nameLike":      str("SQL LIKE pattern on the name"),
			"latestVersion": boolean("only the latest version per key (default true)"),
			"maxResults":    intg("at most this many (default 20, max 200)"),
		}),
		withEngine("decision_list", func(ctx context.Context, args map[string]any) (*mcp.CallToolResult, error) {
			keyLike, err := stringArg(args, "keyLike", false)
			if err != nil {
				return errorResult(err.Error()), nil
			}
			nameLike, err := stringArg(args, "nameLike", false)
			if err != nil {
				return errorResult(err.Error()), nil
			}
			latest, err := boolArg(args, "latestVersion", true)
			if err != nil {
				return errorResult(err.Error()), nil
			}
			max, err := intArg(args, "maxResults", 20, 200)
			if err != nil {
				return errorResult(err.Error()), nil
			}
			defs, err := eng.DecisionDefinitions(ctx, tenantQuery(engine.DecisionDefinitionQuery{
				KeyLike: keyLike, NameLike: nameLike, LatestVersion: latest, SortBy: "key", SortOrder: "asc",
			}, callerFrom(ctx).Tenant))
			if err != nil {
				return nil, engineMessage(err)
			}
			out := []definition{}
			for _, d := range defs {
				if len(out) == max {
					break
				}
				out = append(out, toDefinition(d))
			}
			return jsonResult(map[string]any{"count": len(defs), "definitions": out})
		}))
	add(s, caller, "decision_getByKey", "The latest decision definition with the key (untenanted first, else the caller's municipality's).",
		objectSchema(map[string]any{"key": str("decision key (the DMN decision id)")}, "key"),
		withEngine("decision_getByKey", func(ctx context.Context, args map[string]any) (*mcp.CallToolResult, error) {
			key, err := stringArg(args, "key", true)
			if err != nil {
				return errorResult(err.Error()), nil
			}
			d, err := eng.LatestDecisionDefinition(ctx, key, "")
			if errors.Is(err, engine.ErrNotFound) && callerFrom(ctx).Tenant != "" {
				d, err = eng.LatestDecisionDefinition(ctx, key, callerFrom(ctx).Tenant)
			}
			if err != nil {
				return nil, engineMessage(err)
			}
			return jsonResult(toDefinition(d))
		}))
	add(s, caller, "decision_evaluate", "Evaluate the latest decision with the key for the given input variables; "+
		"the variable municipality is always the caller's municipality. Answers the result rows.",
		objectSchema(map[string]any{
			"key":       str("decision key"),
			"variables": map[string]any{"type": "object", "description": "input variables: name → plain value or {value, type}"},
		}, "key"),
		withEngine("decision_evaluate", func(ctx context.Context, args map[string]any) (*mcp.CallToolResult, error) {
			key, err := stringArg(args, "key", true)
			if err != nil {
				return errorResult(err.Error()), nil
			}
			raw := []byte("{}")
			if v, ok := args["variables"]; ok && v != nil {
				if _, ok := v.(map[string]any); !ok {
					return errorResult("variables must be an object"), nil
				}
				raw, _ = json.Marshal(v)
			}
			vars, err := engine.ParseValues(raw)
			if err != nil {
				return errorResult(err.Error()), nil
			}
			if callerFrom(ctx).Tenant != "" {
				vars[TenantVariable] = engine.String(callerFrom(ctx).Tenant)
			}
			res, err := eng.Evaluate(ctx, key, "", vars)
			if errors.Is(err, engine.ErrNotFound) && callerFrom(ctx).Tenant != "" {
				res, err = eng.Evaluate(ctx, key, callerFrom(ctx).Tenant, vars)
			}
			if err != nil {
				return nil, engineMessage(err)
			}
			rows := make([]map[string]any, 0, len(res))
			for _, row := range res {
				m := make(map[string]any, len(row))
				for k, v := range row {
					m[k] = v.Value
				}
				rows = append(rows, m)
			}
			return jsonResult(map[string]any{"rowCount": len(res), "rows": rows})
		}))
	deployments := func(ctx context.Context, q engine.DeploymentQuery) ([]engine.Deployment, error) {
		if callerFrom(ctx).Tenant == "" {
			q.WithoutTenantID = true
		} else {
			q.TenantIDIn, q.IncludeDeploymentsWithoutTenant = []string{callerFrom(ctx).Tenant}, true
		}
		return eng.Deployments(ctx, q)
	}
	type deployment struct {
		ID, Name, Source string
		TenantID         string `json:",omitempty"`
		Time             time.Time
		Decisions        []string
	}
	toDeployment := func(d engine.Deployment) deployment {
		out := deployment{ID: d.ID, Name: d.Name, Source: d.Source, TenantID: d.TenantID, Time: d.Time, Decisions: []string{}}
		for _, dd := range d.DeployedDecisionDefinitions {
			out.Decisions = append(out.Decisions, dd.Key)
		}
		sort.Strings(out.Decisions)
		return out
	}
	add(s, caller, "deployment_list", "List deployments visible to the caller, newest first.",
		objectSchema(map[string]any{"maxResults": intg("at most this many (default 20, max 200)")}),
		withEngine("deployment_list", func(ctx context.Context, args map[string]any) (*mcp.CallToolResult, error) {
			max, err := intArg(args, "maxResults", 20, 200)
			if err != nil {
				return errorResult(err.Error()), nil
			}
			ds, err := deployments(ctx, engine.DeploymentQuery{SortBy: "deploymentTime", SortOrder: "desc", MaxResults: max})
			if err != nil {
				return nil, engineMessage(err)
			}
			out := make([]deployment, 0, len(ds))
			for _, d := range ds {
				out = append(out, toDeployment(d))
			}
			return jsonResult(out)
		}))
	add(s, caller, "deployment_count", "Count the deployments visible to the caller.", objectSchema(map[string]any{}),
		withEngine("deployment_count", func(ctx context.Context, args map[string]any) (*mcp.CallToolResult, error) {
			ds, err := deployments(ctx, engine.DeploymentQuery{})
			if err != nil {
				return nil, engineMessage(err)
			}
			return jsonResult(map[string]int{"count": len(ds)})
		}))
	add(s, caller, "deployment_getById", "One deployment by id, with the keys of its decisions.",
		objectSchema(map[string]any{"id": str("deployment id")}, "id"),
		withEngine("deployment_getById", func(ctx context.Context, args map[string]any) (*mcp.CallToolResult, error) {
			id, err := stringArg(args, "id", true)
			if err != nil {
				return errorResult(err.Error()), nil
			}
			ds, err := deployments(ctx, engine.DeploymentQuery{ID: id})
			if err != nil {
				return nil, engineMessage(err)
			}
			if len(ds) == 0 {
				return errorResult("deployment " + id + " not found"), nil
			}
			return jsonResult(toDeployment(ds[0]))
		}))
	addProcessTools(s, o, caller, timeout)
}

// engineMessage is the model-facing text of an engine failure.
func engineMessage(err error) error {
	switch {
	case errors.Is(err, engine.ErrNotFound):
		return errors.New("not found")
	case errors.Is(err, context.DeadlineExceeded):
		return errors.New("the engine did not answer in time")
	case errors.Is(err, engine.ErrUnavailable):
		return errors.New("the engine could not be reached")
	}
	return err
}

// addTriplyDB registers the knowledge-graph provider's tools over o.Graph.
func addTriplyDB(s *mcp.Server, o Options, caller who) {
	g := o.Graph
	withGraph := func(name string, h handler) handler {
		return func(ctx context.Context, args map[string]any) (*mcp.CallToolResult, error) {
			if g == nil {
				return notConfigured(name, "no knowledge graph"), nil
			}
			return h(ctx, args)
		}
	}
	add(s, caller, "sparql_query", "Run a read-only SPARQL 1.1 SELECT or ASK query on the knowledge graph "+
		"(decision models cprmv:DecisionModel, rules, services cpsv:PublicService, organisations cv:PublicOrganisation, skos:Concept).",
		objectSchema(map[string]any{"query": str("SELECT or ASK query")}, "query"),
		withGraph("sparql_query", func(ctx context.Context, args map[string]any) (*mcp.CallToolResult, error) {
			q, err := stringArg(args, "query", true)
			if err != nil {
				return errorResult(err.Error()), nil
			}
			if askQuery.MatchString(q) {
				ok, err := g.Ask(ctx, q)
				if err != nil {
					return nil, err
				}
				return jsonResult(map[string]bool{"boolean": ok})
			}
			// Anything but SELECT fails here: updates never run.
			res, err := g.Select(ctx, q)
			if err != nil {
				return nil, err
			}
			return jsonResult(res)
		}))
	list := func(name, desc, query string) {
		add(s, caller, name, desc, objectSchema(map[string]any{"maxResults": intg("at most this many (default 20, max 200)")}),
			withGraph(name, func(ctx context.Context, args map[string]any) (*mcp.CallToolResult, error) {
				max, err := intArg(args, "maxResults", 20, 200)
				if err != nil {
					return errorResult(err.Error()), nil
				}
				res, err := g.Select(ctx, fmt.Sprintf(query, max))
				if err != nil {
					return nil, err
				}
				return jsonResult(rows(res))
			}))
	}
	const prefixes = "PREFIX dct: <http://purl.org/dc/terms/> PREFIX skos: <http://www.w3.org/2004/02/skos/core#> " +
		"PREFIX cpsv: <http://purl.org/vocab/cpsv#> PREFIX cv: <http://data.europa.eu/m8g/> PREFIX foaf: <http://xmlns.com/foaf/0.1/> " +
		"PREFIX skos2: <http://www.w3.org/2004/02/skos/core#> "
	list("dmn_list", "List the decision models of the knowledge graph: identifier, title.",
		prefixes+`SELECT DISTINCT ?model ?identifier ?title WHERE {
  VALUES ?class { <https://cprmv.open-regels.nl/0.3.0/DecisionModel> <https://standaarden.open-regels.nl/standards/cprmv/0.4.1#DecisionModel> }
  ?model a ?class . OPTIONAL { ?model dct:identifier ?identifier } OPTIONAL { ?model dct:title ?title }
} ORDER BY ?identifier LIMIT %d`)
	list("organization_list", "List the public organisations of the knowledge graph.",
		prefixes+`SELECT DISTINCT ?organization ?name WHERE { ?organization a cv:PublicOrganisation .
  OPTIONAL { ?organization skos:prefLabel|foaf:name|dct:title ?name } } ORDER BY ?organization LIMIT %d`)
	list("service_list", "List the public services of the knowledge graph.",
		prefixes+`SELECT DISTINCT ?service ?title WHERE { ?service a cpsv:PublicService .
  OPTIONAL { ?service dct:title ?title } } ORDER BY ?service LIMIT %d`)
	list("concept_list", "List the SKOS concepts of the knowledge graph.",
		prefixes+`SELECT DISTINCT ?concept ?label WHERE { ?concept a skos:Concept .
  OPTIONAL { ?concept skos:prefLabel ?label } } ORDER BY ?concept LIMIT %d`)
	list("rule_list", "List the rules of the knowledge graph.",
		prefixes+`SELECT DISTINCT ?rule ?title WHERE {
  VALUES ?class { <https://cprmv.open-regels.nl/0.3.0/Rule> <https://standaarden.open-regels.nl/standards/cprmv/0.4.1#Rule> }
  ?rule a ?class . OPTIONAL { ?rule dct:title ?title } } ORDER BY ?rule LIMIT %d`)
	for _, name := range []string{"dmn_get", "dmn_chain_links", "dmn_enhanced_chain_links", "dmn_semantic_equivalences", "service_rules_metadata"} {
		add(s, caller, name, "Knowledge-graph tool of the hosted TriplyDB provider; not available here: use sparql_query.",
			json.RawMessage(`{"type":"object"}`), func(context.Context, map[string]any) (*mcp.CallToolResult, error) {
				return notConfigured(name, "use sparql_query on the embedded knowledge graph instead"), nil
			})
	}
}

// askQuery recognises an ASK query after its prologue (comments, PREFIX
// and BASE declarations), for endpoints that cannot tell the form
// themselves.
var askQuery = regexp.MustCompile(`(?i)^(?:\s+|#[^\n]*(?:\n|$)|PREFIX\s+[^\s:]*:\s*<[^>]*>|BASE\s*<[^>]*>)*ASK\b`)

// rows flattens a SELECT result to variable → lexical value.
func rows(res *sparql.Results) []map[string]string {
	out := make([]map[string]string, 0, len(res.Solutions))
	for _, s := range res.Solutions {
		m := make(map[string]string, len(s))
		for k, t := range s {
			m[k] = t.Value
		}
		out = append(out, m)
	}
	return out
}

// NewServer returns the MCP server of regelkit's read-only tools (the
// engine's, the knowledge graph's, its norms' and, with o.Assets, the
// explorer's assets) acting for c.
func NewServer(o Options, c Caller) *mcp.Server {
	s := newServer(o, "regelkit")
	addOperaton(s, o, fixed(c))
	addTriplyDB(s, o, fixed(c))
	addCPRMV(s, o, fixed(c))
	if o.Assets != nil {
		addLDE(s, o, fixed(c))
	}
	return s
}

// newSharedServer is NewServer for every caller: each call's caller comes
// from the token information Handler puts on the request.
func newSharedServer(o Options) *mcp.Server {
	s := newServer(o, "regelkit")
	caller := func(req *mcp.CallToolRequest) Caller {
		ti := req.Extra.TokenInfo
		if ti == nil {
			return Caller{}
		}
		tenant, _ := ti.Extra["tenant"].(string)
		return Caller{UserID: ti.UserID, Tenant: tenant}
	}
	addOperaton(s, o, caller)
	addTriplyDB(s, o, caller)
	addCPRMV(s, o, caller)
	if o.Assets != nil {
		addLDE(s, o, caller)
	}
	return s
}

func newServer(o Options, name string) *mcp.Server {
	v := o.Version
	if v == "" {
		v = "dev"
	}
	return mcp.NewServer(&mcp.Implementation{Name: name, Version: v}, nil)
}
