package pgstore_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local/pgstore/pgtest"
)

// runWorker starts instances of PgTwoTasks and completes their tasks as
// fast as it can, forever.
func runWorker(url string) error {
	ctx := context.Background()
	e, closeEngine, err := openEngineURL(ctx, url)
	if err != nil {
		return err
	}
	defer closeEngine()
	for i := 0; ; i++ {
		if i%4 == 0 {
			if _, err := e.StartProcess(ctx, engine.StartProcess{Key: "PgTwoTasks",
				BusinessKey: fmt.Sprintf("child-%d-%d", os.Getpid(), i),
				Variables:   engine.Variables{"inkomen": engine.Integer(10000)}}); err != nil {
				return err
			}
		}
		tasks, err := e.Tasks(ctx, engine.TaskQuery{ProcessDefinitionKey: "PgTwoTasks", MaxResults: 10})
		if err != nil {
			return err
		}
		for _, t := range tasks {
			if err := e.CompleteTask(ctx, t.ID, engine.Variables{"door": engine.String("kind")}); err != nil &&
				!errors.Is(err, engine.ErrNotFound) {
				return err
			}
		}
	}
}

// TestKill9 kills an engine with SIGKILL while it starts instances and
// completes tasks, five times, and checks after each kill that the
// database holds a consistent state that a new engine runs to the end.
func TestKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills child processes")
	}
	db := pgtest.New(t)
	ctx := context.Background()
	e := newEngine(t, db.Pool(t))
	deployTestModels(t, e)
	for i := range 20 {
		startTwoTasks(t, e, fmt.Sprintf("parent-%d", i))
	}

	for round := range 5 {
		before := finishedTasks(t, e)
		child := exec.Command(os.Args[0], "-test.run=^$")
		child.Env = append(os.Environ(), childEnv+"="+db.URL)
		child.Stderr = os.Stderr
		if err := child.Start(); err != nil {
			t.Fatal(err)
		}
		// Let the worker get going, then kill it in the middle of whatever
		// it does.
		deadline := time.Now().Add(20 * time.Second)
		for finishedTasks(t, e) < before+25+round*7 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		time.Sleep(time.Duration(round*3) * time.Millisecond)
		if err := child.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		err := child.Wait()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Fatalf("round %d: the worker ended by itself before the kill: %v", round, err)
		}
		if got := finishedTasks(t, e); got <= before {
			t.Fatalf("round %d: the worker completed no task (%d finished before, %d after)", round, before, got)
		}
		t.Logf("round %d: the worker finished %d tasks before the kill", round, finishedTasks(t, e)-before)
		// A new engine on the same database.
		checkConsistent(t, newEngine(t, db.Pool(t)))
	}

	// The instances continue to the end.
	e2 := newEngine(t, db.Pool(t))
	for {
		tasks, err := e2.Tasks(ctx, engine.TaskQuery{ProcessDefinitionKey: "PgTwoTasks"})
		if err != nil {
			t.Fatal(err)
		}
		if len(tasks) == 0 {
			break
		}
		for _, task := range tasks {
			if err := e2.CompleteTask(ctx, task.ID, nil); err != nil {
				t.Fatalf("complete %s after the kills: %v", task.ID, err)
			}
		}
	}
	checkConsistent(t, e2)
	hist, err := e2.HistoricProcessInstances(ctx, engine.HistoricProcessInstanceQuery{ProcessDefinitionKey: "PgTwoTasks"})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hist {
		if h.State != engine.StateCompleted {
			t.Errorf("instance %s (%s) ended %s, want COMPLETED", h.ID, h.BusinessKey, h.State)
		}
	}
	if len(hist) < 20 {
		t.Errorf("%d instances in history, want at least the 20 the parent started", len(hist))
	}
}

func finishedTasks(t *testing.T, e engine.ProcessEngine) int {
	t.Helper()
	hts, err := e.HistoricTasks(context.Background(), engine.HistoricTaskQuery{Finished: true})
	if err != nil {
		t.Fatal(err)
	}
	return len(hts)
}

// checkConsistent checks every PgTwoTasks instance: a running one waits
// in exactly one open task whose history row is unfinished, with the
// decision taken exactly when it has passed the first task; a completed
// one has both tasks finished once and one decision; no task is in
// history twice or finished without being in history.
func checkConsistent(t *testing.T, e engine.ProcessEngine) {
	t.Helper()
	ctx := context.Background()
	insts, err := e.HistoricProcessInstances(ctx, engine.HistoricProcessInstanceQuery{ProcessDefinitionKey: "PgTwoTasks"})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range insts {
		hts, err := e.HistoricTasks(ctx, engine.HistoricTaskQuery{ProcessInstanceID: h.ID, SortBy: "startTime", SortOrder: "asc"})
		if err != nil {
			t.Fatal(err)
		}
		open, err := e.Tasks(ctx, engine.TaskQuery{ProcessInstanceID: h.ID})
		if err != nil {
			t.Fatal(err)
		}
		decisions, err := e.HistoricDecisions(ctx, engine.HistoricDecisionQuery{ProcessInstanceID: h.ID})
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]int{}
		var unfinished []engine.HistoricTask
		for _, ht := range hts {
			seen[ht.TaskDefinitionKey]++
			if ht.EndTime == nil {
				unfinished = append(unfinished, ht)
			}
		}
		for key, n := range seen {
			if n != 1 {
				t.Errorf("instance %s: task %s is in history %d times", h.BusinessKey, key, n)
			}
		}
		switch h.State {
		case engine.StateActive:
			if len(open) != 1 || len(unfinished) != 1 || open[0].ID != unfinished[0].ID {
				t.Errorf("running instance %s: open tasks %v, unfinished in history %v; want the same one task",
					h.BusinessKey, taskIDs(open), histTaskIDs(unfinished))
				continue
			}
			wantDecisions := 0
			if open[0].TaskDefinitionKey == "Tweede" {
				wantDecisions = 1
				vars, err := e.ProcessInstanceVariables(ctx, h.ID)
				if err != nil {
					t.Fatal(err)
				}
				if b, ok := vars["bedrag"]; !ok || fmt.Sprint(b.Value) != "150" {
					t.Errorf("instance %s waits in Tweede with bedrag %v, want 150", h.BusinessKey, vars["bedrag"])
				}
			}
			if len(decisions) != wantDecisions || len(hts) != 1+wantDecisions {
				t.Errorf("instance %s waits in %s with %d decisions and %d historic tasks",
					h.BusinessKey, open[0].TaskDefinitionKey, len(decisions), len(hts))
			}
		case engine.StateCompleted:
			if len(open) != 0 || len(unfinished) != 0 || len(hts) != 2 || len(decisions) != 1 {
				t.Errorf("completed instance %s: %d open tasks, %d unfinished and %d historic tasks, %d decisions; want 0, 0, 2, 1",
					h.BusinessKey, len(open), len(unfinished), len(hts), len(decisions))
			}
		default:
			t.Errorf("instance %s is %s", h.BusinessKey, h.State)
		}
	}
}

func taskIDs(ts []engine.Task) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.ID)
	}
	return out
}

func histTaskIDs(ts []engine.HistoricTask) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.ID)
	}
	return out
}
