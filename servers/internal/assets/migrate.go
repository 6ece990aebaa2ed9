package assets

import (
	"context"
	"embed"
	"io/fs"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/regelkit/regelkit/engine/local/pgstore/pgmigrate"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrationComponent names this package's rows in schema_migrations, which
// the other regelkit components sharing the database use too.
const migrationComponent = "explorer-assets"

// migrationDir holds the files NNNN_name.sql.
func migrationDir() fs.FS {
	dir, err := fs.Sub(migrationFiles, "migrations")
	if err != nil {
		panic(err) // the embed pattern guarantees the directory
	}
	return dir
}

// migrate applies the pending migrations (pgmigrate.Apply): safe at every
// start and from several starting servers at once.
func migrate(ctx context.Context, pool *pgxpool.Pool) (applied int, err error) {
	return pgmigrate.Apply(ctx, pool, migrationComponent, migrationDir())
}
