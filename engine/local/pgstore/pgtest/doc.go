// Package pgtest gives tests a real, isolated PostgreSQL database: one fresh
// database per test, created on the server named by
// REGELKIT_TEST_DATABASE_URL or, when that is unset, on a throwaway cluster
// that the test binary starts once from the installed PostgreSQL binaries
// and stops when it exits.
//
// A test that cannot get a database is skipped with a message saying why,
// unless REGELKIT_REQUIRE_DB=1 (set by CI), which turns the skip into a
// failure. Use it like this:
//
//	func TestMain(m *testing.M) { pgtest.Main(m) }
//
//	func TestStore(t *testing.T) {
//		db := pgtest.New(t)            // fresh database, dropped at cleanup
//		pool := db.Pool(t)             // *pgxpool.Pool closed at cleanup
//		...
//		db.Stop(t); ...; db.Start(t)   // an outage, on the throwaway cluster only
//	}
//
// The throwaway cluster listens on 127.0.0.1 on a free port with trust
// authentication, its socket and data in a temporary directory, fsync off.
// Running as root (where initdb and postgres refuse to run), it runs them as
// the "postgres" OS user in a directory owned by that user. The binaries are
// looked up in REGELKIT_PG_BIN, then /usr/lib/postgresql/<newest>/bin
// (Debian and Ubuntu), /usr/local/pgsql/bin and PATH.
package pgtest
