package pgstore

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local"
)

// versionCheck is a statement of a Commit whose effect proves that the
// record was still at the version the change was computed from: it must
// touch one row.
type versionCheck struct {
	kind, table, id string
	want            int64
}

// Commit applies one step of the engine in one transaction: every
// instance, task and external-task write is an INSERT … ON CONFLICT DO
// NOTHING (Version 0) or an UPDATE/DELETE … WHERE id = $1 AND version = $2,
// and one that touches no row fails the whole Commit with a
// *local.ConflictError; history rows are upserted by id. The statements
// go to the server in one batch, one round trip, which PostgreSQL runs as
// one implicit transaction (see engine_expect_one in the schema).
func (s *Store) Commit(ctx context.Context, c local.Change) error {
	b := &pgx.Batch{}
	var checks []*versionCheck // per queued statement; nil: no check
	queue := func(chk *versionCheck, sql string, args ...any) {
		if chk != nil {
			sql = "WITH w AS (" + sql + " RETURNING 1) SELECT engine_expect_one(count(*)) FROM w"
		}
		b.Queue(sql, args...)
		checks = append(checks, chk)
	}

	for i := range c.Instances {
		r := &c.Instances[i]
		doc, vars, err := encodeInstance(r)
		if err != nil {
			return err
		}
		chk := &versionCheck{"instance", "engine_instances", r.ID, r.Version}
		if r.Version == 0 {
			queue(chk, `INSERT INTO engine_instances (id, version, definition_id, definition_key, deployment_id,
				business_key, tenant_id, super_instance_id, doc, variables, state)
				VALUES ($1, 1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (id) DO NOTHING`,
				r.ID, r.DefinitionID, r.DefinitionKey, r.DeploymentID, r.BusinessKey, r.TenantID, r.SuperInstanceID,
				doc, vars, nonNil(r.State))
		} else {
			queue(chk, `UPDATE engine_instances SET version = version + 1, definition_id = $3, definition_key = $4,
				deployment_id = $5, business_key = $6, tenant_id = $7, super_instance_id = $8, doc = $9,
				variables = $10, state = $11 WHERE id = $1 AND version = $2`,
				r.ID, r.Version, r.DefinitionID, r.DefinitionKey, r.DeploymentID, r.BusinessKey, r.TenantID,
				r.SuperInstanceID, doc, vars, nonNil(r.State))
		}
	}
	for _, d := range c.DeleteInstances {
		queue(&versionCheck{"instance", "engine_instances", d.ID, d.Version},
			"DELETE FROM engine_instances WHERE id = $1 AND version = $2", d.ID, d.Version)
	}
	for _, d := range c.DeleteTasks {
		queue(&versionCheck{"task", "engine_tasks", d.ID, d.Version},
			"DELETE FROM engine_tasks WHERE id = $1 AND version = $2", d.ID, d.Version)
	}
	for i := range c.Tasks {
		r := &c.Tasks[i]
		doc, err := encodeTask(r)
		if err != nil {
			return err
		}
		t := &r.Task
		chk := &versionCheck{"task", "engine_tasks", t.ID, r.Version}
		users, groups := nonNilStrings(t.CandidateUsers), nonNilStrings(t.CandidateGroups)
		if r.Version == 0 {
			queue(chk, `INSERT INTO engine_tasks (id, version, instance_id, definition_key, task_def_key, municipality,
				assignee, candidate_users, candidate_groups, tenant_id, doc, municipality_num)
				VALUES ($1, 1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::numeric) ON CONFLICT (id) DO NOTHING`,
				t.ID, t.ProcessInstanceID, r.ProcessDefinitionKey, t.TaskDefinitionKey, r.Municipality,
				t.Assignee, users, groups, t.TenantID, doc, jsonNumber(r.Municipality))
		} else {
			queue(chk, `UPDATE engine_tasks SET version = version + 1, instance_id = $3, definition_key = $4,
				task_def_key = $5, municipality = $6, assignee = $7, candidate_users = $8, candidate_groups = $9,
				tenant_id = $10, doc = $11, municipality_num = $12::numeric WHERE id = $1 AND version = $2`,
				t.ID, r.Version, t.ProcessInstanceID, r.ProcessDefinitionKey, t.TaskDefinitionKey, r.Municipality,
				t.Assignee, users, groups, t.TenantID, doc, jsonNumber(r.Municipality))
		}
	}
	for _, d := range c.DeleteExternalTasks {
		queue(&versionCheck{"externalTask", "engine_external_tasks", d.ID, d.Version},
			"DELETE FROM engine_external_tasks WHERE id = $1 AND version = $2", d.ID, d.Version)
	}
	for i := range c.ExternalTasks {
		r := &c.ExternalTasks[i]
		doc, err := json.Marshal(r)
		if err != nil {
			return err
		}
		lock, retries, retryAt := externalColumns(r)
		chk := &versionCheck{"externalTask", "engine_external_tasks", r.ID, r.Version}
		if r.Version == 0 {
			queue(chk, `INSERT INTO engine_external_tasks (id, version, instance_id, topic, lock_expiration, retries,
				retry_at, suspended, priority, definition_key, business_key, tenant_id, doc)
				VALUES ($1, 1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (id) DO NOTHING`,
				r.ID, r.InstanceID, r.TopicName, lock, retries, retryAt, r.Suspended, r.Priority,
				r.DefinitionKey, r.BusinessKey, r.TenantID, doc)
		} else {
			queue(chk, `UPDATE engine_external_tasks SET version = version + 1, instance_id = $3, topic = $4,
				lock_expiration = $5, retries = $6, retry_at = $7, suspended = $8, priority = $9,
				definition_key = $10, business_key = $11, tenant_id = $12, doc = $13
				WHERE id = $1 AND version = $2`,
				r.ID, r.Version, r.InstanceID, r.TopicName, lock, retries, retryAt, r.Suspended, r.Priority,
				r.DefinitionKey, r.BusinessKey, r.TenantID, doc)
		}
	}
	if err := queueHistory(&c.History, func(sql string, args ...any) { queue(nil, sql, args...) }); err != nil {
		return err
	}
	if b.Len() == 0 {
		return ctx.Err()
	}
	newInstances, newTasks := growth(&c)
	if err := s.instances.admit(ctx, s.pool, newInstances); err != nil {
		return err
	}
	if err := s.tasks.admit(ctx, s.pool, newTasks); err != nil {
		return err
	}

	br := s.pool.SendBatch(ctx, b)
	var err error
	for _, chk := range checks {
		if _, err = br.Exec(); err != nil {
			var pgErr *pgconn.PgError
			if chk != nil && errors.As(err, &pgErr) && pgErr.Code == staleVersion {
				br.Close()
				return s.conflict(ctx, chk)
			}
			break
		}
	}
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return wrap(err)
	}
	s.instances.applied(newInstances)
	s.tasks.applied(newTasks)
	return nil
}

