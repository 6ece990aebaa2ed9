package pgstore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local"
)

// taskFixture is twelve open tasks in six instances: municipalities as
// String and (i6) as Integer variable, candidate groups, assignees and
// tenants, so that each SQL narrowing meets a row it must not drop.
func taskFixture() local.Change {
	var c local.Change
	vars := []engine.Variables{
		{"municipality": engine.String("0363"), "applicantId": engine.String("a1")},
		{"municipality": engine.String("0363"), "applicantId": engine.String("a2")},
		{"municipality": engine.String("0599")},
		{},
		{"municipality": engine.Variable{Type: engine.TypeJSON, Value: `"0363"`}},
		{"municipality": engine.Integer(363)},
	}
	created := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, v := range vars {
		id := fmt.Sprintf("i%d", i+1)
		rec := local.InstanceRecord{ID: id, DefinitionID: "P:1:x", DefinitionKey: "P", BusinessKey: "bk" + id, Variables: v}
		if i == 2 {
			rec.TenantID = "gemeente-b"
		}
		c.Instances = append(c.Instances, rec)
		for j, spec := range []struct {
			assignee string
			groups   []string
		}{{"", []string{"behandelaar"}}, {"kees", []string{"behandelaar", "teamleider"}}} {
			tid := fmt.Sprintf("t%d%c", i+1, 'a'+j)
			groups := spec.groups
			if i == 3 {
				groups = []string{"teamleider"}
			}
			created = created.Add(time.Minute)
			c.Tasks = append(c.Tasks, local.TaskRecord{
				Task: engine.Task{ID: tid, Name: "Taak " + tid, Assignee: spec.assignee, ProcessInstanceID: id,
					ProcessDefinitionID: "P:1:x", TaskDefinitionKey: fmt.Sprintf("T%d", j), CandidateGroups: groups,
					CandidateUsers: []string{"user-" + tid}, Created: created.Add(time.Duration(-2*i) * time.Hour), TenantID: rec.TenantID},
				ProcessDefinitionKey: "P", BusinessKey: rec.BusinessKey, Municipality: local.MunicipalityOf(v)})
		}
	}
	return c
}

// TestTaskQueries runs task queries on PostgreSQL and on the memory store
// holding the same tasks: the answers must agree, and a few are also
// written out by hand.
func TestTaskQueries(t *testing.T) {
	ctx := context.Background()
	pg := openStore(t)
	mem := local.NewMemoryStore(local.MemoryOptions{})
	for _, s := range []local.Store{pg, mem} {
		if err := s.Commit(ctx, taskFixture()); err != nil {
			t.Fatal(err)
		}
	}
	muni := func(op string, v any) []engine.VariableFilter {
		return []engine.VariableFilter{{Name: "municipality", Operator: op, Value: v}}
	}
	cases := []struct {
		name string
		q    engine.TaskQuery
		want []string // by hand; nil: compare with the memory store only
	}{
		{"all", engine.TaskQuery{}, nil},
		{"municipality", engine.TaskQuery{ProcessVariables: muni("eq", "0363")},
			[]string{"t1a", "t1b", "t2a", "t2b", "t6a", "t6b"}}, // the Integer 363 compares as a number
		{"municipality as number matches String and Integer", engine.TaskQuery{ProcessVariables: muni("eq", json.Number("363"))},
			[]string{"t1a", "t1b", "t2a", "t2b", "t6a", "t6b"}},
		{"municipality text 363 matches the Integer", engine.TaskQuery{ProcessVariables: muni("eq", "363")},
			[]string{"t6a", "t6b"}},
		{"business task list", engine.TaskQuery{ProcessVariables: muni("eq", "0363"), CandidateGroups: []string{"behandelaar"},
			IncludeAssignedTasks: true, SortBy: "created", SortOrder: "desc"},
			[]string{"t1b", "t1a", "t2b", "t2a", "t6b", "t6a"}},
		{"candidate group, unassigned only", engine.TaskQuery{CandidateGroup: "teamleider"}, []string{"t4a"}},
		{"candidate groups with assigned", engine.TaskQuery{CandidateGroups: []string{"teamleider"}, IncludeAssignedTasks: true},
			[]string{"t1b", "t2b", "t3b", "t4a", "t4b", "t5b", "t6b"}},
		{"candidate user", engine.TaskQuery{CandidateUser: "user-t3a"}, []string{"t3a"}},
		{"candidate user or group", engine.TaskQuery{CandidateUser: "user-t4b", CandidateGroup: "nobody", IncludeAssignedTasks: true}, []string{"t4b"}},
		{"assignee", engine.TaskQuery{Assignee: "kees", MaxResults: 2, FirstResult: 1}, []string{"t2b", "t3b"}},
		{"unassigned sorted by name desc", engine.TaskQuery{Unassigned: true, SortBy: "name", SortOrder: "desc"}, nil},
		{"tenant", engine.TaskQuery{TenantIDIn: []string{"gemeente-b"}}, []string{"t3a", "t3b"}},
		{"without tenant", engine.TaskQuery{WithoutTenantID: true, TaskDefinitionKey: "T0"}, []string{"t1a", "t2a", "t4a", "t5a", "t6a"}},
		{"business key and name", engine.TaskQuery{ProcessInstanceBusinessKey: "bki2", NameLike: "%b"}, []string{"t2b"}},
		{"neq and like", engine.TaskQuery{ProcessVariables: []engine.VariableFilter{{Name: "applicantId", Operator: "neq", Value: "a1"},
			{Name: "municipality", Operator: "like", Value: "03%"}}}, nil},
		{"instance ids", engine.TaskQuery{ProcessInstanceIDIn: []string{"i2", "i5"}, TaskIDIn: []string{"t2a", "t5b", "t1a"}}, []string{"t2a", "t5b"}},
		{"no rows", engine.TaskQuery{MaxResults: -1}, []string{}},
	}
	for _, tc := range cases {
		got, err := pg.Tasks(ctx, tc.q)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		ref, err := mem.Tasks(ctx, tc.q)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(taskRecordIDs(ref), taskRecordIDs(got)); d != "" {
			t.Errorf("%s: PostgreSQL and memory differ (-memory +PostgreSQL):\n%s", tc.name, d)
		}
		if tc.want != nil && !slices.Equal(taskRecordIDs(got), tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, taskRecordIDs(got), tc.want)
		}
		n, err := pg.TaskCount(ctx, tc.q)
		if err != nil {
			t.Fatal(err)
		}
		wantN, _ := mem.TaskCount(ctx, tc.q)
		if n != wantN {
			t.Errorf("%s: count %d, memory counts %d", tc.name, n, wantN)
		}
	}
}

func taskRecordIDs(ts []local.TaskRecord) []string {
	out := []string{}
	for _, t := range ts {
		out = append(out, t.Task.ID)
	}
	return out
}
