package local

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/regelkit/regelkit/dmn"
	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/bpmn"
)

// IsDMN reports whether a resource name is deployed as DMN (as Operaton
// does: by the suffix .dmn or .dmn11.xml).
func IsDMN(name string) bool {
	n := strings.ToLower(name)
	return strings.HasSuffix(n, ".dmn") || strings.HasSuffix(n, ".dmn11.xml")
}

// IsBPMN reports whether a resource name is deployed as BPMN (as Operaton
// does: by the suffix .bpmn or .bpmn20.xml).
func IsBPMN(name string) bool {
	n := strings.ToLower(name)
	return strings.HasSuffix(n, ".bpmn") || strings.HasSuffix(n, ".bpmn20.xml")
}

// Deploy deploys resources. DMN resources (IsDMN) are parsed and compiled
// and BPMN resources (IsBPMN) parsed with engine/bpmn before anything is
// stored, so a deployment with a broken model deploys nothing; the error
// is a *engine.DeploymentError with the resource, line, column and
// element id. Each executable process becomes a process definition,
// versioned per key and tenant by the Store. Other resources (forms,
// document templates, HTML) are stored as they are.
func (e *Engine) Deploy(ctx context.Context, nd engine.NewDeployment) (engine.Deployment, error) {
	if err := validateResources(nd.Resources); err != nil {
		return engine.Deployment{}, err
	}
	// compile outside the lock; cached models are looked up under it
	cd, err := e.compileResources(ctx, nd)
	if err != nil {
		return engine.Deployment{}, err
	}
	if err := checkDecisionKeys(nd.Resources, cd.compiled); err != nil {
		return engine.Deployment{}, err
	}
	// see what other engines on the store deployed (duplicate filtering
	// and replacement compare with them)
	if err := e.sync(ctx); err != nil {
		return engine.Deployment{}, err
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
	size, incoming := deploymentCost(nd, toDeploy, cd)
	previous := e.replacedDeployments(ctx, nd, toDeploy)
	if err := e.makeRoom(size, previous, incoming); err != nil {
		return engine.Deployment{}, err
	}
	return e.commitDeployment(ctx, nd, toDeploy, cd, size, previous)
}

// validateResources refuses an empty deployment, a resource without a name
// and a name that occurs twice.
func validateResources(resources []engine.Resource) error {
	if len(resources) == 0 {
		return engine.InvalidRequest("No deployment resources contained in the form upload.")
	}
	seen := map[string]bool{}
	for _, r := range resources {
		if r.Name == "" {
			return engine.InvalidRequest("A deployment resource has no name")
		}
		if seen[r.Name] {
			return engine.InvalidRequest("The deployment contains the resource '%s' twice", r.Name)
		}
		seen[r.Name] = true
	}
	return nil
}

// compiledDeployment is what Deploy learns from its resources before it
// takes the lock.
type compiledDeployment struct {
	compiled []*compiledResource          // per resource index; nil for a non-DMN resource
	parsed   map[string]*bpmn.Definitions // BPMN resources by name
	procs    []engine.ProcessDefinition   // the executable processes, in resource order
}

// compileResources parses the BPMN and compiles the DMN resources (a DMN
// model already compiled is taken from the cache), refusing two processes
// with one key.
func (e *Engine) compileResources(ctx context.Context, nd engine.NewDeployment) (*compiledDeployment, error) {
	cd := &compiledDeployment{compiled: make([]*compiledResource, len(nd.Resources)), parsed: map[string]*bpmn.Definitions{}}
	procKeys := map[string]string{}
	for i, r := range nd.Resources {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if IsBPMN(r.Name) {
			if err := e.addBPMN(cd, procKeys, r, nd.TenantID); err != nil {
				return nil, err
			}
			continue
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
				return nil, err
			}
		}
		cd.compiled[i] = c
	}
	return cd, nil
}

