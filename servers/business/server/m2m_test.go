package server

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/servers/internal/auth"
)

// m2mPaths are the 18 machine routes with a request each.
var m2mPaths = []struct{ method, path string }{
	{"GET", "/v1/m2m/process"}, {"POST", "/v1/m2m/process/K/start"}, {"GET", "/v1/m2m/process/history"},
	{"POST", "/v1/m2m/process/history"}, {"GET", "/v1/m2m/process/x/status"}, {"GET", "/v1/m2m/process/x/variables"},
	{"GET", "/v1/m2m/process/x/historic-variables"}, {"GET", "/v1/m2m/process/x/decision-document"},
	{"GET", "/v1/m2m/process/K/start-form"}, {"GET", "/v1/m2m/process/K/variable-hints"}, {"DELETE", "/v1/m2m/process/x"},
	{"GET", "/v1/m2m/task"}, {"GET", "/v1/m2m/task/x"}, {"GET", "/v1/m2m/task/x/variables"}, {"GET", "/v1/m2m/task/x/form-schema"},
	{"POST", "/v1/m2m/task/x/claim"}, {"POST", "/v1/m2m/task/x/complete"},
	{"POST", "/v1/m2m/decision/K/evaluate"}, {"GET", "/v1/m2m/decision/K"},
}

// TestM2MGuards: only allow-listed clients pass, human tokens included in
// the refusal; a switched-off operation answers 403 OPERATION_NOT_PERMITTED.
func TestM2MGuards(t *testing.T) {
	saved := auth.M2MAllowedOperations
	auth.M2MAllowedOperations = slices.DeleteFunc(slices.Clone(saved), func(op string) bool { return op == "task.claim" })
	t.Cleanup(func() { auth.M2MAllowedOperations = saved })
	ta := newTestApp(t, nil)
	unlisted := ta.token(t, machine("some-other-client"))
	human := ta.token(t, caseworker("utrecht"))
	for _, p := range m2mPaths {
		ta.c.Do(p.method, p.path, nil, bearer(unlisted)...).ExpectError(t, 403, "M2M_CLIENT_NOT_ALLOWED")
		ta.c.Do(p.method, p.path, nil, bearer(human)...).ExpectError(t, 403, "M2M_CLIENT_NOT_ALLOWED")
		ta.c.Do(p.method, p.path, nil).ExpectError(t, 401, "UNAUTHORIZED")
	}
	msg := ta.c.Post("/v1/m2m/task/x/claim", nil, bearer(ta.token(t, machine("operaton-mcp-client")))...).ExpectError(t, 403, "OPERATION_NOT_PERMITTED")
	if msg != "This operation is not available on the M2M API." {
		t.Errorf("message %q", msg)
	}
}

