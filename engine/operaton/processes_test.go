package operaton

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/regelkit/regelkit/engine"
)

// fakeOperaton answers each "METHOD path" with a canned Operaton answer
// (hand-written, as Operaton sends it) and records the requests.
type fakeOperaton struct {
	mu      sync.Mutex
	answers map[string]fakeAnswer
	got     []string // "METHOD path?query body"
}

type fakeAnswer struct {
	status int
	ct     string
	body   string
}

func (f *fakeOperaton) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	line := r.Method + " " + r.URL.Path
	if r.URL.RawQuery != "" {
		line += "?" + r.URL.RawQuery
	}
	if len(b) > 0 {
		line += " " + string(b)
	}
	f.got = append(f.got, line)
	a, ok := f.answers[r.Method+" "+r.URL.Path]
	f.mu.Unlock()
	if !ok {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(404)
		io.WriteString(w, `{"type":"RestException","message":"nothing at `+r.URL.Path+`"}`)
		return
	}
	if a.ct == "" {
		a.ct = "application/json"
	}
	w.Header().Set("Content-Type", a.ct)
	w.WriteHeader(a.status)
	io.WriteString(w, a.body)
}

func newFakeOperaton(t *testing.T, answers map[string]fakeAnswer) (*fakeOperaton, *Client) {
	f := &fakeOperaton{answers: answers}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	c, err := New(Config{BaseURL: srv.URL + "/engine-rest"})
	if err != nil {
		t.Fatal(err)
	}
	return f, c
}

