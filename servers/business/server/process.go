package server

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/examples"
	"github.com/regelkit/regelkit/servers/internal/auth"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/openapi"
)

const (
	// maxBusinessKey bounds a business key (Operaton's column is 255).
	maxBusinessKey = 255
	// maxReason bounds a cancellation reason (it goes into the audit row
	// and the history's deleteReason).
	maxReason = 4000
	// maxHistoryRows bounds GET /v1/process/history: a caseworker's
	// applicant with years of cases is far below it.
	maxHistoryRows = 1000
	// maxInstanceVariables bounds the historic variables read for one
	// instance: writes hold at most maxWriteVariables each.
	maxInstanceVariables = 10000
	// maxHintRows is the history sample of variable-hints.
	maxHintRows = 500
	// maxFormBytes and maxDocumentBytes bound what a form or template read
	// from a deployment may hold before it is parsed.
	maxFormBytes     = 2 << 20
	maxDocumentBytes = 4 << 20
	// maxBPMNBytes bounds BPMN XML scanned for documentRef and boardOwner,
	// maxBPMNDepth its element nesting (real models nest a dozen deep).
	maxBPMNBytes = 16 << 20
	maxBPMNDepth = 1000

	bpmnModelNS = "http://www.omg.org/spec/BPMN/20100524/MODEL"
	camundaNS   = "http://camunda.org/schema/1.0/bpmn"
	ronlNS      = "http://ronl.nl/schema/1.0"
)

var (
	idParam      = []openapi.Parameter{{Name: "id", In: "path", Required: true, Description: "process instance id", Schema: openapi.String("")}}
	procKeyParam = []openapi.Parameter{{Name: "key", In: "path", Required: true, Description: "process definition key (the BPMN process id)", Schema: openapi.String("")}}
)

// engineContext bounds one route's engine work by PROCESS_ENGINE_TIMEOUT.
func (a *app) engineContext(r *http.Request) (context.Context, context.CancelFunc) {
	return context.WithTimeout(r.Context(), a.cfg.EngineTimeout)
}

