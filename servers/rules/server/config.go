package server

import (
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/regelkit/regelkit/servers/internal/envconfig"
	"github.com/regelkit/regelkit/servers/internal/lifecycle"
	"github.com/regelkit/regelkit/servers/internal/metrics"
)

// config is the rules server's configuration, read from the environment by
// loadConfig. The README's configuration table lists the same variables; a
// test keeps the two in step.
type config struct {
	Port        int
	Host        string
	Environment string
	LogLevel    slog.Level
	LogFormat   string

	Repository    string // local, http or local+http
	RepositoryDir string // "" = the embedded fixtures
	BaseIRI       string
	ExtraCAFile   string
	Timeout       time.Duration
	MaxDocument   int64
	CacheEntries  int
	CacheBytes    int64
	LatestTTL     time.Duration

	OfficialURL string // replaces https://repository.officiele-overheidspublicaties.nl
	SRUURL      string // replaces https://zoekservice.overheid.nl/sru/Search
	CellarURL   string // replaces https://publications.europa.eu
	OperatonURL string // replaces https://operaton.open-regels.nl

	Metrics metrics.Config // METRICS, METRICS_ADDR

	// Shutdown is SHUTDOWN_GRACE and SHUTDOWN_DELAY.
	Shutdown lifecycle.Options

	// shared holds dependencies injected by New (the stack); zero when the
	// rules API builds its own.
	shared Options
}

func (c *config) development() bool { return c.Environment == "development" }

// The official locations the methods graph names; the *_URL settings
// replace these prefixes.
const (
	officialRepository = "https://repository.officiele-overheidspublicaties.nl"
	officialSRU        = "https://zoekservice.overheid.nl/sru/Search"
	officialCellar     = "https://publications.europa.eu"
	officialOperaton   = "https://operaton.open-regels.nl"
)

// loadConfig reads the configuration through lookup (os.LookupEnv).
func loadConfig(lookup func(string) (string, bool)) (*config, *envconfig.Reader, error) {
	env := envconfig.New(lookup)
	c := &config{}
	c.Port = env.Port("PORT", 8083, "HTTP port")
	c.Host = env.String("HOST", "", "address to listen on; empty: every interface")
	c.Environment = env.OneOf("ENVIRONMENT", "development",
		[]string{"development", "acceptance", "production"}, "deployment environment")
	level := env.OneOf("LOG_LEVEL", "info", []string{"debug", "info", "warn", "error"}, "minimum log level")
	_ = c.LogLevel.UnmarshalText([]byte(strings.ToUpper(level)))
	defaultFormat := "json"
	if c.Environment == "development" {
		defaultFormat = "text"
	}
	c.LogFormat = env.OneOf("LOG_FORMAT", defaultFormat, []string{"text", "json"},
		"log format; development default text, otherwise json")

	c.Repository = env.OneOf("RULES_REPOSITORY", "local", []string{"local", "http", "local+http"},
		"publication repository: local (offline directory), http (the official repositories) or local+http (local first)")
	c.RepositoryDir = env.String("RULES_REPOSITORY_DIR", "",
		"directory laid out like the official repository (bwb/…, cvdr/…); empty: the embedded fixtures")
	c.BaseIRI = env.URL("RULES_BASE_IRI", "https://cprmv.open-regels.nl", "base of RuleSet IRIs: <base>/rules/<id>")
	c.ExtraCAFile = env.String("RULES_EXTRA_CA_FILE", "",
		"PEM file of certificates added to the HTTP adapter's trust pool (the official repository's intermediate)")
	c.Timeout = env.Duration("RULES_REPOSITORY_TIMEOUT", 10*time.Second, "timeout of one repository request")
	c.MaxDocument = int64(env.Int("RULES_MAX_DOCUMENT_BYTES", 50<<20, "largest document read from a repository, in bytes"))
	c.CacheEntries = env.Int("RULES_CACHE_ENTRIES", 256, "converted rule sets of exact versions kept in memory")
	c.CacheBytes = int64(env.Int("RULES_CACHE_BYTES", 256<<20, "bound on the summed source-document sizes of the cached rule sets, in bytes"))
	c.LatestTTL = env.Duration("RULES_LATEST_TTL", time.Hour, "how long a resolution of \"latest\" is cached")
	c.OfficialURL = env.URL("RULES_OFFICIAL_REPOSITORY_URL", officialRepository, "the BWB and CVDR repository (or a mirror)")
	c.SRUURL = env.URL("RULES_SRU_URL", officialSRU, "the SRU search service that resolves \"latest\"")
	c.CellarURL = env.URL("RULES_CELLAR_URL", officialCellar, "the EU Publications Office (CELLAR Formex 4 documents)")
	c.OperatonURL = env.URL("RULES_OPERATON_URL", officialOperaton, "the Operaton engine serving DMN deployments (without /engine-rest)")
	c.Metrics = metrics.Read(env, metrics.Config{Public: c.development()})
	c.Shutdown = lifecycle.Settings(env, c.Environment == "development")
	if err := env.Err(); err != nil {
		return nil, env, err
	}
	if c.MaxDocument < 1 || c.CacheEntries < 1 || c.CacheBytes < 1 || c.Timeout <= 0 {
		return nil, env, fmt.Errorf("RULES_MAX_DOCUMENT_BYTES, RULES_CACHE_ENTRIES, RULES_CACHE_BYTES and RULES_REPOSITORY_TIMEOUT must be positive")
	}
	return c, env, nil
}
