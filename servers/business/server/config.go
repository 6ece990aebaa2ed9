package server

import (
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/regelkit/regelkit/servers/internal/envconfig"
	"github.com/regelkit/regelkit/servers/internal/lifecycle"
	"github.com/regelkit/regelkit/servers/internal/metrics"
)

// Deployment environments after normalisation.
const (
	envDevelopment = "development"
	envTest        = "test"
	envAcceptance  = "acceptance"
	envProduction  = "production"
)

// config is the business API's configuration, read from the environment by
// loadConfig and checked by validate. The README's configuration table lists
// the same variables; a test keeps the two in step.
type config struct {
	Environment string
	Port        int
	Host        string
	LogLevel    slog.Level
	LogFormat   string

	IDPURL, IDPRealm string // empty IDPURL: the development identity
	JWTIssuer        string
	JWTAudience      string
	TokenCacheTTL    time.Duration
	JWTLeeway        time.Duration
	DevKeyFile       string // "" = the user cache dir

	EngineURL      string // "" = the embedded engine
	EngineUser     string
	EnginePassword string
	EngineTimeout  time.Duration
	EngineREST     bool // serve the embedded engine at /engine-rest

	DatabaseURL string
	// EngineDatabaseURL: the embedded engine's PostgreSQL store; "" keeps it in memory.
	EngineDatabaseURL string
	DatabaseSet       bool // DATABASE_URL came from the environment
	DatabasePoolMax   int
	AuditEnabled      bool
	AuditIncludeIP    bool

	RateLimitWindow time.Duration
	RateLimitMax    int
	TrustProxy      bool
	HelmetEnabled   bool
	CORSOrigins     []string
	CORSPreview     []string

	TenantIsolation bool
	M2MClients      []string
	DocmgmtClients  []string

	CitizenCrossTenant []string // process keys a citizen may start at another organisation

	HealthRulesAPIURL, HealthKnowledgeGraphURL, HealthExplorerURL string

	BRPUpstreamURL string // "" = the embedded register

	DocmgmtStub            bool
	DocmgmtBaseURL         string
	DocmgmtLibrary         string
	DocmgmtUserID          string
	DocmgmtPassword        string
	DocmgmtServiceFallback bool
	EntraTenantID          string
	EntraClientID          string
	EntraClientSecret      string

	// Document workflow and bundle deployment.
	DocWorker          bool     // run the external-task worker of the document topics
	DeployEngineURLs   []string // engine URLs a bundle deployment may name
	TriplyDBMCPEnabled bool
	TriplyDBEndpoint   string
	LDEMCPEnabled      bool
	LDEDatabaseURL     string

	MCPEnabled      bool
	AnthropicAPIKey string
	OpenAIAPIKey    string
	// The assistant's model endpoints and tool providers.
	AnthropicBaseURL string
	OpenAIBaseURL    string
	CPRMVEnabled     bool
	CPRMVURL         string
	MCPExternal      []string // id=URL or id=command args
	MCPServer        bool     // serve the read-only tools at /v1/mcp/server

	// Secrets of later features, read now so the production boot check
	// covers them.
	IssueTrackerToken string
	AltchaHMACKey     string
	MediaAggregateKey string
	TriplyDBToken     string

	// Public content and the issue tracker.
	NewsFeedURL, BerichtenFeedURL, ProductsFeedURL string // "" = the embedded example feeds
	ProductsTenant                                 string
	KnowledgeGraphURL                              string // "" = the embedded example knowledge graph
	IssueTrackerBaseURL, IssueTrackerProject       string
	IssueTrackerLabel                              string
	MediaAggregatorTTL                             time.Duration

	Metrics metrics.Config // METRICS, METRICS_ADDR

	// Shutdown is SHUTDOWN_GRACE and SHUTDOWN_DELAY.
	Shutdown lifecycle.Options

	// shared holds dependencies injected by New (the stack); zero when the
	// business API builds its own.
	shared Options
}

