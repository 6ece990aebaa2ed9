// Package pgstore keeps the embedded process engine's state in
// PostgreSQL: it implements local.Store, so that a killed engine loses
// nothing and several engines (business-API replicas) share one database
// without completing a task twice. Open creates or upgrades its tables;
// the engine then persists every step through it.
//
// The one call a newcomer needs (the pool is the caller's, closed after
// the engine's last use):
//
//	pool, err := pgxpool.New(ctx, os.Getenv("DATABASE_URL"))
//	store, err := pgstore.Open(ctx, pool, pgstore.Options{})
//	e := local.New(local.Options{Store: store})
//
// # Schema
//
// Open applies the embedded schema/NNNN_*.sql files that the database has
// not seen with pgmigrate (component "engine"): in one transaction under
// an advisory lock, so two engines starting at once do not race, each
// recorded in schema_migrations; a database with a newer schema than the
// build is refused. The tables are
// engine_deployments, engine_resources and engine_definitions;
// engine_instances (with a version column), engine_tasks and
// engine_external_tasks for running state; engine_hist_* for history.
// Each row keeps the engine's record as JSON in a bytea column (bytes, so
// numbers and key order come back as written) and copies into indexed
// columns what queries narrow on: a task's municipality (its instance's
// variable "municipality" as text, and as a number when it is one),
// candidate groups and users (text[] with GIN indexes), assignee and
// instance; an external
// task's topic and lock expiry; a historic variable's name and String
// value. An external task's open incident lives in its row (schema 2: a
// partial index on the rows with retries 0), so the failure that opens it
// commits with it.
//
// # Commit
//
// Commit sends one step of the engine as one batch in one transaction:
// inserts (INSERT … ON CONFLICT DO NOTHING), updates and deletes (… WHERE
// id = $1 AND version = $2) of instances, tasks and external tasks, and
// upserts of history rows. A write that touches no row, because another
// engine changed or removed the record since it was read, rolls the whole
// transaction back and returns a *local.ConflictError; so do deadlocks and
// serialization failures between two engines. The engine re-reads and
// re-applies its command, and the loser of a race over a task finds it
// gone. LockExternalTasks selects candidates FOR UPDATE SKIP LOCKED, so
// two workers never lock one external task.
//
// Starting the three-step process and completing its task takes five
// round trips: the definition, the step's batch, the task list, the task
// with its instance (TaskWithInstance, one query), the step's batch
// (BenchmarkStartComplete; its figure is in the README's performance
// table).
//
// # Queries
//
// Every query is answered in two halves: SQL narrows the rows with
// conditions on indexed columns that the query implies, and Go applies
// engine/local's Match…, Sort… and Page helpers to the rest, so each
// filter means exactly what it means in the memory store. A task query
// that SQL expresses whole (no variable, name or business-key filter and
// no sorting) is also counted and paged in SQL. A paged history query
// in insertion order (and historic tasks by endTime, the business API's
// task history) reads its rows in that order in growing windows and
// stops once the page is full. A variable filter
// "municipality eq <text>" reads the municipality index: the tasks with
// that text, and those MatchVariable may still accept (no or a null
// municipality, or a number equal to a numeric text: "0363" and 363),
// which Go checks against their instance's variables. Candidate groups
// are then checked on those rows: a group's GIN posting list holds far
// more tasks than one municipality.
//
// # Bounds
//
// A query reads at most Options.MaxScan rows (default 200,000) before its
// Go half; a query that would read more fails with *ScanLimitError (a
// LimitExceeded error servers map to 400) instead of holding them all. A
// windowed page counts only the rows it read.
// The business API's task list reads only the rows of one municipality
// (BenchmarkTaskListOfMunicipality; its figure is in the README's
// performance table). Options.MaxInstances and MaxTasks
// (defaults 1,000,000 and 2,000,000) bound the running instances and the
// open tasks: a Commit past them fails with *engine.StorageFullError and
// applies nothing. Each engine checks them against a count it refreshes
// every 1,000 growing commits and whenever a commit would pass the bound,
// so a count(*) runs only then. History stays until the engine deletes it
// (DeleteHistory), as in Operaton, whose history cleanup removes it.
//
// Tests run against a real server through engine/local/pgstore/pgtest,
// which starts a throwaway cluster (or uses REGELKIT_TEST_DATABASE_URL).
package pgstore
