package pgstore_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/engine/local/pgstore"
	"github.com/regelkit/regelkit/engine/local/pgstore/pgtest"
)

func openStore(t *testing.T) *pgstore.Store {
	t.Helper()
	db := pgtest.New(t)
	s, err := pgstore.Open(context.Background(), db.Pool(t), pgstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// fill sets every field of v to a value that is not its zero, different
// per field, so that a round trip that drops or garbles any field shows.
func fill(v reflect.Value, n *int) {
	*n++
	switch v.Type() {
	case reflect.TypeFor[time.Time]():
		v.Set(reflect.ValueOf(time.Date(2026, 1, 2, 3, 4, 5, 123456789+*n, time.UTC)))
		return
	case reflect.TypeFor[engine.Variable]():
		v.Set(reflect.ValueOf(engine.String(fmt.Sprintf("waarde-%d", *n))))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprintf("s%d", *n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(int64(*n))
	case reflect.Float64:
		v.SetFloat(float64(*n) + 0.5)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), n)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fill(v.Index(i), n)
		}
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for range 2 {
			k := reflect.New(v.Type().Key()).Elem()
			e := reflect.New(v.Type().Elem()).Elem()
			fill(k, n)
			if v.Type().Elem().Kind() == reflect.Interface {
				e.Set(reflect.ValueOf(fmt.Sprintf("x%d", *n)))
			} else {
				fill(e, n)
			}
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), n)
			}
		}
	}
}

func filled[T any](n *int) T {
	var v T
	fill(reflect.ValueOf(&v).Elem(), n)
	return v
}

// TestRoundTrip writes a record of every kind with every field set and
// reads it back unchanged, so no field is lost between the engine's
// types and the rows.
func TestRoundTrip(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	n := 0
	inst := filled[local.InstanceRecord](&n)
	inst.Version = 0
	task := filled[local.TaskRecord](&n)
	task.Version = 0
	task.Task.ProcessInstanceID = inst.ID
	ext := filled[local.ExternalTaskRecord](&n)
	ext.Version = 0
	ext.InstanceID = inst.ID
	hist := local.HistoryChange{
		ProcessInstances: []engine.HistoricProcessInstance{filled[engine.HistoricProcessInstance](&n)},
		Activities:       []engine.HistoricActivity{filled[engine.HistoricActivity](&n)},
		Tasks:            []engine.HistoricTask{filled[engine.HistoricTask](&n)},
		Variables:        []engine.HistoricVariable{filled[engine.HistoricVariable](&n)},
		Decisions:        []engine.HistoricDecision{filled[engine.HistoricDecision](&n)},
	}
	if err := s.Commit(ctx, local.Change{Instances: []local.InstanceRecord{inst}, Tasks: []local.TaskRecord{task},
		ExternalTasks: []local.ExternalTaskRecord{ext}, History: hist}); err != nil {
		t.Fatal(err)
	}
	inst.Version, task.Version, ext.Version = 1, 1, 1

	gotInst, err := s.Instance(ctx, inst.ID)
	check(t, "instance", err, inst, gotInst)
	gotTask, err := s.Task(ctx, task.Task.ID)
	check(t, "task", err, task, gotTask)
	gotExt, err := s.ExternalTask(ctx, ext.ID)
	check(t, "external task", err, ext, gotExt)

	hpi, err := s.HistoricProcessInstances(ctx, engine.HistoricProcessInstanceQuery{})
	check(t, "historic instance", err, hist.ProcessInstances, hpi)
	act, err := s.HistoricActivities(ctx, engine.HistoricActivityQuery{})
	check(t, "historic activity", err, hist.Activities, act)
	ht, err := s.HistoricTasks(ctx, engine.HistoricTaskQuery{})
	check(t, "historic task", err, hist.Tasks, ht)
	hv, err := s.HistoricVariables(ctx, engine.HistoricVariableQuery{IncludeDeleted: true})
	check(t, "historic variable", err, hist.Variables, hv)
	hd, err := s.HistoricDecisions(ctx, engine.HistoricDecisionQuery{})
	check(t, "historic decision", err, hist.Decisions, hd)

	dep := local.DeploymentRecord{
		Deployment:         engine.Deployment{ID: "dep-1", Name: "naam", Source: "bron", TenantID: "t1", Time: time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)},
		Resources:          []local.ResourceRecord{{ID: "r1", Name: "a.bpmn", Data: []byte("<a/>")}, {ID: "r2", Name: "b.form", Data: []byte("{}")}},
		ProcessDefinitions: []engine.ProcessDefinition{filled[engine.ProcessDefinition](&n)},
	}
	dep.ProcessDefinitions[0].ID = "uuid-1"
	if err := s.CreateDeployment(ctx, &dep); err != nil {
		t.Fatal(err)
	}
	if want := "s" + dep.ProcessDefinitions[0].Key[1:] + ":1:uuid-1"; dep.ProcessDefinitions[0].ID != want || dep.ProcessDefinitions[0].Version != 1 {
		t.Errorf("definition id %q version %d, want %q version 1", dep.ProcessDefinitions[0].ID, dep.ProcessDefinitions[0].Version, want)
	}
	gotDep, err := s.Deployment(ctx, "dep-1")
	check(t, "deployment", err, dep, gotDep)
}

