package mcptools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	sdkauth "github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/regelkit/regelkit/servers/business/internal/assistant"
)

// External is an MCP server reached over the network or a child process.
// Exactly one of URL (Streamable HTTP) and Command (stdio) is set.
type External struct {
	ID          string
	DisplayName string
	Description string
	URL         string
	Command     []string
	// Allowed lists the tools offered to the model; nil offers all.
	Allowed []string
	// HTTPClient carries URL requests; default a client without timeout
	// (each call has its own deadline).
	HTTPClient *http.Client
	// BearerToken, when set, is sent as Authorization: Bearer on every
	// URL request (the hosted knowledge graph's API token).
	BearerToken string
}

// bearer adds a fixed bearer token to every request.
type bearer struct {
	token string
	base  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.base.RoundTrip(r)
}

// Allowed tools of the hosted rule-serving API.
var CPRMVTools = []string{
	"rules_rules__rule_id_path__get",
	"ref_ref__referencemethod___reference__get",
	"celex_cellar_by_celex__celexid___language___format__get",
}

// ConnectTimeout bounds connecting to one external provider.
const ConnectTimeout = 30 * time.Second

// Catalog is the assistant's tool providers: the in-process ones, built
// per turn for the caller, and the external ones, connected once.
type Catalog struct {
	opts     Options
	logger   *slog.Logger
	mu       sync.RWMutex
	external []*externalProvider
}

type externalProvider struct {
	cfg       External
	session   *mcp.ClientSession
	tools     []assistant.Tool
	connected bool
}

// inProcess are the in-process providers in the order they are offered.
var inProcess = []struct {
	id, name, description, prompt string
	add                           func(s *mcp.Server, o Options, caller who)
}{
	{ProviderOperaton, "Decision engine", "Decision definitions, deployments and decision evaluation of the engine",
		"Decision engine tools: list decisions with decision_list (latestVersion=true, maxResults=20); evaluate with decision_evaluate.",
		addOperaton},
	{ProviderTriplyDB, "Knowledge graph", "Decision models, rules, services, organisations and concepts (SPARQL)",
		"Knowledge graph tools: prefer the *_list tools; write SPARQL with sparql_query only when they do not answer.",
		addTriplyDB},
	{ProviderCPRMV, "Rule-serving API", "Norms and rules of Dutch law by rule id path (from the knowledge graph's norms)",
		"Rule-serving tools: read norms with rules_rules__rule_id_path__get.", addCPRMV},
	{ProviderLDE, "Linked data explorer assets", "Bundles, forms and documents of the explorer",
		"Explorer asset tools: find BPMN bundles, forms and document templates with bundle_list, form_list and document_list; read one with the *_get tool.",
		addLDE},
}

// NewCatalog returns the catalog; Connect reaches the external providers.
func NewCatalog(o Options, logger *slog.Logger, external ...External) *Catalog {
	c := &Catalog{opts: o, logger: logger}
	for _, e := range external {
		c.external = append(c.external, &externalProvider{cfg: e})
	}
	return c
}

// Connect connects every external provider, each within ConnectTimeout;
// a failed one is logged and stays connected:false.
func (c *Catalog) Connect(ctx context.Context) {
	var wg sync.WaitGroup
	for _, p := range c.external {
		wg.Go(func() {
			cctx, cancel := context.WithTimeout(ctx, ConnectTimeout)
			defer cancel()
			session, tools, err := connectExternal(cctx, p.cfg)
			if err != nil {
				c.log("MCP provider not connected", "provider", p.cfg.ID, "error", err.Error())
				return
			}
			c.mu.Lock()
			if ctx.Err() != nil {
				// Closed while connecting: do not outlive Close.
				c.mu.Unlock()
				session.Close()
				return
			}
			p.session, p.tools, p.connected = session, tools, true
			c.mu.Unlock()
			c.log("MCP provider connected", "provider", p.cfg.ID, "tools", len(tools))
		})
	}
	wg.Wait()
}

func (c *Catalog) log(msg string, args ...any) {
	if c.logger != nil {
		c.logger.Info(msg, args...)
	}
}