// growth is how many running instances and open tasks (user and
// external) a change adds, net of those it removes.
func growth(c *local.Change) (instances, tasks int64) {
	for i := range c.Instances {
		if c.Instances[i].Version == 0 {
			instances++
		}
	}
	for i := range c.Tasks {
		if c.Tasks[i].Version == 0 {
			tasks++
		}
	}
	for i := range c.ExternalTasks {
		if c.ExternalTasks[i].Version == 0 {
			tasks++
		}
	}
	return instances - int64(len(c.DeleteInstances)), tasks - int64(len(c.DeleteTasks)+len(c.DeleteExternalTasks))
}

// staleVersion is the SQLSTATE engine_expect_one raises.
const staleVersion = "RK409"

// conflict reports a refused Commit with the version the record has now
// (0: gone), read after the rollback, for the message only.
func (s *Store) conflict(ctx context.Context, chk *versionCheck) error {
	have := int64(0)
	err := s.pool.QueryRow(ctx, "SELECT version FROM "+chk.table+" WHERE id = $1", chk.id).Scan(&have)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return err
	}
	return &local.ConflictError{Kind: chk.kind, ID: chk.id, Want: chk.want, Have: have}
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// externalColumns are the columns fetch-and-lock narrows on: the lock's
// expiry (NULL when the task is not locked), the retries (NULL when it
// never failed) and the retry time (NULL when none).
func externalColumns(r *local.ExternalTaskRecord) (lock, retries, retryAt any) {
	if r.WorkerID != "" {
		lock = r.LockExpiration
	}
	if r.Retries != nil {
		retries = int32(*r.Retries)
	}
	if !r.RetryAt.IsZero() {
		retryAt = r.RetryAt
	}
	return lock, retries, retryAt
}

