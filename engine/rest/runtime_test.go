package rest

import (
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/regelkit/regelkit/engine/local"
)

// TestProcessesThroughRouter drives the embedded runtime through the
// router: deploy a bundle, start, list, claim and complete a task, read
// history, delete the deployment. Expected values are written from the
// model (taskListProcess in bench_test.go).
func TestProcessesThroughRouter(t *testing.T) {
	now := time.Date(2025, 12, 24, 10, 30, 0, 0, time.UTC)
	srv := httptest.NewServer(NewHandler(local.New(local.Options{Now: func() time.Time { return now }}), Options{}))
	defer srv.Close()
	s := &server{t: t, srv: srv}

	depID := routerDeploy(t, s)
	routerResources(t, s, depID)
	pid := routerStart(t, s, srv)
	tid := routerTaskList(t, s, pid)
	routerClaim(t, s, srv, tid, depID)
	if status, _, _ := call(t, srv, "POST", "/engine-rest/task/"+tid+"/complete", "application/json", `{"variables":{"ok":{"value":true,"type":"Boolean"}}}`); status != 204 {
		t.Errorf("complete: %d", status)
	}
	if status, _ := s.do("GET", "/engine-rest/task/"+tid, "", nil); status != 404 {
		t.Errorf("completed task: %d", status)
	}
	routerHistory(t, s, pid)
	if status, _, _ := call(t, srv, "DELETE", "/engine-rest/deployment/"+depID+"?cascade=true", "", ""); status != 204 {
		t.Errorf("delete: %d", status)
	}
	if status, _ := s.do("GET", "/engine-rest/process-definition/key/aanvraag", "", nil); status != 404 {
		t.Errorf("definition after delete: %d", status)
	}
}

// routerDeploy deploys the task list process with a form and checks the
// deployed process definition; it returns the deployment's id.
func routerDeploy(t *testing.T, s *server) string {
	t.Helper()
	body, ct := multipartBody(t, part{"deployment-name", "", "aanvraag"},
		part{"data", "processes/aanvraag.bpmn", taskListProcess}, part{"data1", "forms/review.form", `{"components":[]}`})
	status, v := s.do("POST", "/engine-rest/deployment/create", ct, body)
	if status != 200 {
		t.Fatalf("deploy: %d %v", status, v)
	}
	dep := v.(map[string]any)
	depID := dep["id"].(string)
	defs, _ := dep["deployedProcessDefinitions"].(map[string]any)
	if len(defs) != 1 {
		t.Fatalf("deployedProcessDefinitions: %v", dep["deployedProcessDefinitions"])
	}
	for id, d := range defs {
		d := d.(map[string]any)
		if !strings.HasPrefix(id, "aanvraag:1:") || d["id"] != id || d["key"] != "aanvraag" || d["version"] != json.Number("1") ||
			d["resource"] != "processes/aanvraag.bpmn" || d["deploymentId"] != depID || d["historyTimeToLive"] != json.Number("30") ||
			d["tenantId"] != nil || d["suspended"] != false {
			t.Errorf("deployed definition: %v", d)
		}
	}
	return depID
}

// routerResources checks the deployment's resources and the process XML.
func routerResources(t *testing.T, s *server, depID string) {
	t.Helper()
	status, v := s.do("GET", "/engine-rest/deployment/"+depID+"/resources", "", nil)
	var names []string
	for _, r := range v.([]any) {
		names = append(names, r.(map[string]any)["name"].(string))
	}
	if status != 200 || !reflect.DeepEqual(names, []string{"processes/aanvraag.bpmn", "forms/review.form"}) {
		t.Errorf("resources: %d %v", status, v)
	}
	status, v = s.do("GET", "/engine-rest/process-definition/key/aanvraag/xml", "", nil)
	if status != 200 || v.(map[string]any)["bpmn20Xml"] != taskListProcess {
		t.Errorf("xml: %d %v", status, v)
	}
}