func connectExternal(ctx context.Context, e External) (*mcp.ClientSession, []assistant.Tool, error) {
	var t mcp.Transport
	switch {
	case e.URL != "":
		hc := e.HTTPClient
		if hc == nil {
			hc = &http.Client{}
		}
		if e.BearerToken != "" {
			base := hc.Transport
			if base == nil {
				base = http.DefaultTransport
			}
			c := *hc
			c.Transport = bearer{token: e.BearerToken, base: base}
			hc = &c
		}
		t = &mcp.StreamableClientTransport{Endpoint: e.URL, HTTPClient: hc, DisableStandaloneSSE: true, MaxRetries: 1}
	case len(e.Command) > 0:
		// The command comes from the operator's configuration, never from a
		// request.
		t = &mcp.CommandTransport{Command: exec.Command(e.Command[0], e.Command[1:]...)}
	default:
		return nil, nil, errors.New("neither URL nor command")
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "regelkit-business", Version: "1"}, nil)
	session, err := client.Connect(ctx, t, nil)
	if err != nil {
		return nil, nil, err
	}
	tools, err := listTools(ctx, session, e.Allowed)
	if err != nil {
		session.Close()
		return nil, nil, err
	}
	return session, tools, nil
}

// maxTools bounds the tools taken from one provider.
const maxTools = 200

func listTools(ctx context.Context, s *mcp.ClientSession, allowed []string) ([]assistant.Tool, error) {
	var out []assistant.Tool
	for t, err := range s.Tools(ctx, nil) {
		if err != nil {
			return nil, err
		}
		if allowed != nil && !slices.Contains(allowed, t.Name) {
			continue
		}
		schema, err := json.Marshal(t.InputSchema)
		if err != nil || string(schema) == "null" {
			schema = json.RawMessage(`{"type":"object"}`)
		}
		out = append(out, assistant.Tool{Name: t.Name, Description: t.Description, InputSchema: schema})
		if len(out) == maxTools {
			break
		}
	}
	return out, nil
}

// Close disconnects the external providers.
func (c *Catalog) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range c.external {
		if p.session != nil {
			p.session.Close()
			p.session, p.connected = nil, false
		}
	}
}

// Sources implements assistant.Catalog.
func (c *Catalog) Sources() []assistant.Source {
	out := make([]assistant.Source, 0, len(inProcess)+len(c.external))
	for _, p := range inProcess {
		if c.replaced(p.id) || !c.offered(p.id) {
			continue
		}
		out = append(out, assistant.Source{ID: p.id, DisplayName: p.name, Description: p.description,
			Connected: p.id != ProviderLDE || c.assetsUp()})
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	for _, p := range c.external {
		out = append(out, assistant.Source{ID: p.cfg.ID, DisplayName: p.cfg.DisplayName, Description: p.cfg.Description,
			Connected: p.connected})
	}
	return out
}

// replaced reports whether an external provider takes the id of an
// in-process one (CPRMV_MCP_ENABLED: the hosted rule-serving API).
func (c *Catalog) replaced(id string) bool {
	for _, p := range c.external {
		if p.cfg.ID == id {
			return true
		}
	}
	return false
}

// offered reports whether an in-process provider has its backing service:
// the explorer's assets only with a store (LDE_MCP_ENABLED).
func (c *Catalog) offered(id string) bool {
	return id != ProviderLDE || c.opts.Assets != nil
}

// assetsUp reports whether the asset database answers now: a provider
// that cannot be reached is listed with connected:false.
func (c *Catalog) assetsUp() bool {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	return c.opts.Assets.Ping(ctx) == nil
}

// Open implements assistant.Catalog: the in-process providers get a server
// bound to the caller's tenant, connected in memory.
func (c *Catalog) Open(ctx context.Context, tenant string, ids []string) (assistant.Toolset, error) {
	selected := func(id string) bool { return len(ids) == 0 || slices.Contains(ids, id) }
	ts := &toolset{route: map[string]*mcp.ClientSession{}}
	add := func(provider string, s *mcp.ClientSession, tools []assistant.Tool) {
		for _, t := range tools {
			if _, dup := ts.route[t.Name]; dup {
				c.log("MCP tool name taken by an earlier provider; skipped", "provider", provider, "tool", t.Name)
				continue
			}
			ts.route[t.Name] = s
			ts.tools = append(ts.tools, t)
		}
	}
	for _, p := range inProcess {
		if !selected(p.id) || c.replaced(p.id) || !c.offered(p.id) {
			continue
		}
		srv := newServer(c.opts, p.id)
		p.add(srv, c.opts, fixed(Caller{Tenant: tenant}))
		st, ct := mcp.NewInMemoryTransports()
		ss, err := srv.Connect(ctx, st, nil)
		if err != nil {
			ts.Close()
			return nil, fmt.Errorf("mcptools: %s: %w", p.id, err)
		}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "regelkit-assistant", Version: "1"}, nil).Connect(ctx, ct, nil)
		if err != nil {
			ss.Close()
			ts.Close()
			return nil, fmt.Errorf("mcptools: %s: %w", p.id, err)
		}
		ts.closers = append(ts.closers, func() { cs.Close(); ss.Close() })
		tools, err := listTools(ctx, cs, nil)
		if err != nil {
			ts.Close()
			return nil, fmt.Errorf("mcptools: %s: %w", p.id, err)
		}
		add(p.id, cs, tools)
		if p.prompt != "" {
			ts.prompts = append(ts.prompts, p.prompt)
		}
	}
	c.mu.RLock()
	for _, p := range c.external {
		if selected(p.cfg.ID) && p.connected {
			add(p.cfg.ID, p.session, p.tools)
		}
	}
	c.mu.RUnlock()
	if len(ts.route) == 0 && len(ts.closers) == 0 {
		return nil, assistant.ErrNotConnected
	}
	return ts, nil
}