func (a *app) processRoutes(r *httpapi.Router) {
	a.mounted["process"] = "/v1/process"
	tenant := auth.RequireTenant(a.cfg.TenantIsolation)
	startBody := &openapi.RequestBody{Description: "{businessKey?, variables?}; each variable plain or {value, type, valueInfo?}",
		Content: openapi.JSON(startRequestSchema)}
	tags := []string{"process"}
	fail := func(codes ...string) openapi.Response { return openapi.Failure(strings.Join(codes, ", "), codes...) }
	// /history first: mux matches in registration order, and no /{id}
	// route may ever shadow it.
	r.Handle("GET", "/v1/process/history",
		a.auth.Guard(a.handleProcessHistory, tenant, auth.RequireRole(auth.RoleCitizen, auth.RoleCaseworker)), openapi.Operation{
			Summary: "Process instances, active and ended, of one applicant",
			Description: "Role citizen or caseworker. Query applicantId (required, 400 VALIDATION_ERROR without). A citizen may only ask " +
				"for their own (403 FORBIDDEN); a caseworker sees the applicant's instances of their municipality. Newest start first, " +
				"at most 1000, as Operaton's historic process instances. Audited as process.history.",
			Tags:       tags,
			Parameters: []openapi.Parameter{openapi.Query("applicantId", "the applicant's subject (sub)", true)},
			Responses: map[string]openapi.Response{"200": openapi.Success("historic process instances", openapi.Array(historicProcessSchema, "")),
				"400": fail(codeValidation), "403": fail(auth.CodeForbidden, auth.CodeMissingTenant)},
		})
	r.Handle("POST", "/v1/process/{key}/start",
		a.auth.Guard(a.handleProcessStart, tenant, auth.RequireLoA("midden")), openapi.Operation{
			Summary: "Start a process instance for the caller's organisation",
			Description: "loa ≥ midden. The deployment is chosen per tenant: the caller's, else an untenanted one, else the only one; a " +
				"citizen may start a listed cross-tenant process (CITIZEN_CROSS_TENANT_PROCESSES) of another organisation, which then " +
				"owns it. The server stamps municipality (owner), originTenantId (caller's), applicantId and initiator (sub), " +
				"organisationType and assuranceLevel, overwriting the body. businessKey kept as sent, else <owner>-<epoch ms>. " +
				"Audited as process.start.<key>.",
			Tags: tags, Parameters: procKeyParam, RequestBody: startBody,
			Responses: map[string]openapi.Response{"201": openapi.Success("the started instance", startResponseSchema),
				"400": fail(codeValidation, httpapi.CodeMalformedBody), "403": fail(auth.CodeTenantMismatch, auth.CodeLoAInsufficient),
				"404": fail(codeProcessNotFound), "409": fail(codeAmbiguousDeployment), "500": fail(codeProcessStartFailed),
				"502": fail(codeOperatonError)},
		})
	r.Handle("GET", "/v1/process/{id}/status", a.auth.Guard(a.handleProcessStatus, tenant), openapi.Operation{
		Summary: "Status of a running instance",
		Description: "Owner (municipality) or applicant. An ended instance is 404 PROCESS_NOT_FOUND: read historic-variables " +
			"or history.",
		Tags: tags, Parameters: idParam,
		Responses: map[string]openapi.Response{"200": openapi.Success("status", statusSchema),
			"403": fail(auth.CodeTenantMismatch), "404": fail(codeProcessNotFound)},
	})
	r.Handle("GET", "/v1/process/{id}/variables", a.auth.Guard(a.handleProcessVariables, tenant), openapi.Operation{
		Summary:     "Variables of a running instance as plain values",
		Description: "Owner (municipality) or applicant; Json values parsed, Null as null.",
		Tags:        tags, Parameters: idParam,
		Responses: map[string]openapi.Response{"200": openapi.Success("{name: value}", openapi.AnyObject("")),
			"403": fail(auth.CodeTenantMismatch), "404": fail(codeProcessNotFound)},
	})
	r.Handle("DELETE", "/v1/process/{id}", a.auth.Guard(a.handleProcessDelete, tenant), openapi.Operation{
		Summary:     "Cancel a running instance",
		Description: "Owner (municipality) only. Optional body {reason} (default \"Cancelled by user\"), kept in the audit row process.delete.",
		Tags:        tags, Parameters: idParam,
		RequestBody: &openapi.RequestBody{Description: "{reason?}", Content: openapi.JSON(reasonSchema)},
		Responses: map[string]openapi.Response{"200": openapi.Success("{message, processInstanceId}", cancelSchema),
			"403": fail(auth.CodeTenantMismatch), "404": fail(codeProcessNotFound), "500": fail(codeProcessDeleteFailed)},
	})
	r.Handle("GET", "/v1/process/{key}/start-form", a.auth.Guard(a.handleStartForm, tenant), openapi.Operation{
		Summary:     "The form-js schema of the start event",
		Description: "Of the deployment the caller would start. 404 FORM_NOT_FOUND when no camunda:formRef is linked; 415 UNSUPPORTED_FORM_TYPE for an embedded HTML form.",
		Tags:        tags, Parameters: procKeyParam,
		Responses: map[string]openapi.Response{"200": openapi.Success("form-js schema", openapi.AnyObject("")),
			"404": fail(codeFormNotFound, codeProcessNotFound), "409": fail(codeAmbiguousDeployment),
			"415": fail(codeUnsupportedFormType), "500": fail(codeFormFetchFailed)},
	})
	r.Handle("GET", "/v1/process/{id}/historic-variables", a.auth.Guard(a.handleHistoricVariables, tenant), openapi.Operation{
		Summary:     "Latest variables of an instance, running or ended, as plain values",
		Description: "Owner (municipality) or applicant. No variables: 404 PROCESS_NOT_FOUND.",
		Tags:        tags, Parameters: idParam,
		Responses: map[string]openapi.Response{"200": openapi.Success("{name: value}", openapi.AnyObject("")),
			"403": fail(auth.CodeTenantMismatch), "404": fail(codeProcessNotFound), "500": fail(codeHistoricVarsFailed)},
	})
	r.Handle("GET", "/v1/process/{id}/decision-document", a.auth.Guard(a.handleDecisionDocument, tenant), openapi.Operation{
		Summary: "The document template of the instance's decision",
		Description: "Owner (municipality) or applicant. The template named by the first ronl:documentRef on a user task of the " +
			"instance's BPMN, read from <ref>.document of the same deployment; placeholders unresolved. `template` repeats `data` " +
			"(upstream spelling). 404 DOCUMENT_NOT_FOUND without the attribute or the resource.",
		Tags: tags, Parameters: idParam,
		Responses: map[string]openapi.Response{"200": {Description: "{success, data: template, template, timestamp}",
			Content: openapi.JSON(openapi.AnyObject(""))},
			"403": fail(auth.CodeTenantMismatch), "404": fail(codeDocumentNotFound, codeProcessNotFound), "500": fail(codeDocumentFetchFailed)},
	})
	r.Handle("GET", "/v1/process/{key}/variable-hints", a.auth.Guard(a.handleVariableHints, tenant), openapi.Operation{
		Summary: "Variable names and types seen in the history of a process",
		Description: "From the latest 500 historic variables of the key: deduplicated by name, the last type wins, missing type String, " +
			"sorted by name. `variables` repeats `data` (upstream spelling). A never-run process has none.",
		Tags: tags, Parameters: procKeyParam,
		Responses: map[string]openapi.Response{"200": {Description: "{success, data: [{name, type}], variables, timestamp}",
			Content: openapi.JSON(openapi.AnyObject(""))}, "500": fail(codeVariableHintsFailed)},
	})
}

