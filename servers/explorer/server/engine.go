package server

import (
	"context"
	"fmt"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/engine/operaton"
	"github.com/regelkit/regelkit/servers/explorer/internal/chainapi"
	"github.com/regelkit/regelkit/servers/internal/enginehttp"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/metrics"
)

// engineRESTPath is where the embedded engine is served under Operaton's
// REST paths.
const engineRESTPath = "/engine-rest"

// newEngine returns the remote Operaton when OPERATON_BASE_URL is set, and
// otherwise the embedded engine with the example models deployed, so the
// explorer's chains run with no external service.
func newEngine(ctx context.Context, cfg *config, m *metrics.Metrics) (eng engine.Engine, embedded bool, err error) {
	if cfg.OperatonBaseURL != "" && cfg.shared.Engine == nil {
		c, err := operaton.New(operaton.Config{
			BaseURL:  cfg.OperatonBaseURL,
			Username: cfg.OperatonUsername,
			Password: cfg.OperatonPassword,
			Token:    cfg.OperatonAPIKey,
			Timeout:  cfg.OperatonTimeout,

			HTTPClient: m.Client("engine", nil),
		})
		return c, false, err
	}
	l := cfg.shared.Engine
	if l == nil {
		l = local.New(local.Options{Version: "regelkit-" + version, Limits: cfg.Limits.FEEL(),
			MaxBytes: cfg.EngineMaxBytes, MaxDeployments: cfg.EngineMaxDeployments})
	}
	if err := chainapi.DeployLocalPassExamples(ctx, l); err != nil {
		return nil, false, fmt.Errorf("deploying the example models: %w", err)
	}
	return l, true, nil
}

// engineProbe checks the engine the way the upstream health check did:
// the engine's version call.
func engineProbe(eng engine.Engine) func(context.Context) error {
	return func(ctx context.Context) error {
		_, err := eng.Version(ctx)
		return err
	}
}

// mountEngineREST serves the embedded engine under Operaton's paths, so
// Operaton tooling and the other servers can use it.
func (a *app) mountEngineREST(r *httpapi.Router) {
	enginehttp.Mount(r, a.engine, enginehttp.Options{BasePath: engineRESTPath, CORSOrigins: a.cfg.CORSOrigins, Logger: a.logger})
}
