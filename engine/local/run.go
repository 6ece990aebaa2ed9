package local

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/bpmn"
)

// The runtime executes tokens. One command (start, complete a task, …)
// is one step: it reads the records it needs, moves the tokens of the
// instances involved until each waits (a user task, an external task, a
// call activity's child, a parallel join) or ends, and writes everything
// with one Store.Commit. A command that fails (a script error, a budget,
// an unsupported element reached) returns before Commit, so nothing of it
// is kept. On a version conflict the command is re-read and re-applied,
// at most maxAttempts times.
//
// Tokens move depth-first, as in Operaton: the first outgoing flow runs
// to its wait state before the second starts, and a call activity's child
// runs before the caller's other branches. The work list is a stack, so
// following the data never recurses.

// maxAttempts bounds the re-application of a command after conflicts.
const maxAttempts = 8

// state is an instance's execution state, InstanceRecord.State as JSON.
type state struct {
	Tokens []*token `json:"tokens,omitempty"`
	// Joins counts the tokens that arrived at a parallel join, by scope
	// token and gateway ("scope/gateway").
	Joins         map[string]int `json:"joins,omitempty"`
	StartActivity string         `json:"startActivity,omitempty"`
	Depth         int            `json:"depth,omitempty"` // call depth: 0 at the top
	// StartUser is the user who started the instance, "" when unknown.
	StartUser string `json:"startUser,omitempty"`
}

// token is an execution: where it is and what it waits for. Tokens inside
// an embedded sub-process have Scope = the id of the token waiting on the
// sub-process.
type token struct {
	ID    string `json:"id"`
	Elem  string `json:"elem"`
	Act   string `json:"act,omitempty"` // the activity instance id
	Scope string `json:"scope,omitempty"`
	Wait  string `json:"wait,omitempty"` // user task, external task or called instance id
	// Called is the instance a call activity started (kept after it ended,
	// for the activity's history row).
	Called string    `json:"called,omitempty"`
	Start  time.Time `json:"start"`
	// Locals are the activity's input parameters.
	Locals engine.Variables `json:"locals,omitempty"`

	result bpmn.DecisionResult // a business-rule task's result, for its output parameters
}

// procDef is a process definition with its parsed process.
type procDef struct {
	def  engine.ProcessDefinition
	proc *bpmn.Process
	defs *bpmn.Definitions
}

// irun is an instance a command works on.
type irun struct {
	rec     InstanceRecord
	st      state
	pd      *procDef
	isNew   bool
	ended   bool
	dirty   bool
	endSt   string // the history state when ended
	reason  string // deleteReason
	changed map[string]bool
	plain   map[string]any
	// history row of the instance needs writing
	histDirty bool
	endAct    string // the activity the instance ended in
}

func (ir *irun) token(id string) *token {
	for _, t := range ir.st.Tokens {
		if t.ID == id {
			return t
		}
	}
	return nil
}

func (ir *irun) tokenWaiting(on string) *token {
	for _, t := range ir.st.Tokens {
		if t.Wait == on {
			return t
		}
	}
	return nil
}

func (ir *irun) removeToken(tok *token) {
	ir.st.Tokens = slices.DeleteFunc(ir.st.Tokens, func(t *token) bool { return t == tok })
	ir.dirty = true
}

func (ir *irun) setVar(name string, v engine.Variable) {
	if ir.rec.Variables == nil {
		ir.rec.Variables = engine.Variables{}
	}
	ir.rec.Variables[name] = v
	if ir.changed == nil {
		ir.changed = map[string]bool{}
	}
	ir.changed[name] = true
	delete(ir.plain, name)
	ir.dirty = true
}

func (ir *irun) removeVar(name string) {
	if _, ok := ir.rec.Variables[name]; !ok {
		return
	}
	delete(ir.rec.Variables, name)
	if ir.changed == nil {
		ir.changed = map[string]bool{}
	}
	ir.changed[name] = true
	delete(ir.plain, name)
	ir.dirty = true
}

func (ir *irun) plainVar(name string) (any, bool) {
	if x, ok := ir.plain[name]; ok {
		return x, true
	}
	v, ok := ir.rec.Variables[name]
	if !ok {
		return nil, false
	}
	x := plainOf(v)
	if ir.plain == nil {
		ir.plain = map[string]any{}
	}
	ir.plain[name] = x
	return x, true
}

// work is one move of a token: enter an element or leave it.
type work struct {
	ir    *irun
	tok   *token
	el    *bpmn.Element
	leave bool
}

