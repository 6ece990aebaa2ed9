package server

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/regelkit/regelkit/servers/editor/internal/backend"
	"github.com/regelkit/regelkit/servers/internal/envconfig"
	"github.com/regelkit/regelkit/servers/internal/lifecycle"
	"github.com/regelkit/regelkit/servers/internal/metrics"
)

// config is the editor's configuration. The README's configuration table
// lists the same variables; a test keeps the two in step.
type config struct {
	Port          int
	ConverterPort int // the RDF-to-JSON converter's standalone pages; 0 = off
	LogFormat     string
	CORSOrigins   []string // "*" allows every origin
	APIKey        string
	MaxBodyBytes  int64

	GraphStoreURL    string // TriplyDB-style API base; "" = SPARQLURL or the embedded store
	SPARQLURL        string // a plain SPARQL 1.1 endpoint (Virtuoso, Fuseki, GraphDB)
	UpdateURL        string // its update endpoint; "" = SPARQLURL
	Dataset          string // <organisation>/<dataset>
	ReadToken        string
	WriteToken       string
	GraphStoreGSP    string // Graph Store Protocol URL for writes; "" = SPARQL Update
	SeedDir          string // seed of the embedded store; "" = examples/editor
	AllowedDatasets  []string
	ModelPath        string
	NLPDefaultModel  string
	EmbeddedReadOnly bool

	Metrics metrics.Config // METRICS, METRICS_ADDR

	// Shutdown is SHUTDOWN_GRACE and SHUTDOWN_DELAY.
	Shutdown lifecycle.Options

	// shared holds dependencies injected by New (the stack); zero when the
	// editor builds its own.
	shared Options
}

const embeddedDataset = "local/editor"

// plainDataset names a plain SPARQL endpoint's data when GRAPHSTORE_DATASET
// does not.
const plainDataset = "store/editor"

// datasetPattern is <organisation>/<dataset>; dot segments are refused as
// they would move the store path.
var datasetPattern = regexp.MustCompile(`^[A-Za-z0-9_-][A-Za-z0-9._-]*/[A-Za-z0-9_-][A-Za-z0-9._-]*$`)

