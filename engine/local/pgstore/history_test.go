package pgstore_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/engine/local/pgstore"
	"github.com/regelkit/regelkit/engine/local/pgstore/pgtest"
)

// historyFixture: four instances with tasks, activities, decisions and
// variables; i4's municipality was deleted, i3's is an Integer.
func historyFixture() []local.Change {
	t0 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	at := func(m int) *time.Time { t := t0.Add(time.Duration(m) * time.Minute); return &t }
	var cs []local.Change
	munis := []engine.Variable{engine.String("0363"), engine.String("0599"), engine.Integer(363), engine.String("0363")}
	for i, m := range munis {
		id := fmt.Sprintf("i%d", i+1)
		key := "P"
		if i == 1 {
			key = "Q"
		}
		h := local.HistoryChange{
			ProcessInstances: []engine.HistoricProcessInstance{{ID: id, ProcessDefinitionKey: key, ProcessDefinitionID: key + ":1:x",
				BusinessKey: "bk" + id, StartTime: *at(10 - i), State: engine.StateActive}},
			Activities: []engine.HistoricActivity{{ID: "a" + id, ProcessInstanceID: id, ActivityID: "Start", ActivityType: "startEvent", StartTime: *at(10 - i)}},
			Tasks: []engine.HistoricTask{{ID: "t" + id, ProcessInstanceID: id, ProcessDefinitionKey: key, TaskDefinitionKey: "Beoordelen",
				StartTime: *at(10 - i), Assignee: "kees"}},
			Variables: []engine.HistoricVariable{
				{ID: "m" + id, Name: "municipality", Value: m, ProcessInstanceID: id, ProcessDefinitionKey: key, State: "CREATED"},
				{ID: "a" + id, Name: "applicantId", Value: engine.String(fmt.Sprintf("a%d", i%2)), ProcessInstanceID: id, ProcessDefinitionKey: key, State: "CREATED"}},
			Decisions: []engine.HistoricDecision{{ID: "d" + id, ProcessInstanceID: id, ProcessDefinitionKey: key, DecisionDefinitionKey: "D",
				EvaluationTime: *at(20 + i), Inputs: []engine.HistoricDecisionInput{{ID: "in" + id, ClauseID: "c", Value: engine.Integer(int32(i))}}}},
		}
		cs = append(cs, local.Change{History: h})
	}
	// i1 and i3 end; i4's municipality is removed.
	end := local.HistoryChange{}
	for _, i := range []int{1, 3} {
		id := fmt.Sprintf("i%d", i)
		end.ProcessInstances = append(end.ProcessInstances, engine.HistoricProcessInstance{ID: id, ProcessDefinitionKey: "P",
			ProcessDefinitionID: "P:1:x", BusinessKey: "bk" + id, StartTime: *at(10 - i + 1), EndTime: at(30 + i), State: engine.StateCompleted})
		end.Tasks = append(end.Tasks, engine.HistoricTask{ID: "t" + id, ProcessInstanceID: id, ProcessDefinitionKey: "P",
			TaskDefinitionKey: "Beoordelen", StartTime: *at(10 - i + 1), EndTime: at(30 + i), Assignee: "kees"})
	}
	end.Variables = append(end.Variables, engine.HistoricVariable{ID: "mi4", Name: "municipality", Value: engine.String("0363"),
		ProcessInstanceID: "i4", ProcessDefinitionKey: "P", State: "DELETED"})
	return append(cs, local.Change{History: end})
}

