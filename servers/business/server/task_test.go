package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/servers/internal/auth"
)

type taskItem struct {
	ID                   string  `json:"id"`
	Name                 string  `json:"name"`
	Assignee             *string `json:"assignee"`
	Created              string  `json:"created"`
	ProcessDefinitionKey string  `json:"processDefinitionKey"`
	ProcessDefinitionID  string  `json:"processDefinitionId"`
	ProcessInstanceID    string  `json:"processInstanceId"`
	TaskDefinitionKey    string  `json:"taskDefinitionKey"`
}

func listTasks(t testing.TB, ta *testApp, tok string) []taskItem {
	t.Helper()
	var list []taskItem
	ta.c.Get("/v1/task", bearer(tok)...).Data(t, 200, &list)
	return list
}

// TestTaskRoutes: list (tenant AND group), one, variables, form, claim,
// complete and history, with the owner checked before every write.
func TestTaskRoutes(t *testing.T) {
	ta := newTestApp(t, nil)
	reviewBundle(t, ta, "Review", "")
	deployProcess(t, ta, "HROnly", "", bpmnOptions{Groups: "hr-medewerker"}, nil)
	deployProcess(t, ta, "Bare", "", bpmnOptions{}, nil)
	utrecht, amsterdam := ta.token(t, caseworker("utrecht")), ta.token(t, caseworker("amsterdam"))
	colleague := ta.token(t, auth.TokenClaims{Subject: "cw-utrecht-2", Municipality: "utrecht", Roles: []string{"caseworker"}, LoA: "hoog"})

	first := start(t, ta, utrecht, "Review", `{}`)
	time.Sleep(5 * time.Millisecond)
	second := start(t, ta, utrecht, "Review", `{}`)
	start(t, ta, amsterdam, "Review", `{}`)
	start(t, ta, utrecht, "HROnly", `{}`)
	time.Sleep(5 * time.Millisecond)
	bare := start(t, ta, utrecht, "Bare", `{}`)

	list := listTasks(t, ta, utrecht)
	if len(list) != 3 || list[0].ProcessInstanceID != bare.ProcessInstanceID || list[1].ProcessInstanceID != second.ProcessInstanceID ||
		list[2].ProcessInstanceID != first.ProcessInstanceID {
		t.Fatalf("utrecht's tasks, newest first, without the hr-medewerker task: %+v", list)
	}
	if list[1].ProcessDefinitionKey != "Review" || list[1].Name != "Review" || list[1].Assignee != nil || list[1].TaskDefinitionKey != "UserTask" || list[1].Created == "" {
		t.Errorf("task %+v", list[1])
	}
	if got := listTasks(t, ta, amsterdam); len(got) != 1 {
		t.Errorf("amsterdam sees %d tasks, want its own one", len(got))
	}
	ta.c.Get("/v1/task", bearer(ta.token(t, machine("operaton-mcp-client")))...).ExpectError(t, 403, "MISSING_TENANT")
	ta.c.Get("/v1/task", bearer(ta.token(t, citizen("utrecht", "c-1")))...).ExpectError(t, 403, "FORBIDDEN")

	id := list[1].ID
	var one taskItem
	ta.c.Get("/v1/task/"+id, bearer(utrecht)...).Data(t, 200, &one)
	if one.ID != id || one.ProcessDefinitionKey != "Review" {
		t.Errorf("one task %+v", one)
	}
	vars := getVars(t, ta, utrecht, "/v1/task/"+id+"/variables")
	if vars["municipality"] != "utrecht" || vars["applicantId"] != "cw-utrecht" {
		t.Errorf("task variables %v", vars)
	}
	var form map[string]any
	ta.c.Get("/v1/task/"+id+"/form-schema", bearer(utrecht)...).Data(t, 200, &form)
	if form["id"] != "Review-review" {
		t.Errorf("form %v", form)
	}
	ta.c.Get("/v1/task/"+list[0].ID+"/form-schema", bearer(utrecht)...).ExpectError(t, 404, "FORM_NOT_FOUND")
	for _, path := range []string{"", "/variables", "/form-schema"} {
		ta.c.Get("/v1/task/"+id+path, bearer(amsterdam)...).ExpectError(t, 403, "TENANT_MISMATCH")
		ta.c.Get("/v1/task/nope"+path, bearer(utrecht)...).ExpectError(t, 404, "TASK_NOT_FOUND")
	}

	// Claim: another tenant is refused before the engine is written to.
	ta.c.Post("/v1/task/"+id+"/claim", nil, bearer(amsterdam)...).ExpectError(t, 403, "TENANT_MISMATCH")
	if task, _ := ta.engine.Task(context.Background(), id); task.Assignee != "" {
		t.Fatalf("a refused claim assigned the task to %q", task.Assignee)
	}
	var claimed map[string]string
	ta.c.Post("/v1/task/"+id+"/claim", `{"userId": "ignored"}`, bearer(utrecht)...).Data(t, 200, &claimed)
	if claimed["taskId"] != id || claimed["assignee"] != "cw-utrecht" {
		t.Errorf("claim %v", claimed)
	}
	ta.c.Post("/v1/task/"+id+"/claim", nil, bearer(utrecht)...).Data(t, 200, nil) // the same user again
	resp := ta.c.Post("/v1/task/"+id+"/claim", nil, bearer(colleague)...)
	resp.ExpectError(t, 500, "TASK_CLAIM_FAILED")
	if !strings.Contains(string(resp.Envelope(t).Error.Details), `"engine"`) {
		t.Errorf("the engine's message belongs in details.engine: %s", resp.Body)
	}
	list = listTasks(t, ta, utrecht)
	if len(list) != 3 || list[1].Assignee == nil || *list[1].Assignee != "cw-utrecht" {
		t.Errorf("a claimed task stays listed with its assignee: %+v", list)
	}
	ta.c.Post("/v1/task/nope/claim", nil, bearer(utrecht)...).ExpectError(t, 404, "TASK_NOT_FOUND")

	// Complete: reserved names, other tenants and bad bodies write nothing.
	resp = ta.c.Post("/v1/task/"+id+"/complete", `{"variables": {"municipality": "amsterdam", "edocsAuthor": "x", "ok": 1}}`, bearer(utrecht)...)
	resp.ExpectError(t, 400, "RESERVED_VARIABLE")
	var details struct{ Reserved []string }
	_ = json.Unmarshal(resp.Envelope(t).Error.Details, &details)
	if strings.Join(details.Reserved, ",") != "municipality,edocsAuthor" {
		t.Errorf("details.reserved = %v", details.Reserved)
	}
	ta.c.Post("/v1/task/"+id+"/complete", `{"variables": {"besluit": "x"}}`, bearer(amsterdam)...).ExpectError(t, 403, "TENANT_MISMATCH")
	ta.c.Post("/v1/task/"+id+"/complete", `{"variables": [1]}`, bearer(utrecht)...).ExpectError(t, 400, "VALIDATION_ERROR")
	ta.c.Post("/v1/task/"+id+"/complete", `{"variables": {"besluit": `, bearer(utrecht)...).ExpectError(t, 400, "MALFORMED_BODY")
	if _, err := ta.engine.Task(context.Background(), id); err != nil {
		t.Fatalf("a refused completion completed the task: %v", err)
	}
	var done map[string]string
	ta.c.Post("/v1/task/"+id+"/complete", `{"variables": {"besluit": "toegekend"}}`, bearer(utrecht)...).Data(t, 200, &done)
	if done["taskId"] != id || done["status"] != "completed" {
		t.Errorf("complete %v", done)
	}
	ta.c.Post("/v1/task/"+id+"/complete", `{}`, bearer(utrecht)...).ExpectError(t, 404, "TASK_NOT_FOUND")

	// History: the completed task with businessKey and boardOwner; the
	// route is not shadowed by /{id}.
	var hist []map[string]any
	ta.c.Get("/v1/task/history", bearer(utrecht)...).Data(t, 200, &hist)
	if len(hist) != 1 || hist[0]["id"] != id || hist[0]["businessKey"] != second.BusinessKey || hist[0]["boardOwner"] != "caseworker" ||
		hist[0]["endTime"] == nil || hist[0]["processDefinitionKey"] != "Review" {
		t.Errorf("task history %v", hist)
	}
	ta.c.Get("/v1/task/history", bearer(amsterdam)...).Data(t, 200, &hist)
	if len(hist) != 0 {
		t.Errorf("amsterdam's history %v", hist)
	}
	// An untagged process has boardOwner null.
	bareTask := onlyTask(t, ta, bare.ProcessInstanceID)
	time.Sleep(5 * time.Millisecond) // end times differ
	ta.c.Post("/v1/task/"+bareTask+"/complete", `{}`, bearer(utrecht)...).Data(t, 200, nil)
	ta.c.Get("/v1/task/history", bearer(utrecht)...).Data(t, 200, &hist)
	if len(hist) != 2 || hist[0]["id"] != bareTask || hist[0]["boardOwner"] != nil {
		t.Errorf("history, newest end first, untagged boardOwner null: %v", hist)
	}
}

