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
	w := &where{}
	w.eq("h.id", q.ProcessInstanceID)
	w.in("h.id", q.ProcessInstanceIDs)
	w.eq("h.definition_key", q.ProcessDefinitionKey)
	w.in("h.definition_key", q.ProcessDefinitionKeyIn)
	w.eq("h.business_key", q.BusinessKey)
	histVarFilters(w, "h.id", q.Variables)
	hs, err := scan(ctx, s, "historic process instance", "SELECT h.doc FROM engine_hist_instances h"+w.String()+" ORDER BY h.seq",
		w.args, docRow(func(p hpiDoc) engine.HistoricProcessInstance { return engine.HistoricProcessInstance(p) }))
	if err != nil {
		return nil, err
	}
	var vars map[string]engine.Variables
	if len(q.Variables) > 0 && len(hs) > 0 {
		ids := make([]string, len(hs))
		for i := range hs {
			ids[i] = hs[i].ID
		}
		if vars, err = s.histVars(ctx, ids); err != nil {
			return nil, err
		}
	}
	out := hs[:0]
	for i := range hs {
		if local.MatchHistoricProcessInstance(q, &hs[i], vars[hs[i].ID]) {
			out = append(out, hs[i])
		}
	}
	local.SortHistoricProcessInstances(q, out)
	return local.Page(out, q.FirstResult, q.MaxResults), nil
}

// HistoricTasks lists historic user tasks.
func (s *Store) HistoricTasks(ctx context.Context, q engine.HistoricTaskQuery) ([]engine.HistoricTask, error) {
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
	hs, err := scan(ctx, s, "historic task", "SELECT h.doc FROM engine_hist_tasks h"+w.String()+" ORDER BY h.seq",
		w.args, docRow(func(p htaskDoc) engine.HistoricTask { return engine.HistoricTask(p) }))
	if err != nil {
		return nil, err
	}
	var vars map[string]engine.Variables
	if len(q.ProcessVariables) > 0 && len(hs) > 0 {
		ids := make([]string, 0, len(hs))
		for i := range hs {
			ids = append(ids, hs[i].ProcessInstanceID)
		}
		if vars, err = s.histVars(ctx, ids); err != nil {
			return nil, err
		}
	}
	out := hs[:0]
	for i := range hs {
		if local.MatchHistoricTask(q, &hs[i], vars[hs[i].ProcessInstanceID]) {
			out = append(out, hs[i])
		}
	}
	local.SortHistoricTasks(q, out)
	return local.Page(out, q.FirstResult, q.MaxResults), nil
}

// HistoricVariables lists historic variables.
func (s *Store) HistoricVariables(ctx context.Context, q engine.HistoricVariableQuery) ([]engine.HistoricVariable, error) {
	w := &where{}
	w.eq("name", q.VariableName)
	w.eq("instance_id", q.ProcessInstanceID)
	w.in("instance_id", q.ProcessInstanceIDIn)
	w.eq("definition_key", q.ProcessDefinitionKey)
	hs, err := scan(ctx, s, "historic variable", "SELECT doc, create_time FROM engine_hist_variables"+w.String()+" ORDER BY seq",
		w.args, func(rows pgx.Rows) (engine.HistoricVariable, error) {
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
		})
	if err != nil {
		return nil, err
	}
	out := hs[:0]
	for i := range hs {
		if local.MatchHistoricVariable(q, &hs[i]) {
			out = append(out, hs[i])
		}
	}
	local.SortHistoricVariables(q, out)
	return local.Page(out, q.FirstResult, q.MaxResults), nil
}

// HistoricActivities lists historic activity instances.
func (s *Store) HistoricActivities(ctx context.Context, q engine.HistoricActivityQuery) ([]engine.HistoricActivity, error) {
	w := &where{}
	w.eq("id", q.ActivityInstanceID)
	w.eq("instance_id", q.ProcessInstanceID)
	hs, err := scan(ctx, s, "historic activity", "SELECT doc FROM engine_hist_activities"+w.String()+" ORDER BY seq",
		w.args, docRow(func(p hactDoc) engine.HistoricActivity { return engine.HistoricActivity(p) }))
	if err != nil {
		return nil, err
	}
	out := hs[:0]
	for i := range hs {
		if local.MatchHistoricActivity(q, &hs[i]) {
			out = append(out, hs[i])
		}
	}
	local.SortHistoricActivities(q, out)
	return local.Page(out, q.FirstResult, q.MaxResults), nil
}

// HistoricDecisions lists decision evaluations with their inputs and outputs.
func (s *Store) HistoricDecisions(ctx context.Context, q engine.HistoricDecisionQuery) ([]engine.HistoricDecision, error) {
	w := &where{}
	w.eq("id", q.DecisionInstanceID)
	w.eq("instance_id", q.ProcessInstanceID)
	w.eq("definition_key", q.ProcessDefinitionKey)
	hs, err := scan(ctx, s, "historic decision", "SELECT doc FROM engine_hist_decisions"+w.String()+" ORDER BY seq",
		w.args, func(rows pgx.Rows) (engine.HistoricDecision, error) {
			var doc []byte
			if err := rows.Scan(&doc); err != nil {
				return engine.HistoricDecision{}, err
			}
			return decodeDecision(doc)
		})
	if err != nil {
		return nil, err
	}
	out := hs[:0]
	for i := range hs {
		if local.MatchHistoricDecision(q, &hs[i]) {
			out = append(out, hs[i])
		}
	}
	local.SortHistoricDecisions(q, out)
	return local.Page(out, q.FirstResult, q.MaxResults), nil
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
