package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/gorilla/mux"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/servers/internal/auth"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/openapi"
)

const (
	// maxM2MRows bounds the passthrough listings: a query without
	// maxResults (or with more) gets this many rows.
	maxM2MRows = 1000
	// m2mTenantLabel is the municipality of an instance a machine client
	// starts on an untenanted deployment.
	m2mTenantLabel = "m2m"
)

// m2mRoutes registers the process and task operations of /v1/m2m (the two
// decision operations are in decision.go). Every route: JWT, azp in
// M2M_ALLOWED_CLIENTS, then the operation gate; no tenant scoping.
func (a *app) m2mRoutes(r *httpapi.Router) {
	a.mounted["m2m"] = "/v1/m2m"
	guard := func(h httpapi.HandlerFunc, op string) httpapi.HandlerFunc {
		return a.auth.Guard(h, auth.RequireM2MClient(a.cfg.M2MClients), auth.RequireOperation(auth.M2MAllowedOperations, op))
	}
	tags := []string{"m2m"}
	fail := func(codes ...string) openapi.Response { return openapi.Failure(strings.Join(codes, ", "), codes...) }
	refused := fail(auth.CodeM2MClientNotAllowed, auth.CodeOperationNotPermitted)
	desc := func(s string) string {
		return "JWT whose azp is in M2M_ALLOWED_CLIENTS; no tenant scoping. " + s
	}
	add := func(method, path, op string, h httpapi.HandlerFunc, o openapi.Operation) {
		o.Tags = tags
		o.Description = desc(o.Description)
		if o.Responses == nil {
			o.Responses = map[string]openapi.Response{}
		}
		o.Responses["403"] = refused
		r.Handle(method, path, guard(h, op), o)
	}
	listParams := []openapi.Parameter{{Name: "firstResult", In: "query", Schema: openapi.Integer("")},
		{Name: "maxResults", In: "query", Schema: openapi.Integer("default and maximum 1000")},
		{Name: "sortBy", In: "query", Schema: openapi.String("")}, {Name: "sortOrder", In: "query", Schema: openapi.Enum("", "asc", "desc")}}
	add("GET", "/v1/m2m/process", "process.list", a.handleM2MProcessList, openapi.Operation{
		Summary: "Running process instances of every organisation",
		Description: "Operaton's GET /process-instance parameters (processDefinitionKey, businessKey, tenantIdIn, variables=name_op_value, " +
			"active, suspended, …), at most 1000 rows. Items {id, definitionId, definitionKey, businessKey, caseInstanceId, ended, " +
			"suspended, tenantId, links}. Audited as process.list.m2m.",
		Parameters: listParams,
		Responses:  map[string]openapi.Response{"200": openapi.Success("instances", openapi.Array(openapi.AnyObject("process instance"), "")), "400": fail(codeValidation)},
	})
	historyOp := openapi.Operation{
		Summary: "Historic process instances of every organisation",
		Description: "A non-empty JSON body is Operaton's POST /history/process-instance query ({processDefinitionKey, businessKey, " +
			"variables:[{name, operator, value}], sorting:[{sortBy, sortOrder}], …}); without a body the query string is its GET form. " +
			"At most 1000 rows. POST on the same path is an alias, for clients whose proxies drop GET bodies.",
		Parameters: listParams,
		Responses: map[string]openapi.Response{"200": openapi.Success("historic process instances", openapi.Array(historicProcessSchema, "")),
			"400": fail(codeValidation, httpapi.CodeMalformedBody), "500": fail(codeProcessHistoryFailed)},
	}
	add("GET", "/v1/m2m/process/history", "process.history", a.handleM2MHistory, historyOp)
	postHistory := historyOp
	postHistory.RequestBody = &openapi.RequestBody{Description: "Operaton's historic process instance query", Content: openapi.JSON(openapi.AnyObject(""))}
	add("POST", "/v1/m2m/process/history", "process.history", a.handleM2MHistory, postHistory)
	add("POST", "/v1/m2m/process/{key}/start", "process.start", a.handleM2MStart, openapi.Operation{
		Summary: "Start a process instance",
		Description: "Body {businessKey?, variables?} (plain or wrapped); municipality and originTenantId are refused (400 RESERVED_VARIABLE). " +
			"The untenanted deployment, else the only tenant's (several: 409 AMBIGUOUS_DEPLOYMENT); municipality becomes that tenant, or " +
			"\"m2m\". The business key is kept verbatim, none is minted. 200 {processInstanceId, businessKey|null}. Audited as process.start.m2m.<key>.",
		Parameters:  procKeyParam,
		RequestBody: &openapi.RequestBody{Description: "{businessKey?, variables?}", Content: openapi.JSON(startRequestSchema)},
		Responses: map[string]openapi.Response{"200": openapi.Success("{processInstanceId, businessKey}", openapi.AnyObject("")),
			"400": fail(codeValidation, codeReservedVariable, httpapi.CodeMalformedBody), "404": fail(codeProcessNotFound),
			"409": fail(codeAmbiguousDeployment), "500": fail(codeProcessStartFailed)},
	})
	add("GET", "/v1/m2m/process/{id}/status", "process.status", a.handleM2MStatus, openapi.Operation{
		Summary: "Status of a running instance", Description: "An ended instance is 404 PROCESS_NOT_FOUND.", Parameters: idParam,
		Responses: map[string]openapi.Response{"200": openapi.Success("status", statusSchema), "404": fail(codeProcessNotFound)},
	})
	add("GET", "/v1/m2m/process/{id}/variables", "process.variables", a.handleM2MVariables, openapi.Operation{
		Summary: "Variables of a running instance as plain values", Description: "An ended instance is 404 PROCESS_NOT_FOUND.", Parameters: idParam,
		Responses: map[string]openapi.Response{"200": openapi.Success("{name: value}", openapi.AnyObject("")), "404": fail(codeProcessNotFound)},
	})
	add("GET", "/v1/m2m/process/{id}/historic-variables", "process.historic-variables", a.handleM2MHistoricVariables, openapi.Operation{
		Summary: "Latest variables of an instance, running or ended", Description: "An unknown id gives {} (upstream).", Parameters: idParam,
		Responses: map[string]openapi.Response{"200": openapi.Success("{name: value}", openapi.AnyObject("")), "500": fail(codeHistoricVarsFailed)},
	})
	add("GET", "/v1/m2m/process/{id}/decision-document", "process.decision-document", a.handleM2MDecisionDocument, openapi.Operation{
		Summary: "The document template of the instance's decision", Description: "As /v1/process/{id}/decision-document.", Parameters: idParam,
		Responses: map[string]openapi.Response{"200": {Description: "{success, data, template, timestamp}", Content: openapi.JSON(openapi.AnyObject(""))},
			"404": fail(codeDocumentNotFound), "500": fail(codeDocumentFetchFailed)},
	})
	add("GET", "/v1/m2m/process/{key}/start-form", "process.start-form", a.handleM2MStartForm, openapi.Operation{
		Summary: "The form-js schema of the start event", Description: "Of the untenanted deployment, else the only tenant's.", Parameters: procKeyParam,
		Responses: map[string]openapi.Response{"200": openapi.Success("form-js schema", openapi.AnyObject("")),
			"404": fail(codeFormNotFound, codeProcessNotFound), "409": fail(codeAmbiguousDeployment), "415": fail(codeUnsupportedFormType)},
	})
	add("GET", "/v1/m2m/process/{key}/variable-hints", "process.variable-hints", a.handleVariableHints, openapi.Operation{
		Summary: "Variable names and types seen in the history of a process", Description: "As /v1/process/{key}/variable-hints.", Parameters: procKeyParam,
		Responses: map[string]openapi.Response{"200": {Description: "{success, data: [{name, type}], variables, timestamp}", Content: openapi.JSON(openapi.AnyObject(""))},
			"500": fail(codeVariableHintsFailed)},
	})
	add("DELETE", "/v1/m2m/process/{id}", "process.delete", a.handleM2MDelete, openapi.Operation{
		Summary: "Cancel a running instance", Description: "Body {reason?}. An unknown or ended instance is 500 PROCESS_DELETE_FAILED. Audited as process.delete.m2m.",
		Parameters: idParam, RequestBody: &openapi.RequestBody{Description: "{reason?}", Content: openapi.JSON(reasonSchema)},
		Responses: map[string]openapi.Response{"200": openapi.Success("{message, processInstanceId}", cancelSchema), "500": fail(codeProcessDeleteFailed)},
	})
	add("GET", "/v1/m2m/task", "task.list", a.handleM2MTaskList, openapi.Operation{
		Summary: "Open tasks of every organisation",
		Description: "Operaton's GET /task parameters (processInstanceId, processDefinitionKey, assignee, candidateGroup, " +
			"processVariables=name_op_value, …), at most 1000 rows; processDefinitionKey added.",
		Parameters: listParams,
		Responses:  map[string]openapi.Response{"200": openapi.Success("tasks", openapi.Array(taskSchema, "")), "400": fail(codeValidation), "500": fail(codeTaskListFailed)},
	})
	add("GET", "/v1/m2m/task/{id}", "task.get", a.handleM2MTask, openapi.Operation{
		Summary: "One open task", Parameters: taskIDParam,
		Responses: map[string]openapi.Response{"200": openapi.Success("task", taskSchema), "404": fail(codeTaskNotFound)},
	})
	add("GET", "/v1/m2m/task/{id}/variables", "task.variables", a.handleM2MTaskVariables, openapi.Operation{
		Summary: "All variables visible from the task, as plain values", Parameters: taskIDParam,
		Responses: map[string]openapi.Response{"200": openapi.Success("{name: value}", openapi.AnyObject("")),
			"404": fail(codeTaskNotFound), "500": fail(codeTaskVariablesFailed)},
	})
	add("GET", "/v1/m2m/task/{id}/form-schema", "task.form-schema", a.handleM2MTaskForm, openapi.Operation{
		Summary: "The form-js schema linked to the task", Parameters: taskIDParam,
		Responses: map[string]openapi.Response{"200": openapi.Success("form-js schema", openapi.AnyObject("")),
			"404": fail(codeTaskNotFound, codeFormNotFound), "415": fail(codeUnsupportedFormType)},
	})
	add("POST", "/v1/m2m/task/{id}/claim", "task.claim", a.handleM2MClaim, openapi.Operation{
		Summary: "Claim a task", Description: "Body {userId?}, default the token's sub. Claimed by another user: 500 TASK_CLAIM_FAILED. Audited as task.claim.m2m.",
		Parameters:  taskIDParam,
		RequestBody: &openapi.RequestBody{Description: "{userId?}", Content: openapi.JSON(openapi.Object(map[string]openapi.Schema{"userId": openapi.String("")}))},
		Responses: map[string]openapi.Response{"200": openapi.Success("{taskId, claimed: true}", openapi.AnyObject("")),
			"400": fail(codeValidation), "404": fail(codeTaskNotFound), "500": fail(codeTaskClaimFailed)},
	})
	add("POST", "/v1/m2m/task/{id}/complete", "task.complete", a.handleM2MComplete, openapi.Operation{
		Summary: "Complete a task with submitted variables",
		Description: "Body {variables?}, plain or wrapped, at most 1000; every reserved name refused (400 RESERVED_VARIABLE). " +
			"An unknown or completed task is 500 TASK_COMPLETE_FAILED. Audited as task.complete.m2m.",
		Parameters:  taskIDParam,
		RequestBody: &openapi.RequestBody{Description: "{variables?}", Content: openapi.JSON(variablesBodySchema)},
		Responses: map[string]openapi.Response{"200": openapi.Success("{taskId, completed: true}", openapi.AnyObject("")),
			"400": fail(codeValidation, codeReservedVariable), "500": fail(codeTaskCompleteFailed)},
	})
}