// TestTaskHistoryBound: at most 200 rows, newest end first.
func TestTaskHistoryBound(t *testing.T) {
	ta := newTestApp(t, nil)
	reviewBundle(t, ta, "Many", "")
	ctx := context.Background()
	var last string
	for i := range 205 {
		inst, err := ta.engine.StartProcess(ctx, engine.StartProcess{Key: "Many", BusinessKey: fmt.Sprint("bk-", i),
			Variables: engine.Variables{"municipality": engine.String("utrecht")}})
		if err != nil {
			t.Fatal(err)
		}
		last = onlyTask(t, ta, inst.ID)
		time.Sleep(time.Millisecond) // end times differ, so newest-first is one order
		if err := ta.engine.CompleteTask(ctx, last, nil); err != nil {
			t.Fatal(err)
		}
	}
	var hist []map[string]any
	ta.c.Get("/v1/task/history", bearer(ta.token(t, caseworker("utrecht")))...).Data(t, 200, &hist)
	if len(hist) != 200 || hist[0]["id"] != last || hist[0]["businessKey"] != "bk-204" {
		t.Errorf("history: %d rows, first %v", len(hist), hist[0])
	}
}

// TestBoardOwnerCacheBound: the cache never holds more than its bound and
// answers from the BPMN of each definition.
func TestBoardOwnerCacheBound(t *testing.T) {
	ta := newTestApp(t, nil)
	ctx := context.Background()
	c := newBoardOwnerCache(2)
	for i, owner := range []string{"infra-board", "caseworker", "", "caseworker"} {
		key := fmt.Sprint("Owned", i)
		deployProcess(t, ta, key, "", bpmnOptions{BoardOwner: owner}, nil)
		def, err := ta.engine.LatestProcessDefinition(ctx, key, "")
		if err != nil {
			t.Fatal(err)
		}
		if got := c.get(ctx, ta.engine, def.ID, key); got != owner {
			t.Errorf("%s: boardOwner %q, want %q", key, got, owner)
		}
		if got := c.get(ctx, ta.engine, def.ID, key); got != owner {
			t.Errorf("%s cached: boardOwner %q, want %q", key, got, owner)
		}
		if c.len() > 2 {
			t.Fatalf("cache holds %d entries, bound 2", c.len())
		}
	}
}