// resolveDeployment lists the latest definitions of key per engine tenant
// (404 PROCESS_NOT_FOUND when none) and picks the deployed tenant for a
// caller of tenant caller: the caller's, else "" when an
// untenanted definition exists, else the only tenant; with several tenants
// and none the caller's, ambiguous lists them.
func resolveDeployment(ctx context.Context, procs engine.Processes, key, caller string) (tenant string, ambiguous []string, err error) {
	defs, err := procs.ProcessDefinitions(ctx, engine.ProcessDefinitionQuery{Key: key, LatestVersion: true, MaxResults: 1000})
	if err != nil {
		return "", nil, engineFailure(err, onFailure{NotFound: codeProcessNotFound,
			NotFoundMessage: fmt.Sprintf("Process '%s' not found", key), Failed: codeProcessStartFailed, FailedMessage: "Process lookup failed"})
	}
	var tenants []string
	for _, d := range defs {
		if d.Key == key && !slices.Contains(tenants, d.TenantID) {
			tenants = append(tenants, d.TenantID)
		}
	}
	switch {
	case len(tenants) == 0:
		return "", nil, httpapi.Errorf(http.StatusNotFound, codeProcessNotFound, "Process '%s' not found", key)
	case caller != "" && slices.Contains(tenants, caller):
		return caller, nil, nil
	case slices.Contains(tenants, ""):
		return "", nil, nil
	case len(tenants) == 1:
		return tenants[0], nil, nil
	}
	sort.Strings(tenants)
	return "", tenants, nil
}

func ambiguousDeployment(key string, tenants []string) error {
	return &httpapi.Error{Status: http.StatusConflict, Code: codeAmbiguousDeployment,
		Message: fmt.Sprintf("Process '%s' is deployed for several organisations; none is the caller's", key),
		Details: map[string]any{"tenants": tenants}}
}

func tenantMismatch() error {
	return &httpapi.Error{Status: http.StatusForbidden, Code: auth.CodeTenantMismatch, Message: "Access denied: organisation mismatch"}
}

// startResult is the data of a /v1 start.
type startResult struct {
	ProcessInstanceID string `json:"processInstanceId"`
	BusinessKey       string `json:"businessKey"`
	Status            string `json:"status"`
	StartTime         string `json:"startTime"`
}

// readStartBody reads a start's {businessKey?, variables?}.
func readStartBody(r *http.Request) (businessKey string, vars engine.Variables, err error) {
	body, err := readWriteBody(r)
	if err != nil {
		return "", nil, err
	}
	if businessKey, err = optionalString(body.BusinessKey, "businessKey", maxBusinessKey); err != nil {
		return "", nil, err
	}
	vars, err = parseWriteVariables(body.Variables)
	return businessKey, vars, err
}

