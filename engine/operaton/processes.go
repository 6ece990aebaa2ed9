package operaton

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/regelkit/regelkit/engine"
)

// The process side of the client: one method per engine.Processes call,
// each one request (Task: two, for its identity links). Queries with
// variable filters or sorting lists go as Operaton's POST aliases, so that
// typed filter values and several sort keys survive; paging then travels
// in the query string, as Operaton takes it.

func pathID(prefix, id string) string { return prefix + url.PathEscape(id) }

// paging keeps the paging parameters of a query's GET form: a POST query
// takes them from the query string.
func paging(v url.Values) url.Values {
	out := url.Values{}
	for _, k := range []string{"firstResult", "maxResults"} {
		if s := v.Get(k); s != "" {
			out.Set(k, s)
		}
	}
	return out
}

// ProcessDefinitions lists process definitions (GET /process-definition).
func (c *Client) ProcessDefinitions(ctx context.Context, q engine.ProcessDefinitionQuery) ([]engine.ProcessDefinition, error) {
	var out []engine.ProcessDefinition
	err := c.Do(ctx, http.MethodGet, "/process-definition", q.Values(), nil, &out)
	return out, err
}

// ProcessDefinition returns a process definition (GET /process-definition/{id}).
func (c *Client) ProcessDefinition(ctx context.Context, id string) (engine.ProcessDefinition, error) {
	var out engine.ProcessDefinition
	err := c.Do(ctx, http.MethodGet, pathID("/process-definition/", id), nil, nil, &out)
	return out, err
}

func processKeyPath(key, tenantID string) string {
	p := "/process-definition/key/" + url.PathEscape(key)
	if tenantID != "" {
		p += "/tenant-id/" + url.PathEscape(tenantID)
	}
	return p
}

// LatestProcessDefinition returns the latest version for a key
// (GET /process-definition/key/{key}[/tenant-id/{tenant}]).
func (c *Client) LatestProcessDefinition(ctx context.Context, key, tenantID string) (engine.ProcessDefinition, error) {
	var out engine.ProcessDefinition
	err := c.Do(ctx, http.MethodGet, processKeyPath(key, tenantID), nil, nil, &out)
	return out, err
}

// ProcessDefinitionXML returns a definition's BPMN XML (GET /process-definition/{id}/xml).
func (c *Client) ProcessDefinitionXML(ctx context.Context, id string) (string, error) {
	var out struct {
		XML string `json:"bpmn20Xml"`
	}
	err := c.Do(ctx, http.MethodGet, pathID("/process-definition/", id)+"/xml", nil, nil, &out)
	return out.XML, err
}

// StartForm returns the deployed start form (GET /process-definition/{id}/deployed-start-form).
func (c *Client) StartForm(ctx context.Context, definitionID string) (engine.Form, error) {
	return c.raw(ctx, pathID("/process-definition/", definitionID)+"/deployed-start-form")
}

// StartProcess starts an instance (POST /process-definition/{id}/start, or
// …/key/{key}[/tenant-id/{tenant}]/start).
func (c *Client) StartProcess(ctx context.Context, s engine.StartProcess) (engine.ProcessInstance, error) {
	p := pathID("/process-definition/", s.DefinitionID) + "/start"
	if s.DefinitionID == "" {
		p = processKeyPath(s.Key, s.TenantID) + "/start"
	}
	if s.Variables == nil {
		s.Variables = engine.Variables{}
	}
	var out engine.ProcessInstance
	err := c.Do(ctx, http.MethodPost, p, nil, s, &out)
	if err == nil && s.WithVariablesInReturn && out.Variables == nil {
		out.Variables = engine.Variables{}
	}
	return out, err
}

// ProcessInstances lists running instances (GET /process-instance, or
// POST /process-instance with variable filters or several sort keys).
func (c *Client) ProcessInstances(ctx context.Context, q engine.ProcessInstanceQuery) ([]engine.ProcessInstance, error) {
	var out []engine.ProcessInstance
	var err error
	if usePost(q.Variables, q.Sorting) {
		err = c.Do(ctx, http.MethodPost, "/process-instance", paging(q.Values()), q, &out)
	} else {
		err = c.Do(ctx, http.MethodGet, "/process-instance", q.Values(), nil, &out)
	}
	return out, err
}

