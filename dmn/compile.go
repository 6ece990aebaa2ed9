package dmn

import (
	"errors"
	"fmt"
	"strings"

	"github.com/regelkit/regelkit/dmn/feel"
)

// Options change how a model is compiled and evaluated.
type Options struct {
	// Operaton makes Evaluate behave like the Operaton / Camunda 7 DMN
	// engine: required decisions are evaluated depth-first in document
	// order and share one variable map with the inputs; each result list
	// (DecisionResult.Rows) is merged into it by output name (one row:
	// its entries; several rows, COLLECT or RULE ORDER: a list per
	// output; no row: nothing). Inside a table's input entries the input's
	// value is also cellInput (or the name camunda:inputVariable gives);
	// empty output entries are left out of a rule's result. A decision
	// that fails — a reference to a variable that is not in the map, a
	// violated hit policy, an expression that did not compile — fails the
	// evaluation with an *EvalError. Inputs are not converted against
	// typeRefs.
	Operaton bool
}

// Problem is a compile-time problem in one element of the model (a FEEL
// syntax error, an unknown type or reference). The element evaluates to
// null with the problem as its message.
type Problem struct {
	ElementID string
	Pos       Pos
	Msg       string
}

func (p Problem) String() string {
	s := ""
	if p.Pos.Line > 0 {
		s = fmt.Sprintf("%d:%d: ", p.Pos.Line, p.Pos.Column)
	}
	if p.ElementID != "" {
		s += p.ElementID + ": "
	}
	return s + p.Msg
}

type elemKind uint8

const (
	kInput elemKind = iota
	kDecision
	kBKM
	kService
)

type element struct {
	kind   elemKind
	idx    int
	defs   *compiledDefs
	id     string
	name   string
	typ    *feel.Type
	pos    Pos
	dec    *Decision
	reqs   []*element // required decisions and input data
	knows  []*element // required BKMs and decision services
	logic  boxed
	table  *compiledTable // when the decision's logic is a decision table
	fn     *feel.Function // BKMs and decision services
	svc    *DecisionService
	svcOut []*element
	svcIn  []*element // input decisions then input data (the service's parameters)
	// scope of a decision: names and how to get their values
	scopeNames []string
	// staticNames are the frame names (requirements, then knowledge) when no
	// requirement comes from an imported model
	staticNames []string
	problem     *Problem // a problem that makes the decision fail
	// resultNames names the one entry of the result row of a decision
	// whose logic is not a table: its variable's name, else its name
	resultNames []string
	// knowNames and knowValues bind the required BKMs and decision
	// services (Operaton mode)
	knowNames  []string
	knowValues []feel.Value
	// opOrder lists the decisions Operaton evaluates for this one, ending
	// with it (Operaton mode)
	opOrder []*element
}

type compiledDefs struct {
	d        *Definitions
	m        *Model
	imports  map[string]*compiledDefs // by import name
	nsImport map[string]string        // namespace -> import name
	items    map[string]*ItemDefinition
	types    map[string]*feel.Type
	byID     map[string]*element
	byName   map[string]*element
	el       map[any]*element // by *InputData, *Decision, *BKM, *DecisionService
}

// Model is a compiled set of DMN definitions, ready to evaluate. It is
// immutable and safe for concurrent use.
type Model struct {
	opts     Options
	main     *compiledDefs
	defs     []*compiledDefs
	byNS     map[string]*compiledDefs
	elems    []*element
	problems []Problem
}

// Compile compiles definitions; the first is the main model, the others are
// models it imports (matched by namespace). See CompileWith.
func Compile(defs ...*Definitions) (*Model, error) { return CompileWith(Options{}, defs...) }