func check[T any](t *testing.T, what string, err error, want, got T) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("%s read back differs (-written +read):\n%s", what, d)
	}
}

func instance(id string, version int64) local.InstanceRecord {
	return local.InstanceRecord{ID: id, Version: version, DefinitionID: "P:1:x", DefinitionKey: "P",
		Variables: engine.Variables{"municipality": engine.String("0363")}, State: []byte("state-" + id)}
}

func openTask(id, instanceID, municipality string, groups ...string) local.TaskRecord {
	return local.TaskRecord{Task: engine.Task{ID: id, Name: "Beoordelen", ProcessInstanceID: instanceID,
		TaskDefinitionKey: "Beoordelen", CandidateGroups: groups, Created: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)},
		ProcessDefinitionKey: "P", Municipality: municipality}
}

// TestCommitConflicts: a write computed from a stale version, an insert
// of an id that exists and a delete of a changed record all fail with
// ErrConflict and leave the store as it was.
func TestCommitConflicts(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	if err := s.Commit(ctx, local.Change{Instances: []local.InstanceRecord{instance("i1", 0)},
		Tasks: []local.TaskRecord{openTask("t1", "i1", "0363", "behandelaar")}}); err != nil {
		t.Fatal(err)
	}
	// i1 and t1 are now at version 1; an engine that read them moves them
	// to 2 (claiming the task).
	claimed := openTask("t1", "i1", "0363", "behandelaar")
	claimed.Version, claimed.Task.Assignee = 1, "kees"
	if err := s.Commit(ctx, local.Change{Instances: []local.InstanceRecord{instance("i1", 1)}, Tasks: []local.TaskRecord{claimed}}); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		c    local.Change
		want local.ConflictError
	}{
		{"stale update", local.Change{Instances: []local.InstanceRecord{instance("i1", 1)}},
			local.ConflictError{Kind: "instance", ID: "i1", Want: 1, Have: 2}},
		{"insert of an existing id", local.Change{Instances: []local.InstanceRecord{instance("i1", 0)}},
			local.ConflictError{Kind: "instance", ID: "i1", Want: 0, Have: 2}},
		{"update of a missing id", local.Change{Instances: []local.InstanceRecord{instance("nope", 3)}},
			local.ConflictError{Kind: "instance", ID: "nope", Want: 3, Have: 0}},
		{"stale delete", local.Change{DeleteInstances: []local.Ref{{ID: "i1", Version: 1}}},
			local.ConflictError{Kind: "instance", ID: "i1", Want: 1, Have: 2}},
		{"task claimed meanwhile", local.Change{DeleteTasks: []local.Ref{{ID: "t1", Version: 1}}},
			local.ConflictError{Kind: "task", ID: "t1", Want: 1, Have: 2}},
	}
	for _, tc := range cases {
		err := s.Commit(ctx, tc.c)
		var ce *local.ConflictError
		if !errors.Is(err, local.ErrConflict) || !errors.As(err, &ce) {
			t.Errorf("%s: err = %v, want a conflict", tc.name, err)
			continue
		}
		if *ce != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, *ce, tc.want)
		}
	}
	got, err := s.Instance(ctx, "i1")
	if err != nil || got.Version != 2 {
		t.Fatalf("i1 after the refused commits: version %d, %v; want 2", got.Version, err)
	}
	if _, err := s.Task(ctx, "t1"); err != nil {
		t.Errorf("t1 was deleted by a refused commit: %v", err)
	}
}