// routerStart starts the process by key and checks the instance and its
// link; it returns the instance's id.
func routerStart(t *testing.T, s *server, srv *httptest.Server) string {
	t.Helper()
	status, v := s.do("POST", "/engine-rest/process-definition/key/aanvraag/start", "application/json",
		strings.NewReader(`{"businessKey":"bk-1","variables":{"municipality":{"value":"utrecht","type":"String"}}}`))
	if status != 200 {
		t.Fatalf("start: %d %v", status, v)
	}
	pi := v.(map[string]any)
	pid := pi["id"].(string)
	links := pi["links"].([]any)
	if pi["businessKey"] != "bk-1" || pi["ended"] != false || len(links) != 1 ||
		links[0].(map[string]any)["href"] != srv.URL+"/engine-rest/process-instance/"+pid {
		t.Errorf("started: %v", pi)
	}
	return pid
}

// routerTaskList checks the task list filtered by municipality and
// candidate group, and the task's identity links; it returns the task's id.
func routerTaskList(t *testing.T, s *server, pid string) string {
	t.Helper()
	status, v := s.do("GET", "/engine-rest/task?processVariables=municipality_eq_utrecht&candidateGroups=caseworker", "", nil)
	tasks := v.([]any)
	if status != 200 || len(tasks) != 1 {
		t.Fatalf("tasks: %d %v", status, v)
	}
	task := tasks[0].(map[string]any)
	tid := task["id"].(string)
	for k, want := range map[string]any{"name": "Beoordelen", "taskDefinitionKey": "review", "processInstanceId": pid,
		"created": "2025-12-24T10:30:00.000+0000", "assignee": nil, "caseExecutionId": nil, "operatonFormRef": nil, "suspended": false} {
		if !reflect.DeepEqual(task[k], want) {
			t.Errorf("task %s = %v, want %v", k, task[k], want)
		}
	}
	if status, v := s.do("GET", "/engine-rest/task?processVariables=municipality_eq_amsterdam", "", nil); status != 200 || len(v.([]any)) != 0 {
		t.Errorf("other municipality: %d %v", status, v)
	}
	if status, v := s.do("GET", "/engine-rest/task/"+tid+"/identity-links", "", nil); status != 200 ||
		jsonString(t, v) != `[{"groupId":"caseworker","type":"candidate","userId":null}]` {
		t.Errorf("identity links: %d %s", status, jsonString(t, v))
	}
	return tid
}

// routerClaim claims the task for ann, checks bob cannot claim it too and
// that the deployment with a running instance is not deleted without
// cascade.
func routerClaim(t *testing.T, s *server, srv *httptest.Server, tid, depID string) {
	t.Helper()
	if status, _, _ := call(t, srv, "POST", "/engine-rest/task/"+tid+"/claim", "application/json", `{"userId":"ann"}`); status != 204 {
		t.Errorf("claim: %d", status)
	}
	if status, v := s.do("POST", "/engine-rest/task/"+tid+"/claim", "application/json", strings.NewReader(`{"userId":"bob"}`)); status != 500 ||
		v.(map[string]any)["type"] != "TaskAlreadyClaimedException" {
		t.Errorf("claim by another: %d %v", status, v)
	}
	if status, v := s.do("DELETE", "/engine-rest/deployment/"+depID, "", nil); status < 400 {
		t.Errorf("delete with a running instance, no cascade: %d %v", status, v)
	}
}

// routerHistory checks the completed instance's history: the instance,
// its task and its variables.
func routerHistory(t *testing.T, s *server, pid string) {
	t.Helper()
	status, v := s.do("GET", "/engine-rest/history/process-instance/"+pid, "", nil)
	if h := v.(map[string]any); status != 200 || h["state"] != "COMPLETED" || h["endTime"] != "2025-12-24T10:30:00.000+0000" || h["businessKey"] != "bk-1" {
		t.Errorf("history: %d %v", status, v)
	}
	status, v = s.do("GET", "/engine-rest/history/task?processInstanceId="+pid, "", nil)
	if ts := v.([]any); status != 200 || len(ts) != 1 || ts[0].(map[string]any)["assignee"] != "ann" {
		t.Errorf("historic tasks: %d %v", status, v)
	}
	status, v = s.do("GET", "/engine-rest/history/variable-instance?processInstanceId="+pid+"&sortBy=variableName&sortOrder=asc&deserializeValues=true", "", nil)
	var vars []string
	for _, x := range v.([]any) {
		m := x.(map[string]any)
		vars = append(vars, m["name"].(string)+"="+jsonString(t, m["value"])+":"+m["type"].(string))
	}
	if status != 200 || !reflect.DeepEqual(vars, []string{`municipality="utrecht":String`, `ok=true:Boolean`}) {
		t.Errorf("historic variables: %d %v", status, vars)
	}
}

