package server

import (
	"context"
	"net"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/engine/rest"

	"github.com/regelkit/regelkit/servers/business/internal/docworker"
	"github.com/regelkit/regelkit/servers/internal/auth"
	"github.com/regelkit/regelkit/servers/internal/lifecycle"
)

type ripDocs struct {
	Variables                    map[string]any
	IntakeReport, PsuReport, Pdp *struct{ ID string }
}

func (d ripDocs) filed() string {
	var b strings.Builder
	for _, t := range []*struct{ ID string }{d.IntakeReport, d.PsuReport, d.Pdp} {
		if t == nil {
			b.WriteString("-")
		} else {
			b.WriteString(t.ID + ",")
		}
	}
	return b.String()
}

// TestProjectPhaseEndToEnd: the project-phase bundle deployed through the
// bundle route runs with the document worker filing into the docmgmt stub;
// each template turns non-null only once the service task filing it has
// finished.
func TestProjectPhaseEndToEnd(t *testing.T) {
	ta := newTestApp(t, map[string]string{"DOCMGMT_WORKER_ENABLED": "false"})
	runProjectPhase(t, ta, docsProcesses(t, ta))
}

// TestProjectPhaseRemote: the same with PROCESS_ENGINE_URL pointing at
// engine/rest over an embedded engine (the remote Operaton path): the
// worker fetches and completes over Operaton's external-task REST calls.
func TestProjectPhaseRemote(t *testing.T) {
	eng := local.New(local.Options{Version: "remote-test"})
	if _, ok := any(eng).(engine.Processes); !ok {
		t.Skip("the embedded engine runs no processes yet")
	}
	srv := httptest.NewServer(rest.NewHandler(eng, rest.Options{}))
	defer srv.Close()
	ta := newTestApp(t, map[string]string{"PROCESS_ENGINE_URL": srv.URL + "/engine-rest"})
	runProjectPhase(t, ta, docsProcesses(t, ta))
}

func runProjectPhase(t *testing.T, ta *testApp, pe engine.Processes) {
	pl := bearer(ta.token(t, staff("pl-utrecht", "utrecht", "caseworker", "infra-projectteam")))
	var dep struct{ DeploymentID string }
	ta.c.Post(deployPath, bundleRequest(t, "projectphase", "rip-phase1"), pl...).Data(t, 200, &dep)
	// The worker the server runs by default, stepped by hand here.
	w := docworker.New(docworker.Options{Engine: pe, Docs: ta.docmgmt, RetryTimeout: time.Millisecond})
	poll := func(want int) {
		t.Helper()
		n, err := w.Poll(context.Background())
		if err != nil || n != want {
			t.Fatalf("worker handled %d tasks (%v), want %d", n, err, want)
		}
	}
	id := startProcess(t, ta, pl, ripProcessKey, map[string]any{
		"projectNumber": "2026-017", "projectName": "Fietsbrug Noord", "projectLeader": "Anna Bakker"})

	var active []map[string]any
	ta.c.Get("/v1/rip/phase1/active", pl...).Data(t, 200, &active)
	if len(active) != 1 || active[0]["id"] != id || active[0]["projectNumber"] != "2026-017" ||
		active[0]["projectName"] != "Fietsbrug Noord" || active[0]["docmgmtWorkspaceId"] != nil {
		t.Fatalf("active before the worker = %v", active)
	}
	docs := func() ripDocs {
		t.Helper()
		var d ripDocs
		ta.c.Get("/v1/rip/phase1/"+id+"/documents", pl...).Data(t, 200, &d)
		return d
	}
	if d := docs(); d.filed() != "---" || d.Variables["projectLeader"] != "Anna Bakker" {
		t.Errorf("documents at the start = %s %v", d.filed(), d.Variables)
	}
	poll(1) // the workspace
	ta.c.Get("/v1/rip/phase1/active", pl...).Data(t, 200, &active)
	if len(active) != 1 || active[0]["docmgmtWorkspaceId"] != "stub-ws-2026-017" {
		t.Fatalf("active after the workspace = %v", active)
	}
	if d := docs(); d.filed() != "---" {
		t.Errorf("documents before the intake = %s", d.filed())
	}
	completeTask(t, ta, pl, id, "Activity_Intake", map[string]any{"intakeNote": "ok"})
	if d := docs(); d.filed() != "---" {
		t.Errorf("intake report before its service task finished = %s", d.filed())
	}
	poll(1)
	d := docs()
	if d.filed() != "rip-intake-report,--" {
		t.Errorf("after the intake report was filed = %s", d.filed())
	}
	docID, _ := d.Variables["ripIntakeReportDocumentId"].(string)
	if !strings.HasPrefix(docID, "stub-doc-") {
		t.Errorf("ripIntakeReportDocumentId = %v", d.Variables["ripIntakeReportDocumentId"])
	}
	// The filed document is in the project's workspace.
	m := bearer(ta.token(t, machine("edocs-mcp-client")))
	var list struct {
		Documents []struct{ ID, Name string }
	}
	ta.c.Get("/v1/docmgmt/workspaces/stub-ws-2026-017/documents", m...).Data(t, 200, &list)
	if n := len(list.Documents); n != 3 || list.Documents[2].ID != docID || list.Documents[2].Name != "Intakerapport" {
		t.Errorf("workspace documents = %+v", list.Documents)
	}
	completeTask(t, ta, pl, id, "Activity_Psu", nil)
	poll(1)
	if d := docs(); d.filed() != "rip-intake-report,rip-psu-report,-" {
		t.Errorf("after the PSU report = %s", d.filed())
	}
	completeTask(t, ta, pl, id, "Activity_Pdp", nil)
	poll(1)
	poll(0)
	if d := docs(); d.filed() != "rip-intake-report,rip-psu-report,rip-pdp," {
		t.Errorf("after the PDP = %s", d.filed())
	}
	ta.c.Get("/v1/rip/phase1/active", pl...).Data(t, 200, &active)
	if len(active) != 0 {
		t.Errorf("active after the end = %v", active)
	}
	var completed []map[string]any
	ta.c.Get("/v1/rip/phase1/completed", pl...).Data(t, 200, &completed)
	if len(completed) != 1 || completed[0]["id"] != id || completed[0]["docmgmtWorkspaceId"] != "stub-ws-2026-017" || completed[0]["endTime"] == nil {
		t.Errorf("completed = %v", completed)
	}

	// Another municipality, unknown ids, roles.
	other := bearer(ta.token(t, staff("pl-amsterdam", "amsterdam", "caseworker", "infra-projectteam")))
	ta.c.Get("/v1/rip/phase1/completed", other...).Data(t, 200, &completed)
	if len(completed) != 0 {
		t.Errorf("amsterdam sees %v", completed)
	}
	ta.c.Get("/v1/rip/phase1/"+id+"/documents", other...).ExpectError(t, 403, auth.CodeTenantMismatch)
	ta.c.Get("/v1/rip/phase1/no-such-instance/documents", pl...).ExpectError(t, 404, codeProcessNotFound)
	ta.c.Get("/v1/rip/phase1/active", bearer(ta.token(t, staff("hr", "utrecht", "hr-medewerker")))...).ExpectError(t, 403, auth.CodeForbidden)
}

