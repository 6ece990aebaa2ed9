package memstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/regelkit/regelkit/sparql/graph"
	"github.com/regelkit/regelkit/sparql/memstore/internal/algebra"
)

// UpdateOptions refine an update request.
type UpdateOptions struct {
	// Base is the base IRI for relative IRIs in the update text.
	Base string
	// UsingGraphs and UsingNamedGraphs, when set, act as USING and USING
	// NAMED for every operation (the protocol's using-graph-uri and
	// using-named-graph-uri parameters).
	UsingGraphs      []string
	UsingNamedGraphs []string
	// Limits override the store's Options.Limits field by field for this
	// request; they bound each operation's WHERE evaluation (Timeout the
	// whole request).
	Limits Limits
}

// UpdateError is an update operation that cannot be carried out (for
// example CREATE of an existing graph without SILENT, or LOAD).
type UpdateError struct {
	Op  string
	Msg string
}

func (e *UpdateError) Error() string { return "memstore: " + e.Op + ": " + e.Msg }

// ErrLoadUnsupported is returned for LOAD: the store reads no network.
var ErrLoadUnsupported = errors.New("memstore: LOAD is not supported (the in-memory store has no network access); use Store.Load")

// Update implements sparql.Endpoint. The whole request is atomic: it is
// applied completely or, when an operation fails, not at all.
func (s *Store) Update(ctx context.Context, update string) error {
	return s.UpdateWith(ctx, update, UpdateOptions{})
}

// UpdateWith runs an update request with options.
func (s *Store) UpdateWith(ctx context.Context, update string, opts UpdateOptions) error {
	lim := opts.Limits.resolve(s.opts.Limits)
	u, err := algebra.ParseUpdate(update, algebra.Options{Base: opts.Base, MaxDepth: lim.parseDepth()})
	if err != nil {
		return syntaxError(err)
	}
	// one budget for the whole request: its Timeout runs from here
	b := newBudget(lim, time.Now())
	return s.write(func(w *writer) (err error) {
		defer recoverEval(&err)
		for _, op := range u.Ops {
			if err := ctx.Err(); err != nil {
				return err
			}
			if !b.deadline.IsZero() && time.Now().After(b.deadline) {
				return &LimitError{Limit: "Timeout", Max: int64(lim.Timeout)}
			}
			if err := w.apply(ctx, &b, op, opts); err != nil {
				return err
			}
			w.flush()
		}
		return nil
	})
}

func (w *writer) exists(g uint32) bool {
	_, ok := w.graphs[g]
	return ok
}

func (w *writer) targetIDs(t algebra.GraphTarget) []uint32 {
	switch t.Kind {
	case algebra.TargetDefault:
		return []uint32{0}
	case algebra.TargetIRI:
		return []uint32{w.graphID(graph.IRI(t.IRI))}
	}
	var out []uint32
	if t.Kind == algebra.TargetAll {
		out = append(out, 0)
	}
	for id := range w.graphs {
		if id != 0 {
			out = append(out, id)
		}
	}
	return out
}

// missingTarget reports whether t names a graph that does not exist, with
// the error to return (none when silent).
func (w *writer) missingTarget(op string, t algebra.GraphTarget, silent bool) (bool, error) {
	if t.Kind != algebra.TargetIRI || w.exists(w.graphID(graph.IRI(t.IRI))) {
		return false, nil
	}
	if silent {
		return true, nil
	}
	return true, &UpdateError{Op: op, Msg: fmt.Sprintf("graph <%s> does not exist", t.IRI)}
}

func (w *writer) clearGraph(g uint32) {
	if _, ok := w.graphs[g]; ok {
		w.graphs[g] = &gindex{}
	}
}

func (w *writer) apply(ctx context.Context, b *budget, op algebra.UpdateOp, opts UpdateOptions) error {
	switch op := op.(type) {
	case *algebra.InsertData:
		labels := map[string]string{}
		for _, q := range op.Quads {
			w.add(w.groundQuad(q, labels))
		}
		return nil
	case *algebra.DeleteData:
		for _, q := range op.Quads {
			w.remove(w.groundQuad(q, nil))
		}
		return nil
	case *algebra.DeleteWhere:
		where := quadsAsPattern(op.Quads)
		return w.modify(ctx, b, where, op.Quads, nil, "", nil, nil, false)
	case *algebra.Modify:
		using, usingNamed, has := op.Using, op.UsingNamed, op.HasUsing
		if opts.UsingGraphs != nil || opts.UsingNamedGraphs != nil {
			using, usingNamed, has = opts.UsingGraphs, opts.UsingNamedGraphs, true
		}
		return w.modify(ctx, b, op.Where, op.Delete, op.Insert, op.With, using, usingNamed, has)
	case *algebra.Load:
		if op.Silent {
			return nil
		}
		return ErrLoadUnsupported
	case *algebra.Clear:
		if missing, err := w.missingTarget("CLEAR", op.Target, op.Silent); missing {
			return err
		}
		for _, g := range w.targetIDs(op.Target) {
			w.clearGraph(g)
		}
		return nil
	case *algebra.Drop:
		if missing, err := w.missingTarget("DROP", op.Target, op.Silent); missing {
			return err
		}
		for _, g := range w.targetIDs(op.Target) {
			if g == 0 {
				w.clearGraph(0)
			} else {
				delete(w.graphs, g)
			}
		}
		return nil
	case *algebra.Create:
		g := w.graphID(graph.IRI(op.Graph))
		if w.exists(g) {
			if op.Silent {
				return nil
			}
			return &UpdateError{Op: "CREATE", Msg: fmt.Sprintf("graph <%s> already exists", op.Graph)}
		}
		w.graphs[g] = &gindex{}
		return nil
	case *algebra.Transfer:
		from, to := w.targetIDs(op.From)[0], w.targetIDs(op.To)[0]
		if !w.exists(from) {
			if op.Silent {
				return nil
			}
			return &UpdateError{Op: op.Op, Msg: fmt.Sprintf("graph <%s> does not exist", op.From.IRI)}
		}
		if from == to {
			return nil
		}
		src := w.graphs[from]
		if op.Op != "ADD" {
			w.graphs[to] = &gindex{}
		}
		w.graphs[to] = w.graphs[to].with(src.spo, nil)
		if op.Op == "MOVE" {
			if from == 0 {
				w.graphs[0] = &gindex{}
			} else {
				delete(w.graphs, from)
			}
		}
		return nil
	}
	return fmt.Errorf("memstore: unsupported update operation %T", op)
}

