package local

import (
	"context"
	"encoding/json"
	"maps"
	"math/big"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/regelkit/regelkit/engine"
)

// Defaults of the memory store's bounds (MemoryOptions).
const (
	DefaultMaxInstances = 100_000
	DefaultMaxTasks     = 200_000
	// DefaultMaxHistory bounds the historic process instances kept; the
	// oldest ended instances' history is dropped first.
	DefaultMaxHistory = 10_000
)

// MemoryOptions bound a memory store. Zero fields take the defaults;
// negative ones disable the bound.
type MemoryOptions struct {
	// MaxInstances bounds the running process instances; a Commit that
	// would pass it fails with *engine.StorageFullError (Limit
	// "MaxInstances") and applies nothing.
	MaxInstances int
	// MaxTasks bounds the open user and external tasks together, likewise
	// (Limit "MaxTasks").
	MaxTasks int
	// MaxHistory bounds the historic process instances: when a Commit
	// passes it, the history of the oldest ended instances is dropped
	// (running instances' history is kept, so this never refuses).
	MaxHistory int
}

func resolveBound(v, def int) int {
	switch {
	case v == 0:
		return def
	case v < 0:
		return -1
	}
	return v
}

// NewMemoryStore returns an empty in-memory Store: the engine's default.
// It keeps indexes for the task list's hot filters (municipality,
// candidate group, instance) so that a query over many open tasks does
// not scan them all.
func NewMemoryStore(o MemoryOptions) Store {
	return &memStore{
		maxInstances: resolveBound(o.MaxInstances, DefaultMaxInstances),
		maxTasks:     resolveBound(o.MaxTasks, DefaultMaxTasks),
		maxHistory:   resolveBound(o.MaxHistory, DefaultMaxHistory),
		depByID:      map[string]*DeploymentRecord{},
		defByID:      map[string]*engine.ProcessDefinition{},
		latest:       map[tenantKey]*engine.ProcessDefinition{},
		instances:    map[string]*memInstance{},
		bySuper:      map[string]map[string]*memInstance{},
		tasks:        map[string]*memTask{},
		byMuni:       map[string]map[string]*memTask{},
		byMuniNum:    map[string]map[string]*memTask{},
		byGroup:      map[string]map[string]*memTask{},
		tasksByInst:  map[string]map[string]*memTask{},
		ext:          map[string]*memExt{},
		extByInst:    map[string]map[string]*memExt{},
		hpi:          map[string]*memHPI{},
		hact:         map[string]*memRow[engine.HistoricActivity]{},
		htask:        map[string]*memRow[engine.HistoricTask]{},
		hvar:         map[string]*memRow[engine.HistoricVariable]{},
		hdec:         map[string]*memRow[engine.HistoricDecision]{},
	}
}

type memStore struct {
	maxInstances, maxTasks, maxHistory int

	mu   sync.RWMutex
	ord  int64 // insertion counter: the order of unsorted results
	seq  int64
	deps []*DeploymentRecord
	// process definitions
	depByID map[string]*DeploymentRecord
	defs    []*engine.ProcessDefinition
	defByID map[string]*engine.ProcessDefinition
	latest  map[tenantKey]*engine.ProcessDefinition

	instances map[string]*memInstance
	bySuper   map[string]map[string]*memInstance

	tasks map[string]*memTask
	// byMuni and byMuniNum index tasks by Municipality: text that reads as
	// a number under its numberKey in byMuniNum (a filter compares it
	// numerically with a number), any other text as is in byMuni.
	byMuni      map[string]map[string]*memTask
	byMuniNum   map[string]map[string]*memTask
	byGroup     map[string]map[string]*memTask
	tasksByInst map[string]map[string]*memTask

	ext       map[string]*memExt
	extByInst map[string]map[string]*memExt

	// history, by process instance for filters and dropping
	hpi   map[string]*memHPI
	hact  map[string]*memRow[engine.HistoricActivity]
	htask map[string]*memRow[engine.HistoricTask]
	hvar  map[string]*memRow[engine.HistoricVariable]
	hdec  map[string]*memRow[engine.HistoricDecision]
	// ended holds the ids of ended historic instances in the order they
	// ended, from endedHead on: the order MaxHistory drops them in
	ended     []string
	endedHead int
}

type memInstance struct {
	rec InstanceRecord
	ord int64
}

