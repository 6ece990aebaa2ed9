// Package assets stores the explorer's BPMN processes, form schemas and
// document templates in PostgreSQL and serves them under /v1/assets
// (explorer spec, asset storage). Store holds the data:
// embedded, versioned migrations applied at start-up (in one transaction,
// under an advisory lock, recorded in schema_migrations), concurrency-safe
// single-statement upserts, read-only rows left out of the lists and
// refused for change, and a database that may come and go; Register mounts
// the endpoints over it.
//
//	store, err := assets.Open(ctx, databaseURL, assets.Options{Logger: logger})
//	defer store.Close()
//	assets.Register(router, assets.Deps{Store: store, Logger: logger})
//
// Another server reads the same tables with a Reader store (Options.Reader:
// it never migrates) through FindProcesses, FindForms,
// FindDocumentTemplates and the *ByID look-ups, which see the rows without
// an organisation plus those of the reader's and bound both the rows and
// the large columns read (the business server's assistant tools).
//
// Without a database (a nil Store) every endpoint answers 503
// DB_NOT_CONFIGURED before it reads the body. While the database cannot be
// reached, calls answer 503 DB_UNAVAILABLE; the first call after it is back
// succeeds, and the migrations run then if the database was down at
// start-up. Upserts answer 409 PROCESS_ID_TAKEN when another process of the
// same organisation holds the bpmnProcessId (a unique index decides, so
// concurrent writers cannot both win) and 409 READONLY_ASSET for a read-only
// row; deleting an absent id succeeds (idempotent), deleting a read-only row
// answers 409 READONLY_ASSET and keeps it.
//
// Benchmarks against a real PostgreSQL (engine/local/pgstore/pgtest) measure
// an upsert and a listing: go test -run XXX -bench . ./servers/internal/assets
package assets
