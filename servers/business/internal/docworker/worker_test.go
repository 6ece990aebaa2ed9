package docworker

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/regelkit/regelkit/docmgmt"
	"github.com/regelkit/regelkit/docmgmt/edocstest"
	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local"
)

// newEngine is the embedded engine with the project-phase bundle deployed;
// the test skips until the embedded engine runs processes.
func newEngine(t *testing.T) engine.Processes { return newEngineWith(t, nil) }

// clock is an engine clock the test moves.
type clock struct{ ns atomic.Int64 }

func (c *clock) now() time.Time          { return time.Unix(0, c.ns.Load()) }
func (c *clock) advance(d time.Duration) { c.ns.Add(int64(d)) }

// newEngineWith deploys the bundle with each file passed through edit.
func newEngineWith(t *testing.T, edit func(name string, data []byte) []byte) engine.Processes {
	return newEngineAt(t, edit, nil)
}

func newEngineAt(t *testing.T, edit func(name string, data []byte) []byte, c *clock) engine.Processes {
	t.Helper()
	opts := local.Options{}
	if c != nil {
		c.ns.Store(time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC).UnixNano())
		opts.Now = c.now
	}
	l := local.New(opts)
	pe, ok := any(l).(engine.Processes)
	if !ok {
		t.Skip("the embedded engine runs no processes yet (engine/local runtime)")
	}
	dir := "../../../../examples/processes/projectphase"
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var rs []engine.Resource
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if edit != nil {
			data = edit(e.Name(), data)
		}
		rs = append(rs, engine.Resource{Name: e.Name(), Data: data})
	}
	if _, err := l.Deploy(context.Background(), engine.NewDeployment{Name: "projectphase", Resources: rs}); err != nil {
		t.Fatal(err)
	}
	return pe
}

func start(t *testing.T, pe engine.Processes, number string) string {
	t.Helper()
	pi, err := pe.StartProcess(context.Background(), engine.StartProcess{Key: "RipPhase1Process", Variables: engine.Variables{
		"projectNumber": engine.String(number), "projectName": engine.String("Fietsbrug Noord"),
		"projectLeader": engine.String("Anna Bakker"), "municipality": engine.String("utrecht"),
	}})
	if err != nil {
		t.Fatal(err)
	}
	return pi.ID
}

// openTask is the one open user task of the instance ("" when none).
func openTask(t *testing.T, pe engine.Processes, instance string) engine.Task {
	t.Helper()
	ts, err := pe.Tasks(context.Background(), engine.TaskQuery{ProcessInstanceID: instance})
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 1 {
		return engine.Task{}
	}
	return ts[0]
}

func poll(t *testing.T, w *Worker, want int) {
	t.Helper()
	n, err := w.Poll(context.Background())
	if err != nil || n != want {
		t.Fatalf("Poll = %d, %v; want %d", n, err, want)
	}
}

