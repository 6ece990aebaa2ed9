package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/servers/internal/auth"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/openapi"
)

// Codes of the decision routes.
const (
	codeValidation         = "VALIDATION_ERROR"
	codeDecisionNotFound   = "DECISION_NOT_FOUND"
	codeEvaluationFailed   = "DECISION_EVALUATION_FAILED"
	codeOperatonError      = "OPERATON_ERROR"
	codeQueryError         = "QUERY_ERROR"
	codeLimitExceeded      = "LIMIT_EXCEEDED"
	decisionTenantVariable = "municipality"
)

var keyParam = []openapi.Parameter{{Name: "key", In: "path", Required: true, Description: "decision key (the decision id)",
	Schema: openapi.String("")}}

func (a *app) decisionRoutes(r *httpapi.Router) {
	a.mounted["decision"] = "/v1/decision"
	a.mounted["m2m"] = "/v1/m2m"
	tenant := auth.RequireTenant(a.cfg.TenantIsolation)
	evalBody := &openapi.RequestBody{Description: "{variables: {name: value | {value, type, valueInfo?}}}; plain values are typed by inference",
		Content: openapi.JSON(evaluateRequestSchema)}
	r.Handle("POST", "/v1/decision/{key}/evaluate",
		a.auth.Guard(a.handleEvaluate, tenant, auth.RequireLoA("basis")), openapi.Operation{
			Summary: "Evaluate a decision for the caller's municipality",
			Description: "JWT with a municipality claim and loa ≥ basis. The server sets the variable municipality to the caller's tenant, " +
				"whatever the body says. data: zero rows → {}; one row → {output: value}; several rows → {output: [values in row order]}; " +
				"meta.rowCount tells them apart. Audited as decision.evaluate.<key>.",
			Tags: []string{"decision"}, Parameters: keyParam, RequestBody: evalBody,
			Responses: map[string]openapi.Response{"200": {Description: "output values"}},
		})
	r.Handle("GET", "/api/decision",
		a.auth.Guard(a.handleLegacyDecisions, tenant, auth.RequireLoA("basis")), openapi.Operation{
			Summary: "Deprecated: the latest decision definitions visible to the caller's municipality",
			Description: "Answers `Deprecation: true` and `Link: </v1/decision>; rel=\"successor-version\"`. Removed in v2.0.0. " +
				"data: [{id, key, name, version, tenantId}], untenanted definitions and those of the caller's tenant.",
			Deprecated: true, Tags: []string{"decision"},
			Responses: map[string]openapi.Response{"200": {Description: "definitions"}},
		})
	m2m := func(op string) []auth.Rule {
		return []auth.Rule{auth.RequireM2MClient(a.cfg.M2MClients), auth.RequireOperation(auth.M2MAllowedOperations, op)}
	}
	r.Handle("POST", "/v1/m2m/decision/{key}/evaluate",
		a.auth.Guard(a.handleM2MEvaluate, m2m("decision.evaluate")...), openapi.Operation{
			Summary: "Evaluate a decision (machine clients)",
			Description: "JWT whose azp is in M2M_ALLOWED_CLIENTS. Same body as /v1/decision/{key}/evaluate; no municipality is added; " +
				"data is the engine's result rows as Operaton returns them. Audited as decision.evaluate.m2m.<key>.",
			Tags: []string{"m2m"}, Parameters: keyParam, RequestBody: evalBody,
			Responses: map[string]openapi.Response{"200": {Description: "result rows"}},
		})
	r.Handle("GET", "/v1/m2m/decision/{key}",
		a.auth.Guard(a.handleM2MDefinition, m2m("decision.get")...), openapi.Operation{
			Summary:     "Decision definition metadata (machine clients)",
			Description: "{id, key, category, name, version, resource, deploymentId, tenantId, versionTag, historyTimeToLive, decisionRequirementsDefinitionId, decisionRequirementsDefinitionKey}",
			Tags:        []string{"m2m"}, Parameters: keyParam,
			Responses: map[string]openapi.Response{"200": {Description: "definition"}, "404": {Description: "DECISION_NOT_FOUND"}},
		})
}

// evaluateRequest is the body of both evaluate routes.
type evaluateRequest struct {
	Variables json.RawMessage `json:"variables"`
}

