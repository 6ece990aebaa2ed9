package server

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/engine/local/pgstore"
	"github.com/regelkit/regelkit/engine/local/pgstore/pgtest"
	"github.com/regelkit/regelkit/engine/rest"
	"github.com/regelkit/regelkit/examples"
)

const localpassKey = "LocalpassAanvraagProcess"

// localpassStart are the applicant's answers on the start form: a single
// parent of 45 with a child of 4–17 and an income under the norm, so the
// decisions admit the application and it reaches the caseworker's review.
const localpassStart = `{"variables": {
	"dagVanAanvraag": "2025-12-24", "geboortedatumAanvrager": "1980-01-23", "geboortedatumPartner": null,
	"aanvragerHeeftKinderen": true, "aanvragerHeeftKind4Tm17": true, "aanvragerInwonerMunicipality": true,
	"maandelijksBrutoInkomenAanvrager": 1500, "aanvragerUitkeringBaanbrekers": false, "aanvragerVoedselbankpasCity": false,
	"aanvragerKwijtscheldingGemeentelijkeBelastingen": false, "aanvragerSchuldhulptrajectCreditBank": false,
	"aanvragerDitKalenderjaarAlAangevraagd": false, "aanvragerAanmerkingStudieFinanciering": false}}`

// localpassBundle reads the example bundle from examples.FS, or from the
// source tree while examples.FS does not embed the processes yet.
func localpassBundle(t testing.TB) []engine.Resource {
	t.Helper()
	var fsys fs.FS = examples.FS
	dir := "processes/localpass"
	if _, err := fs.Stat(fsys, dir); err != nil {
		fsys, dir = os.DirFS(filepath.Join("..", "..", "..", "examples")), "processes/localpass"
	}
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		t.Fatal(err)
	}
	var rs []engine.Resource
	for _, e := range entries {
		data, err := fs.ReadFile(fsys, path.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, engine.Resource{Name: e.Name(), Data: data})
	}
	return rs
}

// ensureLocalpass deploys the example bundle unless the engine already has
// it (the server deploys it at start once examples.FS embeds it).
func ensureLocalpass(t testing.TB, eng engine.ProcessEngine, serverDeploys bool) {
	t.Helper()
	ctx := context.Background()
	if _, err := eng.LatestProcessDefinition(ctx, localpassKey, ""); err == nil {
		return
	}
	if _, err := fs.Stat(examples.FS, "processes/localpass"); err == nil && serverDeploys {
		t.Errorf("examples.FS embeds the localpass bundle, so the server must have deployed it at start")
	}
	if _, err := eng.Deploy(ctx, engine.NewDeployment{Name: "localpass", Resources: localpassBundle(t)}); err != nil {
		t.Fatal(err)
	}
}

// TestE2EEmbedded: the caseworker story on embedded defaults.
func TestE2EEmbedded(t *testing.T) {
	ta := newTestApp(t, nil)
	ensureLocalpass(t, ta.engine, true)
	runCaseworkerStory(t, ta)
	// the embedded engine learns who started each instance (a remote
	// Operaton takes it from its own authentication)
	hist, err := ta.engine.HistoricProcessInstances(context.Background(),
		engine.HistoricProcessInstanceQuery{ProcessDefinitionKey: "LocalpassAanvraagProcess"})
	if err != nil || len(hist) == 0 {
		t.Fatalf("history: %d instances, %v", len(hist), err)
	}
	for _, h := range hist {
		if h.StartUserID == "" {
			t.Errorf("instance %s has no startUserId", h.ID)
		}
	}
}

