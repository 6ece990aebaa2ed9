package pgstore

import (
	"context"
	"encoding/json"
	"errors"
	"math/big"
	"reflect"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/local"
)

// A query runs in two halves. SQL narrows the rows with conditions on
// indexed columns, each of them implied by the query (a row it drops
// could never match); Go then applies engine/local's Match…, Sort… and
// Page helpers to what is left, so every filter means exactly what it
// means in memory. Where SQL expresses the whole query, it pages too.

// where collects SQL conditions and their arguments.
type where struct {
	conds []string
	args  []any
}

func (w *where) arg(v any) string {
	w.args = append(w.args, v)
	return "$" + strconv.Itoa(len(w.args))
}

func (w *where) add(cond string) { w.conds = append(w.conds, cond) }

func (w *where) eq(col, v string) {
	if v != "" {
		w.add(col + " = " + w.arg(v))
	}
}

func (w *where) in(col string, vs []string) {
	if len(vs) > 0 {
		w.add(col + " = ANY(" + w.arg(vs) + ")")
	}
}

func (w *where) String() string {
	if len(w.conds) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(w.conds, " AND ")
}

// textEq reports whether a variable filter is an equality with text, the
// form whose candidates an index on a String variable's value can find.
func textEq(f engine.VariableFilter) (string, bool) {
	s, ok := f.Value.(string)
	return s, ok && (f.Operator == "eq" || f.Operator == "")
}

// scan runs a narrowing query and decodes its rows, failing with
// *ScanLimitError when there are more than MaxScan.
func scan[T any](ctx context.Context, s *Store, what, sql string, args []any, decode func(pgx.Rows) (T, error)) ([]T, error) {
	out, err := scanN(ctx, s, sql, args, s.limitArg(), decode)
	if err != nil {
		return nil, err
	}
	if err := s.scanLimit(what, len(out)); err != nil {
		return nil, err
	}
	return out, nil
}

