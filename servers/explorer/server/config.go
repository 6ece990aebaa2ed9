package server

import (
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/servers/internal/envconfig"
	"github.com/regelkit/regelkit/servers/internal/lifecycle"
	"github.com/regelkit/regelkit/servers/internal/limits"
	"github.com/regelkit/regelkit/servers/internal/metrics"
	"github.com/regelkit/regelkit/sparql"
)

// config is the explorer's configuration, read from the environment by
// loadConfig. The README's configuration table lists the same variables; a
// test keeps the two in step.
type config struct {
	// shared holds dependencies injected by New (the stack); zero when the
	// explorer builds its own.
	shared Options

	Port        int
	Environment string // development, acceptance or production
	CORSOrigins []string
	LogLevel    slog.Level
	LogFormat   string // text or json

	PublicBaseURL  string // how clients reach this server; names the embedded endpoint
	EmbeddedStore  bool   // load examples/ into an in-memory store served at /v1/sparql
	SPARQLEndpoint string // the default knowledge graph; "" = the embedded store
	SPARQLTimeout  time.Duration
	// SPARQLQueryMethod is how queries reach remote endpoints: form-encoded
	// POSTs unless set (Virtuoso answers nothing else).
	SPARQLQueryMethod sparql.QueryMethod
	OutboundStrict    bool     // refuse non-public and non-https caller-named URLs
	OutboundAllow     []string // URLs or host names that always pass

	DatabaseURL string // PostgreSQL for asset storage; "" = assets answer 503 DB_NOT_CONFIGURED

	Limits limits.Config // the bounds of evaluations and responses

	Metrics metrics.Config // METRICS, METRICS_ADDR

	OperatonBaseURL  string // remote engine; "" = the embedded engine
	OperatonUsername string
	OperatonPassword string
	OperatonAPIKey   string
	OperatonTimeout  time.Duration
	EngineREST       bool // serve the embedded engine at /engine-rest
	// EngineMaxBytes and EngineMaxDeployments bound what the embedded engine
	// keeps (deployments, their resources and compiled models); 0 takes the
	// engine's defaults.
	EngineMaxBytes       int64
	EngineMaxDeployments int

	DocmgmtStub     bool
	DocmgmtBaseURL  string
	DocmgmtLibrary  string
	DocmgmtUserID   string
	DocmgmtPassword string

	// Shutdown is SHUTDOWN_GRACE and SHUTDOWN_DELAY.
	Shutdown lifecycle.Options
}

// development reports whether error details may reach clients.
func (c *config) development() bool { return c.Environment == "development" }

