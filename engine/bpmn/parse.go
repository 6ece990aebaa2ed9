package bpmn

import (
	"fmt"
	"sort"
	"strings"
)

// XML namespaces.
const (
	NSBPMN     = "http://www.omg.org/spec/BPMN/20100524/MODEL"
	NSCamunda  = "http://camunda.org/schema/1.0/bpmn"
	NSOperaton = "http://operaton.org/schema/1.0/bpmn"
	NSRONL     = "http://ronl.nl/schema/1.0"
	nsModeler  = "http://camunda.org/schema/modeler/1.0"
)

// ParseOptions bound and name one parse. A zero field takes the default.
type ParseOptions struct {
	Resource    string // resource name used in errors, e.g. "aanvraag.bpmn"
	MaxBytes    int64  // size of the document; default 10 MiB
	MaxDepth    int    // XML element nesting; default 100
	MaxElements int    // XML elements, diagram included; default 50,000
}

func (o ParseOptions) resolved() ParseOptions {
	if o.MaxBytes <= 0 {
		o.MaxBytes = 10 << 20
	}
	if o.MaxDepth <= 0 {
		o.MaxDepth = 100
	}
	if o.MaxElements <= 0 {
		o.MaxElements = 50_000
	}
	return o
}

// Parse reads a BPMN 2.0 document with Camunda or Operaton extensions
// into an immutable, executable model: every expression is compiled with
// CompileExpr and every script with goja, every reference is resolved.
// Elements the embedded engine cannot execute are refused here, naming
// element id, line and column, except signal and conditional events,
// which deploy and carry Element.Unsupported. Processes with
// isExecutable="false" are skipped, as Operaton skips them. Errors are a
// *ParseError (malformed or oversized documents) or an ErrorList.
func Parse(data []byte, opts ParseOptions) (*Definitions, error) {
	o := opts.resolved()
	if int64(len(data)) > o.MaxBytes {
		return nil, &ParseError{Resource: o.Resource, Msg: fmt.Sprintf("document larger than %d bytes", o.MaxBytes)}
	}
	root, err := readTree(data, o)
	if err != nil {
		return nil, err
	}
	b := &builder{res: o.Resource, ids: map[string]*xnode{}}
	defs := b.definitions(root)
	if len(b.errs) > 0 {
		sort.SliceStable(b.errs, func(i, j int) bool {
			if b.errs[i].Line != b.errs[j].Line {
				return b.errs[i].Line < b.errs[j].Line
			}
			return b.errs[i].Column < b.errs[j].Column
		})
		if len(b.errs) > maxErrors {
			b.errs = b.errs[:maxErrors]
		}
		return nil, b.errs
	}
	return defs, nil
}

type builder struct {
	res  string
	errs ErrorList
	ids  map[string]*xnode
	defs *Definitions
}

// fail records a problem at n. Messages quote attribute values, so they
// and the id are cut to bounded excerpts: an error never echoes a
// megabyte attribute back.
func (b *builder) fail(n *xnode, format string, args ...any) {
	id, _ := n.attr("", "id")
	b.errs = append(b.errs, &ParseError{Resource: b.res, Line: n.line, Column: n.col,
		ElementID: excerpt(id, 100), Msg: excerpt(fmt.Sprintf(format, args...), 500)})
}

// ext reads a Camunda or Operaton extension attribute.
func ext(n *xnode, local string) (string, bool) {
	if v, ok := n.attr(NSCamunda, local); ok {
		return v, true
	}
	return n.attr(NSOperaton, local)
}

func isExtNS(space string) bool { return space == NSCamunda || space == NSOperaton }

// expr compiles an attribute value; absent or empty gives nil.
func (b *builder) expr(n *xnode, what, src string) *Expr {
	if src == "" {
		return nil
	}
	e, err := CompileExpr(src)
	if err != nil {
		b.fail(n, "%s: %v", what, strings.TrimPrefix(err.Error(), "bpmn: "))
		return nil
	}
	return e
}

func (b *builder) extExpr(n *xnode, local string) *Expr {
	v, _ := ext(n, local)
	return b.expr(n, "camunda:"+local, v)
}

