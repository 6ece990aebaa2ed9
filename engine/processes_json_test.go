package engine

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

// sameJSON compares JSON texts by value (member order ignored, numbers exact).
func sameJSON(t *testing.T, what string, got []byte, want string) {
	t.Helper()
	dec := func(b []byte) any {
		d := json.NewDecoder(bytes.NewReader(b))
		d.UseNumber()
		var v any
		if err := d.Decode(&v); err != nil {
			t.Fatalf("%s: %v in %s", what, err, b)
		}
		return v
	}
	if !reflect.DeepEqual(dec(got), dec([]byte(want))) {
		t.Errorf("%s:\n got %s\nwant %s", what, got, want)
	}
}

var (
	created = time.Date(2025, 12, 24, 10, 30, 0, 0, time.UTC)
	later   = time.Date(2025, 12, 24, 11, 0, 0, 0, time.UTC)
)

func TestTaskJSON(t *testing.T) {
	v := 2
	task := Task{ID: "t1", Name: "Review", Assignee: "ann", Created: created, LastUpdated: later, Due: &later,
		ExecutionID: "e1", ProcessDefinitionID: "p:1:x", ProcessInstanceID: "pi1", TaskDefinitionKey: "review",
		Priority: 50, FormKey: "embedded:deployment:review.html", FormRef: &FormRef{Key: "reviewForm", Binding: "version", Version: &v},
		TenantID: "utrecht", TaskState: "Assigned", CandidateGroups: []string{"caseworker"}}
	b, err := json.Marshal(task)
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, "task", b, `{"id":"t1","name":"Review","assignee":"ann","created":"2025-12-24T10:30:00.000+0000",
		"due":"2025-12-24T11:00:00.000+0000","followUp":null,"lastUpdated":"2025-12-24T11:00:00.000+0000",
		"delegationState":null,"description":null,"executionId":"e1","owner":null,"parentTaskId":null,"priority":50,
		"processDefinitionId":"p:1:x","processInstanceId":"pi1","taskDefinitionKey":"review",
		"caseExecutionId":null,"caseInstanceId":null,"caseDefinitionId":null,"suspended":false,
		"formKey":"embedded:deployment:review.html","operatonFormRef":{"key":"reviewForm","binding":"version","version":2},
		"tenantId":"utrecht","taskState":"Assigned"}`)
	var back Task
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	task.CandidateGroups = nil // not part of TaskDto
	if !reflect.DeepEqual(back, task) {
		t.Errorf("round trip:\n got %+v\nwant %+v", back, task)
	}
	// a Camunda 7 engine calls the form reference camundaFormRef
	var c7 Task
	if err := json.Unmarshal([]byte(`{"id":"t","camundaFormRef":{"key":"f","binding":"latest","version":null}}`), &c7); err != nil {
		t.Fatal(err)
	}
	if c7.FormRef == nil || c7.FormRef.Key != "f" || c7.FormRef.Binding != "latest" || c7.FormRef.Version != nil {
		t.Errorf("camundaFormRef: %+v", c7.FormRef)
	}
	if err := json.Unmarshal([]byte(`{"id":"t","created":"yesterday"}`), &c7); err == nil || !strings.Contains(err.Error(), "created") {
		t.Errorf("bad date: %v", err)
	}
}

func TestProcessInstanceJSON(t *testing.T) {
	pi := ProcessInstance{ID: "pi1", DefinitionID: "p:1:x", DefinitionKey: "p", BusinessKey: "bk"}
	b, _ := json.Marshal(pi)
	sameJSON(t, "instance", b, `{"links":[],"id":"pi1","definitionId":"p:1:x","definitionKey":"p","businessKey":"bk",
		"caseInstanceId":null,"ended":false,"suspended":false,"tenantId":null}`)
	pi.Variables = Variables{"n": Integer(3), "s": String("x")}
	b, _ = json.Marshal(pi)
	sameJSON(t, "instance with variables", b, `{"links":[],"id":"pi1","definitionId":"p:1:x","definitionKey":"p","businessKey":"bk",
		"caseInstanceId":null,"ended":false,"suspended":false,"tenantId":null,
		"variables":{"n":{"type":"Integer","value":3,"valueInfo":{}},"s":{"type":"String","value":"x","valueInfo":{}}}}`)
	var back ProcessInstance
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !back.Variables["n"].Equal(Integer(3)) || back.ID != "pi1" || back.TenantID != "" {
		t.Errorf("back: %+v", back)
	}
	// a bad variable in an answer is a *VariableError naming it
	err := json.Unmarshal([]byte(`{"id":"x","variables":{"n":{"type":"Integer","value":"abc"}}}`), &back)
	if err == nil || !strings.Contains(err.Error(), `"n"`) {
		t.Errorf("bad variable: %v", err)
	}
}

