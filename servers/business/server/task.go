package server

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/gorilla/mux"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/servers/internal/auth"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/openapi"
)

const (
	// maxTaskList bounds one task listing; maxResults pages below it.
	maxTaskList = 1000
	// maxTaskHistory is the spec's bound of the task history (§8).
	maxTaskHistory = 200
	// bulkIDs is the most instance ids one bulk read names.
	bulkIDs = 100
	// maxBoardOwners bounds the boardOwner cache: one entry per
	// definition id, and callers grow it only by deploying.
	maxBoardOwners = 1024
)

var taskIDParam = []openapi.Parameter{{Name: "id", In: "path", Required: true, Description: "task id", Schema: openapi.String("")}}

func (a *app) taskRoutes(r *httpapi.Router) {
	a.mounted["task"] = "/v1/task"
	guard := func(h httpapi.HandlerFunc) httpapi.HandlerFunc {
		return a.auth.Guard(h, auth.RequireTenant(a.cfg.TenantIsolation), auth.RequireRole(auth.RoleCaseworker))
	}
	tags := []string{"task"}
	fail := func(codes ...string) openapi.Response { return openapi.Failure(strings.Join(codes, ", "), codes...) }
	refused := fail(auth.CodeForbidden, auth.CodeMissingTenant, auth.CodeTenantMismatch)
	r.Handle("GET", "/v1/task", guard(a.handleTaskList), openapi.Operation{
		Summary: "Open tasks of the caller's municipality and candidate groups",
		Description: "Role caseworker. Tasks whose instance's municipality is the caller's AND whose candidate group is one of the " +
			"caller's realm roles, claimed ones included, newest first; query firstResult and maxResults (at most 1000). " +
			"processDefinitionKey added. Audited as task.list.",
		Tags: tags,
		Parameters: []openapi.Parameter{{Name: "firstResult", In: "query", Schema: openapi.Integer("")},
			{Name: "maxResults", In: "query", Schema: openapi.Integer("default and maximum 1000")}},
		Responses: map[string]openapi.Response{"200": openapi.Success("tasks", openapi.Array(taskSchema, "")),
			"403": refused, "500": fail(codeTaskListFailed)},
	})
	// /history before /{id}: it must never be read as a task id.
	r.Handle("GET", "/v1/task/history", guard(a.handleTaskHistory), openapi.Operation{
		Summary: "Completed tasks of the caller's municipality",
		Description: "At most 200, newest endTime first, as Operaton's historic tasks plus businessKey (of the instance) and " +
			"boardOwner (the process's camunda:property boardOwner, or null). Audited as task.history.",
		Tags: tags,
		Responses: map[string]openapi.Response{"200": openapi.Success("historic tasks", openapi.Array(historicTaskSchema, "")),
			"403": refused, "500": fail(codeTaskHistoryFailed)},
	})
	r.Handle("GET", "/v1/task/{id}", guard(a.handleTask), openapi.Operation{
		Summary: "One open task of the caller's municipality", Tags: tags, Parameters: taskIDParam,
		Responses: map[string]openapi.Response{"200": openapi.Success("task", taskSchema), "403": refused, "404": fail(codeTaskNotFound)},
	})
	r.Handle("GET", "/v1/task/{id}/variables", guard(a.handleTaskVariables), openapi.Operation{
		Summary: "All variables of the task's process instance as plain values", Tags: tags, Parameters: taskIDParam,
		Responses: map[string]openapi.Response{"200": openapi.Success("{name: value}", openapi.AnyObject("")), "403": refused,
			"404": fail(codeTaskNotFound), "500": fail(codeTaskVariablesFailed)},
	})
	r.Handle("GET", "/v1/task/{id}/form-schema", guard(a.handleTaskForm), openapi.Operation{
		Summary:     "The form-js schema linked to the task",
		Description: "404 FORM_NOT_FOUND when no camunda:formRef is linked (engine 400 counts as 404); 415 UNSUPPORTED_FORM_TYPE for an embedded HTML form.",
		Tags:        tags, Parameters: taskIDParam,
		Responses: map[string]openapi.Response{"200": openapi.Success("form-js schema", openapi.AnyObject("")), "403": refused,
			"404": fail(codeTaskNotFound, codeFormNotFound), "415": fail(codeUnsupportedFormType), "500": fail(codeFormFetchFailed)},
	})
	r.Handle("POST", "/v1/task/{id}/claim", guard(a.handleTaskClaim), openapi.Operation{
		Summary: "Claim the task for the caller", Description: "The body is ignored. Audited as task.claim.", Tags: tags, Parameters: taskIDParam,
		Responses: map[string]openapi.Response{"200": openapi.Success("{taskId, assignee}", claimSchema), "403": refused,
			"404": fail(codeTaskNotFound), "500": fail(codeTaskClaimFailed)},
	})
	r.Handle("POST", "/v1/task/{id}/complete", guard(a.handleTaskComplete), openapi.Operation{
		Summary: "Complete the task with submitted variables",
		Description: "Body {variables?}, each plain or {value, type, valueInfo?}; at most 1000. municipality, originTenantId, " +
			"applicantId, edocsAuthor and edocsAuthorName are refused (400 RESERVED_VARIABLE, details.reserved). Audited as task.complete.",
		Tags: tags, Parameters: taskIDParam,
		RequestBody: &openapi.RequestBody{Description: "{variables?}", Content: openapi.JSON(variablesBodySchema)},
		Responses: map[string]openapi.Response{"200": openapi.Success("{taskId, status: completed}", completeSchema),
			"400": fail(codeValidation, codeReservedVariable, httpapi.CodeMalformedBody), "403": refused,
			"404": fail(codeTaskNotFound), "500": fail(codeTaskCompleteFailed)},
	})
}