type memTask struct {
	rec TaskRecord
	ord int64
}

type memExt struct {
	rec ExternalTaskRecord
	ord int64
}

type memRow[T any] struct {
	row  T
	ord  int64
	inst string
}

// memHPI is a historic instance with the ids of its other history rows
// and its latest variable values (for variable filters).
type memHPI struct {
	row                      engine.HistoricProcessInstance
	ord                      int64
	vars                     engine.Variables
	acts, tasks, hvars, decs []string // ids of its rows (an id may repeat)
}

func addIndex[T any](m map[string]map[string]*T, k, id string, v *T) {
	s := m[k]
	if s == nil {
		s = map[string]*T{}
		m[k] = s
	}
	s[id] = v
}

func delIndex[T any](m map[string]map[string]*T, k, id string) {
	if s := m[k]; s != nil {
		delete(s, id)
		if len(s) == 0 {
			delete(m, k)
		}
	}
}

func noRecord() error { return ErrNoRecord }

// muniIndex is the index and key of a task's Municipality text.
func (s *memStore) muniIndex(text string) (map[string]map[string]*memTask, string) {
	if k, ok := numberKey(text); ok {
		return s.byMuniNum, k
	}
	return s.byMuni, text
}

// numberKey is one key for every text of a number as MatchVariable
// compares numbers ("0363", "363" and "363.0" alike).
func numberKey(text string) (string, bool) {
	// most municipalities are names: no big.Float for them
	if text == "" || !strings.ContainsRune("+-.0123456789", rune(text[0])) {
		return "", false
	}
	x, ok := new(big.Float).SetString(text)
	if !ok || x.IsInf() {
		return "", false
	}
	return x.Text('g', -1), true
}

// --- deployments and definitions

func (s *memStore) CreateDeployment(ctx context.Context, d *DeploymentRecord) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.depByID[d.Deployment.ID]; dup {
		return &ConflictError{Kind: "deployment", ID: d.Deployment.ID, Have: 1}
	}
	s.seq++
	d.Seq = s.seq
	next := map[tenantKey]int{}
	for i := range d.ProcessDefinitions {
		p := &d.ProcessDefinitions[i]
		tk := tenantKey{p.TenantID, p.Key}
		v, ok := next[tk]
		if !ok {
			if l := s.latest[tk]; l != nil {
				v = l.Version
			}
		}
		v++
		next[tk] = v
		p.Version = v
		p.ID = DefinitionID(p.Key, v, p.ID)
		p.DeploymentID = d.Deployment.ID
	}
	rec := cloneDeployment(d)
	s.deps = append(s.deps, rec)
	s.depByID[rec.Deployment.ID] = rec
	for i := range rec.ProcessDefinitions {
		p := &rec.ProcessDefinitions[i]
		s.defs = append(s.defs, p)
		s.defByID[p.ID] = p
		s.latest[tenantKey{p.TenantID, p.Key}] = p
	}
	return nil
}

func cloneDeployment(d *DeploymentRecord) *DeploymentRecord {
	c := *d
	c.Resources = make([]ResourceRecord, len(d.Resources))
	for i, r := range d.Resources {
		c.Resources[i] = ResourceRecord{ID: r.ID, Name: r.Name, Data: slices.Clone(r.Data)}
	}
	c.ProcessDefinitions = slices.Clone(d.ProcessDefinitions)
	return &c
}

func (s *memStore) Deployment(ctx context.Context, id string) (DeploymentRecord, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	d, ok := s.depByID[id]
	if !ok {
		return DeploymentRecord{}, noRecord()
	}
	return *cloneDeployment(d), nil
}

func (s *memStore) Deployments(ctx context.Context, afterSeq int64) ([]DeploymentRecord, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	i, _ := slices.BinarySearchFunc(s.deps, afterSeq+1, func(d *DeploymentRecord, seq int64) int {
		switch {
		case d.Seq < seq:
			return -1
		case d.Seq > seq:
			return 1
		}
		return 0
	})
	out := make([]DeploymentRecord, 0, len(s.deps)-i)
	for _, d := range s.deps[i:] {
		out = append(out, *cloneDeployment(d))
	}
	return out, nil
}

