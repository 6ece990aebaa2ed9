package pgstore_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/engine/local/pgstore"
	"github.com/regelkit/regelkit/engine/local/pgstore/pgtest"
)

// BenchmarkTaskListOfMunicipality is the business API's task list (GET
// /task?processVariables=municipality_eq_…&candidateGroups=…&includeAssignedTasks=true&sortBy=created&sortOrder=desc)
// over 100,000 open tasks of 100 municipalities: 1,000 tasks match the
// municipality, half of them the candidate group. Target: under 50 ms.
func BenchmarkTaskListOfMunicipality(b *testing.B) {
	const tasks, municipalities = 100_000, 100
	db := pgtest.New(b)
	ctx := context.Background()
	s, err := pgstore.Open(ctx, db.Pool(b), pgstore.Options{})
	if err != nil {
		b.Fatal(err)
	}
	created := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	const chunk = 2000
	for start := 0; start < tasks; start += chunk {
		var c local.Change
		for i := start; i < start+chunk; i++ {
			muni := fmt.Sprintf("%04d", i%municipalities)
			id := fmt.Sprintf("i%06d", i)
			vars := engine.Variables{"municipality": engine.String(muni), "applicantId": engine.String("a" + id)}
			c.Instances = append(c.Instances, local.InstanceRecord{ID: id, DefinitionID: "P:1:x", DefinitionKey: "P", Variables: vars})
			group := "behandelaar"
			if (i/municipalities)%2 == 1 {
				group = "teamleider"
			}
			c.Tasks = append(c.Tasks, local.TaskRecord{Task: engine.Task{ID: "t" + id, Name: "Beoordelen", ProcessInstanceID: id,
				ProcessDefinitionID: "P:1:x", TaskDefinitionKey: "Beoordelen", CandidateGroups: []string{group},
				Created: created.Add(time.Duration(i) * time.Second)}, ProcessDefinitionKey: "P", Municipality: muni})
		}
		if err := s.Commit(ctx, c); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := db.Pool(b).Exec(ctx, "ANALYZE"); err != nil {
		b.Fatal(err)
	}
	q := engine.TaskQuery{ProcessVariables: []engine.VariableFilter{{Name: "municipality", Operator: "eq", Value: "0042"}},
		CandidateGroups: []string{"behandelaar"}, IncludeAssignedTasks: true, SortBy: "created", SortOrder: "desc"}
	b.ResetTimer()
	for b.Loop() {
		ts, err := s.Tasks(ctx, q)
		if err != nil {
			b.Fatal(err)
		}
		if len(ts) != tasks/municipalities/2 {
			b.Fatalf("%d tasks, want %d", len(ts), tasks/municipalities/2)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/query")
}
