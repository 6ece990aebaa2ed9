package pgstore_test

import (
	"context"
	"os"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/engine/local/pgstore"
)

// newEngine opens the store on pool and an engine on it.
func newEngine(t testing.TB, pool *pgxpool.Pool) *local.Engine {
	t.Helper()
	s, err := pgstore.Open(context.Background(), pool, pgstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return local.New(local.Options{Store: s})
}

// openEngineURL is newEngine for the worker process, which has no *testing.T.
func openEngineURL(ctx context.Context, url string) (*local.Engine, func(), error) {
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		return nil, nil, err
	}
	s, err := pgstore.Open(ctx, pool, pgstore.Options{})
	if err != nil {
		pool.Close()
		return nil, nil, err
	}
	return local.New(local.Options{Store: s}), pool.Close, nil
}

// deployTestModels deploys the processes of testdata and their decision.
func deployTestModels(t testing.TB, e engine.Engine) {
	t.Helper()
	var rs []engine.Resource
	for _, name := range []string{"threestep.bpmn", "twotasks.bpmn", "bedrag.dmn"} {
		data, err := os.ReadFile("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, engine.Resource{Name: name, Data: data})
	}
	if _, err := e.Deploy(context.Background(), engine.NewDeployment{Name: "pgstore-test", Resources: rs}); err != nil {
		t.Fatal(err)
	}
}

func startThreeStep(t testing.TB, e engine.ProcessEngine, businessKey, municipality string) engine.ProcessInstance {
	t.Helper()
	pi, err := e.StartProcess(context.Background(), engine.StartProcess{Key: "PgThreeStep", BusinessKey: businessKey,
		Variables: engine.Variables{"municipality": engine.String(municipality)}})
	if err != nil {
		t.Fatal(err)
	}
	return pi
}

func startTwoTasks(t testing.TB, e engine.ProcessEngine, businessKey string) engine.ProcessInstance {
	t.Helper()
	pi, err := e.StartProcess(context.Background(), engine.StartProcess{Key: "PgTwoTasks", BusinessKey: businessKey,
		Variables: engine.Variables{"inkomen": engine.Integer(10000)}})
	if err != nil {
		t.Fatal(err)
	}
	return pi
}
