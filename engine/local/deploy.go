package local

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/xml"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/beevik/etree"
	"github.com/regelkit/regelkit/dmn"
	"github.com/regelkit/regelkit/engine"
)

// IsDMN reports whether a resource name is deployed as DMN (as Operaton
// does: by the suffix .dmn or .dmn11.xml).
func IsDMN(name string) bool {
	n := strings.ToLower(name)
	return strings.HasSuffix(n, ".dmn") || strings.HasSuffix(n, ".dmn11.xml")
}

// Deploy deploys resources. DMN resources (IsDMN) are parsed and compiled
// before anything is stored, so a deployment with a broken model deploys
// nothing; the error is a *engine.DeploymentError with the resource, line
// and column. Other resources are stored as they are.
func (e *Engine) Deploy(ctx context.Context, nd engine.NewDeployment) (engine.Deployment, error) {
	if len(nd.Resources) == 0 {
		return engine.Deployment{}, engine.InvalidRequest("No deployment resources contained in the form upload.")
	}
	seen := map[string]bool{}
	for _, r := range nd.Resources {
		if r.Name == "" {
			return engine.Deployment{}, engine.InvalidRequest("A deployment resource has no name")
		}
		if seen[r.Name] {
			return engine.Deployment{}, engine.InvalidRequest("The deployment contains the resource '%s' twice", r.Name)
		}
		seen[r.Name] = true
	}
	// compile outside the lock; cached models are looked up under it
	compiled := make([]*compiledResource, len(nd.Resources))
	for i, r := range nd.Resources {
		if err := ctx.Err(); err != nil {
			return engine.Deployment{}, err
		}
		if !IsDMN(r.Name) {
			continue
		}
		sum := sha256.Sum256(r.Data)
		e.mu.RLock()
		c := e.models[sum]
		e.mu.RUnlock()
		if c == nil {
			var err error
			if c, err = compileResource(r, e.opts.Standard); err != nil {
				return engine.Deployment{}, err
			}
		}
		compiled[i] = c
	}
	// one decision key per deployment (Operaton refuses duplicates)
	keys := map[string]string{}
	for i, c := range compiled {
		if c == nil {
			continue
		}
		for _, p := range c.order {
			if other, dup := keys[p.id]; dup {
				return engine.Deployment{}, &engine.DeploymentError{Resource: nd.Resources[i].Name, ElementID: p.id,
					Msg: fmt.Sprintf("the deployment contains two decisions with the key %q (also in %q)", p.id, other)}
			}
			keys[p.id] = nd.Resources[i].Name
		}
	}

	e.mu.Lock()
	defer e.mu.Unlock()
	toDeploy := nd.Resources
	if nd.EnableDuplicateFiltering || nd.DeployChangedOnly {
		prev, changed := e.changedResources(nd)
		if len(changed) == 0 && prev != nil {
			return prev.dep, nil
		}
		if nd.DeployChangedOnly && prev != nil {
			toDeploy = changed
		}
	}
	dep := &deployment{dep: engine.Deployment{ID: newUUID(), Name: nd.Name, Source: nd.Source, TenantID: nd.TenantID, Time: e.now()}}
	out := dep.dep
	for i, r := range nd.Resources {
		if !contains(toDeploy, r.Name) {
			continue
		}
		dep.resources = append(dep.resources, engine.Resource{Name: r.Name, Data: bytes.Clone(r.Data)})
		c := compiled[i]
		if c == nil {
			continue
		}
		e.models[c.sum] = c
		drdID, drdKey := "", ""
		if len(c.order) > 1 {
			tk := tenantKey{nd.TenantID, c.drdKey}
			e.drdVersions[tk]++
			v := e.drdVersions[tk]
			drdID, drdKey = definitionID(c.drdKey, v), c.drdKey
			out.DeployedDecisionRequirementsDefinitions = append(out.DeployedDecisionRequirementsDefinitions, engine.DecisionRequirementsDefinition{
				ID: drdID, Key: drdKey, Category: c.defs.Namespace, Name: c.defs.Name, Version: v,
				Resource: r.Name, DeploymentID: dep.dep.ID, TenantID: nd.TenantID})
		}
		for _, p := range c.order {
			tk := tenantKey{nd.TenantID, p.id}
			e.versions[tk]++
			v := e.versions[tk]
			d := &definition{res: c, plan: p, def: engine.DecisionDefinition{ID: definitionID(p.id, v), Key: p.id, Category: c.defs.Namespace,
				Name: p.name, Version: v, Resource: r.Name, DeploymentID: dep.dep.ID,
				DecisionRequirementsDefinitionID: drdID, DecisionRequirementsDefinitionKey: drdKey,
				TenantID: nd.TenantID, VersionTag: p.versionTag, HistoryTimeToLive: p.historyTTL}}
			e.defs = append(e.defs, d)
			e.defByID[d.def.ID] = d
			e.latest[tk] = d
			out.DeployedDecisionDefinitions = append(out.DeployedDecisionDefinitions, d.def)
		}
	}
	e.deployments = append(e.deployments, dep)
	e.depByID[dep.dep.ID] = dep
	return out, nil
}