// cmd is one command in progress.
type cmd struct {
	e     *Engine
	ctx   context.Context
	now   time.Time
	lim   Limits
	insts map[string]*irun
	order []*irun
	stack []work
	steps int64

	ch Change
	// indexes into ch, so a row written twice in a step is written once
	actIdx, htaskIdx map[string]int
	taskIdx, extIdx  map[string]int
	delTask, delExt  map[string]bool
	// readTasks and readExts are the records this command read from the
	// store (nil until the first), so a record is read once per attempt:
	// completing a task reads it to check it and again to delete it.
	readTasks map[string]TaskRecord
	readExts  map[string]ExternalTaskRecord
	// readInst is an instance read with a task (TaskInstanceReader), for
	// load to take instead of reading it again.
	readInst *InstanceRecord
}

func (e *Engine) newCmd(ctx context.Context) *cmd {
	return &cmd{e: e, ctx: ctx, now: e.now(), lim: e.opts.ProcessLimits.resolved(), insts: make(map[string]*irun, 2),
		actIdx: make(map[string]int, 8), htaskIdx: make(map[string]int, 1), taskIdx: make(map[string]int, 1),
		extIdx: map[string]int{}, delTask: map[string]bool{}, delExt: map[string]bool{}}
}

// command runs f as one step, re-applying it after a version conflict.
func (e *Engine) command(ctx context.Context, f func(c *cmd) error) error {
	var err error
	for range maxAttempts {
		c := e.newCmd(ctx)
		if err = f(c); err != nil {
			return err
		}
		if err = c.run(); err != nil {
			return err
		}
		if err = c.commit(); !errors.Is(err, ErrConflict) {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	return &engine.Error{Status: 500, Type: "OptimisticLockingException", Message: "the command conflicted with concurrent changes " +
		fmt.Sprint(maxAttempts) + " times: " + err.Error(), Err: err}
}

// engineError is Operaton's 500 ProcessEngineException.
func engineError(format string, args ...any) *engine.Error {
	return &engine.Error{Status: 500, Type: "ProcessEngineException", Message: fmt.Sprintf(format, args...)}
}

// load returns the running instance with the id, read once per command.
func (c *cmd) load(id string) (*irun, error) {
	if ir, ok := c.insts[id]; ok {
		return ir, nil
	}
	var rec InstanceRecord
	if c.readInst != nil && c.readInst.ID == id {
		rec, c.readInst = *c.readInst, nil
	} else {
		var err error
		if rec, err = c.e.store.Instance(c.ctx, id); err != nil {
			return nil, err
		}
	}
	pd, err := c.e.procDefByID(c.ctx, rec.DefinitionID)
	if err != nil {
		return nil, err
	}
	ir := &irun{rec: rec, pd: pd}
	if len(rec.State) > 0 {
		if err := json.Unmarshal(rec.State, &ir.st); err != nil {
			return nil, engineError("the state of process instance %s cannot be read: %v", id, err)
		}
	}
	c.insts[id] = ir
	c.order = append(c.order, ir)
	return ir, nil
}

func (c *cmd) push(w work) { c.stack = append(c.stack, w) }

// run moves tokens until none can move.
func (c *cmd) run() error {
	for len(c.stack) > 0 {
		w := c.stack[len(c.stack)-1]
		c.stack = c.stack[:len(c.stack)-1]
		c.steps++
		if c.lim.MaxSteps > 0 && c.steps > c.lim.MaxSteps {
			return &LimitError{Limit: "MaxSteps", Max: c.lim.MaxSteps, ElementID: w.el.ID}
		}
		if c.steps%1024 == 0 {
			if err := c.ctx.Err(); err != nil {
				return err
			}
		}
		var err error
		if w.leave {
			err = c.leave(w.ir, w.tok, w.el)
		} else {
			err = c.enter(w.ir, w.tok, w.el)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// scope is the variable scope of a token for expressions and scripts.
type scope struct {
	ir    *irun
	tok   *token
	extra map[string]any
}

func (c *cmd) scopeOf(ir *irun, tok *token) *scope { return &scope{ir: ir, tok: tok} }

func (s *scope) Variable(name string) (any, bool) {
	if x, ok := s.extra[name]; ok {
		return x, true
	}
	if s.tok != nil {
		if v, ok := s.tok.Locals[name]; ok {
			return plainOf(v), true
		}
	}
	return s.ir.plainVar(name)
}

func (s *scope) VariableNames() []string {
	var names []string
	for n := range s.ir.rec.Variables {
		names = append(names, n)
	}
	if s.tok != nil {
		for n := range s.tok.Locals {
			if _, dup := s.ir.rec.Variables[n]; !dup {
				names = append(names, n)
			}
		}
	}
	for n := range s.extra {
		names = append(names, n)
	}
	sort.Strings(names)
	return slices.Compact(names)
}

func (s *scope) SetVariable(name string, value any) error {
	v, err := typedOf(value)
	if err != nil {
		return err
	}
	if s.tok != nil {
		if _, local := s.tok.Locals[name]; local {
			s.tok.Locals[name] = v
			s.ir.dirty = true
			return nil
		}
	}
	s.ir.setVar(name, v)
	return nil
}

func (s *scope) RemoveVariable(name string) error {
	if s.tok != nil {
		if _, local := s.tok.Locals[name]; local {
			delete(s.tok.Locals, name)
			return nil
		}
	}
	s.ir.removeVar(name)
	return nil
}

func (s *scope) ExecutionProperty(name string) (any, bool) {
	switch name {
	case "processBusinessKey", "businessKey":
		return s.ir.rec.BusinessKey, true
	case "processInstanceId":
		return s.ir.rec.ID, true
	case "id":
		if s.tok != nil {
			return s.tok.ID, true
		}
		return s.ir.rec.ID, true
	case "activityId":
		if s.tok != nil {
			return s.tok.Elem, true
		}
		return nil, true
	case "processDefinitionId":
		return s.ir.rec.DefinitionID, true
	case "tenantId":
		if s.ir.rec.TenantID == "" {
			return nil, true
		}
		return s.ir.rec.TenantID, true
	}
	return nil, false
}

// element finds an element of the instance's process by id.
func (ir *irun) element(id string) (*bpmn.Element, error) {
	el := ir.pd.proc.ByID[id]
	if el == nil {
		return nil, engineError("process instance %s is at element '%s', which its process definition %s does not have", ir.rec.ID, id, ir.rec.DefinitionID)
	}
	return el, nil
}

// activityType is Operaton's activityType of an element in history.
func activityType(el *bpmn.Element) string {
	switch el.Kind {
	case bpmn.EndEvent:
		switch eventKind(el) {
		case bpmn.TerminateEvent:
			return "terminateEndEvent"
		case bpmn.ErrorEvent:
			return "errorEndEvent"
		}
		return "noneEndEvent"
	case bpmn.BoundaryEvent:
		if el.Event != nil && el.Event.Kind == bpmn.ErrorEvent {
			return "boundaryError"
		}
		return "boundaryEvent"
	case bpmn.IntermediateThrowEvent:
		return "intermediateNoneThrowEvent"
	case bpmn.StartEvent:
		return "startEvent"
	}
	return el.Kind.String()
}

// scriptFailure turns a script's error into the command's error: limits
// stay *bpmn.LimitError, other failures become Operaton's 500.
func (c *cmd) scriptFailure(ir *irun, el *bpmn.Element, err error) error {
	var le *bpmn.LimitError
	if errors.As(err, &le) {
		return err
	}
	var ve *engine.VariableError
	if errors.As(err, &ve) {
		return engineError("Unable to evaluate script while executing activity '%s' in the process definition with id '%s': %v", el.ID, ir.rec.DefinitionID, err)
	}
	return engineError("Unable to evaluate script while executing activity '%s' in the process definition with id '%s': %v", el.ID, ir.rec.DefinitionID, err)
}

func exprFailure(ir *irun, el *bpmn.Element, err error) error {
	var nf *bpmn.NoFlowError
	if errors.As(err, &nf) {
		return engineError("No outgoing sequence flow for the element with id '%s' could be selected for continuing the process", el.ID)
	}
	return engineError("Error while evaluating expression at element '%s' of process definition '%s': %v", el.ID, ir.rec.DefinitionID, err)
}

// enter moves a token onto an element.
func (c *cmd) enter(ir *irun, tok *token, el *bpmn.Element) error {
	ir.dirty = true
	tok.Elem, tok.Wait, tok.Called, tok.Locals, tok.result = el.ID, "", "", nil, nil
	tok.Act = el.ID + ":" + newUUID()
	tok.Start = c.now
	c.activity(ir, tok, el, nil, false)
	if el.Unsupported != "" {
		return engineError("Cannot execute element '%s' (%s) of process definition '%s': %s", el.ID, el.Kind, ir.rec.DefinitionID, el.Unsupported)
	}
	if err := c.listeners(ir, tok, el, "start"); err != nil {
		return err
	}
	if io := el.InputOutput; io != nil && len(io.Inputs) > 0 {
		tok.Locals = engine.Variables{}
		sc := c.scopeOf(ir, tok)
		for _, p := range io.Inputs {
			x, err := p.Value.Eval(c.ctx, sc, c.lim.script())
			if err != nil {
				return c.valueFailure(ir, el, err)
			}
			v, err := typedOf(x)
			if err != nil {
				return engineError("input parameter '%s' of element '%s': %v", p.Name, el.ID, err)
			}
			tok.Locals[p.Name] = v
		}
	}
	switch el.Kind {
	case bpmn.StartEvent, bpmn.Task, bpmn.ManualTask, bpmn.IntermediateThrowEvent, bpmn.BoundaryEvent, bpmn.ExclusiveGateway:
		c.push(work{ir: ir, tok: tok, el: el, leave: true})
	case bpmn.ParallelGateway:
		if len(el.Incoming) > 1 {
			key := tok.Scope + "/" + el.ID
			if ir.st.Joins == nil {
				ir.st.Joins = map[string]int{}
			}
			ir.st.Joins[key]++
			if ir.st.Joins[key] < len(el.Incoming) {
				// this token waits for the others: it is consumed here
				c.activity(ir, tok, el, &c.now, false)
				ir.removeToken(tok)
				return nil
			}
			delete(ir.st.Joins, key)
		}
		c.push(work{ir: ir, tok: tok, el: el, leave: true})
	case bpmn.EndEvent:
		return c.endEvent(ir, tok, el)
	case bpmn.ScriptTask:
		res, err := bpmn.RunScript(c.ctx, el.Script, c.scopeOf(ir, tok), c.lim.script())
		if err != nil {
			if code, msg, ok := bpmnErrorOf(err); ok {
				return c.throwError(ir, tok, code, msg)
			}
			return c.scriptFailure(ir, el, err)
		}
		if rv := el.Script.ResultVariable; rv != "" {
			v, err := typedOf(res)
			if err != nil {
				return c.scriptFailure(ir, el, err)
			}
			ir.setVar(rv, v)
		}
		c.push(work{ir: ir, tok: tok, el: el, leave: true})
	case bpmn.BusinessRuleTask:
		if err := c.businessRule(ir, tok, el); err != nil {
			return err
		}
		c.push(work{ir: ir, tok: tok, el: el, leave: true})
	case bpmn.UserTask:
		return c.createUserTask(ir, tok, el)
	case bpmn.ServiceTask:
		return c.createExternalTask(ir, tok, el)
	case bpmn.CallActivity:
		return c.callActivity(ir, tok, el)
	case bpmn.SubProcess:
		if el.Sub == nil || len(el.Sub.StartEvents) == 0 {
			return engineError("sub-process '%s' has no start event", el.ID)
		}
		tok.Wait = tok.ID
		child := &token{ID: newUUID(), Scope: tok.ID}
		ir.st.Tokens = append(ir.st.Tokens, child)
		c.push(work{ir: ir, tok: child, el: el.Sub.StartEvents[0]})
	default:
		return engineError("Cannot execute element '%s' (%s) of process definition '%s'", el.ID, el.Kind, ir.rec.DefinitionID)
	}
	return nil
}

func (c *cmd) valueFailure(ir *irun, el *bpmn.Element, err error) error {
	var le *bpmn.LimitError
	if errors.As(err, &le) {
		return err
	}
	var se *bpmn.ScriptError
	if errors.As(err, &se) {
		return c.scriptFailure(ir, el, err)
	}
	return exprFailure(ir, el, err)
}

// listeners runs the element's execution listeners of an event.
func (c *cmd) listeners(ir *irun, tok *token, el *bpmn.Element, event string) error {
	for _, l := range el.Listeners {
		if l.Task || l.EventName != event {
			continue
		}
		if err := c.listener(ir, tok, el, l); err != nil {
			return err
		}
	}
	return nil
}

func (c *cmd) listener(ir *irun, tok *token, el *bpmn.Element, l *bpmn.Listener) error {
	sc := c.scopeOf(ir, tok)
	switch {
	case l.Script != nil:
		if _, err := bpmn.RunScript(c.ctx, l.Script, sc, c.lim.script()); err != nil {
			return c.scriptFailure(ir, el, err)
		}
	case l.Expression != nil:
		if _, err := l.Expression.Eval(sc); err != nil {
			return exprFailure(ir, el, err)
		}
	}
	return nil
}

// leave moves a token out of an element along the flows it takes.
func (c *cmd) leave(ir *irun, tok *token, el *bpmn.Element) error {
	ir.dirty = true
	if io := el.InputOutput; io != nil && len(io.Outputs) > 0 {
		sc := c.scopeOf(ir, tok)
		if tok.result != nil {
			sc.extra = map[string]any{"decisionResult": tok.result}
		}
		type out struct {
			name string
			v    engine.Variable
		}
		var outs []out
		for _, p := range io.Outputs {
			x, err := p.Value.Eval(c.ctx, sc, c.lim.script())
			if err != nil {
				return c.valueFailure(ir, el, err)
			}
			v, err := typedOf(x)
			if err != nil {
				return engineError("output parameter '%s' of element '%s': %v", p.Name, el.ID, err)
			}
			outs = append(outs, out{p.Name, v})
		}
		for _, o := range outs {
			ir.setVar(o.name, o.v)
		}
	}
	if err := c.listeners(ir, tok, el, "end"); err != nil {
		return err
	}
	tok.Locals, tok.result = nil, nil
	c.activity(ir, tok, el, &c.now, false)
	if el.Kind == bpmn.EndEvent {
		return c.tokenEnds(ir, tok)
	}
	flows, err := el.Next(c.scopeOf(ir, tok))
	if err != nil {
		return exprFailure(ir, el, err)
	}
	if len(flows) == 0 {
		return c.tokenEnds(ir, tok)
	}
	for i := len(flows) - 1; i >= 1; i-- {
		nt := &token{ID: newUUID(), Scope: tok.Scope}
		ir.st.Tokens = append(ir.st.Tokens, nt)
		c.push(work{ir: ir, tok: nt, el: flows[i].Target})
	}
	c.push(work{ir: ir, tok: tok, el: flows[0].Target})
	return nil
}

// endEvent handles a token reaching an end event.
func (c *cmd) endEvent(ir *irun, tok *token, el *bpmn.Element) error {
	switch eventKind(el) {
	case bpmn.TerminateEvent:
		// end every other token of the scope, then the scope ends
		for _, t := range slices.Clone(ir.st.Tokens) {
			if t != tok && t.Scope == tok.Scope && ir.token(t.ID) != nil {
				if err := c.cancelToken(ir, t, "", engine.StateInternallyTerminated); err != nil {
					return err
				}
			}
		}
		for k := range ir.st.Joins {
			if strings.HasPrefix(k, tok.Scope+"/") {
				delete(ir.st.Joins, k)
			}
		}
	case bpmn.ErrorEvent:
		code, msg := "", ""
		if e := el.Event.Error; e != nil {
			code, msg = e.ErrorCode, e.Name
		}
		// the error end event completes; its token is gone before the
		// error cancels the scopes around it
		c.activity(ir, tok, el, &c.now, false)
		ir.removeToken(tok)
		return c.throwError(ir, tok, code, msg)
	}
	c.push(work{ir: ir, tok: tok, el: el, leave: true})
	return nil
}

func eventKind(el *bpmn.Element) bpmn.EventKind {
	if el.Event == nil {
		return bpmn.NoneEvent
	}
	return el.Event.Kind
}

// tokenEnds removes a token; the last token of a scope completes it.
func (c *cmd) tokenEnds(ir *irun, tok *token) error {
	ir.removeToken(tok)
	for _, t := range ir.st.Tokens {
		if t.Scope == tok.Scope {
			return nil
		}
	}
	if tok.Scope != "" {
		parent := ir.token(tok.Scope)
		if parent == nil {
			return nil
		}
		el, err := ir.element(parent.Elem)
		if err != nil {
			return err
		}
		parent.Wait = ""
		c.push(work{ir: ir, tok: parent, el: el, leave: true})
		return nil
	}
	if len(ir.st.Tokens) > 0 {
		return nil
	}
	ir.endAct = tok.Elem
	return c.completeInstance(ir)
}

// completeInstance ends an instance whose last token ended and resumes
// its caller.
func (c *cmd) completeInstance(ir *irun) error {
	ir.ended, ir.endSt, ir.histDirty = true, engine.StateCompleted, true
	if ir.rec.SuperInstanceID == "" {
		return nil
	}
	parent, err := c.load(ir.rec.SuperInstanceID)
	if err != nil {
		if errors.Is(err, ErrNoRecord) {
			return nil
		}
		return err
	}
	ptok := parent.tokenWaiting(ir.rec.ID)
	if ptok == nil {
		return nil
	}
	el, err := parent.element(ptok.Elem)
	if err != nil {
		return err
	}
	if el.Call != nil {
		sc := c.scopeOf(ir, nil)
		for _, m := range el.Call.Out {
			if err := c.mapVariables(m, sc, ir.rec.Variables, func(name string, v engine.Variable) {
				if m.Local && ptok.Locals != nil {
					ptok.Locals[name] = v
					return
				}
				parent.setVar(name, v)
			}); err != nil {
				return exprFailure(parent, el, err)
			}
		}
	}
	ptok.Wait = ""
	c.push(work{ir: parent, tok: ptok, el: el, leave: true})
	return nil
}

// mapVariables applies one camunda:in or camunda:out mapping.
func (c *cmd) mapVariables(m bpmn.VariableMapping, from *scope, vars engine.Variables, set func(string, engine.Variable)) error {
	switch {
	case m.All:
		names := make([]string, 0, len(vars))
		for n := range vars {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			set(n, vars[n])
		}
		if from.tok != nil {
			for n, v := range from.tok.Locals {
				set(n, v)
			}
		}
	case m.SourceExpression != nil:
		x, err := m.SourceExpression.Eval(from)
		if err != nil {
			return err
		}
		v, err := typedOf(x)
		if err != nil {
			return err
		}
		set(m.Target, v)
	case m.Source != "":
		target := m.Target
		if target == "" {
			target = m.Source
		}
		if from.tok != nil {
			if v, ok := from.tok.Locals[m.Source]; ok {
				set(target, v)
				return nil
			}
		}
		if v, ok := vars[m.Source]; ok {
			set(target, v)
		} else {
			set(target, engine.Null())
		}
	}
	return nil
}

// cancelToken ends a token that did not finish: its activity is
// canceled, a task it waits on deleted, a called instance terminated with
// childState, a sub-process's tokens canceled with it.
func (c *cmd) cancelToken(ir *irun, tok *token, reason, childState string) error {
	el, err := ir.element(tok.Elem)
	if err != nil {
		return err
	}
	switch {
	case tok.Wait == "":
	case el.Kind == bpmn.UserTask:
		if err := c.deleteUserTask(ir, tok.Wait, or(reason, "deleted")); err != nil {
			return err
		}
	case el.Kind == bpmn.ServiceTask:
		if err := c.deleteExternalTask(tok.Wait); err != nil {
			return err
		}
	case el.Kind == bpmn.CallActivity:
		child, err := c.load(tok.Wait)
		if err == nil {
			if err := c.cancelInstance(child, childState, reason); err != nil {
				return err
			}
		} else if !errors.Is(err, ErrNoRecord) {
			return err
		}
	case el.Kind == bpmn.SubProcess:
		for _, t := range slices.Clone(ir.st.Tokens) {
			if t.Scope == tok.ID && ir.token(t.ID) != nil {
				if err := c.cancelToken(ir, t, reason, childState); err != nil {
					return err
				}
			}
		}
	}
	c.activity(ir, tok, el, &c.now, true)
	ir.removeToken(tok)
	return nil
}

// or returns a, or b when a is empty.
func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// cancelInstance terminates an instance and everything it waits on.
func (c *cmd) cancelInstance(ir *irun, st, reason string) error {
	for _, t := range slices.Clone(ir.st.Tokens) {
		if ir.token(t.ID) == nil {
			continue
		}
		if err := c.cancelToken(ir, t, reason, st); err != nil {
			return err
		}
	}
	ir.ended, ir.endSt, ir.reason, ir.histDirty = true, st, reason, true
	return nil
}

// cancelCallers does for a cancelled called instance what Operaton does
// (a process instance modification that cancels the calling activity
// instance): the call activity waiting on it is cancelled, with the
// embedded sub-processes it leaves empty, and a caller left without any
// token is cancelled too (state st), and so on up the call chain. A
// caller with other branches still running continues without the call.
func (c *cmd) cancelCallers(child *irun, st, reason string) error {
	for cur := child; cur.rec.SuperInstanceID != ""; {
		parent, err := c.load(cur.rec.SuperInstanceID)
		if errors.Is(err, ErrNoRecord) {
			return nil
		}
		if err != nil {
			return err
		}
		ptok := parent.tokenWaiting(cur.rec.ID)
		if ptok == nil {
			return nil
		}
		ptok.Wait = "" // the called instance is cancelled already
		scope := ptok.Scope
		if err := c.cancelToken(parent, ptok, reason, st); err != nil {
			return err
		}
		for scope != "" && !slices.ContainsFunc(parent.st.Tokens, func(t *token) bool { return t.Scope == scope }) {
			sub := parent.token(scope)
			if sub == nil {
				break
			}
			scope = sub.Scope
			if err := c.cancelToken(parent, sub, reason, st); err != nil {
				return err
			}
		}
		if len(parent.st.Tokens) > 0 {
			return nil
		}
		if err := c.cancelInstance(parent, st, reason); err != nil {
			return err
		}
		cur = parent
	}
	return nil
}

// throwError throws a BPMN error from a token's activity: the nearest
// error boundary event that catches the code, on the activity, an
// enclosing sub-process or a calling activity, takes over; the activities
// in between are canceled. An uncaught error ends the token, as an error
// end event without a catcher does.
func (c *cmd) throwError(ir *irun, tok *token, code, msg string) error {
	cur, curTok := ir, tok
	for {
		el, err := cur.element(curTok.Elem)
		if err != nil {
			return err
		}
		if el.Kind != bpmn.EndEvent {
			for _, b := range el.Boundary {
				if b.Event == nil || b.Event.Kind != bpmn.ErrorEvent {
					continue
				}
				if b.Event.Error != nil && b.Event.Error.ErrorCode != "" && b.Event.Error.ErrorCode != code {
					continue
				}
				return c.catchError(cur, curTok, b)
			}
		}
		switch {
		case curTok.Scope != "":
			curTok = cur.token(curTok.Scope)
			if curTok == nil {
				return c.tokenEnds(ir, tok)
			}
		case cur.rec.SuperInstanceID != "":
			parent, err := c.load(cur.rec.SuperInstanceID)
			if err != nil {
				return err
			}
			pt := parent.tokenWaiting(cur.rec.ID)
			if pt == nil {
				return c.tokenEnds(ir, tok)
			}
			cur, curTok = parent, pt
		default:
			// uncaught: the throwing token ends
			if el, err := ir.element(tok.Elem); err == nil && el.Kind != bpmn.EndEvent {
				c.activity(ir, tok, el, &c.now, false)
			}
			return c.tokenEnds(ir, tok)
		}
	}
}

// catchError cancels the activity the boundary event is attached to
// (with everything inside it, the throwing activity too) and continues
// from the boundary event.
func (c *cmd) catchError(ir *irun, tok *token, b *bpmn.Element) error {
	if err := c.cancelToken(ir, tok, "", engine.StateInternallyTerminated); err != nil {
		return err
	}
	nt := &token{ID: newUUID(), Scope: tok.Scope}
	ir.st.Tokens = append(ir.st.Tokens, nt)
	c.push(work{ir: ir, tok: nt, el: b})
	return nil
}

// activity writes the history row of a token's activity (end nil: still
// running).
func (c *cmd) activity(ir *irun, tok *token, el *bpmn.Element, end *time.Time, canceled bool) {
	parent := ir.rec.ID
	if tok.Scope != "" {
		if st := ir.token(tok.Scope); st != nil {
			parent = st.Act
		}
	}
	a := engine.HistoricActivity{ID: tok.Act, ParentActivityInstanceID: parent, ActivityID: el.ID, ActivityName: el.Name,
		ActivityType: activityType(el), ProcessDefinitionKey: ir.pd.def.Key, ProcessDefinitionID: ir.rec.DefinitionID,
		ProcessInstanceID: ir.rec.ID, ExecutionID: tok.ID, StartTime: tok.Start, Canceled: canceled,
		TenantID: ir.rec.TenantID, RootProcessInstanceID: ir.rec.RootInstanceID}
	switch el.Kind {
	case bpmn.UserTask:
		a.TaskID = tok.Wait
		if i, ok := c.taskIdx[tok.Wait]; ok {
			a.Assignee = c.ch.Tasks[i].Task.Assignee
		} else if i, ok := c.actIdx[tok.Act]; ok {
			a.TaskID, a.Assignee = c.ch.History.Activities[i].TaskID, c.ch.History.Activities[i].Assignee
		}
	case bpmn.CallActivity:
		a.CalledProcessInstanceID = tok.Called
	case bpmn.EndEvent:
		a.CompleteScope = end != nil && !canceled
	}
	if end != nil {
		e := *end
		a.EndTime = &e
		d := e.Sub(tok.Start).Milliseconds()
		a.DurationInMillis = &d
	}
	if i, ok := c.actIdx[a.ID]; ok {
		if a.TaskID == "" {
			a.TaskID = c.ch.History.Activities[i].TaskID
		}
		c.ch.History.Activities[i] = a
		return
	}
	c.actIdx[a.ID] = len(c.ch.History.Activities)
	c.ch.History.Activities = append(c.ch.History.Activities, a)
}

// historicInstance is the history row of an instance as it is now.
func (c *cmd) historicInstance(ir *irun) engine.HistoricProcessInstance {
	h := engine.HistoricProcessInstance{ID: ir.rec.ID, BusinessKey: ir.rec.BusinessKey,
		ProcessDefinitionID: ir.rec.DefinitionID, ProcessDefinitionKey: ir.pd.def.Key, ProcessDefinitionName: ir.pd.def.Name,
		ProcessDefinitionVersion: ir.pd.def.Version, StartTime: ir.rec.StartTime, StartActivityID: ir.st.StartActivity,
		StartUserID:           ir.st.StartUser,
		RootProcessInstanceID: ir.rec.RootInstanceID, SuperProcessInstanceID: ir.rec.SuperInstanceID, TenantID: ir.rec.TenantID,
		State: engine.StateActive}
	if ir.rec.Suspended {
		h.State = engine.StateSuspended
	}
	if ir.ended {
		end := c.now
		h.EndTime = &end
		d := end.Sub(ir.rec.StartTime).Milliseconds()
		h.DurationInMillis = &d
		h.State = ir.endSt
		h.DeleteReason = ir.reason
		if ir.endSt == engine.StateCompleted {
			h.DeleteReason = ""
		}
	}
	return h
}

// commit writes what the command changed.
func (c *cmd) commit() error {
	var muniChanged []*irun
	for _, ir := range c.order {
		// variables that changed go to the store and its history: bounded
		// per instance, whether it runs on or ended
		if c.lim.MaxVariableBytes > 0 && len(ir.changed) > 0 {
			var n int64
			for name, v := range ir.rec.Variables {
				n += variableSize(name, v)
			}
			if n > c.lim.MaxVariableBytes {
				return &LimitError{Limit: "MaxVariableBytes", Max: c.lim.MaxVariableBytes}
			}
		}
	}
	for _, ir := range c.order {
		if ir.histDirty || ir.isNew {
			c.ch.History.ProcessInstances = append(c.ch.History.ProcessInstances, c.historicInstance(ir))
		}
		muni := ir.changed["municipality"]
		c.historyVariables(ir)
		switch {
		case ir.ended:
			if !ir.isNew {
				c.ch.DeleteInstances = append(c.ch.DeleteInstances, Ref{ir.rec.ID, ir.rec.Version})
			}
			continue
		case !ir.dirty && !ir.isNew:
			continue
		}
		data, err := json.Marshal(&ir.st)
		if err != nil {
			return engineError("the state of process instance %s cannot be written: %v", ir.rec.ID, err)
		}
		rec := ir.rec
		rec.State = data
		c.ch.Instances = append(c.ch.Instances, rec)
		if muni && !ir.isNew {
			muniChanged = append(muniChanged, ir)
		}
	}
	// open tasks carry their instance's municipality
	for _, ir := range muniChanged {
		m := MunicipalityOf(ir.rec.Variables)
		tasks, err := c.e.store.InstanceTasks(c.ctx, ir.rec.ID)
		if err != nil {
			return err
		}
		for _, t := range tasks {
			if c.delTask[t.Task.ID] {
				continue
			}
			if i, ok := c.taskIdx[t.Task.ID]; ok {
				c.ch.Tasks[i].Municipality = m
				continue
			}
			t.Municipality = m
			c.taskIdx[t.Task.ID] = len(c.ch.Tasks)
			c.ch.Tasks = append(c.ch.Tasks, t)
		}
	}
	for _, ir := range c.order {
		if ir.isNew || ir.ended {
			continue
		}
		m := MunicipalityOf(ir.rec.Variables)
		for i := range c.ch.Tasks {
			if c.ch.Tasks[i].Task.ProcessInstanceID == ir.rec.ID {
				c.ch.Tasks[i].Municipality = m
			}
		}
	}
	if c.ch.Empty() {
		return nil
	}
	return c.e.store.Commit(c.ctx, c.ch)
}

// variableID is the id of a variable's history row: one per instance and
// name, derived from both so that no state has to remember it (a name-based
// UUID, version 5 style, over SHA-256).
func variableID(instanceID, name string) string {
	h := sha256.New()
	h.Write([]byte(instanceID))
	h.Write([]byte{0})
	h.Write([]byte(name))
	var sum [sha256.Size]byte
	b := h.Sum(sum[:0])
	b[6] = b[6]&0x0f | 0x50
	b[8] = b[8]&0x3f | 0x80
	var out [36]byte
	hex.Encode(out[0:8], b[0:4])
	out[8] = '-'
	hex.Encode(out[9:13], b[4:6])
	out[13] = '-'
	hex.Encode(out[14:18], b[6:8])
	out[18] = '-'
	hex.Encode(out[19:23], b[8:10])
	out[23] = '-'
	hex.Encode(out[24:], b[10:16])
	return string(out[:])
}

// historyVariables writes the history rows of the variables the command
// set or removed.
func (c *cmd) historyVariables(ir *irun) {
	if len(ir.changed) == 0 {
		return
	}
	names := make([]string, 0, len(ir.changed))
	for n := range ir.changed {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		v, exists := ir.rec.Variables[n]
		h := engine.HistoricVariable{ID: variableID(ir.rec.ID, n), Name: n, Value: v, ProcessDefinitionKey: ir.pd.def.Key,
			ProcessDefinitionID: ir.rec.DefinitionID, ProcessInstanceID: ir.rec.ID, ExecutionID: ir.rec.ID,
			ActivityInstanceID: ir.rec.ID, TenantID: ir.rec.TenantID, State: "CREATED", CreateTime: c.now,
			RootProcessInstanceID: ir.rec.RootInstanceID}
		if !exists {
			h.State = "DELETED"
			h.Value = engine.Null()
		}
		c.ch.History.Variables = append(c.ch.History.Variables, h)
	}
	ir.changed = nil
}
