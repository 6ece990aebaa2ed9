// Package storetest is the conformance suite of local.Store: every store
// (the memory store, engine/local/pgstore) runs it to show it keeps the
// Store contract — optimistic versions, atomic commits, exclusive locks,
// the task list's filters, definition versions, history — and that two
// engines on one store never complete a task twice.
//
//	storetest.Run(t, func(t *testing.T) local.Store { return newStore(t) })
package storetest

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local"
)

// Run runs the suite; newStore returns a fresh, empty store for each subtest.
func Run(t *testing.T, newStore func(t *testing.T) local.Store) {
	for _, tc := range []struct {
		name string
		f    func(t *testing.T, s local.Store)
	}{
		{"VersionsAndConflicts", testVersionsAndConflicts},
		{"TaskQuery", testTaskQueryIndexes},
		{"LockIsExclusive", testLockIsExclusive},
		{"DefinitionVersions", testDefinitionVersions},
		{"History", testHistory},
		{"TwoEngines", testTwoEngines},
		{"Incidents", testIncidents},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.f(t, newStore(t)) })
	}
}

func testVersionsAndConflicts(t *testing.T, s local.Store) {
	ctx := context.Background()
	inst := local.InstanceRecord{ID: "i1", DefinitionKey: "p", Variables: engine.Variables{"municipality": engine.String("utrecht")}}
	task := local.TaskRecord{Task: engine.Task{ID: "t1", ProcessInstanceID: "i1", CandidateGroups: []string{"caseworker"}}, Municipality: "utrecht"}
	if err := s.Commit(ctx, local.Change{Instances: []local.InstanceRecord{inst}, Tasks: []local.TaskRecord{task}}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Instance(ctx, "i1")
	if err != nil || got.Version != 1 {
		t.Fatalf("Instance = %+v, %v; want version 1", got, err)
	}
	// an insert of an existing id conflicts
	err = s.Commit(ctx, local.Change{Instances: []local.InstanceRecord{inst}})
	if !errors.Is(err, local.ErrConflict) {
		t.Fatalf("second insert: %v, want local.ErrConflict", err)
	}
	// two writers read version 1; the second loses and nothing of its change is kept
	a, b := got, got
	a.BusinessKey = "A"
	b.BusinessKey = "B"
	if err := s.Commit(ctx, local.Change{Instances: []local.InstanceRecord{a}, DeleteTasks: []local.Ref{{ID: "t1", Version: 1}}}); err != nil {
		t.Fatal(err)
	}
	err = s.Commit(ctx, local.Change{Instances: []local.InstanceRecord{b}, Tasks: []local.TaskRecord{{Task: engine.Task{ID: "t2", ProcessInstanceID: "i1"}}}})
	var ce *local.ConflictError
	if !errors.As(err, &ce) || ce.Kind != "instance" || ce.Want != 1 || ce.Have != 2 {
		t.Fatalf("stale write: %v, want a conflict on instance i1 (version 2, expected 1)", err)
	}
	if _, err := s.Task(ctx, "t2"); !errors.Is(err, local.ErrNoRecord) {
		t.Fatalf("task of a refused change was kept: %v", err)
	}
	got, _ = s.Instance(ctx, "i1")
	if got.BusinessKey != "A" || got.Version != 2 {
		t.Fatalf("instance = %q v%d, want A v2", got.BusinessKey, got.Version)
	}
	// deleting a task twice: the second is a conflict
	if err := s.Commit(ctx, local.Change{DeleteTasks: []local.Ref{{ID: "t1", Version: 1}}}); !errors.Is(err, local.ErrConflict) {
		t.Fatalf("second delete: %v, want local.ErrConflict", err)
	}
}

func testTaskQueryIndexes(t *testing.T, s local.Store) {
	ctx := context.Background()
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var c local.Change
	for i, m := range []struct{ muni, group, assignee string }{
		{"utrecht", "caseworker", ""}, {"utrecht", "caseworker", "anna"}, {"utrecht", "manager", ""},
		{"amsterdam", "caseworker", ""},
	} {
		id := string(rune('a' + i))
		c.Instances = append(c.Instances, local.InstanceRecord{ID: "i" + id, Variables: engine.Variables{"municipality": engine.String(m.muni)}})
		c.Tasks = append(c.Tasks, local.TaskRecord{Task: engine.Task{ID: "t" + id, ProcessInstanceID: "i" + id, Assignee: m.assignee,
			CandidateGroups: []string{m.group}, Created: base.Add(time.Duration(i) * time.Minute)}, Municipality: m.muni})
	}
	if err := s.Commit(ctx, c); err != nil {
		t.Fatal(err)
	}
	ids := func(q engine.TaskQuery) []string {
		rs, err := s.Tasks(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range rs {
			out = append(out, r.Task.ID)
		}
		return out
	}
	muni := []engine.VariableFilter{{Name: "municipality", Operator: "eq", Value: "utrecht"}}
	for _, tc := range []struct {
		name string
		q    engine.TaskQuery
		want []string
	}{
		{"municipality", engine.TaskQuery{ProcessVariables: muni}, []string{"ta", "tb", "tc"}},
		{"municipality+group", engine.TaskQuery{ProcessVariables: muni, CandidateGroups: []string{"caseworker"}}, []string{"ta"}},
		{"with assigned, newest first", engine.TaskQuery{ProcessVariables: muni, CandidateGroups: []string{"caseworker"},
			IncludeAssignedTasks: true, SortBy: "created", SortOrder: "desc"}, []string{"tb", "ta"}},
		{"group only", engine.TaskQuery{CandidateGroup: "caseworker"}, []string{"ta", "td"}},
		{"paged", engine.TaskQuery{FirstResult: 1, MaxResults: 2}, []string{"tb", "tc"}},
		{"no rows", engine.TaskQuery{MaxResults: -1}, nil},
	} {
		if got := ids(tc.q); !equalStrings(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
	if n, _ := s.TaskCount(ctx, engine.TaskQuery{ProcessVariables: muni}); n != 3 {
		t.Errorf("TaskCount = %d, want 3", n)
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func testLockIsExclusive(t *testing.T, s local.Store) {
	ctx := context.Background()
	var c local.Change
	for i := range 100 {
		c.ExternalTasks = append(c.ExternalTasks, local.ExternalTaskRecord{ID: "x" + string(rune('A'+i/26)) + string(rune('a'+i%26)), TopicName: "docs"})
	}
	if err := s.Commit(ctx, c); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	seen := map[string]string{}
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			worker := string(rune('0' + w))
			for {
				got, err := s.LockExternalTasks(ctx, local.LockRequest{WorkerID: worker, MaxTasks: 3, Now: now,
					Topics: []engine.FetchTopic{{TopicName: "docs", LockDuration: time.Minute}}})
				if err != nil {
					t.Error(err)
					return
				}
				if len(got) == 0 {
					return
				}
				mu.Lock()
				for _, r := range got {
					if prev, dup := seen[r.ID]; dup {
						t.Errorf("task %s locked by %s and %s", r.ID, prev, worker)
					}
					seen[r.ID] = worker
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(seen) != 100 {
		t.Fatalf("locked %d tasks, want 100", len(seen))
	}
	// after the lock expires, the task is fetchable again
	got, _ := s.LockExternalTasks(ctx, local.LockRequest{WorkerID: "late", MaxTasks: 1, Now: now.Add(2 * time.Minute),
		Topics: []engine.FetchTopic{{TopicName: "docs", LockDuration: time.Minute}}})
	if len(got) != 1 || got[0].WorkerID != "late" || got[0].Version != 3 {
		t.Fatalf("after expiry: %+v, want one task locked by late at version 3", got)
	}
}

func testDefinitionVersions(t *testing.T, s local.Store) {
	ctx := context.Background()
	deploy := func(id, tenant string) local.DeploymentRecord {
		d := local.DeploymentRecord{Deployment: engine.Deployment{ID: id, TenantID: tenant},
			ProcessDefinitions: []engine.ProcessDefinition{{ID: "u-" + id, Key: "p", TenantID: tenant}}}
		if err := s.CreateDeployment(ctx, &d); err != nil {
			t.Fatal(err)
		}
		return d
	}
	d1 := deploy("d1", "")
	d2 := deploy("d2", "")
	d3 := deploy("d3", "t1")
	if d1.ProcessDefinitions[0].ID != "p:1:u-d1" || d2.ProcessDefinitions[0].ID != "p:2:u-d2" || d3.ProcessDefinitions[0].ID != "p:1:u-d3" {
		t.Fatalf("ids %s %s %s", d1.ProcessDefinitions[0].ID, d2.ProcessDefinitions[0].ID, d3.ProcessDefinitions[0].ID)
	}
	if d1.Seq != 1 || d3.Seq != 3 {
		t.Fatalf("seq %d %d", d1.Seq, d3.Seq)
	}
	l, err := s.LatestProcessDefinition(ctx, "p", "")
	if err != nil || l.Version != 2 {
		t.Fatalf("latest = %+v, %v", l, err)
	}
	if err := s.DeleteDeployment(ctx, "d2"); err != nil {
		t.Fatal(err)
	}
	l, _ = s.LatestProcessDefinition(ctx, "p", "")
	if l.Version != 1 {
		t.Fatalf("latest after delete = v%d, want 1", l.Version)
	}
	later, _ := s.Deployments(ctx, 1)
	if len(later) != 1 || later[0].Deployment.ID != "d3" {
		t.Fatalf("Deployments(after 1) = %+v, want d3", later)
	}
	latest, _ := s.ProcessDefinitions(ctx, engine.ProcessDefinitionQuery{Key: "p", LatestVersion: true})
	if len(latest) != 2 {
		t.Fatalf("latest versions = %+v, want one per tenant", latest)
	}
}

func testHistory(t *testing.T, s local.Store) {
	ctx := context.Background()
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	end := start.Add(time.Minute)
	row := engine.HistoricProcessInstance{ID: "p1", ProcessDefinitionID: "d:1:x", ProcessDefinitionKey: "d", StartTime: start, State: engine.StateActive}
	c := local.Change{History: local.HistoryChange{
		ProcessInstances: []engine.HistoricProcessInstance{row},
		Activities:       []engine.HistoricActivity{{ID: "a1", ProcessInstanceID: "p1", ActivityID: "s", ActivityType: "startEvent", StartTime: start}},
		Tasks:            []engine.HistoricTask{{ID: "t1", ProcessInstanceID: "p1", TaskDefinitionKey: "u", StartTime: start}},
		Variables: []engine.HistoricVariable{{ID: "v1", Name: "municipality", Value: engine.String("utrecht"), ProcessInstanceID: "p1", State: "CREATED"},
			{ID: "v2", Name: "n", Value: engine.Integer(1), ProcessInstanceID: "p1", State: "CREATED", CreateTime: start}},
		Decisions: []engine.HistoricDecision{{ID: "dec1", ProcessInstanceID: "p1", DecisionDefinitionKey: "k", ActivityID: "r",
			Outputs: []engine.HistoricDecisionOutput{{ID: "o1", VariableName: "x", Value: engine.String("een"), RuleOrder: 1}}}},
	}}
	if err := s.Commit(ctx, c); err != nil {
		t.Fatal(err)
	}
	// the instance ends: rows are replaced by id
	row.EndTime, row.State = &end, engine.StateCompleted
	if err := s.Commit(ctx, local.Change{History: local.HistoryChange{
		ProcessInstances: []engine.HistoricProcessInstance{row},
		Tasks:            []engine.HistoricTask{{ID: "t1", ProcessInstanceID: "p1", TaskDefinitionKey: "u", StartTime: start, EndTime: &end, DeleteReason: "completed"}},
		Variables:        []engine.HistoricVariable{{ID: "v2", Name: "n", Value: engine.Integer(2), ProcessInstanceID: "p1", State: "CREATED", CreateTime: end}},
	}}); err != nil {
		t.Fatal(err)
	}
	hs, err := s.HistoricProcessInstances(ctx, engine.HistoricProcessInstanceQuery{Finished: true,
		Variables: []engine.VariableFilter{{Name: "municipality", Operator: "eq", Value: "utrecht"}}})
	if err != nil || len(hs) != 1 || hs[0].State != engine.StateCompleted || hs[0].EndTime == nil || !hs[0].EndTime.Equal(end) {
		t.Fatalf("finished instances of utrecht = %+v, %v", hs, err)
	}
	if hs, _ := s.HistoricProcessInstances(ctx, engine.HistoricProcessInstanceQuery{Unfinished: true}); len(hs) != 0 {
		t.Errorf("unfinished = %+v, want none", hs)
	}
	ts, err := s.HistoricTasks(ctx, engine.HistoricTaskQuery{Finished: true, ProcessVariables: []engine.VariableFilter{{Name: "municipality", Operator: "eq", Value: "utrecht"}}})
	if err != nil || len(ts) != 1 || ts[0].DeleteReason != "completed" {
		t.Fatalf("finished tasks = %+v, %v", ts, err)
	}
	vs, err := s.HistoricVariables(ctx, engine.HistoricVariableQuery{ProcessInstanceID: "p1", SortBy: "variableName", SortOrder: "asc"})
	if err != nil || len(vs) != 2 || vs[0].Name != "municipality" || vs[1].Name != "n" || !vs[1].Value.Equal(engine.Integer(2)) {
		t.Fatalf("variables = %+v, %v; want municipality and n = 2 (the latest value)", vs, err)
	}
	if !vs[1].CreateTime.Equal(start) {
		t.Errorf("createTime of n = %v, want %v: an update keeps the first", vs[1].CreateTime, start)
	}
	ds, err := s.HistoricDecisions(ctx, engine.HistoricDecisionQuery{ProcessInstanceID: "p1"})
	if err != nil || len(ds) != 1 || len(ds[0].Outputs) != 1 || !ds[0].Outputs[0].Value.Equal(engine.String("een")) {
		t.Fatalf("decisions = %+v, %v", ds, err)
	}
	as, err := s.HistoricActivities(ctx, engine.HistoricActivityQuery{ProcessInstanceID: "p1"})
	if err != nil || len(as) != 1 || as[0].ActivityType != "startEvent" {
		t.Fatalf("activities = %+v, %v", as, err)
	}
	if err := s.DeleteHistory(ctx, "p1"); err != nil {
		t.Fatal(err)
	}
	hs, _ = s.HistoricProcessInstances(ctx, engine.HistoricProcessInstanceQuery{})
	as, _ = s.HistoricActivities(ctx, engine.HistoricActivityQuery{})
	vs, _ = s.HistoricVariables(ctx, engine.HistoricVariableQuery{})
	if len(hs)+len(as)+len(vs) != 0 {
		t.Errorf("history left after DeleteHistory: %d instances, %d activities, %d variables", len(hs), len(as), len(vs))
	}
}

const okProcess = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" id="D" targetNamespace="http://regelkit.test">
<bpmn:process id="Ok" isExecutable="true"><bpmn:startEvent id="s"/><bpmn:userTask id="u"/><bpmn:endEvent id="e"/>
<bpmn:sequenceFlow id="f1" sourceRef="s" targetRef="u"/><bpmn:sequenceFlow id="f2" sourceRef="u" targetRef="e"/></bpmn:process></bpmn:definitions>`

// testTwoEngines: two engines on one store see each other's deployment
// and, racing to complete the same tasks, complete each exactly once;
// the losers get Operaton's 404.
func testTwoEngines(t *testing.T, s local.Store) {
	ctx := context.Background()
	e1, e2 := local.New(local.Options{Store: s}), local.New(local.Options{Store: s})
	if _, err := e1.Deploy(ctx, engine.NewDeployment{Name: "ok", Resources: []engine.Resource{{Name: "ok.bpmn", Data: []byte(okProcess)}}}); err != nil {
		t.Fatal(err)
	}
	n := 200
	if testing.Short() {
		n = 20
	}
	for range n {
		if _, err := e2.StartProcess(ctx, engine.StartProcess{Key: "Ok"}); err != nil {
			t.Fatal(err)
		}
	}
	tasks, err := e1.Tasks(ctx, engine.TaskQuery{})
	if err != nil || len(tasks) != n {
		t.Fatalf("tasks = %d, %v; want %d", len(tasks), err, n)
	}
	var completed, lost atomic.Int64
	var wg sync.WaitGroup
	for _, e := range []*local.Engine{e1, e2, e1, e2} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, task := range tasks {
				err := e.CompleteTask(ctx, task.ID, engine.Variables{"by": engine.String("x")})
				switch {
				case err == nil:
					completed.Add(1)
				case errors.Is(err, engine.ErrNotFound):
					lost.Add(1)
				default:
					t.Errorf("complete: %v", err)
				}
			}
		}()
	}
	wg.Wait()
	if completed.Load() != int64(n) || lost.Load() != int64(3*n) {
		t.Errorf("completed %d, lost %d; want %d and %d", completed.Load(), lost.Load(), n, 3*n)
	}
	hs, _ := e2.HistoricProcessInstances(ctx, engine.HistoricProcessInstanceQuery{State: engine.StateCompleted})
	if len(hs) != n {
		t.Errorf("%d completed instances in history, want %d", len(hs), n)
	}
	hts, _ := e1.HistoricTasks(ctx, engine.HistoricTaskQuery{Finished: true})
	if len(hts) != n {
		t.Errorf("%d finished tasks in history, want %d", len(hts), n)
	}
}

// testIncidents: the external tasks with an IncidentID are the incidents,
// filtered, sorted and paged; clearing the IncidentID or deleting the task
// resolves one, in the Commit that does so.
func testIncidents(t *testing.T, s local.Store) {
	ctx := context.Background()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	zero := 0
	ext := func(id, inst, act, tenant, incident string, when time.Time) local.ExternalTaskRecord {
		r := local.ExternalTaskRecord{ID: id, InstanceID: inst, ExecutionID: "x-" + id, ActivityID: act, TopicName: "t",
			DefinitionID: "p:1:u", DefinitionKey: "p", TenantID: tenant, ErrorMessage: "down " + id, CreateTime: at}
		if incident != "" {
			r.Retries, r.IncidentID, r.IncidentTime = &zero, incident, when
		}
		return r
	}
	err := s.Commit(ctx, local.Change{ExternalTasks: []local.ExternalTaskRecord{
		ext("e1", "i1", "send", "utrecht", "inc1", at.Add(2*time.Second)),
		ext("e2", "i1", "file", "utrecht", "", time.Time{}),
		ext("e3", "i2", "send", "", "inc3", at.Add(time.Second)),
		ext("e4", "i3", "file", "amsterdam", "inc4", at.Add(3*time.Second)),
	}})
	if err != nil {
		t.Fatal(err)
	}
	ids := func(q engine.IncidentQuery) []string {
		t.Helper()
		is, err := s.Incidents(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		out := []string{}
		for _, i := range is {
			out = append(out, i.ID)
		}
		return out
	}
	for _, c := range []struct {
		q    engine.IncidentQuery
		want []string
	}{
		{engine.IncidentQuery{}, []string{"inc1", "inc3", "inc4"}},
		{engine.IncidentQuery{ProcessInstanceID: "i1"}, []string{"inc1"}},
		{engine.IncidentQuery{ActivityID: "send"}, []string{"inc1", "inc3"}},
		{engine.IncidentQuery{TenantIDIn: []string{"amsterdam", "utrecht"}}, []string{"inc1", "inc4"}},
		{engine.IncidentQuery{IncidentID: "inc3"}, []string{"inc3"}},
		{engine.IncidentQuery{IncidentType: "failedJob"}, []string{}},
		{engine.IncidentQuery{SortBy: "incidentTimestamp", SortOrder: "asc"}, []string{"inc3", "inc1", "inc4"}},
		{engine.IncidentQuery{SortBy: "incidentTimestamp", SortOrder: "desc", FirstResult: 1, MaxResults: 1}, []string{"inc1"}},
	} {
		if got := ids(c.q); !equalStrings(got, c.want) {
			t.Errorf("Incidents(%+v) = %v, want %v", c.q, got, c.want)
		}
	}
	is, err := s.Incidents(ctx, engine.IncidentQuery{IncidentID: "inc1"})
	if err != nil || len(is) != 1 {
		t.Fatalf("Incidents(inc1) = %v, %v", is, err)
	}
	want := engine.Incident{ID: "inc1", ProcessDefinitionID: "p:1:u", ProcessInstanceID: "i1", ExecutionID: "x-e1",
		Timestamp: at.Add(2 * time.Second), Type: "failedExternalTask", ActivityID: "send", FailedActivityID: "send",
		CauseIncidentID: "inc1", RootCauseIncidentID: "inc1", Configuration: "e1", TenantID: "utrecht", Message: "down e1"}
	got := is[0]
	if got.Timestamp.Equal(want.Timestamp) {
		got.Timestamp = want.Timestamp // a database may answer in another location
	}
	if got != want {
		t.Errorf("incident inc1 = %+v, want %+v", is[0], want)
	}
	// resolve inc1 (retries set again) and inc3 (task completed) in one Commit
	e1, err := s.ExternalTask(ctx, "e1")
	if err != nil {
		t.Fatal(err)
	}
	two := 2
	e1.Retries, e1.IncidentID, e1.IncidentTime = &two, "", time.Time{}
	if err := s.Commit(ctx, local.Change{ExternalTasks: []local.ExternalTaskRecord{e1},
		DeleteExternalTasks: []local.Ref{{ID: "e3", Version: 1}}}); err != nil {
		t.Fatal(err)
	}
	if got := ids(engine.IncidentQuery{}); !equalStrings(got, []string{"inc4"}) {
		t.Errorf("after resolving: %v, want [inc4]", got)
	}
}