func (b *builder) definitions(root *xnode) *Definitions {
	if root.name.Space != NSBPMN || root.name.Local != "definitions" {
		b.fail(root, "not a BPMN 2.0 document: root element is {%s}%s", root.name.Space, root.name.Local)
		return nil
	}
	d := &Definitions{Errors: map[string]*ErrorDef{}, Signals: map[string]*SignalDef{}, Messages: map[string]*MessageDef{}}
	b.defs = d
	d.ID, _ = root.attr("", "id")
	d.Name, _ = root.attr("", "name")
	d.TargetNamespace, _ = root.attr("", "targetNamespace")
	d.ExecutionPlatform, _ = root.attr(nsModeler, "executionPlatform")
	d.ExecutionPlatformVersion, _ = root.attr(nsModeler, "executionPlatformVersion")
	// Declarations first: events refer to them from anywhere.
	for _, k := range root.kids {
		if k.name.Space != NSBPMN {
			continue
		}
		id, _ := k.attr("", "id")
		name, _ := k.attr("", "name")
		switch k.name.Local {
		case "error":
			code, _ := k.attr("", "errorCode")
			d.Errors[id] = &ErrorDef{ID: id, Name: name, ErrorCode: code}
		case "signal":
			d.Signals[id] = &SignalDef{ID: id, Name: name}
		case "message":
			d.Messages[id] = &MessageDef{ID: id, Name: name}
		}
	}
	for _, k := range root.kids {
		if k.name.Space != NSBPMN {
			continue
		}
		switch k.name.Local {
		case "process":
			if v, _ := k.attr("", "isExecutable"); v == "false" {
				continue
			}
			if p := b.process(k); p != nil {
				d.Processes = append(d.Processes, p)
			}
		case "collaboration":
			c := &Collaboration{}
			c.ID, _ = k.attr("", "id")
			for _, pk := range k.kids {
				if pk.name.Space == NSBPMN && pk.name.Local == "participant" {
					var p Participant
					p.ID, _ = pk.attr("", "id")
					p.Name, _ = pk.attr("", "name")
					p.ProcessRef, _ = pk.attr("", "processRef")
					c.Participants = append(c.Participants, p)
				}
			}
			d.Collaborations = append(d.Collaborations, c)
		}
	}
	return d
}

func (b *builder) process(n *xnode) *Process {
	p := &Process{Line: n.line, Column: n.col, IsExecutable: true}
	p.ID, _ = n.attr("", "id")
	p.Name, _ = n.attr("", "name")
	if p.ID == "" {
		b.fail(n, "process without id")
	}
	b.register(n)
	p.HistoryTimeToLive, _ = ext(n, "historyTimeToLive")
	p.VersionTag, _ = ext(n, "versionTag")
	p.CandidateStarterGroups = b.extExpr(n, "candidateStarterGroups")
	p.CandidateStarterUsers = b.extExpr(n, "candidateStarterUsers")
	p.Scope = Scope{ByID: map[string]*Element{}}
	var laneSets []*xnode
	for _, k := range n.kids {
		if k.name.Space == NSBPMN && k.name.Local == "laneSet" {
			laneSets = append(laneSets, k)
		}
		if k.name.Space == NSBPMN && k.name.Local == "extensionElements" {
			var io *InputOutput
			p.Properties, p.Listeners, io = b.extensions(k, false, nil)
			if io != nil {
				b.fail(k, "camunda:inputOutput is not allowed on a process")
			}
		}
	}
	b.scope(n, &p.Scope, nil, p)
	for _, ls := range laneSets {
		b.lanes(ls, p)
	}
	if len(p.StartEvents) == 0 {
		b.fail(n, "process %q has no start event", p.ID)
	}
	b.checkLoops(&p.Scope)
	for _, e := range p.ByID {
		if e.Call != nil {
			if ce, ok := e.Call.CalledElement.Literal(); ok && ce == p.ID {
				b.fail(b.ids[e.ID], "call activity calls its own process %q", p.ID)
			}
		}
	}
	return p
}

func (b *builder) register(n *xnode) {
	id, _ := n.attr("", "id")
	if id == "" {
		return
	}
	if prev, ok := b.ids[id]; ok {
		b.fail(n, "duplicate id (first at line %d)", prev.line)
		return
	}
	b.ids[id] = n
}

func (b *builder) lanes(ls *xnode, p *Process) {
	for _, ln := range ls.kids {
		if ln.name.Space != NSBPMN || ln.name.Local != "lane" {
			continue
		}
		l := &Lane{}
		l.ID, _ = ln.attr("", "id")
		l.Name, _ = ln.attr("", "name")
		for _, r := range ln.kids {
			switch {
			case r.name.Space == NSBPMN && r.name.Local == "flowNodeRef":
				ref := strings.TrimSpace(r.text.String())
				e := p.ByID[ref]
				if e == nil {
					b.fail(r, "lane %q: unknown flowNodeRef %q", l.ID, ref)
					continue
				}
				e.Lane = l
				l.Elements = append(l.Elements, e)
			case r.name.Space == NSBPMN && r.name.Local == "childLaneSet":
				b.lanes(r, p)
			}
		}
		p.Lanes = append(p.Lanes, l)
	}
}

