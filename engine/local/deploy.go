package local

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"strconv"
	"strings"

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
	size := int64(len(nd.Name) + len(nd.Source) + len(nd.TenantID))
	incoming := map[tenantKey]bool{} // keys this deployment makes a new latest version of
	for i, r := range nd.Resources {
		if !contains(toDeploy, r.Name) {
			continue
		}
		size += cost(r)
		if c := compiled[i]; c != nil {
			for _, p := range c.order {
				incoming[tenantKey{nd.TenantID, p.id}] = true
			}
		}
	}
	var previous []*deployment
	if nd.ReplacePrevious {
		for _, d := range e.sameName(nd.Name, nd.TenantID) {
			// With DeployChangedOnly the new deployment lacks the
			// unchanged resources: only what it carries whole is replaced.
			if !nd.DeployChangedOnly || coversAll(toDeploy, d.resources) {
				previous = append(previous, d)
			}
		}
	}
	if err := e.makeRoom(size, previous, incoming); err != nil {
		return engine.Deployment{}, err
	}
	dep := &deployment{dep: engine.Deployment{ID: newUUID(), Name: nd.Name, Source: nd.Source, TenantID: nd.TenantID, Time: e.now()}, size: size}
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
		drdID, drdKey, drdVersion := "", "", 0
		if len(c.order) > 1 {
			tk := tenantKey{nd.TenantID, c.drdKey}
			e.drdVersions[tk]++
			v := e.drdVersions[tk]
			drdID, drdKey, drdVersion = definitionID(c.drdKey, v), c.drdKey, v
			out.DeployedDecisionRequirementsDefinitions = append(out.DeployedDecisionRequirementsDefinitions, engine.DecisionRequirementsDefinition{
				ID: drdID, Key: drdKey, Category: c.defs.Namespace, Name: c.defs.Name, Version: v,
				Resource: r.Name, DeploymentID: dep.dep.ID, TenantID: nd.TenantID})
		}
		for _, p := range c.order {
			tk := tenantKey{nd.TenantID, p.id}
			e.versions[tk]++
			v := e.versions[tk]
			d := &definition{res: c, plan: p, drdVersion: drdVersion, def: engine.DecisionDefinition{ID: definitionID(p.id, v), Key: p.id, Category: c.defs.Namespace,
				Name: p.name, Version: v, Resource: r.Name, DeploymentID: dep.dep.ID,
				DecisionRequirementsDefinitionID: drdID, DecisionRequirementsDefinitionKey: drdKey,
				TenantID: nd.TenantID, VersionTag: p.versionTag, HistoryTimeToLive: p.historyTTL}}
			e.defs = append(e.defs, d)
			dep.defs = append(dep.defs, d)
			e.defByID[d.def.ID] = d
			e.latest[tk] = d
			out.DeployedDecisionDefinitions = append(out.DeployedDecisionDefinitions, d.def)
		}
	}
	e.deployments = append(e.deployments, dep)
	e.depByID[dep.dep.ID] = dep
	e.bytes += size
	if len(previous) > 0 {
		e.remove(previous)
	}
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

// coversAll reports whether rs has a resource of every name of old.
func coversAll(rs, old []engine.Resource) bool {
	for _, r := range old {
		if !contains(rs, r.Name) {
			return false
		}
	}
	return true
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
}

// decisionPlan is what the engine keeps of one decision: its repository
// attributes and how to type its outputs.
type decisionPlan struct {
	id, name string
	outputs  []outputInfo // table outputs, or the one result of other logic
	// camunda: extension attributes
	versionTag string
	historyTTL *int
}

// outputInfo is an output's name and how its numbers are typed.
type outputInfo struct {
	name string
	num  numberType
}

// numberType is the variable type Operaton gives a number by the output's typeRef.
type numberType uint8

const (
	numberAsIs   numberType = iota // Integer or Long when integral, else Double
	numberDouble                   // typeRef double
	numberLong                     // typeRef long: Long also when it fits an Integer
)

