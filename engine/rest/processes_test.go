package rest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local"
)

// procStub is a process side with fixed answers: it lets these tests
// check the router's decoding, encoding and status codes with hand-written
// JSON, independent of the runtime's behaviour (which the enginetest suite
// checks over HTTP in engine/operaton). It records what the router passed.
type procStub struct {
	engine.Engine // the decision side: the real embedded engine
	mu            sync.Mutex
	calls         []string
	taskQuery     engine.TaskQuery
	histQuery     engine.HistoricProcessInstanceQuery
	varQuery      engine.HistoricVariableQuery
	started       engine.StartProcess
	completed     engine.Variables
	modification  engine.VariableModification
	fetch         engine.FetchAndLock
	deleted       engine.DeleteProcessInstance
}

var (
	t0       = time.Date(2025, 12, 24, 10, 30, 0, 0, time.UTC)
	stubDef  = engine.ProcessDefinition{ID: "aanvraag:1:d1", Key: "aanvraag", Name: "Aanvraag", Version: 1, Resource: "aanvraag.bpmn", DeploymentID: "d1"}
	stubTask = engine.Task{ID: "t1", Name: "Beoordelen", Created: t0, LastUpdated: t0, ExecutionID: "pi1", ProcessDefinitionID: stubDef.ID,
		ProcessInstanceID: "pi1", TaskDefinitionKey: "review", Priority: 50, FormRef: &engine.FormRef{Key: "reviewForm", Binding: "deployment"},
		TaskState: "Created", CandidateGroups: []string{"caseworker"}, CandidateUsers: []string{"bob"}}
)

func (s *procStub) record(call string) {
	s.mu.Lock()
	s.calls = append(s.calls, call)
	s.mu.Unlock()
}

func notFound(what, id string) error {
	return engine.NotFound("%s with id %s does not exist", what, id)
}