// changedResources finds the latest deployment with the same name and
// tenant and the resources that differ from the latest resources of the
// same name in deployments of that name. Caller holds the lock.
func (e *Engine) changedResources(nd engine.NewDeployment) (prev *deployment, changed []engine.Resource) {
	latest := map[string][]byte{}
	for _, d := range e.deployments {
		if d.dep.Name != nd.Name || d.dep.TenantID != nd.TenantID {
			continue
		}
		prev = d
		for _, r := range d.resources {
			latest[r.Name] = r.Data
		}
	}
	for _, r := range nd.Resources {
		if old, ok := latest[r.Name]; !ok || !bytes.Equal(old, r.Data) {
			changed = append(changed, r)
		}
	}
	return prev, changed
}

func contains(rs []engine.Resource, name string) bool {
	for _, r := range rs {
		if r.Name == name {
			return true
		}
	}
	return false
}

// definitionID is Operaton's key:version:uuid, or the uuid alone when that
// would be longer than 64 characters.
func definitionID(key string, version int) string {
	u := newUUID()
	id := key + ":" + strconv.Itoa(version) + ":" + u
	if len(id) > 64 {
		return u
	}
	return id
}

func newUUID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// compiledResource is a DMN resource compiled for evaluation.
type compiledResource struct {
	sum  [sha256.Size]byte
	xml  string
	defs *dmn.Definitions
	// model is the resource compiled in Operaton mode (or, with
	// Options.Standard, in DMN mode).
	model  *dmn.Model
	drdKey string
	order  []*decisionPlan // every decision, in document order
	byID   map[string]*decisionPlan
	// problems holds the messages of compile problems (FEEL syntax
	// errors, unknown types): an evaluation that meets one fails, as
	// Operaton fails on an expression it cannot parse.
	problems map[string]bool

	// stepwise is the model with every requirement between decisions
	// removed, so that each decision evaluates on its own (see
	// evaluate.go); compiled when first needed.
	stepwiseOnce  sync.Once
	stepwise      *dmn.Model
	stepwiseError error
}

// decisionPlan is what evaluating one decision needs.
type decisionPlan struct {
	id, name string
	// evalOrder lists the decisions to evaluate, required ones first
	// (depth-first post-order, requirements in document order), ending
	// with this one. Operaton mode only.
	evalOrder []*decisionPlan
	// delegate: dmn's own Operaton evaluation of the whole order gives
	// Operaton's result as long as no required decision's result is
	// merged differently (checked after each evaluation); false when a
	// required literal expression's variable is not named like its
	// decision, which dmn and Operaton name differently.
	delegate bool
	table    bool
	hit      dmn.HitPolicy
	agg      string
	outputs  []outputInfo // table outputs, or the one result of other logic
	// camunda: extension attributes
	versionTag string
	historyTTL *int
}

type outputInfo struct{ name, typeRef string }

