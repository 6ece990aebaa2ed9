package bpmn

import (
	"fmt"
	"strings"
)

// Child elements of flow nodes without execution semantics.
var ignoredInElement = map[string]bool{
	"incoming": true, "outgoing": true, "documentation": true, "ioSpecification": true,
	"dataInputAssociation": true, "dataOutputAssociation": true, "property": true,
	"extensionElements": true, "script": true, "conditionExpression": true,
}

var eventDefinitions = map[string]bool{
	"terminateEventDefinition": true, "errorEventDefinition": true, "signalEventDefinition": true,
	"conditionalEventDefinition": true, "messageEventDefinition": true, "timerEventDefinition": true,
	"escalationEventDefinition": true, "compensateEventDefinition": true, "cancelEventDefinition": true,
	"linkEventDefinition": true,
}

func (b *builder) element(n *xnode, kind Kind, parent *Element, p *Process) *Element {
	b.register(n)
	e := &Element{Kind: kind, Line: n.line, Column: n.col, Parent: parent}
	e.ID, _ = n.attr("", "id")
	e.Name, _ = n.attr("", "name")
	if e.ID == "" {
		b.fail(n, "<%s> without id", n.name.Local)
		return nil
	}
	e.AsyncBefore = boolAttr(n, "asyncBefore") || boolAttr(n, "async")
	e.AsyncAfter = boolAttr(n, "asyncAfter")
	for _, a := range n.attrs {
		if a.Name.Space == NSRONL {
			if e.Extensions == nil {
				e.Extensions = map[string]string{}
			}
			e.Extensions[a.Name.Local] = a.Value
		}
	}
	var defs []*xnode
	for _, k := range n.kids {
		if k.name.Space != NSBPMN {
			continue
		}
		switch {
		case k.name.Local == "extensionElements":
			e.Properties, e.Listeners, e.InputOutput = b.extensions(k, kind == UserTask, e)
		case eventDefinitions[k.name.Local]:
			defs = append(defs, k)
		case k.name.Local == "multiInstanceLoopCharacteristics" || k.name.Local == "standardLoopCharacteristics":
			b.fail(k, "loops and multi-instance activities are not supported")
		case ignoredInElement[k.name.Local]:
		case kind == SubProcess:
			// flow elements, read by scope below
		default:
			b.fail(k, "unsupported element <%s> in %s %q", k.name.Local, n.name.Local, e.ID)
		}
	}
	switch kind {
	case StartEvent, EndEvent, IntermediateThrowEvent, IntermediateCatchEvent, BoundaryEvent:
		b.event(n, e, defs)
	default:
		if len(defs) > 0 {
			b.fail(defs[0], "an event definition is only allowed in an event")
		}
	}
	switch kind {
	case StartEvent:
		e.Form = b.form(n)
		e.Event.Initiator, _ = ext(n, "initiator")
	case UserTask:
		e.Form = b.form(n)
		e.User = &UserTaskDef{
			Assignee:        b.extExpr(n, "assignee"),
			CandidateUsers:  b.extExpr(n, "candidateUsers"),
			CandidateGroups: b.extExpr(n, "candidateGroups"),
			DueDate:         b.extExpr(n, "dueDate"),
			FollowUpDate:    b.extExpr(n, "followUpDate"),
			Priority:        b.extExpr(n, "priority"),
		}
	case ScriptTask:
		e.Script = b.script(n, e.ID)
	case BusinessRuleTask:
		b.noDelegate(n, "business-rule tasks need camunda:decisionRef")
		ref, _ := ext(n, "decisionRef")
		if ref == "" {
			b.fail(n, "business-rule task without camunda:decisionRef")
		}
		d := &DecisionRef{
			Ref:        b.expr(n, "camunda:decisionRef", ref),
			Binding:    b.binding(n, "decisionRefBinding", "latest", "deployment", "version", "versionTag"),
			Version:    b.extExpr(n, "decisionRefVersion"),
			VersionTag: b.extExpr(n, "decisionRefVersionTag"),
			TenantID:   b.extExpr(n, "decisionRefTenantId"),
		}
		d.ResultVariable, _ = ext(n, "resultVariable")
		d.MapResult, _ = ext(n, "mapDecisionResult")
		switch d.MapResult {
		case "":
			d.MapResult = MapResultList
		case MapSingleEntry, MapSingleResult, MapCollectEntries, MapResultList:
		default:
			b.fail(n, "camunda:mapDecisionResult %q is not one of singleEntry, singleResult, collectEntries, resultList", d.MapResult)
		}
		e.Decision = d
	case ServiceTask:
		b.noDelegate(n, "service tasks must be external tasks (camunda:type=\"external\" with camunda:topic)")
		typ, _ := ext(n, "type")
		topic, _ := ext(n, "topic")
		switch {
		case typ != "external":
			b.fail(n, "%s without camunda:type=\"external\": only external tasks can run in the embedded engine", n.name.Local)
		case topic == "":
			b.fail(n, "external task without camunda:topic")
		}
		e.External = &ExternalTask{Topic: b.expr(n, "camunda:topic", topic), Priority: b.extExpr(n, "taskPriority")}
	case CallActivity:
		ce, _ := n.attr("", "calledElement")
		if ce == "" {
			if _, ok := ext(n, "caseRef"); ok {
				b.fail(n, "call activities of CMMN cases are not supported")
			} else {
				b.fail(n, "call activity without calledElement")
			}
		}
		for _, a := range []string{"variableMappingClass", "variableMappingDelegateExpression"} {
			if _, ok := ext(n, a); ok {
				b.fail(n, "camunda:%s is not supported", a)
			}
		}
		c := &CallDef{
			CalledElement: b.expr(n, "calledElement", ce),
			Binding:       b.binding(n, "calledElementBinding", "latest", "deployment", "version", "versionTag"),
			Version:       b.extExpr(n, "calledElementVersion"),
			VersionTag:    b.extExpr(n, "calledElementVersionTag"),
			TenantID:      b.extExpr(n, "calledElementTenantId"),
		}
		if c.CalledElement == nil {
			c.CalledElement = &Expr{parts: []exprPart{{}}}
		}
		b.callMappings(n, c)
		e.Call = c
	case SubProcess:
		if v, _ := n.attr("", "triggeredByEvent"); v == "true" {
			b.fail(n, "event sub-processes are not supported")
			return e
		}
		e.Sub = &Scope{ByID: map[string]*Element{}}
		b.scope(n, e.Sub, e, p)
	case Task, ManualTask:
		b.noDelegate(n, "")
	}
	return e
}

