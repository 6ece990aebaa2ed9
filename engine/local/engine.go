package local

import (
	"context"
	"crypto/sha256"
	"sync"
	"time"

	"github.com/regelkit/regelkit/dmn/feel"
	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/bpmn"
)

// DefaultVersion is what Version reports unless Options.Version is set.
const DefaultVersion = "regelkit-embedded"

// Defaults of the engine's ceilings (Options.MaxBytes, MaxDeployments).
const (
	DefaultMaxBytes       = 64 << 20
	DefaultMaxDeployments = 10_000
)

// Options configure an Engine.
type Options struct {
	// Standard evaluates with the DMN specification's semantics: the
	// required decisions' results are in scope under the decisions' names,
	// inputs are converted against their typeRefs, and dmn's own
	// evaluation order applies. The default (false) is Operaton's
	// semantics (see the package documentation), since the embedded
	// engine stands in for Operaton.
	Standard bool
	// Now is the clock for deployment times and for FEEL's now() and
	// today(); nil means time.Now.
	Now func() time.Time
	// Version is what Version reports; "" means DefaultVersion.
	Version string
	// MaxBytes bounds the memory the deployments take, estimated as the
	// bytes of their names and resources, DMN resources counted
	// DMNCostFactor times (for their compiled models). A deployment that would take it
	// past the bound first drops superseded deployments, oldest first;
	// when that is not enough it fails with *engine.StorageFullError.
	// 0: DefaultMaxBytes; negative: no bound.
	MaxBytes int64
	// MaxDeployments bounds the number of deployments held, in the same
	// way. 0: DefaultMaxDeployments; negative: no bound.
	MaxDeployments int
	// Limits bound each evaluation's FEEL work (zero fields take
	// feel.DefaultLimits); one that exceeds them fails with an
	// *engine.EvaluationError wrapping the *feel.LimitError.
	Limits feel.Limits
	// Store keeps deployments, process instances, tasks and history; nil
	// means a fresh NewMemoryStore(MemoryOptions{}). Engines sharing a
	// Store see each other's deployments and instances (see Store).
	Store Store
	// DefaultHistoryTimeToLive (days) is the historyTimeToLive of a
	// process definition whose BPMN has none; nil leaves it unset.
	DefaultHistoryTimeToLive *int
	// ProcessLimits bound each process command (start, complete, …):
	// its steps, call depth, scripts and variables; see Limits.
	ProcessLimits Limits
	// MaxInstances and MaxTasks bound the default memory store (see
	// MemoryOptions); they are ignored when Store is set.
	MaxInstances, MaxTasks int
}

// Engine is the embedded decision engine. It implements engine.Engine
// and is safe for concurrent use: deployments take a write lock for a
// moment, evaluations run on immutable compiled models without one.
type Engine struct {
	opts Options

	mu          sync.RWMutex
	deployments []*deployment
	depByID     map[string]*deployment
	defs        []*definition // every decision definition, in deployment order
	defByID     map[string]*definition
	latest      map[tenantKey]*definition
	versions    map[tenantKey]int // decision definitions: highest version per tenant and key
	drdVersions map[tenantKey]int
	// compiled models by resource content, so that a model deployed again
	// (a new version with the same XML) is not compiled again; only
	// models of deployments still held are kept
	models map[[sha256.Size]byte]*compiledResource
	bytes  int64 // cost of the deployments held (see cost)
	// seq is the highest store Seq of the deployments held (see sync)
	seq int64

	store Store
	// procs caches parsed process definitions by id
	procs map[string]*procDef
}

type tenantKey struct{ tenant, key string }

type deployment struct {
	dep       engine.Deployment // without the Deployed… lists
	resources []engine.Resource
	size      int64         // cost of its resources
	defs      []*definition // the decision definitions it created
	seq       int64         // its store Seq
	// procs are the process definitions it created; bpmn its parsed BPMN
	// resources by name (parsed at deployment, or on first use of a
	// deployment made by another engine)
	procs []engine.ProcessDefinition
	bpmn  map[string]*bpmn.Definitions
}

type definition struct {
	def        engine.DecisionDefinition
	res        *compiledResource
	plan       *decisionPlan
	drdVersion int // version of its decision requirements definition; 0 when none
}

// New returns an empty engine.
func New(opts Options) *Engine {
	st := opts.Store
	if st == nil {
		st = NewMemoryStore(MemoryOptions{MaxInstances: opts.MaxInstances, MaxTasks: opts.MaxTasks})
	}
	return &Engine{opts: opts, store: st, procs: map[string]*procDef{}, depByID: map[string]*deployment{}, defByID: map[string]*definition{},
		latest: map[tenantKey]*definition{}, versions: map[tenantKey]int{}, drdVersions: map[tenantKey]int{},
		models: map[[sha256.Size]byte]*compiledResource{}}
}