func TestClientProcesses(t *testing.T) {
	f, c := newFakeOperaton(t, map[string]fakeAnswer{
		"GET /engine-rest/task": {200, "", `[{"id":"t1","name":"Review","assignee":null,"created":"2025-12-24T10:30:00.000+0100",
			"due":null,"followUp":null,"lastUpdated":null,"delegationState":null,"description":null,"executionId":"e1","owner":null,
			"parentTaskId":null,"priority":50,"processDefinitionId":"p:1:x","processInstanceId":"pi1","taskDefinitionKey":"review",
			"caseExecutionId":null,"caseInstanceId":null,"caseDefinitionId":null,"suspended":false,"formKey":null,
			"operatonFormRef":{"key":"f","binding":"latest","version":null},"tenantId":"utrecht","taskState":"Created"}]`},
		"POST /engine-rest/task":                  {200, "", `[]`},
		"GET /engine-rest/task/t1":                {200, "", `{"id":"t1","processInstanceId":"pi1","created":"2025-12-24T10:30:00.000+0000"}`},
		"GET /engine-rest/task/t1/identity-links": {200, "", `[{"userId":null,"groupId":"caseworker","type":"candidate"},{"userId":"bob","groupId":null,"type":"candidate"}]`},
		"POST /engine-rest/task/t1/claim":         {204, "", ``},
		"POST /engine-rest/task/t2/claim":         {500, "", `{"type":"TaskAlreadyClaimedException","message":"Task 't2' is already claimed by someone else."}`},
		"POST /engine-rest/task/t1/complete":      {204, "", ``},
		"GET /engine-rest/task/t1/deployed-form":  {200, "application/json", `{"components":[]}`},
		"POST /engine-rest/process-definition/key/aanvraag/tenant-id/utrecht/start": {200, "", `{"links":[{"method":"GET","href":"x","rel":"self"}],
			"id":"pi1","definitionId":"aanvraag:1:x","definitionKey":"aanvraag","businessKey":"bk","caseInstanceId":null,"ended":false,
			"suspended":false,"tenantId":"utrecht","variables":{"a":{"type":"Integer","value":1,"valueInfo":{}}}}`},
		"GET /engine-rest/process-instance/pi1/variables": {200, "", `{"municipality":{"type":"String","value":"utrecht","valueInfo":{}},
			"data":{"type":"Json","value":"{\"k\":1}","valueInfo":{}}}`},
		"POST /engine-rest/history/process-instance": {200, "", `[{"id":"pi1","businessKey":"bk","processDefinitionId":"p:1:x",
			"processDefinitionKey":"p","processDefinitionName":null,"processDefinitionVersion":1,"startTime":"2025-12-24T10:30:00.000+0000",
			"endTime":null,"removalTime":null,"durationInMillis":null,"startUserId":null,"startActivityId":"start","deleteReason":null,
			"rootProcessInstanceId":"pi1","superProcessInstanceId":null,"superCaseInstanceId":null,"caseInstanceId":null,"tenantId":null,
			"state":"ACTIVE"}]`},
		"DELETE /engine-rest/process-instance/pi1":         {204, "", ``},
		"DELETE /engine-rest/process-instance/gone":        {404, "", `{"type":"InvalidRequestException","message":"Process instance with id gone does not exist"}`},
		"PUT /engine-rest/process-instance/pi1/suspended":  {204, "", ``},
		"POST /engine-rest/external-task/fetchAndLock":     {200, "", `[]`},
		"POST /engine-rest/external-task/x1/extendLock":    {204, "", ``},
		"GET /engine-rest/history/variable-instance":       {200, "", `[]`},
		"DELETE /engine-rest/deployment/d1":                {204, "", ``},
		"GET /engine-rest/deployment/d1/resources/r1/data": {200, "application/octet-stream", "raw bytes"},
	})
	clientTaskCalls(t, c)
	clientInstanceCalls(t, c)
	clientWorkerAndDeploymentCalls(t, c)

	// every request, in the order the helpers sent them
	want := []string{
		`POST /engine-rest/task {"candidateGroups":["caseworker","manager"],"includeAssignedTasks":true,"processVariables":[{"name":"municipality","operator":"eq","value":"utrecht"}],"sorting":[{"sortBy":"created","sortOrder":"desc"}]}`,
		"GET /engine-rest/task?candidateGroups=caseworker%2Cmanager&includeAssignedTasks=true&sortBy=created&sortOrder=desc",
		`POST /engine-rest/task?maxResults=10 {"processVariables":[{"name":"n","operator":"gt","value":5}]}`,
		"GET /engine-rest/task/t1",
		"GET /engine-rest/task/t1/identity-links?type=candidate",
		`POST /engine-rest/task/t1/claim {"userId":"ann"}`,
		`POST /engine-rest/task/t2/claim {"userId":"ann"}`,
		`POST /engine-rest/task/t1/complete {"variables":{"ok":{"type":"Boolean","value":true}}}`,
		"GET /engine-rest/task/t1/deployed-form",
		`POST /engine-rest/process-definition/key/aanvraag/tenant-id/utrecht/start {"businessKey":"bk","variables":{"a":{"type":"Integer","value":1,"valueInfo":{}}},"withVariablesInReturn":true}`,
		"GET /engine-rest/process-instance/pi1/variables?deserializeValues=true",
		`POST /engine-rest/history/process-instance {"sorting":[{"sortBy":"startTime","sortOrder":"desc"}],"variables":[{"name":"applicantId","operator":"eq","value":"123"}]}`,
		"DELETE /engine-rest/process-instance/pi1?skipCustomListeners=false&skipIoMappings=false",
		"DELETE /engine-rest/process-instance/gone?skipCustomListeners=false&skipIoMappings=false",
		`PUT /engine-rest/process-instance/pi1/suspended {"suspended":true}`,
		`POST /engine-rest/external-task/fetchAndLock {"workerId":"w","maxTasks":1,"usePriority":false,"asyncResponseTimeout":2000,"topics":[{"topicName":"docs","lockDuration":60000,"variables":null,"localVariables":false,"businessKey":null,"processDefinitionKey":null,"tenantIdIn":null,"withoutTenantId":false,"deserializeValues":false}]}`,
		`POST /engine-rest/external-task/x1/extendLock {"newDuration":90000,"workerId":"w"}`,
		"GET /engine-rest/history/variable-instance?deserializeValues=true&processInstanceId=pi1",
		"DELETE /engine-rest/deployment/d1?cascade=true",
		"GET /engine-rest/deployment/d1/resources/r1/data",
	}
	if !reflect.DeepEqual(f.got, want) {
		t.Errorf("requests:\n%s\nwant\n%s", strings.Join(f.got, "\n"), strings.Join(want, "\n"))
	}
}

