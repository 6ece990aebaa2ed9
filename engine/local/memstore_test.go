package local

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/regelkit/regelkit/engine"
)

func TestMemoryStoreVersionsAndConflicts(t *testing.T) {
	ctx := context.Background()
	s := NewMemoryStore(MemoryOptions{})
	inst := InstanceRecord{ID: "i1", DefinitionKey: "p", Variables: engine.Variables{"municipality": engine.String("utrecht")}}
	task := TaskRecord{Task: engine.Task{ID: "t1", ProcessInstanceID: "i1", CandidateGroups: []string{"caseworker"}}, Municipality: "utrecht"}
	if err := s.Commit(ctx, Change{Instances: []InstanceRecord{inst}, Tasks: []TaskRecord{task}}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Instance(ctx, "i1")
	if err != nil || got.Version != 1 {
		t.Fatalf("Instance = %+v, %v; want version 1", got, err)
	}
	// an insert of an existing id conflicts
	err = s.Commit(ctx, Change{Instances: []InstanceRecord{inst}})
	if !errors.Is(err, ErrConflict) {
		t.Fatalf("second insert: %v, want ErrConflict", err)
	}
	// two writers read version 1; the second loses and nothing of its change is kept
	a, b := got, got
	a.BusinessKey = "A"
	b.BusinessKey = "B"
	if err := s.Commit(ctx, Change{Instances: []InstanceRecord{a}, DeleteTasks: []Ref{{"t1", 1}}}); err != nil {
		t.Fatal(err)
	}
	err = s.Commit(ctx, Change{Instances: []InstanceRecord{b}, Tasks: []TaskRecord{{Task: engine.Task{ID: "t2", ProcessInstanceID: "i1"}}}})
	var ce *ConflictError
	if !errors.As(err, &ce) || ce.Kind != "instance" || ce.Want != 1 || ce.Have != 2 {
		t.Fatalf("stale write: %v, want a conflict on instance i1 (version 2, expected 1)", err)
	}
	if _, err := s.Task(ctx, "t2"); !errors.Is(err, ErrNoRecord) {
		t.Fatalf("task of a refused change was kept: %v", err)
	}
	got, _ = s.Instance(ctx, "i1")
	if got.BusinessKey != "A" || got.Version != 2 {
		t.Fatalf("instance = %q v%d, want A v2", got.BusinessKey, got.Version)
	}
	// deleting a task twice: the second is a conflict
	if err := s.Commit(ctx, Change{DeleteTasks: []Ref{{"t1", 1}}}); !errors.Is(err, ErrConflict) {
		t.Fatalf("second delete: %v, want ErrConflict", err)
	}
}

func TestMemoryStoreTaskQueryIndexes(t *testing.T) {
	ctx := context.Background()
	s := NewMemoryStore(MemoryOptions{})
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var c Change
	for i, m := range []struct{ muni, group, assignee string }{
		{"utrecht", "caseworker", ""}, {"utrecht", "caseworker", "anna"}, {"utrecht", "manager", ""},
		{"amsterdam", "caseworker", ""},
	} {
		id := string(rune('a' + i))
		c.Instances = append(c.Instances, InstanceRecord{ID: "i" + id, Variables: engine.Variables{"municipality": engine.String(m.muni)}})
		c.Tasks = append(c.Tasks, TaskRecord{Task: engine.Task{ID: "t" + id, ProcessInstanceID: "i" + id, Assignee: m.assignee,
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

func TestMemoryStoreLockIsExclusive(t *testing.T) {
	ctx := context.Background()
	s := NewMemoryStore(MemoryOptions{})
	var c Change
	for i := range 100 {
		c.ExternalTasks = append(c.ExternalTasks, ExternalTaskRecord{ID: "x" + string(rune('A'+i/26)) + string(rune('a'+i%26)), TopicName: "docs"})
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
				got, err := s.LockExternalTasks(ctx, LockRequest{WorkerID: worker, MaxTasks: 3, Now: now,
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
	got, _ := s.LockExternalTasks(ctx, LockRequest{WorkerID: "late", MaxTasks: 1, Now: now.Add(2 * time.Minute),
		Topics: []engine.FetchTopic{{TopicName: "docs", LockDuration: time.Minute}}})
	if len(got) != 1 || got[0].WorkerID != "late" || got[0].Version != 3 {
		t.Fatalf("after expiry: %+v, want one task locked by late at version 3", got)
	}
}

func TestMemoryStoreBounds(t *testing.T) {
	ctx := context.Background()
	s := NewMemoryStore(MemoryOptions{MaxInstances: 2, MaxTasks: 1, MaxHistory: 1})
	if err := s.Commit(ctx, Change{Instances: []InstanceRecord{{ID: "a"}, {ID: "b"}}}); err != nil {
		t.Fatal(err)
	}
	err := s.Commit(ctx, Change{Instances: []InstanceRecord{{ID: "c"}}})
	var sf *engine.StorageFullError
	if !errors.As(err, &sf) || sf.Limit != "MaxInstances" || sf.Max != 2 {
		t.Fatalf("third instance: %v, want StorageFullError MaxInstances 2", err)
	}
	// ending one makes room in the same change
	if err := s.Commit(ctx, Change{Instances: []InstanceRecord{{ID: "c"}}, DeleteInstances: []Ref{{"a", 1}}}); err != nil {
		t.Fatal(err)
	}
	err = s.Commit(ctx, Change{Tasks: []TaskRecord{{Task: engine.Task{ID: "t1"}}}, ExternalTasks: []ExternalTaskRecord{{ID: "x1"}}})
	if !errors.As(err, &sf) || sf.Limit != "MaxTasks" {
		t.Fatalf("two tasks: %v, want StorageFullError MaxTasks", err)
	}
	// history: the oldest ended instance is dropped, a running one is kept
	end := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, h := range []engine.HistoricProcessInstance{
		{ID: "h1", ProcessDefinitionID: "p", EndTime: &end}, {ID: "h2", ProcessDefinitionID: "p"}, {ID: "h3", ProcessDefinitionID: "p"},
	} {
		if err := s.Commit(ctx, Change{History: HistoryChange{ProcessInstances: []engine.HistoricProcessInstance{h},
			Activities: []engine.HistoricActivity{{ID: "a" + h.ID, ProcessInstanceID: h.ID}}}}); err != nil {
			t.Fatal(err)
		}
	}
	hs, _ := s.HistoricProcessInstances(ctx, engine.HistoricProcessInstanceQuery{})
	if len(hs) != 2 || hs[0].ID != "h2" || hs[1].ID != "h3" {
		t.Fatalf("history = %+v, want h2 and h3 (h1 dropped)", hs)
	}
	acts, _ := s.HistoricActivities(ctx, engine.HistoricActivityQuery{ProcessInstanceID: "h1"})
	if len(acts) != 0 {
		t.Fatalf("activities of dropped h1 kept: %+v", acts)
	}
}

func TestMemoryStoreDefinitionVersions(t *testing.T) {
	ctx := context.Background()
	s := NewMemoryStore(MemoryOptions{})
	deploy := func(id, tenant string) DeploymentRecord {
		d := DeploymentRecord{Deployment: engine.Deployment{ID: id, TenantID: tenant},
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