const externalProcess = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
    xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="defs" targetNamespace="http://regelkit.example/bpmn">
  <bpmn:process id="archive" isExecutable="true" camunda:historyTimeToLive="30">
    <bpmn:startEvent id="start"><bpmn:outgoing>f1</bpmn:outgoing></bpmn:startEvent>
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="store"/>
    <bpmn:serviceTask id="store" camunda:type="external" camunda:topic="docs">
      <bpmn:incoming>f1</bpmn:incoming><bpmn:outgoing>f2</bpmn:outgoing>
    </bpmn:serviceTask>
    <bpmn:sequenceFlow id="f2" sourceRef="store" targetRef="end"/>
    <bpmn:endEvent id="end"><bpmn:incoming>f2</bpmn:incoming></bpmn:endEvent>
  </bpmn:process>
</bpmn:definitions>`

// TestFetchAndLockLongPolling: with asyncResponseTimeout the request waits
// for a task and answers as soon as one is created; without one it answers
// an empty list after the timeout.
func TestFetchAndLockLongPolling(t *testing.T) {
	srv := httptest.NewServer(NewHandler(local.New(local.Options{}), Options{}))
	defer srv.Close()
	body, ct := multipartBody(t, part{"deployment-name", "", "archive"}, part{"data", "archive.bpmn", externalProcess})
	if status, _, b := call(t, srv, "POST", "/engine-rest/deployment/create", ct, body.String()); status != 200 {
		t.Fatalf("deploy: %d %s", status, b)
	}
	fetch := `{"workerId":"w1","maxTasks":1,"asyncResponseTimeout":300,"topics":[{"topicName":"docs","lockDuration":60000}]}`
	begin := time.Now()
	status, _, b := call(t, srv, "POST", "/engine-rest/external-task/fetchAndLock", jsonCT, fetch)
	if waited := time.Since(begin); status != 200 || b != "[]" || waited < 300*time.Millisecond {
		t.Errorf("empty poll: %d %s after %v, want [] after 300ms", status, b, waited)
	}
	go func() {
		time.Sleep(100 * time.Millisecond)
		call(t, srv, "POST", "/engine-rest/process-definition/key/archive/start", jsonCT, `{"businessKey":"a-1"}`)
	}()
	fetch = strings.Replace(fetch, `"asyncResponseTimeout":300`, `"asyncResponseTimeout":5000`, 1)
	begin = time.Now()
	status, _, b = call(t, srv, "POST", "/engine-rest/external-task/fetchAndLock", jsonCT, fetch)
	var got []struct {
		ID, TopicName, WorkerID, BusinessKey, ActivityID string
	}
	json.Unmarshal([]byte(b), &got)
	if waited := time.Since(begin); status != 200 || len(got) != 1 || got[0].TopicName != "docs" || got[0].WorkerID != "w1" ||
		got[0].BusinessKey != "a-1" || got[0].ActivityID != "store" || waited > 3*time.Second {
		t.Fatalf("poll that a start ends: %d %s after %v", status, b, waited)
	}
	if status, _, b := call(t, srv, "POST", "/engine-rest/external-task/"+got[0].ID+"/complete", jsonCT, `{"workerId":"w2"}`); status < 400 {
		t.Errorf("complete by another worker: %d %s", status, b)
	}
	if status, _, b := call(t, srv, "POST", "/engine-rest/external-task/"+got[0].ID+"/complete", jsonCT, `{"workerId":"w1"}`); status != 204 {
		t.Errorf("complete: %d %s", status, b)
	}
}