func (s *memStore) DeleteDeployment(ctx context.Context, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.depByID[id]
	if !ok {
		return noRecord()
	}
	delete(s.depByID, id)
	s.deps = slices.DeleteFunc(s.deps, func(x *DeploymentRecord) bool { return x == d })
	touched := map[tenantKey]bool{}
	s.defs = slices.DeleteFunc(s.defs, func(p *engine.ProcessDefinition) bool {
		if p.DeploymentID != id {
			return false
		}
		delete(s.defByID, p.ID)
		touched[tenantKey{p.TenantID, p.Key}] = true
		return true
	})
	for tk := range touched {
		delete(s.latest, tk)
		for _, p := range s.defs {
			if p.TenantID == tk.tenant && p.Key == tk.key && (s.latest[tk] == nil || p.Version > s.latest[tk].Version) {
				s.latest[tk] = p
			}
		}
	}
	return nil
}

func (s *memStore) ProcessDefinitions(ctx context.Context, q engine.ProcessDefinitionQuery) ([]engine.ProcessDefinition, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []engine.ProcessDefinition
	for _, p := range s.defs {
		if !MatchProcessDefinition(q, p) {
			continue
		}
		if q.LatestVersion && s.latest[tenantKey{p.TenantID, p.Key}] != p {
			continue
		}
		out = append(out, *p)
	}
	SortProcessDefinitions(q, out)
	return engine.Page(out, q.FirstResult, q.MaxResults), nil
}

func (s *memStore) ProcessDefinition(ctx context.Context, id string) (engine.ProcessDefinition, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	p, ok := s.defByID[id]
	if !ok {
		return engine.ProcessDefinition{}, noRecord()
	}
	return *p, nil
}

func (s *memStore) LatestProcessDefinition(ctx context.Context, key, tenantID string) (engine.ProcessDefinition, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	p, ok := s.latest[tenantKey{tenantID, key}]
	if !ok {
		return engine.ProcessDefinition{}, noRecord()
	}
	return *p, nil
}

// --- instances

func cloneInstance(r *InstanceRecord) InstanceRecord {
	c := *r
	c.Variables = maps.Clone(r.Variables)
	c.State = slices.Clone(r.State)
	return c
}

func (s *memStore) Instance(ctx context.Context, id string) (InstanceRecord, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	m, ok := s.instances[id]
	if !ok {
		return InstanceRecord{}, noRecord()
	}
	return cloneInstance(&m.rec), nil
}

func (s *memStore) Instances(ctx context.Context, q engine.ProcessInstanceQuery) ([]InstanceRecord, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var ms []*memInstance
	consider := func(m *memInstance) {
		if !MatchInstance(q, &m.rec) {
			return
		}
		if q.SubProcessInstance != "" {
			sub, ok := s.instances[q.SubProcessInstance]
			if !ok || sub.rec.SuperInstanceID != m.rec.ID {
				return
			}
		}
		ms = append(ms, m)
	}
	if q.SuperProcessInstance != "" {
		for _, m := range s.bySuper[q.SuperProcessInstance] {
			consider(m)
		}
	} else if len(q.ProcessInstanceIDs) > 0 {
		for _, id := range q.ProcessInstanceIDs {
			if m, ok := s.instances[id]; ok {
				consider(m)
			}
		}
	} else {
		for _, m := range s.instances {
			consider(m)
		}
	}
	slices.SortFunc(ms, func(a, b *memInstance) int { return int(a.ord - b.ord) })
	ms = slices.CompactFunc(ms, func(a, b *memInstance) bool { return a == b })
	out := make([]InstanceRecord, len(ms))
	for i, m := range ms {
		out[i] = cloneInstance(&m.rec)
	}
	SortInstances(q, out)
	return engine.Page(out, q.FirstResult, q.MaxResults), nil
}

func (s *memStore) InstanceCount(ctx context.Context, deploymentID string) (int, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if deploymentID == "" {
		return len(s.instances), nil
	}
	n := 0
	for _, m := range s.instances {
		if m.rec.DeploymentID == deploymentID {
			n++
		}
	}
	return n, nil
}

// --- tasks

func cloneTask(r *TaskRecord) TaskRecord {
	c := *r
	c.Task.CandidateUsers = slices.Clone(r.Task.CandidateUsers)
	c.Task.CandidateGroups = slices.Clone(r.Task.CandidateGroups)
	if r.Task.FormRef != nil {
		f := *r.Task.FormRef
		c.Task.FormRef = &f
	}
	return c
}

