package pgstore_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/engine/local/pgstore"
	"github.com/regelkit/regelkit/engine/local/pgstore/pgtest"
)

// TestOpenIsIdempotent: engines opening one database at once create the
// tables once and record schema versions 1 and 2; a database with a newer
// schema is refused.
func TestOpenIsIdempotent(t *testing.T) {
	db := pgtest.New(t)
	pool := db.Pool(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = pgstore.Open(ctx, pool, pgstore.Options{})
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	var versions string
	if err := pool.QueryRow(ctx, "SELECT string_agg(version::text || ' ' || name, ',' ORDER BY version) FROM schema_migrations WHERE component = 'engine'").Scan(&versions); err != nil {
		t.Fatal(err)
	}
	if versions != "1 0001_init.sql,2 0002_incidents.sql" {
		t.Errorf("schema_migrations holds %q, want one row for each of 0001_init.sql and 0002_incidents.sql", versions)
	}
	if _, err := pool.Exec(ctx, "INSERT INTO schema_migrations (component, version, name) VALUES ('engine', 99, '0099_future.sql')"); err != nil {
		t.Fatal(err)
	}
	_, err := pgstore.Open(ctx, pool, pgstore.Options{})
	if err == nil || !strings.Contains(err.Error(), "version 99, newer than this build's 2") {
		t.Errorf("Open on a newer schema: %v", err)
	}
}

// TestDeploymentVersions: versions count per key and tenant across
// deployments, also when two engines deploy the same key at once; a
// deleted deployment's definitions go, and Deployments(afterSeq) lists
// what came later.
func TestDeploymentVersions(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	deploy := func(id string, keys ...string) (*local.DeploymentRecord, error) {
		d := &local.DeploymentRecord{Deployment: engine.Deployment{ID: id, Name: "n"}}
		for _, k := range keys {
			tenant := ""
			k, tenant, _ = strings.Cut(k, "@")
			d.ProcessDefinitions = append(d.ProcessDefinitions, engine.ProcessDefinition{ID: "u-" + id, Key: k, TenantID: tenant})
		}
		return d, s.CreateDeployment(ctx, d)
	}
	d1, err := deploy("d1", "A", "B@t1")
	if err != nil {
		t.Fatal(err)
	}
	d2, err := deploy("d2", "A", "B@t2", "B@t1")
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(d1.ProcessDefinitions[0].ID, " ", d1.ProcessDefinitions[1].ID, " ",
		d2.ProcessDefinitions[0].ID, " ", d2.ProcessDefinitions[1].ID, " ", d2.ProcessDefinitions[2].ID)
	if want := "A:1:u-d1 B:1:u-d1 A:2:u-d2 B:1:u-d2 B:2:u-d2"; got != want {
		t.Errorf("definition ids %s, want %s", got, want)
	}
	if d2.Seq <= d1.Seq {
		t.Errorf("seq %d then %d", d1.Seq, d2.Seq)
	}
	if _, err := deploy("d1", "C"); !errors.Is(err, local.ErrConflict) {
		t.Errorf("a second deployment d1: %v, want a conflict", err)
	}
	later, err := s.Deployments(ctx, d1.Seq)
	if err != nil || len(later) != 1 || later[0].Deployment.ID != "d2" || len(later[0].ProcessDefinitions) != 3 {
		t.Fatalf("Deployments after d1: %+v, %v", later, err)
	}
	latest, err := s.LatestProcessDefinition(ctx, "B", "t1")
	if err != nil || latest.ID != "B:2:u-d2" {
		t.Errorf("latest B of t1: %q, %v", latest.ID, err)
	}
	if _, err := s.LatestProcessDefinition(ctx, "B", ""); !errors.Is(err, local.ErrNoRecord) {
		t.Errorf("latest untenanted B: %v, want ErrNoRecord", err)
	}
	if err := s.DeleteDeployment(ctx, "d2"); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteDeployment(ctx, "d2"); !errors.Is(err, local.ErrNoRecord) {
		t.Errorf("deleting d2 again: %v", err)
	}
	defs, err := s.ProcessDefinitions(ctx, engine.ProcessDefinitionQuery{LatestVersion: true, SortBy: "key"})
	if err != nil || len(defs) != 2 || defs[0].ID != "A:1:u-d1" || defs[1].ID != "B:1:u-d1" {
		t.Errorf("latest definitions after deleting d2: %+v, %v", defs, err)
	}

	// Two engines deploying the same key at once get different versions.
	var wg sync.WaitGroup
	ids := make([]string, 6)
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d, err := deploy(fmt.Sprintf("c%d", i), "Race")
			if err != nil {
				t.Error(err)
				return
			}
			ids[i] = d.ProcessDefinitions[0].ID
		}()
	}
	wg.Wait()
	seen := map[string]bool{}
	for _, id := range ids {
		v, _, _ := strings.Cut(strings.TrimPrefix(id, "Race:"), ":")
		if seen[v] {
			t.Errorf("version %s given twice: %v", v, ids)
		}
		seen[v] = true
	}
	if len(seen) != 6 || !seen["1"] || !seen["6"] {
		t.Errorf("versions %v, want 1 to 6", ids)
	}
}