// CompileWith compiles definitions with options. The error reports
// structural problems only (no definitions, duplicate namespaces, an
// import that is not given); FEEL errors are listed by Problems and make
// the affected element evaluate to null.
func CompileWith(opts Options, defs ...*Definitions) (*Model, error) {
	if len(defs) == 0 || defs[0] == nil {
		return nil, errors.New("dmn: no definitions to compile")
	}
	m := &Model{opts: opts, byNS: map[string]*compiledDefs{}}
	for _, d := range defs {
		cd := &compiledDefs{d: d, m: m, imports: map[string]*compiledDefs{}, nsImport: map[string]string{},
			items: map[string]*ItemDefinition{}, types: map[string]*feel.Type{}, byID: map[string]*element{}, byName: map[string]*element{},
			el: map[any]*element{}}
		if _, dup := m.byNS[d.Namespace]; dup && d.Namespace != "" {
			return nil, fmt.Errorf("dmn: two definitions with namespace %q", d.Namespace)
		}
		m.byNS[d.Namespace] = cd
		m.defs = append(m.defs, cd)
		for _, it := range d.ItemDefinitions {
			cd.items[it.Name] = it
		}
	}
	m.main = m.defs[0]
	for _, cd := range m.defs {
		if err := cd.resolveImports(); err != nil {
			return nil, err
		}
	}
	for _, cd := range m.defs {
		cd.addElements()
	}
	for _, cd := range m.defs {
		cd.typeVariables()
	}
	for _, cd := range m.defs {
		cd.resolveReferences()
	}
	// functions first (decisions refer to them), then logic
	for _, cd := range m.defs {
		for _, b := range cd.d.BKMs {
			cd.compileBKM(cd.el[b], b)
		}
		for _, s := range cd.d.DecisionServices {
			cd.compileService(cd.el[s])
		}
	}
	for _, cd := range m.defs {
		for _, dec := range cd.d.Decisions {
			cd.compileDecision(cd.el[dec])
		}
	}
	if opts.Operaton {
		for _, e := range m.elems {
			if e.kind == kDecision {
				e.opOrder = e.operatonOrder()
			}
		}
	}
	return m, nil
}

// resolveImports links the DMN imports of cd to the definitions given
// with it, by namespace.
func (cd *compiledDefs) resolveImports() error {
	for _, im := range cd.d.Imports {
		if im.ImportType != "" && !strings.Contains(im.ImportType, "DMN") && !strings.Contains(im.ImportType, "dmn") {
			continue
		}
		target, ok := cd.m.byNS[im.Namespace]
		if !ok {
			return fmt.Errorf("dmn: %s imports namespace %q, which was not given", cd.d.Name, im.Namespace)
		}
		cd.imports[im.Name] = target
		cd.nsImport[im.Namespace] = im.Name
	}
	return nil
}

// addElements numbers the input data, decisions, BKMs and decision
// services of cd in the model and indexes them by id and name.
func (cd *compiledDefs) addElements() {
	m := cd.m
	add := func(key any, e *element) {
		cd.el[key] = e
		e.idx = len(m.elems)
		e.defs = cd
		m.elems = append(m.elems, e)
		if e.id != "" {
			cd.byID[e.id] = e
		}
		if _, dup := cd.byName[e.name]; !dup {
			cd.byName[e.name] = e
		}
	}
	for _, in := range cd.d.InputData {
		add(in, &element{kind: kInput, id: in.ID, name: in.Name, pos: in.Pos})
	}
	for _, dec := range cd.d.Decisions {
		add(dec, &element{kind: kDecision, id: dec.ID, name: dec.Name, pos: dec.Pos, dec: dec})
	}
	for _, b := range cd.d.BKMs {
		add(b, &element{kind: kBKM, id: b.ID, name: b.Name, pos: b.Pos})
	}
	for _, s := range cd.d.DecisionServices {
		add(s, &element{kind: kService, id: s.ID, name: s.Name, pos: s.Pos, svc: s})
	}
}

// typeVariables sets the type of each element's variable.
func (cd *compiledDefs) typeVariables() {
	for _, in := range cd.d.InputData {
		cd.el[in].typ = cd.variableType(in.Variable, in.ID, in.Pos)
	}
	for _, dec := range cd.d.Decisions {
		cd.el[dec].typ = cd.variableType(dec.Variable, dec.ID, dec.Pos)
	}
	for _, b := range cd.d.BKMs {
		cd.el[b].typ = cd.variableType(b.Variable, b.ID, b.Pos)
	}
	for _, s := range cd.d.DecisionServices {
		cd.el[s].typ = cd.variableType(s.Variable, s.ID, s.Pos)
	}
}