func compileResource(r engine.Resource, standard bool) (*compiledResource, error) {
	defs, err := dmn.ParseBytes(r.Data)
	if err != nil {
		de := &engine.DeploymentError{Resource: r.Name, Msg: err.Error()}
		var pe *dmn.ParseError
		if errors.As(err, &pe) {
			de.Line, de.Column, de.ElementID, de.Msg = pe.Line, pe.Column, pe.ElementID, pe.Msg
			if pe.Element != "" {
				de.Msg = "<" + pe.Element + ">: " + pe.Msg
			}
		}
		if de.Line == 0 {
			// dmn does not always know where malformed XML breaks; encoding/xml does
			if line, msg := xmlSyntaxError(r.Data); line > 0 {
				de.Line, de.Msg = line, "invalid XML: "+msg
			}
		}
		return nil, de
	}
	if len(defs.Decisions) == 0 {
		return nil, &engine.DeploymentError{Resource: r.Name, Line: defs.Pos.Line, Column: defs.Pos.Column, Msg: "the model has no decision"}
	}
	c := &compiledResource{sum: sha256.Sum256(r.Data), xml: string(r.Data), defs: defs, drdKey: defs.ID,
		byID: map[string]*decisionPlan{}, problems: map[string]bool{}}
	if c.drdKey == "" {
		c.drdKey = strings.TrimSuffix(r.Name, ".dmn")
	}
	camunda := camundaAttributes(r.Data)
	for _, d := range defs.Decisions {
		if d.ID == "" {
			return nil, &engine.DeploymentError{Resource: r.Name, Line: d.Pos.Line, Column: d.Pos.Column, Msg: fmt.Sprintf("decision %q has no id", d.Name)}
		}
		if _, dup := c.byID[d.ID]; dup {
			return nil, &engine.DeploymentError{Resource: r.Name, Line: d.Pos.Line, Column: d.Pos.Column, ElementID: d.ID, Msg: "two decisions with this id"}
		}
		p := &decisionPlan{id: d.ID, name: d.Name}
		if a, ok := camunda[d.ID]; ok {
			p.versionTag = a.versionTag
			p.historyTTL = a.historyTTL
		}
		if dt, ok := d.Logic.(*dmn.DecisionTable); ok {
			p.table, p.hit, p.agg = true, dt.HitPolicy, dt.Aggregation
			for _, o := range dt.Outputs {
				name := o.Name
				if name == "" && len(dt.Outputs) == 1 {
					name = d.Name // as dmn names a single unnamed output
				}
				p.outputs = append(p.outputs, outputInfo{name, o.TypeRef})
			}
		} else {
			// a literal expression's result is named by the decision's variable
			out := outputInfo{name: d.Name}
			if d.Variable != nil && d.Variable.Name != "" {
				out = outputInfo{d.Variable.Name, d.Variable.TypeRef}
			}
			p.outputs = []outputInfo{out}
		}
		c.order = append(c.order, p)
		c.byID[d.ID] = p
	}
	if !standard {
		if err := c.planOperaton(r.Name); err != nil {
			return nil, err
		}
		guardInputExpressions(defs)
	}
	m, err := dmn.CompileWith(dmn.Options{Operaton: !standard}, defs)
	if err != nil {
		return nil, &engine.DeploymentError{Resource: r.Name, Msg: err.Error()}
	}
	c.model = m
	for _, p := range m.Problems() {
		c.problems[p.Msg] = true
	}
	return c, nil
}

// planOperaton computes every decision's evaluation order: depth-first
// post-order over its required decisions in document order, each decision
// once. A requirement on a decision the file does not define, or a cycle,
// fails the deployment.
func (c *compiledResource) planOperaton(resource string) error {
	reqs := map[string][]*decisionPlan{}
	for _, d := range c.defs.Decisions {
		for _, h := range d.RequiredDecisions {
			ns, id := "", h
			if i := strings.LastIndexByte(h, '#'); i >= 0 {
				ns, id = h[:i], h[i+1:]
			}
			r, ok := c.byID[id]
			if !ok || (ns != "" && ns != c.defs.Namespace) {
				return &engine.DeploymentError{Resource: resource, Line: d.Pos.Line, Column: d.Pos.Column, ElementID: d.ID,
					Msg: fmt.Sprintf("required decision %q is not a decision of this model", h)}
			}
			reqs[d.ID] = append(reqs[d.ID], r)
		}
	}
	for _, target := range c.order {
		state := map[*decisionPlan]uint8{} // 1 visiting, 2 done
		var order []*decisionPlan
		var visit func(p *decisionPlan) error
		visit = func(p *decisionPlan) error {
			switch state[p] {
			case 1:
				return fmt.Errorf("decision %q requires itself (a cycle through %q)", target.id, p.id)
			case 2:
				return nil
			}
			state[p] = 1
			for _, r := range reqs[p.id] {
				if err := visit(r); err != nil {
					return err
				}
			}
			state[p] = 2
			order = append(order, p)
			return nil
		}
		if err := visit(target); err != nil {
			return &engine.DeploymentError{Resource: resource, ElementID: target.id, Msg: err.Error()}
		}
		target.evalOrder = order
	}
	return nil
}