// addBPMN parses one BPMN resource into cd; procKeys maps the process keys
// seen so far to their resource.
func (e *Engine) addBPMN(cd *compiledDeployment, procKeys map[string]string, r engine.Resource, tenant string) error {
	defs, err := parseBPMN(r)
	if err != nil {
		return err
	}
	cd.parsed[r.Name] = defs
	for _, p := range defs.Processes {
		if other, dup := procKeys[p.ID]; dup {
			return &engine.DeploymentError{Resource: r.Name, Line: p.Line, Column: p.Column, ElementID: p.ID,
				Msg: fmt.Sprintf("the deployment contains two processes with the key %q (also in %q)", p.ID, other)}
		}
		procKeys[p.ID] = r.Name
		cd.procs = append(cd.procs, e.processDefinition(defs, p, r.Name, tenant))
	}
	return nil
}

// checkDecisionKeys allows one decision key per deployment (Operaton
// refuses duplicates).
func checkDecisionKeys(resources []engine.Resource, compiled []*compiledResource) error {
	keys := map[string]string{}
	for i, c := range compiled {
		if c == nil {
			continue
		}
		for _, p := range c.order {
			if other, dup := keys[p.id]; dup {
				return &engine.DeploymentError{Resource: resources[i].Name, ElementID: p.id,
					Msg: fmt.Sprintf("the deployment contains two decisions with the key %q (also in %q)", p.id, other)}
			}
			keys[p.id] = resources[i].Name
		}
	}
	return nil
}

// deploymentCost returns the retention size of the resources to deploy and
// the decision and process keys they make a new latest version of.
func deploymentCost(nd engine.NewDeployment, toDeploy []engine.Resource, cd *compiledDeployment) (int64, map[tenantKey]bool) {
	size := int64(len(nd.Name) + len(nd.Source) + len(nd.TenantID))
	incoming := map[tenantKey]bool{}
	for i, r := range nd.Resources {
		if !contains(toDeploy, r.Name) {
			continue
		}
		size += cost(r)
		if c := cd.compiled[i]; c != nil {
			for _, p := range c.order {
				incoming[tenantKey{nd.TenantID, p.id}] = true
			}
		}
		if defs := cd.parsed[r.Name]; defs != nil {
			for _, p := range defs.Processes {
				incoming[processKey(nd.TenantID, p.ID)] = true
			}
		}
	}
	return size, incoming
}

// replacedDeployments lists the deployments ReplacePrevious removes. Caller
// holds the lock.
func (e *Engine) replacedDeployments(ctx context.Context, nd engine.NewDeployment, toDeploy []engine.Resource) []*deployment {
	if !nd.ReplacePrevious {
		return nil
	}
	var previous []*deployment
	for _, d := range e.sameName(nd.Name, nd.TenantID) {
		// With DeployChangedOnly the new deployment lacks the
		// unchanged resources: only what it carries whole is replaced.
		// A deployment with running process instances stays.
		if (!nd.DeployChangedOnly || coversAll(toDeploy, d.resources)) && !e.hasInstances(ctx, d) {
			previous = append(previous, d)
		}
	}
	return previous
}

