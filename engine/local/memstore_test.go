package local

import (
	"context"
	"errors"
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