// ProcessInstance returns a running instance (GET /process-instance/{id}).
func (c *Client) ProcessInstance(ctx context.Context, id string) (engine.ProcessInstance, error) {
	var out engine.ProcessInstance
	err := c.Do(ctx, http.MethodGet, pathID("/process-instance/", id), nil, nil, &out)
	return out, err
}

// ProcessInstanceVariables returns an instance's variables
// (GET /process-instance/{id}/variables?deserializeValues=true).
func (c *Client) ProcessInstanceVariables(ctx context.Context, id string) (engine.Variables, error) {
	return c.variables(ctx, pathID("/process-instance/", id)+"/variables")
}

func (c *Client) variables(ctx context.Context, p string) (engine.Variables, error) {
	var raw json.RawMessage
	if err := c.Do(ctx, http.MethodGet, p, url.Values{"deserializeValues": {"true"}}, nil, &raw); err != nil {
		return nil, err
	}
	return engine.ParseVariables(raw)
}

// SetProcessInstanceVariables modifies an instance's variables
// (POST /process-instance/{id}/variables).
func (c *Client) SetProcessInstanceVariables(ctx context.Context, id string, m engine.VariableModification) error {
	return c.Do(ctx, http.MethodPost, pathID("/process-instance/", id)+"/variables", nil, m, nil)
}

// DeleteProcessInstance cancels an instance (DELETE /process-instance/{id}).
func (c *Client) DeleteProcessInstance(ctx context.Context, id string, o engine.DeleteProcessInstance) error {
	v := url.Values{"skipCustomListeners": {strconv.FormatBool(o.SkipCustomListeners)}, "skipIoMappings": {strconv.FormatBool(o.SkipIoMappings)}}
	if o.Reason != "" {
		// not Operaton's: regelkit's engine records it as the deleteReason; Operaton ignores it
		v.Set("deleteReason", o.Reason)
	}
	return c.Do(ctx, http.MethodDelete, pathID("/process-instance/", id), v, nil, nil)
}

// SuspendProcessInstance suspends an instance (PUT /process-instance/{id}/suspended).
func (c *Client) SuspendProcessInstance(ctx context.Context, id string) error {
	return c.Do(ctx, http.MethodPut, pathID("/process-instance/", id)+"/suspended", nil, map[string]bool{"suspended": true}, nil)
}

// ActivateProcessInstance ends a suspension (PUT /process-instance/{id}/suspended).
func (c *Client) ActivateProcessInstance(ctx context.Context, id string) error {
	return c.Do(ctx, http.MethodPut, pathID("/process-instance/", id)+"/suspended", nil, map[string]bool{"suspended": false}, nil)
}

// Tasks lists open tasks (GET /task, or POST /task with variable filters
// or several sort keys).
func (c *Client) Tasks(ctx context.Context, q engine.TaskQuery) ([]engine.Task, error) {
	var out []engine.Task
	var err error
	if usePost(q.ProcessVariables, q.Sorting) {
		err = c.Do(ctx, http.MethodPost, "/task", paging(q.Values()), q, &out)
	} else {
		err = c.Do(ctx, http.MethodGet, "/task", q.Values(), nil, &out)
	}
	return out, err
}

// usePost reports whether a query goes as Operaton's POST alias: its GET
// form carries filter values as text only (Operaton then compares them
// as strings), splits them at commas, and sorts by one key.
func usePost(filters []engine.VariableFilter, sorting []engine.Sorting) bool {
	return len(filters) > 0 || len(sorting) > 1
}

// TaskCount counts open tasks (GET or POST /task/count).
func (c *Client) TaskCount(ctx context.Context, q engine.TaskQuery) (int, error) {
	q.FirstResult, q.MaxResults = 0, 0
	var out struct {
		Count int `json:"count"`
	}
	var err error
	if usePost(q.ProcessVariables, q.Sorting) {
		err = c.Do(ctx, http.MethodPost, "/task/count", nil, q, &out)
	} else {
		err = c.Do(ctx, http.MethodGet, "/task/count", q.Values(), nil, &out)
	}
	return out.Count, err
}

