package pgmigrate_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/regelkit/regelkit/engine/local/pgstore/pgmigrate"
	"github.com/regelkit/regelkit/engine/local/pgstore/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func TestRead(t *testing.T) {
	got, err := pgmigrate.Read(fstest.MapFS{
		"0002_b.sql": {Data: []byte("B")},
		"0001_a.sql": {Data: []byte("A")},
	})
	if err != nil || len(got) != 2 || got[0].Name != "0001_a.sql" || got[1].SQL != "B" || got[1].Version != 2 {
		t.Fatalf("Read = %+v, %v", got, err)
	}
	for name, dir := range map[string]fstest.MapFS{
		"gap":      {"0001_a.sql": {}, "0003_c.sql": {}},
		"bad name": {"first.sql": {}},
		"not sql":  {"0001_a.txt": {}},
	} {
		if _, err := pgmigrate.Read(dir); err == nil || !strings.Contains(err.Error(), "pgmigrate: migration") {
			t.Errorf("%s: err %v", name, err)
		}
	}
}

func TestApply(t *testing.T) {
	db := pgtest.New(t)
	pool := db.Pool(t)
	ctx := context.Background()
	dir := fstest.MapFS{
		"0001_things.sql": {Data: []byte("CREATE TABLE things (id int PRIMARY KEY)")},
		"0002_more.sql":   {Data: []byte("ALTER TABLE things ADD COLUMN name text")},
	}
	// Four servers starting at once: the advisory lock lets one migrate.
	var wg sync.WaitGroup
	applied := make([]int, 4)
	errs := make([]error, 4)
	for i := range applied {
		wg.Add(1)
		go func() { defer wg.Done(); applied[i], errs[i] = pgmigrate.Apply(ctx, pool, "test-a", dir) }()
	}
	wg.Wait()
	total := 0
	for i := range applied {
		if errs[i] != nil {
			t.Fatalf("Apply %d: %v", i, errs[i])
		}
		total += applied[i]
	}
	if total != 2 {
		t.Errorf("%d migrations applied in all, want 2", total)
	}
	if n, err := pgmigrate.Apply(ctx, pool, "test-a", dir); n != 0 || err != nil {
		t.Errorf("second run applied %d (%v)", n, err)
	}
	// Another component's versions are its own.
	other := fstest.MapFS{"0001_x.sql": {Data: []byte("CREATE TABLE others (id int)")}}
	if n, err := pgmigrate.Apply(ctx, pool, "test-b", other); n != 1 || err != nil {
		t.Errorf("other component applied %d (%v)", n, err)
	}
	var rows int
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM schema_migrations").Scan(&rows); err != nil || rows != 3 {
		t.Errorf("schema_migrations has %d rows (%v), want 3", rows, err)
	}
	// A failing migration leaves nothing behind.
	bad := fstest.MapFS{"0001_x.sql": {Data: []byte("CREATE TABLE c (id int)")}, "0002_y.sql": {Data: []byte("NOT SQL")}}
	if _, err := pgmigrate.Apply(ctx, pool, "test-c", bad); err == nil || !strings.Contains(err.Error(), "migration 0002_y.sql") {
		t.Fatalf("bad migration: %v", err)
	}
	var exists bool
	if err := pool.QueryRow(ctx, "SELECT to_regclass('c') IS NOT NULL").Scan(&exists); err != nil || exists {
		t.Errorf("table of a failed migration set exists: %v (%v)", exists, err)
	}
}

// TestApplyRefusesNewerSchema: a database a newer build migrated further
// is not written with this build's older idea of the tables.
func TestApplyRefusesNewerSchema(t *testing.T) {
	db := pgtest.New(t)
	pool := db.Pool(t)
	ctx := context.Background()
	dir := fstest.MapFS{"0001_things.sql": {Data: []byte("CREATE TABLE things (id int PRIMARY KEY)")}}
	if _, err := pgmigrate.Apply(ctx, pool, "test-n", dir); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, "INSERT INTO schema_migrations (component, version, name) VALUES ('test-n', 2, '0002_future.sql')"); err != nil {
		t.Fatal(err)
	}
	_, err := pgmigrate.Apply(ctx, pool, "test-n", dir)
	if err == nil || err.Error() != "pgmigrate: test-n: the database's schema is version 2, newer than this build's 1" {
		t.Errorf("Apply on a newer schema: %v", err)
	}
	// another component is not affected
	if _, err := pgmigrate.Apply(ctx, pool, "test-m", fstest.MapFS{"0001_x.sql": {Data: []byte("CREATE TABLE x (id int)")}}); err != nil {
		t.Errorf("another component: %v", err)
	}
}