// resolveReferences resolves the requirements of decisions and BKMs and
// the outputs and inputs of decision services.
func (cd *compiledDefs) resolveReferences() {
	for _, dec := range cd.d.Decisions {
		e := cd.el[dec]
		for _, h := range dec.RequiredDecisions {
			e.addRef(&e.reqs, h, kDecision)
		}
		for _, h := range dec.RequiredInputs {
			e.addRef(&e.reqs, h, kInput)
		}
		for _, h := range dec.RequiredKnowledge {
			e.addRef(&e.knows, h, kBKM)
		}
	}
	for _, b := range cd.d.BKMs {
		e := cd.el[b]
		for _, h := range b.RequiredKnowledge {
			e.addRef(&e.knows, h, kBKM)
		}
	}
	for _, s := range cd.d.DecisionServices {
		e := cd.el[s]
		for _, h := range s.OutputDecisions {
			e.addRef(&e.svcOut, h, kDecision)
		}
		// parameters: input data first, then input decisions (as the TCK expects)
		for _, h := range s.InputData {
			e.addRef(&e.svcIn, h, kInput)
		}
		for _, h := range s.InputDecisions {
			e.addRef(&e.svcIn, h, kDecision)
		}
	}
}

// Problems lists compile-time problems (FEEL syntax errors, unknown types
// and references); an empty list means the whole model compiled.
func (m *Model) Problems() []Problem { return m.problems }

func (cd *compiledDefs) problem(id string, pos Pos, format string, args ...any) Problem {
	p := Problem{ElementID: id, Pos: pos, Msg: fmt.Sprintf(format, args...)}
	cd.m.problems = append(cd.m.problems, p)
	return p
}

// resolveHref finds the element an href ("#id" or "namespace#id") names.
func (cd *compiledDefs) resolveHref(h string) *element {
	ns, id := "", h
	if i := strings.LastIndexByte(h, '#'); i >= 0 {
		ns, id = h[:i], h[i+1:]
	}
	target := cd
	if ns != "" && ns != cd.d.Namespace {
		t, ok := cd.m.byNS[ns]
		if !ok {
			return nil
		}
		target = t
	}
	return target.byID[id]
}

func (e *element) addRef(list *[]*element, href string, want elemKind) {
	r := e.defs.resolveHref(href)
	if r == nil {
		p := e.defs.problem(e.id, e.pos, "unresolved reference %q", href)
		e.problem = &p
		return
	}
	*list = append(*list, r)
}

func (cd *compiledDefs) variableType(v *InformationItem, id string, pos Pos) *feel.Type {
	if v == nil || v.TypeRef == "" {
		return nil
	}
	t, ok := cd.resolveType(v.TypeRef)
	if !ok {
		cd.problem(id, pos, "unknown type %q", v.TypeRef)
		return nil
	}
	return t
}

// resolveType resolves a typeRef: a FEEL built-in type, an item
// definition, or importName.type.
func (cd *compiledDefs) resolveType(ref string) (*feel.Type, bool) {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return nil, true
	}
	if t, ok := cd.types[ref]; ok {
		return t, true
	}
	if it, ok := cd.items[ref]; ok {
		return cd.itemType(it), true
	}
	if t, ok := feel.BuiltinType(ref); ok {
		return t, true
	}
	if i := strings.IndexByte(ref, '.'); i > 0 {
		if imp, ok := cd.imports[ref[:i]]; ok {
			return imp.resolveType(ref[i+1:])
		}
	}
	if i := strings.IndexByte(ref, ':'); i > 0 {
		return cd.resolveType(ref[i+1:])
	}
	// FEEL type syntax: list<...>, context<...>, function<...>
	if strings.ContainsAny(ref, "<") {
		n, err := feel.ParseExpr("x instance of "+ref, nil)
		if err == nil {
			if io, ok := n.(*feel.InstanceOf); ok {
				if t, ok := feel.ResolveType(io.Type, cd.feelScope(nil)); ok {
					return t, true
				}
			}
		}
	}
	return nil, false
}

func (cd *compiledDefs) feelScope(names []string) *feel.Scope {
	return &feel.Scope{Names: names, Types: func(name string) (*feel.Type, bool) {
		if _, ok := feel.BuiltinType(name); ok {
			return nil, false
		}
		t, ok := cd.resolveType(name)
		return t, ok && t != nil
	}}
}