// benchProcesses deploys the one-task process Bench on a bench server's
// engine.
func benchProcesses(b *testing.B) (*app, string, string) {
	a, srv, tok := benchServer(b)
	rs := []engine.Resource{{Name: "Bench.bpmn", Data: []byte(testBPMN("Bench", bpmnOptions{}))}}
	if _, err := a.engine.Deploy(context.Background(), engine.NewDeployment{Name: "Bench", Resources: rs}); err != nil {
		b.Fatal(err)
	}
	return a, srv.URL, tok
}

func benchStart(b *testing.B, a *app, tenant string) {
	if _, err := a.engine.StartProcess(context.Background(), engine.StartProcess{Key: "Bench",
		Variables: engine.Variables{"municipality": engine.String(tenant)}}); err != nil {
		b.Fatal(err)
	}
}

func benchDo(b *testing.B, method, url, token string) {
	req, _ := http.NewRequest(method, url, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		b.Fatalf("%s %s: %d", method, url, resp.StatusCode)
	}
}

// BenchmarkTaskList100k: GET /v1/task of one municipality (100 tasks)
// among 100,000 open tasks of 1,000 municipalities, over HTTP. Target:
// under 100 ms per listing.
func BenchmarkTaskList100k(b *testing.B) {
	a, url, tok := benchProcesses(b)
	for i := range 100_000 {
		tenant := fmt.Sprintf("gemeente-%03d", i%1000)
		if i%1000 == 0 {
			tenant = "utrecht"
		}
		benchStart(b, a, tenant)
	}
	for b.Loop() {
		benchDo(b, "GET", url+"/v1/task", tok)
	}
}

