package local

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"maps"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/bpmn"
)

// ProcessDefinitions lists process definitions.
func (e *Engine) ProcessDefinitions(ctx context.Context, q engine.ProcessDefinitionQuery) ([]engine.ProcessDefinition, error) {
	return e.store.ProcessDefinitions(ctx, q)
}

// ProcessDefinition returns a process definition by id.
func (e *Engine) ProcessDefinition(ctx context.Context, id string) (engine.ProcessDefinition, error) {
	def, err := e.store.ProcessDefinition(ctx, id)
	if errors.Is(err, ErrNoRecord) {
		return def, engine.NotFound("No matching definition with id %s", id)
	}
	return def, err
}

// LatestProcessDefinition returns the latest version of a key in a
// tenant ("" = no tenant).
func (e *Engine) LatestProcessDefinition(ctx context.Context, key, tenantID string) (engine.ProcessDefinition, error) {
	pd, err := e.procDefByKey(ctx, key, tenantID)
	if err != nil {
		return engine.ProcessDefinition{}, err
	}
	return pd.def, nil
}

// ProcessDefinitionXML returns the BPMN XML of a definition's resource.
func (e *Engine) ProcessDefinitionXML(ctx context.Context, id string) (string, error) {
	def, err := e.ProcessDefinition(ctx, id)
	if err != nil {
		return "", err
	}
	data, err := e.resourceData(ctx, def.DeploymentID, def.Resource)
	if err != nil {
		return "", err
	}
	return string(data), nil
}

// resourceData returns a resource of a deployment by name.
func (e *Engine) resourceData(ctx context.Context, deploymentID, name string) ([]byte, error) {
	dep, err := e.deploymentByID(ctx, deploymentID)
	if err != nil {
		return nil, err
	}
	for _, r := range dep.resources {
		if r.Name == name {
			return r.Data, nil
		}
	}
	return nil, engine.NotFound("Deployment resource '%s' for deployment id '%s' not found", name, deploymentID)
}

// deploymentByID returns a deployment this engine holds, loading those
// other engines made on the store.
func (e *Engine) deploymentByID(ctx context.Context, id string) (*deployment, error) {
	e.mu.RLock()
	d := e.depByID[id]
	e.mu.RUnlock()
	if d != nil {
		return d, nil
	}
	if err := e.sync(ctx); err != nil {
		return nil, err
	}
	e.mu.RLock()
	d = e.depByID[id]
	e.mu.RUnlock()
	if d == nil {
		return nil, engine.NotFound("Deployment with id '%s' does not exist", id)
	}
	return d, nil
}

// StartForm returns the form of a definition's start event.
func (e *Engine) StartForm(ctx context.Context, definitionID string) (engine.Form, error) {
	pd, err := e.procDefByID(ctx, definitionID)
	if err != nil {
		return engine.Form{}, err
	}
	for _, s := range pd.proc.StartEvents {
		if s.Form != nil {
			return e.deployedForm(ctx, pd, s.Form, scopeVars{})
		}
	}
	return engine.Form{}, engine.NotFound("No deployed start form for process definition %s", definitionID)
}

// scopeVars is a variable scope over plain values.
type scopeVars map[string]any

func (s scopeVars) Variable(name string) (any, bool) { v, ok := s[name]; return v, ok }

// deployedForm resolves a camunda:formRef (binding latest, deployment or
// version: among the .form resources whose "id" is the ref, in the
// definition's deployment, or in the definition's tenant and then in no
// tenant, versions counted in deployment order) or a
// camunda:formKey "embedded:deployment:…" / "camunda-forms:deployment:…"
// (a resource of the definition's deployment).
func (e *Engine) deployedForm(ctx context.Context, pd *procDef, f *bpmn.Form, sc bpmn.Variables) (engine.Form, error) {
	if f.Ref != nil {
		ref, err := evalString(f.Ref, sc)
		if err != nil {
			return engine.Form{}, err
		}
		version := 0
		if f.RefVersion != nil {
			v, err := evalString(f.RefVersion, sc)
			if err != nil {
				return engine.Form{}, err
			}
			version = atoiOr(v, 0)
		}
		return e.formByRef(ctx, pd, ref, or(f.RefBinding, "latest"), version)
	}
	key, err := evalString(f.Key, sc)
	if err != nil {
		return engine.Form{}, err
	}
	return e.formByKey(ctx, pd, key)
}

func atoiOr(s string, def int) int {
	n := 0
	if s == "" {
		return def
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return def
		}
		n = n*10 + int(r-'0')
		if n > 1<<30 {
			return def
		}
	}
	return n
}