// Task returns an open task (GET /task/{id}) with its candidate users and
// groups (GET /task/{id}/identity-links).
func (c *Client) Task(ctx context.Context, id string) (engine.Task, error) {
	var out engine.Task
	if err := c.Do(ctx, http.MethodGet, pathID("/task/", id), nil, nil, &out); err != nil {
		return out, err
	}
	var links []struct {
		UserID  *string `json:"userId"`
		GroupID *string `json:"groupId"`
		Type    string  `json:"type"`
	}
	if err := c.Do(ctx, http.MethodGet, pathID("/task/", id)+"/identity-links", url.Values{"type": {"candidate"}}, nil, &links); err != nil {
		return out, err
	}
	for _, l := range links {
		switch {
		case l.Type != "candidate":
		case l.UserID != nil:
			out.CandidateUsers = append(out.CandidateUsers, *l.UserID)
		case l.GroupID != nil:
			out.CandidateGroups = append(out.CandidateGroups, *l.GroupID)
		}
	}
	return out, nil
}

// Claim claims a task for a user (POST /task/{id}/claim).
func (c *Client) Claim(ctx context.Context, taskID, userID string) error {
	return c.Do(ctx, http.MethodPost, pathID("/task/", taskID)+"/claim", nil, map[string]string{"userId": userID}, nil)
}

// Unclaim removes a task's assignee (POST /task/{id}/unclaim).
func (c *Client) Unclaim(ctx context.Context, taskID string) error {
	return c.Do(ctx, http.MethodPost, pathID("/task/", taskID)+"/unclaim", nil, struct{}{}, nil)
}

// CompleteTask completes a task (POST /task/{id}/complete {variables}).
func (c *Client) CompleteTask(ctx context.Context, taskID string, vars engine.Variables) error {
	if vars == nil {
		vars = engine.Variables{}
	}
	return c.Do(ctx, http.MethodPost, pathID("/task/", taskID)+"/complete", nil, map[string]engine.Variables{"variables": vars}, nil)
}

// TaskVariables returns the variables visible from a task (GET /task/{id}/variables).
func (c *Client) TaskVariables(ctx context.Context, taskID string) (engine.Variables, error) {
	return c.variables(ctx, pathID("/task/", taskID)+"/variables")
}

// TaskForm returns a task's deployed form (GET /task/{id}/deployed-form).
func (c *Client) TaskForm(ctx context.Context, taskID string) (engine.Form, error) {
	return c.raw(ctx, pathID("/task/", taskID)+"/deployed-form")
}

// FetchAndLock locks external tasks (POST /external-task/fetchAndLock). A
// long poll (AsyncResponseTimeout) gets that much time on top of the
// client's Timeout.
func (c *Client) FetchAndLock(ctx context.Context, f engine.FetchAndLock) ([]engine.LockedExternalTask, error) {
	var out []engine.LockedExternalTask
	err := c.doWithin(ctx, c.timeout+f.AsyncResponseTimeout, http.MethodPost, "/external-task/fetchAndLock", f, &out)
	return out, err
}

// CompleteExternalTask completes an external task (POST /external-task/{id}/complete).
func (c *Client) CompleteExternalTask(ctx context.Context, id string, ct engine.CompleteExternalTask) error {
	return c.Do(ctx, http.MethodPost, pathID("/external-task/", id)+"/complete", nil, ct, nil)
}

// ExternalTaskFailure reports a failure (POST /external-task/{id}/failure).
func (c *Client) ExternalTaskFailure(ctx context.Context, id string, f engine.ExternalTaskFailure) error {
	return c.Do(ctx, http.MethodPost, pathID("/external-task/", id)+"/failure", nil, f, nil)
}

// ExternalTaskBPMNError throws a BPMN error (POST /external-task/{id}/bpmnError).
func (c *Client) ExternalTaskBPMNError(ctx context.Context, id string, e engine.ExternalTaskBPMNError) error {
	return c.Do(ctx, http.MethodPost, pathID("/external-task/", id)+"/bpmnError", nil, e, nil)
}

// ExtendLock extends a lock (POST /external-task/{id}/extendLock).
func (c *Client) ExtendLock(ctx context.Context, id, workerID string, d time.Duration) error {
	body := map[string]any{"workerId": workerID, "newDuration": d.Milliseconds()}
	return c.Do(ctx, http.MethodPost, pathID("/external-task/", id)+"/extendLock", nil, body, nil)
}

// SetExternalTaskRetries sets an external task's retries (PUT /external-task/{id}/retries).
func (c *Client) SetExternalTaskRetries(ctx context.Context, id string, retries int) error {
	return c.Do(ctx, http.MethodPut, pathID("/external-task/", id)+"/retries", nil, map[string]int{"retries": retries}, nil)
}

// Incidents lists open incidents (GET /incident).
func (c *Client) Incidents(ctx context.Context, q engine.IncidentQuery) ([]engine.Incident, error) {
	var out []engine.Incident
	err := c.Do(ctx, http.MethodGet, "/incident", q.Values(), nil, &out)
	return out, err
}