func (a *app) handleProcessStart(w http.ResponseWriter, r *http.Request) error {
	p := auth.FromContext(r.Context())
	key := mux.Vars(r)["key"]
	action := "process.start." + key
	businessKey, vars, err := readStartBody(r)
	if err != nil {
		return err
	}
	procs := a.engine
	ctx, cancel := a.engineContext(r)
	defer cancel()
	deployed, ambiguous, err := resolveDeployment(ctx, procs, key, p.Tenant)
	if err != nil {
		return err
	}
	crossTenant := p.IsCitizen() && slices.Contains(a.cfg.CitizenCrossTenant, key)
	owner := ""
	switch {
	case p.Tenant == "":
		// A caller without tenant (isolation off) owns nothing: fail closed.
	case ambiguous != nil && crossTenant:
		return ambiguousDeployment(key, ambiguous)
	case ambiguous != nil:
	case deployed == p.Tenant, deployed == "":
		owner = p.Tenant
	case crossTenant:
		owner = deployed
	}
	if owner == "" {
		a.audit.record(r.Context(), r, p, auditRow{Action: action, ResourceType: "process", ResourceID: key, Failed: true,
			Details: map[string]any{"reason": auth.CodeTenantMismatch}, ErrorMessage: "Access denied: organisation mismatch"})
		return tenantMismatch()
	}
	for name, v := range map[string]string{
		varMunicipality: owner, varOriginTenant: p.Tenant, varApplicantID: p.UserID, varInitiator: p.UserID,
		varOrganisationType: p.OrganisationType, varAssuranceLevel: p.LoA,
	} {
		vars[name] = engine.String(v)
	}
	if businessKey == "" {
		businessKey = owner + "-" + strconv.FormatInt(time.Now().UnixMilli(), 10)
	}
	inst, err := startWithFallback(ctx, procs, engine.StartProcess{Key: key, TenantID: deployed, BusinessKey: businessKey, Variables: vars, StartUserID: p.UserID})
	if err != nil {
		mapped := engineFailure(err, onFailure{NotFound: codeProcessNotFound, NotFoundMessage: fmt.Sprintf("Process '%s' not found", key),
			Failed: codeProcessStartFailed, FailedMessage: fmt.Sprintf("Process '%s' could not be started", key)})
		a.audit.record(r.Context(), r, p, auditRow{Action: action, ResourceType: "process", ResourceID: key, Failed: true,
			Details: map[string]any{"reason": failureCode(mapped)}, ErrorMessage: failureMessage(mapped)})
		return mapped
	}
	a.audit.record(r.Context(), r, p, auditRow{Action: action, ResourceType: "process", ResourceID: inst.ID,
		Details: map[string]any{"processInstanceId": inst.ID, "businessKey": businessKey}})
	return httpapi.WriteData(w, http.StatusCreated, startResult{
		ProcessInstanceID: inst.ID, BusinessKey: businessKey, Status: runtimeStatus(inst), StartTime: httpapi.Timestamp(time.Now()),
	})
}

// startWithFallback starts on the tenant path and, when the engine has no
// such definition for the tenant, once more without a tenant.
func startWithFallback(ctx context.Context, procs engine.Processes, s engine.StartProcess) (engine.ProcessInstance, error) {
	inst, err := procs.StartProcess(ctx, s)
	if err != nil && s.TenantID != "" && isNoMatchingDefinition(err) {
		s.TenantID = ""
		inst, err = procs.StartProcess(ctx, s)
	}
	return inst, err
}

// runtimeStatus names a runtime instance's state: ended, suspended or active.
func runtimeStatus(inst engine.ProcessInstance) string {
	switch {
	case inst.Ended:
		return "ended"
	case inst.Suspended:
		return "suspended"
	}
	return "active"
}

func instanceNotFound(id string) onFailure {
	return onFailure{NotFound: codeProcessNotFound, NotFoundMessage: fmt.Sprintf("Process instance '%s' not found", id),
		Failed: codeOperatonError, FailedMessage: "The process engine refused the request"}
}

// readable reports whether the caller may read an instance with vars: its
// owning tenant, or its applicant (reads only).
func readable(p *auth.Principal, vars map[string]any) bool {
	if auth.CheckTenant(p, vars[varMunicipality]) == nil {
		return true
	}
	applicant, _ := vars[varApplicantID].(string)
	return applicant != "" && p.UserID != "" && applicant == p.UserID
}

// ownedVariables reads a running instance's variables and refuses a caller
// who may not read them (owner only when ownerOnly).
func (a *app) ownedVariables(ctx context.Context, procs engine.Processes, p *auth.Principal, id string, ownerOnly bool) (map[string]any, error) {
	vars, err := procs.ProcessInstanceVariables(ctx, id)
	if err != nil {
		return nil, engineFailure(err, instanceNotFound(id))
	}
	plain := plainVariables(vars)
	if ownerOnly && auth.CheckTenant(p, plain[varMunicipality]) != nil || !ownerOnly && !readable(p, plain) {
		return nil, tenantMismatch()
	}
	return plain, nil
}

// processStatus is the data of GET /v1/process/{id}/status.
type processStatus struct {
	ProcessInstanceID string  `json:"processInstanceId"`
	DefinitionID      string  `json:"definitionId"`
	BusinessKey       *string `json:"businessKey"`
	Status            string  `json:"status"`
	Ended             bool    `json:"ended"`
	Suspended         bool    `json:"suspended"`
}

func (a *app) handleProcessStatus(w http.ResponseWriter, r *http.Request) error {
	return a.processStatus(w, r, true)
}