func numberTypeOf(typeRef string) numberType {
	switch strings.ToLower(typeRef) {
	case "double":
		return numberDouble
	case "long":
		return numberLong
	}
	return numberAsIs
}

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
		return nil, de
	}
	if len(defs.Decisions) == 0 {
		return nil, &engine.DeploymentError{Resource: r.Name, Line: defs.Pos.Line, Column: defs.Pos.Column, Msg: "the model has no decision"}
	}
	c := &compiledResource{sum: sha256.Sum256(r.Data), xml: string(r.Data), defs: defs, drdKey: defs.ID}
	if c.drdKey == "" {
		c.drdKey = strings.TrimSuffix(r.Name, ".dmn")
	}
	byID := map[string]*decisionPlan{}
	for _, d := range defs.Decisions {
		if d.ID == "" {
			return nil, &engine.DeploymentError{Resource: r.Name, Line: d.Pos.Line, Column: d.Pos.Column, Msg: fmt.Sprintf("decision %q has no id", d.Name)}
		}
		if _, dup := byID[d.ID]; dup {
			return nil, &engine.DeploymentError{Resource: r.Name, Line: d.Pos.Line, Column: d.Pos.Column, ElementID: d.ID, Msg: "two decisions with this id"}
		}
		p := &decisionPlan{id: d.ID, name: d.Name}
		p.versionTag, _ = d.Extensions.Get(dmn.NamespaceCamundaExt, "versionTag")
		if ttl, ok := d.Extensions.Get(dmn.NamespaceCamundaExt, "historyTimeToLive"); ok {
			if n, err := strconv.Atoi(strings.TrimSpace(ttl)); err == nil {
				p.historyTTL = &n
			}
		}
		if dt, ok := d.Logic.(*dmn.DecisionTable); ok {
			for _, o := range dt.Outputs {
				p.outputs = append(p.outputs, outputInfo{o.Name, numberTypeOf(o.TypeRef)})
			}
		} else if d.Variable != nil {
			p.outputs = []outputInfo{{d.Variable.Name, numberTypeOf(d.Variable.TypeRef)}}
		}
		c.order = append(c.order, p)
		byID[d.ID] = p
	}
	if !standard {
		if err := checkRequirements(defs, r.Name); err != nil {
			return nil, err
		}
	}
	m, err := dmn.CompileWith(dmn.Options{Operaton: !standard}, defs)
	if err != nil {
		return nil, &engine.DeploymentError{Resource: r.Name, Msg: err.Error()}
	}
	c.model = m
	return c, nil
}

// checkRequirements fails a deployment, as Operaton does, when a decision
// requires a decision the file does not define or requires itself
// through others.
func checkRequirements(defs *dmn.Definitions, resource string) error {
	byID := map[string]*dmn.Decision{}
	for _, d := range defs.Decisions {
		byID[d.ID] = d
	}
	reqs := map[string][]string{}
	for _, d := range defs.Decisions {
		for _, h := range d.RequiredDecisions {
			ns, id := "", h
			if i := strings.LastIndexByte(h, '#'); i >= 0 {
				ns, id = h[:i], h[i+1:]
			}
			if _, ok := byID[id]; !ok || (ns != "" && ns != defs.Namespace) {
				return &engine.DeploymentError{Resource: resource, Line: d.Pos.Line, Column: d.Pos.Column, ElementID: d.ID,
					Msg: fmt.Sprintf("required decision %q is not a decision of this model", h)}
			}
			reqs[d.ID] = append(reqs[d.ID], id)
		}
	}
	state := map[string]uint8{} // 1 visiting, 2 done
	var visit func(target, id string) error
	visit = func(target, id string) error {
		switch state[id] {
		case 1:
			return fmt.Errorf("decision %q requires itself (a cycle through %q)", target, id)
		case 2:
			return nil
		}
		state[id] = 1
		for _, r := range reqs[id] {
			if err := visit(target, r); err != nil {
				return err
			}
		}
		state[id] = 2
		return nil
	}
	for _, d := range defs.Decisions {
		if err := visit(d.ID, d.ID); err != nil {
			return &engine.DeploymentError{Resource: resource, ElementID: d.ID, Msg: err.Error()}
		}
	}
	return nil
}
