package server

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/servers/internal/auth"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/openapi"
)

// Codes and keys of the onboarding and project-phase routes (spec §4.5–4.6).
const (
	codeOnboardingList     = "ONBOARDING_LIST_FAILED"
	codeHRProfile          = "HR_PROFILE_FAILED"
	codeRIPList            = "RIP_LIST_FAILED"
	codeRIPCompletedList   = "RIP_COMPLETED_LIST_FAILED"
	codeRIPDocuments       = "RIP_DOCUMENTS_FAILED"
	onboardingProcessKey   = "HrOnboardingProcess"
	ripProcessKey          = "RipPhase1Process"
	tenantVariable         = "municipality"
	historyListMax         = 200 // instances per listing, newest first
	historyBulkIDs         = 100 // ids per bulk variable read
	maxHistoricVariables   = 10_000
	maxDocumentResourceLen = 4 << 20
)

// processEngine is the process side of the configured engine.
func (a *app) processEngine() (engine.Processes, error) {
	if a.engine == nil {
		return nil, httpapi.NewError(http.StatusBadGateway, codeOperatonError, "The process engine does not run processes")
	}
	return a.engine, nil
}

// docsEngineFailure maps an engine error of these routes through the one
// mapping (engineerrors.go): a refusal is 500 with the route's code.
func docsEngineFailure(err error, code, what string) error {
	var he *httpapi.Error
	if errors.As(err, &he) {
		return he
	}
	return engineFailure(err, onFailure{Failed: code, FailedMessage: what})
}

// flattenHistoric turns historic variable rows into {name: value}. A name
// set in several scopes keeps the process instance's own (its execution is
// the instance), so a task's local input never hides the process variable.
func flattenHistoric(rows []engine.HistoricVariable, instanceID string) map[string]any {
	out := make(map[string]any, len(rows))
	own := map[string]bool{}
	for _, v := range rows {
		isOwn := v.ExecutionID == "" || v.ExecutionID == instanceID
		if _, seen := out[v.Name]; seen && own[v.Name] && !isOwn {
			continue
		}
		out[v.Name] = v.Value.Plain()
		own[v.Name] = isOwn
	}
	return out
}

// instanceVariables reads the named variables of many instances, one
// query per name over at most historyBulkIDs ids: id → name → value
// (missing → absent). A row per instance and scope bounds each answer.
func instanceVariables(ctx context.Context, p engine.Processes, ids []string, names ...string) (map[string]map[string]any, error) {
	out := make(map[string]map[string]any, len(ids))
	for start := 0; start < len(ids); start += historyBulkIDs {
		chunk := ids[start:min(start+historyBulkIDs, len(ids))]
		byInstance := map[string][]engine.HistoricVariable{}
		for _, name := range names {
			rows, err := p.HistoricVariables(ctx, engine.HistoricVariableQuery{VariableName: name, ProcessInstanceIDIn: chunk,
				MaxResults: min(len(chunk)*16, maxHistoricVariables)})
			if err != nil {
				return nil, err
			}
			for _, v := range rows {
				byInstance[v.ProcessInstanceID] = append(byInstance[v.ProcessInstanceID], v)
			}
		}
		for id, vs := range byInstance {
			out[id] = flattenHistoric(vs, id)
		}
	}
	return out, nil
}

// value is vars[name], or nil when absent: a missing variable is null.
func value(vars map[string]any, name string) any {
	if v, ok := vars[name]; ok {
		return v
	}
	return nil
}

var tenantFilter = func(tenant string) []engine.VariableFilter {
	return []engine.VariableFilter{{Name: tenantVariable, Operator: "eq", Value: tenant}}
}

// onboardingRoutes mounts /v1/hr (spec §4.5).
func (a *app) onboardingRoutes(r *httpapi.Router) {
	a.mounted["hr"] = "/v1/hr"
	guard := func(h httpapi.HandlerFunc) httpapi.HandlerFunc {
		return a.auth.Guard(h, auth.RequireTenant(a.cfg.TenantIsolation), auth.RequireRole(auth.RoleCaseworker, auth.RoleHRMedewerker))
	}
	tags := []string{"onboarding"}
	r.Handle("GET", "/v1/hr/onboarding/profile", guard(a.handleHRProfile), openapi.Operation{
		Summary: "The onboarding record of an employee",
		Description: "JWT with a municipality and role caseworker or hr-medewerker. data: the variables of the employee's newest completed " +
			"HrOnboardingProcess instance of the caller's municipality, flattened to {name: value}. Without hr-medewerker a caller may read " +
			"only their own record (employeeId claim), else 403 FORBIDDEN. No completed instance: 500 HR_PROFILE_FAILED.",
		Tags: tags, Parameters: []openapi.Parameter{openapi.Query("employeeId", "the employee", true)},
		Responses: map[string]openapi.Response{
			"200": {Description: "flat variables"},
			"400": {Description: "VALIDATION_ERROR: employeeId missing"},
			"403": {Description: "FORBIDDEN, MISSING_TENANT"},
			"500": {Description: "HR_PROFILE_FAILED"},
			"502": {Description: "OPERATON_ERROR"},
		},
	})
	r.Handle("GET", "/v1/hr/onboarding/completed", guard(a.handleHRCompleted), openapi.Operation{
		Summary: "Completed onboardings of the caller's municipality",
		Description: "data: [{id, startTime, endTime, employeeId, firstName, lastName}], newest endTime first, at most 200; " +
			"a missing variable is null.",
		Tags: tags,
		Responses: map[string]openapi.Response{
			"200": {Description: "instances"}, "403": {Description: "FORBIDDEN, MISSING_TENANT"},
			"500": {Description: "ONBOARDING_LIST_FAILED"}, "502": {Description: "OPERATON_ERROR"},
		},
	})
}