// stepwiseModel compiles (once) the resource with the requirements
// between decisions removed: evaluating a decision then evaluates just
// that decision, on the variables it is given.
func (c *compiledResource) stepwiseModel() (*dmn.Model, error) {
	c.stepwiseOnce.Do(func() {
		defs, err := dmn.ParseBytes([]byte(c.xml))
		if err != nil {
			c.stepwiseError = err
			return
		}
		guardInputExpressions(defs)
		for _, d := range defs.Decisions {
			d.RequiredDecisions = nil
		}
		c.stepwise, c.stepwiseError = dmn.CompileWith(dmn.Options{Operaton: true}, defs)
	})
	return c.stepwise, c.stepwiseError
}

// guardInputExpressions wraps decision table input expressions that are
// not plain names in parentheses. dmn's Operaton mode puts every input
// expression's text into the FEEL scope as a name (so that undeclared
// multi-word variable names parse); an expression such as
// "date(dagVanAanvraag).year" would then parse as one unknown name. A
// parenthesised expression means the same and cannot be taken for a name.
func guardInputExpressions(defs *dmn.Definitions) {
	for _, d := range defs.Decisions {
		dt, ok := d.Logic.(*dmn.DecisionTable)
		if !ok {
			continue
		}
		for _, in := range dt.Inputs {
			if text := strings.TrimSpace(in.Expression); text != "" && !isPlainName(text) {
				in.Expression = "(" + text + ")"
			}
		}
	}
}

var feelKeywords = map[string]bool{"and": true, "or": true, "not": true, "in": true, "between": true, "instance": true,
	"of": true, "if": true, "then": true, "else": true, "for": true, "some": true, "every": true, "satisfies": true,
	"return": true, "true": true, "false": true, "null": true, "function": true}

// isPlainName reports whether text can only be a variable name: letters,
// digits, _ and ? in space-separated words that are not FEEL keywords.
func isPlainName(text string) bool {
	for _, w := range strings.Fields(text) {
		if feelKeywords[w] {
			return false
		}
		for i, r := range w {
			letter := r == '_' || r == '?' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || r > 127
			if !letter && !(i > 0 && r >= '0' && r <= '9') {
				return false
			}
		}
	}
	return true
}

// xmlSyntaxError returns the line and message of the first XML syntax
// error in data, or 0.
func xmlSyntaxError(data []byte) (int, string) {
	d := xml.NewDecoder(bytes.NewReader(data))
	for {
		_, err := d.Token()
		if err == nil {
			continue
		}
		var se *xml.SyntaxError
		if errors.As(err, &se) {
			return se.Line, se.Msg
		}
		return 0, ""
	}
}

type camundaAttrs struct {
	versionTag string
	historyTTL *int
}

// camundaAttributes reads camunda:versionTag and camunda:historyTimeToLive
// of each decision (dmn ignores the camunda namespace).
func camundaAttributes(data []byte) map[string]camundaAttrs {
	doc := etree.NewDocument()
	if doc.ReadFromBytes(data) != nil || doc.Root() == nil {
		return nil
	}
	out := map[string]camundaAttrs{}
	for _, el := range doc.Root().ChildElements() {
		if el.Tag != "decision" {
			continue
		}
		var a camundaAttrs
		for _, at := range el.Attr {
			if at.NamespaceURI() != dmn.NamespaceCamundaExt {
				continue
			}
			switch at.Key {
			case "versionTag":
				a.versionTag = at.Value
			case "historyTimeToLive":
				if n, err := strconv.Atoi(strings.TrimSpace(at.Value)); err == nil {
					a.historyTTL = &n
				}
			}
		}
		out[el.SelectAttrValue("id", "")] = a
	}
	return out
}