// clientTaskCalls queries, claims and completes tasks and reads a task form.
func clientTaskCalls(t *testing.T, c *Client) {
	t.Helper()
	ctx := context.Background()
	_, err := c.Tasks(ctx, engine.TaskQuery{ProcessVariables: []engine.VariableFilter{{Name: "municipality", Operator: "eq", Value: "utrecht"}},
		CandidateGroups: []string{"caseworker", "manager"}, IncludeAssignedTasks: true, SortBy: "created", SortOrder: "desc"})
	if err != nil {
		t.Fatal(err)
	}
	// without variable filters: the GET form
	tasks, err := c.Tasks(ctx, engine.TaskQuery{CandidateGroups: []string{"caseworker", "manager"}, IncludeAssignedTasks: true, SortBy: "created", SortOrder: "desc"})
	if err != nil {
		t.Fatal(err)
	}
	created := time.Date(2025, 12, 24, 9, 30, 0, 0, time.UTC)
	if len(tasks) != 1 || tasks[0].ID != "t1" || !tasks[0].Created.Equal(created) || tasks[0].FormRef.Binding != "latest" || tasks[0].TenantID != "utrecht" {
		t.Errorf("tasks: %+v", tasks)
	}
	// paging of a POST query travels in the query string
	if _, err := c.Tasks(ctx, engine.TaskQuery{ProcessVariables: []engine.VariableFilter{{Name: "n", Operator: "gt", Value: json.Number("5")}}, MaxResults: 10}); err != nil {
		t.Fatal(err)
	}
	task, err := c.Task(ctx, "t1")
	if err != nil || !reflect.DeepEqual(task.CandidateGroups, []string{"caseworker"}) || !reflect.DeepEqual(task.CandidateUsers, []string{"bob"}) {
		t.Errorf("task: %+v %v", task, err)
	}
	if err := c.Claim(ctx, "t1", "ann"); err != nil {
		t.Error(err)
	}
	var ee *engine.Error
	if err := c.Claim(ctx, "t2", "ann"); !errors.As(err, &ee) || ee.Status != 500 || ee.Type != "TaskAlreadyClaimedException" {
		t.Errorf("claim of a claimed task: %v", err)
	}
	if err := c.CompleteTask(ctx, "t1", engine.Variables{"ok": engine.Boolean(true)}); err != nil {
		t.Error(err)
	}
	form, err := c.TaskForm(ctx, "t1")
	if err != nil || form.ContentType != "application/json" || string(form.Data) != `{"components":[]}` {
		t.Errorf("form: %+v %v", form, err)
	}
}

// clientInstanceCalls starts an instance, reads its variables and the
// history, deletes and suspends instances.
func clientInstanceCalls(t *testing.T, c *Client) {
	t.Helper()
	ctx := context.Background()
	pi, err := c.StartProcess(ctx, engine.StartProcess{Key: "aanvraag", TenantID: "utrecht", BusinessKey: "bk",
		Variables: engine.Variables{"a": engine.Integer(1)}, WithVariablesInReturn: true})
	if err != nil || pi.ID != "pi1" || pi.TenantID != "utrecht" || !pi.Variables["a"].Equal(engine.Integer(1)) {
		t.Errorf("start: %+v %v", pi, err)
	}
	vars, err := c.ProcessInstanceVariables(ctx, "pi1")
	if err != nil || !vars["municipality"].Equal(engine.String("utrecht")) || vars["data"].Type != engine.TypeJSON {
		t.Errorf("variables: %v %v", vars, err)
	}
	his, err := c.HistoricProcessInstances(ctx, engine.HistoricProcessInstanceQuery{
		Variables: []engine.VariableFilter{{Name: "applicantId", Operator: "eq", Value: "123"}},
		Sorting:   []engine.Sorting{{SortBy: "startTime", SortOrder: "desc"}}})
	if err != nil || len(his) != 1 || his[0].State != engine.StateActive || his[0].ProcessDefinitionVersion != 1 {
		t.Errorf("history: %+v %v", his, err)
	}
	if err := c.DeleteProcessInstance(ctx, "pi1", engine.DeleteProcessInstance{}); err != nil {
		t.Error(err)
	}
	if err := c.DeleteProcessInstance(ctx, "gone", engine.DeleteProcessInstance{}); !errors.Is(err, engine.ErrNotFound) {
		t.Errorf("delete of a gone instance: %v, want ErrNotFound", err)
	}
	if err := c.SuspendProcessInstance(ctx, "pi1"); err != nil {
		t.Error(err)
	}
}

// clientWorkerAndDeploymentCalls fetches and locks external tasks, extends
// a lock, reads historic variables, deletes a deployment and reads a
// resource's data.
func clientWorkerAndDeploymentCalls(t *testing.T, c *Client) {
	t.Helper()
	ctx := context.Background()
	if _, err := c.FetchAndLock(ctx, engine.FetchAndLock{WorkerID: "w", MaxTasks: 1, AsyncResponseTimeout: 2 * time.Second,
		Topics: []engine.FetchTopic{{TopicName: "docs", LockDuration: time.Minute}}}); err != nil {
		t.Error(err)
	}
	if err := c.ExtendLock(ctx, "x1", "w", 90*time.Second); err != nil {
		t.Error(err)
	}
	if _, err := c.HistoricVariables(ctx, engine.HistoricVariableQuery{ProcessInstanceID: "pi1"}); err != nil {
		t.Error(err)
	}
	if err := c.DeleteDeployment(ctx, "d1", engine.DeleteDeployment{Cascade: true}); err != nil {
		t.Error(err)
	}
	if data, err := c.DeploymentResourceData(ctx, "d1", "r1"); err != nil || string(data) != "raw bytes" {
		t.Errorf("resource data: %q %v", data, err)
	}

}
