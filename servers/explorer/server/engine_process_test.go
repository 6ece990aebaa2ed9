package server

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/engine"
)

// reviewProcess is a bundle's process: start → user task (candidate group
// caseworker) → end.
const reviewProcess = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
    xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="defs" targetNamespace="http://regelkit.example/bpmn">
  <bpmn:process id="review" name="Review" isExecutable="true" camunda:historyTimeToLive="30">
    <bpmn:startEvent id="start"><bpmn:outgoing>f1</bpmn:outgoing></bpmn:startEvent>
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="check"/>
    <bpmn:userTask id="check" name="Check the request" camunda:candidateGroups="caseworker">
      <bpmn:incoming>f1</bpmn:incoming><bpmn:outgoing>f2</bpmn:outgoing>
    </bpmn:userTask>
    <bpmn:sequenceFlow id="f2" sourceRef="check" targetRef="end"/>
    <bpmn:endEvent id="end"><bpmn:incoming>f2</bpmn:incoming></bpmn:endEvent>
  </bpmn:process>
</bpmn:definitions>`

// TestEngineRESTRunsProcesses: a BPMN bundle deployed through the
// explorer's /engine-rest starts, and its user task is listed, claimed and
// completed there, ending the instance.
func TestEngineRESTRunsProcesses(t *testing.T) {
	a, c := newTestApp(t, nil)
	if _, ok := a.engine.(engine.Processes); !ok {
		t.Fatal("the embedded engine does not implement engine.Processes")
	}
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	mw.WriteField("deployment-name", "review")
	fw, _ := mw.CreateFormFile("data", "review.bpmn")
	fw.Write([]byte(reviewProcess))
	mw.Close()
	c.Do("POST", "/engine-rest/deployment/create", buf.Bytes(), "Content-Type", mw.FormDataContentType()).ExpectStatus(t, http.StatusOK)

	var pi struct {
		ID, DefinitionID, BusinessKey string
		Ended                         bool
	}
	c.Post("/engine-rest/process-definition/key/review/start",
		`{"businessKey":"case-1","variables":{"municipality":{"value":"utrecht","type":"String"}}}`).ExpectStatus(t, http.StatusOK).Decode(t, &pi)
	if pi.ID == "" || pi.BusinessKey != "case-1" || pi.Ended {
		t.Fatalf("started: %+v", pi)
	}
	var tasks []struct{ ID, TaskDefinitionKey, ProcessInstanceID string }
	c.Get("/engine-rest/task?processVariables=municipality_eq_utrecht&candidateGroups=caseworker&includeAssignedTasks=true").
		ExpectStatus(t, http.StatusOK).Decode(t, &tasks)
	if len(tasks) != 1 || tasks[0].TaskDefinitionKey != "check" || tasks[0].ProcessInstanceID != pi.ID {
		t.Fatalf("tasks: %+v", tasks)
	}
	id := tasks[0].ID
	c.Post("/engine-rest/task/"+id+"/claim", `{"userId":"ann"}`).ExpectStatus(t, http.StatusNoContent)
	c.Post("/engine-rest/task/"+id+"/complete", `{"variables":{"approved":{"value":true,"type":"Boolean"}}}`).ExpectStatus(t, http.StatusNoContent)
	c.Get("/engine-rest/task/"+id).ExpectStatus(t, http.StatusNotFound)
	c.Get("/engine-rest/process-instance/"+pi.ID).ExpectStatus(t, http.StatusNotFound)
	var hist struct{ State string }
	c.Get("/engine-rest/history/process-instance/"+pi.ID).ExpectStatus(t, http.StatusOK).Decode(t, &hist)
	if hist.State != engine.StateCompleted {
		t.Errorf("history state %q, want COMPLETED", hist.State)
	}
	doc := string(c.Get("/v1/openapi.json").ExpectStatus(t, http.StatusOK).Body)
	for _, p := range []string{`"/engine-rest/task"`, `"/engine-rest/process-definition/key/{key}/start"`, `"/engine-rest/external-task/fetchAndLock"`} {
		if !strings.Contains(doc, p) {
			t.Errorf("the OpenAPI document lacks %s", p)
		}
	}
}
