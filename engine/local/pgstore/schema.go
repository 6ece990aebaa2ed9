package pgstore

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

//go:embed schema/*.sql
var schemaFiles embed.FS

// schemaLock is the advisory lock Open migrates under ("pgstore!" in
// ASCII), so that two engines starting on one database never both create
// the tables.
const schemaLock int64 = 0x7067_7374_6f72_6521

type migration struct {
	version int
	name    string
	sql     string
}

// migrations returns the embedded schema files NNNN_name.sql in version
// order; versions run 1, 2, 3, … without gaps.
func migrations() ([]migration, error) {
	entries, err := fs.ReadDir(schemaFiles, "schema")
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || !strings.HasSuffix(e.Name(), ".sql") {
			return nil, fmt.Errorf("pgstore: schema file %q is not named NNNN_name.sql", e.Name())
		}
		body, err := fs.ReadFile(schemaFiles, "schema/"+e.Name())
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: v, name: e.Name(), sql: string(body)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	for i, m := range out {
		if m.version != i+1 {
			return nil, fmt.Errorf("pgstore: schema file %s: want version %d", m.name, i+1)
		}
	}
	return out, nil
}

// migrate brings the database's schema to the newest embedded version in
// one transaction and returns that version. A database whose schema is
// newer than this build knows is refused rather than written to.
func migrate(ctx context.Context, pool *pgxpool.Pool) (int, error) {
	all, err := migrations()
	if err != nil {
		return 0, err
	}
	newest := all[len(all)-1].version
	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", schemaLock); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS engine_schema (
			version    integer     PRIMARY KEY,
			name       text        NOT NULL,
			applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
			return err
		}
		var have int
		if err := tx.QueryRow(ctx, "SELECT coalesce(max(version), 0) FROM engine_schema").Scan(&have); err != nil {
			return err
		}
		if have > newest {
			return fmt.Errorf("pgstore: the database's schema is version %d, newer than this build's %d", have, newest)
		}
		for _, m := range all[have:] {
			if _, err := tx.Exec(ctx, m.sql); err != nil {
				return fmt.Errorf("pgstore: schema %s: %w", m.name, err)
			}
			if _, err := tx.Exec(ctx, "INSERT INTO engine_schema (version, name) VALUES ($1, $2)", m.version, m.name); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return newest, nil
}
