package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Environment variables read by the package.
const (
	// EnvDatabaseURL names an existing server to create the test databases
	// on (a postgres:// URL of a role that may create databases, or at least
	// schemas). When set, no cluster is started.
	EnvDatabaseURL = "REGELKIT_TEST_DATABASE_URL"
	// EnvRequire, when "1", fails tests that cannot get a database instead
	// of skipping them. CI sets it.
	EnvRequire = "REGELKIT_REQUIRE_DB"
	// EnvBin names the directory holding initdb and postgres.
	EnvBin = "REGELKIT_PG_BIN"
)

// server is where the test databases are created: an external server or
// the throwaway cluster of this test binary.
type server struct {
	adminURL string   // a database to run CREATE DATABASE in
	cluster  *cluster // nil for an external server
}

// The one server of the test binary, started on first use. This is the
// package's only mutable state: a test binary has exactly one cluster, and
// Main stops it.
var (
	serverOnce sync.Once
	theServer  *server
	serverErr  error
)

func getServer() (*server, error) {
	serverOnce.Do(func() {
		if u := os.Getenv(EnvDatabaseURL); u != "" {
			theServer = &server{adminURL: u}
			return
		}
		c, err := startCluster()
		if err != nil {
			serverErr = err
			return
		}
		theServer = &server{adminURL: c.url("postgres"), cluster: c}
	})
	return theServer, serverErr
}

// Main runs the tests of a package and then stops the throwaway cluster, if
// one was started, and removes its files:
//
//	func TestMain(m *testing.M) { pgtest.Main(m) }
func Main(m *testing.M) {
	code := m.Run()
	Shutdown()
	os.Exit(code)
}

// Shutdown stops the throwaway cluster and removes its directory. Main calls
// it; call it yourself only from a TestMain that cannot use Main.
func Shutdown() {
	if theServer != nil && theServer.cluster != nil {
		theServer.cluster.remove()
	}
}

// DB is one fresh database for one test.
type DB struct {
	// URL connects to the database (a postgres:// URL, or a key=value
	// string when EnvDatabaseURL is one).
	URL string
	// Name is the database's name (or, on a server where the role may not
	// create databases, the schema's name).
	Name string
	srv  *server
}

// New returns a fresh, empty database dropped at the end of the test. When
// no PostgreSQL can be had it skips the test (fails it when
// REGELKIT_REQUIRE_DB=1).
func New(t testing.TB) *DB {
	t.Helper()
	s, err := getServer()
	if err != nil {
		unavailable(t, err)
		return nil
	}
	return newOn(t, s)
}

func newOn(t testing.TB, s *server) *DB {
	t.Helper()
	name := "regelkit_test_" + randomHex(6)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, s.adminURL)
	if err != nil {
		unavailable(t, fmt.Errorf("connect to %s: %w", redact(s.adminURL), err))
		return nil
	}
	defer conn.Close(ctx)
	db := &DB{Name: name, srv: s}
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err == nil {
		db.URL = withParam(s.adminURL, "dbname", name)
		t.Cleanup(func() { db.drop(t, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)") })
		return db
	} else if !isPrivilegeError(err) {
		t.Fatalf("pgtest: create database: %v", err)
	}
	// A role that may not create databases gets a schema of its own.
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+name); err != nil {
		t.Fatalf("pgtest: create schema (the role may not create databases): %v", err)
	}
	db.URL = withParam(s.adminURL, "search_path", name)
	t.Cleanup(func() { db.drop(t, "DROP SCHEMA IF EXISTS "+name+" CASCADE") })
	return db
}

func (db *DB) drop(t testing.TB, stmt string) {
	if c := db.srv.cluster; c != nil && !c.running() {
		return // the test left the cluster stopped; it is removed at exit anyway
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, db.srv.adminURL)
	if err != nil {
		t.Logf("pgtest: drop %s: %v", db.Name, err)
		return
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, stmt); err != nil {
		t.Logf("pgtest: drop %s: %v", db.Name, err)
	}
}