// processStatus answers a status read; checked applies the tenant check
// (the /v1/m2m twin has none).
func (a *app) processStatus(w http.ResponseWriter, r *http.Request, checked bool) error {
	id := mux.Vars(r)["id"]
	procs := a.engine
	ctx, cancel := a.engineContext(r)
	defer cancel()
	if checked {
		if _, err := a.ownedVariables(ctx, procs, auth.FromContext(r.Context()), id, false); err != nil {
			return err
		}
	}
	inst, err := procs.ProcessInstance(ctx, id)
	if err != nil {
		return engineFailure(err, instanceNotFound(id))
	}
	return httpapi.WriteData(w, http.StatusOK, processStatus{ProcessInstanceID: inst.ID, DefinitionID: inst.DefinitionID,
		BusinessKey: nullable(inst.BusinessKey), Status: runtimeStatus(inst), Ended: inst.Ended, Suspended: inst.Suspended})
}

func (a *app) handleProcessVariables(w http.ResponseWriter, r *http.Request) error {
	id := mux.Vars(r)["id"]
	procs := a.engine
	ctx, cancel := a.engineContext(r)
	defer cancel()
	vars, err := a.ownedVariables(ctx, procs, auth.FromContext(r.Context()), id, false)
	if err != nil {
		return err
	}
	return httpapi.WriteData(w, http.StatusOK, vars)
}

// readReason reads the optional {reason} of a cancellation.
func readReason(r *http.Request) (string, error) {
	body, err := readWriteBody(r)
	if err != nil {
		return "", err
	}
	reason, err := optionalString(body.Reason, "reason", maxReason)
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(reason) == "" {
		reason = "Cancelled by user"
	}
	return reason, nil
}

func (a *app) handleProcessDelete(w http.ResponseWriter, r *http.Request) error {
	p := auth.FromContext(r.Context())
	id := mux.Vars(r)["id"]
	reason, err := readReason(r)
	if err != nil {
		return err
	}
	procs := a.engine
	ctx, cancel := a.engineContext(r)
	defer cancel()
	if _, err := a.ownedVariables(ctx, procs, p, id, true); err != nil {
		return err
	}
	err = procs.DeleteProcessInstance(ctx, id, engine.DeleteProcessInstance{Reason: reason})
	row := auditRow{Action: "process.delete", ResourceType: "process", ResourceID: id,
		Details: map[string]any{"processInstanceId": id, "reason": reason}}
	if err := a.auditEngineCall(r, p, row, err, onFailure{NotFound: codeProcessNotFound, NotFoundMessage: fmt.Sprintf("Process instance '%s' not found", id),
		Failed: codeProcessDeleteFailed, FailedMessage: "The process instance could not be cancelled"}); err != nil {
		return err
	}
	return httpapi.WriteData(w, http.StatusOK, map[string]string{"message": "Process instance cancelled", "processInstanceId": id})
}

func (a *app) handleProcessHistory(w http.ResponseWriter, r *http.Request) error {
	p := auth.FromContext(r.Context())
	applicant := r.URL.Query().Get("applicantId")
	if strings.TrimSpace(applicant) == "" {
		return httpapi.NewError(http.StatusBadRequest, codeValidation, "applicantId is required")
	}
	if len(applicant) > maxVariableName {
		return httpapi.NewError(http.StatusBadRequest, codeValidation, "applicantId is too long")
	}
	if p.IsCitizen() && applicant != p.UserID {
		return httpapi.NewError(http.StatusForbidden, auth.CodeForbidden, "Citizens may only request their own history")
	}
	procs := a.engine
	q := engine.HistoricProcessInstanceQuery{
		Variables:  []engine.VariableFilter{{Name: varApplicantID, Operator: "eq", Value: applicant}},
		Sorting:    []engine.Sorting{{SortBy: "startTime", SortOrder: "desc"}},
		MaxResults: maxHistoryRows,
	}
	if !p.IsCitizen() {
		q.Variables = append(q.Variables, engine.VariableFilter{Name: varMunicipality, Operator: "eq", Value: p.Tenant})
	}
	ctx, cancel := a.engineContext(r)
	defer cancel()
	list, err := procs.HistoricProcessInstances(ctx, q)
	row := auditRow{Action: "process.history", ResourceType: "process",
		Details: map[string]any{"applicantId": applicant, "tenantId": p.Tenant, "count": len(list)}}
	if err := a.auditEngineCall(r, p, row, err, onFailure{Failed: codeProcessHistoryFailed, FailedMessage: "The process history could not be read"}); err != nil {
		return err
	}
	return httpapi.WriteData(w, http.StatusOK, list)
}

func (a *app) handleStartForm(w http.ResponseWriter, r *http.Request) error {
	return a.startForm(w, r, auth.FromContext(r.Context()).Tenant)
}