// queueHistory queues the upserts of a step's history rows, in the order
// of local.HistoryChange.
func queueHistory(h *local.HistoryChange, queue func(sql string, args ...any)) error {
	for i := range h.ProcessInstances {
		p := &h.ProcessInstances[i]
		doc, err := json.Marshal(hpiDoc(*p))
		if err != nil {
			return err
		}
		queue(`INSERT INTO engine_hist_instances (id, definition_key, business_key, doc) VALUES ($1, $2, $3, $4)
			ON CONFLICT (id) DO UPDATE SET definition_key = excluded.definition_key,
			business_key = excluded.business_key, doc = excluded.doc`,
			p.ID, p.ProcessDefinitionKey, p.BusinessKey, doc)
	}
	for i := range h.Activities {
		a := &h.Activities[i]
		doc, err := json.Marshal(hactDoc(*a))
		if err != nil {
			return err
		}
		queue(`INSERT INTO engine_hist_activities (id, instance_id, doc) VALUES ($1, $2, $3)
			ON CONFLICT (id) DO UPDATE SET instance_id = excluded.instance_id, doc = excluded.doc`,
			a.ID, a.ProcessInstanceID, doc)
	}
	for i := range h.Tasks {
		t := &h.Tasks[i]
		doc, err := json.Marshal(htaskDoc(*t))
		if err != nil {
			return err
		}
		var endNs any
		if t.EndTime != nil {
			endNs = t.EndTime.UnixNano()
		}
		queue(`INSERT INTO engine_hist_tasks (id, instance_id, definition_key, finished, end_ns, doc) VALUES ($1, $2, $3, $4, $5, $6)
			ON CONFLICT (id) DO UPDATE SET instance_id = excluded.instance_id,
			definition_key = excluded.definition_key, finished = excluded.finished, end_ns = excluded.end_ns, doc = excluded.doc`,
			t.ID, t.ProcessInstanceID, t.ProcessDefinitionKey, t.EndTime != nil, endNs, doc)
	}
	for i := range h.Variables {
		v := &h.Variables[i]
		doc, err := json.Marshal(hvarDoc(*v))
		if err != nil {
			return err
		}
		created, err := v.CreateTime.MarshalText()
		if err != nil {
			return err
		}
		// create_time is left on update: a variable's row keeps its first CreateTime
		queue(`INSERT INTO engine_hist_variables (id, instance_id, definition_key, name, text_value, create_time, doc)
			VALUES ($1, $2, $3, $4, $5, $6, $7)
			ON CONFLICT (id) DO UPDATE SET instance_id = excluded.instance_id, definition_key = excluded.definition_key,
			name = excluded.name, text_value = excluded.text_value, doc = excluded.doc`,
			v.ID, v.ProcessInstanceID, v.ProcessDefinitionKey, v.Name, stringValue(v), string(created), doc)
	}
	for i := range h.Decisions {
		d := &h.Decisions[i]
		doc, err := encodeDecision(d)
		if err != nil {
			return err
		}
		queue(`INSERT INTO engine_hist_decisions (id, instance_id, definition_key, doc) VALUES ($1, $2, $3, $4)
			ON CONFLICT (id) DO UPDATE SET instance_id = excluded.instance_id,
			definition_key = excluded.definition_key, doc = excluded.doc`,
			d.ID, d.ProcessInstanceID, d.ProcessDefinitionKey, doc)
	}
	return nil
}

// jsonNumberSyntax is JSON's number syntax with leading zeros allowed
// ("0363"), which PostgreSQL's numeric reads; the exponent is kept within
// numeric's range.
var jsonNumberSyntax = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]{1,3})?$`)

// jsonNumber is the municipality_num column: the text when it is a
// number (a number variable's text always is, unless longer than 1,000
// characters or beyond numeric's exponent range, which SQL then cannot
// find by value), else NULL.
func jsonNumber(s string) any {
	if len(s) > 1000 || !jsonNumberSyntax.MatchString(s) {
		return nil
	}
	return s
}

// stringValue is the text_value column of a historic variable: the value
// of a live String variable, else NULL (the history filters then decide
// in Go). A DELETED row has no value a filter can match.
func stringValue(v *engine.HistoricVariable) any {
	if v.State == "DELETED" {
		return nil
	}
	if s, ok := v.Value.Value.(string); ok && v.Value.Type == engine.TypeString {
		return s
	}
	return nil
}
