package pgstore_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local/pgstore/pgtest"
)

// TestTwoEnginesCompleteEachTaskOnce has two engines, each on its own
// pool, race four workers each over the same 1,000 open tasks: every task
// is completed by exactly one call, and history holds each completion once.
func TestTwoEnginesCompleteEachTaskOnce(t *testing.T) {
	const n = 1000
	if testing.Short() {
		t.Skip("1,000 instances")
	}
	db := pgtest.New(t)
	ctx := context.Background()
	a := newEngine(t, db.Pool(t))
	deployTestModels(t, a)
	b := newEngine(t, db.Pool(t))
	for i := range n {
		startThreeStep(t, a, fmt.Sprintf("bk-%d", i), "0363")
	}

	var completed, lost atomic.Int64
	var mu sync.Mutex
	byTask := map[string]int{}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w := range 8 {
		e := a
		if w%2 == 1 {
			e = b
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				tasks, err := e.Tasks(ctx, engine.TaskQuery{ProcessDefinitionKey: "PgThreeStep", MaxResults: 40})
				if err != nil {
					errs <- err
					return
				}
				if len(tasks) == 0 {
					return
				}
				// Workers take the same page in different orders, so they
				// collide on some tasks and not on others.
				rand.Shuffle(len(tasks), func(i, j int) { tasks[i], tasks[j] = tasks[j], tasks[i] })
				for _, task := range tasks {
					err := e.CompleteTask(ctx, task.ID, engine.Variables{"inkomen": engine.Integer(10000)})
					var ee *engine.Error
					switch {
					case err == nil:
						completed.Add(1)
						mu.Lock()
						byTask[task.ID]++
						mu.Unlock()
					case errors.Is(err, engine.ErrNotFound),
						errors.As(err, &ee) && ee.Type == "OptimisticLockingException":
						lost.Add(1)
					default:
						errs <- fmt.Errorf("complete %s: %w", task.ID, err)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if got := completed.Load(); got != n {
		t.Errorf("%d successful completions, want %d (lost races: %d)", got, n, lost.Load())
	}
	for id, c := range byTask {
		if c != 1 {
			t.Errorf("task %s completed %d times", id, c)
		}
	}
	hts, err := a.HistoricTasks(ctx, engine.HistoricTaskQuery{ProcessDefinitionKey: "PgThreeStep"})
	if err != nil {
		t.Fatal(err)
	}
	if len(hts) != n {
		t.Errorf("%d historic tasks, want %d", len(hts), n)
	}
	for _, ht := range hts {
		if ht.EndTime == nil || byTask[ht.ID] != 1 {
			t.Errorf("historic task %s: end %v, completed %d times", ht.ID, ht.EndTime, byTask[ht.ID])
		}
	}
	decisions, err := b.HistoricDecisions(ctx, engine.HistoricDecisionQuery{ProcessDefinitionKey: "PgThreeStep"})
	if err != nil {
		t.Fatal(err)
	}
	if len(decisions) != n {
		t.Errorf("%d decisions, want %d", len(decisions), n)
	}
	done, err := b.HistoricProcessInstances(ctx, engine.HistoricProcessInstanceQuery{ProcessDefinitionKey: "PgThreeStep", State: engine.StateCompleted})
	if err != nil {
		t.Fatal(err)
	}
	if len(done) != n {
		t.Errorf("%d completed instances, want %d", len(done), n)
	}
	t.Logf("%d completions, %d lost races", completed.Load(), lost.Load())
}