func boolAttr(n *xnode, local string) bool {
	v, _ := ext(n, local)
	return v == "true"
}

// noDelegate refuses Java delegates and delegate expressions, which the
// embedded engine cannot run.
func (b *builder) noDelegate(n *xnode, hint string) {
	for _, a := range []string{"class", "expression", "delegateExpression"} {
		if v, ok := ext(n, a); ok {
			msg := fmt.Sprintf("camunda:%s=%q cannot run in the embedded engine", a, excerpt(v, 80))
			if hint != "" {
				msg += "; " + hint
			}
			b.fail(n, "%s", msg)
		}
	}
}

func (b *builder) binding(n *xnode, attr string, allowed ...string) string {
	v, ok := ext(n, attr)
	if !ok || v == "" {
		return allowed[0]
	}
	for _, a := range allowed {
		if v == a {
			return v
		}
	}
	b.fail(n, "camunda:%s %q is not one of %s", attr, v, strings.Join(allowed, ", "))
	return allowed[0]
}

func (b *builder) form(n *xnode) *Form {
	key, hasKey := ext(n, "formKey")
	ref, hasRef := ext(n, "formRef")
	if !hasKey && !hasRef {
		if _, ok := ext(n, "formHandlerClass"); ok {
			b.fail(n, "camunda:formHandlerClass is not supported")
		}
		return nil
	}
	if hasKey && hasRef {
		b.fail(n, "both camunda:formKey and camunda:formRef are set")
	}
	f := &Form{Key: b.expr(n, "camunda:formKey", key), Ref: b.expr(n, "camunda:formRef", ref)}
	if hasRef {
		f.RefBinding = b.binding(n, "formRefBinding", "latest", "deployment", "version")
		f.RefVersion = b.extExpr(n, "formRefVersion")
		if f.RefBinding == "version" && f.RefVersion == nil {
			b.fail(n, "camunda:formRefBinding=\"version\" without camunda:formRefVersion")
		}
	}
	return f
}