func (s *procStub) ProcessDefinitions(_ context.Context, q engine.ProcessDefinitionQuery) ([]engine.ProcessDefinition, error) {
	if q.Key != "" && q.Key != stubDef.Key {
		return nil, nil
	}
	return []engine.ProcessDefinition{stubDef}, nil
}
func (s *procStub) ProcessDefinition(_ context.Context, id string) (engine.ProcessDefinition, error) {
	if id != stubDef.ID {
		return engine.ProcessDefinition{}, notFound("process definition", id)
	}
	return stubDef, nil
}
func (s *procStub) LatestProcessDefinition(_ context.Context, key, tenant string) (engine.ProcessDefinition, error) {
	if key != stubDef.Key || tenant != "" {
		return engine.ProcessDefinition{}, engine.NotFound("No matching process definition with key: %s and no tenant-id", key)
	}
	return stubDef, nil
}
func (s *procStub) ProcessDefinitionXML(_ context.Context, id string) (string, error) {
	return "<definitions/>", nil
}
func (s *procStub) StartForm(_ context.Context, id string) (engine.Form, error) {
	return engine.Form{ContentType: "application/json", Data: []byte(`{"components":[]}`)}, nil
}
func (s *procStub) StartProcess(_ context.Context, sp engine.StartProcess) (engine.ProcessInstance, error) {
	s.started = sp
	return engine.ProcessInstance{ID: "pi1", DefinitionID: sp.DefinitionID, DefinitionKey: "aanvraag", BusinessKey: sp.BusinessKey,
		Variables: sp.Variables}, nil
}
func (s *procStub) ProcessInstances(_ context.Context, q engine.ProcessInstanceQuery) ([]engine.ProcessInstance, error) {
	return []engine.ProcessInstance{{ID: "pi1", DefinitionID: stubDef.ID, DefinitionKey: "aanvraag"}, {ID: "pi2", DefinitionID: stubDef.ID, DefinitionKey: "aanvraag"}}, nil
}
func (s *procStub) ProcessInstance(_ context.Context, id string) (engine.ProcessInstance, error) {
	if id != "pi1" {
		return engine.ProcessInstance{}, notFound("Process instance", id)
	}
	return engine.ProcessInstance{ID: "pi1", DefinitionID: stubDef.ID, DefinitionKey: "aanvraag", BusinessKey: "bk"}, nil
}
func (s *procStub) ProcessInstanceVariables(_ context.Context, id string) (engine.Variables, error) {
	if id != "pi1" {
		return nil, notFound("process instance", id)
	}
	return engine.Variables{"municipality": engine.String("utrecht"), "amount": engine.Long(1200)}, nil
}
func (s *procStub) SetProcessInstanceVariables(_ context.Context, id string, m engine.VariableModification) error {
	s.modification = m
	return nil
}
func (s *procStub) DeleteProcessInstance(_ context.Context, id string, o engine.DeleteProcessInstance) error {
	s.deleted = o
	if id != "pi1" {
		return notFound("process instance", id)
	}
	return nil
}
func (s *procStub) SuspendProcessInstance(_ context.Context, id string) error {
	s.record("suspend " + id)
	return nil
}
func (s *procStub) ActivateProcessInstance(_ context.Context, id string) error {
	s.record("activate " + id)
	return nil
}
func (s *procStub) Tasks(_ context.Context, q engine.TaskQuery) ([]engine.Task, error) {
	s.taskQuery = q
	return []engine.Task{stubTask}, nil
}
func (s *procStub) TaskCount(_ context.Context, q engine.TaskQuery) (int, error) {
	s.taskQuery = q
	return 7, nil
}
func (s *procStub) Task(_ context.Context, id string) (engine.Task, error) {
	if id != "t1" {
		return engine.Task{}, engine.NotFound("No matching task with id %s", id)
	}
	return stubTask, nil
}
func (s *procStub) Claim(_ context.Context, id, user string) error {
	if user != "ann" {
		return &engine.Error{Status: 500, Type: "TaskAlreadyClaimedException", Message: "Task '" + id + "' is already claimed by someone else."}
	}
	s.record("claim " + id + " " + user)
	return nil
}
func (s *procStub) Unclaim(_ context.Context, id string) error {
	s.record("unclaim " + id)
	return nil
}
func (s *procStub) CompleteTask(_ context.Context, id string, vars engine.Variables) error {
	s.completed = vars
	return nil
}
func (s *procStub) TaskVariables(_ context.Context, id string) (engine.Variables, error) {
	return engine.Variables{"ok": engine.Boolean(true)}, nil
}
func (s *procStub) TaskForm(_ context.Context, id string) (engine.Form, error) {
	return engine.Form{}, engine.NotFound("No deployed form for task %s", id)
}
func (s *procStub) FetchAndLock(ctx context.Context, f engine.FetchAndLock) ([]engine.LockedExternalTask, error) {
	s.fetch = f
	return nil, nil
}
func (s *procStub) CompleteExternalTask(_ context.Context, id string, c engine.CompleteExternalTask) error {
	if c.WorkerID != "w1" {
		return &engine.Error{Status: 400, Type: "BadUserRequestException", Message: "External Task " + id + " cannot be completed by worker '" + c.WorkerID + "'. It is locked by worker 'w1'."}
	}
	return nil
}
func (s *procStub) ExternalTaskFailure(context.Context, string, engine.ExternalTaskFailure) error {
	return nil
}
func (s *procStub) ExternalTaskBPMNError(context.Context, string, engine.ExternalTaskBPMNError) error {
	return nil
}
func (s *procStub) ExtendLock(_ context.Context, id, worker string, d time.Duration) error {
	s.record("extend " + id + " " + worker + " " + d.String())
	return nil
}
func (s *procStub) SetExternalTaskRetries(_ context.Context, id string, retries int) error {
	s.record(fmt.Sprintf("retries %s %d", id, retries))
	return nil
}

// stubLimit is a bound of the engine or its store, such as pgstore's
// ScanLimitError: matched by its LimitExceeded method.
type stubLimit string

func (l stubLimit) Error() string {
	return "pgstore: the incidents query reads more than 10 rows; narrow it"
}
func (l stubLimit) LimitExceeded() string { return string(l) }