// startForm answers the start form of the deployment a caller of tenant
// would start ("" for machine clients).
func (a *app) startForm(w http.ResponseWriter, r *http.Request, tenant string) error {
	key := mux.Vars(r)["key"]
	procs := a.engine
	ctx, cancel := a.engineContext(r)
	defer cancel()
	deployed, ambiguous, err := resolveDeployment(ctx, procs, key, tenant)
	if err != nil {
		return err
	}
	if ambiguous != nil {
		return ambiguousDeployment(key, ambiguous)
	}
	def, err := procs.LatestProcessDefinition(ctx, key, deployed)
	if errors.Is(err, engine.ErrNotFound) && deployed != "" {
		def, err = procs.LatestProcessDefinition(ctx, key, "")
	}
	if err != nil {
		return engineFailure(err, onFailure{NotFound: codeProcessNotFound, NotFoundMessage: fmt.Sprintf("Process '%s' not found", key),
			Failed: codeFormFetchFailed, FailedMessage: "The form could not be fetched"})
	}
	form, err := procs.StartForm(ctx, def.ID)
	if err != nil {
		return formFailure(err)
	}
	return writeForm(w, form)
}

// writeForm answers a deployed form: a form-js schema (JSON content type,
// or a body that is an object with a components array) as data; anything
// else, such as an embedded HTML form, 415 UNSUPPORTED_FORM_TYPE.
func writeForm(w http.ResponseWriter, form engine.Form) error {
	if len(form.Data) > maxFormBytes {
		return httpapi.NewError(http.StatusInternalServerError, codeFormFetchFailed, "The linked form is too large")
	}
	data := bytes.TrimSpace(form.Data)
	var schema map[string]json.RawMessage
	isObject := len(data) > 0 && data[0] == '{' && json.Unmarshal(data, &schema) == nil
	components := isObject && len(bytes.TrimSpace(schema["components"])) > 0 && bytes.TrimSpace(schema["components"])[0] == '['
	switch {
	case strings.Contains(strings.ToLower(form.ContentType), "json") && isObject, components:
		return httpapi.WriteData(w, http.StatusOK, json.RawMessage(data))
	case strings.Contains(strings.ToLower(form.ContentType), "json"):
		return httpapi.NewError(http.StatusInternalServerError, codeFormFetchFailed, "The linked form is not a JSON object")
	}
	return httpapi.NewError(http.StatusUnsupportedMediaType, codeUnsupportedFormType,
		"The linked form is not a form-js schema (embedded HTML forms are not supported)")
}

// instanceHistory reads the latest variables of an instance, running or
// ended, refusing a caller who may not read them when p is set.
func (a *app) instanceHistory(ctx context.Context, procs engine.Processes, p *auth.Principal, id string) (map[string]any, error) {
	list, err := procs.HistoricVariables(ctx, engine.HistoricVariableQuery{ProcessInstanceID: id, MaxResults: maxInstanceVariables})
	if err != nil {
		return nil, engineFailure(err, onFailure{NotFound: codeProcessNotFound, NotFoundMessage: fmt.Sprintf("Process instance '%s' not found", id),
			Failed: codeHistoricVarsFailed, FailedMessage: "The historic variables could not be read"})
	}
	out := make(map[string]any, len(list))
	for _, v := range list {
		if v.ProcessInstanceID != "" && v.ProcessInstanceID != id {
			continue
		}
		out[v.Name] = v.Value.Plain()
	}
	if p != nil {
		if len(out) == 0 {
			return nil, httpapi.Errorf(http.StatusNotFound, codeProcessNotFound, "Process instance '%s' not found", id)
		}
		if !readable(p, out) {
			return nil, tenantMismatch()
		}
	}
	return out, nil
}

func (a *app) handleHistoricVariables(w http.ResponseWriter, r *http.Request) error {
	id := mux.Vars(r)["id"]
	procs := a.engine
	ctx, cancel := a.engineContext(r)
	defer cancel()
	vars, err := a.instanceHistory(ctx, procs, auth.FromContext(r.Context()), id)
	if err != nil {
		return err
	}
	return httpapi.WriteData(w, http.StatusOK, vars)
}

func (a *app) handleDecisionDocument(w http.ResponseWriter, r *http.Request) error {
	return a.decisionDocument(w, r, true)
}