// TestHistoryQueries compares history queries on PostgreSQL with the
// memory store holding the same rows, with some answers by hand.
func TestHistoryQueries(t *testing.T) {
	ctx := context.Background()
	pg := openStore(t)
	mem := local.NewMemoryStore(local.MemoryOptions{})
	for _, s := range []local.Store{pg, mem} {
		for _, c := range historyFixture() {
			if err := s.Commit(ctx, c); err != nil {
				t.Fatal(err)
			}
		}
	}
	muni := []engine.VariableFilter{{Name: "municipality", Operator: "eq", Value: "0363"}}
	hpi := []struct {
		name string
		q    engine.HistoricProcessInstanceQuery
		want []string
	}{
		{"all", engine.HistoricProcessInstanceQuery{}, []string{"i1", "i2", "i3", "i4"}},
		// i3's Integer 363 equals "0363" numerically; i4's was deleted
		{"municipality", engine.HistoricProcessInstanceQuery{Variables: muni}, []string{"i1", "i3"}},
		{"applicant and municipality, oldest first", engine.HistoricProcessInstanceQuery{
			Variables: append([]engine.VariableFilter{{Name: "applicantId", Operator: "eq", Value: "a0"}}, muni...),
			Sorting:   []engine.Sorting{{SortBy: "startTime", SortOrder: "asc"}}}, []string{"i3", "i1"}},
		{"finished", engine.HistoricProcessInstanceQuery{Finished: true, ProcessDefinitionKey: "P"}, []string{"i1", "i3"}},
		{"ids", engine.HistoricProcessInstanceQuery{ProcessInstanceIDs: []string{"i4", "i2", "nope"}}, []string{"i2", "i4"}},
		{"state", engine.HistoricProcessInstanceQuery{State: engine.StateActive, BusinessKey: "bki4"}, []string{"i4"}},
	}
	for _, tc := range hpi {
		got, err := pg.HistoricProcessInstances(ctx, tc.q)
		if err != nil {
			t.Fatal(err)
		}
		ref, _ := mem.HistoricProcessInstances(ctx, tc.q)
		if d := cmp.Diff(ref, got); d != "" {
			t.Errorf("historic instances %s: (-memory +PostgreSQL):\n%s", tc.name, d)
		}
		if ids := idsOf(got, func(h engine.HistoricProcessInstance) string { return h.ID }); !slices.Equal(ids, tc.want) {
			t.Errorf("historic instances %s: %v, want %v", tc.name, ids, tc.want)
		}
	}
	htq := []struct {
		name string
		q    engine.HistoricTaskQuery
		want []string
	}{
		{"business task history", engine.HistoricTaskQuery{Finished: true, ProcessVariables: muni, SortBy: "endTime", SortOrder: "desc", MaxResults: 200},
			[]string{"ti3", "ti1"}},
		{"unfinished", engine.HistoricTaskQuery{Unfinished: true}, []string{"ti2", "ti4"}},
		{"instance", engine.HistoricTaskQuery{ProcessInstanceIDIn: []string{"i2", "i3"}, TaskAssignee: "kees"}, []string{"ti2", "ti3"}},
	}
	for _, tc := range htq {
		got, err := pg.HistoricTasks(ctx, tc.q)
		if err != nil {
			t.Fatal(err)
		}
		ref, _ := mem.HistoricTasks(ctx, tc.q)
		if d := cmp.Diff(ref, got); d != "" {
			t.Errorf("historic tasks %s: (-memory +PostgreSQL):\n%s", tc.name, d)
		}
		if ids := idsOf(got, func(h engine.HistoricTask) string { return h.ID }); !slices.Equal(ids, tc.want) {
			t.Errorf("historic tasks %s: %v, want %v", tc.name, ids, tc.want)
		}
	}
	for _, q := range []engine.HistoricVariableQuery{{}, {IncludeDeleted: true}, {ProcessInstanceID: "i4"},
		{VariableName: "municipality", SortBy: "instanceId", SortOrder: "desc"}, {ProcessDefinitionKey: "Q"}, {VariableNameLike: "app%"}} {
		got, err := pg.HistoricVariables(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		ref, _ := mem.HistoricVariables(ctx, q)
		if d := cmp.Diff(ref, got); d != "" {
			t.Errorf("historic variables %+v: (-memory +PostgreSQL):\n%s", q, d)
		}
	}
	for _, q := range []engine.HistoricActivityQuery{{}, {ProcessInstanceID: "i2"}, {ActivityType: "startEvent", SortBy: "startTime"}} {
		got, err := pg.HistoricActivities(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		ref, _ := mem.HistoricActivities(ctx, q)
		if d := cmp.Diff(ref, got); d != "" {
			t.Errorf("historic activities %+v: (-memory +PostgreSQL):\n%s", q, d)
		}
	}
	for _, q := range []engine.HistoricDecisionQuery{{}, {ProcessInstanceID: "i3"}, {ProcessDefinitionKey: "Q"}, {SortBy: "evaluationTime", SortOrder: "desc"}} {
		got, err := pg.HistoricDecisions(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		ref, _ := mem.HistoricDecisions(ctx, q)
		if d := cmp.Diff(ref, got); d != "" {
			t.Errorf("historic decisions %+v: (-memory +PostgreSQL):\n%s", q, d)
		}
	}
	// DeleteHistory removes every row of the instances.
	if err := pg.DeleteHistory(ctx, "i1", "i2"); err != nil {
		t.Fatal(err)
	}
	left, _ := pg.HistoricProcessInstances(ctx, engine.HistoricProcessInstanceQuery{})
	vars, _ := pg.HistoricVariables(ctx, engine.HistoricVariableQuery{ProcessInstanceIDIn: []string{"i1", "i2"}})
	decs, _ := pg.HistoricDecisions(ctx, engine.HistoricDecisionQuery{ProcessInstanceID: "i1"})
	if ids := idsOf(left, func(h engine.HistoricProcessInstance) string { return h.ID }); !slices.Equal(ids, []string{"i3", "i4"}) || len(vars)+len(decs) != 0 {
		t.Errorf("after DeleteHistory(i1, i2): instances %v, %d variables, %d decisions", ids, len(vars), len(decs))
	}
}

func idsOf[T any](xs []T, id func(T) string) []string {
	out := []string{}
	for _, x := range xs {
		out = append(out, id(x))
	}
	return out
}

// TestHistoryPagesReadLittle: a page near the top of a long history
// listing is answered from the first rows in SQL order, within a MaxScan
// far below the listing's length, and equals the memory store's page.
func TestHistoryPagesReadLittle(t *testing.T) {
	ctx := context.Background()
	db := pgtest.New(t)
	pg, err := pgstore.Open(ctx, db.Pool(t), pgstore.Options{MaxScan: 500})
	if err != nil {
		t.Fatal(err)
	}
	mem := local.NewMemoryStore(local.MemoryOptions{})
	t0 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	var h local.HistoryChange
	for i := range 2000 {
		id := fmt.Sprintf("i%04d", i)
		name := "b"
		if i%10 == 0 {
			name = "a"
		}
		h.Variables = append(h.Variables, engine.HistoricVariable{ID: "v" + id, Name: name, Value: engine.Integer(int32(i)),
			ProcessInstanceID: id, ProcessDefinitionKey: "P", State: "CREATED", CreateTime: t0})
		ht := engine.HistoricTask{ID: "t" + id, ProcessInstanceID: id, ProcessDefinitionKey: "P", StartTime: t0}
		if i%3 != 0 {
			end := t0.Add(time.Duration(i%700) * time.Second) // ties in end time, some unfinished
			ht.EndTime = &end
		}
		h.Tasks = append(h.Tasks, ht)
	}
	for _, s := range []local.Store{pg, mem} {
		if err := s.Commit(ctx, local.Change{History: h}); err != nil {
			t.Fatal(err)
		}
	}
	vq := engine.HistoricVariableQuery{VariableNameLike: "a%", FirstResult: 30, MaxResults: 15}
	got, err := pg.HistoricVariables(ctx, vq)
	if err != nil {
		t.Fatal(err)
	}
	ref, _ := mem.HistoricVariables(ctx, vq)
	if d := cmp.Diff(ref, got); d != "" {
		t.Errorf("variables page (-memory +PostgreSQL):\n%s", d)
	}
	if len(got) != 15 || got[0].ID != "vi0300" {
		t.Errorf("variables page starts at %v (%d rows), want vi0300 (15)", idsOf(got, func(v engine.HistoricVariable) string { return v.ID })[:1], len(got))
	}
	for _, order := range []string{"desc", "asc"} {
		tq := engine.HistoricTaskQuery{ProcessDefinitionKey: "P", SortBy: "endTime", SortOrder: order, FirstResult: 100, MaxResults: 50}
		got, err := pg.HistoricTasks(ctx, tq)
		if err != nil {
			t.Fatalf("tasks by endTime %s: %v", order, err)
		}
		ref, _ := mem.HistoricTasks(ctx, tq)
		if d := cmp.Diff(ref, got); d != "" {
			t.Errorf("tasks by endTime %s (-memory +PostgreSQL):\n%s", order, d)
		}
	}
	// Without a page the listing passes MaxScan and is refused.
	if _, err := pg.HistoricVariables(ctx, engine.HistoricVariableQuery{VariableNameLike: "a%"}); err == nil {
		t.Error("an unpaged listing of 2,000 rows passed MaxScan 500")
	}
}
