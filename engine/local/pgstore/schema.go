package pgstore

import (
	"context"
	"embed"
	"fmt"
	"io/fs"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/regelkit/regelkit/engine/local/pgstore/pgmigrate"
)

//go:embed schema/*.sql
var schemaFiles embed.FS

// migrate brings the engine's tables to the newest embedded schema (the
// component "engine" of pgmigrate) and returns that version.
func migrate(ctx context.Context, pool *pgxpool.Pool) (int, error) {
	dir, err := fs.Sub(schemaFiles, "schema")
	if err != nil {
		return 0, err
	}
	all, err := pgmigrate.Read(dir)
	if err != nil {
		return 0, fmt.Errorf("pgstore: %w", err)
	}
	if _, err := pgmigrate.Apply(ctx, pool, "engine", dir); err != nil {
		return 0, fmt.Errorf("pgstore: schema: %w", err)
	}
	return len(all), nil
}
