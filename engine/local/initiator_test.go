package local

import (
	"context"
	"testing"

	"github.com/regelkit/regelkit/engine"
)

const initiatorBPMN = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d" targetNamespace="x">
  <bpmn:process id="Initiated" isExecutable="true" camunda:historyTimeToLive="P1D">
    <bpmn:startEvent id="s" camunda:initiator="starter"/>
    <bpmn:sequenceFlow id="f1" sourceRef="s" targetRef="own"/>
    <bpmn:userTask id="own" camunda:assignee="${starter}"/>
    <bpmn:sequenceFlow id="f2" sourceRef="own" targetRef="e"/>
    <bpmn:endEvent id="e"/>
  </bpmn:process>
</bpmn:definitions>`

// TestInitiator: camunda:initiator names the variable that holds the
// starting user, when StartProcess knows it; the history's startUserId
// is that user. Without a user the variable is null, as in Operaton
// without an authenticated user.
func TestInitiator(t *testing.T) {
	ctx := context.Background()
	e := New(Options{})
	if _, err := e.Deploy(ctx, engine.NewDeployment{Name: "i", Resources: []engine.Resource{{Name: "i.bpmn", Data: []byte(initiatorBPMN)}}}); err != nil {
		t.Fatal(err)
	}
	pi, err := e.StartProcess(ctx, engine.StartProcess{Key: "Initiated", StartUserID: "ann"})
	if err != nil {
		t.Fatal(err)
	}
	vars, err := e.ProcessInstanceVariables(ctx, pi.ID)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := vars["starter"]; !ok || !v.Equal(engine.String("ann")) {
		t.Errorf("starter = %+v (%v), want the String ann", v, ok)
	}
	tasks, err := e.Tasks(ctx, engine.TaskQuery{ProcessInstanceID: pi.ID})
	if err != nil || len(tasks) != 1 || tasks[0].Assignee != "ann" {
		t.Errorf("tasks = %+v, %v; want one assigned to ann", tasks, err)
	}
	h, err := e.HistoricProcessInstance(ctx, pi.ID)
	if err != nil || h.StartUserID != "ann" {
		t.Errorf("history = %+v, %v; want startUserId ann", h, err)
	}
	// a start variable of the same name overrides the initiator
	own, err := e.StartProcess(ctx, engine.StartProcess{Key: "Initiated", StartUserID: "ann", Variables: engine.Variables{"starter": engine.String("bob")}})
	if err != nil {
		t.Fatal(err)
	}
	if vs, _ := e.ProcessInstanceVariables(ctx, own.ID); !vs["starter"].Equal(engine.String("bob")) {
		t.Errorf("starter with a start variable = %+v, want bob", vs["starter"])
	}
	// later steps keep the start user in history
	if err := e.CompleteTask(ctx, tasks[0].ID, nil); err != nil {
		t.Fatal(err)
	}
	if h, _ := e.HistoricProcessInstance(ctx, pi.ID); h.State != engine.StateCompleted || h.StartUserID != "ann" {
		t.Errorf("history after the end = %+v, want COMPLETED by ann", h)
	}

	anon, err := e.StartProcess(ctx, engine.StartProcess{Key: "Initiated"})
	if err != nil {
		t.Fatal(err)
	}
	vars, _ = e.ProcessInstanceVariables(ctx, anon.ID)
	if v, ok := vars["starter"]; !ok || v.Type != engine.TypeNull {
		t.Errorf("starter without a start user = %+v (%v), want Null", v, ok)
	}
	if ts, _ := e.Tasks(ctx, engine.TaskQuery{ProcessInstanceID: anon.ID}); len(ts) != 1 || ts[0].Assignee != "" {
		t.Errorf("tasks without a start user = %+v, want one unassigned", ts)
	}
	if h, _ := e.HistoricProcessInstance(ctx, anon.ID); h.StartUserID != "" {
		t.Errorf("startUserId %q without a start user", h.StartUserID)
	}
}