func (a *app) handleM2MProcessList(w http.ResponseWriter, r *http.Request) error {
	p := auth.FromContext(r.Context())
	q, err := engine.ParseProcessInstanceQuery(r.URL.Query())
	if err := m2mQuery(&q.MaxResults, err); err != nil {
		return err
	}
	procs := a.engine
	ctx, cancel := a.engineContext(r)
	defer cancel()
	list, err := procs.ProcessInstances(ctx, q)
	row := auditRow{Action: "process.list.m2m", ResourceType: "process", Details: map[string]any{"count": len(list)}}
	if err := a.auditEngineCall(r, p, row, err, onFailure{Failed: codeProcessListFailed, FailedMessage: "The process instances could not be listed"}); err != nil {
		return err
	}
	// Operaton's ProcessInstanceDto: id, not processInstanceId
	return httpapi.WriteData(w, http.StatusOK, list)
}

func (a *app) handleM2MHistory(w http.ResponseWriter, r *http.Request) error {
	var q engine.HistoricProcessInstanceQuery
	var data []byte
	if r.Body != nil {
		var err error
		if data, err = io.ReadAll(r.Body); err != nil {
			var tooLarge *http.MaxBytesError
			if errors.As(err, &tooLarge) {
				return httpapi.Errorf(http.StatusRequestEntityTooLarge, httpapi.CodePayloadTooLarge, "request body exceeds the limit of %d bytes", tooLarge.Limit)
			}
			return httpapi.NewError(http.StatusBadRequest, httpapi.CodeMalformedBody, "could not read request body")
		}
	}
	var err error
	if len(bytes.TrimSpace(data)) > 0 {
		if !json.Valid(data) {
			return httpapi.NewError(http.StatusBadRequest, httpapi.CodeMalformedBody, "malformed JSON body")
		}
		q, err = engine.ParseHistoricProcessInstanceQueryJSON(data, r.URL.Query())
	} else {
		q, err = engine.ParseHistoricProcessInstanceQuery(r.URL.Query())
	}
	if err := m2mQuery(&q.MaxResults, err); err != nil {
		return err
	}
	procs := a.engine
	ctx, cancel := a.engineContext(r)
	defer cancel()
	list, err := procs.HistoricProcessInstances(ctx, q)
	if err != nil {
		return engineFailure(err, onFailure{Failed: codeProcessHistoryFailed, FailedMessage: "The process history could not be read"})
	}
	return httpapi.WriteData(w, http.StatusOK, list)
}

