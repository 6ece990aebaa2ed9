package pgstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local"
)

// Defaults of the store's bounds (Options).
const (
	// DefaultMaxScan is the number of rows one query may read before it
	// filters them.
	DefaultMaxScan      = 200_000
	DefaultMaxInstances = 1_000_000
	DefaultMaxTasks     = 2_000_000
)

// Options configure a Store.
type Options struct {
	// MaxScan bounds the rows one query reads from an index before the
	// filters that are not translated into SQL (see the package
	// documentation) and paging apply; a query that would read more fails
	// with *ScanLimitError rather than hold them all in memory. 0:
	// DefaultMaxScan; negative: no bound.
	MaxScan int
	// MaxInstances bounds the running process instances: a Commit that
	// would start instances past it fails with *engine.StorageFullError
	// (Limit "MaxInstances") and applies nothing. Engines sharing the
	// database each check it against a count they refresh every 1,000
	// growing commits and whenever it nears the bound, so concurrent
	// engines may pass it by the instances they start at that moment.
	// 0: DefaultMaxInstances; negative: no bound.
	MaxInstances int
	// MaxTasks bounds the open user and external tasks together, likewise
	// (Limit "MaxTasks"). 0: DefaultMaxTasks; negative: no bound.
	MaxTasks int
}

// ScanLimitError reports a query that matched more rows than
// Options.MaxScan before filtering.
type ScanLimitError struct {
	What string // "tasks", "historic tasks", …
	Max  int
}

func (e *ScanLimitError) Error() string {
	return fmt.Sprintf("pgstore: the %s query reads more than %d rows; narrow it with more filters", e.What, e.Max)
}

// LimitExceeded names the bound, so servers map it like the evaluation
// limits (400 LIMIT_EXCEEDED).
func (e *ScanLimitError) LimitExceeded() string { return "MaxScan" }

// Store is a local.Store on PostgreSQL. It is safe for concurrent use, and
// several Stores (in several processes) may share one database.
type Store struct {
	pool      *pgxpool.Pool
	maxScan   int
	instances bound
	tasks     bound
}

// Open creates the tables when they are missing (or brings them to this
// build's schema version) and returns a Store on pool. The pool stays the
// caller's: close it after the last use of the Store.
func Open(ctx context.Context, pool *pgxpool.Pool, o Options) (*Store, error) {
	if _, err := migrate(ctx, pool); err != nil {
		return nil, err
	}
	s := &Store{pool: pool, maxScan: resolve(o.MaxScan, DefaultMaxScan)}
	s.instances = bound{limit: "MaxInstances", max: int64(resolve(o.MaxInstances, DefaultMaxInstances)),
		count: "SELECT count(*) FROM engine_instances"}
	s.tasks = bound{limit: "MaxTasks", max: int64(resolve(o.MaxTasks, DefaultMaxTasks)),
		count: "SELECT (SELECT count(*) FROM engine_tasks) + (SELECT count(*) FROM engine_external_tasks)"}
	return s, nil
}

// resolve applies an option's default (0) and its "no bound" (negative: -1).
func resolve(v, def int) int {
	switch {
	case v == 0:
		return def
	case v < 0:
		return -1
	}
	return v
}

// recountEvery is how many growing commits an engine trusts its count of
// rows for a bound before it counts again.
const recountEvery = 1000

// bound is MaxInstances or MaxTasks: a count of rows kept up to date by
// this Store's commits and refreshed from the database (where other
// engines write too) every recountEvery growing commits, and whenever a
// commit would pass the bound by the count, so that only a count taken
// just now refuses a commit.
type bound struct {
	limit, count string
	max          int64

	mu    sync.Mutex
	known bool
	rows  int64
	since int
}