// Elements that carry no execution semantics, skipped in a scope.
var ignoredInScope = map[string]bool{
	"documentation": true, "extensionElements": true, "textAnnotation": true, "association": true,
	"dataObject": true, "dataObjectReference": true, "dataStoreReference": true, "group": true,
	"laneSet": true, "ioSpecification": true, "property": true, "category": true,
	// children of a sub-process that belong to it as an activity, read by element
	"incoming": true, "outgoing": true, "multiInstanceLoopCharacteristics": true,
	"standardLoopCharacteristics": true, "dataInputAssociation": true, "dataOutputAssociation": true,
}

var flowNodeKinds = map[string]Kind{
	"startEvent": StartEvent, "endEvent": EndEvent, "intermediateThrowEvent": IntermediateThrowEvent,
	"intermediateCatchEvent": IntermediateCatchEvent, "boundaryEvent": BoundaryEvent, "task": Task,
	"userTask": UserTask, "manualTask": ManualTask, "scriptTask": ScriptTask,
	"businessRuleTask": BusinessRuleTask, "serviceTask": ServiceTask, "sendTask": ServiceTask,
	"callActivity": CallActivity, "subProcess": SubProcess, "exclusiveGateway": ExclusiveGateway,
	"parallelGateway": ParallelGateway,
}

var unsupportedInScope = map[string]string{
	"inclusiveGateway":  "inclusive gateways are not supported",
	"eventBasedGateway": "event-based gateways are not supported",
	"complexGateway":    "complex gateways are not supported",
	"receiveTask":       "receive tasks (messages) are not supported",
	"transaction":       "transactions are not supported",
	"adHocSubProcess":   "ad-hoc sub-processes are not supported",
}

// scope reads the flow elements of a process or sub-process. Recursion
// follows sub-process nesting, which readTree bounds.
func (b *builder) scope(n *xnode, s *Scope, parent *Element, p *Process) {
	var flows []*xnode
	for _, k := range n.kids {
		if k.name.Space != NSBPMN {
			continue
		}
		local := k.name.Local
		if kind, ok := flowNodeKinds[local]; ok {
			if e := b.element(k, kind, parent, p); e != nil {
				s.Elements = append(s.Elements, e)
				if _, dup := p.ByID[e.ID]; !dup {
					p.ByID[e.ID] = e
				}
				if s != &p.Scope {
					s.ByID[e.ID] = e
				}
			}
			continue
		}
		switch {
		case local == "sequenceFlow":
			flows = append(flows, k)
		case ignoredInScope[local]:
		case unsupportedInScope[local] != "":
			b.register(k)
			b.fail(k, "%s", unsupportedInScope[local])
		default:
			b.fail(k, "unsupported element <%s>", local)
		}
	}
	local := map[string]*Element{}
	for _, e := range s.Elements {
		local[e.ID] = e
	}
	for _, fk := range flows {
		b.register(fk)
		f := &Flow{Line: fk.line, Column: fk.col}
		f.ID, _ = fk.attr("", "id")
		f.Name, _ = fk.attr("", "name")
		src, _ := fk.attr("", "sourceRef")
		dst, _ := fk.attr("", "targetRef")
		f.Source, f.Target = local[src], local[dst]
		if f.Source == nil {
			b.fail(fk, "sequence flow: %s", b.unknownRef("sourceRef", src, p))
		}
		if f.Target == nil {
			b.fail(fk, "sequence flow: %s", b.unknownRef("targetRef", dst, p))
		}
		for _, c := range fk.kids {
			if c.name.Space == NSBPMN && c.name.Local == "conditionExpression" {
				if lang, _ := c.attr("", "language"); lang != "" && !strings.EqualFold(lang, "juel") {
					b.fail(c, "condition language %q is not supported (only JUEL expressions)", lang)
					continue
				}
				if res, ok := ext(c, "resource"); ok {
					b.fail(c, "external condition resource %q is not supported", res)
					continue
				}
				src := strings.TrimSpace(c.text.String())
				if src == "" {
					b.fail(fk, "empty conditionExpression")
					continue
				}
				f.Condition = b.expr(fk, "condition", src)
			}
		}
		s.Flows = append(s.Flows, f)
		if f.Source != nil && f.Target != nil {
			f.Source.Outgoing = append(f.Source.Outgoing, f)
			f.Target.Incoming = append(f.Target.Incoming, f)
		}
	}
	// Second pass: references between elements of this scope.
	for _, k := range n.kids {
		if k.name.Space != NSBPMN {
			continue
		}
		id, _ := k.attr("", "id")
		e := local[id]
		if e == nil {
			continue
		}
		if def, ok := k.attr("", "default"); ok && def != "" {
			for _, f := range e.Outgoing {
				if f.ID == def {
					e.Default = f
				}
			}
			if e.Default == nil {
				b.fail(k, "default flow %q is not an outgoing sequence flow of %q", def, id)
			}
		}
		if e.Kind == BoundaryEvent {
			ref, _ := k.attr("", "attachedToRef")
			host := local[ref]
			switch {
			case host == nil:
				b.fail(k, "boundary event: %s", b.unknownRef("attachedToRef", ref, p))
			case !isActivity(host.Kind):
				b.fail(k, "boundary event attached to %s %q, which is not an activity", host.Kind, ref)
			default:
				e.AttachedTo = host
				host.Boundary = append(host.Boundary, e)
			}
		}
	}
	for _, e := range s.Elements {
		b.validate(e)
		if e.Kind == StartEvent {
			s.StartEvents = append(s.StartEvents, e)
		}
	}
	if parent != nil {
		none := 0
		for _, st := range s.StartEvents {
			if st.Event.Kind == NoneEvent {
				none++
			}
		}
		if none != 1 {
			b.fail(n, "an embedded sub-process needs exactly one start event without event definition, found %d", none)
		}
	}
}