func taskNotFound(id string, failed, msg string) onFailure {
	return onFailure{NotFound: codeTaskNotFound, NotFoundMessage: fmt.Sprintf("Task '%s' not found", id), Failed: failed, FailedMessage: msg}
}

// ownedTask reads a task and refuses it unless its instance's municipality
// is the caller's (tasks admit the owning tenant only, never the applicant).
func ownedTask(ctx context.Context, procs engine.Processes, p *auth.Principal, id string) (engine.Task, map[string]any, error) {
	task, err := procs.Task(ctx, id)
	if err != nil {
		return task, nil, engineFailure(err, taskNotFound(id, codeOperatonError, "The process engine refused the request"))
	}
	vars, err := procs.ProcessInstanceVariables(ctx, task.ProcessInstanceID)
	if err != nil {
		return task, nil, engineFailure(err, taskNotFound(id, codeTaskVariablesFailed, "The task's variables could not be read"))
	}
	plain := plainVariables(vars)
	if auth.CheckTenant(p, plain[varMunicipality]) != nil {
		return task, nil, tenantMismatch()
	}
	return task, plain, nil
}

func (a *app) handleTaskList(w http.ResponseWriter, r *http.Request) error {
	p := auth.FromContext(r.Context())
	procs := a.engine
	maxResults := queryInt(r, "maxResults", maxTaskList)
	if maxResults < 1 || maxResults > maxTaskList {
		maxResults = maxTaskList
	}
	q := engine.TaskQuery{
		ProcessVariables:     []engine.VariableFilter{{Name: varMunicipality, Operator: "eq", Value: p.Tenant}},
		CandidateGroups:      p.Roles,
		IncludeAssignedTasks: true,
		SortBy:               "created", SortOrder: "desc",
		FirstResult: max(queryInt(r, "firstResult", 0), 0), MaxResults: maxResults,
	}
	ctx, cancel := a.engineContext(r)
	defer cancel()
	var tasks []engine.Task
	var err error
	if p.Tenant != "" && len(p.Roles) > 0 {
		tasks, err = procs.Tasks(ctx, q)
	}
	row := auditRow{Action: "task.list", ResourceType: "task", Details: map[string]any{"count": len(tasks)}}
	if err := a.auditEngineCall(r, p, row, err, onFailure{Failed: codeTaskListFailed, FailedMessage: "The tasks could not be listed"}); err != nil {
		return err
	}
	return httpapi.WriteData(w, http.StatusOK, taskList(ctx, procs, tasks))
}

func (a *app) handleTask(w http.ResponseWriter, r *http.Request) error {
	id := mux.Vars(r)["id"]
	procs := a.engine
	ctx, cancel := a.engineContext(r)
	defer cancel()
	task, _, err := ownedTask(ctx, procs, auth.FromContext(r.Context()), id)
	if err != nil {
		return err
	}
	return httpapi.WriteData(w, http.StatusOK, taskList(ctx, procs, []engine.Task{task})[0])
}