// scanN reads at most limit rows of a query; the caller checks MaxScan.
func scanN[T any](ctx context.Context, s *Store, sql string, args []any, limit int64, decode func(pgx.Rows) (T, error)) ([]T, error) {
	rows, err := s.pool.Query(ctx, sql+" LIMIT "+strconv.FormatInt(limit, 10), args...)
	if err != nil {
		return nil, wrap(err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := decode(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap(err)
	}
	return out, nil
}

// windowed answers a paged query whose SQL order is the order the Go
// half sorts in: it reads the rows in windows (OFFSET/LIMIT, growing),
// keeps those keep accepts, and stops once it has need of them, so that a
// page near the top of a long listing reads little more than the page.
// need <= 0 reads everything (up to MaxScan). Every row read counts
// against MaxScan.
func windowed[T any](ctx context.Context, s *Store, what, sql string, args []any, need int,
	decode func(pgx.Rows) (T, error), keep func([]T) ([]T, error)) ([]T, error) {
	if need <= 0 {
		rows, err := scan(ctx, s, what, sql, args, decode)
		if err != nil {
			return nil, err
		}
		return keep(rows)
	}
	var out []T
	read, size := 0, max(2*need, 100)
	for {
		limit := int64(size)
		if s.maxScan >= 0 {
			limit = min(limit, int64(s.maxScan-read+1))
		}
		rows, err := scanN(ctx, s, sql+offsetSQL(read), args, limit, decode)
		if err != nil {
			return nil, err
		}
		read += len(rows)
		kept, err := keep(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, kept...)
		if len(out) >= need || int64(len(rows)) < limit {
			return out, nil
		}
		// more to read, and MaxScan rows read without filling the page
		if err := s.scanLimit(what, read); err != nil {
			return nil, err
		}
		size *= 2
	}
}

// need is how many matching rows a page needs from the top: 0 for all.
func need(first, maxResults int) int {
	if maxResults <= 0 {
		return 0
	}
	return first + maxResults
}

// offsetSQL is the OFFSET clause of a page.
func offsetSQL(first int) string {
	if first > 0 {
		return " OFFSET " + strconv.Itoa(first)
	}
	return ""
}

// pageLimit is the LIMIT of a page of maxResults rows (0: all) under MaxScan.
func (s *Store) pageLimit(maxResults int) int64 {
	if l := s.limitArg(); maxResults <= 0 || int64(maxResults) > l {
		return l
	}
	return int64(maxResults)
}

// --- instances

const instanceCols = "version, doc, variables, state"

func decodeInstanceRow(rows pgx.Rows) (local.InstanceRecord, error) {
	var version int64
	var doc, vars, state []byte
	if err := rows.Scan(&version, &doc, &vars, &state); err != nil {
		return local.InstanceRecord{}, err
	}
	return decodeInstance(doc, vars, state, version)
}

// Instance returns a running process instance.
func (s *Store) Instance(ctx context.Context, id string) (local.InstanceRecord, error) {
	rs, err := scan(ctx, s, "instances", "SELECT "+instanceCols+" FROM engine_instances WHERE id = $1", []any{id}, decodeInstanceRow)
	if err != nil {
		return local.InstanceRecord{}, err
	}
	if len(rs) == 0 {
		return local.InstanceRecord{}, local.ErrNoRecord
	}
	return rs[0], nil
}

// Instances lists running instances in start order, or as the query sorts.
func (s *Store) Instances(ctx context.Context, q engine.ProcessInstanceQuery) ([]local.InstanceRecord, error) {
	if q.MaxResults < 0 {
		return nil, ctx.Err()
	}
	w := &where{}
	w.in("id", q.ProcessInstanceIDs)
	w.eq("business_key", q.BusinessKey)
	w.eq("definition_id", q.ProcessDefinitionID)
	w.eq("definition_key", q.ProcessDefinitionKey)
	w.in("definition_key", q.ProcessDefinitionKeyIn)
	w.eq("deployment_id", q.DeploymentID)
	w.eq("super_instance_id", q.SuperProcessInstance)
	if q.SubProcessInstance != "" {
		w.add("id = (SELECT super_instance_id FROM engine_instances WHERE id = " + w.arg(q.SubProcessInstance) + ")")
	}
	if q.WithoutTenantID {
		w.add("tenant_id = ''")
	}
	w.in("tenant_id", q.TenantIDIn)
	n := 0
	if q.SortBy == "" && len(q.Sorting) == 0 {
		n = need(q.FirstResult, q.MaxResults)
	}
	out, err := windowed(ctx, s, "process instance", "SELECT "+instanceCols+" FROM engine_instances"+w.String()+" ORDER BY seq",
		w.args, n, decodeInstanceRow, keepIf(func(r *local.InstanceRecord) bool { return local.MatchInstance(q, r) }))
	if err != nil {
		return nil, err
	}
	local.SortInstances(q, out)
	return engine.Page(out, q.FirstResult, q.MaxResults), nil
}

// InstanceCount counts the running instances of a deployment ("": all).
func (s *Store) InstanceCount(ctx context.Context, deploymentID string) (int, error) {
	var n int
	var err error
	if deploymentID == "" {
		err = s.pool.QueryRow(ctx, "SELECT count(*) FROM engine_instances").Scan(&n)
	} else {
		err = s.pool.QueryRow(ctx, "SELECT count(*) FROM engine_instances WHERE deployment_id = $1", deploymentID).Scan(&n)
	}
	return n, wrap(err)
}

// --- tasks

func decodeTaskRow(rows pgx.Rows) (local.TaskRecord, error) {
	var version int64
	var doc []byte
	if err := rows.Scan(&version, &doc); err != nil {
		return local.TaskRecord{}, err
	}
	return decodeTask(doc, version)
}

// Task returns an open user task.
func (s *Store) Task(ctx context.Context, id string) (local.TaskRecord, error) {
	ts, err := scan(ctx, s, "tasks", "SELECT version, doc FROM engine_tasks WHERE id = $1", []any{id}, decodeTaskRow)
	if err != nil {
		return local.TaskRecord{}, err
	}
	if len(ts) == 0 {
		return local.TaskRecord{}, local.ErrNoRecord
	}
	return ts[0], nil
}

// TaskWithInstance returns an open user task and its running instance
// (the zero record when it is gone) in one query: completing a task reads
// both.
func (s *Store) TaskWithInstance(ctx context.Context, id string) (local.TaskRecord, local.InstanceRecord, error) {
	var task local.TaskRecord
	var inst local.InstanceRecord
	var tversion int64
	var iversion *int64
	var tdoc, idoc, vars, state []byte
	err := s.pool.QueryRow(ctx, `SELECT t.version, t.doc, i.version, i.doc, i.variables, i.state
		FROM engine_tasks t LEFT JOIN engine_instances i ON i.id = t.instance_id WHERE t.id = $1`, id).
		Scan(&tversion, &tdoc, &iversion, &idoc, &vars, &state)
	if errors.Is(err, pgx.ErrNoRows) {
		return task, inst, local.ErrNoRecord
	}
	if err != nil {
		return task, inst, wrap(err)
	}
	if task, err = decodeTask(tdoc, tversion); err != nil {
		return task, inst, err
	}
	if iversion != nil {
		if inst, err = decodeInstance(idoc, vars, state, *iversion); err != nil {
			return task, inst, err
		}
	}
	return task, inst, nil
}

var _ local.TaskInstanceReader = (*Store)(nil)

// InstanceTasks lists the open user tasks of instances in creation order.
func (s *Store) InstanceTasks(ctx context.Context, instanceIDs ...string) ([]local.TaskRecord, error) {
	return scan(ctx, s, "tasks", "SELECT version, doc FROM engine_tasks WHERE instance_id = ANY($1) ORDER BY seq",
		[]any{instanceIDs}, decodeTaskRow)
}

// taskWhere translates the task query into SQL conditions on the task
// table (alias t). exact reports that they express the whole query, so
// that SQL may count and page.
func taskWhere(q engine.TaskQuery) (w *where, exact bool) {
	w = &where{}
	rest := q
	w.eq("t.id", q.TaskID)
	w.in("t.id", q.TaskIDIn)
	w.eq("t.instance_id", q.ProcessInstanceID)
	w.in("t.instance_id", q.ProcessInstanceIDIn)
	w.eq("t.definition_key", q.ProcessDefinitionKey)
	w.in("t.definition_key", q.ProcessDefinitionKeyIn)
	w.eq("t.task_def_key", q.TaskDefinitionKey)
	w.in("t.task_def_key", q.TaskDefinitionKeyIn)
	w.eq("t.assignee", q.Assignee)
	w.in("t.assignee", q.AssigneeIn)
	if q.Assigned {
		w.add("t.assignee <> ''")
	}
	if q.Unassigned {
		w.add("t.assignee = ''")
	}
	if q.WithoutTenantID {
		w.add("t.tenant_id = ''")
	}
	w.in("t.tenant_id", q.TenantIDIn)
	byMunicipality := false
	// The municipality column holds the variable's value as text ('' when
	// absent or null). A text filter matches the rows with that text, and
	// may match in Go those with '' (a Null variable is "null") and, for
	// a numeric text, those numerically equal ("0363" and 363).
	for _, f := range q.ProcessVariables {
		v, ok := textEq(f)
		if !ok || f.Name != "municipality" {
			continue
		}
		switch {
		case jsonNumber(v) != nil:
			w.add("(t.municipality = ANY(ARRAY[" + w.arg(v) + ", '']) OR t.municipality_num = " + w.arg(v) + "::numeric)")
			byMunicipality = true
		case isNumber(v):
			// numeric in a syntax only Go reads (0x…, 1_000): no narrowing
		default:
			w.add("t.municipality = ANY(ARRAY[" + w.arg(v) + ", ''])")
			byMunicipality = true
		}
	}
	if q.CandidateUser != "" || q.CandidateGroup != "" || len(q.CandidateGroups) > 0 {
		if !q.IncludeAssignedTasks {
			w.add("t.assignee = ''")
		}
		groups := append([]string(nil), q.CandidateGroups...)
		if q.CandidateGroup != "" {
			groups = append(groups, q.CandidateGroup)
		}
		// With a municipality filter, whose btree range is far narrower
		// than a group's GIN posting list, the groups are checked on the
		// rows (coalesce hides the GIN index from the planner).
		groupsCol, usersCol := "t.candidate_groups", "t.candidate_users"
		if byMunicipality {
			groupsCol, usersCol = "coalesce(t.candidate_groups, '{}')", "coalesce(t.candidate_users, '{}')"
		}
		var or []string
		if len(groups) > 0 {
			or = append(or, groupsCol+" && "+w.arg(groups))
		}
		if q.CandidateUser != "" {
			or = append(or, usersCol+" @> ARRAY["+w.arg(q.CandidateUser)+"]")
		}
		w.add("(" + strings.Join(or, " OR ") + ")")
	}
	rest.TaskID, rest.TaskIDIn, rest.ProcessInstanceID, rest.ProcessInstanceIDIn = "", nil, "", nil
	rest.ProcessDefinitionKey, rest.ProcessDefinitionKeyIn, rest.TaskDefinitionKey, rest.TaskDefinitionKeyIn = "", nil, "", nil
	rest.Assignee, rest.AssigneeIn, rest.Assigned, rest.Unassigned = "", nil, false, false
	rest.WithoutTenantID, rest.TenantIDIn = false, nil
	rest.CandidateUser, rest.CandidateGroup, rest.CandidateGroups, rest.IncludeAssignedTasks = "", "", nil, false
	rest.FirstResult, rest.MaxResults = 0, 0
	return w, reflect.ValueOf(rest).IsZero()
}

// isNumber reports whether a filter's text compares numerically with a
// number variable (as local.MatchVariable reads it).
func isNumber(s string) bool {
	_, ok := new(big.Float).SetString(s)
	return ok
}

// municipalityText returns the text of the query's variable filters when
// they are all text equalities on "municipality" with one text: a row
// whose municipality column is that text then passes them without its
// instance's variables (whatever the variable's type, its text equals).
func municipalityText(fs []engine.VariableFilter) (string, bool) {
	var text string
	for i, f := range fs {
		v, ok := textEq(f)
		if !ok || f.Name != "municipality" || (i > 0 && v != text) {
			return "", false
		}
		text = v
	}
	return text, len(fs) > 0
}

// Tasks lists the open user tasks the query matches, in creation order
// or as it sorts them.
func (s *Store) Tasks(ctx context.Context, q engine.TaskQuery) ([]local.TaskRecord, error) {
	if q.MaxResults < 0 {
		return nil, ctx.Err()
	}
	w, exact := taskWhere(q)
	if exact {
		ts, err := scanN(ctx, s, "SELECT t.version, t.doc FROM engine_tasks t"+w.String()+" ORDER BY t.seq"+
			offsetSQL(q.FirstResult), w.args, s.pageLimit(q.MaxResults), decodeTaskRow)
		if err == nil {
			err = s.scanLimit("tasks", len(ts))
		}
		if err != nil {
			return nil, err
		}
		return ts, nil
	}
	n := 0
	if q.SortBy == "" && len(q.Sorting) == 0 {
		n = need(q.FirstResult, q.MaxResults)
	}
	ts, err := s.matchTasks(ctx, q, w, n)
	if err != nil {
		return nil, err
	}
	local.SortTasks(q, ts)
	return engine.Page(ts, q.FirstResult, q.MaxResults), nil
}

// TaskCount counts the open user tasks the query matches.
func (s *Store) TaskCount(ctx context.Context, q engine.TaskQuery) (int, error) {
	w, exact := taskWhere(q)
	if exact {
		var n int
		err := s.pool.QueryRow(ctx, "SELECT count(*) FROM engine_tasks t"+w.String(), w.args...).Scan(&n)
		return n, wrap(err)
	}
	ts, err := s.matchTasks(ctx, q, w, 0)
	return len(ts), err
}

// matchTasks reads the rows w narrows to, in creation order (windowed
// until it has need of them, see windowed), and keeps those MatchTask
// accepts.
func (s *Store) matchTasks(ctx context.Context, q engine.TaskQuery, w *where, need int) ([]local.TaskRecord, error) {
	return windowed(ctx, s, "tasks", "SELECT t.version, t.doc FROM engine_tasks t"+w.String()+" ORDER BY t.seq",
		w.args, need, decodeTaskRow, func(ts []local.TaskRecord) ([]local.TaskRecord, error) { return s.keepTasks(ctx, q, ts) })
}

// keepTasks keeps the tasks MatchTask accepts. A variable filter needs
// the instance's variables, read in a second query for the rows that
// need them: none of those whose municipality column is the filter's
// text, when that is the only filter.
func (s *Store) keepTasks(ctx context.Context, q engine.TaskQuery, ts []local.TaskRecord) ([]local.TaskRecord, error) {
	if len(ts) == 0 {
		return nil, nil
	}
	muni, onlyMuni := municipalityText(q.ProcessVariables)
	var vars map[string]engine.Variables
	var err error
	if len(q.ProcessVariables) > 0 {
		var ids []string
		for i := range ts {
			if !onlyMuni || ts[i].Municipality != muni {
				ids = append(ids, ts[i].Task.ProcessInstanceID)
			}
		}
		if vars, err = s.instanceVars(ctx, ids); err != nil {
			return nil, err
		}
	}
	noVars := q
	noVars.ProcessVariables = nil
	out := ts[:0]
	for i := range ts {
		r := &ts[i]
		var ok bool
		if onlyMuni && r.Municipality == muni {
			ok = local.MatchTask(noVars, r, nil) // the column is the filter's text
		} else {
			ok = local.MatchTask(q, r, vars[r.Task.ProcessInstanceID])
		}
		if ok {
			out = append(out, *r)
		}
	}
	return out, nil
}

// instanceVars reads the variables of running instances.
func (s *Store) instanceVars(ctx context.Context, ids []string) (map[string]engine.Variables, error) {
	out := map[string]engine.Variables{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := s.pool.Query(ctx, "SELECT id, variables FROM engine_instances WHERE id = ANY($1)", ids)
	if err != nil {
		return nil, wrap(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var data []byte
		if err := rows.Scan(&id, &data); err != nil {
			return nil, err
		}
		var vars engine.Variables
		if err := json.Unmarshal(data, &vars); err != nil {
			return nil, err
		}
		out[id] = vars
	}
	return out, wrap(rows.Err())
}