func (e *Engine) formByRef(ctx context.Context, pd *procDef, ref, binding string, version int) (engine.Form, error) {
	if err := e.sync(ctx); err != nil {
		return engine.Form{}, err
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	collect := func(tenant string) []engine.Resource {
		var found []engine.Resource
		for _, d := range e.deployments {
			if binding == "deployment" && d.dep.ID != pd.def.DeploymentID {
				continue
			}
			if binding != "deployment" && d.dep.TenantID != tenant {
				continue
			}
			for _, r := range d.resources {
				if formID(r) == ref {
					found = append(found, r)
				}
			}
		}
		return found
	}
	found := collect(pd.def.TenantID)
	if len(found) == 0 && binding != "deployment" && pd.def.TenantID != "" {
		found = collect("") // the definition's tenant first, then no tenant
	}
	var r *engine.Resource
	switch {
	case len(found) == 0:
	case binding == "version":
		if version >= 1 && version <= len(found) {
			r = &found[version-1]
		}
	default:
		r = &found[len(found)-1]
	}
	if r == nil {
		return engine.Form{}, engine.NotFound("No Camunda Form Definition was found for Camunda Form Ref: %s (binding %s)", ref, binding)
	}
	return engine.Form{ContentType: "application/json", Data: slices.Clone(r.Data)}, nil
}

// formID is the "id" of a form-js form resource, "" for other resources.
func formID(r engine.Resource) string {
	n := strings.ToLower(r.Name)
	if !strings.HasSuffix(n, ".form") {
		return ""
	}
	var f struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(r.Data, &f) != nil {
		return ""
	}
	return f.ID
}

func (e *Engine) formByKey(ctx context.Context, pd *procDef, key string) (engine.Form, error) {
	name := ""
	for _, prefix := range []string{"embedded:deployment:", "camunda-forms:deployment:", "operaton-forms:deployment:", "deployment:"} {
		if strings.HasPrefix(key, prefix) {
			name = strings.TrimPrefix(key, prefix)
			break
		}
	}
	if name == "" {
		return engine.Form{}, engine.NotFound("The form key '%s' does not reference a deployed form", key)
	}
	data, err := e.resourceData(ctx, pd.def.DeploymentID, name)
	if err != nil {
		return engine.Form{}, engine.NotFound("The form with the resource name '%s' cannot be found in deployment with id %s", name, pd.def.DeploymentID)
	}
	return engine.Form{ContentType: contentType(name), Data: slices.Clone(data)}, nil
}

func contentType(name string) string {
	switch strings.ToLower(path.Ext(name)) {
	case ".form", ".json":
		return "application/json"
	case ".html", ".htm":
		return "application/xhtml+xml"
	}
	return "application/octet-stream"
}

// StartProcess starts an instance and runs it to its first wait states.
func (e *Engine) StartProcess(ctx context.Context, s engine.StartProcess) (engine.ProcessInstance, error) {
	var pd *procDef
	var err error
	switch {
	case s.DefinitionID != "":
		pd, err = e.procDefByID(ctx, s.DefinitionID)
	case s.Key != "":
		pd, err = e.procDefByKey(ctx, s.Key, s.TenantID)
	default:
		return engine.ProcessInstance{}, engine.InvalidRequest("Either a process definition id or a key is required")
	}
	if err != nil {
		return engine.ProcessInstance{}, err
	}
	if pd.def.Suspended {
		return engine.ProcessInstance{}, engineError("Cannot start process instance. Process definition %s is suspended", pd.def.ID)
	}
	var ir *irun
	err = e.command(ctx, func(c *cmd) error {
		var err error
		ir, err = c.start(pd, s.BusinessKey, s.Variables, nil, s.StartUserID)
		return err
	})
	if err != nil {
		return engine.ProcessInstance{}, err
	}
	out := instanceDTO(&ir.rec)
	out.Ended = ir.ended
	if s.WithVariablesInReturn {
		out.Variables = maps.Clone(ir.rec.Variables)
	}
	return out, nil
}

func instanceDTO(r *InstanceRecord) engine.ProcessInstance {
	return engine.ProcessInstance{ID: r.ID, DefinitionID: r.DefinitionID, DefinitionKey: r.DefinitionKey,
		BusinessKey: r.BusinessKey, TenantID: r.TenantID, Suspended: r.Suspended}
}

// ProcessInstances lists running instances.
func (e *Engine) ProcessInstances(ctx context.Context, q engine.ProcessInstanceQuery) ([]engine.ProcessInstance, error) {
	rs, err := e.store.Instances(ctx, q)
	if err != nil {
		return nil, err
	}
	out := make([]engine.ProcessInstance, len(rs))
	for i := range rs {
		out[i] = instanceDTO(&rs[i])
	}
	return out, nil
}

func instanceNotFound(id string) error {
	return engine.NotFound("Process instance with id %s does not exist", id)
}

// ProcessInstance returns a running instance.
func (e *Engine) ProcessInstance(ctx context.Context, id string) (engine.ProcessInstance, error) {
	r, err := e.store.Instance(ctx, id)
	if errors.Is(err, ErrNoRecord) {
		return engine.ProcessInstance{}, instanceNotFound(id)
	}
	if err != nil {
		return engine.ProcessInstance{}, err
	}
	return instanceDTO(&r), nil
}

// ProcessInstanceVariables returns a running instance's variables.
func (e *Engine) ProcessInstanceVariables(ctx context.Context, id string) (engine.Variables, error) {
	r, err := e.store.Instance(ctx, id)
	if errors.Is(err, ErrNoRecord) {
		return nil, instanceNotFound(id)
	}
	if err != nil {
		return nil, err
	}
	if r.Variables == nil {
		return engine.Variables{}, nil
	}
	return r.Variables, nil
}

// loadOr404 loads an instance in a command, with Operaton's 404.
func (c *cmd) loadOr404(id string) (*irun, error) {
	ir, err := c.load(id)
	if errors.Is(err, ErrNoRecord) {
		return nil, instanceNotFound(id)
	}
	return ir, err
}

// SetProcessInstanceVariables sets and removes variables of a running instance.
func (e *Engine) SetProcessInstanceVariables(ctx context.Context, id string, m engine.VariableModification) error {
	for n, v := range m.Modifications {
		if err := checkVariable(n, v); err != nil {
			return err
		}
	}
	return e.command(ctx, func(c *cmd) error {
		ir, err := c.loadOr404(id)
		if err != nil {
			return err
		}
		for _, n := range sortedNames(m.Modifications) {
			ir.setVar(n, m.Modifications[n])
		}
		for _, n := range m.Deletions {
			ir.removeVar(n)
		}
		return nil
	})
}

func sortedNames(vs engine.Variables) []string {
	names := make([]string, 0, len(vs))
	for n := range vs {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// DeleteProcessInstance cancels a running instance (EXTERNALLY_TERMINATED),
// with the instances it called.
func (e *Engine) DeleteProcessInstance(ctx context.Context, id string, o engine.DeleteProcessInstance) error {
	return e.command(ctx, func(c *cmd) error {
		ir, err := c.loadOr404(id)
		if err != nil {
			return err
		}
		if err := c.cancelInstance(ir, engine.StateExternallyTerminated, o.Reason); err != nil {
			return err
		}
		return c.cancelCallers(ir, engine.StateExternallyTerminated, o.Reason)
	})
}

// SuspendProcessInstance suspends a running instance.
func (e *Engine) SuspendProcessInstance(ctx context.Context, id string) error {
	return e.suspend(ctx, id, true)
}

// ActivateProcessInstance ends a suspension.
func (e *Engine) ActivateProcessInstance(ctx context.Context, id string) error {
	return e.suspend(ctx, id, false)
}

func (e *Engine) suspend(ctx context.Context, id string, suspended bool) error {
	return e.command(ctx, func(c *cmd) error {
		ir, err := c.loadOr404(id)
		if err != nil {
			return err
		}
		if ir.rec.Suspended == suspended {
			return nil
		}
		ir.rec.Suspended, ir.dirty, ir.histDirty = suspended, true, true
		tasks, err := e.store.InstanceTasks(ctx, id)
		if err != nil {
			return err
		}
		for _, t := range tasks {
			t.Task.Suspended = suspended
			c.putTask(t)
		}
		exts, err := e.store.InstanceExternalTasks(ctx, id)
		if err != nil {
			return err
		}
		for _, x := range exts {
			x.Suspended = suspended
			c.putExt(x)
		}
		return nil
	})
}

// --- user tasks

func taskNotFound(id string) error { return engine.NotFound("Cannot find task with id %s", id) }

// Tasks lists open user tasks.
func (e *Engine) Tasks(ctx context.Context, q engine.TaskQuery) ([]engine.Task, error) {
	rs, err := e.store.Tasks(ctx, q)
	if err != nil {
		return nil, err
	}
	out := make([]engine.Task, len(rs))
	for i := range rs {
		out[i] = rs[i].Task
	}
	return out, nil
}

// TaskCount counts open user tasks.
func (e *Engine) TaskCount(ctx context.Context, q engine.TaskQuery) (int, error) {
	return e.store.TaskCount(ctx, q)
}

// Task returns an open user task.
func (e *Engine) Task(ctx context.Context, id string) (engine.Task, error) {
	r, err := e.store.Task(ctx, id)
	if errors.Is(err, ErrNoRecord) {
		return engine.Task{}, engine.NotFound("No matching task with id %s", id)
	}
	return r.Task, err
}

// Claim sets a task's assignee.
func (e *Engine) Claim(ctx context.Context, taskID, userID string) error {
	return e.assign(ctx, taskID, userID, true)
}

// Unclaim removes a task's assignee.
func (e *Engine) Unclaim(ctx context.Context, taskID string) error {
	return e.assign(ctx, taskID, "", false)
}

func (e *Engine) assign(ctx context.Context, taskID, userID string, claim bool) error {
	return e.command(ctx, func(c *cmd) error {
		rec, err := c.readTask(taskID)
		if errors.Is(err, ErrNoRecord) {
			return taskNotFound(taskID)
		}
		if err != nil {
			return err
		}
		if claim && rec.Task.Assignee != "" {
			if rec.Task.Assignee == userID {
				return nil
			}
			return &engine.Error{Status: 500, Type: "TaskAlreadyClaimedException", Message: "Task '" + taskID + "' is already claimed by someone else."}
		}
		if !claim && rec.Task.Assignee == "" {
			return nil
		}
		ir, err := c.loadOr404(rec.Task.ProcessInstanceID)
		if err != nil {
			return err
		}
		rec.Task.Assignee = userID
		rec.Task.LastUpdated = c.now
		rec.Task.TaskState = "Updated"
		c.putTask(rec)
		c.historicTask(ir, &rec, nil, "")
		if tok := ir.tokenWaiting(taskID); tok != nil {
			if el, err := ir.element(tok.Elem); err == nil {
				c.activity(ir, tok, el, nil, false)
				if i, ok := c.actIdx[tok.Act]; ok {
					c.ch.History.Activities[i].Assignee = userID
				}
			}
		}
		return nil
	})
}

// CompleteTask completes a task with variables and runs its instance on.
func (e *Engine) CompleteTask(ctx context.Context, taskID string, vars engine.Variables) error {
	for n, v := range vars {
		if err := checkVariable(n, v); err != nil {
			return err
		}
	}
	return e.command(ctx, func(c *cmd) error {
		rec, err := c.readTaskAndInstance(taskID)
		if errors.Is(err, ErrNoRecord) {
			return taskNotFound(taskID)
		}
		if err != nil {
			return err
		}
		if rec.Task.Suspended {
			return engineError("Cannot complete a suspended task. Task '%s' is suspended.", taskID)
		}
		ir, err := c.load(rec.Task.ProcessInstanceID)
		if errors.Is(err, ErrNoRecord) {
			return taskNotFound(taskID)
		}
		if err != nil {
			return err
		}
		tok := ir.tokenWaiting(taskID)
		if tok == nil {
			return taskNotFound(taskID)
		}
		el, err := ir.element(tok.Elem)
		if err != nil {
			return err
		}
		for _, n := range sortedNames(vars) {
			if _, local := tok.Locals[n]; local {
				tok.Locals[n] = vars[n]
				continue
			}
			ir.setVar(n, vars[n])
		}
		for _, l := range el.Listeners {
			if l.Task && l.EventName == "complete" {
				if err := c.listener(ir, tok, el, l); err != nil {
					return err
				}
			}
		}
		if err := c.deleteUserTask(ir, taskID, "completed"); err != nil {
			return err
		}
		tok.Wait = ""
		c.activity(ir, tok, el, nil, false)
		c.activityTask(tok, taskID, rec.Task.Assignee)
		c.push(work{ir: ir, tok: tok, el: el, leave: true})
		return nil
	})
}

// activityTask keeps the task id and assignee on a user task's activity row.
func (c *cmd) activityTask(tok *token, taskID, assignee string) {
	if i, ok := c.actIdx[tok.Act]; ok {
		c.ch.History.Activities[i].TaskID = taskID
		c.ch.History.Activities[i].Assignee = assignee
	}
}

// TaskVariables returns the variables visible from a task.
func (e *Engine) TaskVariables(ctx context.Context, taskID string) (engine.Variables, error) {
	rec, err := e.store.Task(ctx, taskID)
	if errors.Is(err, ErrNoRecord) {
		return nil, taskNotFound(taskID)
	}
	if err != nil {
		return nil, err
	}
	c := e.newCmd(ctx)
	ir, err := c.load(rec.Task.ProcessInstanceID)
	if errors.Is(err, ErrNoRecord) {
		return nil, taskNotFound(taskID)
	}
	if err != nil {
		return nil, err
	}
	return maps.Clone(visibleVariables(ir, ir.tokenWaiting(taskID))), nil
}

// TaskForm returns the deployed form of a task.
func (e *Engine) TaskForm(ctx context.Context, taskID string) (engine.Form, error) {
	rec, err := e.store.Task(ctx, taskID)
	if errors.Is(err, ErrNoRecord) {
		return engine.Form{}, taskNotFound(taskID)
	}
	if err != nil {
		return engine.Form{}, err
	}
	pd, err := e.procDefByID(ctx, rec.Task.ProcessDefinitionID)
	if err != nil {
		return engine.Form{}, err
	}
	if fr := rec.Task.FormRef; fr != nil {
		v := 0
		if fr.Version != nil {
			v = *fr.Version
		}
		return e.formByRef(ctx, pd, fr.Key, or(fr.Binding, "latest"), v)
	}
	if rec.Task.FormKey != "" {
		return e.formByKey(ctx, pd, rec.Task.FormKey)
	}
	return engine.Form{}, engine.NotFound("No deployed form for task %s", taskID)
}

// --- external tasks

func extNotFound(id string) error {
	return engine.NotFound("External task with id %s does not exist", id)
}

// FetchAndLock locks external tasks of the topics for a worker. With
// AsyncResponseTimeout it polls (every 50 ms) until a task is locked,
// the timeout passes or ctx ends.
func (e *Engine) FetchAndLock(ctx context.Context, f engine.FetchAndLock) ([]engine.LockedExternalTask, error) {
	if f.WorkerID == "" {
		return nil, engine.InvalidRequest("workerId is required")
	}
	for _, t := range f.Topics {
		if t.TopicName == "" {
			return nil, engine.InvalidRequest("topicName is required")
		}
		if t.LockDuration <= 0 {
			return nil, engine.InvalidRequest("lockDuration must be greater than 0")
		}
	}
	deadline := time.Now().Add(f.AsyncResponseTimeout)
	for {
		recs, err := e.store.LockExternalTasks(ctx, LockRequest{WorkerID: f.WorkerID, MaxTasks: f.MaxTasks,
			UsePriority: f.UsePriority, Topics: f.Topics, Now: e.now()})
		if err != nil {
			return nil, err
		}
		if len(recs) > 0 || f.AsyncResponseTimeout <= 0 || !time.Now().Before(deadline) {
			return e.lockedTasks(ctx, recs, f.Topics)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func (e *Engine) lockedTasks(ctx context.Context, recs []ExternalTaskRecord, topics []engine.FetchTopic) ([]engine.LockedExternalTask, error) {
	out := make([]engine.LockedExternalTask, 0, len(recs))
	for _, r := range recs {
		lt := engine.LockedExternalTask{ID: r.ID, ActivityID: r.ActivityID, ActivityInstanceID: r.ActivityInstanceID,
			ErrorMessage: r.ErrorMessage, ErrorDetails: r.ErrorDetails, ExecutionID: r.ExecutionID,
			LockExpirationTime: r.LockExpiration, CreateTime: r.CreateTime, ProcessDefinitionID: r.DefinitionID,
			ProcessDefinitionKey: r.DefinitionKey, ProcessDefinitionVersionTag: r.VersionTag, ProcessInstanceID: r.InstanceID,
			Retries: r.Retries, Suspended: r.Suspended, WorkerID: r.WorkerID, TopicName: r.TopicName, TenantID: r.TenantID,
			BusinessKey: r.BusinessKey, Priority: r.Priority, Variables: engine.Variables{}}
		var names []string
		all := true
		for _, t := range topics {
			if t.TopicName == r.TopicName {
				if t.Variables != nil {
					names, all = t.Variables, false
				}
				break
			}
		}
		c := e.newCmd(ctx)
		ir, err := c.load(r.InstanceID)
		if err == nil {
			// the activity's input parameters are local variables of its execution
			vars := visibleVariables(ir, ir.tokenWaiting(r.ID))
			if all {
				lt.Variables = maps.Clone(vars)
				if lt.Variables == nil {
					lt.Variables = engine.Variables{}
				}
			} else {
				for _, n := range names {
					if v, ok := vars[n]; ok {
						lt.Variables[n] = v
					}
				}
			}
		} else if !errors.Is(err, ErrNoRecord) {
			return nil, err
		}
		out = append(out, lt)
	}
	return out, nil
}

// lockedBy reads an external task in a command and checks that the
// worker holds its lock.
func (c *cmd) lockedBy(id, workerID, action string) (ExternalTaskRecord, error) {
	rec, err := c.readExt(id)
	if errors.Is(err, ErrNoRecord) {
		return rec, extNotFound(id)
	}
	if err != nil {
		return rec, err
	}
	if rec.WorkerID != workerID || rec.LockExpiration.IsZero() {
		holder := rec.WorkerID
		if holder == "" {
			holder = "null"
		}
		return rec, &engine.Error{Status: 400, Type: "BadUserRequestException",
			Message: "External Task " + id + " cannot be " + action + " by worker '" + workerID + "'. It is locked by worker '" + holder + "'."}
	}
	if rec.Suspended {
		return rec, engineError("ExternalTask with id '%s' is suspended", id)
	}
	return rec, nil
}

// CompleteExternalTask completes an external task locked by the worker.
func (e *Engine) CompleteExternalTask(ctx context.Context, id string, x engine.CompleteExternalTask) error {
	for n, v := range x.Variables {
		if err := checkVariable(n, v); err != nil {
			return err
		}
	}
	return e.command(ctx, func(c *cmd) error {
		rec, err := c.lockedBy(id, x.WorkerID, "completed")
		if err != nil {
			return err
		}
		ir, tok, el, err := c.waitingOn(rec)
		if err != nil {
			return err
		}
		for _, n := range sortedNames(x.Variables) {
			ir.setVar(n, x.Variables[n])
		}
		for _, n := range sortedNames(x.LocalVariables) {
			if tok.Locals == nil {
				tok.Locals = engine.Variables{}
			}
			tok.Locals[n] = x.LocalVariables[n]
		}
		if err := c.deleteExternalTask(id); err != nil {
			return err
		}
		tok.Wait = ""
		c.push(work{ir: ir, tok: tok, el: el, leave: true})
		return nil
	})
}

// waitingOn finds the instance and token an external task belongs to.
func (c *cmd) waitingOn(rec ExternalTaskRecord) (*irun, *token, *bpmn.Element, error) {
	ir, err := c.load(rec.InstanceID)
	if errors.Is(err, ErrNoRecord) {
		return nil, nil, nil, extNotFound(rec.ID)
	}
	if err != nil {
		return nil, nil, nil, err
	}
	tok := ir.tokenWaiting(rec.ID)
	if tok == nil {
		return nil, nil, nil, extNotFound(rec.ID)
	}
	el, err := ir.element(tok.Elem)
	return ir, tok, el, err
}

// ExternalTaskFailure reports a failure: the lock is released and Retries
// set; with Retries 0 the task is no longer fetched.
func (e *Engine) ExternalTaskFailure(ctx context.Context, id string, f engine.ExternalTaskFailure) error {
	if f.Retries < 0 {
		return engine.InvalidRequest("retries must be >= 0")
	}
	return e.command(ctx, func(c *cmd) error {
		rec, err := c.lockedBy(id, f.WorkerID, "failed")
		if err != nil {
			return err
		}
		rec.ErrorMessage, rec.ErrorDetails = clipTo(f.ErrorMessage, 4000), clipTo(f.ErrorDetails, 64<<10)
		rec.WorkerID, rec.LockExpiration = "", time.Time{}
		rec.RetryAt = time.Time{}
		if f.RetryTimeout > 0 {
			rec.RetryAt = c.now.Add(f.RetryTimeout)
		}
		c.setRetries(&rec, f.Retries)
		c.putExt(rec)
		return nil
	})
}

// setRetries sets an external task's retries and with them its incident:
// at 0 one is opened (once), above 0 it is resolved. The incident travels
// in the task's record, so it is written in the same Commit as the
// failure that opened it.
func (c *cmd) setRetries(rec *ExternalTaskRecord, retries int) {
	rec.Retries = &retries
	switch {
	case retries > 0:
		rec.IncidentID, rec.IncidentTime = "", time.Time{}
	case rec.IncidentID == "":
		rec.IncidentID, rec.IncidentTime = newUUID(), c.now
	}
}

// SetExternalTaskRetries sets the retries of an external task: above 0
// the task is fetchable again and its incident resolved, 0 opens one.
func (e *Engine) SetExternalTaskRetries(ctx context.Context, id string, retries int) error {
	if retries < 0 {
		return engine.InvalidRequest("The number of retries cannot be negative")
	}
	return e.command(ctx, func(c *cmd) error {
		rec, err := c.readExt(id)
		if errors.Is(err, ErrNoRecord) {
			return extNotFound(id)
		}
		if err != nil {
			return err
		}
		c.setRetries(&rec, retries)
		rec.RetryAt = time.Time{}
		c.putExt(rec)
		return nil
	})
}

// --- incidents

// Incidents lists open incidents: those of external tasks out of
// retries, and as in Operaton a copy of each in every calling instance
// up the call chain (see recursiveIncidents).
func (e *Engine) Incidents(ctx context.Context, q engine.IncidentQuery) ([]engine.Incident, error) {
	roots, err := e.store.Incidents(ctx, engine.IncidentQuery{})
	if err != nil || len(roots) == 0 {
		return roots, err
	}
	all, err := e.recursiveIncidents(ctx, roots)
	if err != nil {
		return nil, err
	}
	out := all[:0]
	for i := range all {
		if MatchIncident(q, &all[i]) {
			out = append(out, all[i])
		}
	}
	SortIncidents(q, out)
	return engine.Page(out, q.FirstResult, q.MaxResults), nil
}

// IncidentCount counts the open incidents the query matches.
func (e *Engine) IncidentCount(ctx context.Context, q engine.IncidentQuery) (int, error) {
	q.FirstResult, q.MaxResults, q.SortBy, q.SortOrder = 0, 0, "", ""
	is, err := e.Incidents(ctx, q)
	return len(is), err
}

// recursiveIncidents adds to the incidents of external tasks what Operaton
// records with each (IncidentEntity.createRecursiveIncidents): in every
// instance up the call chain, an incident of the same type at the call
// activity waiting on the instance below, caused by the incident below,
// rooted in the external task's, without configuration or message. They
// are derived here rather than stored, so they appear and go with their
// root in one Commit; their ids are name-based, the same on every read.
// The instances are read one call level at a time.
func (e *Engine) recursiveIncidents(ctx context.Context, roots []engine.Incident) ([]engine.Incident, error) {
	out := slices.Clone(roots)
	level := roots // incidents whose instances may have a caller
	// a call chain ends (an instance's caller is older than it); the bound
	// only guards against a store that answers nonsense
	for depth := 0; len(level) > 0 && depth < 10_000; depth++ {
		var ids []string
		for _, in := range level {
			if !slices.Contains(ids, in.ProcessInstanceID) {
				ids = append(ids, in.ProcessInstanceID)
			}
		}
		insts, err := e.store.Instances(ctx, engine.ProcessInstanceQuery{ProcessInstanceIDs: ids})
		if err != nil {
			return nil, err
		}
		super := map[string]string{} // instance -> its caller
		for _, r := range insts {
			if r.SuperInstanceID != "" {
				super[r.ID] = r.SuperInstanceID
			}
		}
		var parents []string
		for _, p := range super {
			if !slices.Contains(parents, p) {
				parents = append(parents, p)
			}
		}
		if len(parents) == 0 {
			break
		}
		callers, err := e.store.Instances(ctx, engine.ProcessInstanceQuery{ProcessInstanceIDs: parents})
		if err != nil {
			return nil, err
		}
		byID := make(map[string]*InstanceRecord, len(callers))
		for i := range callers {
			byID[callers[i].ID] = &callers[i]
		}
		var next []engine.Incident
		for _, in := range level {
			p := byID[super[in.ProcessInstanceID]]
			if p == nil {
				continue
			}
			var st state
			if err := json.Unmarshal(p.State, &st); err != nil {
				return nil, engineError("the state of process instance %s cannot be read: %v", p.ID, err)
			}
			var call *token
			for _, t := range st.Tokens {
				if t.Wait == in.ProcessInstanceID {
					call = t
					break
				}
			}
			if call == nil {
				continue
			}
			sum := sha256.Sum256([]byte("incident/" + in.ID + "/" + p.ID))
			id := formatUUID([16]byte(sum[:16]), 0x50)
			next = append(next, engine.Incident{ID: id, ProcessDefinitionID: p.DefinitionID, ProcessInstanceID: p.ID,
				ExecutionID: call.ID, Timestamp: in.Timestamp, Type: in.Type, ActivityID: call.Elem,
				FailedActivityID: call.Elem, CauseIncidentID: in.ID, RootCauseIncidentID: in.RootCauseIncidentID,
				TenantID: p.TenantID})
		}
		out = append(out, next...)
		level = next
	}
	return out, nil
}

func clipTo(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// ExternalTaskBPMNError throws a BPMN error from an external task.
func (e *Engine) ExternalTaskBPMNError(ctx context.Context, id string, x engine.ExternalTaskBPMNError) error {
	for n, v := range x.Variables {
		if err := checkVariable(n, v); err != nil {
			return err
		}
	}
	return e.command(ctx, func(c *cmd) error {
		rec, err := c.lockedBy(id, x.WorkerID, "reported a BPMN error")
		if err != nil {
			return err
		}
		ir, tok, _, err := c.waitingOn(rec)
		if err != nil {
			return err
		}
		for _, n := range sortedNames(x.Variables) {
			ir.setVar(n, x.Variables[n])
		}
		if err := c.deleteExternalTask(id); err != nil {
			return err
		}
		tok.Wait = ""
		return c.throwError(ir, tok, x.ErrorCode, x.ErrorMessage)
	})
}

// ExtendLock extends the lock of an external task held by the worker.
func (e *Engine) ExtendLock(ctx context.Context, id, workerID string, d time.Duration) error {
	if d <= 0 {
		return engine.InvalidRequest("newDuration must be greater than 0")
	}
	return e.command(ctx, func(c *cmd) error {
		rec, err := c.lockedBy(id, workerID, "extended")
		if err != nil {
			return err
		}
		if !rec.LockExpiration.After(c.now) {
			return engineError("Cannot extend a lock that expired")
		}
		rec.LockExpiration = c.now.Add(d)
		c.putExt(rec)
		return nil
	})
}

// --- history

// HistoricProcessInstances lists process instances, running and ended.
func (e *Engine) HistoricProcessInstances(ctx context.Context, q engine.HistoricProcessInstanceQuery) ([]engine.HistoricProcessInstance, error) {
	return e.store.HistoricProcessInstances(ctx, q)
}

// HistoricProcessInstance returns one historic process instance.
func (e *Engine) HistoricProcessInstance(ctx context.Context, id string) (engine.HistoricProcessInstance, error) {
	hs, err := e.store.HistoricProcessInstances(ctx, engine.HistoricProcessInstanceQuery{ProcessInstanceID: id})
	if err != nil {
		return engine.HistoricProcessInstance{}, err
	}
	if len(hs) == 0 {
		return engine.HistoricProcessInstance{}, engine.NotFound("Historic process instance with id %s does not exist", id)
	}
	return hs[0], nil
}

// HistoricTasks lists user tasks, open and finished.
func (e *Engine) HistoricTasks(ctx context.Context, q engine.HistoricTaskQuery) ([]engine.HistoricTask, error) {
	return e.store.HistoricTasks(ctx, q)
}

// HistoricVariables lists variable instances.
func (e *Engine) HistoricVariables(ctx context.Context, q engine.HistoricVariableQuery) ([]engine.HistoricVariable, error) {
	return e.store.HistoricVariables(ctx, q)
}

// HistoricActivities lists activity instances.
func (e *Engine) HistoricActivities(ctx context.Context, q engine.HistoricActivityQuery) ([]engine.HistoricActivity, error) {
	return e.store.HistoricActivities(ctx, q)
}

// HistoricDecisions lists the decision evaluations of business-rule tasks.
func (e *Engine) HistoricDecisions(ctx context.Context, q engine.HistoricDecisionQuery) ([]engine.HistoricDecision, error) {
	hs, err := e.store.HistoricDecisions(ctx, q)
	for i := range hs {
		if !q.IncludeInputs {
			hs[i].Inputs = nil
		}
		if !q.IncludeOutputs {
			hs[i].Outputs = nil
		}
	}
	return hs, err
}

// --- deployments

// DeploymentResources lists the resources of a deployment.
func (e *Engine) DeploymentResources(ctx context.Context, deploymentID string) ([]engine.DeploymentResource, error) {
	d, err := e.store.Deployment(ctx, deploymentID)
	if errors.Is(err, ErrNoRecord) {
		return nil, engine.NotFound("Deployment resources for deployment id '%s' do not exist.", deploymentID)
	}
	if err != nil {
		return nil, err
	}
	out := make([]engine.DeploymentResource, len(d.Resources))
	for i, r := range d.Resources {
		out[i] = engine.DeploymentResource{ID: r.ID, Name: r.Name, DeploymentID: deploymentID}
	}
	return out, nil
}

// DeploymentResourceData returns the content of one resource.
func (e *Engine) DeploymentResourceData(ctx context.Context, deploymentID, resourceID string) ([]byte, error) {
	d, err := e.store.Deployment(ctx, deploymentID)
	if errors.Is(err, ErrNoRecord) {
		return nil, engine.NotFound("Deployment resources for deployment id '%s' do not exist.", deploymentID)
	}
	if err != nil {
		return nil, err
	}
	for _, r := range d.Resources {
		if r.ID == resourceID {
			return r.Data, nil
		}
	}
	return nil, engine.NotFound("Deployment resource with resource id '%s' for deployment id '%s' does not exist.", resourceID, deploymentID)
}

// DeleteDeployment deletes a deployment with its definitions; with
// Cascade its running instances are cancelled and their history removed.
func (e *Engine) DeleteDeployment(ctx context.Context, id string, o engine.DeleteDeployment) error {
	d, err := e.deploymentByID(ctx, id)
	if err != nil {
		return err
	}
	insts, err := e.store.Instances(ctx, engine.ProcessInstanceQuery{DeploymentID: id})
	if err != nil {
		return err
	}
	if len(insts) > 0 && !o.Cascade {
		return engineError("Deletion of process definition without cascading failed. Process definition with id: %s can't be deleted, since there exists %d dependent process instances.",
			insts[0].DefinitionID, len(insts))
	}
	var gone []string
	for _, in := range insts {
		err := e.DeleteProcessInstance(ctx, in.ID, engine.DeleteProcessInstance{Reason: "deployment deleted"})
		if err != nil && !errors.Is(err, engine.ErrNotFound) {
			return err
		}
		gone = append(gone, in.ID)
	}
	if o.Cascade {
		var defIDs []string
		for _, p := range d.procs {
			defIDs = append(defIDs, p.ID)
		}
		for _, defID := range defIDs {
			hs, err := e.store.HistoricProcessInstances(ctx, engine.HistoricProcessInstanceQuery{ProcessDefinitionID: defID})
			if err != nil {
				return err
			}
			for _, h := range hs {
				gone = append(gone, h.ID)
			}
		}
		if err := e.store.DeleteHistory(ctx, gone...); err != nil {
			return err
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if cur := e.depByID[id]; cur != nil {
		e.remove([]*deployment{cur})
	}
	return nil
}

var _ engine.ProcessEngine = (*Engine)(nil)