// loadConfig reads the configuration through lookup (os.LookupEnv).
func loadConfig(lookup func(string) (string, bool)) (*config, *envconfig.Reader, error) {
	env := envconfig.New(lookup)
	c := &config{}
	c.Port = env.Port("PORT", 8081, "HTTP port")
	c.Environment = env.OneOf("ENVIRONMENT", "development",
		[]string{"development", "acceptance", "production"}, "deployment environment")
	var defaultOrigins []string
	if c.Environment == "development" {
		defaultOrigins = []string{"http://localhost:3000", "http://localhost:5173"}
	}
	c.CORSOrigins = env.List("CORS_ORIGINS", defaultOrigins,
		"comma-separated browser origins allowed by CORS (exact match); development default: the local frontend dev servers")
	level := env.OneOf("LOG_LEVEL", "info", []string{"debug", "info", "warn", "error"}, "minimum log level")
	_ = c.LogLevel.UnmarshalText([]byte(strings.ToUpper(level)))
	defaultFormat := "json"
	if c.Environment == "development" {
		defaultFormat = "text"
	}
	c.LogFormat = env.OneOf("LOG_FORMAT", defaultFormat, []string{"text", "json"},
		"log format; development default text, otherwise json")

	c.PublicBaseURL = env.URL("PUBLIC_BASE_URL", fmt.Sprintf("http://localhost:%d", c.Port),
		"base URL clients use to reach this server; requests naming <base>/v1/sparql use the embedded store in-process")
	c.EmbeddedStore = env.Bool("EMBEDDED_STORE", true,
		"load the example knowledge graph (examples/) into an in-memory SPARQL store served read-only at /v1/sparql")
	c.SPARQLEndpoint = env.URL("SPARQL_ENDPOINT", "",
		"default SPARQL endpoint of the knowledge graph (health probe, norms, SHACL merged mode); empty: the embedded store")
	c.SPARQLTimeout = env.Duration("SPARQL_TIMEOUT", 30*time.Second, "timeout of one request to a remote SPARQL endpoint")
	method := env.OneOf("SPARQL_QUERY_METHOD", string(sparql.MethodForm), []string{"form", "direct", "get"},
		"how queries and updates reach a remote SPARQL endpoint: form (POST application/x-www-form-urlencoded), direct (POST application/sparql-query) or get (GET for queries whose URL stays under 4 KB, form POST otherwise)")
	c.SPARQLQueryMethod, _ = sparql.ParseQueryMethod(method)
	// The default depends on ENVIRONMENT; reading it as a plain boolean
	// with that default prints the effective value at start-up.
	c.OutboundStrict = env.Bool("OUTBOUND_STRICT", c.Environment == "production",
		"also require https and refuse loopback for caller-named endpoints (private, link-local, metadata and reserved addresses are refused in every environment); default: true in production, false otherwise")
	c.OutboundAllow = env.List("OUTBOUND_ALLOW", nil,
		"comma-separated URLs (scheme://host[:port][/path]) or host names that caller-named endpoints may always use")

	c.OperatonBaseURL = env.URL("OPERATON_BASE_URL", "",
		"REST root of a remote Operaton (Camunda 7) engine, e.g. https://operaton.example.nl/engine-rest; empty: the embedded engine with the example models deployed")
	c.OperatonUsername = env.String("OPERATON_USERNAME", "", "basic-auth user for the remote engine")
	c.OperatonPassword = env.Secret("OPERATON_PASSWORD", "", "basic-auth password for the remote engine")
	c.OperatonAPIKey = env.Secret("OPERATON_API_KEY", "", "bearer token for the remote engine (takes precedence over basic auth)")
	c.OperatonTimeout = env.Duration("OPERATON_TIMEOUT", 30*time.Second, "timeout of one request to the remote engine")
	c.EngineREST = env.Bool("ENGINE_REST", c.Environment != "production",
		"serve the embedded engine under Operaton's REST paths at /engine-rest; default: on, except in production")
	c.EngineMaxBytes = env.Bytes("ENGINE_MAX_BYTES", local.DefaultMaxBytes,
		"bytes of deployments the embedded engine keeps (DMN resources count five times, for their compiled models); superseded deployments go first, then 507; negative: no bound")
	c.EngineMaxDeployments = env.Int("ENGINE_MAX_DEPLOYMENTS", local.DefaultMaxDeployments,
		"deployments the embedded engine keeps, in the same way; negative: no bound")

	c.DatabaseURL = env.PostgresURL("DATABASE_URL", "",
		"PostgreSQL connection string for asset storage (BPMN processes, forms, document templates): postgres://…, postgresql://…, postgres:///db?host=/socket/dir or key=value; empty: every /v1/assets route answers 503 DB_NOT_CONFIGURED")

	c.Limits = limits.Read(env)
	c.Metrics = metrics.Read(env, metrics.Config{Public: c.development()})

	// Stub mode is on unless the setting says exactly "false".
	c.DocmgmtStub = env.String("DOCMGMT_STUB_MODE", "true",
		"document management in stub mode (no server contacted) unless exactly false") != "false"
	c.DocmgmtBaseURL = env.URL("DOCMGMT_BASE_URL", "", "eDOCS DM REST base, e.g. https://host:port/edocsapi/v1.0; required when not in stub mode")
	c.DocmgmtLibrary = env.String("DOCMGMT_LIBRARY", "", "eDOCS library; required when not in stub mode")
	c.DocmgmtUserID = env.String("DOCMGMT_USER_ID", "", "eDOCS service account, also AUTHOR_ID/TYPIST_ID of uploads; required when not in stub mode")
	c.DocmgmtPassword = env.Secret("DOCMGMT_PASSWORD", "", "password of the eDOCS service account")
	c.Shutdown = lifecycle.Settings(env, c.Environment == "development")
	return c, env, env.Err()
}