func (s *memStore) Task(ctx context.Context, id string) (TaskRecord, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	m, ok := s.tasks[id]
	if !ok {
		return TaskRecord{}, noRecord()
	}
	return cloneTask(&m.rec), nil
}

// taskCandidates narrows the tasks to scan by the query's indexed filters.
func (s *memStore) taskCandidates(q engine.TaskQuery) []*memTask {
	var best map[string]*memTask
	narrowed := false
	pick := func(m map[string]*memTask) {
		if !narrowed || len(m) < len(best) {
			best, narrowed = m, true
		}
	}
	for _, f := range q.ProcessVariables {
		if f.Name != "municipality" || (f.Operator != "eq" && f.Operator != "") {
			continue
		}
		// a superset of what MatchVariable accepts, narrowed by MatchTask:
		// numeric text ("0363", 363) compares numerically with a number
		// variable and a number filter with numeric text, so both find
		// their tasks under the number
		switch v := f.Value.(type) {
		case string:
			idx, k := s.muniIndex(v)
			pick(idx[k])
		case json.Number:
			if k, ok := numberKey(string(v)); ok {
				pick(s.byMuniNum[k])
			}
		}
	}
	if q.ProcessInstanceID != "" {
		pick(s.tasksByInst[q.ProcessInstanceID])
	}
	if q.TaskID != "" {
		m := map[string]*memTask{}
		if t, ok := s.tasks[q.TaskID]; ok {
			m[q.TaskID] = t
		}
		pick(m)
	}
	var out []*memTask
	// a candidate group filter without a candidate user is a union of the
	// groups' indexes
	if q.CandidateUser == "" && (q.CandidateGroup != "" || len(q.CandidateGroups) > 0) {
		groups := q.CandidateGroups
		if q.CandidateGroup != "" {
			groups = append([]string{q.CandidateGroup}, groups...)
		}
		n := 0
		for _, g := range groups {
			n += len(s.byGroup[g])
		}
		if !narrowed || n < len(best) {
			seen := map[*memTask]bool{}
			for _, g := range groups {
				for _, t := range s.byGroup[g] {
					if !seen[t] {
						seen[t] = true
						out = append(out, t)
					}
				}
			}
			return out
		}
	}
	if !narrowed {
		best = s.tasks
	}
	out = make([]*memTask, 0, len(best))
	for _, t := range best {
		out = append(out, t)
	}
	return out
}

func (s *memStore) matchingTasks(q engine.TaskQuery) []*memTask {
	cands := s.taskCandidates(q)
	out := cands[:0]
	for _, t := range cands {
		var vars engine.Variables
		if len(q.ProcessVariables) > 0 {
			if inst := s.instances[t.rec.Task.ProcessInstanceID]; inst != nil {
				vars = inst.rec.Variables
			}
		}
		if MatchTask(q, &t.rec, vars) {
			out = append(out, t)
		}
	}
	slices.SortFunc(out, func(a, b *memTask) int { return int(a.ord - b.ord) })
	return out
}

func (s *memStore) Tasks(ctx context.Context, q engine.TaskQuery) ([]TaskRecord, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ms := s.matchingTasks(q)
	recs := make([]TaskRecord, len(ms))
	for i, m := range ms {
		recs[i] = m.rec // shallow: cloned after paging
	}
	SortTasks(q, recs)
	recs = engine.Page(recs, q.FirstResult, q.MaxResults)
	for i := range recs {
		recs[i] = cloneTask(&recs[i])
	}
	return recs, nil
}

func (s *memStore) TaskCount(ctx context.Context, q engine.TaskQuery) (int, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.matchingTasks(q)), nil
}

func (s *memStore) InstanceTasks(ctx context.Context, instanceIDs ...string) ([]TaskRecord, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var ms []*memTask
	for _, id := range instanceIDs {
		for _, t := range s.tasksByInst[id] {
			ms = append(ms, t)
		}
	}
	slices.SortFunc(ms, func(a, b *memTask) int { return int(a.ord - b.ord) })
	out := make([]TaskRecord, len(ms))
	for i, m := range ms {
		out[i] = cloneTask(&m.rec)
	}
	return out, nil
}

// --- external tasks

func cloneExt(r *ExternalTaskRecord) ExternalTaskRecord {
	c := *r
	if r.Retries != nil {
		n := *r.Retries
		c.Retries = &n
	}
	return c
}