// admit reports whether n more rows fit.
func (b *bound) admit(ctx context.Context, pool *pgxpool.Pool, n int64) error {
	if b.max < 0 || n <= 0 {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.known || b.since >= recountEvery || b.rows+n > b.max {
		if err := pool.QueryRow(ctx, b.count).Scan(&b.rows); err != nil {
			return wrap(err)
		}
		b.known, b.since = true, 0
	}
	if b.rows+n > b.max {
		return &engine.StorageFullError{Limit: b.limit, Max: b.max, Need: b.rows + n}
	}
	return nil
}

// applied records a committed change of n rows.
func (b *bound) applied(n int64) {
	if b.max < 0 || n == 0 {
		return
	}
	b.mu.Lock()
	b.rows += n
	if n > 0 {
		b.since++
	}
	b.mu.Unlock()
}

var _ local.Store = (*Store)(nil)

// scanLimit reports whether n rows pass MaxScan.
func (s *Store) scanLimit(what string, n int) error {
	if s.maxScan >= 0 && n > s.maxScan {
		return &ScanLimitError{What: what, Max: s.maxScan}
	}
	return nil
}

// limitArg is the SQL LIMIT that lets scanLimit see one row too many.
func (s *Store) limitArg() int64 {
	if s.maxScan < 0 {
		return 1 << 62
	}
	return int64(s.maxScan) + 1
}

// --- deployments and process definitions

// CreateDeployment stores a deployment with its resources and process
// definitions, numbering them under a table lock: deployments commit in
// Seq order, so an engine that has read up to a Seq never misses an
// earlier one, and two engines deploying one key get different versions.
func (s *Store) CreateDeployment(ctx context.Context, d *local.DeploymentRecord) error {
	defs := append([]engine.ProcessDefinition(nil), d.ProcessDefinitions...)
	var seq int64
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "LOCK TABLE engine_deployments IN EXCLUSIVE MODE"); err != nil {
			return err
		}
		dep := deploymentDoc(d.Deployment)
		dep.DeployedDecisionDefinitions, dep.DeployedDecisionRequirementsDefinitions = nil, nil
		doc, err := json.Marshal(dep)
		if err != nil {
			return err
		}
		err = tx.QueryRow(ctx, `INSERT INTO engine_deployments (id, doc) VALUES ($1, $2)
			ON CONFLICT (id) DO NOTHING RETURNING seq`, d.Deployment.ID, doc).Scan(&seq)
		if errors.Is(err, pgx.ErrNoRows) {
			return &local.ConflictError{Kind: "deployment", ID: d.Deployment.ID, Have: 1}
		}
		if err != nil {
			return err
		}
		b := &pgx.Batch{}
		for i, r := range d.Resources {
			b.Queue("INSERT INTO engine_resources (deployment_id, ord, id, name, data) VALUES ($1, $2, $3, $4, $5)",
				d.Deployment.ID, i, r.ID, r.Name, nonNil(r.Data))
		}
		next := map[[2]string]int{}
		for i := range defs {
			p := &defs[i]
			k := [2]string{p.TenantID, p.Key}
			v, ok := next[k]
			if !ok {
				if err := tx.QueryRow(ctx, "SELECT coalesce(max(version), 0) FROM engine_definitions WHERE key = $1 AND tenant_id = $2",
					p.Key, p.TenantID).Scan(&v); err != nil {
					return err
				}
			}
			v++
			next[k] = v
			p.Version = v
			p.ID = local.DefinitionID(p.Key, v, p.ID)
			p.DeploymentID = d.Deployment.ID
			doc, err := json.Marshal(definitionDoc(*p))
			if err != nil {
				return err
			}
			b.Queue("INSERT INTO engine_definitions (id, key, tenant_id, version, deployment_id, doc) VALUES ($1, $2, $3, $4, $5, $6)",
				p.ID, p.Key, p.TenantID, p.Version, p.DeploymentID, doc)
		}
		return tx.SendBatch(ctx, b).Close()
	})
	if err != nil {
		return wrap(err)
	}
	d.Seq = seq
	copy(d.ProcessDefinitions, defs)
	return nil
}

func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// Deployment returns one deployment with its resources and process definitions.
func (s *Store) Deployment(ctx context.Context, id string) (local.DeploymentRecord, error) {
	ds, err := s.deployments(ctx, "d.id = $1", id)
	if err != nil {
		return local.DeploymentRecord{}, err
	}
	if len(ds) == 0 {
		return local.DeploymentRecord{}, local.ErrNoRecord
	}
	return ds[0], nil
}

// Deployments returns the deployments with Seq > afterSeq, in Seq order.
func (s *Store) Deployments(ctx context.Context, afterSeq int64) ([]local.DeploymentRecord, error) {
	return s.deployments(ctx, "d.seq > $1", afterSeq)
}

func (s *Store) deployments(ctx context.Context, where string, arg any) ([]local.DeploymentRecord, error) {
	out, err := queryRows(ctx, s, "SELECT d.seq, d.doc FROM engine_deployments d WHERE "+where+" ORDER BY d.seq", []any{arg},
		func(rows pgx.Rows) (local.DeploymentRecord, error) {
			var r local.DeploymentRecord
			var doc []byte
			if err := rows.Scan(&r.Seq, &doc); err != nil {
				return r, err
			}
			var err error
			r.Deployment, err = decodeAs(doc, func(p deploymentDoc) engine.Deployment { return engine.Deployment(p) })
			return r, err
		})
	if err != nil || len(out) == 0 {
		return nil, err
	}
	byID := map[string]int{}
	ids := make([]string, len(out))
	for i := range out {
		byID[out[i].Deployment.ID] = i
		ids[i] = out[i].Deployment.ID
	}
	type resource struct {
		deployment string
		local.ResourceRecord
	}
	res, err := queryRows(ctx, s, "SELECT deployment_id, id, name, data FROM engine_resources WHERE deployment_id = ANY($1) ORDER BY deployment_id, ord",
		[]any{ids}, func(rows pgx.Rows) (resource, error) {
			var r resource
			err := rows.Scan(&r.deployment, &r.ID, &r.Name, &r.Data)
			return r, err
		})
	if err != nil {
		return nil, err
	}
	for _, r := range res {
		d := &out[byID[r.deployment]]
		d.Resources = append(d.Resources, r.ResourceRecord)
	}
	rows, err := s.pool.Query(ctx, "SELECT doc FROM engine_definitions WHERE deployment_id = ANY($1) ORDER BY seq", ids)
	if err != nil {
		return nil, wrap(err)
	}
	defs, err := collectDefinitions(rows)
	if err != nil {
		return nil, err
	}
	for _, p := range defs {
		d := &out[byID[p.DeploymentID]]
		d.ProcessDefinitions = append(d.ProcessDefinitions, p)
	}
	return out, nil
}