// toolset is the tools of one turn, routed by name.
type toolset struct {
	tools   []assistant.Tool
	route   map[string]*mcp.ClientSession
	prompts []string
	closers []func()
}

func (t *toolset) Tools() []assistant.Tool { return t.tools }

func (t *toolset) SystemPrompt() string { return strings.Join(t.prompts, "\n") }

func (t *toolset) Close() {
	for _, f := range t.closers {
		f()
	}
	t.closers = nil
}

// Call implements assistant.Toolset. An unknown tool and a protocol error
// of the server (bad arguments) go back to the model as error results;
// only a broken transport is an error.
func (t *toolset) Call(ctx context.Context, name string, args json.RawMessage) (string, bool, error) {
	s, ok := t.route[name]
	if !ok {
		return "Unknown tool " + name, true, nil
	}
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	// The server refusing this call (bad arguments, unknown tool) is the
	// model's to fix; anything else (the SDK reports a dead connection as
	// "rejected by transport", -32005) is a broken provider.
	var wire *jsonrpc.Error
	if errors.As(err, &wire) && (wire.Code == jsonrpc.CodeInvalidParams || wire.Code == jsonrpc.CodeMethodNotFound) {
		return "Tool call refused: " + wire.Message, true, nil
	}
	if err != nil {
		return "", false, err
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError, nil
}

// Handler serves regelkit's read-only tools over Streamable HTTP,
// statelessly, to the caller that caller returns for the request (from
// its verified token): one server for all, each tool call acting for its
// own request's caller, so no session outlives its token and no caller
// sees another tenant's definitions. Put it behind the authentication
// guard; a request for which caller answers false is refused with 401.
func Handler(o Options, caller func(*http.Request) (Caller, bool)) http.Handler {
	srv := newSharedServer(o)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{
		Stateless:    true,
		JSONResponse: true,
		// A bearer token is required in front of this handler, which a
		// DNS-rebinding page cannot send; behind a reverse proxy the Host
		// is never localhost.
		DisableLocalhostProtection:   true,
		MaxRequestBodyBytes:          1 << 20,
		PropagateRequestCancellation: true,
	})
	// The SDK hands the token information to each tool call; the token
	// itself was verified (signature, expiry, roles) by the guard in front.
	return sdkauth.RequireBearerToken(func(_ context.Context, _ string, r *http.Request) (*sdkauth.TokenInfo, error) {
		c, ok := caller(r)
		if !ok {
			return nil, sdkauth.ErrInvalidToken
		}
		return &sdkauth.TokenInfo{UserID: c.UserID, Extra: map[string]any{"tenant": c.Tenant}}, nil
	}, &sdkauth.RequireBearerTokenOptions{AllowMissingExpiration: true})(h)
}