// TestCommitAtomic: a Commit whose last write conflicts applies none of
// its other writes: no new instance, task, external task or history row.
func TestCommitAtomic(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	if err := s.Commit(ctx, local.Change{Instances: []local.InstanceRecord{instance("i1", 0)}}); err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := local.Change{
		Instances:     []local.InstanceRecord{instance("i2", 0), instance("i1", 7)}, // i1 is at 1: conflict
		Tasks:         []local.TaskRecord{openTask("t2", "i2", "0363", "behandelaar")},
		ExternalTasks: []local.ExternalTaskRecord{{ID: "e2", InstanceID: "i2", TopicName: "docs"}},
		History: local.HistoryChange{
			ProcessInstances: []engine.HistoricProcessInstance{{ID: "i2", ProcessDefinitionKey: "P", StartTime: start, State: engine.StateActive}},
			Activities:       []engine.HistoricActivity{{ID: "a2", ProcessInstanceID: "i2", StartTime: start}},
			Tasks:            []engine.HistoricTask{{ID: "t2", ProcessInstanceID: "i2", StartTime: start}},
			Variables:        []engine.HistoricVariable{{ID: "v2", Name: "x", ProcessInstanceID: "i2", Value: engine.Integer(1)}},
			Decisions:        []engine.HistoricDecision{{ID: "d2", ProcessInstanceID: "i2"}},
		},
	}
	if err := s.Commit(ctx, c); !errors.Is(err, local.ErrConflict) {
		t.Fatalf("err = %v, want a conflict", err)
	}
	if _, err := s.Instance(ctx, "i2"); !errors.Is(err, local.ErrNoRecord) {
		t.Errorf("instance i2: %v, want ErrNoRecord", err)
	}
	if _, err := s.Task(ctx, "t2"); !errors.Is(err, local.ErrNoRecord) {
		t.Errorf("task t2: %v, want ErrNoRecord", err)
	}
	if _, err := s.ExternalTask(ctx, "e2"); !errors.Is(err, local.ErrNoRecord) {
		t.Errorf("external task e2: %v, want ErrNoRecord", err)
	}
	hpi, _ := s.HistoricProcessInstances(ctx, engine.HistoricProcessInstanceQuery{})
	act, _ := s.HistoricActivities(ctx, engine.HistoricActivityQuery{})
	ht, _ := s.HistoricTasks(ctx, engine.HistoricTaskQuery{})
	hv, _ := s.HistoricVariables(ctx, engine.HistoricVariableQuery{})
	hd, _ := s.HistoricDecisions(ctx, engine.HistoricDecisionQuery{})
	if n := len(hpi) + len(act) + len(ht) + len(hv) + len(hd); n != 0 {
		t.Errorf("%d history rows written by a refused commit", n)
	}
	// The same change without the conflicting write goes through whole.
	c.Instances = c.Instances[:1]
	if err := s.Commit(ctx, c); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Task(ctx, "t2"); err != nil {
		t.Errorf("task t2 after the good commit: %v", err)
	}
}