func (a *app) handleM2MStart(w http.ResponseWriter, r *http.Request) error {
	p := auth.FromContext(r.Context())
	key := mux.Vars(r)["key"]
	action := "process.start.m2m." + key
	businessKey, vars, err := readStartBody(r)
	if err != nil {
		return err
	}
	if err := refuseReserved(vars, m2mStartReserved); err != nil {
		a.audit.record(r.Context(), r, p, auditRow{Action: action, ResourceType: "process", ResourceID: key, Failed: true,
			Details: map[string]any{"reason": codeReservedVariable}, ErrorMessage: failureMessage(err)})
		return err
	}
	procs := a.engine
	ctx, cancel := a.engineContext(r)
	defer cancel()
	deployed, ambiguous, err := resolveDeployment(ctx, procs, key, "")
	if err != nil {
		return err
	}
	if ambiguous != nil {
		return ambiguousDeployment(key, ambiguous)
	}
	label := deployed
	if label == "" {
		label = m2mTenantLabel
	}
	vars[varMunicipality] = engine.String(label)
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
	return httpapi.WriteData(w, http.StatusOK, map[string]any{"processInstanceId": inst.ID, "businessKey": nullable(inst.BusinessKey)})
}

func (a *app) handleM2MStatus(w http.ResponseWriter, r *http.Request) error {
	return a.processStatus(w, r, false)
}