// readVariables decodes {variables}: missing → {}, not an object → 400
// VALIDATION_ERROR, each value plain or wrapped.
func readVariables(r *http.Request) (engine.Variables, error) {
	var body evaluateRequest
	if err := httpapi.DecodeJSON(r, &body); err != nil {
		var e *httpapi.Error
		if errors.As(err, &e) && e.Code == httpapi.CodeInvalidRequest {
			e.Code = codeValidation
		}
		return nil, err
	}
	raw := bytes.TrimSpace(body.Variables)
	if len(raw) == 0 || string(raw) == "null" {
		return engine.Variables{}, nil
	}
	if raw[0] != '{' {
		return nil, httpapi.NewError(http.StatusBadRequest, codeValidation, "variables must be an object")
	}
	vars, err := engine.ParseValues(raw)
	if err != nil {
		return nil, httpapi.NewError(http.StatusBadRequest, codeValidation, err.Error())
	}
	return vars, nil
}

func (a *app) handleEvaluate(w http.ResponseWriter, r *http.Request) error {
	p := auth.FromContext(r.Context())
	key := mux.Vars(r)["key"]
	vars, err := readVariables(r)
	if err != nil {
		return err
	}
	vars[decisionTenantVariable] = engine.String(p.Tenant)
	res, err := a.evaluate(r.Context(), key, p.Tenant, vars)
	a.auditDecision(r, p, "decision.evaluate."+key, key, len(vars), err)
	if err != nil {
		return a.engineFailure(err, key)
	}
	return writeEvaluation(w, res)
}

func (a *app) handleM2MEvaluate(w http.ResponseWriter, r *http.Request) error {
	p := auth.FromContext(r.Context())
	key := mux.Vars(r)["key"]
	vars, err := readVariables(r)
	if err != nil {
		return err
	}
	res, err := a.evaluate(r.Context(), key, "", vars)
	a.auditDecision(r, p, "decision.evaluate.m2m."+key, key, len(vars), err)
	if err != nil {
		return a.engineFailure(err, key)
	}
	if res == nil {
		res = engine.Result{}
	}
	return httpapi.WriteData(w, http.StatusOK, res)
}

// evaluate runs the untenanted decision, and when there is none the
// caller's tenant's, within PROCESS_ENGINE_TIMEOUT.
func (a *app) evaluate(ctx context.Context, key, tenant string, vars engine.Variables) (engine.Result, error) {
	ctx, cancel := context.WithTimeout(ctx, a.cfg.EngineTimeout)
	defer cancel()
	res, err := a.engine.Evaluate(ctx, key, "", vars)
	if errors.Is(err, engine.ErrNotFound) && tenant != "" {
		res, err = a.engine.Evaluate(ctx, key, tenant, vars)
	}
	return res, err
}

// evaluationResponse is the success envelope with meta.rowCount.
type evaluationResponse struct {
	Success   bool           `json:"success"`
	Data      map[string]any `json:"data"`
	Meta      evaluationMeta `json:"meta"`
	Timestamp string         `json:"timestamp"`
}

type evaluationMeta struct {
	RowCount    int    `json:"rowCount"`
	GeneratedAt string `json:"generatedAt"`
}

// writeEvaluation collapses the rows: none → {}, one → its
// values, several → each output's values in row order.
func writeEvaluation(w http.ResponseWriter, res engine.Result) error {
	ts := httpapi.Timestamp(time.Now())
	return httpapi.WriteJSON(w, http.StatusOK, evaluationResponse{
		Success: true, Data: res.Values(), Meta: evaluationMeta{RowCount: len(res), GeneratedAt: ts}, Timestamp: ts,
	})
}

// limitError is the shared limits contract: any evaluating package's
// LimitError.
type limitError interface {
	error
	LimitExceeded() string
}