// TestMaxScan: a query that would read more rows than MaxScan before its
// Go half fails with a LimitExceeded error; one that SQL pages is not
// refused.
func TestMaxScan(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	s, err := pgstore.Open(ctx, db.Pool(t), pgstore.Options{MaxScan: 5})
	if err != nil {
		t.Fatal(err)
	}
	var c local.Change
	for i := range 10 {
		c.Tasks = append(c.Tasks, openTask(fmt.Sprintf("t%d", i), "i1", "0363", "behandelaar"))
	}
	if err := s.Commit(ctx, c); err != nil {
		t.Fatal(err)
	}
	_, err = s.Tasks(ctx, engine.TaskQuery{NameLike: "%"})
	var le interface{ LimitExceeded() string }
	if !errors.As(err, &le) || le.LimitExceeded() != "MaxScan" {
		t.Fatalf("err = %v, want a MaxScan limit error", err)
	}
	if _, err := s.Tasks(ctx, engine.TaskQuery{}); err == nil {
		t.Error("an unpaged listing of 10 tasks passed MaxScan 5")
	}
	ts, err := s.Tasks(ctx, engine.TaskQuery{FirstResult: 6, MaxResults: 3})
	if err != nil || len(ts) != 3 || ts[0].Task.ID != "t6" {
		t.Errorf("a page of 3: %v, %v", taskRecordIDs(ts), err)
	}
	// A page that Go filters reads only the rows it needs.
	ts, err = s.Tasks(ctx, engine.TaskQuery{NameLike: "Beoor%", FirstResult: 1, MaxResults: 2})
	if err != nil || !slices.Equal(taskRecordIDs(ts), []string{"t1", "t2"}) {
		t.Errorf("a filtered page of 2: %v, %v; want t1 t2", taskRecordIDs(ts), err)
	}
	n, err := s.TaskCount(ctx, engine.TaskQuery{})
	if err != nil || n != 10 {
		t.Errorf("count %d, %v", n, err)
	}
}

// TestUpgradeOpensIncidents: a database of schema 1 is brought to schema
// 2 by Open, and its external tasks that ran out of retries before get
// their incident then.
func TestUpgradeOpensIncidents(t *testing.T) {
	db := pgtest.New(t)
	pool := db.Pool(t)
	ctx := context.Background()
	if _, err := pgstore.Open(ctx, pool, pgstore.Options{}); err != nil {
		t.Fatal(err)
	}
	// back to schema 1, with one task out of retries and one still fetchable
	for _, sql := range []string{
		"DROP INDEX engine_external_tasks_incident",
		"DELETE FROM schema_migrations WHERE component = 'engine' AND version = 2",
		`INSERT INTO engine_external_tasks (id, version, instance_id, topic, retries, suspended, priority, definition_key,
			business_key, tenant_id, doc) VALUES
			('e1', 3, 'i1', 'mail', 0, false, 0, 'p', '', '', convert_to('{"ID":"e1","InstanceID":"i1","ActivityID":"send","TopicName":"mail","ErrorMessage":"smtp down"}', 'UTF8')),
			('e2', 1, 'i1', 'mail', 2, false, 0, 'p', '', '', convert_to('{"ID":"e2","InstanceID":"i1","ActivityID":"send","TopicName":"mail"}', 'UTF8'))`,
	} {
		if _, err := pool.Exec(ctx, sql); err != nil {
			t.Fatal(err)
		}
	}
	before := time.Now().Add(-time.Minute)
	s, err := pgstore.Open(ctx, pool, pgstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	is, err := s.Incidents(ctx, engine.IncidentQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if len(is) != 1 || is[0].Configuration != "e1" || is[0].ID == "" || is[0].Message != "smtp down" ||
		is[0].Timestamp.Before(before) || is[0].Timestamp.After(time.Now().Add(time.Minute)) {
		t.Fatalf("incidents after the upgrade: %+v, want one for e1 opened now", is)
	}
	e1, err := s.ExternalTask(ctx, "e1")
	if err != nil || e1.IncidentID != is[0].ID || e1.Version != 4 {
		t.Errorf("e1 after the upgrade: %+v, %v; want its incident id and version 4", e1, err)
	}
}