// commitDeployment stores the deployment, registers it and removes the
// deployments it replaces. Caller holds the lock.
func (e *Engine) commitDeployment(ctx context.Context, nd engine.NewDeployment, toDeploy []engine.Resource, cd *compiledDeployment, size int64, previous []*deployment) (engine.Deployment, error) {
	dep := &deployment{dep: engine.Deployment{ID: newUUID(), Name: nd.Name, Source: nd.Source, TenantID: nd.TenantID, Time: e.now()}, size: size,
		bpmn: map[string]*bpmn.Definitions{}}
	rec := &DeploymentRecord{Deployment: dep.dep}
	for _, r := range nd.Resources {
		if !contains(toDeploy, r.Name) {
			continue
		}
		rec.Resources = append(rec.Resources, ResourceRecord{ID: newUUID(), Name: r.Name, Data: r.Data})
		if defs := cd.parsed[r.Name]; defs != nil {
			dep.bpmn[r.Name] = defs
			for _, p := range cd.procs {
				if p.Resource == r.Name {
					rec.ProcessDefinitions = append(rec.ProcessDefinitions, p)
				}
			}
		}
	}
	if err := e.store.CreateDeployment(ctx, rec); err != nil {
		return engine.Deployment{}, err
	}
	dep.seq, dep.procs = rec.Seq, rec.ProcessDefinitions
	out := dep.dep
	out.DeployedProcessDefinitions = slices.Clone(rec.ProcessDefinitions)
	e.register(dep, nd.Resources, toDeploy, cd.compiled, &out)
	if len(previous) > 0 {
		e.remove(previous)
	}
	return out, nil
}

// processKey is the retention's key of a process definition (decision
// keys share the map; the prefix keeps them apart).
func processKey(tenant, key string) tenantKey { return tenantKey{tenant, "\x00bpmn:" + key} }

// register adds a stored deployment to the engine's repository: its
// resources, its decision definitions (versioned here) and compiled models.
// Caller holds the lock.
func (e *Engine) register(dep *deployment, all, toDeploy []engine.Resource, compiled []*compiledResource, out *engine.Deployment) {
	for i, r := range all {
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
			tk := tenantKey{dep.dep.TenantID, c.drdKey}
			e.drdVersions[tk]++
			v := e.drdVersions[tk]
			drdID, drdKey, drdVersion = definitionID(c.drdKey, v), c.drdKey, v
			if out != nil {
				out.DeployedDecisionRequirementsDefinitions = append(out.DeployedDecisionRequirementsDefinitions, engine.DecisionRequirementsDefinition{
					ID: drdID, Key: drdKey, Category: c.defs.Namespace, Name: c.defs.Name, Version: v,
					Resource: r.Name, DeploymentID: dep.dep.ID, TenantID: dep.dep.TenantID})
			}
		}
		for _, p := range c.order {
			tk := tenantKey{dep.dep.TenantID, p.id}
			e.versions[tk]++
			v := e.versions[tk]
			d := &definition{res: c, plan: p, drdVersion: drdVersion, def: engine.DecisionDefinition{ID: definitionID(p.id, v), Key: p.id, Category: c.defs.Namespace,
				Name: p.name, Version: v, Resource: r.Name, DeploymentID: dep.dep.ID,
				DecisionRequirementsDefinitionID: drdID, DecisionRequirementsDefinitionKey: drdKey,
				TenantID: dep.dep.TenantID, VersionTag: p.versionTag, HistoryTimeToLive: p.historyTTL}}
			e.defs = append(e.defs, d)
			dep.defs = append(dep.defs, d)
			e.defByID[d.def.ID] = d
			e.latest[tk] = d
			if out != nil {
				out.DeployedDecisionDefinitions = append(out.DeployedDecisionDefinitions, d.def)
			}
		}
	}
	e.deployments = append(e.deployments, dep)
	e.depByID[dep.dep.ID] = dep
	e.bytes += dep.size
	e.seq = max(e.seq, dep.seq)
}