func (a *app) handleTaskVariables(w http.ResponseWriter, r *http.Request) error {
	id := mux.Vars(r)["id"]
	procs := a.engine
	ctx, cancel := a.engineContext(r)
	defer cancel()
	_, vars, err := ownedTask(ctx, procs, auth.FromContext(r.Context()), id)
	if err != nil {
		return err
	}
	return httpapi.WriteData(w, http.StatusOK, vars)
}

func (a *app) handleTaskForm(w http.ResponseWriter, r *http.Request) error {
	id := mux.Vars(r)["id"]
	procs := a.engine
	ctx, cancel := a.engineContext(r)
	defer cancel()
	if _, _, err := ownedTask(ctx, procs, auth.FromContext(r.Context()), id); err != nil {
		return err
	}
	form, err := procs.TaskForm(ctx, id)
	if err != nil {
		return formFailure(err)
	}
	return writeForm(w, form)
}

func (a *app) handleTaskClaim(w http.ResponseWriter, r *http.Request) error {
	p := auth.FromContext(r.Context())
	id := mux.Vars(r)["id"]
	procs := a.engine
	ctx, cancel := a.engineContext(r)
	defer cancel()
	if _, _, err := ownedTask(ctx, procs, p, id); err != nil {
		return err
	}
	err := procs.Claim(ctx, id, p.UserID)
	row := auditRow{Action: "task.claim", ResourceType: "task", ResourceID: id, Details: map[string]any{"taskId": id}}
	if err := a.auditEngineCall(r, p, row, err, taskNotFound(id, codeTaskClaimFailed, "The task could not be claimed")); err != nil {
		return err
	}
	return httpapi.WriteData(w, http.StatusOK, map[string]string{"taskId": id, "assignee": p.UserID})
}

func (a *app) handleTaskComplete(w http.ResponseWriter, r *http.Request) error {
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
	if err := refuseReserved(vars, reservedVariables); err != nil {
		return err
	}
	procs := a.engine
	ctx, cancel := a.engineContext(r)
	defer cancel()
	if _, _, err := ownedTask(ctx, procs, p, id); err != nil {
		return err
	}
	err = procs.CompleteTask(ctx, id, vars)
	row := auditRow{Action: "task.complete", ResourceType: "task", ResourceID: id,
		Details: map[string]any{"taskId": id, "variableCount": len(vars)}}
	if err := a.auditEngineCall(r, p, row, err, taskNotFound(id, codeTaskCompleteFailed, "The task could not be completed")); err != nil {
		return err
	}
	return httpapi.WriteData(w, http.StatusOK, map[string]string{"taskId": id, "status": "completed"})
}

func (a *app) handleTaskHistory(w http.ResponseWriter, r *http.Request) error {
	p := auth.FromContext(r.Context())
	procs := a.engine
	ctx, cancel := a.engineContext(r)
	defer cancel()
	var tasks []engine.HistoricTask
	var err error
	if p.Tenant != "" {
		tasks, err = procs.HistoricTasks(ctx, engine.HistoricTaskQuery{
			Finished:         true,
			ProcessVariables: []engine.VariableFilter{{Name: varMunicipality, Operator: "eq", Value: p.Tenant}},
			SortBy:           "endTime", SortOrder: "desc", MaxResults: maxTaskHistory,
		})
	}
	var out []historicTaskRow
	if err == nil {
		out, err = a.decorateHistory(ctx, procs, tasks)
	}
	row := auditRow{Action: "task.history", ResourceType: "task", Details: map[string]any{"count": len(out)}}
	if err := a.auditEngineCall(r, p, row, err, onFailure{Failed: codeTaskHistoryFailed, FailedMessage: "The task history could not be read"}); err != nil {
		return err
	}
	return httpapi.WriteData(w, http.StatusOK, out)
}

// decorateHistory adds businessKey (one bulk read per 100 instances) and
// boardOwner (from the BPMN, cached per definition) to historic tasks.
func (a *app) decorateHistory(ctx context.Context, procs engine.Processes, tasks []engine.HistoricTask) ([]historicTaskRow, error) {
	if len(tasks) > maxTaskHistory {
		tasks = tasks[:maxTaskHistory]
	}
	var ids []string
	seen := map[string]bool{}
	for _, t := range tasks {
		if t.ProcessInstanceID != "" && !seen[t.ProcessInstanceID] {
			seen[t.ProcessInstanceID] = true
			ids = append(ids, t.ProcessInstanceID)
		}
	}
	keys := map[string]string{}
	for start := 0; start < len(ids); start += bulkIDs {
		chunk := ids[start:min(start+bulkIDs, len(ids))]
		list, err := procs.HistoricProcessInstances(ctx, engine.HistoricProcessInstanceQuery{ProcessInstanceIDs: chunk, MaxResults: len(chunk)})
		if err != nil {
			return nil, err
		}
		for _, h := range list {
			keys[h.ID] = h.BusinessKey
		}
	}
	out := make([]historicTaskRow, 0, len(tasks))
	for _, t := range tasks {
		out = append(out, historicTaskRow{HistoricTaskDTO: t.DTO(), BusinessKey: nullable(keys[t.ProcessInstanceID]),
			BoardOwner: nullable(a.boardOwners.get(ctx, procs, t.ProcessDefinitionID, t.ProcessDefinitionKey))})
	}
	return out, nil
}

