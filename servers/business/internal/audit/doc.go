// Package audit is the business API's audit trail: the
// audit_logs table in PostgreSQL, created by embedded migrations, written
// through a bounded queue and batched inserts so that recording never blocks
// or fails a request, and read back page by page for GET /v1/admin/audit.
//
//	log := audit.Open(ctx, audit.Options{Pool: pool, Logger: logger})
//	defer log.Close(shutdownCtx)
//	log.Record(audit.Entry{Action: "brp.personen.fetch", UserID: sub, TenantID: municipality,
//		ClientID: azp, Details: map[string]any{"bsn": bsn}, Result: audit.ResultSuccess, RequestID: id})
//	page, err := log.List(ctx, audit.ListOptions{Limit: 50}) // err → 500 DB_ERROR
//
// The database may be down at start-up or go away: Record keeps returning at
// once, a full queue drops entries and counts them (Stats), a batch is
// retried a bounded number of times, and rows resume when PostgreSQL is back,
// without a restart. Without a Pool the entries go to the application log
// with action, user, tenant, result and request id only — never details,
// which hold the citizen number of a register lookup.
//
// Record neither allocates nor blocks, whether the entry is queued or
// dropped; the writer stores rows in batches of 100. Benchmarks against a
// real PostgreSQL: go test -run XXX -bench . ./servers/business/internal/audit
package audit
