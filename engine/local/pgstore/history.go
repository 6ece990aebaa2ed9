package pgstore

import (
	"context"
	"encoding/json"

	"github.com/jackc/pgx/v5"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local"
)

// histVarFilters narrows by the text-equality variable filters: the
// instance (instanceCol) must have a historic variable of that name whose
// String value is the text, or whose value is not a String (NULL: Go
// decides, as MatchVariable compares numbers numerically).
func histVarFilters(w *where, instanceCol string, fs []engine.VariableFilter) {
	for _, f := range fs {
		if v, ok := textEq(f); ok {
			w.add("EXISTS (SELECT 1 FROM engine_hist_variables v WHERE v.instance_id = " + instanceCol +
				" AND v.name = " + w.arg(f.Name) + " AND (v.text_value = " + w.arg(v) + " OR v.text_value IS NULL))")
		}
	}
}

// histVars returns the latest variable values of ended or running
// instances, as the history's variable filters see them.
func (s *Store) histVars(ctx context.Context, ids []string) (map[string]engine.Variables, error) {
	rows, err := s.pool.Query(ctx, "SELECT instance_id, doc FROM engine_hist_variables WHERE instance_id = ANY($1) ORDER BY seq", ids)
	if err != nil {
		return nil, wrap(err)
	}
	defer rows.Close()
	out := map[string]engine.Variables{}
	for rows.Next() {
		var id string
		var doc []byte
		if err := rows.Scan(&id, &doc); err != nil {
			return nil, err
		}
		var v hvarDoc
		if err := json.Unmarshal(doc, &v); err != nil {
			return nil, err
		}
		vars := out[id]
		if vars == nil {
			vars = engine.Variables{}
			out[id] = vars
		}
		if v.State == "DELETED" {
			delete(vars, v.Name)
		} else {
			vars[v.Name] = v.Value
		}
	}
	return out, wrap(rows.Err())
}

// keepIf is a windowed keep function from a row predicate.
func keepIf[T any](match func(*T) bool) func([]T) ([]T, error) {
	return func(rows []T) ([]T, error) {
		kept := rows[:0]
		for i := range rows {
			if match(&rows[i]) {
				kept = append(kept, rows[i])
			}
		}
		return kept, nil
	}
}

func docRow[P, T any](conv func(P) T) func(pgx.Rows) (T, error) {
	return func(rows pgx.Rows) (T, error) {
		var doc []byte
		if err := rows.Scan(&doc); err != nil {
			var zero T
			return zero, err
		}
		return decodeAs(doc, conv)
	}
}

// HistoricProcessInstances lists historic process instances.
func (s *Store) HistoricProcessInstances(ctx context.Context, q engine.HistoricProcessInstanceQuery) ([]engine.HistoricProcessInstance, error) {
	if q.MaxResults < 0 {
		return nil, ctx.Err()
	}
	w := &where{}
	w.eq("h.id", q.ProcessInstanceID)
	w.in("h.id", q.ProcessInstanceIDs)
	w.eq("h.definition_key", q.ProcessDefinitionKey)
	w.in("h.definition_key", q.ProcessDefinitionKeyIn)
	w.eq("h.business_key", q.BusinessKey)
	histVarFilters(w, "h.id", q.Variables)
	order, n := " ORDER BY h.seq", 0
	if q.SortBy == "" && len(q.Sorting) == 0 {
		n = need(q.FirstResult, q.MaxResults)
	}
	out, err := windowed(ctx, s, "historic process instance", "SELECT h.doc FROM engine_hist_instances h"+w.String()+order,
		w.args, n, docRow(func(p hpiDoc) engine.HistoricProcessInstance { return engine.HistoricProcessInstance(p) }),
		func(hs []engine.HistoricProcessInstance) ([]engine.HistoricProcessInstance, error) {
			var vars map[string]engine.Variables
			if len(q.Variables) > 0 && len(hs) > 0 {
				ids := make([]string, len(hs))
				for i := range hs {
					ids[i] = hs[i].ID
				}
				var err error
				if vars, err = s.histVars(ctx, ids); err != nil {
					return nil, err
				}
			}
			kept := hs[:0]
			for i := range hs {
				if local.MatchHistoricProcessInstance(q, &hs[i], vars[hs[i].ID]) {
					kept = append(kept, hs[i])
				}
			}
			return kept, nil
		})
	if err != nil {
		return nil, err
	}
	local.SortHistoricProcessInstances(q, out)
	return engine.Page(out, q.FirstResult, q.MaxResults), nil
}