func TestProcessDefinitionJSON(t *testing.T) {
	ttl := 180
	d := ProcessDefinition{ID: "p:1:x", Key: "p", Name: "Aanvraag", Version: 1, Resource: "p.bpmn", DeploymentID: "d1",
		HistoryTimeToLive: &ttl, StartableInTasklist: true}
	b, _ := json.Marshal(d)
	sameJSON(t, "definition", b, `{"id":"p:1:x","key":"p","category":null,"description":null,"name":"Aanvraag","version":1,
		"resource":"p.bpmn","deploymentId":"d1","diagram":null,"suspended":false,"tenantId":null,"versionTag":null,
		"historyTimeToLive":180,"startableInTasklist":true}`)
	var back ProcessDefinition
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, d) {
		t.Errorf("round trip: %+v, %v", back, err)
	}
}

func TestStartProcessJSON(t *testing.T) {
	var s StartProcess
	s.Key = "p" // from the path: kept
	if err := json.Unmarshal([]byte(`{"businessKey":"bk","variables":{"a":{"value":1,"type":"Long"}},"withVariablesInReturn":true}`), &s); err != nil {
		t.Fatal(err)
	}
	if s.Key != "p" || s.BusinessKey != "bk" || !s.WithVariablesInReturn || !s.Variables["a"].Equal(Long(1)) {
		t.Errorf("start: %+v", s)
	}
	b, _ := json.Marshal(StartProcess{Key: "p"})
	sameJSON(t, "empty start", b, `{"businessKey":null,"variables":{},"withVariablesInReturn":false}`)
}

func TestExternalTaskJSON(t *testing.T) {
	var f FetchAndLock
	err := json.Unmarshal([]byte(`{"workerId":"w","maxTasks":2,"asyncResponseTimeout":5000,
		"topics":[{"topicName":"docs","lockDuration":10000,"variables":["a"],"tenantIdIn":["t"]}]}`), &f)
	if err != nil {
		t.Fatal(err)
	}
	want := FetchAndLock{WorkerID: "w", MaxTasks: 2, AsyncResponseTimeout: 5 * time.Second,
		Topics: []FetchTopic{{TopicName: "docs", LockDuration: 10 * time.Second, Variables: []string{"a"}, TenantIDIn: []string{"t"}}}}
	if !reflect.DeepEqual(f, want) {
		t.Errorf("fetchAndLock:\n got %+v\nwant %+v", f, want)
	}
	if err := json.Unmarshal([]byte(`{"workerId":"w","asyncResponseTimeout":-1}`), &f); err == nil {
		t.Error("a negative asyncResponseTimeout was accepted")
	}
	retries := 3
	lt := LockedExternalTask{ID: "x1", ActivityID: "store", ExecutionID: "e", LockExpirationTime: later, CreateTime: created,
		ProcessDefinitionID: "p:1:x", ProcessDefinitionKey: "p", ProcessInstanceID: "pi", Retries: &retries, WorkerID: "w",
		TopicName: "docs", BusinessKey: "bk", Priority: 0, Variables: Variables{"ok": Boolean(true)}}
	b, _ := json.Marshal(lt)
	sameJSON(t, "locked task", b, `{"activityId":"store","activityInstanceId":null,"errorMessage":null,"errorDetails":null,
		"executionId":"e","id":"x1","lockExpirationTime":"2025-12-24T11:00:00.000+0000","createTime":"2025-12-24T10:30:00.000+0000",
		"processDefinitionId":"p:1:x","processDefinitionKey":"p","processDefinitionVersionTag":null,"processInstanceId":"pi",
		"retries":3,"suspended":false,"workerId":"w","topicName":"docs","tenantId":null,
		"variables":{"ok":{"type":"Boolean","value":true,"valueInfo":{}}},"priority":0,"businessKey":"bk","extensionProperties":{}}`)
	var back LockedExternalTask
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, lt) {
		t.Errorf("round trip:\n got %+v\nwant %+v", back, lt)
	}
	b, _ = json.Marshal(ExternalTaskFailure{WorkerID: "w", ErrorMessage: "down", Retries: 2, RetryTimeout: 1500 * time.Millisecond})
	sameJSON(t, "failure", b, `{"workerId":"w","errorMessage":"down","errorDetails":null,"retries":2,"retryTimeout":1500}`)
}

