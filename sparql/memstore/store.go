package memstore

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/regelkit/regelkit/sparql"
	"github.com/regelkit/regelkit/sparql/graph"
)

// Store is an in-memory RDF dataset (a default graph and named graphs)
// with a SPARQL 1.1 query and update engine. It is safe for concurrent
// use: each query reads one immutable snapshot, and writers (updates,
// loads) are serialised and publish a new snapshot when they finish, so
// readers never see a half-applied change.
type Store struct {
	wmu   sync.Mutex // serialises writers
	dict  *dict
	snap  atomic.Pointer[snapshot]
	bnode atomic.Uint64 // fresh blank node labels
	cache queryCache
	opts  Options
}

var _ sparql.Endpoint = (*Store)(nil)

// snapshot is one immutable state of the dataset.
type snapshot struct {
	dv     dictView
	graphs map[uint32]*gindex // 0 is the default graph
}

// Options configure a store.
type Options struct {
	// UnionDefaultGraph makes queries without FROM see the union of the
	// default graph and all named graphs as their default graph, as
	// TriplyDB and some other stores do. Updates still write to the real
	// default graph.
	UnionDefaultGraph bool
	// Limits bound every query and update on the store (also those made
	// through sparql.Endpoint and the protocol handler); QueryOptions and
	// UpdateOptions can override them per call.
	Limits Limits
}

// New returns an empty store.
func New() *Store { return NewWithOptions(Options{}) }

// NewWithOptions returns an empty store configured by opts.
func NewWithOptions(opts Options) *Store {
	s := &Store{dict: newDict(), opts: opts}
	s.snap.Store(&snapshot{dv: s.dict.view(), graphs: map[uint32]*gindex{0: {}}})
	return s
}

func (s *Store) current() *snapshot { return s.snap.Load() }

// Len returns the number of quads in the store.
func (s *Store) Len() int {
	n := 0
	for _, g := range s.current().graphs {
		n += g.len()
	}
	return n
}

// namedGraphs returns the ids of the named graphs, sorted.
func (sn *snapshot) namedGraphs() []uint32 {
	out := make([]uint32, 0, len(sn.graphs))
	for id := range sn.graphs {
		if id != 0 {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// Quads returns every quad in the store (default graph first).
func (s *Store) Quads() []graph.Quad {
	sn := s.current()
	var out []graph.Quad
	for _, gid := range append([]uint32{0}, sn.namedGraphs()...) {
		g := sn.graphs[gid]
		gt := sn.dv.term(gid)
		for _, t := range g.spo {
			out = append(out, graph.Quad{S: sn.dv.term(t[0]), P: sn.dv.term(t[1]), O: sn.dv.term(t[2]), G: gt})
		}
	}
	return out
}

// Add adds quads (a zero G means the default graph).
func (s *Store) Add(quads ...graph.Quad) {
	s.write(func(w *writer) error {
		for _, q := range quads {
			w.add(q)
		}
		return nil
	})
}

// writer collects changes on top of a snapshot.
type writer struct {
	s      *Store
	graphs map[uint32]*gindex
	adds   map[uint32][]key
	dels   map[uint32][]key
	dirty  bool
}

// write runs fn as the single writer and publishes the result unless fn
// fails; a failed fn leaves the store unchanged.
func (s *Store) write(fn func(w *writer) error) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	cur := s.current()
	w := &writer{s: s, graphs: make(map[uint32]*gindex, len(cur.graphs)), adds: map[uint32][]key{}, dels: map[uint32][]key{}}
	for k, v := range cur.graphs {
		w.graphs[k] = v
	}
	if err := fn(w); err != nil {
		return err
	}
	w.flush()
	s.snap.Store(&snapshot{dv: s.dict.view(), graphs: w.graphs})
	return nil
}

// snapshot returns the writer's current state (with pending changes
// applied) for evaluating a WHERE clause.
func (w *writer) snapshot() *snapshot {
	w.flush()
	return &snapshot{dv: w.s.dict.view(), graphs: w.graphs}
}

func (w *writer) flush() {
	if !w.dirty {
		return
	}
	touched := map[uint32]bool{}
	for g := range w.adds {
		touched[g] = true
	}
	for g := range w.dels {
		touched[g] = true
	}
	for g := range touched {
		old, exists := w.graphs[g]
		if len(w.adds[g]) == 0 && !exists {
			continue
		}
		w.graphs[g] = old.with(w.adds[g], w.dels[g])
	}
	w.adds, w.dels = map[uint32][]key{}, map[uint32][]key{}
	w.dirty = false
}

func (w *writer) graphID(g graph.Term) uint32 {
	if g.IsZero() {
		return 0
	}
	return w.s.dict.intern(g)
}

func (w *writer) add(q graph.Quad) {
	g := w.graphID(q.G)
	w.addIDs(g, key{w.s.dict.intern(q.S), w.s.dict.intern(q.P), w.s.dict.intern(q.O)})
}

func (w *writer) addIDs(g uint32, k key) {
	w.adds[g] = append(w.adds[g], k)
	w.dirty = true
}

func (w *writer) remove(q graph.Quad) {
	var ids [4]uint32
	for i, t := range []graph.Term{q.S, q.P, q.O, q.G} {
		if i == 3 && t.IsZero() {
			continue
		}
		id := w.s.dict.lookup(t)
		if id == 0 {
			return
		}
		ids[i] = id
	}
	w.removeIDs(ids[3], key{ids[0], ids[1], ids[2]})
}

func (w *writer) removeIDs(g uint32, k key) {
	if _, ok := w.graphs[g]; !ok {
		return
	}
	w.dels[g] = append(w.dels[g], k)
	w.dirty = true
}

// Select implements sparql.Endpoint.
func (s *Store) Select(ctx context.Context, query string) (*sparql.Results, error) {
	res, err := s.Query(ctx, query)
	if err != nil {
		return nil, err
	}
	if res.Results == nil || res.Results.Boolean != nil {
		return nil, &QueryFormError{Want: "SELECT"}
	}
	return res.Results, nil
}

// Ask implements sparql.Endpoint.
func (s *Store) Ask(ctx context.Context, query string) (bool, error) {
	res, err := s.Query(ctx, query)
	if err != nil {
		return false, err
	}
	if res.Results == nil || res.Results.Boolean == nil {
		return false, &QueryFormError{Want: "ASK"}
	}
	return *res.Results.Boolean, nil
}

// Construct implements sparql.Endpoint (CONSTRUCT and DESCRIBE).
func (s *Store) Construct(ctx context.Context, query string) (*graph.Graph, error) {
	res, err := s.Query(ctx, query)
	if err != nil {
		return nil, err
	}
	if res.Graph == nil {
		return nil, &QueryFormError{Want: "CONSTRUCT or DESCRIBE"}
	}
	return res.Graph, nil
}

// QueryFormError reports a query of another form than the method expects,
// e.g. an ASK query passed to Select.
type QueryFormError struct{ Want string }

func (e *QueryFormError) Error() string {
	return "memstore: expected a " + e.Want + " query"
}