func (a *app) handleM2MVariables(w http.ResponseWriter, r *http.Request) error {
	id := mux.Vars(r)["id"]
	procs := a.engine
	ctx, cancel := a.engineContext(r)
	defer cancel()
	vars, err := procs.ProcessInstanceVariables(ctx, id)
	if err != nil {
		return engineFailure(err, instanceNotFound(id))
	}
	return httpapi.WriteData(w, http.StatusOK, plainVariables(vars))
}

func (a *app) handleM2MHistoricVariables(w http.ResponseWriter, r *http.Request) error {
	id := mux.Vars(r)["id"]
	procs := a.engine
	ctx, cancel := a.engineContext(r)
	defer cancel()
	vars, err := a.instanceHistory(ctx, procs, nil, id)
	if err != nil {
		return err
	}
	return httpapi.WriteData(w, http.StatusOK, vars)
}

func (a *app) handleM2MDecisionDocument(w http.ResponseWriter, r *http.Request) error {
	return a.decisionDocument(w, r, false)
}

func (a *app) handleM2MStartForm(w http.ResponseWriter, r *http.Request) error {
	return a.startForm(w, r, "")
}

func (a *app) handleM2MDelete(w http.ResponseWriter, r *http.Request) error {
	p := auth.FromContext(r.Context())
	id := mux.Vars(r)["id"]
	reason, err := readReason(r)
	if err != nil {
		return err
	}
	procs := a.engine
	ctx, cancel := a.engineContext(r)
	defer cancel()
	err = procs.DeleteProcessInstance(ctx, id, engine.DeleteProcessInstance{Reason: reason})
	row := auditRow{Action: "process.delete.m2m", ResourceType: "process", ResourceID: id,
		Details: map[string]any{"processInstanceId": id, "reason": reason}}
	// Upstream: an unknown or ended instance is a failed delete, not a 404.
	if err := a.auditEngineCall(r, p, row, err, onFailure{Failed: codeProcessDeleteFailed, FailedMessage: "The process instance could not be cancelled"}); err != nil {
		return err
	}
	return httpapi.WriteData(w, http.StatusOK, map[string]string{"message": "Process instance cancelled", "processInstanceId": id})
}