func (s *procStub) Incidents(_ context.Context, q engine.IncidentQuery) ([]engine.Incident, error) {
	switch q.ActivityID {
	case "wide":
		return nil, fmt.Errorf("query: %w", stubLimit("MaxScan"))
	case "slow":
		return nil, stubLimit("Timeout")
	}
	return []engine.Incident{{ID: "inc1", ProcessDefinitionID: stubDef.ID, ProcessInstanceID: "pi1", ExecutionID: "ex1",
		Timestamp: t0, Type: engine.IncidentFailedExternalTask, ActivityID: "mail", FailedActivityID: "mail",
		CauseIncidentID: "inc1", RootCauseIncidentID: "inc1", Configuration: "x1", Message: "smtp down"}}, nil
}
func (s *procStub) IncidentCount(_ context.Context, q engine.IncidentQuery) (int, error) {
	s.record(fmt.Sprintf("incident count %+v", q))
	return 1, nil
}
func (s *procStub) HistoricProcessInstances(_ context.Context, q engine.HistoricProcessInstanceQuery) ([]engine.HistoricProcessInstance, error) {
	s.histQuery = q
	return []engine.HistoricProcessInstance{{ID: "pi1", BusinessKey: "bk", ProcessDefinitionID: stubDef.ID, ProcessDefinitionKey: "aanvraag",
		ProcessDefinitionVersion: 1, StartTime: t0, StartActivityID: "start", RootProcessInstanceID: "pi1", State: engine.StateActive}}, nil
}
func (s *procStub) HistoricProcessInstance(_ context.Context, id string) (engine.HistoricProcessInstance, error) {
	return engine.HistoricProcessInstance{}, engine.NotFound("Historic process instance with id %s does not exist", id)
}
func (s *procStub) HistoricTasks(context.Context, engine.HistoricTaskQuery) ([]engine.HistoricTask, error) {
	return nil, nil
}
func (s *procStub) HistoricVariables(_ context.Context, q engine.HistoricVariableQuery) ([]engine.HistoricVariable, error) {
	s.varQuery = q
	return []engine.HistoricVariable{{ID: "v1", Name: "municipality", Value: engine.String("utrecht"), ProcessInstanceID: "pi1", State: "CREATED", CreateTime: t0}}, nil
}
func (s *procStub) HistoricActivities(context.Context, engine.HistoricActivityQuery) ([]engine.HistoricActivity, error) {
	return nil, nil
}
func (s *procStub) HistoricDecisions(_ context.Context, q engine.HistoricDecisionQuery) ([]engine.HistoricDecision, error) {
	d := engine.HistoricDecision{ID: "hd1", DecisionDefinitionKey: "dec", EvaluationTime: t0}
	if q.IncludeInputs {
		d.Inputs = []engine.HistoricDecisionInput{}
	}
	return []engine.HistoricDecision{d}, nil
}
func (s *procStub) DeploymentResources(_ context.Context, id string) ([]engine.DeploymentResource, error) {
	if id != "d1" {
		return nil, engine.NotFound("Deployment with id '%s' does not exist", id)
	}
	return []engine.DeploymentResource{{ID: "r1", Name: "forms/review.form", DeploymentID: "d1"}}, nil
}
func (s *procStub) DeploymentResourceData(_ context.Context, id, rid string) ([]byte, error) {
	return []byte(`{"components":[]}`), nil
}
func (s *procStub) DeleteDeployment(_ context.Context, id string, o engine.DeleteDeployment) error {
	if !o.Cascade {
		return &engine.Error{Status: 500, Type: "ProcessEngineException", Message: "Deletion of process definition without cascading failed."}
	}
	return nil
}

func newProcServer(t *testing.T) (*procStub, *httptest.Server) {
	st := &procStub{Engine: local.New(local.Options{})}
	srv := httptest.NewServer(NewHandler(st, Options{MaxJSONBytes: 4096, MaxAsyncResponseTimeout: time.Minute}))
	t.Cleanup(srv.Close)
	return st, srv
}

// call sends a request and returns the status, content type and body.
func call(t *testing.T, srv *httptest.Server, method, path, contentType, body string) (int, string, string) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, srv.URL+path, rd)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(b)
}

// same compares JSON by value.
func same(t *testing.T, what, got, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatalf("%s: %q is not JSON", what, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("%s: the expected %q is not JSON", what, want)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s:\n got %s\nwant %s", what, got, want)
	}
}

const jsonCT = "application/json"

const stubTaskJSON = `{"id":"t1","name":"Beoordelen","assignee":null,"created":"2025-12-24T10:30:00.000+0000","due":null,"followUp":null,
	"lastUpdated":"2025-12-24T10:30:00.000+0000","delegationState":null,"description":null,"executionId":"pi1","owner":null,
	"parentTaskId":null,"priority":50,"processDefinitionId":"aanvraag:1:d1","processInstanceId":"pi1","taskDefinitionKey":"review",
	"caseExecutionId":null,"caseInstanceId":null,"caseDefinitionId":null,"suspended":false,"formKey":null,
	"operatonFormRef":{"key":"reviewForm","binding":"deployment","version":null},"tenantId":null,"taskState":"Created"}`