func (b *builder) unknownRef(attr, ref string, p *Process) string {
	if ref == "" {
		return "missing " + attr
	}
	if _, ok := p.ByID[ref]; ok {
		return fmt.Sprintf("%s %q is in another (sub-)process", attr, ref)
	}
	return fmt.Sprintf("unknown %s %q", attr, ref)
}

func isActivity(k Kind) bool {
	switch k {
	case Task, UserTask, ManualTask, ScriptTask, BusinessRuleTask, ServiceTask, CallActivity, SubProcess:
		return true
	}
	return false
}

func (b *builder) validate(e *Element) {
	n := b.ids[e.ID]
	switch e.Kind {
	case StartEvent, BoundaryEvent:
		if len(e.Incoming) > 0 {
			b.fail(n, "a %s cannot have incoming sequence flows", e.Kind)
		}
	case EndEvent:
		if len(e.Outgoing) > 0 {
			b.fail(n, "an end event cannot have outgoing sequence flows")
		}
	case ExclusiveGateway, ParallelGateway:
		if len(e.Outgoing) == 0 {
			b.fail(n, "%s has no outgoing sequence flow", e.Kind)
		}
		if len(e.Incoming) == 0 {
			b.fail(n, "%s has no incoming sequence flow", e.Kind)
		}
	}
	if e.Kind == ExclusiveGateway && len(e.Outgoing) > 1 {
		for _, f := range e.Outgoing {
			if f.Condition == nil && f != e.Default {
				b.fail(n, "outgoing sequence flow %q of exclusive gateway has no condition and is not the default flow", f.ID)
			}
		}
	}
	if e.Kind == ParallelGateway && e.Default != nil {
		b.fail(n, "a parallel gateway cannot have a default flow")
	}
	if e.Default != nil && e.Default.Condition != nil && e.Kind == ExclusiveGateway {
		b.fail(n, "default flow %q has a condition", e.Default.ID)
	}
}

// checkLoops refuses a cycle through elements that neither wait nor
// choose: each has exactly one outgoing flow, so a token would run round
// it for ever. Loops with a gateway or a wait state are left to the
// runtime's step budget.
func (b *builder) checkLoops(s *Scope) {
	passes := func(e *Element) bool {
		switch e.Kind {
		case Task, ManualTask, ScriptTask, BusinessRuleTask, ExclusiveGateway, ParallelGateway, IntermediateThrowEvent:
			return len(e.Outgoing) == 1 && len(e.Boundary) == 0 && e.Unsupported == ""
		}
		return false
	}
	done := map[*Element]bool{}
	for _, start := range s.Elements {
		if done[start] || !passes(start) {
			continue
		}
		seen := map[*Element]int{}
		var path []*Element
		e := start
		for e != nil && passes(e) && !done[e] {
			if i, ok := seen[e]; ok {
				ids := make([]string, 0, len(path)-i)
				for _, c := range path[i:] {
					ids = append(ids, c.ID)
				}
				b.fail(b.ids[e.ID], "sequence flows loop through %s without a wait state or a choice", strings.Join(ids, " → "))
				break
			}
			seen[e] = len(path)
			path = append(path, e)
			e = e.Outgoing[0].Target
		}
		for _, c := range path {
			done[c] = true
		}
	}
	for _, e := range s.Elements {
		if e.Sub != nil {
			b.checkLoops(e.Sub)
		}
	}
}
