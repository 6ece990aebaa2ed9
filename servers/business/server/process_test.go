package server

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local/pgstore/pgtest"
	"github.com/regelkit/regelkit/servers/internal/auth"
)

// waitLog waits for the (asynchronous) audit writer to log want.
func waitLog(t testing.TB, ta *testApp, want string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(ta.logs.String(), want); {
		if time.Now().After(deadline) {
			t.Errorf("the log lacks %q:\n%s", want, ta.logs)
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func citizen(tenant, sub string) auth.TokenClaims {
	return auth.TokenClaims{Subject: sub, Municipality: tenant, Roles: []string{"citizen"}, LoA: "midden", Client: "ronl-frontend"}
}

// bpmnOptions shape the test process of testBPMN.
type bpmnOptions struct {
	StartForm   string // camunda:formRef of the start event
	StartKey    string // camunda:formKey of the start event (embedded forms)
	TaskForm    string // camunda:formRef of the user task
	DocumentRef string // ronl:documentRef of the user task
	BoardOwner  string // camunda:property boardOwner of the process
	Groups      string // candidate groups; default caseworker
}

// testBPMN is start → user task "UserTask" (named Review) → end, with the given links.
func testBPMN(key string, o bpmnOptions) string {
	var ext, start, task string
	if o.BoardOwner != "" {
		ext = fmt.Sprintf(`<bpmn:extensionElements><camunda:properties><camunda:property name="boardOwner" value="%s"/></camunda:properties></bpmn:extensionElements>`, o.BoardOwner)
	}
	if o.StartForm != "" {
		start += fmt.Sprintf(` camunda:formRef="%s" camunda:formRefBinding="latest"`, o.StartForm)
	}
	if o.StartKey != "" {
		start += fmt.Sprintf(` camunda:formKey="%s"`, o.StartKey)
	}
	if o.TaskForm != "" {
		task += fmt.Sprintf(` camunda:formRef="%s" camunda:formRefBinding="latest"`, o.TaskForm)
	}
	if o.DocumentRef != "" {
		task += fmt.Sprintf(` ronl:documentRef="%s"`, o.DocumentRef)
	}
	groups := o.Groups
	if groups == "" {
		groups = "caseworker"
	}
	return fmt.Sprintf(`<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" xmlns:ronl="http://ronl.nl/schema/1.0" id="Defs_%[1]s" targetNamespace="http://regelkit.example/test">
  <bpmn:process id="%[1]s" name="Test %[1]s" isExecutable="true" camunda:historyTimeToLive="30">%[2]s
    <bpmn:startEvent id="Start" camunda:initiator="starter"%[3]s><bpmn:outgoing>F1</bpmn:outgoing></bpmn:startEvent>
    <bpmn:sequenceFlow id="F1" sourceRef="Start" targetRef="UserTask"/>
    <bpmn:userTask id="UserTask" name="Review" camunda:candidateGroups="%[5]s"%[4]s><bpmn:incoming>F1</bpmn:incoming><bpmn:outgoing>F2</bpmn:outgoing></bpmn:userTask>
    <bpmn:sequenceFlow id="F2" sourceRef="UserTask" targetRef="End"/>
    <bpmn:endEvent id="End"><bpmn:incoming>F2</bpmn:incoming></bpmn:endEvent>
  </bpmn:process>
</bpmn:definitions>`, key, ext, start, task, groups)
}

const testForm = `{"id": "%s", "type": "default", "schemaVersion": 16, "components": [{"id": "f1", "type": "textfield", "key": "besluit", "label": "Besluit"}]}`

const testDocument = `{"id": "%s", "name": "Besluit", "schemaVersion": 1, "zones": {"body": {"blocks": [{"id": "b1", "type": "variable", "content": "{{besluit}}"}]}}}`

// deployProcess deploys one bundle: the BPMN plus resources (name → content).
func deployProcess(t testing.TB, ta *testApp, key, tenant string, o bpmnOptions, resources map[string]string) {
	t.Helper()
	rs := []engine.Resource{{Name: key + ".bpmn", Data: []byte(testBPMN(key, o))}}
	for name, data := range resources {
		rs = append(rs, engine.Resource{Name: name, Data: []byte(data)})
	}
	if _, err := ta.engine.Deploy(context.Background(), engine.NewDeployment{Name: key, TenantID: tenant, Resources: rs}); err != nil {
		t.Fatalf("deploy %s: %v", key, err)
	}
}

// reviewBundle is the usual test bundle: start form, task form, template.
func reviewBundle(t testing.TB, ta *testApp, key, tenant string) {
	t.Helper()
	deployProcess(t, ta, key, tenant, bpmnOptions{StartForm: key + "-start", TaskForm: key + "-review", DocumentRef: key + "-doc", BoardOwner: "caseworker"},
		map[string]string{key + "-start.form": fmt.Sprintf(testForm, key+"-start"), key + "-review.form": fmt.Sprintf(testForm, key+"-review"),
			key + "-doc.document": fmt.Sprintf(testDocument, key+"-doc")})
}

type started struct {
	ProcessInstanceID string `json:"processInstanceId"`
	BusinessKey       string `json:"businessKey"`
	Status            string `json:"status"`
	StartTime         string `json:"startTime"`
}

func start(t testing.TB, ta *testApp, tok, key, body string) started {
	t.Helper()
	var s started
	ta.c.Post("/v1/process/"+key+"/start", body, bearer(tok)...).Data(t, 201, &s)
	if s.ProcessInstanceID == "" {
		t.Fatalf("start %s: no instance id", key)
	}
	return s
}

func getVars(t testing.TB, ta *testApp, tok, path string) map[string]any {
	t.Helper()
	var vars map[string]any
	ta.c.Get(path, bearer(tok)...).Data(t, 200, &vars)
	return vars
}

// TestProcessStart: the start rows of notes §4.3 and the stamped variables.
func TestProcessStart(t *testing.T) {
	ta := newTestApp(t, map[string]string{"CITIZEN_CROSS_TENANT_PROCESSES": "AmsterdamOnly,TwoTenants"})
	reviewBundle(t, ta, "Shared", "")
	reviewBundle(t, ta, "AmsterdamOnly", "amsterdam")
	reviewBundle(t, ta, "NotListed", "amsterdam")
	reviewBundle(t, ta, "TwoTenants", "amsterdam")
	reviewBundle(t, ta, "TwoTenants", "rotterdam")
	reviewBundle(t, ta, "Mixed", "amsterdam")
	reviewBundle(t, ta, "Mixed", "utrecht")

	cit := ta.token(t, citizen("utrecht", "citizen-1"))
	cw := ta.token(t, caseworker("utrecht"))

	// Untenanted: the caller owns it; the body cannot move it elsewhere.
	s := start(t, ta, cit, "Shared", `{"variables": {"aantal": 3, "municipality": "amsterdam", "originTenantId": "x", "applicantId": "someone-else", "assuranceLevel": "hoog"}}`)
	if s.Status != "active" || !strings.HasPrefix(s.BusinessKey, "utrecht-") || len(s.BusinessKey) < len("utrecht-")+13 || s.StartTime == "" {
		t.Errorf("start data %+v", s)
	}
	vars := getVars(t, ta, cit, "/v1/process/"+s.ProcessInstanceID+"/variables")
	want := map[string]any{"municipality": "utrecht", "originTenantId": "utrecht", "applicantId": "citizen-1", "initiator": "citizen-1",
		"assuranceLevel": "midden", "aantal": float64(3)}
	for k, v := range want {
		if vars[k] != v {
			t.Errorf("variable %s = %v, want %v (all: %v)", k, vars[k], v, vars)
		}
	}
	// A business key sent is kept.
	if s := start(t, ta, cw, "Shared", `{"businessKey": "dossier-42"}`); s.BusinessKey != "dossier-42" {
		t.Errorf("business key %q, want dossier-42", s.BusinessKey)
	}

	// The caller's own deployment wins over another tenant's.
	s = start(t, ta, cw, "Mixed", `{}`)
	inst, err := ta.engine.ProcessInstance(context.Background(), s.ProcessInstanceID)
	if err != nil || inst.TenantID != "utrecht" {
		t.Errorf("Mixed started on tenant %q (%v), want utrecht's deployment", inst.TenantID, err)
	}

	// Another tenant's only deployment: a citizen may start a listed process,
	// which the deploying organisation then owns.
	s = start(t, ta, cit, "AmsterdamOnly", `{}`)
	if !strings.HasPrefix(s.BusinessKey, "amsterdam-") {
		t.Errorf("cross-tenant business key %q names the owner amsterdam", s.BusinessKey)
	}
	vars = getVars(t, ta, cit, "/v1/process/"+s.ProcessInstanceID+"/variables") // the applicant reads it
	if vars["municipality"] != "amsterdam" || vars["originTenantId"] != "utrecht" {
		t.Errorf("cross-tenant labels %v", vars)
	}
	// … but not an unlisted one, and a caseworker never.
	ta.c.Post("/v1/process/NotListed/start", `{}`, bearer(cit)...).ExpectError(t, 403, "TENANT_MISMATCH")
	ta.c.Post("/v1/process/AmsterdamOnly/start", `{}`, bearer(cw)...).ExpectError(t, 403, "TENANT_MISMATCH")
	waitLog(t, ta, "action=process.start.NotListed user_id=citizen-1 tenant_id=utrecht result=error")
	// Several tenants, none the caller's: ambiguous for a listed key.
	resp := ta.c.Post("/v1/process/TwoTenants/start", `{}`, bearer(cit)...)
	resp.ExpectError(t, 409, "AMBIGUOUS_DEPLOYMENT")
	var details struct{ Tenants []string }
	_ = json.Unmarshal(resp.Envelope(t).Error.Details, &details)
	if strings.Join(details.Tenants, ",") != "amsterdam,rotterdam" {
		t.Errorf("details.tenants = %v", details.Tenants)
	}
	ta.c.Post("/v1/process/TwoTenants/start", `{}`, bearer(cw)...).ExpectError(t, 403, "TENANT_MISMATCH")

	msg := ta.c.Post("/v1/process/Nope/start", `{}`, bearer(cw)...).ExpectError(t, 404, "PROCESS_NOT_FOUND")
	if msg != "Process 'Nope' not found" {
		t.Errorf("message %q", msg)
	}
	low := citizen("utrecht", "citizen-2")
	low.LoA = "basis"
	ta.c.Post("/v1/process/Shared/start", `{}`, bearer(ta.token(t, low))...).ExpectError(t, 403, "LOA_INSUFFICIENT")
	ta.c.Post("/v1/process/Shared/start", `{}`, bearer(ta.token(t, machine("operaton-mcp-client")))...).ExpectError(t, 403, "MISSING_TENANT")
	ta.c.Post("/v1/process/Shared/start", `{}`).ExpectError(t, 401, "UNAUTHORIZED")
}

// TestPlainAndWrappedVariables: every write takes plain values and exact
// wrappers; an object that merely resembles a wrapper (unknown type, extra
// key) is plain, and a plain object exactly shaped like a wrapper is read as
// one (the documented edge, notes §4.2).
func TestPlainAndWrappedVariables(t *testing.T) {
	ta := newTestApp(t, nil)
	reviewBundle(t, ta, "Vars", "")
	cw := ta.token(t, caseworker("utrecht"))
	s := start(t, ta, cw, "Vars", `{"variables": {
		"plainInt": 7, "plainBig": 9007199254740993, "plainText": "x", "plainList": [1, 2], "plainNull": null,
		"wrapped": {"value": "2025-12-24", "type": "String"},
		"wrappedLong": {"value": 5, "type": "Long"},
		"wrappedJson": {"value": "{\"a\":1}", "type": "Json"},
		"unknownType": {"value": "x", "type": "string-ish"},
		"extraKey": {"value": "x", "type": "String", "note": 1},
		"edge": {"value": true, "type": "Boolean"}}}`)
	vars, err := ta.engine.ProcessInstanceVariables(context.Background(), s.ProcessInstanceID)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"plainInt": `Integer(7)`, "plainBig": `Long(9007199254740993)`, "plainText": `String("x")`, "plainList": `Json("[1,2]")`,
		"plainNull": `Null(null)`, "wrapped": `String("2025-12-24")`, "wrappedLong": `Long(5)`, "wrappedJson": `Json("{\"a\":1}")`,
		"unknownType": `Json("{\"value\":\"x\",\"type\":\"string-ish\"}")`, "extraKey": `Json("{\"value\":\"x\",\"type\":\"String\",\"note\":1}")`,
		"edge": `Boolean(true)`,
	}
	for name, w := range want {
		if got := vars[name].String(); got != w {
			t.Errorf("%s stored as %s, want %s", name, got, w)
		}
	}
	// Reads unwrap: Json parsed, Null null.
	plain := getVars(t, ta, cw, "/v1/process/"+s.ProcessInstanceID+"/variables")
	if fmt.Sprint(plain["wrappedJson"]) != "map[a:1]" || plain["plainNull"] != nil || fmt.Sprint(plain["plainList"]) != "[1 2]" {
		t.Errorf("plain reads: %v", plain)
	}
	// Completion takes both forms too.
	task := onlyTask(t, ta, s.ProcessInstanceID)
	ta.c.Post("/v1/task/"+task+"/complete", `{"variables": {"besluit": {"value": "toegekend", "type": "String"}, "score": 1.5}}`, bearer(cw)...).Data(t, 200, nil)
	hist := getVars(t, ta, cw, "/v1/process/"+s.ProcessInstanceID+"/historic-variables")
	if hist["besluit"] != "toegekend" || hist["score"] != 1.5 {
		t.Errorf("completed variables %v", hist)
	}
}

// onlyTask returns the id of the one open task of an instance.
func onlyTask(t testing.TB, ta *testApp, instance string) string {
	t.Helper()
	tasks, err := ta.engine.Tasks(context.Background(), engine.TaskQuery{ProcessInstanceID: instance})
	if err != nil || len(tasks) != 1 {
		t.Fatalf("tasks of %s: %v %v", instance, tasks, err)
	}
	return tasks[0].ID
}

// TestProcessReads: status, variables, historic variables, decision
// document, start form and variable hints, with the owner/applicant check.
func TestProcessReads(t *testing.T) {
	ta := newTestApp(t, map[string]string{"CITIZEN_CROSS_TENANT_PROCESSES": "Reads"})
	reviewBundle(t, ta, "Reads", "amsterdam")
	deployProcess(t, ta, "Bare", "", bpmnOptions{}, nil)
	deployProcess(t, ta, "DanglingDoc", "", bpmnOptions{DocumentRef: "missing"}, nil)
	deployProcess(t, ta, "Embedded", "", bpmnOptions{StartKey: "embedded:deployment:start.html", TaskForm: "nope"},
		map[string]string{"start.html": "<form><input name=\"x\"></form>"})

	cit := ta.token(t, citizen("utrecht", "citizen-1"))
	other := ta.token(t, citizen("utrecht", "citizen-2"))
	owner := ta.token(t, caseworker("amsterdam"))
	stranger := ta.token(t, caseworker("utrecht")) // the citizen's own tenant, but not the owner
	s := start(t, ta, cit, "Reads", `{"variables": {"aantal": 2}}`)
	id := s.ProcessInstanceID

	var st map[string]any
	ta.c.Get("/v1/process/"+id+"/status", bearer(owner)...).Data(t, 200, &st)
	if st["processInstanceId"] != id || st["status"] != "active" || st["ended"] != false || st["suspended"] != false ||
		st["businessKey"] != s.BusinessKey || !strings.HasPrefix(fmt.Sprint(st["definitionId"]), "Reads:") {
		t.Errorf("status %v", st)
	}
	ta.c.Get("/v1/process/"+id+"/status", bearer(cit)...).Data(t, 200, nil) // the applicant
	for _, path := range []string{"/status", "/variables", "/historic-variables", "/decision-document"} {
		ta.c.Get("/v1/process/"+id+path, bearer(stranger)...).ExpectError(t, 403, "TENANT_MISMATCH")
		ta.c.Get("/v1/process/"+id+path, bearer(other)...).ExpectError(t, 403, "TENANT_MISMATCH")
	}
	ta.c.Get("/v1/process/nope/status", bearer(owner)...).ExpectError(t, 404, "PROCESS_NOT_FOUND")
	ta.c.Get("/v1/process/nope/variables", bearer(owner)...).ExpectError(t, 404, "PROCESS_NOT_FOUND")
	ta.c.Get("/v1/process/nope/historic-variables", bearer(owner)...).ExpectError(t, 404, "PROCESS_NOT_FOUND")
	ta.c.Get("/v1/process/nope/decision-document", bearer(owner)...).ExpectError(t, 404, "PROCESS_NOT_FOUND")

	// The decision document: the template of the deployment, twice.
	resp := ta.c.Get("/v1/process/"+id+"/decision-document", bearer(cit)...)
	var doc struct {
		Data     map[string]any `json:"data"`
		Template map[string]any `json:"template"`
	}
	resp.Data(t, 200, nil)
	resp.Decode(t, &doc)
	if doc.Data["id"] != "Reads-doc" || doc.Template["id"] != "Reads-doc" || !strings.Contains(string(resp.Body), "{{besluit}}") {
		t.Errorf("decision document %s", resp.Body)
	}
	bare := start(t, ta, owner, "Bare", `{}`)
	ta.c.Get("/v1/process/"+bare.ProcessInstanceID+"/decision-document", bearer(owner)...).ExpectError(t, 404, "DOCUMENT_NOT_FOUND")
	dangling := start(t, ta, owner, "DanglingDoc", `{}`)
	ta.c.Get("/v1/process/"+dangling.ProcessInstanceID+"/decision-document", bearer(owner)...).ExpectError(t, 404, "DOCUMENT_NOT_FOUND")

	// Start forms.
	var form map[string]any
	ta.c.Get("/v1/process/Reads/start-form", bearer(owner)...).Data(t, 200, &form)
	if form["id"] != "Reads-start" || form["components"] == nil {
		t.Errorf("start form %v", form)
	}
	ta.c.Get("/v1/process/Bare/start-form", bearer(owner)...).ExpectError(t, 404, "FORM_NOT_FOUND")
	ta.c.Get("/v1/process/Embedded/start-form", bearer(owner)...).ExpectError(t, 415, "UNSUPPORTED_FORM_TYPE")
	ta.c.Get("/v1/process/Nope/start-form", bearer(owner)...).ExpectError(t, 404, "PROCESS_NOT_FOUND")

	// Variable hints from history, sorted, deduplicated.
	resp = ta.c.Get("/v1/process/Reads/variable-hints", bearer(owner)...)
	var hints struct {
		Data      []variableHint `json:"data"`
		Variables []variableHint `json:"variables"`
	}
	resp.Data(t, 200, nil)
	resp.Decode(t, &hints)
	names := make([]string, 0, len(hints.Data))
	for _, h := range hints.Data {
		names = append(names, h.Name+":"+h.Type)
	}
	if !sort.StringsAreSorted(names) || !strings.Contains(strings.Join(names, " "), "aantal:Integer") ||
		!strings.Contains(strings.Join(names, " "), "municipality:String") || len(hints.Variables) != len(hints.Data) {
		t.Errorf("hints %v", names)
	}
	var none []variableHint
	ta.c.Get("/v1/process/NeverRun/variable-hints", bearer(owner)...).Data(t, 200, &none)
	if none == nil || len(none) != 0 {
		t.Errorf("a never-run process has [] hints, got %v", none)
	}

	// An ended instance: status 404, history still readable.
	task := onlyTask(t, ta, id)
	ta.c.Post("/v1/task/"+task+"/complete", `{"variables": {"besluit": "toegekend"}}`, bearer(owner)...).Data(t, 200, nil)
	ta.c.Get("/v1/process/"+id+"/status", bearer(owner)...).ExpectError(t, 404, "PROCESS_NOT_FOUND")
	hist := getVars(t, ta, cit, "/v1/process/"+id+"/historic-variables")
	if hist["besluit"] != "toegekend" || hist["municipality"] != "amsterdam" || hist["aantal"] != float64(2) {
		t.Errorf("historic variables %v", hist)
	}
	ta.c.Get("/v1/process/"+id+"/decision-document", bearer(cit)...).Data(t, 200, nil)
}

// TestProcessDelete: owner only (the applicant reads but cannot cancel),
// checked before the engine is touched.
func TestProcessDelete(t *testing.T) {
	ta := newTestApp(t, map[string]string{"CITIZEN_CROSS_TENANT_PROCESSES": "Cancel"})
	reviewBundle(t, ta, "Cancel", "amsterdam")
	cit := ta.token(t, citizen("utrecht", "citizen-1"))
	owner := ta.token(t, caseworker("amsterdam"))
	s := start(t, ta, cit, "Cancel", `{}`)
	id := s.ProcessInstanceID

	ta.c.Do("DELETE", "/v1/process/"+id, nil, bearer(cit)...).ExpectError(t, 403, "TENANT_MISMATCH")
	ta.c.Do("DELETE", "/v1/process/"+id, nil, bearer(ta.token(t, caseworker("utrecht")))...).ExpectError(t, 403, "TENANT_MISMATCH")
	ta.c.Do("DELETE", "/v1/process/"+id, `{"reason": 5}`, bearer(owner)...).ExpectError(t, 400, "VALIDATION_ERROR")
	ta.c.Get("/v1/process/"+id+"/status", bearer(owner)...).Data(t, 200, nil) // still running

	var data map[string]string
	ta.c.Do("DELETE", "/v1/process/"+id, `{"reason": "Ingetrokken door aanvrager"}`, bearer(owner)...).Data(t, 200, &data)
	if data["message"] != "Process instance cancelled" || data["processInstanceId"] != id {
		t.Errorf("cancel data %v", data)
	}
	h, err := ta.engine.HistoricProcessInstance(context.Background(), id)
	if err != nil || h.State != engine.StateExternallyTerminated || h.DeleteReason != "Ingetrokken door aanvrager" {
		t.Errorf("history after cancel: %+v %v", h, err)
	}
	ta.c.Do("DELETE", "/v1/process/"+id, nil, bearer(owner)...).ExpectError(t, 404, "PROCESS_NOT_FOUND")
	// The default reason.
	s = start(t, ta, cit, "Cancel", `{}`)
	ta.c.Do("DELETE", "/v1/process/"+s.ProcessInstanceID, nil, bearer(owner)...).Data(t, 200, nil)
	if h, _ := ta.engine.HistoricProcessInstance(context.Background(), s.ProcessInstanceID); h.DeleteReason != "Cancelled by user" {
		t.Errorf("default reason %q", h.DeleteReason)
	}
}

// TestProcessHistory: applicantId required; a citizen reads only their own
// (of every tenant), a caseworker only their municipality's; newest first;
// the route is not shadowed by /{id} routes.
func TestProcessHistory(t *testing.T) {
	ta := newTestApp(t, map[string]string{"CITIZEN_CROSS_TENANT_PROCESSES": "Elsewhere"})
	reviewBundle(t, ta, "Hist", "")
	reviewBundle(t, ta, "Elsewhere", "amsterdam")
	cit := ta.token(t, citizen("utrecht", "citizen-1"))
	cw := ta.token(t, caseworker("utrecht"))
	first := start(t, ta, cit, "Hist", `{}`)
	time.Sleep(5 * time.Millisecond) // start times differ, so newest-first is one order
	second := start(t, ta, cit, "Elsewhere", `{}`)
	time.Sleep(5 * time.Millisecond)
	third := start(t, ta, cit, "Hist", `{}`)
	start(t, ta, ta.token(t, citizen("utrecht", "citizen-2")), "Hist", `{}`)

	var list []map[string]any
	ta.c.Get("/v1/process/history?applicantId=citizen-1", bearer(cit)...).Data(t, 200, &list)
	if len(list) != 3 || list[0]["id"] != third.ProcessInstanceID || list[1]["id"] != second.ProcessInstanceID || list[2]["id"] != first.ProcessInstanceID {
		t.Fatalf("citizen history %v", list)
	}
	if list[0]["state"] != "ACTIVE" || list[0]["processDefinitionKey"] != "Hist" || list[0]["businessKey"] != third.BusinessKey || list[0]["startTime"] == nil {
		t.Errorf("historic instance %v", list[0])
	}
	ta.c.Get("/v1/process/history?applicantId=citizen-1", bearer(cw)...).Data(t, 200, &list)
	if len(list) != 2 {
		t.Errorf("utrecht's caseworker sees %d instances, want the 2 utrecht owns", len(list))
	}
	ta.c.Get("/v1/process/history?applicantId=citizen-1", bearer(ta.token(t, caseworker("rotterdam")))...).Data(t, 200, &list)
	if len(list) != 0 {
		t.Errorf("rotterdam sees %v", list)
	}
	// Not shadowed: a history failure, never a 404 or 405 of an /{id} route.
	ta.c.Get("/v1/process/history", bearer(cit)...).ExpectError(t, 400, "VALIDATION_ERROR")
	msg := ta.c.Get("/v1/process/history?applicantId=citizen-2", bearer(cit)...).ExpectError(t, 403, "FORBIDDEN")
	if msg != "Citizens may only request their own history" {
		t.Errorf("message %q", msg)
	}
	hr := ta.token(t, auth.TokenClaims{Subject: "hr-1", Municipality: "utrecht", Roles: []string{"hr-medewerker"}, LoA: "hoog"})
	ta.c.Get("/v1/process/history?applicantId=citizen-1", bearer(hr)...).ExpectError(t, 403, "FORBIDDEN")
}

// TestProcessAuditRows: the named audit rows of the process, task and
// machine routes, with their details, in the audit database.
func TestProcessAuditRows(t *testing.T) {
	db := pgtest.New(t)
	ta := newTestApp(t, map[string]string{"DATABASE_URL": db.URL})
	reviewBundle(t, ta, "Audited", "")
	reviewBundle(t, ta, "Foreign", "amsterdam")
	admin := ta.token(t, auth.TokenClaims{Subject: "admin-1", Municipality: "utrecht", Roles: []string{"admin"}, LoA: "hoog"})
	cit := ta.token(t, citizen("utrecht", "citizen-1"))
	cw := ta.token(t, caseworker("utrecht"))
	m2m := ta.token(t, machine("operaton-mcp-client"))

	s := start(t, ta, cit, "Audited", `{"businessKey": "bk-audit"}`)
	ta.c.Post("/v1/process/Foreign/start", `{}`, bearer(cit)...).ExpectError(t, 403, "TENANT_MISMATCH")
	listTasks(t, ta, cw)
	task := onlyTask(t, ta, s.ProcessInstanceID)
	ta.c.Post("/v1/task/"+task+"/claim", nil, bearer(cw)...).Data(t, 200, nil)
	ta.c.Post("/v1/task/"+task+"/complete", `{"variables": {"besluit": "toegekend"}}`, bearer(cw)...).Data(t, 200, nil)
	ta.c.Get("/v1/process/history?applicantId=citizen-1", bearer(cit)...).Data(t, 200, nil)
	second := start(t, ta, cw, "Audited", `{}`)
	ta.c.Do("DELETE", "/v1/process/"+second.ProcessInstanceID, `{"reason": "dubbel"}`, bearer(cw)...).Data(t, 200, nil)
	ta.c.Post("/v1/m2m/process/Audited/start", `{"variables": {"municipality": "utrecht"}}`, bearer(m2m)...).ExpectError(t, 400, "RESERVED_VARIABLE")

	page := waitAudit(t, ta, admin, 18) // 9 requests, each with its named row
	for _, want := range []struct{ action, result, resource, details string }{
		{"process.start.Audited", "success", s.ProcessInstanceID, `{"businessKey": "bk-audit", "processInstanceId": "` + s.ProcessInstanceID + `"}`},
		{"process.start.Foreign", "error", "Foreign", `{"reason": "TENANT_MISMATCH"}`},
		{"task.list", "success", "", `{"count": 1}`},
		{"task.claim", "success", task, `{"taskId": "` + task + `"}`},
		{"task.complete", "success", task, `{"taskId": "` + task + `", "variableCount": 1}`},
		{"process.history", "success", "", `{"count": 1, "tenantId": "utrecht", "applicantId": "citizen-1"}`},
		{"process.delete", "success", second.ProcessInstanceID, `{"reason": "dubbel", "processInstanceId": "` + second.ProcessInstanceID + `"}`},
		{"process.start.m2m.Audited", "error", "Audited", `{"reason": "RESERVED_VARIABLE"}`},
	} {
		var r auditItem
		resource := ""
		for _, row := range find(page, want.action) {
			if row.ResourceID != nil && *row.ResourceID == want.resource || row.ResourceID == nil && want.resource == "" {
				r, resource = row, want.resource
			}
		}
		if r.Action == "" {
			t.Errorf("%s: no row on resource %q", want.action, want.resource)
			continue
		}
		if r.Result != want.result || resource != want.resource || !jsonEqual(t, r.Details, want.details) {
			t.Errorf("%s: result %s resource %q details %s, want %s %q %s", want.action, r.Result, resource, r.Details, want.result, want.resource, want.details)
		}
	}
}

func jsonEqual(t *testing.T, got json.RawMessage, want string) bool {
	t.Helper()
	var a, b any
	if json.Unmarshal(got, &a) != nil || json.Unmarshal([]byte(want), &b) != nil {
		return false
	}
	return fmt.Sprint(a) == fmt.Sprint(b)
}