// SocketURL connects to the database over the throwaway cluster's Unix
// socket, in libpq's socket form postgres:///name?host=/dir&port=n. It is
// "" on an external server (EnvDatabaseURL), whose socket is unknown, and
// for a schema database (search_path carries it).
func (db *DB) SocketURL() string {
	c := db.srv.cluster
	if c == nil || !strings.Contains(db.URL, "/"+db.Name) {
		return ""
	}
	return fmt.Sprintf("postgres:///%s?host=%s&port=%d&user=postgres&sslmode=disable", db.Name, c.dir, c.port)
}

// Pool opens a connection pool on the database, closed at the end of the
// test.
func (db *DB) Pool(t testing.TB) *pgxpool.Pool {
	t.Helper()
	pool, err := pgxpool.New(context.Background(), db.URL)
	if err != nil {
		t.Fatalf("pgtest: pool: %v", err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// Stop shuts the server down (a fast shutdown: open connections are
// closed), to test how code behaves when the database goes away. It works on
// the throwaway cluster only and skips the test on an external server. The
// cluster is shared by the tests of the binary: never call Stop from a
// parallel test. The cluster is started again at cleanup if the test leaves
// it stopped.
func (db *DB) Stop(t testing.TB) {
	t.Helper()
	c := db.srv.cluster
	if c == nil {
		t.Skipf("pgtest: stopping the server needs the throwaway cluster, but %s names an external server", EnvDatabaseURL)
	}
	if err := c.stop(); err != nil {
		t.Fatalf("pgtest: stop: %v", err)
	}
	t.Cleanup(func() {
		if !c.running() {
			if err := c.start(); err != nil {
				t.Errorf("pgtest: restart at cleanup: %v", err)
			}
		}
	})
}

// Start starts the server again after Stop, on the same address, and waits
// until it accepts connections.
func (db *DB) Start(t testing.TB) {
	t.Helper()
	c := db.srv.cluster
	if c == nil {
		t.Skipf("pgtest: starting the server needs the throwaway cluster")
	}
	if err := c.start(); err != nil {
		t.Fatalf("pgtest: start: %v", err)
	}
}

// unavailable skips (or, when required, fails) a test that cannot get a
// database.
func unavailable(t testing.TB, err error) {
	t.Helper()
	msg := fmt.Sprintf("pgtest: no PostgreSQL: %v; set %s or install postgresql", err, EnvDatabaseURL)
	if os.Getenv(EnvRequire) == "1" {
		t.Fatal(msg + " (" + EnvRequire + "=1 makes this a failure)")
		return
	}
	t.Skip(msg)
}

func isPrivilegeError(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "42501" // insufficient_privilege
}

// withParam sets one connection parameter in a postgres:// URL (dbname
// replaces the path) or appends it to a key=value string, where a later key
// wins.
func withParam(conn, key, value string) string {
	if strings.HasPrefix(conn, "postgres://") || strings.HasPrefix(conn, "postgresql://") {
		u, err := url.Parse(conn)
		if err == nil {
			if key == "dbname" {
				u.Path = "/" + value
			} else {
				q := u.Query()
				q.Set(key, value)
				u.RawQuery = q.Encode()
			}
			return u.String()
		}
	}
	return conn + " " + key + "=" + value
}

var passwordParam = regexp.MustCompile(`(?i)(password=)('[^']*'|\S*)`)

// redact hides a password in a connection string for messages.
func redact(conn string) string {
	if u, err := url.Parse(conn); err == nil && u.Scheme != "" {
		if _, ok := u.User.Password(); ok {
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
		}
		q := u.Query()
		if q.Has("password") {
			q.Set("password", "xxxxx")
			u.RawQuery = q.Encode()
		}
		return u.String()
	}
	return passwordParam.ReplaceAllString(conn, "${1}xxxxx")
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