// decisionDocument answers the template of an instance's decision (notes
// §4.7); checked applies the tenant/applicant check.
func (a *app) decisionDocument(w http.ResponseWriter, r *http.Request, checked bool) error {
	id := mux.Vars(r)["id"]
	procs := a.engine
	ctx, cancel := a.engineContext(r)
	defer cancel()
	if checked {
		if _, err := a.instanceHistory(ctx, procs, auth.FromContext(r.Context()), id); err != nil {
			return err
		}
	}
	template, err := a.documentTemplate(ctx, procs, id)
	if err != nil {
		return engineFailure(err, onFailure{NotFound: codeDocumentNotFound, NotFoundMessage: "No decision document for this process instance",
			Failed: codeDocumentFetchFailed, FailedMessage: "The decision document could not be fetched"})
	}
	return httpapi.WriteJSON(w, http.StatusOK, aliasEnvelope{Success: true, Data: template, Template: template,
		Timestamp: httpapi.Timestamp(time.Now())})
}

// errNoDocument is a missing documentRef or resource: not found.
var errNoDocument = engine.NotFound("no document")

// documentTemplate follows instance → definition → BPMN documentRef →
// deployment resource <ref>.document.
func (a *app) documentTemplate(ctx context.Context, procs engine.Processes, id string) (json.RawMessage, error) {
	hist, err := procs.HistoricProcessInstance(ctx, id)
	if err != nil {
		return nil, err
	}
	xmlText, err := procs.ProcessDefinitionXML(ctx, hist.ProcessDefinitionID)
	if err != nil {
		return nil, err
	}
	scan, err := scanBPMN(xmlText, hist.ProcessDefinitionKey)
	if err != nil {
		return nil, &engine.Error{Status: http.StatusInternalServerError, Type: "ParseException", Message: err.Error()}
	}
	if scan.documentRef == "" {
		return nil, errNoDocument
	}
	def, err := procs.ProcessDefinition(ctx, hist.ProcessDefinitionID)
	if err != nil {
		return nil, err
	}
	resources, err := procs.DeploymentResources(ctx, def.DeploymentID)
	if err != nil {
		return nil, err
	}
	want := scan.documentRef + ".document"
	for _, res := range resources {
		if res.Name != want && !strings.HasSuffix(res.Name, "/"+want) {
			continue
		}
		data, err := procs.DeploymentResourceData(ctx, def.DeploymentID, res.ID)
		if err != nil {
			return nil, err
		}
		if len(data) > maxDocumentBytes {
			return nil, &engine.Error{Status: http.StatusInternalServerError, Type: "ProcessEngineException", Message: "document template too large"}
		}
		data = bytes.TrimSpace(data)
		if !json.Valid(data) || len(data) == 0 || data[0] != '{' {
			return nil, &engine.Error{Status: http.StatusInternalServerError, Type: "ProcessEngineException",
				Message: fmt.Sprintf("resource %s is not a JSON object", want)}
		}
		return json.RawMessage(data), nil
	}
	return nil, errNoDocument
}

// bpmnScan is what the server reads from a definition's BPMN XML.
type bpmnScan struct {
	documentRef string // first ronl:documentRef on a userTask
	boardOwner  string // camunda:property boardOwner of the process
}

// scanBPMN streams the XML once (no tree, no recursion): the first
// userTask's ronl:documentRef, matched by namespace, and the boardOwner
// property in the extensionElements of the process with id key (of any
// process when key is empty).
func scanBPMN(text, key string) (bpmnScan, error) {
	var out bpmnScan
	if len(text) > maxBPMNBytes {
		return out, fmt.Errorf("BPMN XML larger than %d bytes", maxBPMNBytes)
	}
	dec := xml.NewDecoder(strings.NewReader(text))
	var stack []xml.Name
	inProcess := -1 // depth of the matching process element
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth := len(stack)
			if depth >= maxBPMNDepth {
				line, col := dec.InputPos()
				return out, fmt.Errorf("BPMN XML nests deeper than %d at line %d, column %d", maxBPMNDepth, line, col)
			}
			stack = append(stack, t.Name)
			switch {
			case t.Name.Space == bpmnModelNS && t.Name.Local == "process" && inProcess < 0:
				if key == "" || attr(t, "", "id") == key {
					inProcess = depth
				}
			case t.Name.Space == bpmnModelNS && t.Name.Local == "userTask" && out.documentRef == "":
				out.documentRef = attr(t, ronlNS, "documentRef")
			case t.Name.Space == camundaNS && t.Name.Local == "property" && inProcess >= 0 && out.boardOwner == "" &&
				depth == inProcess+3 && stack[inProcess+1].Local == "extensionElements" && stack[inProcess+2].Local == "properties":
				if attr(t, "", "name") == "boardOwner" {
					out.boardOwner = attr(t, "", "value")
				}
			}
		case xml.EndElement:
			stack = stack[:len(stack)-1]
			if len(stack) == inProcess {
				inProcess = -2 // done with it
			}
		}
	}
}