func (s *memStore) ExternalTask(ctx context.Context, id string) (ExternalTaskRecord, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	m, ok := s.ext[id]
	if !ok {
		return ExternalTaskRecord{}, noRecord()
	}
	return cloneExt(&m.rec), nil
}

func (s *memStore) InstanceExternalTasks(ctx context.Context, instanceIDs ...string) ([]ExternalTaskRecord, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var ms []*memExt
	for _, id := range instanceIDs {
		for _, t := range s.extByInst[id] {
			ms = append(ms, t)
		}
	}
	slices.SortFunc(ms, func(a, b *memExt) int { return int(a.ord - b.ord) })
	out := make([]ExternalTaskRecord, len(ms))
	for i, m := range ms {
		out[i] = cloneExt(&m.rec)
	}
	return out, nil
}

func (s *memStore) Incidents(ctx context.Context, q engine.IncidentQuery) ([]engine.Incident, error) {
	s.mu.RLock()
	var ms []*memExt
	for _, m := range s.ext {
		if m.rec.IncidentID != "" {
			ms = append(ms, m)
		}
	}
	slices.SortFunc(ms, func(a, b *memExt) int { return int(a.ord - b.ord) })
	recs := make([]ExternalTaskRecord, len(ms))
	for i, m := range ms {
		recs[i] = cloneExt(&m.rec)
	}
	s.mu.RUnlock()
	return Incidents(q, recs), nil
}

// Fetchable reports whether an external task can be locked at now for the
// topic (see Store.LockExternalTasks).
func Fetchable(r *ExternalTaskRecord, t *engine.FetchTopic, now time.Time) bool {
	switch {
	case r.TopicName != t.TopicName, r.Suspended,
		r.WorkerID != "" && r.LockExpiration.After(now),
		r.Retries != nil && *r.Retries <= 0,
		!r.RetryAt.IsZero() && r.RetryAt.After(now),
		t.BusinessKey != "" && t.BusinessKey != r.BusinessKey,
		t.ProcessDefinitionKey != "" && t.ProcessDefinitionKey != r.DefinitionKey,
		!tenantOK(t.TenantIDIn, t.WithoutTenantID, r.TenantID):
		return false
	}
	return true
}