func (c *config) development() bool {
	return c.Environment == envDevelopment || c.Environment == envTest
}

// devIdentity reports whether tokens are verified against the development
// identity (no identity provider configured).
func (c *config) devIdentity() bool { return c.IDPURL == "" }

// jwksURL is the identity provider's key set.
func (c *config) jwksURL() string {
	return strings.TrimRight(c.IDPURL, "/") + "/realms/" + url.PathEscape(c.IDPRealm) + "/protocol/openid-connect/certs"
}

// aliases maps each project variable to the upstream name accepted when the
// project name is unset.
var aliases = map[string]string{
	"DEPLOYMENT_ENV":          "NODE_ENV",
	"IDP_URL":                 "KEYCLOAK_URL",
	"IDP_REALM":               "KEYCLOAK_REALM",
	"PROCESS_ENGINE_URL":      "OPERATON_BASE_URL",
	"PROCESS_ENGINE_USERNAME": "OPERATON_USERNAME",
	"PROCESS_ENGINE_PASSWORD": "OPERATON_PASSWORD",
	"PROCESS_ENGINE_TIMEOUT":  "OPERATON_TIMEOUT",
	"DOCMGMT_STUB_MODE":       "EDOCS_STUB_MODE",
	"DOCMGMT_BASE_URL":        "EDOCS_BASE_URL",
	"DOCMGMT_USER_ID":         "EDOCS_USER_ID",
	"DOCMGMT_PASSWORD":        "EDOCS_PASSWORD",
	"ISSUE_TRACKER_TOKEN":     "GITLAB_TOKEN",
	// Public content and the issue tracker.
	"KNOWLEDGE_GRAPH_SPARQL_URL":   "RONL_SPARQL_ENDPOINT",
	"ISSUE_TRACKER_BASE_URL":       "GITLAB_BASE_URL",
	"ISSUE_TRACKER_PROJECT_PATH":   "GITLAB_PROJECT_PATH",
	"ISSUE_TRACKER_USE_CASE_LABEL": "GITLAB_UC_LABEL",
}

func withAliases(lookup func(string) (string, bool)) func(string) (string, bool) {
	return func(name string) (string, bool) {
		if v, ok := lookup(name); ok && strings.TrimSpace(v) != "" {
			return v, ok
		}
		if alias, ok := aliases[name]; ok {
			return lookup(alias)
		}
		return lookup(name)
	}
}

// normaliseEnvironment maps the accepted spellings of the environment name.
func normaliseEnvironment(s string) string {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "dev", "development":
		return envDevelopment
	case "acc", "acceptance", "staging":
		return envAcceptance
	case "prod", "production":
		return envProduction
	case "test":
		return envTest
	}
	return strings.ToLower(strings.TrimSpace(s))
}