// TestDocWorkerRunsByDefault: on embedded defaults the server's own worker
// creates the workspace of a started project.
func TestDocWorkerRunsByDefault(t *testing.T) {
	ta := newTestApp(t, nil)
	docsProcesses(t, ta)
	pl := bearer(ta.token(t, staff("pl-utrecht", "utrecht", "caseworker", "infra-projectteam")))
	ta.c.Post(deployPath, bundleRequest(t, "projectphase", "rip-phase1"), pl...).ExpectStatus(t, 200)
	id := startProcess(t, ta, pl, ripProcessKey, map[string]any{"projectNumber": "2026-020", "projectName": "Kade", "projectLeader": "B"})
	deadline := time.Now().Add(15 * time.Second)
	for {
		var active []map[string]any
		ta.c.Get("/v1/rip/phase1/active", pl...).Data(t, 200, &active)
		if len(active) == 1 && active[0]["id"] == id && active[0]["docmgmtWorkspaceId"] == "stub-ws-2026-020" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server's worker did not create the workspace: %v", active)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestDocumentFilers(t *testing.T) {
	data, err := os.ReadFile("../../../examples/processes/projectphase/RipPhase1.bpmn")
	if err != nil {
		t.Fatal(err)
	}
	got, err := documentFilers(string(data), ripProcessKey)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"rip-intake-report": "Activity_IntakeArchiveren", "rip-psu-report": "Activity_PsuArchiveren", "rip-pdp": "Activity_PdpArchiveren"}
	if len(got) != len(want) {
		t.Errorf("filers = %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("filer of %s = %q, want %q", k, got[k], v)
		}
	}
	// Another process key, or a BPMN without filing tasks: no filers, so
	// only the resource decides (upstream behaviour).
	if got, err := documentFilers(string(data), "OtherProcess"); err != nil || len(got) != 0 {
		t.Errorf("other key: %v %v", got, err)
	}
	if got, err := documentFilers(plainBPMN, "P"); err != nil || len(got) != 0 {
		t.Errorf("plain BPMN: %v %v", got, err)
	}
	// The camunda namespace decides, not the prefix.
	foreign := strings.ReplaceAll(string(data), `xmlns:camunda="http://camunda.org/schema/1.0/bpmn"`, `xmlns:camunda="urn:other"`)
	if got, err := documentFilers(foreign, ripProcessKey); err != nil || len(got) != 0 {
		t.Errorf("foreign camunda namespace: %v %v", got, err)
	}
}

// TestLifecycleStopsDocWorker: on shutdown the life cycle stops the
// external-task worker (after the requests drained); a project-phase
// instance started afterwards keeps its document task for other workers.
func TestLifecycleStopsDocWorker(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	l.Close()
	ta := newTestApp(t, map[string]string{"HOST": "127.0.0.1", "PORT": port})
	if ta.stopDocWorker == nil {
		t.Fatal("the embedded defaults run the document worker")
	}
	lc := lifecycle.New(lifecycle.Options{Grace: 5 * time.Second})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- lc.Run(ctx, (&Server{a: ta.app}).Listeners(lc)...) }()
	time.Sleep(200 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the life cycle did not end")
	}

	bg := context.Background()
	if _, err := ta.engine.StartProcess(bg, engine.StartProcess{Key: ripProcessKey, Variables: engine.Variables{
		"municipality": engine.String("utrecht"), "projectNumber": engine.String("2026-077"),
		"projectName": engine.String("Brug"), "projectLeader": engine.String("C")}}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2500 * time.Millisecond) // the worker, were it running, polls every second
	locked, err := ta.engine.FetchAndLock(bg, engine.FetchAndLock{WorkerID: "test", MaxTasks: 5,
		Topics: []engine.FetchTopic{{TopicName: "rip-edocs-workspace", LockDuration: time.Minute}}})
	if err != nil || len(locked) != 1 {
		t.Fatalf("after shutdown the workspace task should wait for a worker: %d locked, %v", len(locked), err)
	}
}