func (s *memStore) LockExternalTasks(ctx context.Context, r LockRequest) ([]ExternalTaskRecord, error) {
	if r.MaxTasks <= 0 {
		return nil, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	type cand struct {
		m     *memExt
		topic *engine.FetchTopic
	}
	var cs []cand
	for _, m := range s.ext {
		for i := range r.Topics {
			if Fetchable(&m.rec, &r.Topics[i], r.Now) {
				cs = append(cs, cand{m, &r.Topics[i]})
				break
			}
		}
	}
	slices.SortFunc(cs, func(a, b cand) int {
		if r.UsePriority && a.m.rec.Priority != b.m.rec.Priority {
			if a.m.rec.Priority > b.m.rec.Priority {
				return -1
			}
			return 1
		}
		return int(a.m.ord - b.m.ord)
	})
	if len(cs) > r.MaxTasks {
		cs = cs[:r.MaxTasks]
	}
	out := make([]ExternalTaskRecord, len(cs))
	for i, c := range cs {
		c.m.rec.WorkerID = r.WorkerID
		c.m.rec.LockExpiration = r.Now.Add(c.topic.LockDuration)
		c.m.rec.Version++
		out[i] = cloneExt(&c.m.rec)
	}
	return out, nil
}

// --- commit

func (s *memStore) Commit(ctx context.Context, c Change) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// check every version first: nothing is applied on a conflict
	newInstances, newTasks := 0, 0
	for i := range c.Instances {
		r := &c.Instances[i]
		m := s.instances[r.ID]
		if err := checkVersion("instance", r.ID, r.Version, m != nil, func() int64 { return m.rec.Version }); err != nil {
			return err
		}
		if m == nil {
			newInstances++
		}
	}
	for _, d := range c.DeleteInstances {
		m := s.instances[d.ID]
		if err := checkVersion("instance", d.ID, d.Version, m != nil, func() int64 { return m.rec.Version }); err != nil {
			return err
		}
		newInstances--
	}
	for i := range c.Tasks {
		r := &c.Tasks[i]
		m := s.tasks[r.Task.ID]
		if err := checkVersion("task", r.Task.ID, r.Version, m != nil, func() int64 { return m.rec.Version }); err != nil {
			return err
		}
		if m == nil {
			newTasks++
		}
	}
	for _, d := range c.DeleteTasks {
		m := s.tasks[d.ID]
		if err := checkVersion("task", d.ID, d.Version, m != nil, func() int64 { return m.rec.Version }); err != nil {
			return err
		}
		newTasks--
	}
	for i := range c.ExternalTasks {
		r := &c.ExternalTasks[i]
		m := s.ext[r.ID]
		if err := checkVersion("externalTask", r.ID, r.Version, m != nil, func() int64 { return m.rec.Version }); err != nil {
			return err
		}
		if m == nil {
			newTasks++
		}
	}
	for _, d := range c.DeleteExternalTasks {
		m := s.ext[d.ID]
		if err := checkVersion("externalTask", d.ID, d.Version, m != nil, func() int64 { return m.rec.Version }); err != nil {
			return err
		}
		newTasks--
	}
	if s.maxInstances >= 0 && newInstances > 0 && len(s.instances)+newInstances > s.maxInstances {
		return &engine.StorageFullError{Limit: "MaxInstances", Max: int64(s.maxInstances), Need: int64(len(s.instances) + newInstances)}
	}
	if n := len(s.tasks) + len(s.ext); s.maxTasks >= 0 && newTasks > 0 && n+newTasks > s.maxTasks {
		return &engine.StorageFullError{Limit: "MaxTasks", Max: int64(s.maxTasks), Need: int64(n + newTasks)}
	}

	// apply
	for i := range c.Instances {
		r := cloneInstance(&c.Instances[i])
		r.Version++
		if m := s.instances[r.ID]; m != nil {
			if m.rec.SuperInstanceID != r.SuperInstanceID {
				delIndex(s.bySuper, m.rec.SuperInstanceID, r.ID)
				if r.SuperInstanceID != "" {
					addIndex(s.bySuper, r.SuperInstanceID, r.ID, m)
				}
			}
			m.rec = r
			continue
		}
		s.ord++
		m := &memInstance{rec: r, ord: s.ord}
		s.instances[r.ID] = m
		if r.SuperInstanceID != "" {
			addIndex(s.bySuper, r.SuperInstanceID, r.ID, m)
		}
	}
	for _, d := range c.DeleteInstances {
		if m := s.instances[d.ID]; m != nil {
			delete(s.instances, d.ID)
			if m.rec.SuperInstanceID != "" {
				delIndex(s.bySuper, m.rec.SuperInstanceID, d.ID)
			}
		}
	}
	for _, d := range c.DeleteTasks {
		s.removeTask(d.ID)
	}
	for i := range c.Tasks {
		r := cloneTask(&c.Tasks[i])
		r.Version++
		ord := int64(0)
		if m := s.tasks[r.Task.ID]; m != nil {
			ord = m.ord
			s.removeTask(r.Task.ID)
		} else {
			s.ord++
			ord = s.ord
		}
		m := &memTask{rec: r, ord: ord}
		s.tasks[r.Task.ID] = m
		idx, k := s.muniIndex(r.Municipality)
		addIndex(idx, k, r.Task.ID, m)
		addIndex(s.tasksByInst, r.Task.ProcessInstanceID, r.Task.ID, m)
		for _, g := range slices.Compact(slices.Sorted(slices.Values(r.Task.CandidateGroups))) {
			addIndex(s.byGroup, g, r.Task.ID, m)
		}
	}
	for _, d := range c.DeleteExternalTasks {
		if m := s.ext[d.ID]; m != nil {
			delete(s.ext, d.ID)
			delIndex(s.extByInst, m.rec.InstanceID, d.ID)
		}
	}
	for i := range c.ExternalTasks {
		r := cloneExt(&c.ExternalTasks[i])
		r.Version++
		if m := s.ext[r.ID]; m != nil {
			m.rec = r
			continue
		}
		s.ord++
		m := &memExt{rec: r, ord: s.ord}
		s.ext[r.ID] = m
		addIndex(s.extByInst, r.InstanceID, r.ID, m)
	}
	s.applyHistory(&c.History)
	return nil
}

