package local

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/regelkit/regelkit/engine"
)

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

// TestMemoryStoreMunicipalityNumbers: the municipality filter finds what
// MatchVariable accepts also when a number is involved: the text "0363"
// finds the Integer 363, the number 363 finds every text of it; a task
// whose municipality changes leaves its old index entry.
func TestMemoryStoreMunicipalityNumbers(t *testing.T) {
	ctx := context.Background()
	s := NewMemoryStore(MemoryOptions{})
	munis := map[string]engine.Variable{"int": engine.Integer(363), "padded": engine.String("0363"),
		"text": engine.String("363"), "name": engine.String("utrecht")}
	var ch Change
	for id, v := range munis {
		vars := engine.Variables{"municipality": v}
		ch.Instances = append(ch.Instances, InstanceRecord{ID: id, Variables: vars})
		ch.Tasks = append(ch.Tasks, TaskRecord{Task: engine.Task{ID: "t-" + id, ProcessInstanceID: id}, Municipality: MunicipalityOf(vars)})
	}
	if err := s.Commit(ctx, ch); err != nil {
		t.Fatal(err)
	}
	find := func(v any) []string {
		t.Helper()
		ts, err := s.Tasks(ctx, engine.TaskQuery{ProcessVariables: []engine.VariableFilter{{Name: "municipality", Operator: "eq", Value: v}}, SortBy: "id", SortOrder: "asc"})
		if err != nil {
			t.Fatal(err)
		}
		out := []string{}
		for _, r := range ts {
			out = append(out, r.Task.ID)
		}
		return out
	}
	for _, c := range []struct {
		v    any
		want []string
	}{
		{"0363", []string{"t-int", "t-padded"}},
		{"363", []string{"t-int", "t-text"}},
		{json.Number("363"), []string{"t-int", "t-padded", "t-text"}},
		{json.Number("363.0"), []string{"t-int", "t-padded", "t-text"}},
		{"utrecht", []string{"t-name"}},
		{"0344", []string{}},
	} {
		if got := find(c.v); !slices.Equal(got, c.want) {
			t.Errorf("municipality eq %#v: %v, want %v", c.v, got, c.want)
		}
	}
	// the Integer instance moves to a name: out of the number's index
	task, _ := s.Task(ctx, "t-int")
	task.Municipality = "amsterdam"
	if err := s.Commit(ctx, Change{Tasks: []TaskRecord{task}}); err != nil {
		t.Fatal(err)
	}
	inst, _ := s.Instance(ctx, "int")
	inst.Variables = engine.Variables{"municipality": engine.String("amsterdam")}
	if err := s.Commit(ctx, Change{Instances: []InstanceRecord{inst}}); err != nil {
		t.Fatal(err)
	}
	if got := find(json.Number("363")); !slices.Equal(got, []string{"t-padded", "t-text"}) {
		t.Errorf("363 after the change: %v", got)
	}
	if got := find("amsterdam"); !slices.Equal(got, []string{"t-int"}) {
		t.Errorf("amsterdam after the change: %v", got)
	}
}