func attr(t xml.StartElement, space, local string) string {
	for _, a := range t.Attr {
		if a.Name.Local == local && a.Name.Space == space {
			return a.Value
		}
	}
	return ""
}

func (a *app) handleVariableHints(w http.ResponseWriter, r *http.Request) error {
	key := mux.Vars(r)["key"]
	procs := a.engine
	ctx, cancel := a.engineContext(r)
	defer cancel()
	list, err := procs.HistoricVariables(ctx, engine.HistoricVariableQuery{ProcessDefinitionKey: key, FirstResult: 0, MaxResults: maxHintRows})
	if err != nil {
		return engineFailure(err, onFailure{Failed: codeVariableHintsFailed, FailedMessage: "The variable hints could not be read"})
	}
	hints := hintsOf(list)
	return httpapi.WriteJSON(w, http.StatusOK, aliasEnvelope{Success: true, Data: hints, Variables: hints,
		Timestamp: httpapi.Timestamp(time.Now())})
}

// aliasEnvelope is the success envelope plus upstream's name for data:
// template on decision-document, variables on variable-hints.
type aliasEnvelope struct {
	Success   bool   `json:"success"`
	Data      any    `json:"data"`
	Template  any    `json:"template,omitempty"`
	Variables any    `json:"variables,omitempty"`
	Timestamp string `json:"timestamp"`
}

// nullable is s, or nil (JSON null) when empty.
func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// engineTime formats a time as Operaton does; nil for a zero or nil time.
func engineTime(t *time.Time) *string {
	if t == nil || t.IsZero() {
		return nil
	}
	s := t.Format(engine.DateLayout)
	return &s
}

// Schemas of the process operations.
var (
	startRequestSchema = openapi.Object(map[string]openapi.Schema{
		"businessKey": openapi.String("kept as sent; default <owning tenant>-<epoch ms>"),
		"variables":   openapi.AnyObject("name → plain JSON value, or {value, type, valueInfo?} with an Operaton type name"),
	})
	startResponseSchema = openapi.Object(map[string]openapi.Schema{
		"processInstanceId": openapi.String(""),
		"businessKey":       openapi.String(""),
		"status":            openapi.Enum("", "active", "suspended", "ended"),
		"startTime":         openapi.String("server clock, ISO 8601"),
	}, "processInstanceId", "businessKey", "status", "startTime")
	statusSchema = openapi.Object(map[string]openapi.Schema{
		"processInstanceId": openapi.String(""),
		"definitionId":      openapi.String(""),
		"businessKey":       openapi.Nullable(openapi.String("")),
		"status":            openapi.Enum("", "active", "suspended"),
		"ended":             openapi.Boolean(""),
		"suspended":         openapi.Boolean(""),
	}, "processInstanceId", "definitionId", "businessKey", "status", "ended", "suspended")
	reasonSchema = openapi.Object(map[string]openapi.Schema{"reason": openapi.String("default \"Cancelled by user\"")})
	cancelSchema = openapi.Object(map[string]openapi.Schema{
		"message":           openapi.String("Process instance cancelled"),
		"processInstanceId": openapi.String(""),
	}, "message", "processInstanceId")
	historicProcessSchema = openapi.AnyObject("Operaton's historic process instance: id, processDefinitionKey, processDefinitionId, " +
		"businessKey, startTime, endTime, durationInMillis, deleteReason, tenantId, state (ACTIVE, SUSPENDED, COMPLETED, " +
		"EXTERNALLY_TERMINATED, INTERNALLY_TERMINATED), …")
)

// deployProcessBundle deploys one example bundle directory of examples.FS
// (its BPMN, forms and templates in one deployment, so formRef and
// documentRef resolve). A bundle that is not embedded deploys nothing.
func deployProcessBundle(ctx context.Context, eng engine.ProcessEngine, dir string) error {
	entries, err := fs.ReadDir(examples.FS, dir)
	if err != nil {
		return err
	}
	var rs []engine.Resource
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := fs.ReadFile(examples.FS, path.Join(dir, e.Name()))
		if err != nil {
			return err
		}
		rs = append(rs, engine.Resource{Name: e.Name(), Data: data})
	}
	_, err = eng.Deploy(ctx, engine.NewDeployment{Name: path.Base(dir), Source: "regelkit-business",
		EnableDuplicateFiltering: true, Resources: rs})
	return err
}