// BenchmarkClaimComplete: POST claim then POST complete of one task each,
// over HTTP, in memory. Target: at least 1,000 pairs per second.
func BenchmarkClaimComplete(b *testing.B) {
	a, url, tok := benchProcesses(b)
	ctx := context.Background()
	var open []string
	for b.Loop() {
		if len(open) == 0 {
			b.StopTimer()
			for range 1000 {
				benchStart(b, a, "utrecht")
			}
			tasks, err := a.engine.Tasks(ctx, engine.TaskQuery{ProcessDefinitionKey: "Bench", Unassigned: true})
			if err != nil {
				b.Fatal(err)
			}
			for _, t := range tasks {
				open = append(open, t.ID)
			}
			b.StartTimer()
		}
		id := open[len(open)-1]
		open = open[:len(open)-1]
		benchDo(b, "POST", url+"/v1/task/"+id+"/claim", tok)
		benchDo(b, "POST", url+"/v1/task/"+id+"/complete", tok)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pairs/s")
}

// TestTaskListBound: a listing holds at most 1000 tasks, on /v1 and on
// /v1/m2m; maxResults and firstResult page below that.
func TestTaskListBound(t *testing.T) {
	ta := newTestApp(t, nil)
	deployProcess(t, ta, "Bulk", "", bpmnOptions{}, nil)
	ctx := context.Background()
	for range 1005 {
		if _, err := ta.engine.StartProcess(ctx, engine.StartProcess{Key: "Bulk", Variables: engine.Variables{"municipality": engine.String("utrecht")}}); err != nil {
			t.Fatal(err)
		}
	}
	cw := ta.token(t, caseworker("utrecht"))
	if got := listTasks(t, ta, cw); len(got) != 1000 {
		t.Errorf("/v1/task: %d tasks, want the bound 1000", len(got))
	}
	var page []taskItem
	ta.c.Get("/v1/task?firstResult=1000&maxResults=10", bearer(cw)...).Data(t, 200, &page)
	if len(page) != 5 {
		t.Errorf("last page: %d tasks, want 5", len(page))
	}
	ta.c.Get("/v1/task?maxResults=5000", bearer(cw)...).Data(t, 200, &page)
	if len(page) != 1000 {
		t.Errorf("maxResults above the bound: %d tasks", len(page))
	}
	ta.c.Get("/v1/m2m/task", bearer(ta.token(t, machine("operaton-mcp-client")))...).Data(t, 200, &page)
	if len(page) != 1000 {
		t.Errorf("/v1/m2m/task: %d tasks, want the bound 1000", len(page))
	}
}

func TestHistoricTaskRowJSON(t *testing.T) {
	end := time.Date(2026, 11, 24, 9, 30, 0, 0, time.UTC)
	h := engine.HistoricTask{ID: "t1", Name: "Beoordeel", EndTime: &end, Priority: 50}
	got, err := json.Marshal(historicTaskRow{HistoricTaskDTO: h.DTO(), BusinessKey: nullable("bk-1"), BoardOwner: nullable("")})
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(got, &m); err != nil {
		t.Fatalf("%s: %v", got, err)
	}
	for k, want := range map[string]any{"id": "t1", "name": "Beoordeel", "endTime": "2026-11-24T09:30:00.000+0000",
		"priority": float64(50), "assignee": nil, "businessKey": "bk-1", "boardOwner": nil} {
		if v, ok := m[k]; !ok || v != want {
			t.Errorf("%s = %v (present %v), want %v", k, v, ok, want)
		}
	}
	if !strings.HasSuffix(string(got), `,"businessKey":"bk-1","boardOwner":null}`) {
		t.Errorf("the additions are not at the end: %s", got)
	}
	// the row carries every field of engine's own JSON, in its order
	own, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(got), string(own[:len(own)-1])+",") {
		t.Errorf("row %s does not extend engine's JSON %s", got, own)
	}
}
