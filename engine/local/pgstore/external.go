package pgstore

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local"
)

func decodeExternalRow(rows pgx.Rows) (local.ExternalTaskRecord, error) {
	var r local.ExternalTaskRecord
	var version int64
	var doc []byte
	if err := rows.Scan(&version, &doc); err != nil {
		return r, err
	}
	if err := json.Unmarshal(doc, &r); err != nil {
		return r, err
	}
	r.Version = version
	return r, nil
}

// ExternalTask returns an external task.
func (s *Store) ExternalTask(ctx context.Context, id string) (local.ExternalTaskRecord, error) {
	ts, err := scan(ctx, s, "external tasks", "SELECT version, doc FROM engine_external_tasks WHERE id = $1", []any{id}, decodeExternalRow)
	if err != nil {
		return local.ExternalTaskRecord{}, err
	}
	if len(ts) == 0 {
		return local.ExternalTaskRecord{}, local.ErrNoRecord
	}
	return ts[0], nil
}

// InstanceExternalTasks lists the external tasks of instances in creation order.
func (s *Store) InstanceExternalTasks(ctx context.Context, instanceIDs ...string) ([]local.ExternalTaskRecord, error) {
	return scan(ctx, s, "external tasks", "SELECT version, doc FROM engine_external_tasks WHERE instance_id = ANY($1) ORDER BY seq",
		[]any{instanceIDs}, decodeExternalRow)
}

// LockExternalTasks locks up to r.MaxTasks fetchable external tasks in one
// transaction. The candidates are selected FOR UPDATE SKIP LOCKED: a row
// another worker's transaction is locking right now is passed over rather
// than waited for, and a row locked here cannot be taken by anyone else
// until the lock is recorded, so two workers never lock one task.
func (s *Store) LockExternalTasks(ctx context.Context, r local.LockRequest) ([]local.ExternalTaskRecord, error) {
	if r.MaxTasks <= 0 || len(r.Topics) == 0 {
		return nil, ctx.Err()
	}
	w := &where{}
	now := w.arg(r.Now)
	w.add("NOT suspended")
	w.add("(lock_expiration IS NULL OR lock_expiration <= " + now + ")")
	w.add("(retries IS NULL OR retries > 0)")
	w.add("(retry_at IS NULL OR retry_at <= " + now + ")")
	// local.Fetchable's topic filters, one alternative per topic
	var or []string
	for i := range r.Topics {
		t := &r.Topics[i]
		c := []string{"topic = " + w.arg(t.TopicName)}
		if t.BusinessKey != "" {
			c = append(c, "business_key = "+w.arg(t.BusinessKey))
		}
		if t.ProcessDefinitionKey != "" {
			c = append(c, "definition_key = "+w.arg(t.ProcessDefinitionKey))
		}
		if t.WithoutTenantID {
			c = append(c, "tenant_id = ''")
		}
		if len(t.TenantIDIn) > 0 {
			c = append(c, "tenant_id = ANY("+w.arg(t.TenantIDIn)+")")
		}
		or = append(or, "("+strings.Join(c, " AND ")+")")
	}
	w.add("(" + strings.Join(or, " OR ") + ")")
	order := " ORDER BY seq"
	if r.UsePriority {
		order = " ORDER BY priority DESC, seq"
	}
	limit := w.arg(int64(r.MaxTasks))

	var out []local.ExternalTaskRecord
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, "SELECT version, doc FROM engine_external_tasks"+w.String()+order+
			" LIMIT "+limit+" FOR UPDATE SKIP LOCKED", w.args...)
		if err != nil {
			return err
		}
		var cands []local.ExternalTaskRecord
		for rows.Next() {
			c, err := decodeExternalRow(rows)
			if err != nil {
				rows.Close()
				return err
			}
			cands = append(cands, c)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		b := &pgx.Batch{}
		for i := range cands {
			c := &cands[i]
			// The columns are microseconds; the record decides to the nanosecond.
			var topic *engine.FetchTopic
			for j := range r.Topics {
				if local.Fetchable(c, &r.Topics[j], r.Now) {
					topic = &r.Topics[j]
					break
				}
			}
			if topic == nil {
				continue
			}
			c.WorkerID = r.WorkerID
			c.LockExpiration = r.Now.Add(topic.LockDuration)
			doc, err := json.Marshal(c)
			if err != nil {
				return err
			}
			lock, _, _ := externalColumns(c)
			b.Queue("UPDATE engine_external_tasks SET version = version + 1, lock_expiration = $2, doc = $3 WHERE id = $1",
				c.ID, lock, doc)
			c.Version++
			out = append(out, *c)
		}
		return tx.SendBatch(ctx, b).Close()
	})
	if err != nil {
		return nil, wrap(err)
	}
	return out, nil
}

// Incidents lists the open incidents: the external tasks with retries 0
// (a partial index holds just those), narrowed here by the columns the
// table has and by local.Incidents for the rest.
func (s *Store) Incidents(ctx context.Context, q engine.IncidentQuery) ([]engine.Incident, error) {
	w := &where{}
	w.add("retries = 0")
	if q.ProcessInstanceID != "" {
		w.add("instance_id = " + w.arg(q.ProcessInstanceID))
	}
	if len(q.TenantIDIn) > 0 {
		w.add("tenant_id = ANY(" + w.arg(q.TenantIDIn) + ")")
	}
	recs, err := scan(ctx, s, "incidents", "SELECT version, doc FROM engine_external_tasks"+w.String()+" ORDER BY seq",
		w.args, decodeExternalRow)
	if err != nil {
		return nil, err
	}
	return local.Incidents(q, recs), nil
}