// HistoricTasks lists historic user tasks.
func (s *Store) HistoricTasks(ctx context.Context, q engine.HistoricTaskQuery) ([]engine.HistoricTask, error) {
	if q.MaxResults < 0 {
		return nil, ctx.Err()
	}
	w := &where{}
	w.eq("h.id", q.TaskID)
	w.eq("h.instance_id", q.ProcessInstanceID)
	w.in("h.instance_id", q.ProcessInstanceIDIn)
	w.eq("h.definition_key", q.ProcessDefinitionKey)
	if q.Finished {
		w.add("h.finished")
	}
	if q.Unfinished {
		w.add("NOT h.finished")
	}
	histVarFilters(w, "h.instance_id", q.ProcessVariables)
	// SQL sorts as SortHistoricTasks does where it can (insertion order,
	// endTime with unfinished tasks first ascending and last descending,
	// ties in insertion order), so that a page stops reading early.
	order, n := " ORDER BY h.seq", need(q.FirstResult, q.MaxResults)
	switch {
	case q.SortBy == "":
	case q.SortBy == "endTime" && q.SortOrder == "desc":
		order = " ORDER BY h.end_ns DESC NULLS LAST, h.seq"
	case q.SortBy == "endTime":
		order = " ORDER BY h.end_ns ASC NULLS FIRST, h.seq"
	default:
		n = 0
	}
	out, err := windowed(ctx, s, "historic task", "SELECT h.doc FROM engine_hist_tasks h"+w.String()+order,
		w.args, n, docRow(func(p htaskDoc) engine.HistoricTask { return engine.HistoricTask(p) }),
		func(hs []engine.HistoricTask) ([]engine.HistoricTask, error) {
			var vars map[string]engine.Variables
			if len(q.ProcessVariables) > 0 && len(hs) > 0 {
				ids := make([]string, 0, len(hs))
				for i := range hs {
					ids = append(ids, hs[i].ProcessInstanceID)
				}
				var err error
				if vars, err = s.histVars(ctx, ids); err != nil {
					return nil, err
				}
			}
			kept := hs[:0]
			for i := range hs {
				if local.MatchHistoricTask(q, &hs[i], vars[hs[i].ProcessInstanceID]) {
					kept = append(kept, hs[i])
				}
			}
			return kept, nil
		})
	if err != nil {
		return nil, err
	}
	local.SortHistoricTasks(q, out)
	return engine.Page(out, q.FirstResult, q.MaxResults), nil
}