func checkVersion(kind, id string, want int64, exists bool, have func() int64) error {
	switch {
	case want == 0 && exists:
		return &ConflictError{Kind: kind, ID: id, Want: 0, Have: have()}
	case want != 0 && !exists:
		return &ConflictError{Kind: kind, ID: id, Want: want, Have: 0}
	case want != 0 && have() != want:
		return &ConflictError{Kind: kind, ID: id, Want: want, Have: have()}
	}
	return nil
}

func (s *memStore) removeTask(id string) {
	m := s.tasks[id]
	if m == nil {
		return
	}
	delete(s.tasks, id)
	idx, k := s.muniIndex(m.rec.Municipality)
	delIndex(idx, k, id)
	delIndex(s.tasksByInst, m.rec.Task.ProcessInstanceID, id)
	for _, g := range m.rec.Task.CandidateGroups {
		delIndex(s.byGroup, g, id)
	}
}

// --- history

func (s *memStore) hpiOf(id string) *memHPI {
	h := s.hpi[id]
	if h == nil {
		s.ord++
		h = &memHPI{ord: s.ord, vars: engine.Variables{}}
		h.row.ID = id
		s.hpi[id] = h
	}
	return h
}

// upsertRow inserts or replaces a history row; it reports an insert.
func upsertRow[T any](s *memStore, m map[string]*memRow[T], id, inst string, row T) bool {
	if r := m[id]; r != nil {
		r.row = row
		return false
	}
	s.ord++
	m[id] = &memRow[T]{row: row, ord: s.ord, inst: inst}
	return true
}

func (s *memStore) applyHistory(h *HistoryChange) {
	added := false
	for _, p := range h.ProcessInstances {
		if _, ok := s.hpi[p.ID]; !ok {
			added = true
		}
		hp := s.hpiOf(p.ID)
		if p.EndTime != nil && hp.row.EndTime == nil {
			s.ended = append(s.ended, p.ID)
		}
		hp.row = p
	}
	for _, a := range h.Activities {
		if upsertRow(s, s.hact, a.ID, a.ProcessInstanceID, a) {
			hp := s.hpiOf(a.ProcessInstanceID)
			hp.acts = append(hp.acts, a.ID)
		}
	}
	for _, t := range h.Tasks {
		if upsertRow(s, s.htask, t.ID, t.ProcessInstanceID, t) {
			hp := s.hpiOf(t.ProcessInstanceID)
			hp.tasks = append(hp.tasks, t.ID)
		}
	}
	for _, v := range h.Variables {
		hp := s.hpiOf(v.ProcessInstanceID)
		if old := s.hvar[v.ID]; old != nil {
			v.CreateTime = old.row.CreateTime // the contract: an update keeps it
		}
		if upsertRow(s, s.hvar, v.ID, v.ProcessInstanceID, v) {
			hp.hvars = append(hp.hvars, v.ID)
		}
		if v.State == "DELETED" {
			delete(hp.vars, v.Name)
		} else {
			hp.vars[v.Name] = v.Value
		}
	}
	for _, d := range h.Decisions {
		d.Inputs = slices.Clone(d.Inputs)
		d.Outputs = slices.Clone(d.Outputs)
		if upsertRow(s, s.hdec, d.ID, d.ProcessInstanceID, d) && d.ProcessInstanceID != "" {
			hp := s.hpiOf(d.ProcessInstanceID)
			hp.decs = append(hp.decs, d.ID)
		}
	}
	if added && s.maxHistory >= 0 && len(s.hpi) > s.maxHistory {
		s.dropOldestHistory(len(s.hpi) - s.maxHistory)
	}
}

// dropOldestHistory drops the history of up to n ended instances, oldest
// first (in the order they ended).
func (s *memStore) dropOldestHistory(n int) {
	for n > 0 && s.endedHead < len(s.ended) {
		id := s.ended[s.endedHead]
		s.ended[s.endedHead] = ""
		s.endedHead++
		if _, ok := s.hpi[id]; ok {
			s.deleteHistory(id)
			n--
		}
	}
	if s.endedHead > 1024 && s.endedHead*2 > len(s.ended) {
		s.ended = slices.Clone(s.ended[s.endedHead:])
		s.endedHead = 0
	}
}