// sync adds the deployments other engines made on the store since the
// last one this engine holds (by the store's Seq). Their DMN is compiled
// here and their decisions versioned in this engine's repository, in Seq
// order; their BPMN is parsed on first use.
func (e *Engine) sync(ctx context.Context) error {
	e.mu.RLock()
	seq := e.seq
	e.mu.RUnlock()
	recs, err := e.store.Deployments(ctx, seq)
	if err != nil || len(recs) == 0 {
		return err
	}
	type pending struct {
		rec      DeploymentRecord
		res      []engine.Resource
		compiled []*compiledResource
	}
	var todo []pending
	for _, rec := range recs {
		p := pending{rec: rec}
		for _, r := range rec.Resources {
			res := engine.Resource{Name: r.Name, Data: r.Data}
			p.res = append(p.res, res)
			var c *compiledResource
			if IsDMN(r.Name) {
				if c, err = compileResource(res, e.opts.Standard); err != nil {
					c = nil // deployed by another engine: it compiled there
				}
			}
			p.compiled = append(p.compiled, c)
		}
		todo = append(todo, p)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, p := range todo {
		if _, known := e.depByID[p.rec.Deployment.ID]; known {
			e.seq = max(e.seq, p.rec.Seq)
			continue
		}
		var size int64 = int64(len(p.rec.Deployment.Name) + len(p.rec.Deployment.Source) + len(p.rec.Deployment.TenantID))
		for _, r := range p.res {
			size += cost(r)
		}
		dep := &deployment{dep: p.rec.Deployment, size: size, seq: p.rec.Seq, procs: p.rec.ProcessDefinitions, bpmn: map[string]*bpmn.Definitions{}}
		e.register(dep, p.res, p.res, p.compiled, nil)
	}
	return nil
}

// hasInstances reports whether a deployment has running process
// instances (and so must not be dropped). Caller holds the lock.
func (e *Engine) hasInstances(ctx context.Context, d *deployment) bool {
	if len(d.procs) == 0 {
		return false
	}
	n, err := e.store.InstanceCount(ctx, d.dep.ID)
	return err != nil || n > 0
}

// parseBPMN parses a BPMN resource, turning its errors into a
// *engine.DeploymentError naming the first problem's element and line.
func parseBPMN(r engine.Resource) (*bpmn.Definitions, error) {
	defs, err := bpmn.Parse(r.Data, bpmn.ParseOptions{Resource: r.Name})
	if err == nil {
		return defs, nil
	}
	de := &engine.DeploymentError{Resource: r.Name, Msg: err.Error()}
	var pe *bpmn.ParseError
	if errors.As(err, &pe) {
		de.Line, de.Column, de.ElementID, de.Msg = pe.Line, pe.Column, pe.ElementID, pe.Msg
		var list bpmn.ErrorList
		if errors.As(err, &list) && len(list) > 1 {
			de.Msg += fmt.Sprintf(" (and %d more errors)", len(list)-1)
		}
	}
	return nil, de
}

// processDefinition is the definition record of a parsed process (Version
// and ID are the store's to assign; ID carries the uuid part).
func (e *Engine) processDefinition(defs *bpmn.Definitions, p *bpmn.Process, resource, tenant string) engine.ProcessDefinition {
	pd := engine.ProcessDefinition{ID: newUUID(), Key: p.ID, Category: defs.TargetNamespace, Name: p.Name,
		Resource: resource, TenantID: tenant, VersionTag: p.VersionTag, StartableInTasklist: true}
	if ttl, ok := parseTTL(p.HistoryTimeToLive); ok {
		pd.HistoryTimeToLive = &ttl
	} else if e.opts.DefaultHistoryTimeToLive != nil {
		ttl := *e.opts.DefaultHistoryTimeToLive
		pd.HistoryTimeToLive = &ttl
	}
	return pd
}

// parseTTL reads camunda:historyTimeToLive: days ("180") or an ISO
// period of days ("P180D").
func parseTTL(s string) (int, bool) {
	s = strings.TrimSpace(s)
	if len(s) > 2 && (s[0] == 'P' || s[0] == 'p') && (s[len(s)-1] == 'D' || s[len(s)-1] == 'd') {
		s = s[1 : len(s)-1]
	}
	n, err := strconv.Atoi(s)
	return n, err == nil && n >= 0
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
	return formatUUID(b, 0x40)
}

// formatUUID writes b as a UUID of the version (0x40: random, 0x50: name-based).
func formatUUID(b [16]byte, version byte) string {
	b[6] = b[6]&0x0f | version
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