// TestM2MProcesses: the process twins and their differences (notes §4.8).
func TestM2MProcesses(t *testing.T) {
	ta := newTestApp(t, nil)
	reviewBundle(t, ta, "Open", "")
	reviewBundle(t, ta, "Single", "amsterdam")
	reviewBundle(t, ta, "Double", "amsterdam")
	reviewBundle(t, ta, "Double", "rotterdam")
	m2m := ta.token(t, machine("operaton-mcp-client"))

	var st map[string]any
	ta.c.Post("/v1/m2m/process/Open/start", `{"variables": {"applicantId": "citizen-9", "x": 1}}`, bearer(m2m)...).Data(t, 200, &st)
	open := st["processInstanceId"].(string)
	if st["businessKey"] != nil {
		t.Errorf("no business key is minted on /v1/m2m: %v", st)
	}
	vars := getVars(t, ta, m2m, "/v1/m2m/process/"+open+"/variables")
	if vars["municipality"] != "m2m" || vars["applicantId"] != "citizen-9" || vars["originTenantId"] != nil {
		t.Errorf("m2m start variables %v", vars)
	}
	ta.c.Post("/v1/m2m/process/Single/start", `{"businessKey": "bk-1"}`, bearer(m2m)...).Data(t, 200, &st)
	if st["businessKey"] != "bk-1" {
		t.Errorf("business key %v", st)
	}
	single := st["processInstanceId"].(string)
	if v := getVars(t, ta, m2m, "/v1/m2m/process/"+single+"/variables"); v["municipality"] != "amsterdam" {
		t.Errorf("the only tenant owns it: %v", v)
	}
	ta.c.Post("/v1/m2m/process/Double/start", `{}`, bearer(m2m)...).ExpectError(t, 409, "AMBIGUOUS_DEPLOYMENT")
	ta.c.Post("/v1/m2m/process/Open/start", `{"variables": {"municipality": "utrecht"}}`, bearer(m2m)...).ExpectError(t, 400, "RESERVED_VARIABLE")
	ta.c.Post("/v1/m2m/process/Open/start", `{"variables": {"originTenantId": {"value": "utrecht", "type": "String"}}}`, bearer(m2m)...).ExpectError(t, 400, "RESERVED_VARIABLE")
	ta.c.Post("/v1/m2m/process/Nope/start", `{}`, bearer(m2m)...).ExpectError(t, 404, "PROCESS_NOT_FOUND")

	// List: the engine's query, every organisation, {id, …}.
	var list []map[string]any
	ta.c.Get("/v1/m2m/process?processDefinitionKey=Single", bearer(m2m)...).Data(t, 200, &list)
	if len(list) != 1 || list[0]["id"] != single || list[0]["definitionKey"] != "Single" || list[0]["tenantId"] != "amsterdam" || list[0]["links"] == nil {
		t.Errorf("list %v", list)
	}
	ta.c.Get("/v1/m2m/process?maxResults=abc", bearer(m2m)...).ExpectError(t, 400, "VALIDATION_ERROR")

	// History: query string, GET body, POST alias.
	ta.c.Get("/v1/m2m/process/history?processDefinitionKey=Open", bearer(m2m)...).Data(t, 200, &list)
	if len(list) != 1 || list[0]["id"] != open {
		t.Errorf("history by query %v", list)
	}
	for _, method := range []string{"GET", "POST"} {
		ta.c.Do(method, "/v1/m2m/process/history", `{"variables": [{"name": "applicantId", "operator": "eq", "value": "citizen-9"}]}`, bearer(m2m)...).Data(t, 200, &list)
		if len(list) != 1 || list[0]["id"] != open {
			t.Errorf("%s history by body %v", method, list)
		}
	}
	ta.c.Post("/v1/m2m/process/history", `{"variables": `, bearer(m2m)...).ExpectError(t, 400, "MALFORMED_BODY")

	ta.c.Get("/v1/m2m/process/"+single+"/status", bearer(m2m)...).Data(t, 200, &st)
	if st["status"] != "active" || st["businessKey"] != "bk-1" {
		t.Errorf("status %v", st)
	}
	ta.c.Get("/v1/m2m/process/nope/status", bearer(m2m)...).ExpectError(t, 404, "PROCESS_NOT_FOUND")
	ta.c.Get("/v1/m2m/process/nope/variables", bearer(m2m)...).ExpectError(t, 404, "PROCESS_NOT_FOUND")
	if v := getVars(t, ta, m2m, "/v1/m2m/process/nope/historic-variables"); len(v) != 0 {
		t.Errorf("unknown id: {} (upstream), got %v", v)
	}
	if v := getVars(t, ta, m2m, "/v1/m2m/process/"+single+"/historic-variables"); v["municipality"] != "amsterdam" {
		t.Errorf("historic variables %v", v)
	}
	var doc map[string]any
	ta.c.Get("/v1/m2m/process/"+single+"/decision-document", bearer(m2m)...).Data(t, 200, &doc)
	if doc["id"] != "Single-doc" {
		t.Errorf("document %v", doc)
	}
	ta.c.Get("/v1/m2m/process/nope/decision-document", bearer(m2m)...).ExpectError(t, 404, "DOCUMENT_NOT_FOUND")
	var form map[string]any
	ta.c.Get("/v1/m2m/process/Single/start-form", bearer(m2m)...).Data(t, 200, &form)
	if form["id"] != "Single-start" {
		t.Errorf("start form %v", form)
	}
	var hints []variableHint
	ta.c.Get("/v1/m2m/process/Open/variable-hints", bearer(m2m)...).Data(t, 200, &hints)
	if len(hints) == 0 || hints[0].Name > hints[len(hints)-1].Name {
		t.Errorf("hints %v", hints)
	}

	// Delete: an unknown or ended instance is a failed delete.
	var del map[string]string
	ta.c.Do("DELETE", "/v1/m2m/process/"+single, `{"reason": "test"}`, bearer(m2m)...).Data(t, 200, &del)
	if del["message"] != "Process instance cancelled" || del["processInstanceId"] != single {
		t.Errorf("delete %v", del)
	}
	ta.c.Do("DELETE", "/v1/m2m/process/"+single, nil, bearer(m2m)...).ExpectError(t, 500, "PROCESS_DELETE_FAILED")
	ta.c.Do("DELETE", "/v1/m2m/process/nope", nil, bearer(m2m)...).ExpectError(t, 500, "PROCESS_DELETE_FAILED")
}