// loadConfig reads the configuration through lookup (os.LookupEnv). Parse
// errors are returned; the boot check is validate.
func loadConfig(lookup func(string) (string, bool)) (*config, *envconfig.Reader, error) {
	env := envconfig.New(withAliases(lookup))
	c := &config{}
	c.Environment = normaliseEnvironment(env.String("DEPLOYMENT_ENV", envDevelopment,
		"deployment environment (alias NODE_ENV): dev/development, test, acc/acceptance/staging, prod/production"))
	c.Port = env.Port("PORT", 3002, "HTTP port")
	c.Host = env.String("HOST", "0.0.0.0", "address to listen on")
	level := env.OneOf("LOG_LEVEL", "info", []string{"debug", "info", "warn", "error"}, "minimum log level")
	_ = c.LogLevel.UnmarshalText([]byte(strings.ToUpper(level)))
	defaultFormat := "json"
	if c.development() {
		defaultFormat = "text"
	}
	c.LogFormat = env.OneOf("LOG_FORMAT", defaultFormat, []string{"text", "json"}, "log format; development default text, otherwise json")

	c.IDPURL = env.URL("IDP_URL", "",
		"identity provider base URL (alias KEYCLOAK_URL), e.g. https://keycloak.example.nl; empty: the development identity (development only)")
	c.IDPRealm = env.String("IDP_REALM", "ronl", "identity provider realm (alias KEYCLOAK_REALM)")
	idp := c.IDPURL
	if idp == "" {
		idp = "http://localhost:8080" // the development identity's issuer
	}
	c.JWTIssuer = env.String("JWT_ISSUER", strings.TrimRight(idp, "/")+"/realms/"+c.IDPRealm,
		"required iss of tokens; default {IDP_URL}/realms/{IDP_REALM}")
	c.JWTAudience = env.String("JWT_AUDIENCE", "ronl-business-api", "audience tokens must contain")
	c.TokenCacheTTL = time.Duration(env.Int("TOKEN_CACHE_TTL", 300, "seconds between reloads of the identity provider's key set")) * time.Second
	c.JWTLeeway = env.Duration("JWT_LEEWAY", 0,
		"clock skew tolerated on exp and nbf, e.g. 5s; none by default")
	c.DevKeyFile = env.String("DEV_IDENTITY_KEY_FILE", "",
		"PEM file of the development identity's signing key, shared with the token command; default <user cache dir>/regelkit/business-dev-key.pem")

	c.EngineURL = env.URL("PROCESS_ENGINE_URL", "",
		"REST root of a remote Operaton engine, ending in /engine-rest (alias OPERATON_BASE_URL); empty: the embedded engine with the example models deployed")
	c.EngineUser = env.String("PROCESS_ENGINE_USERNAME", "", "basic-auth user of the remote engine (alias OPERATON_USERNAME)")
	c.EnginePassword = env.Secret("PROCESS_ENGINE_PASSWORD", "", "basic-auth password of the remote engine (alias OPERATON_PASSWORD)")
	c.EngineTimeout = time.Duration(env.Int("PROCESS_ENGINE_TIMEOUT", 30000, "timeout of one engine request in ms (alias OPERATON_TIMEOUT)")) * time.Millisecond
	c.EngineDatabaseURL = env.PostgresURL("ENGINE_DATABASE_URL", "",
		"PostgreSQL connection string of the embedded engine's store (deployments, process instances, tasks, history), in any form libpq and pgx accept; its tables are created at start; empty: the engine keeps them in memory and loses them on restart")
	c.EngineREST = env.Bool("ENGINE_REST", c.development(),
		"serve the embedded engine under Operaton's REST paths at /engine-rest (no token); default: on in development, off elsewhere")

	c.DatabaseURL = env.PostgresURL("DATABASE_URL", "", "PostgreSQL connection string of the audit log in any form libpq and pgx accept (URL, Unix-socket URL or key=value); empty outside production: audit rows go to the log")
	_, c.DatabaseSet = lookup("DATABASE_URL")
	c.DatabasePoolMax = env.Int("DATABASE_POOL_MAX", 10, "maximum audit database connections")
	c.AuditEnabled = env.Bool("AUDIT_LOG_ENABLED", true, "write the audit log")
	c.AuditIncludeIP = env.Bool("AUDIT_LOG_INCLUDE_IP", true, "store the client IP in audit rows")
	_ = env.Int("AUDIT_LOG_RETENTION_DAYS", 2555, "read and not enforced: nothing purges audit rows (spec §8)")

	c.RateLimitWindow = time.Duration(env.Int("RATE_LIMIT_WINDOW_MS", 60000, "rate-limit window in ms")) * time.Millisecond
	c.RateLimitMax = env.Int("RATE_LIMIT_MAX_REQUESTS", 1000, "requests per window and client IP")
	_ = env.String("RATE_LIMIT_PER_TENANT", "", "read and ignored (spec §8): the limit is per client IP")
	c.TrustProxy = env.Bool("TRUST_PROXY", false, "take the client IP from the last X-Forwarded-For entry (one trusted proxy)")
	c.HelmetEnabled = env.Bool("HELMET_ENABLED", true, "send the security headers (CSP, HSTS over HTTPS, nosniff, referrer policy, frame options)")
	c.CORSOrigins = env.List("CORS_ORIGIN",
		[]string{"http://localhost:3000", "http://localhost:5173", "http://localhost:5175", "http://localhost:3002"},
		"comma-separated browser origins allowed by CORS (exact match)")
	c.CORSPreview = env.List("CORS_PREVIEW_SLUGS", nil,
		"app slugs whose Azure Static Web Apps preview origins are allowed; ignored in production")

	c.TenantIsolation = env.Bool("ENABLE_TENANT_ISOLATION", true, "refuse tenant routes to tokens without a municipality claim (403 MISSING_TENANT)")
	c.CitizenCrossTenant = env.List("CITIZEN_CROSS_TENANT_PROCESSES", []string{"AwbZorgtoeslagProcess"},
		"process keys a citizen may start when only another organisation deployed them; that organisation then owns the instance")
	c.M2MClients = env.List("M2M_ALLOWED_CLIENTS", []string{"operaton-mcp-client"}, "azp values admitted to /v1/m2m; empty: nobody")
	c.DocmgmtClients = env.List("DOCMGMT_ALLOWED_CLIENTS", []string{"edocs-mcp-client", "copilot-studio-edocs", "operaton-mcp-client"},
		"azp values admitted to /v1/docmgmt; empty: nobody")

	c.HealthRulesAPIURL = env.URL("HEALTH_RULES_API_URL", "https://acc.cprmv.open-regels.nl/docs", "rule-serving API probed by /v1/health/external (cprmv)")
	c.HealthKnowledgeGraphURL = env.URL("HEALTH_KNOWLEDGE_GRAPH_URL", "https://api.open-regels.triply.cc/datasets/stevengort/RONL",
		"knowledge graph probed by /v1/health/external (triplydb)")
	c.HealthExplorerURL = env.URL("HEALTH_EXPLORER_URL", "https://acc.linkeddata.open-regels.nl/", "explorer probed by /v1/health/external (lde)")

	c.BRPUpstreamURL = env.URL("BRP_UPSTREAM_URL", "",
		"Haal Centraal BRP Personen bevragen base URL (POST {url}/personen); empty: the embedded register with the fictional test persons")

	c.DocmgmtStub = env.String("DOCMGMT_STUB_MODE", "true", "document management in stub mode unless exactly false (alias EDOCS_STUB_MODE)") != "false"
	c.DocmgmtBaseURL = env.URL("DOCMGMT_BASE_URL", "", "eDOCS DM REST base; required when not in stub mode (alias EDOCS_BASE_URL)")
	c.DocmgmtLibrary = env.String("DOCMGMT_LIBRARY", "", "eDOCS library, sent as ?library= on every call; required when not in stub mode")
	c.DocmgmtUserID = env.String("DOCMGMT_USER_ID", "", "eDOCS service account; required when not in stub mode (alias EDOCS_USER_ID)")
	c.DocmgmtPassword = env.Secret("DOCMGMT_PASSWORD", "", "eDOCS service-account password; required when not in stub mode (alias EDOCS_PASSWORD)")
	c.DocmgmtServiceFallback = env.Bool("DOCMGMT_ALLOW_SERVICE_FALLBACK", false,
		"act as the service account for users without a stored identity token; refused in production")
	c.EntraTenantID = env.String("ENTRA_TENANT_ID", "", "identity tenant of live document management")
	c.EntraClientID = env.String("ENTRA_CLIENT_ID", "", "client id of live document management")
	c.EntraClientSecret = env.Secret("ENTRA_CLIENT_SECRET", "", "client secret of live document management")

	c.DocWorker = env.Bool("DOCMGMT_WORKER_ENABLED", true,
		"run the external-task worker of the document topics (rip-edocs-workspace, rip-edocs-document) against the embedded engine; it never runs against a remote engine")
	c.DeployEngineURLs = env.List("DEPLOY_ALLOWED_ENGINE_URLS", nil,
		"engine REST roots (exact, http or https) a bundle deployment may name as operatonUrl; empty: only the configured engine")
	c.TriplyDBMCPEnabled = env.Bool("TRIPLYDB_MCP_ENABLED", false,
		"offer the hosted knowledge-graph MCP server at TRIPLYDB_ENDPOINT to the assistant (bearer TRIPLYDB_TOKEN) instead of the in-process knowledge-graph tools")
	c.TriplyDBEndpoint = env.URL("TRIPLYDB_ENDPOINT", "", "Streamable HTTP endpoint of the knowledge-graph MCP server; required when TRIPLYDB_MCP_ENABLED=true")
	c.LDEMCPEnabled = env.Bool("LDE_MCP_ENABLED", false,
		"offer the explorer's asset tools (bundle_list/get, form_list/get, document_list/get), read in-process from the explorer's database at LDE_DATABASE_URL, to the assistant and at /v1/mcp/server; off: the provider is not listed")
	c.LDEDatabaseURL = env.PostgresURL("LDE_DATABASE_URL", "",
		"PostgreSQL connection string of the explorer's asset tables (the explorer's DATABASE_URL; a role with SELECT rights suffices, nothing is written) in any form libpq and pgx accept; required when LDE_MCP_ENABLED=true")

	c.MCPEnabled = env.Bool("MCP_ENABLED", false, "enable the AI assistant; then ANTHROPIC_API_KEY is required")
	c.AnthropicAPIKey = env.Secret("ANTHROPIC_API_KEY", "", "language-model API key of the assistant; required only when MCP_ENABLED=true")
	c.OpenAIAPIKey = env.Secret("OPENAI_API_KEY", "", "optional second language-model API key")
	c.AnthropicBaseURL = env.URL("ANTHROPIC_BASE_URL", "https://api.anthropic.com", "Anthropic Messages API base (a proxy or a test double)")
	c.OpenAIBaseURL = env.URL("OPENAI_BASE_URL", "https://api.openai.com", "OpenAI Chat Completions API base (a proxy or a test double)")
	c.CPRMVEnabled = env.Bool("CPRMV_MCP_ENABLED", false, "offer the rule-serving API's MCP server (CPRMV_URL) to the assistant")
	c.CPRMVURL = env.URL("CPRMV_URL", "https://acc.cprmv.open-regels.nl/mcp", "Streamable HTTP endpoint of the rule-serving API's MCP server")
	c.MCPExternal = env.List("MCP_EXTERNAL_SERVERS", nil,
		"further MCP tool providers of the assistant, comma-separated id=https://host/mcp (Streamable HTTP) or id=command arg… (stdio); all their tools are offered")
	c.MCPServer = env.Bool("MCP_SERVER_ENABLED", true, "serve regelkit's read-only tools as an MCP server at /v1/mcp/server (JWT, role caseworker or admin)")
	c.IssueTrackerToken = env.Secret("ISSUE_TRACKER_TOKEN", "", "issue-tracker API token (alias GITLAB_TOKEN)")
	c.AltchaHMACKey = env.Secret("ALTCHA_HMAC_KEY", "", "ALTCHA HMAC key; empty: ALTCHA off")
	c.MediaAggregateKey = env.Secret("MEDIA_AGGREGATOR_ACCEPT_KEY", "", "bearer key of the media aggregator search; empty: open")
	c.TriplyDBToken = env.Secret("TRIPLYDB_TOKEN", "", "knowledge-graph API token")

	// Public content and the issue tracker.
	c.NewsFeedURL = env.URL("NEWS_FEED_URL", "", "RSS 2.0 feed of /v1/public/nieuws; empty: the embedded example feed")
	c.BerichtenFeedURL = env.URL("BERICHTEN_FEED_URL", "", "RSS 2.0 feed of /v1/public/berichten; empty: the embedded example feed")
	c.ProductsFeedURL = env.URL("PRODUCTS_FEED_URL", "",
		"Samenwerkende Catalogi 4.0 XML of /v1/public/producten-diensten; empty: the embedded example catalogue")
	c.ProductsTenant = env.String("PRODUCTS_TENANT", "flevoland", "the one tenant the products catalogue belongs to")
	c.KnowledgeGraphURL = env.URL("KNOWLEDGE_GRAPH_SPARQL_URL", "",
		"SPARQL endpoint of /v1/public/regelcatalogus (alias RONL_SPARQL_ENDPOINT); empty: the embedded example knowledge graph")
	c.IssueTrackerBaseURL = env.URL("ISSUE_TRACKER_BASE_URL", "", "GitLab base URL (alias GITLAB_BASE_URL); empty: tracker routes answer 503")
	c.IssueTrackerProject = env.String("ISSUE_TRACKER_PROJECT_PATH", "",
		"GitLab project, group/project or a numeric id (alias GITLAB_PROJECT_PATH); empty: tracker routes answer 503")
	c.IssueTrackerLabel = env.String("ISSUE_TRACKER_USE_CASE_LABEL", "uc::submitted", "label of submitted use cases (alias GITLAB_UC_LABEL)")
	ttl := env.Int("MEDIA_AGGREGATOR_CACHE_TTL_MS", 900000, "media aggregator article cache in ms; missing or non-positive: 900000")
	if ttl <= 0 {
		ttl = 900000
	}
	c.MediaAggregatorTTL = time.Duration(ttl) * time.Millisecond
	c.Metrics = metrics.Read(env, metrics.Config{Public: c.development()})
	c.Shutdown = lifecycle.Settings(env, c.Environment == "development")
	return c, env, env.Err()
}