func (a *app) handleM2MTaskList(w http.ResponseWriter, r *http.Request) error {
	q, err := engine.ParseTaskQuery(r.URL.Query())
	if err := m2mQuery(&q.MaxResults, err); err != nil {
		return err
	}
	procs := a.engine
	ctx, cancel := a.engineContext(r)
	defer cancel()
	tasks, err := procs.Tasks(ctx, q)
	if err != nil {
		return engineFailure(err, onFailure{Failed: codeTaskListFailed, FailedMessage: "The tasks could not be listed"})
	}
	return httpapi.WriteData(w, http.StatusOK, taskList(ctx, procs, tasks))
}

func (a *app) handleM2MTask(w http.ResponseWriter, r *http.Request) error {
	id := mux.Vars(r)["id"]
	procs := a.engine
	ctx, cancel := a.engineContext(r)
	defer cancel()
	task, err := procs.Task(ctx, id)
	if err != nil {
		return engineFailure(err, taskNotFound(id, codeOperatonError, "The process engine refused the request"))
	}
	return httpapi.WriteData(w, http.StatusOK, taskList(ctx, procs, []engine.Task{task})[0])
}

func (a *app) handleM2MTaskVariables(w http.ResponseWriter, r *http.Request) error {
	id := mux.Vars(r)["id"]
	procs := a.engine
	ctx, cancel := a.engineContext(r)
	defer cancel()
	vars, err := procs.TaskVariables(ctx, id)
	if err != nil {
		return engineFailure(err, taskNotFound(id, codeTaskVariablesFailed, "The task's variables could not be read"))
	}
	return httpapi.WriteData(w, http.StatusOK, plainVariables(vars))
}