func TestProcessRoutes(t *testing.T) {
	st, srv := newProcServer(t)
	for _, tc := range []struct {
		method, path, ct, body string
		status                 int
		want                   string // JSON; "" for no body
	}{
		{"GET", "/engine-rest/process-definition?key=aanvraag&latestVersion=true", "", "", 200,
			`[{"id":"aanvraag:1:d1","key":"aanvraag","category":null,"description":null,"name":"Aanvraag","version":1,
			"resource":"aanvraag.bpmn","deploymentId":"d1","diagram":null,"suspended":false,"tenantId":null,"versionTag":null,
			"historyTimeToLive":null,"startableInTasklist":false}]`},
		{"GET", "/engine-rest/process-definition?key=other", "", "", 200, `[]`},
		{"GET", "/engine-rest/process-definition/count", "", "", 200, `{"count":1}`},
		{"GET", "/engine-rest/process-definition/key/aanvraag/xml", "", "", 200, `{"id":"aanvraag:1:d1","bpmn20Xml":"<definitions/>"}`},
		{"GET", "/engine-rest/process-definition/key/nope", "", "", 404,
			`{"type":"RestException","message":"No matching process definition with key: nope and no tenant-id"}`},
		{"GET", "/engine-rest/process-definition/aanvraag:1:d1/startForm", "", "", 200,
			`{"key":null,"contextPath":null,"operatonFormRef":null}`},
		{"GET", "/engine-rest/process-definition?sortBy=colour&sortOrder=asc", "", "", 400,
			`{"type":"InvalidRequestException","message":"Cannot set query parameter 'sortBy' to value 'colour'"}`},

		{"GET", "/engine-rest/process-instance/pi1", "", "", 200,
			`{"links":[],"id":"pi1","definitionId":"aanvraag:1:d1","definitionKey":"aanvraag","businessKey":"bk","caseInstanceId":null,
			"ended":false,"suspended":false,"tenantId":null}`},
		{"GET", "/engine-rest/process-instance/nope", "", "", 404, `{"type":"RestException","message":"Process instance with id nope does not exist"}`},
		{"GET", "/engine-rest/process-instance/count", "", "", 200, `{"count":2}`},
		{"POST", "/engine-rest/process-instance/count", jsonCT, `{"variables":[{"name":"a","operator":"eq","value":1}]}`, 200, `{"count":2}`},
		{"GET", "/engine-rest/process-instance/pi1/variables?deserializeValues=true", "", "", 200,
			`{"amount":{"type":"Long","value":1200,"valueInfo":{}},"municipality":{"type":"String","value":"utrecht","valueInfo":{}}}`},
		{"GET", "/engine-rest/process-instance/pi1/variables/municipality", "", "", 200, `{"type":"String","value":"utrecht","valueInfo":{}}`},
		{"GET", "/engine-rest/process-instance/pi1/variables/nope", "", "", 404,
			`{"type":"RestException","message":"process instance variable with name nope does not exist"}`},
		{"POST", "/engine-rest/process-instance/pi1/variables", "", `{"modifications":{"x":{"value":"1","type":"String"}},"deletions":["y"]}`, 204, ""},
		{"PUT", "/engine-rest/process-instance/pi1/suspended", jsonCT, `{"suspended":true}`, 204, ""},
		{"PUT", "/engine-rest/process-instance/pi1/suspended", jsonCT, `{}`, 400,
			`{"type":"InvalidRequestException","message":"The body must carry {\"suspended\": true|false}"}`},
		{"DELETE", "/engine-rest/process-instance/nope", "", "", 404, `{"type":"RestException","message":"process instance with id nope does not exist"}`},
		{"DELETE", "/engine-rest/process-instance/pi1?skipCustomListeners=true&skipIoMappings=false", "", "", 204, ""},

		{"GET", "/engine-rest/task?processVariables=municipality_eq_utrecht&candidateGroups=caseworker&includeAssignedTasks=true&sortBy=created&sortOrder=desc",
			"", "", 200, "[" + stubTaskJSON + "]"},
		{"GET", "/engine-rest/task?processVariables=municipality_between_a", "", "", 400,
			`{"type":"InvalidRequestException","message":"Invalid variable comparator specified: between"}`},
		{"POST", "/engine-rest/task/count", jsonCT, `{"sorting":[{"sortBy":"size","sortOrder":"asc"}]}`, 400,
			`{"type":"InvalidRequestException","message":"Cannot set query parameter 'sortBy' to value 'size'"}`},
		{"GET", "/engine-rest/task/count", "", "", 200, `{"count":7}`},
		{"GET", "/engine-rest/task/t1", "", "", 200, stubTaskJSON},
		{"GET", "/engine-rest/task/nope", "", "", 404, `{"type":"RestException","message":"No matching task with id nope"}`},
		{"POST", "/engine-rest/task/t1/claim", jsonCT, `{"userId":"ann"}`, 204, ""},
		{"POST", "/engine-rest/task/t1/claim", jsonCT, `{"userId":"bob"}`, 500,
			`{"type":"TaskAlreadyClaimedException","message":"Task 't1' is already claimed by someone else."}`},
		{"POST", "/engine-rest/task/t1/claim", jsonCT, `{}`, 400,
			`{"type":"InvalidRequestException","message":"Cannot claim task t1: the body must carry a userId"}`},
		{"POST", "/engine-rest/task/t1/unclaim", "", "", 204, ""},
		{"POST", "/engine-rest/task/t1/complete", jsonCT, `{"variables":{"n":{"value":"x","type":"Integer"}}}`, 400,
			`{"type":"InvalidRequestException","message":"Cannot complete task t1: variable \"n\": cannot convert value \"x\" to type Integer: not a number"}`},
		{"GET", "/engine-rest/task/t1/variables", "", "", 200, `{"ok":{"type":"Boolean","value":true,"valueInfo":{}}}`},
		{"GET", "/engine-rest/task/t1/form", "", "", 200,
			`{"key":null,"contextPath":null,"operatonFormRef":{"key":"reviewForm","binding":"deployment","version":null}}`},
		{"GET", "/engine-rest/task/t1/deployed-form", "", "", 404, `{"type":"RestException","message":"No deployed form for task t1"}`},
		{"GET", "/engine-rest/task/t1/identity-links", "", "", 200,
			`[{"userId":"bob","groupId":null,"type":"candidate"},{"userId":null,"groupId":"caseworker","type":"candidate"}]`},
		{"POST", "/engine-rest/task/t1/complete", "text/plain", `{}`, 415,
			`{"type":"NotSupportedException","message":"HTTP 415 Unsupported Media Type: this resource consumes application/json"}`},

		{"POST", "/engine-rest/external-task/fetchAndLock", jsonCT, `{"workerId":"w1","maxTasks":1,"topics":[{"topicName":"docs","lockDuration":1000}]}`, 200, `[]`},
		{"POST", "/engine-rest/external-task/fetchAndLock", jsonCT, `{"workerId":"w1","maxTasks":1,"asyncResponseTimeout":60001,"topics":[]}`, 400,
			`{"type":"InvalidRequestException","message":"The asynchronous response timeout cannot be set to a value greater than 60000 milliseconds"}`},
		{"POST", "/engine-rest/external-task/x1/complete", jsonCT, `{"workerId":"w2"}`, 400,
			`{"type":"BadUserRequestException","message":"External Task x1 cannot be completed by worker 'w2'. It is locked by worker 'w1'."}`},
		{"POST", "/engine-rest/external-task/x1/failure", jsonCT, `{"workerId":"w1","errorMessage":"down","retries":0,"retryTimeout":0}`, 204, ""},
		{"POST", "/engine-rest/external-task/x1/bpmnError", jsonCT, `{"workerId":"w1","errorCode":"E1"}`, 204, ""},
		{"POST", "/engine-rest/external-task/x1/extendLock", jsonCT, `{"workerId":"w1","newDuration":5000}`, 204, ""},
		{"PUT", "/engine-rest/external-task/x1/retries", jsonCT, `{"retries":3}`, 204, ""},
		{"PUT", "/engine-rest/external-task/x1/retries", jsonCT, `{}`, 400,
			`{"type":"InvalidRequestException","message":"The number of retries cannot be null"}`},
		{"GET", "/engine-rest/incident?processInstanceId=pi1&sortBy=incidentTimestamp&sortOrder=desc", "", "", 200,
			`[{"id":"inc1","processDefinitionId":"aanvraag:1:d1","processInstanceId":"pi1","executionId":"ex1",
			"incidentTimestamp":"2025-12-24T10:30:00.000+0000","incidentType":"failedExternalTask","activityId":"mail",
			"failedActivityId":"mail","causeIncidentId":"inc1","rootCauseIncidentId":"inc1","configuration":"x1",
			"tenantId":null,"incidentMessage":"smtp down","jobDefinitionId":null,"annotation":null}]`},
		{"GET", "/engine-rest/incident/count?incidentType=failedExternalTask&maxResults=5", "", "", 200, `{"count":1}`},
		{"GET", "/engine-rest/incident?sortBy=colour&sortOrder=asc", "", "", 400,
			`{"type":"InvalidRequestException","message":"Cannot set query parameter 'sortBy' to value 'colour'"}`},
		{"GET", "/engine-rest/incident?activityId=wide", "", "", 400,
			`{"type":"InvalidRequestException","message":"query: pgstore: the incidents query reads more than 10 rows; narrow it"}`},
		{"GET", "/engine-rest/incident?activityId=slow", "", "", 503,
			`{"type":"RestException","message":"pgstore: the incidents query reads more than 10 rows; narrow it"}`},
		{"POST", "/engine-rest/external-task/x1/extendLock", jsonCT, `{"workerId":"w1","newDuration":0}`, 400,
			`{"type":"InvalidRequestException","message":"Cannot extend the lock: newDuration must be positive, got 0"}`},

		{"POST", "/engine-rest/history/process-instance", jsonCT,
			`{"variables":[{"name":"applicantId","operator":"eq","value":"123"}],"sorting":[{"sortBy":"startTime","sortOrder":"desc"}]}`, 200,
			`[{"id":"pi1","businessKey":"bk","processDefinitionId":"aanvraag:1:d1","processDefinitionKey":"aanvraag","processDefinitionName":null,
			"processDefinitionVersion":1,"startTime":"2025-12-24T10:30:00.000+0000","endTime":null,"removalTime":null,"durationInMillis":null,
			"startUserId":null,"startActivityId":"start","deleteReason":null,"rootProcessInstanceId":"pi1","superProcessInstanceId":null,
			"superCaseInstanceId":null,"caseInstanceId":null,"tenantId":null,"state":"ACTIVE","restartedProcessInstanceId":null}]`},
		{"GET", "/engine-rest/history/process-instance/count?finished=true", "", "", 200, `{"count":1}`},
		{"GET", "/engine-rest/history/process-instance/nope", "", "", 404, `{"type":"RestException","message":"Historic process instance with id nope does not exist"}`},
		{"GET", "/engine-rest/history/task?finished=true&processVariables=municipality_eq_utrecht&sortBy=endTime&sortOrder=desc&maxResults=200", "", "", 200, `[]`},
		{"GET", "/engine-rest/history/variable-instance?processInstanceId=pi1&deserializeValues=true", "", "", 200,
			`[{"id":"v1","name":"municipality","type":"String","value":"utrecht","valueInfo":{},"processDefinitionKey":null,
			"processDefinitionId":null,"processInstanceId":"pi1","executionId":null,"activityInstanceId":null,"caseDefinitionKey":null,
			"caseDefinitionId":null,"caseInstanceId":null,"caseExecutionId":null,"taskId":null,"tenantId":null,"errorMessage":null,
			"state":"CREATED","createTime":"2025-12-24T10:30:00.000+0000","removalTime":null,"rootProcessInstanceId":null}]`},
		{"POST", "/engine-rest/history/variable-instance/count", jsonCT, `{"processInstanceIdIn":["pi1"]}`, 200, `{"count":1}`},
		{"GET", "/engine-rest/history/activity-instance?processInstanceId=pi1", "", "", 200, `[]`},
		{"GET", "/engine-rest/history/variable-instance?deserializeValues=maybe", "", "", 400,
			`{"type":"InvalidRequestException","message":"Cannot set query parameter 'deserializeValues' to value 'maybe'"}`},
		{"GET", "/engine-rest/history/activity-instance/count", "", "", 200, `{"count":0}`},
		{"GET", "/engine-rest/history/decision-instance/count", "", "", 200, `{"count":1}`},
		{"GET", "/engine-rest/history/task/count", "", "", 200, `{"count":0}`},
		{"GET", "/engine-rest/history/decision-instance?includeInputs=true", "", "", 200,
			`[{"id":"hd1","decisionDefinitionId":null,"decisionDefinitionKey":"dec","decisionDefinitionName":null,
			"evaluationTime":"2025-12-24T10:30:00.000+0000","removalTime":null,"processDefinitionId":null,"processDefinitionKey":null,
			"processInstanceId":null,"caseDefinitionId":null,"caseDefinitionKey":null,"caseInstanceId":null,"activityId":null,
			"activityInstanceId":null,"tenantId":null,"userId":null,"inputs":[],"outputs":null,"collectResultValue":null,
			"rootDecisionInstanceId":null,"rootProcessInstanceId":null,"decisionRequirementsDefinitionId":null,
			"decisionRequirementsDefinitionKey":null}]`},

		{"GET", "/engine-rest/deployment/d1/resources", "", "", 200, `[{"id":"r1","name":"forms/review.form","deploymentId":"d1"}]`},
		{"GET", "/engine-rest/deployment/d1/resources/r1", "", "", 200, `{"id":"r1","name":"forms/review.form","deploymentId":"d1"}`},
		{"GET", "/engine-rest/deployment/d1/resources/r9", "", "", 404,
			`{"type":"RestException","message":"Deployment resource with resource id 'r9' for deployment id 'd1' does not exist."}`},
		{"DELETE", "/engine-rest/deployment/d1", "", "", 500,
			`{"type":"ProcessEngineException","message":"Deletion of process definition without cascading failed."}`},
		{"DELETE", "/engine-rest/deployment/d1?cascade=true", "", "", 204, ""},
		{"DELETE", "/engine-rest/deployment/d1?cascade=yes", "", "", 400,
			`{"type":"InvalidRequestException","message":"Cannot set query parameter 'cascade' to value 'yes'"}`},
	} {
		status, ct, body := call(t, srv, tc.method, tc.path, tc.ct, tc.body)
		name := tc.method + " " + tc.path
		if status != tc.status {
			t.Errorf("%s: status %d, want %d (%s)", name, status, tc.status, body)
			continue
		}
		if tc.want == "" {
			if body != "" {
				t.Errorf("%s: body %q, want none", name, body)
			}
			continue
		}
		if ct != "application/json" {
			t.Errorf("%s: Content-Type %q", name, ct)
		}
		same(t, name, body, tc.want)
	}

	// what the router passed on
	if st.modification.Deletions[0] != "y" || !st.modification.Modifications["x"].Equal(engine.String("1")) {
		t.Errorf("modification: %+v", st.modification)
	}
	if !st.deleted.SkipCustomListeners || st.deleted.SkipIoMappings {
		t.Errorf("delete options: %+v", st.deleted)
	}
	if !st.histQuery.Finished { // the last history call was the count with finished=true
		t.Errorf("history query: %+v", st.histQuery)
	}
	if !reflect.DeepEqual(st.varQuery.ProcessInstanceIDIn, []string{"pi1"}) {
		t.Errorf("variable query: %+v", st.varQuery)
	}
	if st.fetch.WorkerID != "w1" || len(st.fetch.Topics) != 1 || st.fetch.Topics[0].LockDuration != time.Second {
		t.Errorf("fetch: %+v", st.fetch)
	}
	wantCalls := []string{"suspend pi1", "claim t1 ann", "unclaim t1", "extend x1 w1 5s", "retries x1 3",
		"incident count {IncidentID: IncidentType:failedExternalTask ProcessInstanceID: ProcessDefinitionID: ActivityID: TenantIDIn:[] SortBy: SortOrder: FirstResult:0 MaxResults:0}"}
	if !reflect.DeepEqual(st.calls, wantCalls) {
		t.Errorf("calls: %v, want %v", st.calls, wantCalls)
	}
}