// placeholder matches, anchored, the whole of a trimmed, lower-cased value
// that only stands in for a secret. A real secret that merely
// contains "secret" or "example" passes.
var placeholder = regexp.MustCompile(`^(?:changeme|change[-_ ]?me|change[-_ ]?this|changeit|replace[-_ ]?me|your[-_].*|<.*>|\$\{.*\}|x{3,}|\*+|todo|tbd|dummy|placeholder|example|secret|password|test123|default)$`)

// isPlaceholder reports whether v looks like a placeholder.
func isPlaceholder(v string) bool {
	return placeholder.MatchString(strings.ToLower(strings.TrimSpace(v)))
}

// validate is the boot check: every problem at once, as one error; and the
// warnings to log.
func (c *config) validate() (warnings []string, err error) {
	var problems []string
	add := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	prod := c.Environment == envProduction

	if c.MCPEnabled && (c.AnthropicAPIKey == "" || isPlaceholder(c.AnthropicAPIKey)) {
		add("ANTHROPIC_API_KEY must be set to a real key when MCP_ENABLED=true")
	}
	if _, err := c.mcpExternal(); err != nil {
		add("%v", err)
	}
	if !c.DocmgmtStub {
		for _, s := range []struct{ name, value string }{
			{"DOCMGMT_BASE_URL", c.DocmgmtBaseURL}, {"DOCMGMT_LIBRARY", c.DocmgmtLibrary}, {"DOCMGMT_USER_ID", c.DocmgmtUserID}, {"DOCMGMT_PASSWORD", c.DocmgmtPassword},
			{"ENTRA_TENANT_ID", c.EntraTenantID}, {"ENTRA_CLIENT_ID", c.EntraClientID}, {"ENTRA_CLIENT_SECRET", c.EntraClientSecret},
		} {
			if s.value == "" {
				add("%s is required when DOCMGMT_STUB_MODE=false", s.name)
			}
		}
	}
	if c.TriplyDBMCPEnabled && c.TriplyDBEndpoint == "" {
		add("TRIPLYDB_ENDPOINT is required when TRIPLYDB_MCP_ENABLED=true")
	}
	if c.LDEMCPEnabled && c.LDEDatabaseURL == "" {
		add("LDE_DATABASE_URL (the explorer's DATABASE_URL) is required when LDE_MCP_ENABLED=true")
	}
	for _, u := range c.DeployEngineURLs {
		if p, err := url.Parse(u); err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" || p.User != nil {
			add("DEPLOY_ALLOWED_ENGINE_URLS entry %q must be an absolute http(s) URL without credentials", u)
		}
	}
	if c.EngineURL != "" && !strings.HasSuffix(strings.TrimRight(c.EngineURL, "/"), "/engine-rest") {
		add("PROCESS_ENGINE_URL must end with /engine-rest")
	}
	if c.devIdentity() && !c.development() {
		add("IDP_URL must be set in %s: the development identity serves development only", c.Environment)
	}
	if c.JWTLeeway > time.Minute {
		add("JWT_LEEWAY must be at most 1m")
	}
	if c.RateLimitMax < 1 || c.RateLimitWindow < time.Second {
		add("RATE_LIMIT_MAX_REQUESTS must be at least 1 and RATE_LIMIT_WINDOW_MS at least 1000")
	}
	if prod {
		if !c.DatabaseSet {
			add("DATABASE_URL must be set in production")
		}
		if c.EngineURL == "" && c.EngineDatabaseURL == "" {
			// an in-memory engine loses every instance on restart
			add("PROCESS_ENGINE_URL (a remote Operaton) or ENGINE_DATABASE_URL (the embedded engine on PostgreSQL) must be set in production")
		}
		if c.DocmgmtServiceFallback {
			add("DOCMGMT_ALLOW_SERVICE_FALLBACK=true is refused in production")
		}
		secrets := []struct{ name, value string }{
			{"PROCESS_ENGINE_PASSWORD", c.EnginePassword},
			{"DATABASE_URL password", databasePassword(c.DatabaseURL)},
			{"ENGINE_DATABASE_URL password", databasePassword(c.EngineDatabaseURL)},
			{"DOCMGMT_PASSWORD", c.DocmgmtPassword},
			{"ENTRA_CLIENT_SECRET", c.EntraClientSecret},
			{"ISSUE_TRACKER_TOKEN", c.IssueTrackerToken},
			{"ANTHROPIC_API_KEY", c.AnthropicAPIKey},
			{"OPENAI_API_KEY", c.OpenAIAPIKey},
			{"ALTCHA_HMAC_KEY", c.AltchaHMACKey},
			{"MEDIA_AGGREGATOR_ACCEPT_KEY", c.MediaAggregateKey},
			{"TRIPLYDB_TOKEN", c.TriplyDBToken},
		}
		for _, s := range secrets {
			if s.value != "" && isPlaceholder(s.value) {
				add("%s looks like a placeholder; set the real secret", s.name)
			}
		}
		if !c.TenantIsolation {
			warnings = append(warnings, "ENABLE_TENANT_ISOLATION=false in production")
		}
		for _, o := range c.CORSOrigins {
			if strings.Contains(o, "localhost") {
				warnings = append(warnings, "CORS_ORIGIN allows "+o+" in production")
			}
		}
		if len(c.CORSPreview) > 0 {
			warnings = append(warnings, "CORS_PREVIEW_SLUGS is ignored in production")
		}
	}
	if len(problems) > 0 {
		return warnings, errors.New("refusing to start:\n  - " + strings.Join(problems, "\n  - "))
	}
	return warnings, nil
}

func databasePassword(raw string) string {
	if raw == "" {
		return ""
	}
	cfg, err := pgconn.ParseConfig(raw)
	if err != nil {
		return ""
	}
	return cfg.Password
}