// boardOwnerCache remembers the boardOwner of each process definition:
// a definition's BPMN never changes, so the XML is read once per id. It
// holds at most max entries; a full cache forgets an arbitrary one.
type boardOwnerCache struct {
	mu  sync.Mutex
	m   map[string]string
	max int
}

func newBoardOwnerCache(n int) *boardOwnerCache {
	return &boardOwnerCache{m: map[string]string{}, max: n}
}

// get returns the definition's boardOwner ("" when untagged or unreadable;
// an unreadable XML is not cached, so a later call tries again).
func (c *boardOwnerCache) get(ctx context.Context, procs engine.Processes, defID, key string) string {
	if defID == "" {
		return ""
	}
	c.mu.Lock()
	owner, ok := c.m[defID]
	c.mu.Unlock()
	if ok {
		return owner
	}
	text, err := procs.ProcessDefinitionXML(ctx, defID)
	if err != nil {
		return ""
	}
	scan, err := scanBPMN(text, key)
	if err != nil {
		return ""
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= c.max {
		for k := range c.m {
			delete(c.m, k)
			break
		}
	}
	c.m[defID] = scan.boardOwner
	return scan.boardOwner
}

func (c *boardOwnerCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// taskList renders tasks, adding each one's processDefinitionKey: the
// definition id up to its first ':', or (an id without ':', as call
// activities can give) the definition's key, read once per id.
func taskList(ctx context.Context, procs engine.Processes, tasks []engine.Task) []taskRow {
	keys := map[string]string{}
	out := make([]taskRow, 0, len(tasks))
	for _, t := range tasks {
		key, ok := keys[t.ProcessDefinitionID]
		if !ok {
			if k, _, found := strings.Cut(t.ProcessDefinitionID, ":"); found {
				key = k
			} else if def, err := procs.ProcessDefinition(ctx, t.ProcessDefinitionID); err == nil {
				key = def.Key
			}
			keys[t.ProcessDefinitionID] = key
		}
		out = append(out, taskRow{TaskDTO: t.DTO(), ProcessDefinitionKey: nullable(key)})
	}
	return out
}

// taskRow is Operaton's TaskDto with processDefinitionKey added; the
// embedded DTO keeps every Operaton field engine's to write, and the row
// is encoded in one pass.
type taskRow struct {
	engine.TaskDTO
	ProcessDefinitionKey *string `json:"processDefinitionKey"`
}

// historicTaskRow is Operaton's HistoricTaskInstanceDto plus businessKey
// and boardOwner.
type historicTaskRow struct {
	engine.HistoricTaskDTO
	BusinessKey *string `json:"businessKey"`
	BoardOwner  *string `json:"boardOwner"`
}

// Schemas of the task operations.
var (
	taskSchema = openapi.AnyObject("Operaton's task: id, name, assignee, created, due, followUp, lastUpdated, description, owner, " +
		"priority, executionId, processDefinitionId, processDefinitionKey (added), processInstanceId, taskDefinitionKey, suspended, " +
		"formKey, tenantId, taskState, parentTaskId, delegationState, operatonFormRef, and the null CMMN fields")
	historicTaskSchema  = openapi.AnyObject("Operaton's historic task plus businessKey and boardOwner (null when untagged)")
	claimSchema         = openapi.Object(map[string]openapi.Schema{"taskId": openapi.String(""), "assignee": openapi.String("")}, "taskId", "assignee")
	completeSchema      = openapi.Object(map[string]openapi.Schema{"taskId": openapi.String(""), "status": openapi.Enum("", "completed")}, "taskId", "status")
	variablesBodySchema = openapi.Object(map[string]openapi.Schema{
		"variables": openapi.AnyObject("name → plain JSON value, or {value, type, valueInfo?} with an Operaton type name"),
	})
)