// groundQuad turns a data quad into a quad, renaming blank nodes through
// labels (fresh per operation) when labels is non-nil.
func (w *writer) groundQuad(q algebra.QuadPattern, labels map[string]string) graph.Quad {
	fix := func(t graph.Term) graph.Term {
		if t.IsBlank() && labels != nil {
			l, ok := labels[t.Value]
			if !ok {
				l = "b" + fmt.Sprint(w.s.bnode.Add(1))
				labels[t.Value] = l
			}
			return graph.Blank(l)
		}
		return t
	}
	return graph.Quad{S: fix(q.S.Term), P: fix(q.P.Term), O: fix(q.O.Term), G: q.G.Term}
}

// quadsAsPattern builds the WHERE pattern of DELETE WHERE.
func quadsAsPattern(quads []algebra.QuadPattern) algebra.Node {
	var out algebra.Node
	join := func(n algebra.Node) {
		if out == nil {
			out = n
		} else {
			out = &algebra.Join{L: out, R: n}
		}
	}
	def := &algebra.BGP{}
	byGraph := map[algebra.Term]*algebra.BGP{}
	var order []algebra.Term
	for _, q := range quads {
		t := algebra.TriplePattern{S: q.S, P: q.P, O: q.O}
		if !q.G.IsVar() && q.G.Term.IsZero() {
			def.Patterns = append(def.Patterns, t)
			continue
		}
		b := byGraph[q.G]
		if b == nil {
			b = &algebra.BGP{}
			byGraph[q.G] = b
			order = append(order, q.G)
		}
		b.Patterns = append(b.Patterns, t)
	}
	if len(def.Patterns) > 0 || len(order) == 0 {
		join(def)
	}
	for _, g := range order {
		join(&algebra.Graph{Name: g, P: byGraph[g]})
	}
	return out
}

func (w *writer) modify(ctx context.Context, b *budget, where algebra.Node, del, ins []algebra.QuadPattern, with string, using, usingNamed []string, hasUsing bool) error {
	sn := w.snapshot()
	x := w.s.newExec(ctx, *b, sn, nil, nil)
	// what this operation held stays counted for the next ones
	defer func() { b.held = x.b.held }()
	if hasUsing {
		x.setDataset(using, usingNamed)
	} else if with != "" {
		x.setDataset([]string{with}, nil)
		x.named = sn.namedGraphs()
		for _, g := range x.named {
			x.namedSet[g] = true
		}
	}
	c := newCompiler(x, "")
	root := c.compile(where)
	if x.err != nil { // an unknown function or an invalid constant pattern
		return x.err
	}
	type tq [4]tmplPos
	compileQuads := func(qs []algebra.QuadPattern) []tq {
		out := make([]tq, len(qs))
		for i, q := range qs {
			g := tmplPos{slot: -1}
			switch {
			case q.G.IsVar() || !q.G.Term.IsZero():
				g = c.tmplPos(q.G)
			case with != "":
				g = tmplPos{slot: -1, term: graph.IRI(with)}
			}
			out[i] = tq{c.tmplPos(q.S), c.tmplPos(q.P), c.tmplPos(q.O), g}
		}
		return out
	}
	delT, insT := compileQuads(del), compileQuads(ins)
	var sols []binding
	root.run(x, x.defaults, make(binding, len(c.names)), func(b binding) bool {
		sols = append(sols, append(binding(nil), b...))
		return x.hold(len(sols), bindingBytes(len(b))) && x.tick()
	})
	if x.err != nil {
		return x.err
	}
	ground := func(t tq, b binding, labels map[string]string) (graph.Quad, bool) {
		var terms [4]graph.Term
		for k := 0; k < 4; k++ {
			if k == 3 && t[3].slot < 0 && t[3].term.IsZero() {
				continue
			}
			v, ok := x.instantiate(t[k], b, labels)
			if !ok {
				return graph.Quad{}, false
			}
			terms[k] = v
		}
		if !validTriple([3]graph.Term{terms[0], terms[1], terms[2]}) || terms[3].IsLiteral() {
			return graph.Quad{}, false
		}
		return graph.Quad{S: terms[0], P: terms[1], O: terms[2], G: terms[3]}, true
	}
	// Templates multiply the solutions: every quad to delete or insert
	// counts against MaxTotalBytes (pending keys, then the new indexes).
	for _, b := range sols {
		for _, t := range delT {
			if q, ok := ground(t, b, nil); ok {
				w.remove(q)
				if !x.addBytes(quadBytes) {
					return x.err
				}
			}
		}
	}
	w.flush()
	for _, b := range sols {
		labels := map[string]string{}
		for _, t := range insT {
			if q, ok := ground(t, b, labels); ok {
				w.add(q)
				if !x.addBytes(quadBytes) {
					return x.err
				}
			}
		}
	}
	return nil
}

// quadBytes is roughly what one quad an update adds or deletes takes:
// its pending key and its entries in the three index permutations.
const quadBytes = 4 * 12