func TestProcessRoutesPassQueries(t *testing.T) {
	st, srv := newProcServer(t)
	call(t, srv, "GET", "/engine-rest/task?processVariables=municipality_eq_utrecht&candidateGroups=caseworker,manager&includeAssignedTasks=true&sortBy=created&sortOrder=desc&maxResults=10", "", "")
	want := engine.TaskQuery{ProcessVariables: []engine.VariableFilter{{Name: "municipality", Operator: "eq", Value: "utrecht"}},
		CandidateGroups: []string{"caseworker", "manager"}, IncludeAssignedTasks: true, SortBy: "created", SortOrder: "desc", MaxResults: 10}
	if !reflect.DeepEqual(st.taskQuery, want) {
		t.Errorf("GET /task:\n got %+v\nwant %+v", st.taskQuery, want)
	}
	call(t, srv, "POST", "/engine-rest/task?firstResult=5&maxResults=5", jsonCT,
		`{"processVariables":[{"name":"amount","operator":"gteq","value":1000}],"sorting":[{"sortBy":"priority","sortOrder":"desc"}]}`)
	want = engine.TaskQuery{ProcessVariables: []engine.VariableFilter{{Name: "amount", Operator: "gteq", Value: json.Number("1000")}},
		Sorting: []engine.Sorting{{SortBy: "priority", SortOrder: "desc"}}, FirstResult: 5, MaxResults: 5}
	if !reflect.DeepEqual(st.taskQuery, want) {
		t.Errorf("POST /task:\n got %+v\nwant %+v", st.taskQuery, want)
	}
	call(t, srv, "POST", "/engine-rest/task/count?maxResults=1", "", `{"candidateGroup":"x"}`)
	if st.taskQuery.CandidateGroup != "x" || st.taskQuery.MaxResults != 0 {
		t.Errorf("POST /task/count without a content type: %+v", st.taskQuery)
	}
	call(t, srv, "POST", "/engine-rest/history/process-instance", jsonCT, `{"processInstanceIds":["a","b"]}`)
	if !reflect.DeepEqual(st.histQuery.ProcessInstanceIDs, []string{"a", "b"}) {
		t.Errorf("history: %+v", st.histQuery)
	}
}