// queryRows reads every row of a query whose size MaxScan does not
// bound (a deployment's resources; deployments, bounded by the engine).
func queryRows[T any](ctx context.Context, s *Store, sql string, args []any, decode func(pgx.Rows) (T, error)) ([]T, error) {
	return scanN(ctx, s, sql, args, 1<<62, decode)
}

func collectDefinitions(rows pgx.Rows) ([]engine.ProcessDefinition, error) {
	defer rows.Close()
	var out []engine.ProcessDefinition
	for rows.Next() {
		var doc []byte
		if err := rows.Scan(&doc); err != nil {
			return nil, err
		}
		p, err := decodeAs(doc, func(p definitionDoc) engine.ProcessDefinition { return engine.ProcessDefinition(p) })
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, wrap(rows.Err())
}

// DeleteDeployment deletes a deployment with its resources and process
// definitions.
func (s *Store) DeleteDeployment(ctx context.Context, id string) error {
	ct, err := s.pool.Exec(ctx, "DELETE FROM engine_deployments WHERE id = $1", id)
	if err != nil {
		return wrap(err)
	}
	if ct.RowsAffected() == 0 {
		return local.ErrNoRecord
	}
	return nil
}

// ProcessDefinitions lists process definitions in deployment order, or as
// the query sorts them.
func (s *Store) ProcessDefinitions(ctx context.Context, q engine.ProcessDefinitionQuery) ([]engine.ProcessDefinition, error) {
	rows, err := s.pool.Query(ctx, "SELECT doc FROM engine_definitions ORDER BY seq")
	if err != nil {
		return nil, wrap(err)
	}
	all, err := collectDefinitions(rows)
	if err != nil {
		return nil, err
	}
	latest := map[[2]string]int{}
	for _, p := range all {
		k := [2]string{p.TenantID, p.Key}
		latest[k] = max(latest[k], p.Version)
	}
	var out []engine.ProcessDefinition
	for i := range all {
		p := &all[i]
		if local.MatchProcessDefinition(q, p) && (!q.LatestVersion || latest[[2]string{p.TenantID, p.Key}] == p.Version) {
			out = append(out, *p)
		}
	}
	local.SortProcessDefinitions(q, out)
	return engine.Page(out, q.FirstResult, q.MaxResults), nil
}

// ProcessDefinition returns a process definition by id.
func (s *Store) ProcessDefinition(ctx context.Context, id string) (engine.ProcessDefinition, error) {
	return s.oneDefinition(ctx, "SELECT doc FROM engine_definitions WHERE id = $1", id)
}

// LatestProcessDefinition returns the highest version of a key and tenant.
func (s *Store) LatestProcessDefinition(ctx context.Context, key, tenantID string) (engine.ProcessDefinition, error) {
	return s.oneDefinition(ctx, `SELECT doc FROM engine_definitions WHERE key = $1 AND tenant_id = $2
		ORDER BY version DESC LIMIT 1`, key, tenantID)
}

func (s *Store) oneDefinition(ctx context.Context, sql string, args ...any) (engine.ProcessDefinition, error) {
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return engine.ProcessDefinition{}, wrap(err)
	}
	defs, err := collectDefinitions(rows)
	if err != nil {
		return engine.ProcessDefinition{}, err
	}
	if len(defs) == 0 {
		return engine.ProcessDefinition{}, local.ErrNoRecord
	}
	return defs[0], nil
}

// wrap turns PostgreSQL's verdict on a lost race into the store's
// conflict error, so that the engine retries the command: a deadlock
// between two commits, or a serialization failure.
func wrap(err error) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && (pgErr.Code == "40P01" || pgErr.Code == "40001") {
		return &local.ConflictError{Kind: "transaction", ID: pgErr.Code}
	}
	return err
}