func (cd *compiledDefs) itemType(it *ItemDefinition) *feel.Type {
	if t, ok := cd.types[it.Name]; ok {
		return t
	}
	t := &feel.Type{Name: it.Name}
	cd.types[it.Name] = t // placeholder for recursive types
	var base feel.Type
	switch {
	case it.Function != nil:
		base = feel.Type{Kind: feel.KindFunction, Params: []*feel.Type{}}
		for _, p := range it.Function.Parameters {
			pt, _ := cd.resolveType(p.TypeRef)
			base.Params = append(base.Params, pt)
		}
		base.Result, _ = cd.resolveType(it.Function.OutputTypeRef)
	case len(it.Components) > 0:
		base = feel.Type{Kind: feel.KindContext, Open: true, Fields: []feel.Field{}}
		for _, c := range it.Components {
			ct := cd.componentType(c)
			base.Fields = append(base.Fields, feel.Field{Name: c.Name, Type: ct})
		}
	case it.TypeRef != "":
		bt, ok := cd.resolveType(it.TypeRef)
		if !ok {
			cd.problem(it.ID, it.Pos, "unknown type %q", it.TypeRef)
		} else if bt != nil {
			base = *bt
		}
	default:
		base = feel.Type{Kind: feel.KindAny}
	}
	elem := &base
	if it.AllowedValues != "" || it.TypeConstraint != "" {
		c := base
		elem = &c
		if it.AllowedValues != "" {
			tests, err := feel.CompileUnaryTests(it.AllowedValues, cd.feelScope(nil))
			if err != nil {
				cd.problem(it.ID, it.Pos, "allowedValues: %v", err)
			} else {
				elem.Allowed = tests
			}
		}
		if it.TypeConstraint != "" {
			tests, err := feel.CompileUnaryTests(it.TypeConstraint, cd.feelScope(nil))
			if err != nil {
				cd.problem(it.ID, it.Pos, "typeConstraint: %v", err)
			} else {
				elem.TypeConstraint = tests
			}
		}
	}
	if it.IsCollection {
		elem.Name = ""
		*t = feel.Type{Kind: feel.KindList, Name: it.Name, Elem: elem}
	} else {
		*t = *elem
		t.Name = it.Name
	}
	return t
}

func (cd *compiledDefs) componentType(c *ItemDefinition) *feel.Type {
	if c.TypeRef == "" && len(c.Components) == 0 && c.AllowedValues == "" && c.Function == nil && !c.IsCollection {
		return nil
	}
	// components are anonymous item definitions: compile without caching by name
	saved, had := cd.types[c.Name]
	delete(cd.types, c.Name)
	t := cd.itemType(c)
	if had {
		cd.types[c.Name] = saved
	} else {
		delete(cd.types, c.Name)
	}
	return t
}

// scopeFor returns the names visible to a decision's logic and how to bind them.
func (e *element) computeScope() []string {
	var names []string
	seen := map[string]bool{}
	add := func(n string) {
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	for _, r := range append(append([]*element{}, e.reqs...), e.knows...) {
		if r.defs == e.defs {
			add(r.name)
		} else if imp, ok := e.defs.nsImport[r.defs.d.Namespace]; ok {
			add(imp)
			add(r.name)
		} else {
			add(r.name)
		}
	}
	return names
}

func (cd *compiledDefs) compileDecision(e *element) {
	e.scopeNames = e.computeScope()
	static := []string{}
	for _, r := range append(append([]*element{}, e.reqs...), e.knows...) {
		if r.defs != e.defs {
			static = nil
			break
		}
		static = append(static, r.name)
	}
	e.staticNames = static
	name := e.name
	if e.dec.Variable != nil && e.dec.Variable.Name != "" {
		name = e.dec.Variable.Name
	}
	e.resultNames = []string{name}
	if cd.m.opts.Operaton {
		e.scopeNames = cd.operatonScope(e.scopeNames)
		for _, k := range e.knows {
			e.knowNames = append(e.knowNames, k.name)
			e.knowValues = append(e.knowValues, k.fn)
		}
	}
	if e.dec.Logic == nil {
		return
	}
	c := &exprCompiler{cd: cd, owner: e.id, pos: e.pos}
	if dt, ok := e.dec.Logic.(*DecisionTable); ok {
		e.table = c.table(dt, e.scopeNames, e.name, e.typ)
		e.logic = e.table
		return
	}
	e.logic = c.compile(e.dec.Logic, e.scopeNames)
}
