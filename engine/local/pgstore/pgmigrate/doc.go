// Package pgmigrate applies a component's embedded SQL migrations to
// PostgreSQL: the one migration runner of regelkit, used by the process
// engine's store (component "engine") and by the servers' own tables.
//
// Each component keeps files NNNN_name.sql (versions 1, 2, 3, … without
// gaps) in an embedded directory and applies the pending ones at start-up:
//
//	//go:embed migrations/*.sql
//	var files embed.FS
//
//	dir, _ := fs.Sub(files, "migrations")
//	applied, err := pgmigrate.Apply(ctx, pool, "business-audit", dir)
//
// Apply runs in one transaction under an advisory lock shared by all
// components, records each migration in schema_migrations under the
// component's name, and skips those already applied, so it is safe to call
// at every start and from several starting replicas at once. A database
// that a newer build has migrated further is refused rather than written.
package pgmigrate