// HistoricVariables lists historic variables.
func (s *Store) HistoricVariables(ctx context.Context, q engine.HistoricVariableQuery) ([]engine.HistoricVariable, error) {
	if q.MaxResults < 0 {
		return nil, ctx.Err()
	}
	w := &where{}
	w.eq("name", q.VariableName)
	w.eq("instance_id", q.ProcessInstanceID)
	w.in("instance_id", q.ProcessInstanceIDIn)
	w.eq("definition_key", q.ProcessDefinitionKey)
	n := 0
	if q.SortBy == "" {
		n = need(q.FirstResult, q.MaxResults)
	}
	out, err := windowed(ctx, s, "historic variable", "SELECT doc, create_time FROM engine_hist_variables"+w.String()+" ORDER BY seq",
		w.args, n, func(rows pgx.Rows) (engine.HistoricVariable, error) {
			var doc []byte
			var created string
			if err := rows.Scan(&doc, &created); err != nil {
				return engine.HistoricVariable{}, err
			}
			v, err := decodeAs(doc, func(p hvarDoc) engine.HistoricVariable { return engine.HistoricVariable(p) })
			if err != nil {
				return v, err
			}
			// the row's first CreateTime, which an update leaves
			return v, v.CreateTime.UnmarshalText([]byte(created))
		}, keepIf(func(v *engine.HistoricVariable) bool { return local.MatchHistoricVariable(q, v) }))
	if err != nil {
		return nil, err
	}
	local.SortHistoricVariables(q, out)
	return engine.Page(out, q.FirstResult, q.MaxResults), nil
}

// HistoricActivities lists historic activity instances.
func (s *Store) HistoricActivities(ctx context.Context, q engine.HistoricActivityQuery) ([]engine.HistoricActivity, error) {
	if q.MaxResults < 0 {
		return nil, ctx.Err()
	}
	w := &where{}
	w.eq("id", q.ActivityInstanceID)
	w.eq("instance_id", q.ProcessInstanceID)
	n := 0
	if q.SortBy == "" {
		n = need(q.FirstResult, q.MaxResults)
	}
	out, err := windowed(ctx, s, "historic activity", "SELECT doc FROM engine_hist_activities"+w.String()+" ORDER BY seq",
		w.args, n, docRow(func(p hactDoc) engine.HistoricActivity { return engine.HistoricActivity(p) }),
		keepIf(func(a *engine.HistoricActivity) bool { return local.MatchHistoricActivity(q, a) }))
	if err != nil {
		return nil, err
	}
	local.SortHistoricActivities(q, out)
	return engine.Page(out, q.FirstResult, q.MaxResults), nil
}

// HistoricDecisions lists decision evaluations with their inputs and outputs.
func (s *Store) HistoricDecisions(ctx context.Context, q engine.HistoricDecisionQuery) ([]engine.HistoricDecision, error) {
	if q.MaxResults < 0 {
		return nil, ctx.Err()
	}
	w := &where{}
	w.eq("id", q.DecisionInstanceID)
	w.eq("instance_id", q.ProcessInstanceID)
	w.eq("definition_key", q.ProcessDefinitionKey)
	n := 0
	if q.SortBy == "" {
		n = need(q.FirstResult, q.MaxResults)
	}
	out, err := windowed(ctx, s, "historic decision", "SELECT doc FROM engine_hist_decisions"+w.String()+" ORDER BY seq",
		w.args, n, func(rows pgx.Rows) (engine.HistoricDecision, error) {
			var doc []byte
			if err := rows.Scan(&doc); err != nil {
				return engine.HistoricDecision{}, err
			}
			return decodeDecision(doc)
		}, keepIf(func(d *engine.HistoricDecision) bool { return local.MatchHistoricDecision(q, d) }))
	if err != nil {
		return nil, err
	}
	local.SortHistoricDecisions(q, out)
	return engine.Page(out, q.FirstResult, q.MaxResults), nil
}

// DeleteHistory deletes the history of process instances in one transaction.
func (s *Store) DeleteHistory(ctx context.Context, instanceIDs ...string) error {
	if len(instanceIDs) == 0 {
		return nil
	}
	b := &pgx.Batch{}
	b.Queue("DELETE FROM engine_hist_instances WHERE id = ANY($1)", instanceIDs)
	for _, table := range []string{"engine_hist_activities", "engine_hist_tasks", "engine_hist_variables", "engine_hist_decisions"} {
		b.Queue("DELETE FROM "+table+" WHERE instance_id = ANY($1)", instanceIDs)
	}
	return wrap(pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error { return tx.SendBatch(ctx, b).Close() }))
}