func (s *memStore) deleteHistory(id string) {
	h := s.hpi[id]
	if h == nil {
		return
	}
	for _, a := range h.acts {
		delete(s.hact, a)
	}
	for _, t := range h.tasks {
		delete(s.htask, t)
	}
	for _, v := range h.hvars {
		delete(s.hvar, v)
	}
	for _, d := range h.decs {
		delete(s.hdec, d)
	}
	delete(s.hpi, id)
}

func (s *memStore) DeleteHistory(ctx context.Context, instanceIDs ...string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range instanceIDs {
		s.deleteHistory(id)
	}
	return nil
}

func (s *memStore) HistoricProcessInstances(ctx context.Context, q engine.HistoricProcessInstanceQuery) ([]engine.HistoricProcessInstance, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var hs []*memHPI
	if len(q.ProcessInstanceIDs) > 0 || q.ProcessInstanceID != "" {
		ids := q.ProcessInstanceIDs
		if q.ProcessInstanceID != "" {
			ids = []string{q.ProcessInstanceID}
		}
		for _, id := range slices.Compact(slices.Sorted(slices.Values(ids))) {
			if h := s.hpi[id]; h != nil {
				hs = append(hs, h)
			}
		}
	} else {
		for _, h := range s.hpi {
			hs = append(hs, h)
		}
	}
	var out []*memHPI
	for _, h := range hs {
		if h.row.StartTime.IsZero() && h.row.ProcessDefinitionID == "" {
			continue // rows of an instance whose own row is not there
		}
		if MatchHistoricProcessInstance(q, &h.row, h.vars) {
			out = append(out, h)
		}
	}
	slices.SortFunc(out, func(a, b *memHPI) int { return int(a.ord - b.ord) })
	rows := make([]engine.HistoricProcessInstance, len(out))
	for i, h := range out {
		rows[i] = h.row
	}
	SortHistoricProcessInstances(q, rows)
	return engine.Page(rows, q.FirstResult, q.MaxResults), nil
}

func sortedRows[T any](m map[string]*memRow[T], keep func(*memRow[T]) bool) []T {
	var rs []*memRow[T]
	for _, r := range m {
		if keep(r) {
			rs = append(rs, r)
		}
	}
	slices.SortFunc(rs, func(a, b *memRow[T]) int { return int(a.ord - b.ord) })
	out := make([]T, len(rs))
	for i, r := range rs {
		out[i] = r.row
	}
	return out
}

func (s *memStore) HistoricTasks(ctx context.Context, q engine.HistoricTaskQuery) ([]engine.HistoricTask, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	rows := sortedRows(s.htask, func(r *memRow[engine.HistoricTask]) bool {
		var vars engine.Variables
		if len(q.ProcessVariables) > 0 {
			if h := s.hpi[r.inst]; h != nil {
				vars = h.vars
			}
		}
		return MatchHistoricTask(q, &r.row, vars)
	})
	SortHistoricTasks(q, rows)
	return engine.Page(rows, q.FirstResult, q.MaxResults), nil
}

func (s *memStore) HistoricVariables(ctx context.Context, q engine.HistoricVariableQuery) ([]engine.HistoricVariable, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	rows := sortedRows(s.hvar, func(r *memRow[engine.HistoricVariable]) bool { return MatchHistoricVariable(q, &r.row) })
	SortHistoricVariables(q, rows)
	return engine.Page(rows, q.FirstResult, q.MaxResults), nil
}

func (s *memStore) HistoricActivities(ctx context.Context, q engine.HistoricActivityQuery) ([]engine.HistoricActivity, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	rows := sortedRows(s.hact, func(r *memRow[engine.HistoricActivity]) bool { return MatchHistoricActivity(q, &r.row) })
	SortHistoricActivities(q, rows)
	return engine.Page(rows, q.FirstResult, q.MaxResults), nil
}

func (s *memStore) HistoricDecisions(ctx context.Context, q engine.HistoricDecisionQuery) ([]engine.HistoricDecision, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	rows := sortedRows(s.hdec, func(r *memRow[engine.HistoricDecision]) bool { return MatchHistoricDecision(q, &r.row) })
	for i := range rows {
		rows[i].Inputs = slices.Clone(rows[i].Inputs)
		rows[i].Outputs = slices.Clone(rows[i].Outputs)
	}
	SortHistoricDecisions(q, rows)
	return engine.Page(rows, q.FirstResult, q.MaxResults), nil
}

var _ Store = (*memStore)(nil)