func (b *builder) event(n *xnode, e *Element, defs []*xnode) {
	e.Event = &Event{}
	if e.Kind == BoundaryEvent {
		e.CancelActivity = true
		if v, ok := n.attr("", "cancelActivity"); ok && v == "false" {
			e.CancelActivity = false
		}
	}
	if len(defs) > 1 {
		b.fail(defs[1], "events with several event definitions are not supported")
		return
	}
	if len(defs) == 0 {
		switch e.Kind {
		case BoundaryEvent:
			b.fail(n, "boundary event without event definition")
		case IntermediateCatchEvent:
			b.fail(n, "intermediate catch event without event definition")
		}
		return
	}
	d := defs[0]
	switch d.name.Local {
	case "terminateEventDefinition":
		if e.Kind != EndEvent {
			b.fail(d, "a terminate event definition is only allowed in an end event")
		}
		e.Event.Kind = TerminateEvent
	case "errorEventDefinition":
		e.Event.Kind = ErrorEvent
		switch e.Kind {
		case EndEvent, BoundaryEvent:
		case StartEvent:
			b.fail(d, "error start events (event sub-processes) are not supported")
		default:
			b.fail(d, "an error event definition is only allowed in an end or boundary event")
		}
		if ref, _ := d.attr("", "errorRef"); ref != "" {
			e.Event.Error = b.defs.Errors[ref]
			if e.Event.Error == nil {
				b.fail(d, "unknown errorRef %q", ref)
			}
		} else if e.Kind == EndEvent {
			b.fail(d, "error end event without errorRef")
		}
		if e.Kind == BoundaryEvent && !e.CancelActivity {
			b.fail(n, "an error boundary event always interrupts (cancelActivity=\"false\" is not allowed)")
		}
	case "signalEventDefinition":
		e.Event.Kind = SignalEvent
		ref, _ := d.attr("", "signalRef")
		if ref != "" {
			e.Event.Signal = b.defs.Signals[ref]
			if e.Event.Signal == nil {
				b.fail(d, "unknown signalRef %q", ref)
			}
		}
		e.Unsupported = fmt.Sprintf("signal events are not supported by the embedded engine (%s %q)", e.Kind, e.ID)
	case "conditionalEventDefinition":
		e.Event.Kind = ConditionalEvent
		for _, c := range d.kids {
			if c.name.Space == NSBPMN && c.name.Local == "condition" {
				e.Event.Condition = b.expr(d, "condition", strings.TrimSpace(c.text.String()))
			}
		}
		e.Unsupported = fmt.Sprintf("conditional events are not supported by the embedded engine (%s %q)", e.Kind, e.ID)
	default:
		b.fail(d, "%s is not supported", d.name.Local)
	}
}

func (b *builder) script(n *xnode, id string) *Script {
	format, _ := n.attr("", "scriptFormat")
	if !isJavaScript(format) {
		b.fail(n, "scriptFormat %q is not supported (only javascript)", format)
		return nil
	}
	if res, ok := ext(n, "resource"); ok {
		b.fail(n, "external script resource %q is not supported; inline the script", res)
		return nil
	}
	var body *xnode
	for _, k := range n.kids {
		if k.name.Space == NSBPMN && k.name.Local == "script" {
			body = k
		}
	}
	if body == nil || strings.TrimSpace(body.text.String()) == "" {
		b.fail(n, "script task without script")
		return nil
	}
	s := &Script{Format: format, Source: body.text.String()}
	s.ResultVariable, _ = ext(n, "resultVariable")
	b.compileScript(n, id, s, body.line)
	return s
}

func isJavaScript(format string) bool {
	switch strings.ToLower(format) {
	case "javascript", "js", "ecmascript":
		return true
	}
	return false
}

func (b *builder) compileScript(n *xnode, id string, s *Script, line int) {
	prog, err := compileJS(id, s.Source)
	if err != nil {
		b.fail(n, "script does not compile (script starting at line %d): %v", line, err)
		return
	}
	s.program = prog
}

func (b *builder) callMappings(n *xnode, c *CallDef) {
	for _, k := range n.kids {
		if k.name.Space != NSBPMN || k.name.Local != "extensionElements" {
			continue
		}
		for _, m := range k.kids {
			if !isExtNS(m.name.Space) || m.name.Local != "in" && m.name.Local != "out" {
				continue
			}
			if bk, ok := m.attr("", "businessKey"); ok {
				if m.name.Local == "out" {
					b.fail(m, "camunda:out cannot carry a businessKey")
				}
				c.BusinessKey = b.expr(m, "businessKey", bk)
				continue
			}
			var vm VariableMapping
			vars, _ := m.attr("", "variables")
			vm.All = vars == "all"
			if vars != "" && !vm.All {
				b.fail(m, "variables=%q: only \"all\" is allowed", vars)
			}
			local, _ := m.attr("", "local")
			vm.Local = local == "true"
			vm.Source, _ = m.attr("", "source")
			if se, ok := m.attr("", "sourceExpression"); ok {
				vm.SourceExpression = b.expr(m, "sourceExpression", se)
			}
			vm.Target, _ = m.attr("", "target")
			if !vm.All {
				if vm.Source == "" && vm.SourceExpression == nil {
					b.fail(m, "camunda:%s needs source, sourceExpression or variables=\"all\"", m.name.Local)
				}
				if vm.Target == "" {
					b.fail(m, "camunda:%s without target", m.name.Local)
				}
			}
			if m.name.Local == "in" {
				c.In = append(c.In, vm)
			} else {
				c.Out = append(c.Out, vm)
			}
		}
	}
}