// IncidentCount counts open incidents (GET /incident/count).
func (c *Client) IncidentCount(ctx context.Context, q engine.IncidentQuery) (int, error) {
	q.FirstResult, q.MaxResults, q.SortBy, q.SortOrder = 0, 0, "", ""
	var out struct {
		Count int `json:"count"`
	}
	err := c.Do(ctx, http.MethodGet, "/incident/count", q.Values(), nil, &out)
	return out.Count, err
}

// HistoricProcessInstances lists historic instances (GET, or POST with
// variable filters or several sort keys, /history/process-instance).
func (c *Client) HistoricProcessInstances(ctx context.Context, q engine.HistoricProcessInstanceQuery) ([]engine.HistoricProcessInstance, error) {
	var out []engine.HistoricProcessInstance
	var err error
	if usePost(q.Variables, q.Sorting) {
		err = c.Do(ctx, http.MethodPost, "/history/process-instance", paging(q.Values()), q, &out)
	} else {
		err = c.Do(ctx, http.MethodGet, "/history/process-instance", q.Values(), nil, &out)
	}
	return out, err
}

// HistoricProcessInstance returns one historic instance (GET /history/process-instance/{id}).
func (c *Client) HistoricProcessInstance(ctx context.Context, id string) (engine.HistoricProcessInstance, error) {
	var out engine.HistoricProcessInstance
	err := c.Do(ctx, http.MethodGet, pathID("/history/process-instance/", id), nil, nil, &out)
	return out, err
}

// HistoricTasks lists historic tasks (GET /history/task).
func (c *Client) HistoricTasks(ctx context.Context, q engine.HistoricTaskQuery) ([]engine.HistoricTask, error) {
	var out []engine.HistoricTask
	err := c.Do(ctx, http.MethodGet, "/history/task", q.Values(), nil, &out)
	return out, err
}

// HistoricVariables lists historic variables (GET
// /history/variable-instance?deserializeValues=true).
func (c *Client) HistoricVariables(ctx context.Context, q engine.HistoricVariableQuery) ([]engine.HistoricVariable, error) {
	v := q.Values()
	v.Set("deserializeValues", "true")
	var out []engine.HistoricVariable
	err := c.Do(ctx, http.MethodGet, "/history/variable-instance", v, nil, &out)
	return out, err
}

// HistoricActivities lists historic activities (GET /history/activity-instance).
func (c *Client) HistoricActivities(ctx context.Context, q engine.HistoricActivityQuery) ([]engine.HistoricActivity, error) {
	var out []engine.HistoricActivity
	err := c.Do(ctx, http.MethodGet, "/history/activity-instance", q.Values(), nil, &out)
	return out, err
}

// HistoricDecisions lists historic decisions (GET /history/decision-instance).
func (c *Client) HistoricDecisions(ctx context.Context, q engine.HistoricDecisionQuery) ([]engine.HistoricDecision, error) {
	var out []engine.HistoricDecision
	err := c.Do(ctx, http.MethodGet, "/history/decision-instance", q.Values(), nil, &out)
	return out, err
}

// DeploymentResources lists a deployment's resources (GET /deployment/{id}/resources).
func (c *Client) DeploymentResources(ctx context.Context, deploymentID string) ([]engine.DeploymentResource, error) {
	var out []engine.DeploymentResource
	err := c.Do(ctx, http.MethodGet, pathID("/deployment/", deploymentID)+"/resources", nil, nil, &out)
	return out, err
}

// DeploymentResourceData returns a resource's content
// (GET /deployment/{id}/resources/{rid}/data).
func (c *Client) DeploymentResourceData(ctx context.Context, deploymentID, resourceID string) ([]byte, error) {
	f, err := c.raw(ctx, pathID("/deployment/", deploymentID)+pathID("/resources/", resourceID)+"/data")
	return f.Data, err
}

// DeleteDeployment deletes a deployment (DELETE /deployment/{id}?cascade=).
func (c *Client) DeleteDeployment(ctx context.Context, id string, o engine.DeleteDeployment) error {
	return c.Do(ctx, http.MethodDelete, pathID("/deployment/", id), url.Values{"cascade": {strconv.FormatBool(o.Cascade)}}, nil, nil)
}

var _ engine.ProcessEngine = (*Client)(nil)
