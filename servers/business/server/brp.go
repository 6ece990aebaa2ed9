package server

import (
	"net/http"
	"time"

	"github.com/regelkit/regelkit/brp"
	"github.com/regelkit/regelkit/servers/internal/auth"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/openapi"
)

const brpPersonenPath = "/v1/brp/personen"

// brpRoutes mounts the register lookup behind the token check only (spec
// §4.13: no role, tenant or LoA check); every failure under /v1/brp/,
// the token's and the router's included, is a problem.
func (a *app) brpRoutes(r *httpapi.Router) {
	a.mounted["brp"] = "/v1/brp"
	var upstream brp.Upstream = &brp.Register{}
	if a.cfg.BRPUpstreamURL != "" {
		// brp's own default refuses redirects; so does the measured client.
		upstream = &brp.Client{BaseURL: a.cfg.BRPUpstreamURL, Timeout: 10 * time.Second,
			HTTPClient: a.metrics.Client("brp", &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error {
				return http.ErrUseLastResponse
			}})}
	}
	h := brp.Handler(brp.HandlerOptions{Upstream: upstream, MaxBodyBytes: maxJSONBody, Observe: a.brpObserver})
	guarded := a.auth.GuardHTTP(withRequest(h), func(w http.ResponseWriter, r *http.Request, f *auth.Failure) {
		brp.WriteProblem(w, r, f.Status, f.Code, f.Message)
	})
	r.HandleRaw(brpPersonenPath, guarded, map[string]openapi.Operation{"POST": {
		Summary: "Person-register lookup (Haal Centraal BRP Personen bevragen)",
		Description: "JWT only (no role, tenant or LoA check). Body {type: RaadpleegMetBurgerservicenummer, burgerservicenummer: [one 9-digit number], " +
			"fields: [...]} forwarded to {BRP_UPSTREAM_URL}/personen (the embedded register with fictional persons when unset). " +
			"Success {success: true, data: <register answer>}; every failure application/problem+json with code MALFORMED_BODY, " +
			"VALIDATION_ERROR (invalidParams), MISSING_TOKEN, INVALID_TOKEN, BRP_API_ERROR or RATE_LIMIT_EXCEEDED. " +
			"Audited as brp.personen.fetch with the queried number; the application log never holds it.",
		Tags: []string{"brp"},
		Responses: map[string]openapi.Response{
			"200":     {Description: "register answer"},
			"default": {Description: "application/problem+json"},
		},
	}})
	// Unknown paths and methods under /v1/brp/ answer as problems too.
	r.Mux().PathPrefix(brpPrefix).HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == brpPersonenPath {
			w.Header().Set("Allow", http.MethodPost)
			brp.WriteProblem(w, r, http.StatusMethodNotAllowed, brp.CodeMethodNotAllowed,
				"Method not allowed for "+brpPersonenPath+" (allowed: POST)")
			return
		}
		brp.WriteProblem(w, r, http.StatusNotFound, brp.CodeNotFound, "Endpoint not found: "+r.Method+" "+r.URL.Path)
	})
}