// extensions reads camunda:properties, listeners and camunda:inputOutput
// of an extensionElements; foreign namespaces are ignored, unknown
// Camunda/Operaton extensions are refused.
func (b *builder) extensions(n *xnode, userTask bool, e *Element) (map[string]string, []*Listener, *InputOutput) {
	var props map[string]string
	var ls []*Listener
	var io *InputOutput
	for _, k := range n.kids {
		if !isExtNS(k.name.Space) {
			continue
		}
		switch k.name.Local {
		case "properties":
			for _, pk := range k.kids {
				if isExtNS(pk.name.Space) && pk.name.Local == "property" {
					if props == nil {
						props = map[string]string{}
					}
					name, _ := pk.attr("", "name")
					val, _ := pk.attr("", "value")
					props[name] = val
				}
			}
		case "inputOutput":
			if e == nil {
				io = &InputOutput{}
				continue
			}
			io = &InputOutput{}
			for _, pk := range k.kids {
				if !isExtNS(pk.name.Space) {
					continue
				}
				name, _ := pk.attr("", "name")
				if name == "" {
					b.fail(pk, "camunda:%s without name", pk.name.Local)
					continue
				}
				p := Parameter{Name: name, Value: b.paramValue(pk, e.ID)}
				switch pk.name.Local {
				case "inputParameter":
					io.Inputs = append(io.Inputs, p)
				case "outputParameter":
					io.Outputs = append(io.Outputs, p)
				default:
					b.fail(pk, "unsupported camunda:%s in camunda:inputOutput", pk.name.Local)
				}
			}
		case "executionListener", "taskListener":
			if k.name.Local == "taskListener" && !userTask {
				b.fail(k, "camunda:taskListener outside a user task")
				continue
			}
			l := &Listener{Task: k.name.Local == "taskListener"}
			l.EventName, _ = k.attr("", "event")
			for _, a := range []string{"class", "delegateExpression"} {
				if v, ok := k.attr("", a); ok {
					b.fail(k, "listener with %s=%q cannot run in the embedded engine; use an expression or a javascript script", a, excerpt(v, 80))
				}
			}
			if v, ok := k.attr("", "expression"); ok {
				l.Expression = b.expr(k, "listener expression", v)
			}
			for _, sk := range k.kids {
				if isExtNS(sk.name.Space) && sk.name.Local == "script" {
					format, _ := sk.attr("", "scriptFormat")
					if !isJavaScript(format) {
						b.fail(sk, "scriptFormat %q is not supported (only javascript)", format)
						continue
					}
					if res, ok := sk.attr("", "resource"); ok {
						b.fail(sk, "external script resource %q is not supported; inline the script", res)
						continue
					}
					l.Script = &Script{Format: format, Source: sk.text.String()}
					id := "listener"
					if e != nil {
						id = e.ID
					}
					b.compileScript(sk, id, l.Script, sk.line)
				}
			}
			ls = append(ls, l)
		case "in", "out", "failedJobRetryTimeCycle", "field":
			// in/out: read by callMappings; the others need no runtime here.
		case "formData":
			b.fail(k, "generated task forms (camunda:formData) are not supported; use camunda:formRef with a form-js form")
		case "connector":
			b.fail(k, "connectors cannot run in the embedded engine; use an external task")
		default:
			b.fail(k, "unsupported extension camunda:%s", k.name.Local)
		}
	}
	return props, ls, io
}

// paramValue reads an input/output parameter: text, camunda:list,
// camunda:map or camunda:script; nesting follows the document, which
// readTree bounds.
func (b *builder) paramValue(n *xnode, id string) ParamValue {
	for _, k := range n.kids {
		if !isExtNS(k.name.Space) {
			continue
		}
		switch k.name.Local {
		case "list":
			v := ParamValue{IsList: true}
			for _, c := range k.kids {
				if isExtNS(c.name.Space) && c.name.Local == "value" {
					v.List = append(v.List, b.paramValue(c, id))
				}
			}
			return v
		case "map":
			v := ParamValue{IsMap: true}
			for _, c := range k.kids {
				if isExtNS(c.name.Space) && c.name.Local == "entry" {
					key, _ := c.attr("", "key")
					v.Map = append(v.Map, MapEntry{Key: key, Value: b.paramValue(c, id)})
				}
			}
			return v
		case "script":
			format, _ := k.attr("", "scriptFormat")
			if !isJavaScript(format) {
				b.fail(k, "scriptFormat %q is not supported (only javascript)", format)
				return ParamValue{}
			}
			s := &Script{Format: format, Source: k.text.String()}
			b.compileScript(k, id, s, k.line)
			return ParamValue{Script: s}
		default:
			b.fail(k, "unsupported camunda:%s in a parameter", k.name.Local)
			return ParamValue{}
		}
	}
	text := n.text.String()
	if strings.TrimSpace(text) == "" {
		return ParamValue{}
	}
	return ParamValue{Text: b.expr(n, "parameter "+excerpt(strings.TrimSpace(text), 40), strings.TrimSpace(text))}
}