// TestLockExternalTasksNeverTwice: eight workers lock the 300 fetchable
// tasks of a topic concurrently, five at a time; each task is locked by
// exactly one of them.
func TestLockExternalTasksNeverTwice(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	var ext []local.ExternalTaskRecord
	for i := range 300 {
		ext = append(ext, local.ExternalTaskRecord{ID: fmt.Sprintf("e%03d", i), InstanceID: "i", TopicName: "docs"})
	}
	// Not fetchable: another topic, suspended, out of retries, locked.
	zero := 0
	ext = append(ext,
		local.ExternalTaskRecord{ID: "other", TopicName: "mail"},
		local.ExternalTaskRecord{ID: "suspended", TopicName: "docs", Suspended: true},
		local.ExternalTaskRecord{ID: "noretries", TopicName: "docs", Retries: &zero},
		local.ExternalTaskRecord{ID: "locked", TopicName: "docs", WorkerID: "w0", LockExpiration: time.Now().Add(time.Hour)})
	if err := s.Commit(ctx, local.Change{ExternalTasks: ext}); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	lockedBy := map[string][]string{}
	var wg sync.WaitGroup
	for w := range 8 {
		worker := fmt.Sprintf("w%d", w+1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				got, err := s.LockExternalTasks(ctx, local.LockRequest{WorkerID: worker, MaxTasks: 5, Now: time.Now(),
					Topics: []engine.FetchTopic{{TopicName: "docs", LockDuration: time.Minute}}})
				if err != nil {
					t.Error(err)
					return
				}
				if len(got) == 0 {
					return
				}
				mu.Lock()
				for _, g := range got {
					lockedBy[g.ID] = append(lockedBy[g.ID], worker)
					if g.WorkerID != worker || g.Version != 2 {
						t.Errorf("%s locked for %q at version %d, want %s at 2", g.ID, g.WorkerID, g.Version, worker)
					}
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(lockedBy) != 300 {
		t.Errorf("%d tasks locked, want 300", len(lockedBy))
	}
	for id, ws := range lockedBy {
		if len(ws) != 1 {
			t.Errorf("%s locked by %v", id, ws)
		}
	}
	for _, id := range []string{"other", "suspended", "noretries", "locked"} {
		if _, ok := lockedBy[id]; ok {
			t.Errorf("%s was locked", id)
		}
	}
	stored, err := s.ExternalTask(ctx, "e000")
	if err != nil || stored.WorkerID == "" || stored.Version != 2 {
		t.Errorf("e000 stored as %+v, %v; want locked at version 2", stored, err)
	}
}

// TestBounds: a Commit that would hold more running instances or open
// tasks than the bounds is refused whole with *engine.StorageFullError;
// once some end, there is room again.
func TestBounds(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	s, err := pgstore.Open(ctx, db.Pool(t), pgstore.Options{MaxInstances: 3, MaxTasks: 4})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"i1", "i2", "i3"} {
		if err := s.Commit(ctx, local.Change{Instances: []local.InstanceRecord{instance(id, 0)}}); err != nil {
			t.Fatal(err)
		}
	}
	err = s.Commit(ctx, local.Change{Instances: []local.InstanceRecord{instance("i4", 0)},
		Tasks: []local.TaskRecord{openTask("t4", "i4", "0363")}})
	var full *engine.StorageFullError
	if !errors.As(err, &full) || *full != (engine.StorageFullError{Limit: "MaxInstances", Max: 3, Need: 4}) {
		t.Fatalf("a fourth instance: %v, want MaxInstances 3 full", err)
	}
	if _, err := s.Task(ctx, "t4"); !errors.Is(err, local.ErrNoRecord) {
		t.Errorf("the refused commit left task t4: %v", err)
	}
	// An instance ending makes room; another engine's count is read too.
	if err := s.Commit(ctx, local.Change{DeleteInstances: []local.Ref{{ID: "i1", Version: 1}}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Commit(ctx, local.Change{Instances: []local.InstanceRecord{instance("i4", 0)}}); err != nil {
		t.Errorf("after i1 ended: %v", err)
	}

	other, err := pgstore.Open(ctx, db.Pool(t), pgstore.Options{MaxTasks: 4})
	if err != nil {
		t.Fatal(err)
	}
	if err := other.Commit(ctx, local.Change{Tasks: []local.TaskRecord{openTask("t1", "i2", ""), openTask("t2", "i2", "")},
		ExternalTasks: []local.ExternalTaskRecord{{ID: "e1", InstanceID: "i2", TopicName: "docs"}}}); err != nil {
		t.Fatal(err)
	}
	err = s.Commit(ctx, local.Change{Tasks: []local.TaskRecord{openTask("t3", "i3", ""), openTask("t5", "i3", "")}})
	if !errors.As(err, &full) || *full != (engine.StorageFullError{Limit: "MaxTasks", Max: 4, Need: 5}) {
		t.Fatalf("two more tasks next to three of another engine: %v, want MaxTasks 4 full", err)
	}
	if err := s.Commit(ctx, local.Change{Tasks: []local.TaskRecord{openTask("t3", "i3", "")}}); err != nil {
		t.Errorf("a fourth task: %v", err)
	}
}

// TestTaskWithInstance: one read answers a task with its instance at the
// versions they have; a task whose instance is gone comes with the zero
// instance; a missing task is ErrNoRecord.
func TestTaskWithInstance(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	if err := s.Commit(ctx, local.Change{Instances: []local.InstanceRecord{instance("i1", 0)},
		Tasks: []local.TaskRecord{openTask("t1", "i1", "0363"), openTask("t2", "gone", "0363")}}); err != nil {
		t.Fatal(err)
	}
	in, _ := s.Instance(ctx, "i1")
	in.BusinessKey = "changed"
	if err := s.Commit(ctx, local.Change{Instances: []local.InstanceRecord{in}}); err != nil {
		t.Fatal(err)
	}
	task, inst, err := s.TaskWithInstance(ctx, "t1")
	if err != nil || task.Task.ID != "t1" || task.Version != 1 || task.Municipality != "0363" ||
		inst.ID != "i1" || inst.Version != 2 || inst.BusinessKey != "changed" {
		t.Errorf("t1: %+v, %+v, %v; want t1 v1 with i1 v2", task, inst, err)
	}
	task, inst, err = s.TaskWithInstance(ctx, "t2")
	if err != nil || task.Task.ID != "t2" || inst.ID != "" {
		t.Errorf("t2: %+v, %+v, %v; want t2 with no instance", task, inst, err)
	}
	if _, _, err := s.TaskWithInstance(ctx, "nope"); !errors.Is(err, local.ErrNoRecord) {
		t.Errorf("a missing task: %v, want ErrNoRecord", err)
	}
}