// TestM2MTasks: the task twins, without tenant or group filters.
func TestM2MTasks(t *testing.T) {
	ta := newTestApp(t, nil)
	reviewBundle(t, ta, "Work", "")
	deployProcess(t, ta, "Hr", "", bpmnOptions{Groups: "hr-medewerker"}, nil)
	m2m := ta.token(t, machine("operaton-mcp-client"))
	a := start(t, ta, ta.token(t, caseworker("utrecht")), "Work", `{}`)
	start(t, ta, ta.token(t, caseworker("amsterdam")), "Hr", `{}`)

	var list []taskItem
	ta.c.Get("/v1/m2m/task", bearer(m2m)...).Data(t, 200, &list)
	if len(list) != 2 {
		t.Errorf("every open task of every organisation: %+v", list)
	}
	ta.c.Get("/v1/m2m/task?processInstanceId="+a.ProcessInstanceID, bearer(m2m)...).Data(t, 200, &list)
	if len(list) != 1 || list[0].ProcessDefinitionKey != "Work" {
		t.Fatalf("filtered %+v", list)
	}
	id := list[0].ID
	ta.c.Get("/v1/m2m/task?sortOrder=sideways", bearer(m2m)...).ExpectError(t, 400, "VALIDATION_ERROR")
	var one taskItem
	ta.c.Get("/v1/m2m/task/"+id, bearer(m2m)...).Data(t, 200, &one)
	if one.ID != id {
		t.Errorf("task %+v", one)
	}
	ta.c.Get("/v1/m2m/task/nope", bearer(m2m)...).ExpectError(t, 404, "TASK_NOT_FOUND")
	if v := getVars(t, ta, m2m, "/v1/m2m/task/"+id+"/variables"); v["municipality"] != "utrecht" {
		t.Errorf("variables %v", v)
	}
	ta.c.Get("/v1/m2m/task/nope/variables", bearer(m2m)...).ExpectError(t, 404, "TASK_NOT_FOUND")
	var form map[string]any
	ta.c.Get("/v1/m2m/task/"+id+"/form-schema", bearer(m2m)...).Data(t, 200, &form)
	if form["id"] != "Work-review" {
		t.Errorf("form %v", form)
	}
	ta.c.Get("/v1/m2m/task/nope/form-schema", bearer(m2m)...).ExpectError(t, 404, "TASK_NOT_FOUND")

	var claimed map[string]any
	ta.c.Post("/v1/m2m/task/"+id+"/claim", `{"userId": "cw-utrecht"}`, bearer(m2m)...).Data(t, 200, &claimed)
	if claimed["taskId"] != id || claimed["claimed"] != true {
		t.Errorf("claim %v", claimed)
	}
	if task, _ := ta.engine.Task(context.Background(), id); task.Assignee != "cw-utrecht" {
		t.Errorf("assignee %q", task.Assignee)
	}
	ta.c.Post("/v1/m2m/task/"+id+"/claim", `{"userId": "cw-utrecht"}`, bearer(m2m)...).Data(t, 200, nil)
	ta.c.Post("/v1/m2m/task/"+id+"/claim", nil, bearer(m2m)...).ExpectError(t, 500, "TASK_CLAIM_FAILED") // sub is another user
	ta.c.Post("/v1/m2m/task/"+id+"/claim", `{"userId": 7}`, bearer(m2m)...).ExpectError(t, 400, "VALIDATION_ERROR")

	for _, name := range reservedVariables {
		resp := ta.c.Post("/v1/m2m/task/"+id+"/complete", `{"variables": {"`+name+`": "x"}}`, bearer(m2m)...)
		if msg := resp.ExpectError(t, 400, "RESERVED_VARIABLE"); !strings.Contains(msg, name) {
			t.Errorf("message %q names %s", msg, name)
		}
	}
	var done map[string]any
	ta.c.Post("/v1/m2m/task/"+id+"/complete", `{"variables": {"besluit": {"value": "toegekend", "type": "String"}}}`, bearer(m2m)...).Data(t, 200, &done)
	if done["taskId"] != id || done["completed"] != true {
		t.Errorf("complete %v", done)
	}
	ta.c.Post("/v1/m2m/task/"+id+"/complete", `{}`, bearer(m2m)...).ExpectError(t, 500, "TASK_COMPLETE_FAILED")
}