func TestWorkerFilesTheProjectDocuments(t *testing.T) {
	pe := newEngine(t)
	stub := docmgmt.NewStub(docmgmt.StubConfig{Documents: []docmgmt.Document{}})
	w := New(Options{Engine: pe, Docs: stub})
	id := start(t, pe, "2026-017")
	poll(t, w, 1)
	vars, err := pe.ProcessInstanceVariables(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if vars[VarWorkspaceID].Plain() != "stub-ws-2026-017" || vars[VarWorkspaceName].Plain() != "2026-017 — Fietsbrug Noord" {
		t.Errorf("workspace variables %v %v", vars[VarWorkspaceID], vars[VarWorkspaceName])
	}
	if task := openTask(t, pe, id); task.TaskDefinitionKey != "Activity_Intake" {
		t.Fatalf("open task %q, want Activity_Intake", task.TaskDefinitionKey)
	}
	if err := pe.CompleteTask(context.Background(), openTask(t, pe, id).ID, nil); err != nil {
		t.Fatal(err)
	}
	poll(t, w, 1)
	docs, err := stub.ListDocuments(context.Background(), "stub-ws-2026-017")
	if err != nil || len(docs) != 1 || docs[0].Name != "Intakerapport" {
		t.Fatalf("filed documents %+v %v", docs, err)
	}
	vars, _ = pe.ProcessInstanceVariables(context.Background(), id)
	if vars["ripIntakeReportDocumentId"].Plain() != docs[0].ID || vars["ripIntakeReportDocumentNumber"].Plain() != docs[0].DocumentNumber {
		t.Errorf("document variables %v %v, want %s %s", vars["ripIntakeReportDocumentId"], vars["ripIntakeReportDocumentNumber"], docs[0].ID, docs[0].DocumentNumber)
	}
	if task := openTask(t, pe, id); task.TaskDefinitionKey != "Activity_Psu" {
		t.Errorf("open task %q, want Activity_Psu", task.TaskDefinitionKey)
	}
}

// TestWorkerRetriesWithBackoffThenThrows: a document system that fails
// gets the task back with one retry less after a growing back-off; the
// last failure of the workspace task throws DOCMGMT_UNAVAILABLE, which the
// process catches with its manual fallback task.
func TestWorkerRetriesWithBackoffThenThrows(t *testing.T) {
	c := &clock{}
	pe := newEngineAt(t, nil, c)
	srv := edocstest.New(t)
	live, err := docmgmt.NewLive(docmgmt.LiveConfig{BaseURL: srv.BaseURL, Library: edocstest.Library, UserID: edocstest.UserID, Password: edocstest.Password})
	if err != nil {
		t.Fatal(err)
	}
	srv.Fail("", "/workspaces", 500, "Library is offline")
	w := New(Options{Engine: pe, Docs: live, RetryTimeout: 10 * time.Second})
	id := start(t, pe, "2026-018")
	poll(t, w, 1) // failure 1: retries 2, back-off 10 s
	poll(t, w, 0) // not fetchable during the back-off
	c.advance(11 * time.Second)
	poll(t, w, 1) // failure 2: retries 1, back-off 20 s
	c.advance(11 * time.Second)
	poll(t, w, 0) // the back-off doubled
	if task := openTask(t, pe, id); task.ID != "" {
		t.Fatalf("a user task is open before the retries are used up: %s", task.TaskDefinitionKey)
	}
	c.advance(10 * time.Second)
	poll(t, w, 1) // failure 3: the BPMN error
	if task := openTask(t, pe, id); task.TaskDefinitionKey != "Activity_WerkruimteHandmatig" {
		t.Fatalf("open task %q, want the manual fallback Activity_WerkruimteHandmatig", task.TaskDefinitionKey)
	}
	poll(t, w, 0)
}

// TestWorkerDocumentFailureLeavesAnIncident: a document task whose template
// the deployment lacks is not retried: its retries go to 0 at once and it
// is not fetched again (an incident), the process waits there.
func TestWorkerDocumentFailureLeavesAnIncident(t *testing.T) {
	pe := newEngineWith(t, func(name string, data []byte) []byte {
		if name != "RipPhase1.bpmn" {
			return data
		}
		return []byte(strings.Replace(string(data), ">rip-intake-report<", ">rip-missing<", 1))
	})
	w := New(Options{Engine: pe, Docs: docmgmt.NewStub(docmgmt.StubConfig{}), RetryTimeout: time.Millisecond})
	id := start(t, pe, "2026-019")
	poll(t, w, 1)
	if err := pe.CompleteTask(context.Background(), openTask(t, pe, id).ID, nil); err != nil {
		t.Fatal(err)
	}
	poll(t, w, 1)
	time.Sleep(20 * time.Millisecond)
	poll(t, w, 0)
	if task := openTask(t, pe, id); task.ID != "" {
		t.Errorf("the process moved on past a failed document task: %s", task.TaskDefinitionKey)
	}
}

// TestWorkerInvalidRequestIsNotRetried: a workspace request the document
// system refuses as invalid (a project number eDOCS cannot filter on) goes
// to the manual fallback at once.
func TestWorkerInvalidRequestIsNotRetried(t *testing.T) {
	pe := newEngine(t)
	w := New(Options{Engine: pe, Docs: docmgmt.NewStub(docmgmt.StubConfig{})})
	id := start(t, pe, "2026'bad")
	poll(t, w, 1)
	if task := openTask(t, pe, id); task.TaskDefinitionKey != "Activity_WerkruimteHandmatig" {
		t.Errorf("open task %q, want the manual fallback Activity_WerkruimteHandmatig", task.TaskDefinitionKey)
	}
}

func TestRunReturnsWhenCancelled(t *testing.T) {
	pe := newEngine(t)
	w := New(Options{Engine: pe, Docs: docmgmt.NewStub(docmgmt.StubConfig{}), PollInterval: 20 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	id := start(t, pe, "2026-021")
	deadline := time.Now().Add(5 * time.Second)
	for openTask(t, pe, id).TaskDefinitionKey != "Activity_Intake" {
		if time.Now().After(deadline) {
			t.Fatal("Run did not handle the workspace task")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run = %v, want nil", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
}
