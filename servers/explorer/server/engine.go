package server

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/engine/operaton"
	"github.com/regelkit/regelkit/engine/rest"
	"github.com/regelkit/regelkit/servers/explorer/internal/chainapi"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/metrics"
	"github.com/regelkit/regelkit/servers/internal/openapi"
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
	h := rest.NewHandler(a.engine, rest.Options{BasePath: engineRESTPath, Logger: a.logger})
	r.Mux().PathPrefix(engineRESTPath + "/").Handler(sameSiteWrites(h, a.cfg.CORSOrigins))
	tag := []string{"engine (Operaton-compatible)"}
	doc := r.Doc()
	ops := []struct{ method, path, summary string }{
		{"GET", "/version", "Engine version"},
		{"POST", "/deployment/create", "Deploy DMN resources (multipart: deployment-name, enable-duplicate-filtering, deploy-changed-only, tenant-id, one part per resource)"},
		{"GET", "/deployment", "List deployments"},
		{"GET", "/deployment/{id}", "One deployment"},
		{"GET", "/decision-definition", "Query decision definitions (key, keyLike, name, latestVersion, tenantIdIn, withoutTenantId, sortBy, sortOrder, firstResult, maxResults)"},
		{"GET", "/decision-definition/count", "Count decision definitions"},
		{"GET", "/decision-definition/key/{key}", "Latest decision definition by key"},
		{"GET", "/decision-definition/key/{key}/tenant-id/{tenantId}", "Latest decision definition by key and tenant"},
		{"GET", "/decision-definition/{id}", "Decision definition by id"},
		{"GET", "/decision-definition/{id}/xml", "DMN XML of a decision definition: {id, dmnXml}"},
		{"POST", "/decision-definition/key/{key}/evaluate", "Evaluate the latest version by key: {variables: {name: {value, type}}} → result rows"},
		{"POST", "/decision-definition/key/{key}/tenant-id/{tenantId}/evaluate", "Evaluate by key and tenant"},
		{"POST", "/decision-definition/{id}/evaluate", "Evaluate a decision definition by id"},
	}
	if _, ok := a.engine.(engine.Processes); ok {
		// the process side: Operaton's paths, bodies and parameters (see engine/rest)
		for _, p := range []string{"GET /process-definition", "GET /process-definition/key/{key}", "GET /process-definition/{id}/xml",
			"POST /process-definition/key/{key}/start", "GET /process-definition/key/{key}/deployed-start-form",
			"GET /process-instance", "POST /process-instance", "GET /process-instance/{id}", "DELETE /process-instance/{id}",
			"GET /process-instance/{id}/variables", "PUT /process-instance/{id}/suspended", "GET /task", "POST /task",
			"GET /task/{id}", "POST /task/{id}/claim", "POST /task/{id}/complete", "GET /task/{id}/deployed-form",
			"POST /external-task/fetchAndLock", "POST /external-task/{id}/complete", "GET /history/process-instance",
			"POST /history/process-instance", "GET /history/task", "GET /history/variable-instance", "GET /history/activity-instance",
			"GET /history/decision-instance"} {
			method, path, _ := strings.Cut(p, " ")
			ops = append(ops, struct{ method, path, summary string }{method, path, "Operaton " + p})
		}
	}
	for _, op := range ops {
		doc.Add(op.method, engineRESTPath+op.path, openapi.Operation{
			Summary:     op.summary,
			Description: "Operaton (Camunda 7) REST shapes and status codes; errors are {type, message}, not the envelope.",
			Tags:        tag,
			Responses:   map[string]openapi.Response{"200": {Description: "Operaton JSON"}, "default": {Description: "{type, message}"}},
		})
	}
}

// sameSiteWrites refuses a state-changing request that a browser sends from
// another site: Operaton's deployment upload is multipart/form-data, a
// "simple" type a cross-site form may POST without a CORS preflight, so the
// JSON content-type rule cannot guard it. A request with an Origin outside
// the CORS list, or marked Sec-Fetch-Site: cross-site without an Origin,
// gets 403 in Operaton's error shape; tools that send neither (curl, the
// other servers, Operaton clients) are unaffected.
func sameSiteWrites(h http.Handler, origins []string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
			h.ServeHTTP(w, r)
			return
		}
		origin := r.Header.Get("Origin")
		if (origin != "" && !slices.Contains(origins, origin)) || (origin == "" && r.Header.Get("Sec-Fetch-Site") == "cross-site") {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusForbidden)
			_, _ = w.Write([]byte(`{"type":"ForbiddenException","message":"cross-site requests may not change the engine"}` + "\n"))
			return
		}
		h.ServeHTTP(w, r)
	})
}