func (a *app) handleM2MTaskForm(w http.ResponseWriter, r *http.Request) error {
	id := mux.Vars(r)["id"]
	procs := a.engine
	ctx, cancel := a.engineContext(r)
	defer cancel()
	if _, err := procs.Task(ctx, id); err != nil {
		return engineFailure(err, taskNotFound(id, codeOperatonError, "The process engine refused the request"))
	}
	form, err := procs.TaskForm(ctx, id)
	if err != nil {
		return formFailure(err)
	}
	return writeForm(w, form)
}

func (a *app) handleM2MClaim(w http.ResponseWriter, r *http.Request) error {
	p := auth.FromContext(r.Context())
	id := mux.Vars(r)["id"]
	body, err := readWriteBody(r)
	if err != nil {
		return err
	}
	user, err := optionalString(body.UserID, "userId", maxVariableName)
	if err != nil {
		return err
	}
	if user == "" {
		user = p.UserID
	}
	procs := a.engine
	ctx, cancel := a.engineContext(r)
	defer cancel()
	err = procs.Claim(ctx, id, user)
	row := auditRow{Action: "task.claim.m2m", ResourceType: "task", ResourceID: id, Details: map[string]any{"taskId": id}}
	if err := a.auditEngineCall(r, p, row, err, taskNotFound(id, codeTaskClaimFailed, "The task could not be claimed")); err != nil {
		return err
	}
	return httpapi.WriteData(w, http.StatusOK, map[string]any{"taskId": id, "claimed": true})
}

func (a *app) handleM2MComplete(w http.ResponseWriter, r *http.Request) error {
	p := auth.FromContext(r.Context())
	id := mux.Vars(r)["id"]
	body, err := readWriteBody(r)
	if err != nil {
		return err
	}
	vars, err := parseWriteVariables(body.Variables)
	if err != nil {
		return err
	}
	row := auditRow{Action: "task.complete.m2m", ResourceType: "task", ResourceID: id,
		Details: map[string]any{"taskId": id, "variableCount": len(vars)}}
	if err := refuseReserved(vars, reservedVariables); err != nil {
		row.Failed, row.ErrorMessage = true, failureMessage(err)
		row.Details["reason"] = codeReservedVariable
		a.audit.record(r.Context(), r, p, row)
		return err
	}
	procs := a.engine
	ctx, cancel := a.engineContext(r)
	defer cancel()
	err = procs.CompleteTask(ctx, id, vars)
	// Upstream: an unknown or completed task is a failed completion.
	if err := a.auditEngineCall(r, p, row, err, onFailure{Failed: codeTaskCompleteFailed, FailedMessage: "The task could not be completed"}); err != nil {
		return err
	}
	return httpapi.WriteData(w, http.StatusOK, map[string]any{"taskId": id, "completed": true})
}

// m2mQuery finishes a passthrough query read by the engine's parser: a
// parse failure is 400 VALIDATION_ERROR with the engine's message, and
// maxResults is at most maxM2MRows (absent: maxM2MRows; 0 keeps Operaton's
// "no rows").
func m2mQuery(maxResults *int, err error) error {
	if err != nil {
		return httpapi.NewError(http.StatusBadRequest, codeValidation, httpapi.Excerpt(engineMessage(err), 300))
	}
	if *maxResults == 0 || *maxResults > maxM2MRows {
		*maxResults = maxM2MRows
	}
	return nil
}

// engineMessage is an engine error's own message.
func engineMessage(err error) string {
	var ee *engine.Error
	if errors.As(err, &ee) && ee.Message != "" {
		return ee.Message
	}
	return err.Error()
}