func TestStartProcessRoute(t *testing.T) {
	st, srv := newProcServer(t)
	status, _, body := call(t, srv, "POST", "/engine-rest/process-definition/key/aanvraag/start", jsonCT,
		`{"businessKey":"bk-1","variables":{"municipality":{"value":"utrecht","type":"String"},"n":{"value":3}}}`)
	if status != 200 {
		t.Fatalf("start: %d %s", status, body)
	}
	same(t, "start", body, `{"links":[{"method":"GET","href":"`+srv.URL+`/engine-rest/process-instance/pi1","rel":"self"}],
		"id":"pi1","definitionId":"aanvraag:1:d1","definitionKey":"aanvraag","businessKey":"bk-1","caseInstanceId":null,
		"ended":false,"suspended":false,"tenantId":null}`)
	if st.started.DefinitionID != "aanvraag:1:d1" || st.started.BusinessKey != "bk-1" || !st.started.Variables["n"].Equal(engine.Integer(3)) {
		t.Errorf("started: %+v", st.started)
	}
	status, _, body = call(t, srv, "POST", "/engine-rest/process-definition/aanvraag:1:d1/start", "",
		`{"variables":{"a":{"value":true,"type":"Boolean"}},"withVariablesInReturn":true}`)
	if status != 200 || !strings.Contains(body, `"variables":{"a":{"type":"Boolean","value":true,"valueInfo":{}}}`) {
		t.Errorf("start with variables in return: %d %s", status, body)
	}
	for _, tc := range []struct{ body, want string }{
		{`{"variables":{"a":{"value":"x","type":"Boolean"}}}`, `variable \"a\"`},
		{`{"variables":[1]}`, `InvalidRequestException`},
		{`{"businessKey":`, `Cannot instantiate process definition aanvraag:1:d1`},
		{`{"businessKey":"` + strings.Repeat("x", 5000) + `"}`, `larger than 4096 bytes`},
	} {
		status, _, body := call(t, srv, "POST", "/engine-rest/process-definition/key/aanvraag/start", jsonCT, tc.body)
		if (status != 400 && status != 413) || !strings.Contains(body, tc.want) {
			t.Errorf("start %.40s: %d %s, want 400 with %s", tc.body, status, body, tc.want)
		}
	}
	if status, _, body := call(t, srv, "POST", "/engine-rest/process-definition/key/nope/start", jsonCT, `{}`); status != 404 {
		t.Errorf("start of an unknown key: %d %s", status, body)
	}
}

