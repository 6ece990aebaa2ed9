package local

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dop251/goja"
	"github.com/regelkit/regelkit/dmn"
	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/bpmn"
)

// procDefByID returns a process definition with its parsed process. The
// parsed BPMN is cached per definition (definitions never change); a
// definition deployed by another engine on the store is found there and
// its deployment loaded (sync).
func (e *Engine) procDefByID(ctx context.Context, id string) (*procDef, error) {
	e.mu.RLock()
	pd := e.procs[id]
	e.mu.RUnlock()
	if pd != nil {
		return pd, nil
	}
	def, err := e.store.ProcessDefinition(ctx, id)
	if errors.Is(err, ErrNoRecord) {
		return nil, engine.NotFound("No matching definition with id %s", id)
	}
	if err != nil {
		return nil, err
	}
	return e.compileDef(ctx, def)
}

func (e *Engine) compileDef(ctx context.Context, def engine.ProcessDefinition) (*procDef, error) {
	e.mu.RLock()
	pd := e.procs[def.ID]
	dep := e.depByID[def.DeploymentID]
	e.mu.RUnlock()
	if pd != nil {
		return pd, nil
	}
	if dep == nil {
		if err := e.sync(ctx); err != nil {
			return nil, err
		}
		e.mu.RLock()
		dep = e.depByID[def.DeploymentID]
		e.mu.RUnlock()
		if dep == nil {
			return nil, engineError("the deployment %s of process definition %s is not available", def.DeploymentID, def.ID)
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if pd := e.procs[def.ID]; pd != nil {
		return pd, nil
	}
	defs := dep.bpmn[def.Resource]
	if defs == nil {
		for _, r := range dep.resources {
			if r.Name == def.Resource {
				var err error
				if defs, err = parseBPMN(r); err != nil {
					return nil, err
				}
				break
			}
		}
		if defs == nil {
			return nil, engineError("the resource %s of process definition %s is missing", def.Resource, def.ID)
		}
		if dep.bpmn == nil {
			dep.bpmn = map[string]*bpmn.Definitions{}
		}
		dep.bpmn[def.Resource] = defs
	}
	proc := defs.Process(def.Key)
	if proc == nil {
		return nil, engineError("the resource %s has no process %s", def.Resource, def.Key)
	}
	pd = &procDef{def: def, proc: proc, defs: defs}
	e.procs[def.ID] = pd
	return pd, nil
}

// procDefByKey returns the latest definition of the key and tenant ("":
// no tenant), with Operaton's 404 when there is none.
func (e *Engine) procDefByKey(ctx context.Context, key, tenantID string) (*procDef, error) {
	def, err := e.store.LatestProcessDefinition(ctx, key, tenantID)
	if errors.Is(err, ErrNoRecord) {
		if tenantID == "" {
			return nil, engine.NotFound("No matching process definition with key: %s and no tenant-id", key)
		}
		return nil, engine.NotFound("No matching process definition with key: %s and tenant-id: %s", key, tenantID)
	}
	if err != nil {
		return nil, err
	}
	return e.compileDef(ctx, def)
}

// start creates an instance and puts its token on the none start event.
// startUser, when known, is the history's startUserId and the value of the
// variable the start event's camunda:initiator names (as Operaton sets it
// from the authenticated user; unknown, the variable is null).
func (c *cmd) start(pd *procDef, businessKey string, vars engine.Variables, super *irun, startUser string) (*irun, error) {
	var se *bpmn.Element
	for _, s := range pd.proc.StartEvents {
		if eventKind(s) == bpmn.NoneEvent {
			se = s
			break
		}
	}
	if se == nil {
		return nil, engineError("Process definition '%s' has no none start event: it cannot be started by a call", pd.def.ID)
	}
	id := newUUID()
	ir := &irun{isNew: true, dirty: true, pd: pd, histDirty: true, rec: InstanceRecord{ID: id, DefinitionID: pd.def.ID,
		DefinitionKey: pd.def.Key, DeploymentID: pd.def.DeploymentID, BusinessKey: businessKey, TenantID: pd.def.TenantID,
		RootInstanceID: id, StartTime: c.now, Variables: engine.Variables{}}}
	if super != nil {
		ir.rec.SuperInstanceID, ir.rec.RootInstanceID = super.rec.ID, super.rec.RootInstanceID
		ir.st.Depth = super.st.Depth + 1
	}
	// the initiator first: the start variables override it, as in
	// Operaton, which sets it when it creates the instance
	ir.st.StartUser = startUser
	if se.Event != nil && se.Event.Initiator != "" {
		v := engine.Null() // Operaton sets it to the authenticated user, null without one
		if startUser != "" {
			v = engine.String(startUser)
		}
		if err := checkVariable(se.Event.Initiator, v); err != nil {
			return nil, err
		}
		ir.setVar(se.Event.Initiator, v)
	}
	names := make([]string, 0, len(vars))
	for n := range vars {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if err := checkVariable(n, vars[n]); err != nil {
			return nil, err
		}
		ir.setVar(n, vars[n])
	}
	ir.st.StartActivity = se.ID
	// the first execution has the instance's id, as in Operaton
	tok := &token{ID: id}
	ir.st.Tokens = append(ir.st.Tokens, tok)
	c.insts[id] = ir
	c.order = append(c.order, ir)
	c.push(work{ir: ir, tok: tok, el: se})
	return ir, nil
}

// maxVariableName bounds a variable's name (Operaton's column holds 255).
const maxVariableName = 255

// checkVariable refuses a variable the engine cannot hold.
func checkVariable(name string, v engine.Variable) error {
	if name == "" {
		return engine.InvalidRequest("a variable has no name")
	}
	if len(name) > maxVariableName {
		return engine.InvalidRequest("Cannot set variable '%s…': its name is longer than %d bytes", name[:64], maxVariableName)
	}
	switch v.Type {
	case engine.TypeNull, engine.TypeBoolean, engine.TypeShort, engine.TypeInteger, engine.TypeLong, engine.TypeDouble,
		engine.TypeString, engine.TypeDate, engine.TypeJSON, engine.TypeBytes, engine.TypeObject:
		return nil
	case "":
		return engine.InvalidRequest("Cannot set variable '%s': it has no type", name)
	}
	return engine.InvalidRequest("Cannot set variable '%s': unsupported value type '%s'", name, v.Type)
}

// visibleVariables are the process variables with a token's locals over them.
func visibleVariables(ir *irun, tok *token) engine.Variables {
	if tok == nil || len(tok.Locals) == 0 {
		return ir.rec.Variables
	}
	out := make(engine.Variables, len(ir.rec.Variables)+len(tok.Locals))
	for k, v := range ir.rec.Variables {
		out[k] = v
	}
	for k, v := range tok.Locals {
		out[k] = v
	}
	return out
}

// evalString evaluates an optional expression to text ("" for nil).
func evalString(x *bpmn.Expr, sc bpmn.Variables) (string, error) {
	if x == nil {
		return "", nil
	}
	v, err := x.Eval(sc)
	if err != nil {
		return "", err
	}
	return stringOf(v), nil
}

// evalTenant evaluates a camunda:…TenantId: nil means untenanted, set
// true when the attribute is present.
func evalTenant(x *bpmn.Expr, sc bpmn.Variables) (tenant string, set bool, err error) {
	if x == nil {
		return "", false, nil
	}
	v, err := x.Eval(sc)
	if err != nil {
		return "", true, err
	}
	return stringOf(v), true, nil
}

// businessRule evaluates a business-rule task's decision on the decision
// side, maps the result and writes the HistoricDecision row.
func (c *cmd) businessRule(ir *irun, tok *token, el *bpmn.Element) error {
	d := el.Decision
	sc := c.scopeOf(ir, tok)
	key, err := evalString(d.Ref, sc)
	if err != nil {
		return exprFailure(ir, el, err)
	}
	tenant, explicit, err := evalTenant(d.TenantID, sc)
	if err != nil {
		return exprFailure(ir, el, err)
	}
	if !explicit {
		tenant = ir.rec.TenantID
	}
	def, err := c.e.decisionFor(c.ctx, ir.pd, key, tenant, !explicit, d, sc)
	if err != nil {
		return engineError("Business rule task '%s': %v", el.ID, errText(err))
	}
	vars := visibleVariables(ir, tok)
	res, err := c.e.evaluate(c.ctx, def, vars)
	if err != nil {
		var le interface{ LimitExceeded() string }
		if errors.As(err, &le) {
			return err
		}
		return engineError("Business rule task '%s': %v", el.ID, err)
	}
	plain := resultPlain(res)
	tok.result = plain
	if d.ResultVariable != "" {
		var v engine.Variable
		if d.MapResult == bpmn.MapSingleEntry && len(res) == 1 && len(res[0]) == 1 {
			for _, x := range res[0] {
				v = x
			}
		} else {
			x, err := bpmn.MapDecisionResult(d.MapResult, plain)
			if err != nil {
				return engineError("Business rule task '%s': %v", el.ID, err)
			}
			if v, err = typedOf(x); err != nil {
				return engineError("Business rule task '%s': %v", el.ID, err)
			}
		}
		ir.setVar(d.ResultVariable, v)
	}
	c.ch.History.Decisions = append(c.ch.History.Decisions, c.historicDecision(ir, tok, el, def, vars, res))
	return nil
}

func errText(err error) string {
	var ee *engine.Error
	if errors.As(err, &ee) {
		return ee.Message
	}
	return err.Error()
}

// decisionFor resolves a business-rule task's decision: by binding
// (latest, deployment, version) in the tenant, and with fallback (no
// explicit decisionRefTenantId) in no tenant after the caller's.
func (e *Engine) decisionFor(ctx context.Context, pd *procDef, key, tenant string, fallback bool, d *bpmn.DecisionRef, sc bpmn.Variables) (*definition, error) {
	find := func(tenant string) *definition {
		e.mu.RLock()
		defer e.mu.RUnlock()
		switch d.Binding {
		case "deployment":
			if dep := e.depByID[pd.def.DeploymentID]; dep != nil {
				for _, df := range dep.defs {
					if df.def.Key == key {
						return df
					}
				}
			}
			return nil
		case "version":
			v, err := evalString(d.Version, sc)
			n, cerr := strconv.Atoi(v)
			if err != nil || cerr != nil {
				return nil
			}
			for _, df := range e.defs {
				if df.def.Key == key && df.def.TenantID == tenant && df.def.Version == n {
					return df
				}
			}
			return nil
		case "versionTag":
			tag, err := evalString(d.VersionTag, sc)
			if err != nil {
				return nil
			}
			var best *definition
			for _, df := range e.defs {
				if df.def.Key == key && df.def.TenantID == tenant && df.def.VersionTag == tag && (best == nil || df.def.Version > best.def.Version) {
					best = df
				}
			}
			return best
		}
		return e.latest[tenantKey{tenant, key}]
	}
	for attempt := 0; attempt < 2; attempt++ {
		if df := find(tenant); df != nil {
			return df, nil
		}
		if fallback && tenant != "" {
			if df := find(""); df != nil {
				return df, nil
			}
		}
		if attempt == 0 {
			if err := e.sync(ctx); err != nil {
				return nil, err
			}
		}
	}
	if tenant == "" {
		return nil, engine.NotFound("no decision definition deployed with key '%s' and no tenant-id", key)
	}
	return nil, engine.NotFound("no decision definition deployed with key '%s' and tenant-id '%s'", key, tenant)
}

// historicDecision is the history row of a business-rule task's
// evaluation: the input clauses whose expression names a variable, with
// its value, and every output of every result row.
func (c *cmd) historicDecision(ir *irun, tok *token, el *bpmn.Element, def *definition, vars engine.Variables, res engine.Result) engine.HistoricDecision {
	id := newUUID()
	h := engine.HistoricDecision{ID: id, DecisionDefinitionID: def.def.ID, DecisionDefinitionKey: def.def.Key,
		DecisionDefinitionName: def.def.Name, EvaluationTime: c.now, ProcessDefinitionID: ir.rec.DefinitionID,
		ProcessDefinitionKey: ir.pd.def.Key, ProcessInstanceID: ir.rec.ID, ActivityID: el.ID, ActivityInstanceID: tok.Act,
		RootProcessInstanceID: ir.rec.RootInstanceID, DecisionRequirementsDefinitionID: def.def.DecisionRequirementsDefinitionID,
		DecisionRequirementsDefinitionKey: def.def.DecisionRequirementsDefinitionKey, TenantID: def.def.TenantID}
	var table *dmn.DecisionTable
	for _, dec := range def.res.defs.Decisions {
		if dec.ID == def.plan.id {
			table, _ = dec.Logic.(*dmn.DecisionTable)
		}
	}
	if table != nil {
		for _, in := range table.Inputs {
			name := strings.TrimSpace(in.Expression)
			v, ok := vars[name]
			if !ok {
				continue
			}
			h.Inputs = append(h.Inputs, engine.HistoricDecisionInput{ID: newUUID(), DecisionInstanceID: id, ClauseID: in.ID,
				ClauseName: in.Label, Value: v, CreateTime: c.now})
		}
	}
	for i, row := range res {
		names := make([]string, 0, len(row))
		for n := range row {
			names = append(names, n)
		}
		if table != nil {
			// in the table's column order
			slices.SortFunc(names, func(a, b string) int { return columnOf(table, a) - columnOf(table, b) })
		} else {
			slices.Sort(names)
		}
		for _, n := range names {
			clauseID, label := "", ""
			if table != nil {
				if j := columnOf(table, n); j < len(table.Outputs) {
					clauseID, label = table.Outputs[j].ID, table.Outputs[j].Label
				}
			}
			h.Outputs = append(h.Outputs, engine.HistoricDecisionOutput{ID: newUUID(), DecisionInstanceID: id, ClauseID: clauseID,
				ClauseName: or(label, n), RuleOrder: i + 1, VariableName: n, Value: row[n], CreateTime: c.now})
		}
	}
	return h
}

func columnOf(t *dmn.DecisionTable, name string) int {
	for j, o := range t.Outputs {
		if o.Name == name {
			return j
		}
	}
	return len(t.Outputs)
}

// --- user tasks

// createUserTask opens a user task for the token.
func (c *cmd) createUserTask(ir *irun, tok *token, el *bpmn.Element) error {
	sc := c.scopeOf(ir, tok)
	t := engine.Task{ID: newUUID(), Name: el.Name, Created: c.now, LastUpdated: c.now, ExecutionID: tok.ID,
		ProcessDefinitionID: ir.rec.DefinitionID, ProcessInstanceID: ir.rec.ID, TaskDefinitionKey: el.ID, Priority: 50,
		Suspended: ir.rec.Suspended, TenantID: ir.rec.TenantID, TaskState: "Created"}
	if u := el.User; u != nil {
		var err error
		if t.Assignee, err = evalString(u.Assignee, sc); err != nil {
			return exprFailure(ir, el, err)
		}
		if t.CandidateUsers, err = bpmn.EvalList(u.CandidateUsers, sc); err != nil {
			return exprFailure(ir, el, err)
		}
		if t.CandidateGroups, err = bpmn.EvalList(u.CandidateGroups, sc); err != nil {
			return exprFailure(ir, el, err)
		}
		if t.Due, err = evalDate(u.DueDate, sc); err != nil {
			return exprFailure(ir, el, err)
		}
		if t.FollowUp, err = evalDate(u.FollowUpDate, sc); err != nil {
			return exprFailure(ir, el, err)
		}
		if u.Priority != nil {
			p, err := evalString(u.Priority, sc)
			if err != nil {
				return exprFailure(ir, el, err)
			}
			if n, err := strconv.Atoi(p); err == nil {
				t.Priority = n
			}
		}
	}
	if f := el.Form; f != nil {
		var err error
		if t.FormKey, err = evalString(f.Key, sc); err != nil {
			return exprFailure(ir, el, err)
		}
		if f.Ref != nil {
			ref, err := evalString(f.Ref, sc)
			if err != nil {
				return exprFailure(ir, el, err)
			}
			fr := &engine.FormRef{Key: ref, Binding: or(f.RefBinding, "latest")}
			if f.RefVersion != nil {
				v, err := evalString(f.RefVersion, sc)
				if err != nil {
					return exprFailure(ir, el, err)
				}
				if n, err := strconv.Atoi(v); err == nil {
					fr.Version = &n
				}
			}
			t.FormRef = fr
		}
	}
	rec := TaskRecord{Task: t, ProcessDefinitionKey: ir.pd.def.Key, BusinessKey: ir.rec.BusinessKey,
		Municipality: MunicipalityOf(ir.rec.Variables), ActivityInstanceID: tok.Act}
	c.putTask(rec)
	tok.Wait = t.ID
	c.activity(ir, tok, el, nil, false)
	c.historicTask(ir, &rec, nil, "")
	for _, l := range el.Listeners {
		if l.Task && l.EventName == "create" {
			if err := c.listener(ir, tok, el, l); err != nil {
				return err
			}
		}
	}
	return nil
}

func evalDate(x *bpmn.Expr, sc bpmn.Variables) (*time.Time, error) {
	s, err := evalString(x, sc)
	if err != nil || s == "" {
		return nil, err
	}
	t, err := engine.ParseDate(s)
	if err != nil {
		if t, err = time.Parse(time.RFC3339, s); err != nil {
			return nil, nil
		}
	}
	return &t, nil
}

// putTask adds a task insert or update to the change (once per task).
func (c *cmd) putTask(rec TaskRecord) {
	if i, ok := c.taskIdx[rec.Task.ID]; ok {
		c.ch.Tasks[i] = rec
		return
	}
	c.taskIdx[rec.Task.ID] = len(c.ch.Tasks)
	c.ch.Tasks = append(c.ch.Tasks, rec)
}

// historicTask writes a task's history row (end nil: open).
func (c *cmd) historicTask(ir *irun, rec *TaskRecord, end *time.Time, deleteReason string) {
	t := &rec.Task
	h := engine.HistoricTask{ID: t.ID, ProcessDefinitionKey: rec.ProcessDefinitionKey, ProcessDefinitionID: t.ProcessDefinitionID,
		ProcessInstanceID: t.ProcessInstanceID, ExecutionID: t.ExecutionID, ActivityInstanceID: rec.ActivityInstanceID,
		Name: t.Name, Description: t.Description, Owner: t.Owner, Assignee: t.Assignee, StartTime: t.Created,
		TaskDefinitionKey: t.TaskDefinitionKey, Priority: t.Priority, Due: t.Due, FollowUp: t.FollowUp,
		TenantID: t.TenantID, RootProcessInstanceID: ir.rec.RootInstanceID, TaskState: t.TaskState, DeleteReason: deleteReason}
	if end != nil {
		e := *end
		h.EndTime = &e
		d := e.Sub(t.Created).Milliseconds()
		h.Duration = &d
	}
	if i, ok := c.htaskIdx[h.ID]; ok {
		c.ch.History.Tasks[i] = h
		return
	}
	c.htaskIdx[h.ID] = len(c.ch.History.Tasks)
	c.ch.History.Tasks = append(c.ch.History.Tasks, h)
}

// readTask returns a task as this command sees it.
func (c *cmd) readTask(id string) (TaskRecord, error) {
	if i, ok := c.taskIdx[id]; ok {
		return c.ch.Tasks[i], nil
	}
	if r, ok := c.readTasks[id]; ok {
		return r, nil
	}
	r, err := c.e.store.Task(c.ctx, id)
	if err == nil {
		if c.readTasks == nil {
			c.readTasks = make(map[string]TaskRecord, 1)
		}
		c.readTasks[id] = r
	}
	return r, err
}

// readTaskAndInstance is readTask for a command that loads the task's
// instance next: with a TaskInstanceReader store both come in one read.
func (c *cmd) readTaskAndInstance(id string) (TaskRecord, error) {
	tr, ok := c.e.store.(TaskInstanceReader)
	if _, done := c.taskIdx[id]; done || !ok {
		return c.readTask(id)
	}
	if _, done := c.readTasks[id]; done {
		return c.readTask(id)
	}
	r, inst, err := tr.TaskWithInstance(c.ctx, id)
	if err != nil {
		return r, err
	}
	if c.readTasks == nil {
		c.readTasks = make(map[string]TaskRecord, 1)
	}
	c.readTasks[id] = r
	if _, loaded := c.insts[inst.ID]; inst.ID != "" && !loaded {
		c.readInst = &inst
	}
	return r, nil
}

// deleteUserTask removes an open task (completed or canceled) and ends
// its history row with the reason.
func (c *cmd) deleteUserTask(ir *irun, id, reason string) error {
	rec, err := c.readTask(id)
	if errors.Is(err, ErrNoRecord) {
		return nil
	}
	if err != nil {
		return err
	}
	if i, ok := c.taskIdx[id]; ok {
		c.ch.Tasks = slices.Delete(c.ch.Tasks, i, i+1)
		delete(c.taskIdx, id)
		for k, j := range c.taskIdx {
			if j > i {
				c.taskIdx[k] = j - 1
			}
		}
	}
	if rec.Version > 0 {
		c.ch.DeleteTasks = append(c.ch.DeleteTasks, Ref{id, rec.Version})
	}
	c.delTask[id] = true
	if reason == "completed" {
		rec.Task.TaskState = "Completed"
	} else {
		rec.Task.TaskState = "Deleted"
	}
	c.historicTask(ir, &rec, &c.now, reason)
	return nil
}

// --- external tasks

func (c *cmd) createExternalTask(ir *irun, tok *token, el *bpmn.Element) error {
	sc := c.scopeOf(ir, tok)
	topic, err := evalString(el.External.Topic, sc)
	if err != nil {
		return exprFailure(ir, el, err)
	}
	var prio int64
	if el.External.Priority != nil {
		p, err := evalString(el.External.Priority, sc)
		if err != nil {
			return exprFailure(ir, el, err)
		}
		prio, _ = strconv.ParseInt(p, 10, 64)
	}
	rec := ExternalTaskRecord{ID: newUUID(), InstanceID: ir.rec.ID, ExecutionID: tok.ID, ActivityID: el.ID,
		ActivityInstanceID: tok.Act, TopicName: topic, Priority: prio, DefinitionID: ir.rec.DefinitionID,
		DefinitionKey: ir.pd.def.Key, VersionTag: ir.pd.def.VersionTag, TenantID: ir.rec.TenantID,
		BusinessKey: ir.rec.BusinessKey, Suspended: ir.rec.Suspended, CreateTime: c.now}
	c.putExt(rec)
	tok.Wait = rec.ID
	return nil
}

func (c *cmd) putExt(rec ExternalTaskRecord) {
	if i, ok := c.extIdx[rec.ID]; ok {
		c.ch.ExternalTasks[i] = rec
		return
	}
	c.extIdx[rec.ID] = len(c.ch.ExternalTasks)
	c.ch.ExternalTasks = append(c.ch.ExternalTasks, rec)
}

func (c *cmd) readExt(id string) (ExternalTaskRecord, error) {
	if i, ok := c.extIdx[id]; ok {
		return c.ch.ExternalTasks[i], nil
	}
	if r, ok := c.readExts[id]; ok {
		return r, nil
	}
	r, err := c.e.store.ExternalTask(c.ctx, id)
	if err == nil {
		if c.readExts == nil {
			c.readExts = make(map[string]ExternalTaskRecord, 1)
		}
		c.readExts[id] = r
	}
	return r, err
}

func (c *cmd) deleteExternalTask(id string) error {
	rec, err := c.readExt(id)
	if errors.Is(err, ErrNoRecord) {
		return nil
	}
	if err != nil {
		return err
	}
	if i, ok := c.extIdx[id]; ok {
		c.ch.ExternalTasks = slices.Delete(c.ch.ExternalTasks, i, i+1)
		delete(c.extIdx, id)
		for k, j := range c.extIdx {
			if j > i {
				c.extIdx[k] = j - 1
			}
		}
	}
	if rec.Version > 0 {
		c.ch.DeleteExternalTasks = append(c.ch.DeleteExternalTasks, Ref{id, rec.Version})
	}
	c.delExt[id] = true
	return nil
}

// --- call activities

func (c *cmd) callActivity(ir *irun, tok *token, el *bpmn.Element) error {
	cd := el.Call
	sc := c.scopeOf(ir, tok)
	key, err := evalString(cd.CalledElement, sc)
	if err != nil {
		return exprFailure(ir, el, err)
	}
	tenant, explicit, err := evalTenant(cd.TenantID, sc)
	if err != nil {
		return exprFailure(ir, el, err)
	}
	if !explicit {
		tenant = ir.rec.TenantID
	}
	if c.lim.MaxDepth > 0 && ir.st.Depth+1 > c.lim.MaxDepth {
		return &LimitError{Limit: "MaxDepth", Max: int64(c.lim.MaxDepth), ElementID: el.ID}
	}
	pd, err := c.e.calledDefinition(c.ctx, ir.pd, key, tenant, !explicit, cd, sc)
	if err != nil {
		return err
	}
	bk := ""
	if cd.BusinessKey != nil {
		if bk, err = evalString(cd.BusinessKey, sc); err != nil {
			return exprFailure(ir, el, err)
		}
	}
	vars := engine.Variables{}
	for _, m := range cd.In {
		if err := c.mapVariables(m, sc, ir.rec.Variables, func(n string, v engine.Variable) { vars[n] = v }); err != nil {
			return exprFailure(ir, el, err)
		}
	}
	child, err := c.start(pd, bk, vars, ir, "")
	if err != nil {
		return err
	}
	tok.Wait, tok.Called = child.rec.ID, child.rec.ID
	c.activity(ir, tok, el, nil, false)
	return nil
}

// calledDefinition resolves a call activity's process: in the caller's
// deployment (binding deployment), or the latest (or a version) of the
// key in the tenant, then, without an explicit tenant, in no tenant.
func (e *Engine) calledDefinition(ctx context.Context, caller *procDef, key, tenant string, fallback bool, cd *bpmn.CallDef, sc bpmn.Variables) (*procDef, error) {
	find := func(tenant string) (*procDef, error) {
		switch cd.Binding {
		case "deployment":
			ds, err := e.store.ProcessDefinitions(ctx, engine.ProcessDefinitionQuery{Key: key, DeploymentID: caller.def.DeploymentID})
			if err != nil || len(ds) == 0 {
				return nil, err
			}
			return e.compileDef(ctx, ds[0])
		case "version", "versionTag":
			q := engine.ProcessDefinitionQuery{Key: key, TenantIDIn: []string{tenant}, WithoutTenantID: tenant == ""}
			if tenant == "" {
				q.TenantIDIn = nil
			}
			if cd.Binding == "version" {
				v, err := evalString(cd.Version, sc)
				if err != nil {
					return nil, err
				}
				if q.Version, err = strconv.Atoi(v); err != nil {
					return nil, nil
				}
			} else {
				tag, err := evalString(cd.VersionTag, sc)
				if err != nil {
					return nil, err
				}
				q.VersionTag = tag
			}
			q.SortBy, q.SortOrder = "version", "desc"
			ds, err := e.store.ProcessDefinitions(ctx, q)
			if err != nil || len(ds) == 0 {
				return nil, err
			}
			return e.compileDef(ctx, ds[0])
		}
		def, err := e.store.LatestProcessDefinition(ctx, key, tenant)
		if errors.Is(err, ErrNoRecord) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		return e.compileDef(ctx, def)
	}
	pd, err := find(tenant)
	if err == nil && pd == nil && fallback && tenant != "" {
		pd, err = find("")
	}
	if err != nil {
		return nil, err
	}
	if pd == nil {
		if tenant == "" {
			return nil, engineError("Cannot resolve called process: no processes deployed with key '%s' and no tenant-id", key)
		}
		return nil, engineError("Cannot resolve called process: no processes deployed with key '%s' and tenant-id '%s'", key, tenant)
	}
	return pd, nil
}

// bpmnErrorOf recognises a BPMN error thrown by a script: an object with
// a string errorCode (throw {errorCode: "X", message: "…"}), the
// convention of the embedded engine, since goja has no Java BpmnError.
func bpmnErrorOf(err error) (code, msg string, ok bool) {
	var ex *goja.Exception
	if !errors.As(err, &ex) || ex.Value() == nil {
		return "", "", false
	}
	m, isMap := ex.Value().Export().(map[string]any)
	if !isMap {
		return "", "", false
	}
	code, ok = m["errorCode"].(string)
	if !ok || code == "" {
		return "", "", false
	}
	msg, _ = m["message"].(string)
	return code, msg, true
}
