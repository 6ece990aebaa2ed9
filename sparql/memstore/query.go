package memstore

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/regelkit/regelkit/sparql"
	"github.com/regelkit/regelkit/sparql/graph"
	"github.com/regelkit/regelkit/sparql/memstore/internal/algebra"
)

// QueryOptions refine a query.
type QueryOptions struct {
	// Base is the base IRI for relative IRIs in the query text.
	Base string
	// DefaultGraphs and NamedGraphs, when set, replace the query's FROM and
	// FROM NAMED clauses (the protocol's default-graph-uri and
	// named-graph-uri parameters).
	DefaultGraphs []string
	NamedGraphs   []string
	// Limits override the store's Options.Limits field by field for this
	// query.
	Limits Limits
}

// Result is the answer to any query form: Results for SELECT and ASK
// (Results.Boolean set), Graph for CONSTRUCT and DESCRIBE.
type Result struct {
	Results *sparql.Results
	Graph   *graph.Graph
}

// SyntaxError is a query or update that does not parse or compile (an
// unknown function, a constant regular expression that is not valid);
// Line and Column point at the offending token or call.
type SyntaxError struct {
	Line, Column int
	Msg          string
}

func (e *SyntaxError) Error() string {
	return "sparql syntax error at " + strconv.Itoa(e.Line) + ":" + strconv.Itoa(e.Column) + ": " + e.Msg
}

func syntaxError(err error) error {
	if e, ok := err.(*algebra.Error); ok {
		return &SyntaxError{Line: e.Pos.Line, Column: e.Pos.Col, Msg: e.Msg}
	}
	return err
}

// Query runs any query form.
func (s *Store) Query(ctx context.Context, query string) (*Result, error) {
	return s.QueryWith(ctx, query, QueryOptions{})
}

// parsed queries are cached: the explorer repeats a handful of queries.
type queryCache struct {
	mu sync.Mutex
	m  map[string]*algebra.Query
}

func (c *queryCache) get(key string) *algebra.Query {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[key]
}

// The cache holds at most maxCached queries of at most maxCachedBytes:
// the explorer's queries are a few KB, and a stranger's 10 MB queries
// must not stay in memory.
const (
	maxCached      = 256
	maxCachedBytes = 32 << 10
)

func (c *queryCache) put(key string, q *algebra.Query) {
	if len(key) > maxCachedBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxCached {
		c.m = map[string]*algebra.Query{}
	}
	c.m[key] = q
}

// QueryWith runs any query form with options. An evaluation that passes
// one of its Limits fails with a *LimitError; a query nested deeper than
// MaxDepth fails to parse (*SyntaxError).
func (s *Store) QueryWith(ctx context.Context, query string, opts QueryOptions) (*Result, error) {
	q, x, err := s.prepare(ctx, query, opts)
	if err != nil {
		return nil, err
	}
	return x.runQuery(q)
}

// prepare parses query (or takes it from the cache) and sets up its
// evaluation over the current snapshot.
func (s *Store) prepare(ctx context.Context, query string, opts QueryOptions) (*algebra.Query, *exec, error) {
	lim := opts.Limits.resolve(s.opts.Limits)
	ckey := strconv.Itoa(lim.MaxDepth) + "\x00" + opts.Base + "\x00" + query
	q := s.cache.get(ckey)
	if q == nil {
		var err error
		q, err = algebra.ParseQuery(query, algebra.Options{Base: opts.Base, MaxDepth: lim.parseDepth()})
		if err != nil {
			return nil, nil, syntaxError(err)
		}
		s.cache.put(ckey, q)
	}
	from, fromNamed := q.From, q.FromNamed
	if opts.DefaultGraphs != nil || opts.NamedGraphs != nil {
		from, fromNamed = opts.DefaultGraphs, opts.NamedGraphs
	}
	return q, s.newExec(ctx, newBudget(lim, time.Now()), s.current(), from, fromNamed), nil
}