func TestHistoryJSON(t *testing.T) {
	d := int64(1800000)
	hp := HistoricProcessInstance{ID: "pi", BusinessKey: "bk", ProcessDefinitionID: "p:1:x", ProcessDefinitionKey: "p",
		ProcessDefinitionVersion: 1, StartTime: created, EndTime: &later, DurationInMillis: &d, StartActivityID: "start",
		RootProcessInstanceID: "pi", State: StateCompleted}
	b, _ := json.Marshal(hp)
	sameJSON(t, "historic instance", b, `{"id":"pi","businessKey":"bk","processDefinitionId":"p:1:x","processDefinitionKey":"p",
		"processDefinitionName":null,"processDefinitionVersion":1,"startTime":"2025-12-24T10:30:00.000+0000",
		"endTime":"2025-12-24T11:00:00.000+0000","removalTime":null,"durationInMillis":1800000,"startUserId":null,
		"startActivityId":"start","deleteReason":null,"rootProcessInstanceId":"pi","superProcessInstanceId":null,
		"superCaseInstanceId":null,"caseInstanceId":null,"tenantId":null,"state":"COMPLETED","restartedProcessInstanceId":null}`)
	var hpBack HistoricProcessInstance
	if err := json.Unmarshal(b, &hpBack); err != nil || !reflect.DeepEqual(hpBack, hp) {
		t.Errorf("round trip: %+v %v", hpBack, err)
	}

	j, _ := JSON(map[string]any{"k": 1})
	hv := HistoricVariable{ID: "v1", Name: "data", Value: j, ProcessDefinitionKey: "p", ProcessInstanceID: "pi",
		State: "CREATED", CreateTime: created}
	b, _ = json.Marshal(hv)
	sameJSON(t, "historic variable", b, `{"id":"v1","name":"data","type":"Json","value":"{\"k\":1}","valueInfo":{},
		"processDefinitionKey":"p","processDefinitionId":null,"processInstanceId":"pi","executionId":null,
		"activityInstanceId":null,"caseDefinitionKey":null,"caseDefinitionId":null,"caseInstanceId":null,
		"caseExecutionId":null,"taskId":null,"tenantId":null,"errorMessage":null,"state":"CREATED",
		"createTime":"2025-12-24T10:30:00.000+0000","removalTime":null,"rootProcessInstanceId":null}`)
	var hvBack HistoricVariable
	if err := json.Unmarshal(b, &hvBack); err != nil || !hvBack.Value.Equal(j) || hvBack.Name != "data" {
		t.Errorf("round trip: %+v %v", hvBack, err)
	}

	hd := HistoricDecision{ID: "d1", DecisionDefinitionID: "dec:1:x", DecisionDefinitionKey: "dec", EvaluationTime: created,
		ProcessInstanceID: "pi", ActivityID: "decide",
		Inputs:  []HistoricDecisionInput{{ID: "i1", DecisionInstanceID: "d1", ClauseID: "c1", ClauseName: "Age", Value: Integer(70), CreateTime: created}},
		Outputs: []HistoricDecisionOutput{{ID: "o1", DecisionInstanceID: "d1", ClauseID: "c2", RuleID: "r1", RuleOrder: 1, VariableName: "ok", Value: Boolean(true), CreateTime: created}}}
	b, _ = json.Marshal(hd)
	sameJSON(t, "historic decision", b, `{"id":"d1","decisionDefinitionId":"dec:1:x","decisionDefinitionKey":"dec",
		"decisionDefinitionName":null,"evaluationTime":"2025-12-24T10:30:00.000+0000","removalTime":null,
		"processDefinitionId":null,"processDefinitionKey":null,"processInstanceId":"pi","caseDefinitionId":null,
		"caseDefinitionKey":null,"caseInstanceId":null,"activityId":"decide","activityInstanceId":null,"tenantId":null,
		"userId":null,"collectResultValue":null,"rootDecisionInstanceId":null,"rootProcessInstanceId":null,
		"decisionRequirementsDefinitionId":null,"decisionRequirementsDefinitionKey":null,
		"inputs":[{"id":"i1","decisionInstanceId":"d1","clauseId":"c1","clauseName":"Age","errorMessage":null,
			"type":"Integer","value":70,"valueInfo":{},"createTime":"2025-12-24T10:30:00.000+0000","removalTime":null,
			"rootProcessInstanceId":null}],
		"outputs":[{"id":"o1","decisionInstanceId":"d1","clauseId":"c2","clauseName":null,"ruleId":"r1","ruleOrder":1,
			"variableName":"ok","errorMessage":null,"type":"Boolean","value":true,"valueInfo":{},
			"createTime":"2025-12-24T10:30:00.000+0000","removalTime":null,"rootProcessInstanceId":null}]}`)
	var hdBack HistoricDecision
	if err := json.Unmarshal(b, &hdBack); err != nil {
		t.Fatal(err)
	}
	if len(hdBack.Inputs) != 1 || !hdBack.Inputs[0].Value.Equal(Integer(70)) || len(hdBack.Outputs) != 1 ||
		hdBack.Outputs[0].RuleOrder != 1 || hdBack.Outputs[0].VariableName != "ok" {
		t.Errorf("round trip: %+v", hdBack)
	}
	hd.Inputs, hd.Outputs = nil, nil
	b, _ = json.Marshal(hd)
	if !bytes.Contains(b, []byte(`"inputs":null`)) || !bytes.Contains(b, []byte(`"outputs":null`)) {
		t.Errorf("not included: inputs and outputs must be null: %s", b)
	}

	ha := HistoricActivity{ID: "a1", ActivityID: "review", ActivityType: "userTask", ProcessInstanceID: "pi", StartTime: created, Canceled: true}
	b, _ = json.Marshal(ha)
	sameJSON(t, "historic activity", b, `{"id":"a1","parentActivityInstanceId":null,"activityId":"review","activityName":null,
		"activityType":"userTask","processDefinitionKey":null,"processDefinitionId":null,"processInstanceId":"pi",
		"executionId":null,"taskId":null,"assignee":null,"calledProcessInstanceId":null,"calledCaseInstanceId":null,
		"startTime":"2025-12-24T10:30:00.000+0000","endTime":null,"durationInMillis":null,"canceled":true,
		"completeScope":false,"tenantId":null,"removalTime":null,"rootProcessInstanceId":null}`)

	ht := HistoricTask{ID: "t1", Name: "Review", StartTime: created, TaskDefinitionKey: "review", TaskState: "Completed"}
	b, _ = json.Marshal(ht)
	sameJSON(t, "historic task", b, `{"id":"t1","processDefinitionKey":null,"processDefinitionId":null,"processInstanceId":null,
		"executionId":null,"caseDefinitionKey":null,"caseDefinitionId":null,"caseInstanceId":null,"caseExecutionId":null,
		"activityInstanceId":null,"name":"Review","description":null,"deleteReason":null,"owner":null,"assignee":null,
		"startTime":"2025-12-24T10:30:00.000+0000","endTime":null,"duration":null,"taskDefinitionKey":"review","priority":0,
		"due":null,"parentTaskId":null,"followUp":null,"tenantId":null,"removalTime":null,"rootProcessInstanceId":null,
		"taskState":"Completed"}`)
}

func TestVariableModificationJSON(t *testing.T) {
	var m VariableModification
	if err := json.Unmarshal([]byte(`{"modifications":{"a":{"value":"x","type":"String"}},"deletions":["b"]}`), &m); err != nil {
		t.Fatal(err)
	}
	if !m.Modifications["a"].Equal(String("x")) || !reflect.DeepEqual(m.Deletions, []string{"b"}) {
		t.Errorf("modification: %+v", m)
	}
	b, _ := json.Marshal(VariableModification{})
	sameJSON(t, "empty modification", b, `{"modifications":{},"deletions":[]}`)
}