func (e *Engine) now() time.Time {
	if e.opts.Now != nil {
		return e.opts.Now()
	}
	return time.Now()
}

// Version reports Options.Version or DefaultVersion; the embedded engine
// is always up.
func (e *Engine) Version(ctx context.Context) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if e.opts.Version != "" {
		return e.opts.Version, nil
	}
	return DefaultVersion, nil
}

// Deployment returns a deployment by id.
func (e *Engine) Deployment(ctx context.Context, id string) (engine.Deployment, error) {
	if err := e.sync(ctx); err != nil {
		return engine.Deployment{}, err
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	d, ok := e.depByID[id]
	if !ok {
		return engine.Deployment{}, engine.NotFound("Deployment with id '%s' does not exist", id)
	}
	return d.dep, nil
}

// Deployments lists deployments in deployment order (or as sorted by the query).
func (e *Engine) Deployments(ctx context.Context, q engine.DeploymentQuery) ([]engine.Deployment, error) {
	if err := e.sync(ctx); err != nil {
		return nil, err
	}
	e.mu.RLock()
	all := make([]engine.Deployment, len(e.deployments))
	for i, d := range e.deployments {
		all[i] = d.dep
	}
	e.mu.RUnlock()
	return q.Filter(all), nil
}

// Resources returns the resources of a deployment (for the process side
// to come: forms and document templates are read from deployments).
func (e *Engine) Resources(ctx context.Context, deploymentID string) ([]engine.Resource, error) {
	if err := e.sync(ctx); err != nil {
		return nil, err
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	d, ok := e.depByID[deploymentID]
	if !ok {
		return nil, engine.NotFound("Deployment with id '%s' does not exist", deploymentID)
	}
	return append([]engine.Resource(nil), d.resources...), nil
}

// DecisionDefinitions lists decision definitions in deployment order (or
// as sorted by the query).
func (e *Engine) DecisionDefinitions(ctx context.Context, q engine.DecisionDefinitionQuery) ([]engine.DecisionDefinition, error) {
	if err := e.sync(ctx); err != nil {
		return nil, err
	}
	e.mu.RLock()
	all := make([]engine.DecisionDefinition, len(e.defs))
	for i, d := range e.defs {
		all[i] = d.def
	}
	e.mu.RUnlock()
	return q.Filter(all), nil
}

// DecisionDefinition returns a decision definition by id.
func (e *Engine) DecisionDefinition(ctx context.Context, id string) (engine.DecisionDefinition, error) {
	d, err := e.byIDSynced(ctx, id)
	if err != nil {
		return engine.DecisionDefinition{}, err
	}
	return d.def, nil
}

// LatestDecisionDefinition returns the latest version for a key and tenant
// ("" = no tenant).
func (e *Engine) LatestDecisionDefinition(ctx context.Context, key, tenantID string) (engine.DecisionDefinition, error) {
	d, err := e.byKeySynced(ctx, key, tenantID)
	if err != nil {
		return engine.DecisionDefinition{}, err
	}
	return d.def, nil
}

// DecisionDefinitionXML returns the XML of the DMN resource that defines
// the decision.
func (e *Engine) DecisionDefinitionXML(ctx context.Context, id string) (string, error) {
	d, err := e.byIDSynced(ctx, id)
	if err != nil {
		return "", err
	}
	return d.res.xml, nil
}

// byIDSynced and byKeySynced look a decision definition up, loading the
// deployments other engines made on the store when it is not found.
func (e *Engine) byIDSynced(ctx context.Context, id string) (*definition, error) {
	d, err := e.byID(id)
	if err != nil && e.sync(ctx) == nil {
		d, err = e.byID(id)
	}
	return d, err
}

func (e *Engine) byKeySynced(ctx context.Context, key, tenantID string) (*definition, error) {
	d, err := e.byKey(key, tenantID)
	if err != nil && e.sync(ctx) == nil {
		d, err = e.byKey(key, tenantID)
	}
	return d, err
}

func (e *Engine) byID(id string) (*definition, error) {
	e.mu.RLock()
	d, ok := e.defByID[id]
	e.mu.RUnlock()
	if !ok {
		return nil, engine.NotFound("No matching definition with id %s", id)
	}
	return d, nil
}

func (e *Engine) byKey(key, tenantID string) (*definition, error) {
	e.mu.RLock()
	d, ok := e.latest[tenantKey{tenantID, key}]
	e.mu.RUnlock()
	if !ok {
		if tenantID == "" {
			return nil, engine.NotFound("No matching decision definition with key: %s and no tenant-id", key)
		}
		return nil, engine.NotFound("No matching decision definition with key: %s and tenant-id: %s", key, tenantID)
	}
	return d, nil
}

var _ engine.Engine = (*Engine)(nil)
