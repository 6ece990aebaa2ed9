package pgstore_test

import (
	"context"
	"fmt"
	"sync/atomic"
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

// BenchmarkStartComplete starts the three-step process (start → user
// task → business-rule task → end) and completes its task, on PostgreSQL:
// one op is one instance run to its end. Target: at least 500/s. The
// parallel variant has 8 clients, as a business API serves several
// requests at once.
func BenchmarkStartComplete(b *testing.B) {
	db := pgtest.New(b)
	e := newEngine(b, db.Pool(b))
	deployTestModels(b, e)
	ctx := context.Background()
	run := func(i int) error {
		pi, err := e.StartProcess(ctx, engine.StartProcess{Key: "PgThreeStep", BusinessKey: fmt.Sprintf("bk-%d", i),
			Variables: engine.Variables{"municipality": engine.String("0363")}})
		if err != nil {
			return err
		}
		ts, err := e.Tasks(ctx, engine.TaskQuery{ProcessInstanceID: pi.ID})
		if err != nil {
			return err
		}
		if len(ts) != 1 {
			return fmt.Errorf("%d tasks", len(ts))
		}
		return e.CompleteTask(ctx, ts[0].ID, engine.Variables{"inkomen": engine.Integer(10000)})
	}
	b.Run("serial", func(b *testing.B) {
		i := 0
		for b.Loop() {
			i++
			if err := run(i); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "instances/s")
	})
	b.Run("parallel8", func(b *testing.B) {
		var n atomic.Int64
		b.SetParallelism(4) // 4 × GOMAXPROCS(2) clients
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if err := run(int(n.Add(1)) + 1_000_000); err != nil {
					b.Error(err)
					return
				}
			}
		})
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "instances/s")
	})
}