func (a *app) handleHRProfile(w http.ResponseWriter, r *http.Request) error {
	p := auth.FromContext(r.Context())
	employee := strings.TrimSpace(r.URL.Query().Get("employeeId"))
	if employee == "" {
		return httpapi.NewError(http.StatusBadRequest, codeValidation, "employeeId is required")
	}
	if len(employee) > 200 {
		return httpapi.NewError(http.StatusBadRequest, codeValidation, "employeeId must be at most 200 bytes")
	}
	if !p.HasRole(auth.RoleHRMedewerker) && employee != p.EmployeeID {
		return httpapi.NewError(http.StatusForbidden, auth.CodeForbidden, "Only hr-medewerker may read another employee's record")
	}
	pe, err := a.processEngine()
	if err != nil {
		return err
	}
	ctx, cancel := a.engineContext(r)
	defer cancel()
	list, err := pe.HistoricProcessInstances(ctx, engine.HistoricProcessInstanceQuery{
		ProcessDefinitionKey: onboardingProcessKey, Finished: true,
		Variables: append([]engine.VariableFilter{{Name: "employeeId", Operator: "eq", Value: employee}}, tenantFilter(p.Tenant)...),
		Sorting:   []engine.Sorting{{SortBy: "endTime", SortOrder: "desc"}}, MaxResults: 1,
	})
	if err != nil {
		return docsEngineFailure(err, codeHRProfile, "Reading the onboarding record failed")
	}
	if len(list) == 0 {
		return httpapi.NewError(http.StatusInternalServerError, codeHRProfile, "No completed onboarding found for this employee")
	}
	rows, err := pe.HistoricVariables(ctx, engine.HistoricVariableQuery{ProcessInstanceID: list[0].ID, MaxResults: maxHistoricVariables})
	if err != nil {
		return docsEngineFailure(err, codeHRProfile, "Reading the onboarding record failed")
	}
	return httpapi.WriteData(w, http.StatusOK, flattenHistoric(rows, list[0].ID))
}

// historicList lists instances of key of the caller's tenant, newest first.
func (a *app) historicList(ctx context.Context, pe engine.Processes, key, tenant string, finished bool) ([]engine.HistoricProcessInstance, error) {
	q := engine.HistoricProcessInstanceQuery{ProcessDefinitionKey: key, Variables: tenantFilter(tenant), MaxResults: historyListMax}
	if finished {
		q.Finished, q.Sorting = true, []engine.Sorting{{SortBy: "endTime", SortOrder: "desc"}}
	} else {
		q.Unfinished, q.Sorting = true, []engine.Sorting{{SortBy: "startTime", SortOrder: "desc"}}
	}
	return pe.HistoricProcessInstances(ctx, q)
}

func ids(list []engine.HistoricProcessInstance) []string {
	out := make([]string, len(list))
	for i, h := range list {
		out[i] = h.ID
	}
	return out
}

func (a *app) handleHRCompleted(w http.ResponseWriter, r *http.Request) error {
	p := auth.FromContext(r.Context())
	pe, err := a.processEngine()
	if err != nil {
		return err
	}
	ctx, cancel := a.engineContext(r)
	defer cancel()
	list, err := a.historicList(ctx, pe, onboardingProcessKey, p.Tenant, true)
	if err != nil {
		return docsEngineFailure(err, codeOnboardingList, "Listing completed onboardings failed")
	}
	vars, err := instanceVariables(ctx, pe, ids(list), "employeeId", "firstName", "lastName")
	if err != nil {
		return docsEngineFailure(err, codeOnboardingList, "Listing completed onboardings failed")
	}
	out := make([]map[string]any, 0, len(list))
	for _, h := range list {
		v := vars[h.ID]
		out = append(out, map[string]any{
			"id": h.ID, "startTime": engineTime(&h.StartTime), "endTime": engineTime(h.EndTime),
			"employeeId": value(v, "employeeId"), "firstName": value(v, "firstName"), "lastName": value(v, "lastName"),
		})
	}
	return httpapi.WriteData(w, http.StatusOK, out)
}