// TestE2EPostgres: the same story with the embedded engine on PostgreSQL
// (ENGINE_DATABASE_URL), and then a second app on the same database (a
// restart, or a second replica) sees the instances and tasks the first
// one left.
func TestE2EPostgres(t *testing.T) {
	db := pgtest.New(t)
	ta := newTestApp(t, map[string]string{"ENGINE_DATABASE_URL": db.URL})
	if !ta.embedded {
		t.Fatal("ENGINE_DATABASE_URL must keep the embedded engine")
	}
	ensureLocalpass(t, ta.engine, true)
	runCaseworkerStory(t, ta)

	ctx := context.Background()
	done, err := ta.engine.HistoricProcessInstances(ctx, engine.HistoricProcessInstanceQuery{ProcessDefinitionKey: "LocalpassAanvraagProcess"})
	if err != nil || len(done) == 0 {
		t.Fatalf("history after the story: %d instances, %v", len(done), err)
	}
	again := newTestApp(t, map[string]string{"ENGINE_DATABASE_URL": db.URL})
	seen, err := again.engine.HistoricProcessInstances(ctx, engine.HistoricProcessInstanceQuery{ProcessDefinitionKey: "LocalpassAanvraagProcess"})
	if err != nil || len(seen) != len(done) {
		t.Fatalf("a second app on the same database sees %d instances (%v), want %d", len(seen), err, len(done))
	}
	for i := range done {
		if seen[i].ID != done[i].ID || seen[i].State != done[i].State {
			t.Errorf("instance %d: second app sees %s %s, first %s %s", i, seen[i].ID, seen[i].State, done[i].ID, done[i].State)
		}
	}
	defs, err := again.engine.ProcessDefinitions(ctx, engine.ProcessDefinitionQuery{Key: "LocalpassAanvraagProcess"})
	if err != nil || len(defs) != 1 {
		t.Errorf("the restarted app redeployed the bundle: %d definitions (%v), want 1 (duplicate filtering)", len(defs), err)
	}
}

