package audit

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrationComponent names this package's rows in schema_migrations, which
// other components sharing the database (the explorer's assets) use too.
const migrationComponent = "business-audit"

// migrationLockKey is the advisory lock every regelkit component migrates
// under ("regelkit" in ASCII), so two starting servers never race.
const migrationLockKey int64 = 0x7265_6765_6c6b_6974

type migration struct {
	version int
	name    string
	sql     string
}

// migrations reads the embedded files NNNN_name.sql in version order; the
// versions must run 1, 2, 3, … without gaps.
func migrations() ([]migration, error) {
	entries, err := fs.ReadDir(migrationFiles, "migrations")
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || !strings.HasSuffix(e.Name(), ".sql") {
			return nil, fmt.Errorf("audit: migration file %q is not named NNNN_name.sql", e.Name())
		}
		body, err := migrationFiles.ReadFile("migrations/" + e.Name())
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: v, name: e.Name(), sql: string(body)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	for i, m := range out {
		if m.version != i+1 {
			return nil, fmt.Errorf("audit: migration %s: want version %d", m.name, i+1)
		}
	}
	return out, nil
}

// migrate applies the pending migrations in one transaction under the
// advisory lock and records each in schema_migrations; applied ones are
// skipped, so it is safe at every start.
func migrate(ctx context.Context, pool *pgxpool.Pool) (applied int, err error) {
	all, err := migrations()
	if err != nil {
		return 0, err
	}
	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", migrationLockKey); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
			component  text NOT NULL,
			version    integer NOT NULL,
			name       text NOT NULL,
			applied_at timestamptz NOT NULL DEFAULT now(),
			PRIMARY KEY (component, version))`); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, "SELECT version FROM schema_migrations WHERE component = $1", migrationComponent)
		if err != nil {
			return err
		}
		done, err := pgx.CollectRows(rows, pgx.RowTo[int32])
		if err != nil {
			return err
		}
		have := map[int]bool{}
		for _, v := range done {
			have[int(v)] = true
		}
		for _, m := range all {
			if have[m.version] {
				continue
			}
			if _, err := tx.Exec(ctx, m.sql); err != nil {
				return fmt.Errorf("migration %s: %w", m.name, err)
			}
			if _, err := tx.Exec(ctx, "INSERT INTO schema_migrations (component, version, name) VALUES ($1, $2, $3)",
				migrationComponent, m.version, m.name); err != nil {
				return err
			}
			applied++
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return applied, nil
}