// streamSelect evaluates a SELECT query and passes each solution to emit
// as it is produced, without holding the result: row[i] is the value of
// q.Vars[i] (a zero Term: unbound) and is reused for the next solution.
// emit returning false stops the evaluation. MaxRows still bounds the
// number of solutions; they count against no byte budget, being held
// nowhere.
func (x *exec) streamSelect(q *algebra.Query, emit func(row []graph.Term) bool) (err error) {
	defer recoverEval(&err)
	c := newCompiler(x, q.Base)
	root := c.compile(q.Pattern)
	if x.err != nil {
		return x.err
	}
	slots := make([]int, len(q.Vars))
	for i, v := range q.Vars {
		slots[i] = c.slot(v)
	}
	row := make([]graph.Term, len(slots))
	n := 0
	root.run(x, x.defaults, make(binding, len(c.names)), func(b binding) bool {
		n++
		if !x.hold(n, 0) {
			return false
		}
		for i, s := range slots {
			row[i] = graph.Term{}
			if s < len(b) && b[s] != 0 {
				row[i] = x.term(b[s])
			}
		}
		return emit(row) && x.tick()
	})
	return x.err
}

func (s *Store) newExec(ctx context.Context, b budget, sn *snapshot, from, fromNamed []string) *exec {
	x := &exec{
		ctx:  ctx,
		sn:   sn,
		dict: s.dict,
		ov:   map[graph.Term]uint32{},
		now:  time.Now(),
		b:    b,
		an:   algebra.NewAnalysis(),
		bnodes: func() string {
			return "b" + strconv.FormatUint(s.bnode.Add(1), 36)
		},
	}
	x.querySeq = s.bnode.Add(1)
	x.unionDefault = s.opts.UnionDefaultGraph
	x.setDataset(from, fromNamed)
	return x
}

// setDataset fixes the default graph and the named graphs: the store's
// default graph and all its named graphs, unless FROM / FROM NAMED say
// otherwise.
func (x *exec) setDataset(from, fromNamed []string) {
	x.namedSet = map[uint32]bool{}
	x.named = nil // USING NAMED replaces the dataset newExec set
	if len(from) == 0 && len(fromNamed) == 0 {
		x.defaults = active{x.sn.graphs[0]}
		x.named = x.sn.namedGraphs()
		for _, g := range x.named {
			x.namedSet[g] = true
			if x.unionDefault {
				x.defaults = append(x.defaults, x.sn.graphs[g])
			}
		}
		return
	}
	x.defaults = active{}
	for _, iri := range from {
		id := x.idOf(graph.IRI(iri))
		if g, ok := x.sn.graphs[id]; ok && id&overlayBit == 0 {
			x.defaults = append(x.defaults, g)
		}
	}
	if len(x.defaults) == 0 {
		x.defaults = active{nil}
	}
	for _, iri := range fromNamed {
		id := x.idOf(graph.IRI(iri))
		if _, ok := x.sn.graphs[id]; ok && id&overlayBit == 0 && !x.namedSet[id] {
			x.named = append(x.named, id)
			x.namedSet[id] = true
		}
	}
}

// EvaluationError is a bug in the engine met while evaluating; the engine
// reports it instead of crashing the caller.
type EvaluationError struct{ Msg string }

func (e *EvaluationError) Error() string { return "memstore: evaluation failed: " + e.Msg }

func recoverEval(err *error) {
	if r := recover(); r != nil {
		*err = &EvaluationError{Msg: fmt.Sprint(r)}
	}
}

