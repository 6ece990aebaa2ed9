package pgmigrate

import (
	"context"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// lockKey is the advisory lock every component migrates under ("regelkit"
// in ASCII, as a bigint), so two starting servers never race.
const lockKey int64 = 0x7265_6765_6c6b_6974

// Migration is one SQL file of a component.
type Migration struct {
	Version int
	Name    string // the file name, NNNN_name.sql
	SQL     string
}

// Read returns the files NNNN_name.sql of dir in version order; the
// versions must run 1, 2, 3, … without gaps.
func Read(dir fs.FS) ([]Migration, error) {
	entries, err := fs.ReadDir(dir, ".")
	if err != nil {
		return nil, err
	}
	var out []Migration
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || !strings.HasSuffix(e.Name(), ".sql") {
			return nil, fmt.Errorf("pgmigrate: migration file %q is not named NNNN_name.sql", e.Name())
		}
		body, err := fs.ReadFile(dir, e.Name())
		if err != nil {
			return nil, err
		}
		out = append(out, Migration{Version: v, Name: e.Name(), SQL: string(body)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version < out[j].Version })
	for i, m := range out {
		if m.Version != i+1 {
			return nil, fmt.Errorf("pgmigrate: migration %s: want version %d", m.Name, i+1)
		}
	}
	return out, nil
}

// Apply applies the pending migrations of dir for component in one
// transaction under the shared advisory lock, records each in
// schema_migrations and returns how many it applied. A database on which
// a newer build has applied a migration this one does not know is
// refused.
func Apply(ctx context.Context, pool *pgxpool.Pool, component string, dir fs.FS) (applied int, err error) {
	all, err := Read(dir)
	if err != nil {
		return 0, err
	}
	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", lockKey); err != nil {
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
		rows, err := tx.Query(ctx, "SELECT version FROM schema_migrations WHERE component = $1", component)
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
			// a newer build has migrated this database: writing to it
			// with this build's idea of the tables could lose data
			if int(v) > len(all) {
				return fmt.Errorf("pgmigrate: %s: the database's schema is version %d, newer than this build's %d", component, v, len(all))
			}
		}
		for _, m := range all {
			if have[m.Version] {
				continue
			}
			if _, err := tx.Exec(ctx, m.SQL); err != nil {
				return fmt.Errorf("migration %s: %w", m.Name, err)
			}
			if _, err := tx.Exec(ctx, "INSERT INTO schema_migrations (component, version, name) VALUES ($1, $2, $3)",
				component, m.Version, m.Name); err != nil {
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
