package limits

import (
	"context"
	"time"

	"github.com/regelkit/regelkit/dmn/feel"
	"github.com/regelkit/regelkit/servers/internal/envconfig"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/shacl"
	"github.com/regelkit/regelkit/sparql/memstore"
)

// Config is the bounds table of a server, as plain values; FEEL, SHACL and
// SPARQL give each engine's Limits (same field names). A zero field leaves
// the engine's default in force; a negative one disables that bound.
type Config struct {
	Timeout          time.Duration // EVAL_TIMEOUT
	MaxDepth         int           // EVAL_MAX_DEPTH
	MaxRows          int           // EVAL_MAX_ROWS
	MaxBytes         int64         // EVAL_MAX_BYTES
	MaxTotalBytes    int64         // EVAL_MAX_TOTAL_BYTES
	MaxSteps         int64         // EVAL_MAX_STEPS
	MaxResponseBytes int64         // RESPONSE_MAX_BYTES: the response ceiling of every route
}

// DefaultTimeout is the default wall time of one evaluation.
const DefaultTimeout = 30 * time.Second

// Default returns the configuration of a server with no settings.
func Default() Config {
	return Config{Timeout: DefaultTimeout, MaxResponseBytes: httpapi.DefaultMaxResponseBytes}
}

// Read reads the bounds table through env; invalid values are collected in
// env.Err like every other setting.
func Read(env *envconfig.Reader) Config {
	d := Default()
	return Config{
		Timeout: env.Duration("EVAL_TIMEOUT", d.Timeout,
			"wall time of one evaluation (SPARQL query on the embedded store, FEEL, SHACL); over it: 503 LIMIT_EXCEEDED"),
		MaxDepth: env.Int("EVAL_MAX_DEPTH", d.MaxDepth,
			"evaluation recursion depth (FEEL calls, SHACL shape nesting, SPARQL algebra); 0: each engine's default; negative: unbounded"),
		MaxRows: env.Int("EVAL_MAX_ROWS", d.MaxRows,
			"items one evaluation materialises (SPARQL solutions, FEEL list elements, SHACL results); 0: each engine's default; over it: 400 LIMIT_EXCEEDED"),
		MaxBytes: env.Bytes("EVAL_MAX_BYTES", d.MaxBytes,
			"bytes of one intermediate string or value (CONCAT, GROUP_CONCAT, FEEL strings); 0: each engine's default"),
		MaxTotalBytes: env.Bytes("EVAL_MAX_TOTAL_BYTES", d.MaxTotalBytes,
			"bytes one SPARQL evaluation holds (solutions and computed terms); 0: the engine's default"),
		MaxSteps: env.Bytes("EVAL_MAX_STEPS", d.MaxSteps,
			"steps of a backtracking regular expression or a script; 0: each engine's default"),
		MaxResponseBytes: env.Bytes("RESPONSE_MAX_BYTES", d.MaxResponseBytes,
			"response ceiling of every route, e.g. 32MB; over it: 400 LIMIT_EXCEEDED; negative: none"),
	}
}

// HTTPError maps an error that is or wraps an engine's limit error to 400
// LIMIT_EXCEEDED (503 for Timeout); any other error gives nil. The router
// applies it on its own to every error a handler returns.
func HTTPError(err error) *httpapi.Error { return httpapi.LimitError(err) }

// Context bounds ctx by the configured Timeout, for work whose engine takes
// no Limits of its own (a chain of engine calls, a discovery run on the
// embedded store); a zero or negative Timeout leaves ctx as it is. A
// handler that runs out of it returns the context error, which the router
// answers 503 LIMIT_EXCEEDED.
func (c Config) Context(ctx context.Context) (context.Context, context.CancelFunc) {
	if c.Timeout <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, c.Timeout)
}

// FEEL returns the bounds of a FEEL evaluation (dmn, engine/local):
// Timeout, MaxDepth (the recursion budget of BKM and function calls),
// MaxRows (list elements built) and MaxBytes (string bytes built).
func (c Config) FEEL() feel.Limits {
	return feel.Limits{Timeout: c.Timeout, MaxDepth: c.MaxDepth, MaxRows: c.MaxRows, MaxBytes: c.MaxBytes}
}

// SHACL returns the bounds of one SHACL validation: Timeout, MaxDepth
// (shape nesting) and MaxRows (results reported).
func (c Config) SHACL() shacl.Limits {
	return shacl.Limits{Timeout: c.Timeout, MaxDepth: c.MaxDepth, MaxRows: c.MaxRows}
}

// SPARQL returns the bounds of one query or update on the embedded store
// (sparql/memstore): Timeout, MaxDepth (nesting of the query text and its
// algebra), MaxRows (solutions an operator materialises), MaxBytes (one
// string a function builds) and MaxTotalBytes (all an evaluation holds).
func (c Config) SPARQL() memstore.Limits {
	return memstore.Limits{Timeout: c.Timeout, MaxDepth: c.MaxDepth, MaxRows: c.MaxRows,
		MaxBytes: c.MaxBytes, MaxTotalBytes: c.MaxTotalBytes}
}
