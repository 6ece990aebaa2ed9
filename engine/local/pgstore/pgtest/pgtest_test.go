package pgtest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

func TestMain(m *testing.M) { Main(m) }

func TestNewGivesIsolatedDatabases(t *testing.T) {
	a, b := New(t), New(t)
	if a.Name == b.Name || a.URL == b.URL {
		t.Fatalf("two tests share %q", a.Name)
	}
	ctx := context.Background()
	pa, pb := a.Pool(t), b.Pool(t)
	if _, err := pa.Exec(ctx, "CREATE TABLE t (x int); INSERT INTO t VALUES (42)"); err != nil {
		t.Fatal(err)
	}
	var x int
	if err := pa.QueryRow(ctx, "SELECT x FROM t").Scan(&x); err != nil || x != 42 {
		t.Fatalf("read back %d, %v", x, err)
	}
	var pgErr *pgconn.PgError
	if _, err := pb.Exec(ctx, "SELECT x FROM t"); !errors.As(err, &pgErr) || pgErr.Code != "42P01" {
		t.Fatalf("the other database sees table t: %v", err)
	}
}

func TestStopAndStart(t *testing.T) {
	db := New(t)
	pool := db.Pool(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := pool.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	db.Stop(t)
	pool.Reset()
	if err := pool.Ping(ctx); err == nil {
		t.Fatal("ping succeeded while the server is stopped")
	}
	db.Start(t)
	if err := pool.Ping(ctx); err != nil {
		t.Fatalf("ping after restart: %v", err)
	}
	// The data survived the restart: it is the same cluster.
	if _, err := pool.Exec(ctx, "CREATE TABLE survives (x int)"); err != nil {
		t.Fatal(err)
	}
	db.Stop(t)
	db.Start(t)
	pool.Reset()
	if _, err := pool.Exec(ctx, "SELECT * FROM survives"); err != nil {
		t.Fatalf("table lost across restart: %v", err)
	}
}

func TestWithParam(t *testing.T) {
	cases := []struct{ in, key, value, want string }{
		{"postgres://u@h:5432/postgres?sslmode=disable", "dbname", "x", "postgres://u@h:5432/x?sslmode=disable"},
		{"postgresql://u:p@h/db", "search_path", "s1", "postgresql://u:p@h/db?search_path=s1"},
		{"host=h user=u dbname=postgres", "dbname", "x", "host=h user=u dbname=postgres dbname=x"},
	}
	for _, tc := range cases {
		if got := withParam(tc.in, tc.key, tc.value); got != tc.want {
			t.Errorf("withParam(%q, %s, %s) = %q, want %q", tc.in, tc.key, tc.value, got, tc.want)
		}
	}
	if got := redact("postgres://u:secret@h/db"); strings.Contains(got, "secret") {
		t.Errorf("redact left the password: %q", got)
	}
	if got := redact("host=h password=secret user=u"); strings.Contains(got, "secret") {
		t.Errorf("redact left the password: %q", got)
	}
}

// fakeT records Skip and Fatal instead of stopping the goroutine.
type fakeT struct {
	testing.TB
	skipped, failed string
}

func (f *fakeT) Helper()           {}
func (f *fakeT) Skip(args ...any)  { f.skipped = fmt.Sprint(args...) }
func (f *fakeT) Fatal(args ...any) { f.failed = fmt.Sprint(args...) }

func TestUnavailableSkipsUnlessRequired(t *testing.T) {
	t.Setenv(EnvRequire, "")
	f := &fakeT{TB: t}
	unavailable(f, errors.New("no initdb"))
	want := "pgtest: no PostgreSQL: no initdb; set REGELKIT_TEST_DATABASE_URL or install postgresql"
	if f.skipped != want || f.failed != "" {
		t.Errorf("skipped %q failed %q", f.skipped, f.failed)
	}
	t.Setenv(EnvRequire, "1")
	f = &fakeT{TB: t}
	unavailable(f, errors.New("no initdb"))
	if f.skipped != "" || !strings.HasPrefix(f.failed, want) {
		t.Errorf("required: skipped %q failed %q", f.skipped, f.failed)
	}
}

// A role that may not create databases gets a schema per test instead.
func TestSchemaFallbackWithoutCreateDB(t *testing.T) {
	admin := New(t)
	ctx := context.Background()
	pool := admin.Pool(t)
	role := "limited_" + randomHex(4)
	stmts := []string{
		"CREATE ROLE " + role + " LOGIN NOCREATEDB",
		"GRANT CREATE ON DATABASE " + admin.Name + " TO " + role,
	}
	for _, s := range stmts {
		if _, err := pool.Exec(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		if _, err := pool.Exec(ctx, "DROP OWNED BY "+role+"; DROP ROLE "+role); err != nil {
			t.Errorf("drop role: %v", err)
		}
	})
	limitedURL := strings.Replace(withParam(admin.URL, "dbname", admin.Name), "postgres@", role+"@", 1)
	db := newOn(t, &server{adminURL: limitedURL})
	if !strings.Contains(db.URL, "search_path="+db.Name) {
		t.Fatalf("URL %q does not select the schema", db.URL)
	}
	p := db.Pool(t)
	if _, err := p.Exec(ctx, "CREATE TABLE t (x int)"); err != nil {
		t.Fatal(err)
	}
	var schema string
	if err := pool.QueryRow(ctx, "SELECT table_schema FROM information_schema.tables WHERE table_name = 't'").Scan(&schema); err != nil || schema != db.Name {
		t.Fatalf("table t in schema %q (%v), want %q", schema, err, db.Name)
	}
}

// TestSocketURL connects through the Unix socket: the server then reports
// no client address.
func TestSocketURL(t *testing.T) {
	db := New(t)
	u := db.SocketURL()
	if u == "" {
		t.Skip("external server: no socket known")
	}
	if !strings.HasPrefix(u, "postgres:///"+db.Name+"?host=/") {
		t.Fatalf("SocketURL = %q", u)
	}
	ctx := context.Background()
	for _, tc := range []struct {
		url    string
		socket bool
	}{{u, true}, {db.URL, false}} {
		conn, err := pgx.Connect(ctx, tc.url)
		if err != nil {
			t.Fatalf("connect %s: %v", redact(tc.url), err)
		}
		var viaSocket bool
		if err := conn.QueryRow(ctx, "SELECT inet_client_addr() IS NULL").Scan(&viaSocket); err != nil {
			t.Fatal(err)
		}
		conn.Close(ctx)
		if viaSocket != tc.socket {
			t.Errorf("%s: connected through the socket = %v, want %v", redact(tc.url), viaSocket, tc.socket)
		}
	}
}