func loadConfig(lookup func(string) (string, bool)) (*config, *envconfig.Reader, error) {
	env := envconfig.New(lookup)
	c := &config{}
	c.Port = env.Port("PORT", 8084, "HTTP port of the path-routing front")
	c.ConverterPort = env.Int("CONVERTER_PORT", 0, "port of the RDF-to-JSON converter's standalone pages (graph picker); 0 = not served")
	c.LogFormat = env.OneOf("LOG_FORMAT", "text", []string{"text", "json"}, "log format")
	c.CORSOrigins = env.List("CORS_ORIGINS", []string{"*"}, "browser origins allowed by CORS; * allows all")
	c.APIKey = env.Secret("API_KEY", "", "X-API-KEY required on /api/predict and /api/process_and_save; empty = not checked")
	c.MaxBodyBytes = int64(env.Int("EDITOR_MAX_BODY_BYTES", backend.DefaultMaxBodyBytes, "body limit of the backend and the converters"))
	apiURL := env.URL("GRAPHSTORE_API_URL", "", "graph store API base (e.g. https://api.example.triply.cc/); empty = the embedded store")
	triplyURL := env.URL("TRIPLY_ENDPOINT", "", "upstream alias of GRAPHSTORE_API_URL")
	c.Dataset = env.String("GRAPHSTORE_DATASET", "", "<organisation>/<dataset> of the graph store")
	triplyDataset := env.String("TRIPLY_DATASET", "", "upstream alias of GRAPHSTORE_DATASET")
	c.ReadToken = env.Secret("GRAPHSTORE_READ_TOKEN", "", "Bearer token for queries")
	triplyRead := env.Secret("TRIPLY_KEY_R", "", "upstream alias of GRAPHSTORE_READ_TOKEN")
	c.WriteToken = env.Secret("GRAPHSTORE_WRITE_TOKEN", "", "Bearer token for writes; without it saves answer 503")
	triplyWrite := env.Secret("TRIPLY_KEY_W", "", "upstream alias of GRAPHSTORE_WRITE_TOKEN")
	c.SPARQLURL = env.URL("GRAPHSTORE_SPARQL_URL", "", "a plain SPARQL 1.1 endpoint (Virtuoso, Fuseki, GraphDB) answering as GRAPHSTORE_DATASET (default store/editor); saves go to GRAPHSTORE_UPDATE_URL unless GRAPHSTORE_READ_ONLY; the tokens are sent when set")
	c.UpdateURL = env.URL("GRAPHSTORE_UPDATE_URL", "", "SPARQL Update endpoint of GRAPHSTORE_SPARQL_URL (Fuseki: /<dataset>/update); empty: GRAPHSTORE_SPARQL_URL itself")
	c.GraphStoreGSP = env.URL("GRAPHSTORE_GSP_URL", "", "Graph Store Protocol endpoint for saves (PUT ?graph=<iri>, with the write token); empty: saves use SPARQL Update on the dataset's endpoint")
	c.SeedDir = env.String("GRAPHSTORE_SEED_DIR", "", "directory with sources/*.jsonld and tasks/*.json seeding the embedded store; empty = examples/editor")
	c.AllowedDatasets = env.List("GRAPHSTORE_ALLOWED_DATASETS", nil, "datasets getTasksFromGraphStore may name; default: the configured one")
	c.ModelPath = env.String("MODEL_PATH", "./models", "directory of prediction models (one directory with model.json each)")
	c.NLPDefaultModel = env.String("NLP_DEFAULT_MODEL", "", "default prediction model key; empty = bertje_2022_e4 (spec), which answers 500 without its files")
	c.EmbeddedReadOnly = env.Bool("GRAPHSTORE_READ_ONLY", false, "refuse saves to the embedded store or the plain SPARQL endpoint (503)")
	// The editor has no deployment environment: /metrics stays off the
	// public port unless asked for.
	c.Metrics = metrics.Read(env, metrics.Config{})
	c.Shutdown = lifecycle.Settings(env, true)
	if err := env.Err(); err != nil {
		return nil, env, err
	}
	c.GraphStoreURL = cmpOr(apiURL, triplyURL)
	c.Dataset = strings.TrimSuffix(strings.TrimPrefix(cmpOr(c.Dataset, triplyDataset), "datasets/"), "/sparql")
	c.ReadToken = cmpOr(c.ReadToken, triplyRead)
	c.WriteToken = cmpOr(c.WriteToken, triplyWrite)
	switch {
	case c.GraphStoreURL != "" && c.SPARQLURL != "":
		return nil, env, fmt.Errorf("set GRAPHSTORE_API_URL (a TriplyDB-style API) or GRAPHSTORE_SPARQL_URL (a plain SPARQL endpoint), not both")
	case c.SPARQLURL != "":
		if c.Dataset == "" {
			c.Dataset = plainDataset
		}
		if !datasetPattern.MatchString(c.Dataset) {
			return nil, env, fmt.Errorf("GRAPHSTORE_DATASET must be <organisation>/<dataset>, got %q", c.Dataset)
		}
	case c.GraphStoreURL == "":
		c.Dataset = embeddedDataset
	case !datasetPattern.MatchString(c.Dataset):
		return nil, env, fmt.Errorf("GRAPHSTORE_DATASET must be <organisation>/<dataset>, got %q", c.Dataset)
	}
	if len(c.AllowedDatasets) == 0 {
		c.AllowedDatasets = []string{c.Dataset}
	}
	for _, d := range c.AllowedDatasets {
		if !datasetPattern.MatchString(d) {
			return nil, env, fmt.Errorf("GRAPHSTORE_ALLOWED_DATASETS: %q is not <organisation>/<dataset>", d)
		}
	}
	if c.MaxBodyBytes <= 0 {
		return nil, env, fmt.Errorf("EDITOR_MAX_BODY_BYTES must be positive")
	}
	return c, env, nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
