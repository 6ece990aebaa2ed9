package mcptools_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/servers/business/internal/mcptools"
)

const mailBPMN = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d" targetNamespace="x">
  <bpmn:process id="Mail" isExecutable="true" camunda:historyTimeToLive="P1D">
    <bpmn:startEvent id="s"/>
    <bpmn:sequenceFlow id="f1" sourceRef="s" targetRef="send"/>
    <bpmn:serviceTask id="send" camunda:type="external" camunda:topic="mail"/>
    <bpmn:sequenceFlow id="f2" sourceRef="send" targetRef="e"/>
    <bpmn:endEvent id="e"/>
  </bpmn:process>
</bpmn:definitions>`

// callAs calls one tool of NewServer for a caller of the tenant and
// returns its text and whether it is a tool error.
func callAs(t *testing.T, e *local.Engine, tenant, tool string, args map[string]any) (string, bool) {
	t.Helper()
	ctx := context.Background()
	srv := mcptools.NewServer(mcptools.Options{Engine: e, Processes: e}, mcptools.Caller{UserID: "u", Tenant: tenant})
	serverSide, clientSide := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, serverSide, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, clientSide, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	return res.Content[0].(*mcp.TextContent).Text, res.IsError
}

// TestIncidentTools: incident_list and incident_count show a caller the
// incidents of its own municipality's instances only; a caller without a
// municipality sees none.
func TestIncidentTools(t *testing.T) {
	ctx := context.Background()
	e := local.New(local.Options{})
	if _, err := e.Deploy(ctx, engine.NewDeployment{Name: "mail", Resources: []engine.Resource{{Name: "mail.bpmn", Data: []byte(mailBPMN)}}}); err != nil {
		t.Fatal(err)
	}
	started := map[string]string{} // instance id -> municipality
	for _, m := range []string{"utrecht", "amsterdam", "utrecht"} {
		pi, err := e.StartProcess(ctx, engine.StartProcess{Key: "Mail", Variables: engine.Variables{"municipality": engine.String(m)}})
		if err != nil {
			t.Fatal(err)
		}
		started[pi.ID] = m
	}
	tasks, err := e.FetchAndLock(ctx, engine.FetchAndLock{WorkerID: "w", MaxTasks: 10, Topics: []engine.FetchTopic{{TopicName: "mail", LockDuration: time.Minute}}})
	if err != nil || len(tasks) != 3 {
		t.Fatalf("fetched %d tasks, %v; want 3", len(tasks), err)
	}
	var utrechtInstances []string
	for _, x := range tasks {
		if err := e.ExternalTaskFailure(ctx, x.ID, engine.ExternalTaskFailure{WorkerID: "w", ErrorMessage: "smtp down", Retries: 0}); err != nil {
			t.Fatal(err)
		}
		if started[x.ProcessInstanceID] == "utrecht" {
			utrechtInstances = append(utrechtInstances, x.ProcessInstanceID)
		}
	}

	text, isErr := callAs(t, e, "utrecht", "incident_list", nil)
	var list []struct {
		ID, IncidentType, IncidentMessage, ProcessInstanceID, ActivityID string
	}
	if err := json.Unmarshal([]byte(text), &list); isErr || err != nil {
		t.Fatalf("incident_list = %s (%v)", text, err)
	}
	if len(list) != 2 {
		t.Fatalf("utrecht's incident_list = %s, want its 2 incidents", text)
	}
	for _, in := range list {
		if started[in.ProcessInstanceID] != "utrecht" || in.IncidentType != "failedExternalTask" ||
			in.IncidentMessage != "smtp down" || in.ActivityID != "send" || in.ID == "" {
			t.Errorf("utrecht sees %+v", in)
		}
	}
	if text, _ := callAs(t, e, "utrecht", "incident_count", nil); text != "{\n \"count\": 2\n}" {
		t.Errorf("utrecht's incident_count = %s", text)
	}
	if text, _ := callAs(t, e, "amsterdam", "incident_count", nil); text != "{\n \"count\": 1\n}" {
		t.Errorf("amsterdam's incident_count = %s", text)
	}
	if text, _ := callAs(t, e, "utrecht", "incident_list", map[string]any{"processInstanceId": utrechtInstances[0]}); !json.Valid([]byte(text)) ||
		json.Unmarshal([]byte(text), &list) != nil || len(list) != 1 || list[0].ProcessInstanceID != utrechtInstances[0] {
		t.Errorf("incident_list of one instance = %s", text)
	}
	if text, _ := callAs(t, e, "utrecht", "incident_list", map[string]any{"maxResults": 1}); json.Unmarshal([]byte(text), &list) != nil || len(list) != 1 {
		t.Errorf("incident_list with maxResults 1 = %s", text)
	}
	if text, _ := callAs(t, e, "", "incident_list", nil); text != "[]" {
		t.Errorf("incident_list without a municipality = %s", text)
	}
	if text, _ := callAs(t, e, "", "incident_count", nil); text != "{\n \"count\": 0\n}" {
		t.Errorf("incident_count without a municipality = %s", text)
	}
	if text, isErr := callAs(t, e, "utrecht", "incident_list", map[string]any{"activityId": 3}); !isErr {
		t.Errorf("a numeric activityId: %s, want a tool error", text)
	}
}