func TestRawRoutes(t *testing.T) {
	_, srv := newProcServer(t)
	status, ct, body := call(t, srv, "GET", "/engine-rest/process-definition/key/aanvraag/deployed-start-form", "", "")
	if status != 200 || ct != "application/json" || body != `{"components":[]}` {
		t.Errorf("deployed-start-form: %d %q %s", status, ct, body)
	}
	req, _ := http.NewRequest("GET", srv.URL+"/engine-rest/deployment/d1/resources/r1/data", nil)
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" ||
		resp.Header.Get("Content-Disposition") != "attachment; filename=review.form" || string(b) != `{"components":[]}` {
		t.Errorf("resource data: %d %v %s", resp.StatusCode, resp.Header, b)
	}
}

// TestDecisionOnlyEngine: an engine without a process side serves no process path.
func TestDecisionOnlyEngine(t *testing.T) {
	srv := httptest.NewServer(NewHandler(stub{}, Options{}))
	defer srv.Close()
	status, _, body := call(t, srv, "GET", "/engine-rest/task", "", "")
	if status != 404 || !strings.Contains(body, "NotFoundException") {
		t.Errorf("GET /task on a decision engine: %d %s", status, body)
	}
}

// TestEngineFailureLogs: a 500 from the engine is logged by type, without
// its message (which may quote variable values).
func TestEngineFailureLogs(t *testing.T) {
	var logs strings.Builder
	st := &procStub{Engine: local.New(local.Options{})}
	srv := httptest.NewServer(NewHandler(st, Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))}))
	defer srv.Close()
	if status, _, _ := call(t, srv, "POST", "/engine-rest/task/t1/claim", jsonCT, `{"userId":"bob"}`); status != 500 {
		t.Fatalf("status %d", status)
	}
	if !strings.Contains(logs.String(), "type=TaskAlreadyClaimedException") || strings.Contains(logs.String(), "someone else") {
		t.Errorf("log: %s", logs.String())
	}
}