// engineFailure maps an engine error.
func (a *app) engineFailure(err error, key string) error {
	var le limitError
	var ve *engine.VariableError
	var ee *engine.Error
	var eval *engine.EvaluationError
	switch {
	case errors.As(err, &le):
		status := http.StatusBadRequest
		if le.LimitExceeded() == "Timeout" {
			status = http.StatusServiceUnavailable
		}
		return httpapi.NewError(status, codeLimitExceeded, le.Error())
	case errors.Is(err, engine.ErrNotFound):
		return httpapi.Errorf(http.StatusNotFound, codeDecisionNotFound, "Decision '%s' not found", key)
	case errors.As(err, &ve):
		return httpapi.NewError(http.StatusBadRequest, codeValidation, ve.Error())
	case errors.Is(err, engine.ErrUnavailable), errors.Is(err, context.DeadlineExceeded):
		return &httpapi.Error{Status: http.StatusBadGateway, Code: codeOperatonError,
			Message: "The process engine could not be reached", Cause: err}
	case errors.As(err, &ee) && ee.Status >= 500 && ee.Message == "":
		return &httpapi.Error{Status: http.StatusBadGateway, Code: codeOperatonError,
			Message: "The process engine failed", Cause: err}
	case errors.As(err, &ee):
		return &httpapi.Error{Status: http.StatusInternalServerError, Code: codeEvaluationFailed,
			Message: evaluationMessage(key, ee.Type, ee.Message), Details: map[string]string{"engine": ee.Message}}
	case errors.As(err, &eval):
		msg := eval.Error()
		return &httpapi.Error{Status: http.StatusInternalServerError, Code: codeEvaluationFailed,
			Message: evaluationMessage(key, "", msg), Details: map[string]string{"engine": msg}}
	}
	return &httpapi.Error{Status: http.StatusInternalServerError, Code: codeEvaluationFailed,
		Message: "Evaluation of decision '" + key + "' failed", Cause: err}
}

// evaluationMessage is the caseworker-facing text of an evaluation failure.
func evaluationMessage(key, typ, msg string) string {
	switch {
	case strings.Contains(msg, "Exception while evaluating decision with key 'null'"):
		return fmt.Sprintf("Meerdere regels van beslistabel '%s' zijn van toepassing, terwijl de hit policy er één toestaat. "+
			"Neem contact op met de beheerder van de regels.", key)
	case typ == "RestException" && strings.Contains(msg, "decision-definition"):
		return fmt.Sprintf("Configuratiefout in de rule engine bij beslissing '%s'. Neem contact op met de beheerder.", key)
	}
	return msg
}

func (a *app) handleM2MDefinition(w http.ResponseWriter, r *http.Request) error {
	key := mux.Vars(r)["key"]
	ctx, cancel := context.WithTimeout(r.Context(), a.cfg.EngineTimeout)
	defer cancel()
	def, err := a.engine.LatestDecisionDefinition(ctx, key, "")
	if err != nil {
		return a.engineFailure(err, key)
	}
	return httpapi.WriteData(w, http.StatusOK, def)
}

// legacyDefinition is one entry of GET /api/decision.
type legacyDefinition struct {
	ID       string  `json:"id"`
	Key      string  `json:"key"`
	Name     string  `json:"name"`
	Version  int     `json:"version"`
	TenantID *string `json:"tenantId"`
}

// handleLegacyDecisions lists the latest definitions by key; a caller sees
// the untenanted ones and its own tenant's, never another tenant's.
func (a *app) handleLegacyDecisions(w http.ResponseWriter, r *http.Request) error {
	p := auth.FromContext(r.Context())
	w.Header().Set("Deprecation", "true")
	w.Header().Set("Link", `</v1/decision>; rel="successor-version"`)
	ctx, cancel := context.WithTimeout(r.Context(), a.cfg.EngineTimeout)
	defer cancel()
	q := engine.DecisionDefinitionQuery{LatestVersion: true, SortBy: "key", SortOrder: "asc", WithoutTenantID: true}
	if p.Tenant != "" {
		q = engine.DecisionDefinitionQuery{LatestVersion: true, SortBy: "key", SortOrder: "asc",
			TenantIDIn: []string{p.Tenant}, IncludeDefinitionsWithoutTenantID: true}
	}
	defs, err := a.engine.DecisionDefinitions(ctx, q)
	if err != nil {
		return a.engineFailure(err, "")
	}
	out := make([]legacyDefinition, 0, len(defs))
	for _, d := range defs {
		e := legacyDefinition{ID: d.ID, Key: d.Key, Name: d.Name, Version: d.Version}
		if d.TenantID != "" {
			t := d.TenantID
			e.TenantID = &t
		}
		out = append(out, e)
	}
	return httpapi.WriteData(w, http.StatusOK, out)
}