func (x *exec) runQuery(q *algebra.Query) (res *Result, err error) {
	defer recoverEval(&err)
	c := newCompiler(x, q.Base)
	root := c.compile(q.Pattern)
	if x.err != nil { // an unknown function or an invalid constant pattern
		return nil, x.err
	}
	width := func() int { return len(c.names) }
	switch q.Form {
	case algebra.Ask:
		found := false
		root.run(x, x.defaults, make(binding, width()), func(binding) bool { found = true; return false })
		if x.err != nil {
			return nil, x.err
		}
		return &Result{Results: &sparql.Results{Vars: []string{}, Boolean: &found}}, nil
	case algebra.Select:
		res := &sparql.Results{Vars: q.Vars, Solutions: []sparql.Solution{}}
		slots := make([]int, len(q.Vars))
		for i, v := range q.Vars {
			slots[i] = c.slot(v)
		}
		root.run(x, x.defaults, make(binding, width()), func(b binding) bool {
			sol := make(sparql.Solution, len(slots))
			for i, s := range slots {
				if s < len(b) && b[s] != 0 {
					sol[q.Vars[i]] = x.term(b[s])
				}
			}
			res.Solutions = append(res.Solutions, sol)
			return x.hold(len(res.Solutions), solutionBytes(len(sol))) && x.tick()
		})
		if x.err != nil {
			return nil, x.err
		}
		return &Result{Results: res}, nil
	case algebra.Construct:
		g := graph.NewGraph()
		tmpl := make([][3]tmplPos, len(q.Template))
		for i, t := range q.Template {
			tmpl[i] = [3]tmplPos{c.tmplPos(t.S), c.tmplPos(t.P), c.tmplPos(t.O)}
		}
		triples := 0
		root.run(x, x.defaults, make(binding, width()), func(b binding) bool {
			labels := map[string]string{}
			for _, t := range tmpl {
				var terms [3]graph.Term
				ok := true
				for k, p := range t {
					terms[k], ok = x.instantiate(p, b, labels)
					if !ok {
						break
					}
				}
				if ok && validTriple(terms) {
					g.Add(graph.Triple{S: terms[0], P: terms[1], O: terms[2]})
					triples++
					if !x.hold(triples, 3*termBytes+mapEntryBytes) {
						return false
					}
				}
			}
			return x.tick()
		})
		if x.err != nil {
			return nil, x.err
		}
		return &Result{Graph: g}, nil
	case algebra.Describe:
		g := graph.NewGraph()
		var resources []graph.Term
		seen := map[graph.Term]bool{}
		addRes := func(t graph.Term) {
			if (t.IsIRI() || t.IsBlank()) && !seen[t] {
				seen[t] = true
				resources = append(resources, t)
			}
		}
		var varSlots []int
		for _, d := range q.Describe {
			if d.Var != "" {
				varSlots = append(varSlots, c.slot(d.Var))
			} else {
				addRes(d.Term)
			}
		}
		root.run(x, x.defaults, make(binding, width()), func(b binding) bool {
			for _, s := range varSlots {
				if s < len(b) && b[s] != 0 {
					addRes(x.term(b[s]))
				}
			}
			return x.tick()
		})
		if x.err != nil {
			return nil, x.err
		}
		x.describe(resources, g)
		return &Result{Graph: g}, nil
	}
	return nil, &QueryFormError{Want: "known"}
}

// describe adds the concise bounded description of each resource: its
// outgoing triples, following blank-node objects.
func (x *exec) describe(resources []graph.Term, g *graph.Graph) {
	done := map[uint32]bool{}
	var queue []uint32
	for _, r := range resources {
		if id := x.idOf(r); id&overlayBit == 0 {
			queue = append(queue, id)
		}
	}
	for len(queue) > 0 {
		id := queue[0]
		queue = queue[1:]
		if done[id] {
			continue
		}
		done[id] = true
		x.triples(x.defaults, id, 0, 0, func(t [3]uint32) bool {
			g.Add(graph.Triple{S: x.term(t[0]), P: x.term(t[1]), O: x.term(t[2])})
			if x.sn.dv.kindOf(t[2]) == graph.KindBlank {
				queue = append(queue, t[2])
			}
			return true
		})
	}
}

// tmplPos is a template position: a variable slot, a blank node label
// (fresh per solution) or a constant term.
type tmplPos struct {
	slot  int
	blank string
	term  graph.Term
}

func (c *compiler) tmplPos(t algebra.Term) tmplPos {
	if t.Var != "" {
		return tmplPos{slot: c.slot(t.Var)}
	}
	if t.Term.IsBlank() {
		return tmplPos{slot: -1, blank: t.Term.Value}
	}
	return tmplPos{slot: -1, term: t.Term}
}

func (x *exec) instantiate(p tmplPos, b binding, labels map[string]string) (graph.Term, bool) {
	switch {
	case p.slot >= 0:
		if p.slot >= len(b) || b[p.slot] == 0 {
			return graph.Term{}, false
		}
		return x.term(b[p.slot]), true
	case p.blank != "":
		l, ok := labels[p.blank]
		if !ok {
			l = x.bnodes()
			labels[p.blank] = l
		}
		return graph.Blank(l), true
	}
	return p.term, true
}

func validTriple(t [3]graph.Term) bool {
	return (t[0].IsIRI() || t[0].IsBlank()) && t[1].IsIRI() && !t[2].IsZero()
}