// TestE2ERemotePostgres: the remote Operaton path to an engine on PostgreSQL.
func TestE2ERemotePostgres(t *testing.T) {
	db := pgtest.New(t)
	pool, err := pgxpool.New(context.Background(), db.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	st, err := pgstore.Open(context.Background(), pool, pgstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	runStoryOverREST(t, local.New(local.Options{Version: "remote-pg-test", Store: st}))
}

// TestE2ERemote: the same story with PROCESS_ENGINE_URL pointing at
// engine/rest over an embedded engine in another server (the remote
// Operaton path).
func TestE2ERemote(t *testing.T) {
	runStoryOverREST(t, local.New(local.Options{Version: "remote-test"}))
}

// runStoryOverREST serves eng under Operaton's REST paths on a test server,
// points the business API at it and runs the caseworker story. The
// PostgreSQL variant passes an engine on PostgreSQL.
func runStoryOverREST(t *testing.T, eng engine.ProcessEngine) {
	t.Helper()
	ctx := context.Background()
	var dmn []engine.Resource
	for _, m := range examples.LocalPass {
		data, err := fs.ReadFile(examples.FS, m.Path)
		if err != nil {
			t.Fatal(err)
		}
		dmn = append(dmn, engine.Resource{Name: path.Base(m.Path), Data: data})
	}
	if _, err := eng.Deploy(ctx, engine.NewDeployment{Name: "localpass-models", Resources: dmn, EnableDuplicateFiltering: true}); err != nil {
		t.Fatal(err)
	}
	ensureLocalpass(t, eng, false)
	srv := httptest.NewServer(rest.NewHandler(eng, rest.Options{BasePath: "/engine-rest"}))
	t.Cleanup(srv.Close)
	ta := newTestApp(t, map[string]string{"PROCESS_ENGINE_URL": srv.URL + "/engine-rest"})
	if ta.embedded {
		t.Fatal("the app must use the remote engine's processes")
	}
	runCaseworkerStory(t, ta)
}

// runCaseworkerStory is issue #17's "Measured by": a citizen of utrecht
// starts the local-pass application; a caseworker of utrecht sees, claims
// and completes the review with a form payload; the citizen reads status,
// historic variables and the decision document; a caseworker of amsterdam
// is refused or sees nothing at every step; an allow-listed machine client
// does the same through /v1/m2m and an unlisted one is refused.
func runCaseworkerStory(t *testing.T, ta *testApp) {
	t.Helper()
	cit := ta.token(t, citizen("utrecht", "burger-utrecht-1"))
	cwA := ta.token(t, caseworker("utrecht"))
	cwB := ta.token(t, caseworker("amsterdam"))

	var form map[string]any
	ta.c.Get("/v1/process/"+localpassKey+"/start-form", bearer(cit)...).Data(t, 200, &form)
	if form["id"] != "localpass-aanvraag-start" {
		t.Fatalf("start form %v", form)
	}
	s := start(t, ta, cit, localpassKey, localpassStart)
	id := s.ProcessInstanceID
	if s.Status != "active" || !strings.HasPrefix(s.BusinessKey, "utrecht-") {
		t.Fatalf("start %+v: the decisions should admit the application and wait for review", s)
	}
	var st map[string]any
	ta.c.Get("/v1/process/"+id+"/status", bearer(cit)...).Data(t, 200, &st)
	if st["status"] != "active" {
		t.Errorf("status %v", st)
	}

	// The caseworker of utrecht sees the review; amsterdam's does not.
	var task taskItem
	for _, it := range listTasks(t, ta, cwA) {
		if it.ProcessInstanceID == id {
			task = it
		}
	}
	if task.ID == "" || task.ProcessDefinitionKey != localpassKey || task.TaskDefinitionKey != "Activity_Beoordelen" {
		t.Fatalf("utrecht's task list lacks the review: %+v", task)
	}
	for _, it := range listTasks(t, ta, cwB) {
		if it.ProcessInstanceID == id {
			t.Errorf("amsterdam sees utrecht's task %+v", it)
		}
	}
	refusedEverywhere := func(stage string) {
		t.Helper()
		for _, p := range []struct{ method, path, body string }{
			{"GET", "/v1/task/" + task.ID, ""}, {"GET", "/v1/task/" + task.ID + "/variables", ""},
			{"GET", "/v1/task/" + task.ID + "/form-schema", ""}, {"POST", "/v1/task/" + task.ID + "/claim", ""},
			{"POST", "/v1/task/" + task.ID + "/complete", `{"variables": {"besluit": "afgewezen"}}`},
			{"GET", "/v1/process/" + id + "/status", ""}, {"GET", "/v1/process/" + id + "/variables", ""},
			{"GET", "/v1/process/" + id + "/historic-variables", ""}, {"GET", "/v1/process/" + id + "/decision-document", ""},
			{"DELETE", "/v1/process/" + id, ""},
		} {
			var body any
			if p.body != "" {
				body = p.body
			}
			resp := ta.c.Do(p.method, p.path, body, bearer(cwB)...)
			if resp.Status != 403 || !strings.Contains(string(resp.Body), "TENANT_MISMATCH") {
				t.Errorf("%s: amsterdam's %s %s = %d %s, want 403 TENANT_MISMATCH", stage, p.method, p.path, resp.Status, resp.Body)
			}
		}
		var hist []map[string]any
		ta.c.Get("/v1/process/history?applicantId=burger-utrecht-1", bearer(cwB)...).Data(t, 200, &hist)
		if len(hist) != 0 {
			t.Errorf("%s: amsterdam's history of the applicant %v", stage, hist)
		}
	}
	refusedEverywhere("before the claim")

	var one taskItem
	ta.c.Get("/v1/task/"+task.ID, bearer(cwA)...).Data(t, 200, &one)
	vars := getVars(t, ta, cwA, "/v1/task/"+task.ID+"/variables")
	if vars["municipality"] != "utrecht" || vars["applicantId"] != "burger-utrecht-1" || vars["bijstandsNorm"] == nil {
		t.Errorf("task variables %v", vars)
	}
	ta.c.Get("/v1/task/"+task.ID+"/form-schema", bearer(cwA)...).Data(t, 200, &form)
	if form["id"] != "localpass-beoordeling" {
		t.Errorf("review form %v", form)
	}
	ta.c.Post("/v1/task/"+task.ID+"/claim", nil, bearer(cwA)...).Data(t, 200, nil)
	refusedEverywhere("after the claim")
	ta.c.Post("/v1/task/"+task.ID+"/complete", `{"variables": {"besluit": "toegekend", "toelichting": {"value": "Voldoet aan de voorwaarden", "type": "String"}}}`,
		bearer(cwA)...).Data(t, 200, nil)

	// The citizen reads the outcome.
	ta.c.Get("/v1/process/"+id+"/status", bearer(cit)...).ExpectError(t, 404, "PROCESS_NOT_FOUND")
	hist := getVars(t, ta, cit, "/v1/process/"+id+"/historic-variables")
	if hist["besluit"] != "toegekend" || hist["toelichting"] != "Voldoet aan de voorwaarden" || hist["municipality"] != "utrecht" {
		t.Errorf("historic variables %v", hist)
	}
	var doc map[string]any
	ta.c.Get("/v1/process/"+id+"/decision-document", bearer(cit)...).Data(t, 200, &doc)
	if doc["id"] != "localpass-besluit" || doc["processKey"] != localpassKey {
		t.Errorf("decision document %v", doc)
	}
	var instances []map[string]any
	ta.c.Get("/v1/process/history?applicantId=burger-utrecht-1", bearer(cit)...).Data(t, 200, &instances)
	if len(instances) != 1 || instances[0]["id"] != id || instances[0]["state"] != "COMPLETED" {
		t.Errorf("citizen's history %v", instances)
	}
	var done []map[string]any
	ta.c.Get("/v1/task/history", bearer(cwA)...).Data(t, 200, &done)
	if len(done) != 1 || done[0]["id"] != task.ID || done[0]["businessKey"] != s.BusinessKey || done[0]["assignee"] != "cw-utrecht" {
		t.Errorf("utrecht's task history %v", done)
	}
	ta.c.Get("/v1/task/history", bearer(cwB)...).Data(t, 200, &done)
	if len(done) != 0 {
		t.Errorf("amsterdam's task history %v", done)
	}
	for _, p := range []string{"/historic-variables", "/decision-document"} {
		ta.c.Get("/v1/process/"+id+p, bearer(cwB)...).ExpectError(t, 403, "TENANT_MISMATCH")
	}

	// The same through /v1/m2m.
	m2m := ta.token(t, machine("operaton-mcp-client"))
	unlisted := ta.token(t, machine("unknown-client"))
	ta.c.Post("/v1/m2m/process/"+localpassKey+"/start", localpassStart, bearer(unlisted)...).ExpectError(t, 403, "M2M_CLIENT_NOT_ALLOWED")
	var ms map[string]any
	ta.c.Post("/v1/m2m/process/"+localpassKey+"/start", localpassStart, bearer(m2m)...).Data(t, 200, &ms)
	mid, _ := ms["processInstanceId"].(string)
	var mtasks []taskItem
	ta.c.Get("/v1/m2m/task?processInstanceId="+mid, bearer(m2m)...).Data(t, 200, &mtasks)
	if len(mtasks) != 1 {
		t.Fatalf("m2m tasks %+v", mtasks)
	}
	ta.c.Get("/v1/m2m/task?processInstanceId="+mid, bearer(unlisted)...).ExpectError(t, 403, "M2M_CLIENT_NOT_ALLOWED")
	ta.c.Post("/v1/m2m/task/"+mtasks[0].ID+"/claim", `{"userId": "cw-utrecht"}`, bearer(unlisted)...).ExpectError(t, 403, "M2M_CLIENT_NOT_ALLOWED")
	ta.c.Post("/v1/m2m/task/"+mtasks[0].ID+"/claim", `{"userId": "cw-utrecht"}`, bearer(m2m)...).Data(t, 200, nil)
	ta.c.Post("/v1/m2m/task/"+mtasks[0].ID+"/complete", `{"variables": {"besluit": "afgewezen"}}`, bearer(unlisted)...).ExpectError(t, 403, "M2M_CLIENT_NOT_ALLOWED")
	ta.c.Post("/v1/m2m/task/"+mtasks[0].ID+"/complete", `{"variables": {"besluit": "afgewezen"}}`, bearer(m2m)...).Data(t, 200, nil)
	ta.c.Get("/v1/m2m/process/"+mid+"/status", bearer(m2m)...).ExpectError(t, 404, "PROCESS_NOT_FOUND")
	if v := getVars(t, ta, m2m, "/v1/m2m/process/"+mid+"/historic-variables"); v["besluit"] != "afgewezen" || v["municipality"] != "m2m" {
		t.Errorf("m2m historic variables %v", v)
	}
	ta.c.Get("/v1/m2m/process/"+mid+"/decision-document", bearer(m2m)...).Data(t, 200, &doc)
	if doc["id"] != "localpass-besluit" {
		t.Errorf("m2m decision document %v", doc)
	}
	ta.c.Get("/v1/m2m/process/"+mid+"/historic-variables", bearer(unlisted)...).ExpectError(t, 403, "M2M_CLIENT_NOT_ALLOWED")
}

// TestHostileInput: wrong types in every field, huge variable maps,
// 10,000-variable completions, unknown ids and other tenants' ids end in a
// 4xx and write nothing.
func TestHostileInput(t *testing.T) {
	ta := newTestApp(t, nil)
	reviewBundle(t, ta, "Target", "")
	ctx := context.Background()
	cw := ta.token(t, caseworker("utrecht"))
	other := ta.token(t, caseworker("amsterdam"))
	m2m := ta.token(t, machine("operaton-mcp-client"))
	s := start(t, ta, cw, "Target", `{}`)
	taskID := onlyTask(t, ta, s.ProcessInstanceID)
	countInstances := func() int {
		list, err := ta.engine.HistoricProcessInstances(ctx, engine.HistoricProcessInstanceQuery{})
		if err != nil {
			t.Fatal(err)
		}
		return len(list)
	}
	before := countInstances()
	varsBefore, _ := ta.engine.ProcessInstanceVariables(ctx, s.ProcessInstanceID)

	vars := func(n int) string {
		var b strings.Builder
		b.WriteString(`{"variables": {`)
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"v%d": %d`, i, i)
		}
		b.WriteString("}}")
		return b.String()
	}
	huge := `{"variables": {"x": "` + strings.Repeat("a", 1<<20) + `"}}`
	for _, tc := range []struct {
		method, path, body string
		tok                string
		status             int
		code               string
	}{
		{"POST", "/v1/process/Target/start", `{"businessKey": 1}`, cw, 400, "VALIDATION_ERROR"},
		{"POST", "/v1/process/Target/start", `{"businessKey": {"a": 1}}`, cw, 400, "VALIDATION_ERROR"},
		{"POST", "/v1/process/Target/start", `{"businessKey": "` + strings.Repeat("k", 256) + `"}`, cw, 400, "VALIDATION_ERROR"},
		{"POST", "/v1/process/Target/start", `{"variables": "x"}`, cw, 400, "VALIDATION_ERROR"},
		{"POST", "/v1/process/Target/start", `{"variables": 1}`, cw, 400, "VALIDATION_ERROR"},
		{"POST", "/v1/process/Target/start", `{"variables": [{"a": 1}]}`, cw, 400, "VALIDATION_ERROR"},
		{"POST", "/v1/process/Target/start", `{"variables": {"n": {"value": "1.5", "type": "Integer"}}}`, cw, 400, "VALIDATION_ERROR"},
		{"POST", "/v1/process/Target/start", `[]`, cw, 400, "VALIDATION_ERROR"},
		{"POST", "/v1/process/Target/start", `"start"`, cw, 400, "VALIDATION_ERROR"},
		{"POST", "/v1/process/Target/start", `{"variables": {`, cw, 400, "MALFORMED_BODY"},
		{"POST", "/v1/process/Target/start", vars(1001), cw, 400, "VALIDATION_ERROR"},
		{"POST", "/v1/process/Target/start", huge, cw, 413, "PAYLOAD_TOO_LARGE"},
		{"POST", "/v1/m2m/process/Target/start", `{"businessKey": false}`, m2m, 400, "VALIDATION_ERROR"},
		{"POST", "/v1/m2m/process/Target/start", vars(10000), m2m, 400, "VALIDATION_ERROR"},
		{"POST", "/v1/task/" + taskID + "/complete", vars(10000), cw, 400, "VALIDATION_ERROR"},
		{"POST", "/v1/task/" + taskID + "/complete", `{"variables": true}`, cw, 400, "VALIDATION_ERROR"},
		{"POST", "/v1/task/" + taskID + "/complete", `{"variables": {"x": {"value": "y", "type": "Boolean"}}}`, cw, 400, "VALIDATION_ERROR"},
		{"POST", "/v1/task/" + taskID + "/complete", huge, cw, 413, "PAYLOAD_TOO_LARGE"},
		{"POST", "/v1/task/" + taskID + "/complete", `{"variables": {"a": 1}}`, other, 403, "TENANT_MISMATCH"},
		{"POST", "/v1/task/" + taskID + "/claim", ``, other, 403, "TENANT_MISMATCH"},
		{"DELETE", "/v1/process/" + s.ProcessInstanceID, `{"reason": ["x"]}`, cw, 400, "VALIDATION_ERROR"},
		{"DELETE", "/v1/process/" + s.ProcessInstanceID, ``, other, 403, "TENANT_MISMATCH"},
		{"POST", "/v1/m2m/task/" + taskID + "/complete", vars(10000), m2m, 400, "VALIDATION_ERROR"},
		{"POST", "/v1/m2m/task/" + taskID + "/complete", `{"variables": {"municipality": "amsterdam"}}`, m2m, 400, "RESERVED_VARIABLE"},
		{"POST", "/v1/m2m/task/" + taskID + "/claim", `{"userId": ["a"]}`, m2m, 400, "VALIDATION_ERROR"},
		{"DELETE", "/v1/m2m/process/" + s.ProcessInstanceID, `{"reason": 1}`, m2m, 400, "VALIDATION_ERROR"},
		{"GET", "/v1/m2m/process/history", `{"processDefinitionKey": 5}`, m2m, 400, "VALIDATION_ERROR"},
		{"GET", "/v1/m2m/process?variables=nounderscores", ``, m2m, 400, "VALIDATION_ERROR"},
		{"GET", "/v1/m2m/task?firstResult=-1", ``, m2m, 400, "VALIDATION_ERROR"},
		{"GET", "/v1/process/history?applicantId=" + strings.Repeat("a", 300), ``, cw, 400, "VALIDATION_ERROR"},
		{"GET", "/v1/task/" + strings.Repeat("x", 2000), ``, cw, 404, "TASK_NOT_FOUND"},
		{"POST", "/v1/task/nope/complete", `{}`, cw, 404, "TASK_NOT_FOUND"},
		{"DELETE", "/v1/process/nope", ``, cw, 404, "PROCESS_NOT_FOUND"},
	} {
		var body any
		if tc.body != "" {
			body = tc.body
		}
		resp := ta.c.Do(tc.method, tc.path, body, bearer(tc.tok)...)
		if resp.Status != tc.status || !strings.Contains(string(resp.Body), `"`+tc.code+`"`) {
			t.Errorf("%s %.60s %.60s: %d %.300s, want %d %s", tc.method, tc.path, tc.body, resp.Status, resp.Body, tc.status, tc.code)
		}
	}
	if after := countInstances(); after != before {
		t.Errorf("refused requests started %d instances", after-before)
	}
	task, err := ta.engine.Task(ctx, taskID)
	if err != nil || task.Assignee != "" {
		t.Errorf("the task was touched: %+v %v", task, err)
	}
	varsAfter, _ := ta.engine.ProcessInstanceVariables(ctx, s.ProcessInstanceID)
	if len(varsAfter) != len(varsBefore) {
		t.Errorf("refused requests wrote variables: %d before, %d after", len(varsBefore), len(varsAfter))
	}
}

// TestProcessRoutesDocumented: every process, task and machine route is in
// the OpenAPI document (the walk of TestOpenAPICoversEveryRoute checks the
// reverse).
func TestProcessRoutesDocumented(t *testing.T) {
	ta := newTestApp(t, nil)
	doc := ta.router.Doc()
	for _, p := range []struct{ method, path string }{
		{"POST", "/v1/process/{key}/start"}, {"GET", "/v1/process/{id}/status"}, {"GET", "/v1/process/{id}/variables"},
		{"DELETE", "/v1/process/{id}"}, {"GET", "/v1/process/history"}, {"GET", "/v1/process/{key}/start-form"},
		{"GET", "/v1/process/{id}/historic-variables"}, {"GET", "/v1/process/{id}/decision-document"},
		{"GET", "/v1/process/{key}/variable-hints"}, {"GET", "/v1/task"}, {"GET", "/v1/task/{id}"}, {"GET", "/v1/task/{id}/variables"},
		{"POST", "/v1/task/{id}/claim"}, {"POST", "/v1/task/{id}/complete"}, {"GET", "/v1/task/{id}/form-schema"}, {"GET", "/v1/task/history"},
	} {
		if !doc.Has(p.method, p.path) {
			t.Errorf("%s %s is not documented", p.method, p.path)
		}
	}
	n := 0
	for _, m := range []string{"GET", "POST", "DELETE"} {
		for _, p := range []string{"/v1/m2m/process", "/v1/m2m/process/{key}/start", "/v1/m2m/process/history", "/v1/m2m/process/{id}/status",
			"/v1/m2m/process/{id}/variables", "/v1/m2m/process/{id}/historic-variables", "/v1/m2m/process/{id}/decision-document",
			"/v1/m2m/process/{key}/start-form", "/v1/m2m/process/{key}/variable-hints", "/v1/m2m/process/{id}", "/v1/m2m/task",
			"/v1/m2m/task/{id}", "/v1/m2m/task/{id}/variables", "/v1/m2m/task/{id}/form-schema", "/v1/m2m/task/{id}/claim",
			"/v1/m2m/task/{id}/complete", "/v1/m2m/decision/{key}/evaluate", "/v1/m2m/decision/{key}"} {
			if doc.Has(m, p) {
				n++
			}
		}
	}
	if n != 19 { // 18 operations, history on GET and POST
		t.Errorf("%d m2m operations documented, want 19", n)
	}
}

// TestStartRetriesWithoutTenant: when the engine answers a start on the
// tenant path with "No matching process definition with key", the start
// is retried once without a tenant (notes §4.3 step 4). The embedded engine
// never answers so after listing the definition, so an engine/rest server
// answers that one path as Operaton does.
func TestStartRetriesWithoutTenant(t *testing.T) {
	eng := local.New(local.Options{Version: "retry-test"})
	for _, tenant := range []string{"", "utrecht"} {
		rs := []engine.Resource{{Name: "Retry.bpmn", Data: []byte(testBPMN("Retry", bpmnOptions{}))}}
		if _, err := eng.Deploy(context.Background(), engine.NewDeployment{Name: "Retry", TenantID: tenant, Resources: rs}); err != nil {
			t.Fatal(err)
		}
	}
	h := rest.NewHandler(eng, rest.Options{BasePath: "/engine-rest"})
	var refused atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == "POST" && strings.HasSuffix(r.URL.Path, "/process-definition/key/Retry/tenant-id/utrecht/start") {
			refused.Add(1)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			_, _ = io.WriteString(w, `{"type": "RestException", "message": "No matching process definition with key 'Retry' and tenant-id 'utrecht'"}`)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	ta := newTestApp(t, map[string]string{"PROCESS_ENGINE_URL": srv.URL + "/engine-rest"})
	s := start(t, ta, ta.token(t, caseworker("utrecht")), "Retry", `{}`)
	inst, err := eng.ProcessInstance(context.Background(), s.ProcessInstanceID)
	if refused.Load() != 1 || err != nil || inst.TenantID != "" {
		t.Errorf("tenant path refused %d times; instance %+v %v: want one retry on the untenanted definition", refused.Load(), inst, err)
	}
}
