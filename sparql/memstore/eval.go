package memstore

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/regelkit/regelkit/sparql/graph"
	"github.com/regelkit/regelkit/sparql/memstore/internal/algebra"
)

// binding is a solution under evaluation: term id per variable slot, 0
// for unbound. A binding passed to a yield function is only valid during
// that call; whoever keeps one copies it.
type binding []uint32

const overlayBit = 1 << 31

// exec is the state of one query (or update WHERE) evaluation.
type exec struct {
	ctx          context.Context
	sn           *snapshot
	dict         *dict
	ov           map[graph.Term]uint32
	ovTerms      []graph.Term
	now          time.Time
	bnodes       func() string
	steps        int
	err          error
	querySeq     uint64
	zeroOK       uint32
	unionDefault bool
	b            budget
	noReorder    bool        // joins run as written (tests compare both orders)
	noWCOJ       bool        // BGPs run as binary joins only (tests compare both)
	forceWCOJ    bool        // every cyclic BGP runs as a generic join (tests)
	gjRuns       int         // BGP evaluations by generic join (tests)
	explain      *explainLog // plans chosen, for Explain; nil otherwise

	// an remembers scope analyses while compiling (see algebra.Analysis)
	an *algebra.Analysis

	defaults []*gindex // the active default graph (a merge when several)
	named    []uint32  // named graphs of the dataset
	namedSet map[uint32]bool
}

func (x *exec) term(id uint32) graph.Term {
	if id&overlayBit != 0 {
		return x.ovTerms[id&^overlayBit]
	}
	return x.sn.dv.term(id)
}

// idOf returns the id of t: its dictionary id when the snapshot knows it,
// else an overlay id private to this evaluation (never in any index).
func (x *exec) idOf(t graph.Term) uint32 {
	if t.IsZero() {
		return 0
	}
	if id := x.dict.lookup(t); id != 0 && int(id) < len(x.sn.dv.terms) {
		return id
	}
	if id, ok := x.ov[t]; ok {
		return id
	}
	id := uint32(len(x.ovTerms)) | overlayBit
	x.ovTerms = append(x.ovTerms, t)
	x.ov[t] = id
	// overlay terms live as long as the evaluation
	x.addBytes(2*termBytes + mapEntryBytes + int64(len(t.Value)+len(t.Datatype)+len(t.Lang)))
	return id
}

// tick counts work and reports false when the context is done or the
// Timeout has passed. The clock is read once per 1024 steps, never per
// row, so the budget costs nothing measurable.
func (x *exec) tick() bool {
	x.steps++
	if x.steps&1023 == 0 {
		return x.checkTime()
	}
	return x.err == nil
}

// checkTime is tick's slow path, apart so that tick stays inlined in the
// loops over triples.
func (x *exec) checkTime() bool {
	if x.err == nil {
		if err := x.ctx.Err(); err != nil {
			x.err = err
		} else if !x.b.deadline.IsZero() && time.Now().After(x.b.deadline) {
			x.err = &LimitError{Limit: "Timeout", Max: int64(x.b.lim.Timeout)}
		}
	}
	return x.err == nil
}

func (x *exec) fail(err error) bool {
	if x.err == nil {
		x.err = err
	}
	return false
}

// active is the active graph of a pattern: one graph, or the merge of the
// FROM graphs.
type active []*gindex

type yieldFn func(binding) bool

// op is a compiled algebra operator. run calls yield for every solution of
// Join({b}, op) and returns false when evaluation must stop.
type op interface {
	run(x *exec, ag active, b binding, yield yieldFn) bool
}

// compiler turns algebra into ops over one variable scope.
type compiler struct {
	x     *exec
	base  string
	slots map[string]int
	names []string
	// rowSlots identify a solution for BNODE(str) in select expressions
	rowSlots []int
	// top gives the row bound of an ORDER BY under a LIMIT
	top map[*algebra.OrderBy]int64
}

func newCompiler(x *exec, base string) *compiler {
	return &compiler{x: x, base: base, slots: map[string]int{}}
}

func (c *compiler) slot(v string) int {
	if s, ok := c.slots[v]; ok {
		return s
	}
	s := len(c.names)
	c.slots[v] = s
	c.names = append(c.names, v)
	return s
}

func (c *compiler) slotsOf(vars map[string]bool) []int {
	out := make([]int, 0, len(vars))
	for v := range vars {
		out = append(out, c.slot(v))
	}
	sort.Ints(out)
	return out
}

// pos is a pattern position: a variable slot or a constant id.
type pos struct {
	slot int // -1 for a constant
	id   uint32
}

func (c *compiler) pos(t algebra.Term) pos {
	if t.Var != "" {
		return pos{slot: c.slot(t.Var)}
	}
	return pos{slot: -1, id: c.x.idOf(t.Term)}
}

func minus(a, b map[string]bool) map[string]bool {
	out := map[string]bool{}
	for v := range a {
		if !b[v] {
			out[v] = true
		}
	}
	return out
}

func union(a, b map[string]bool) map[string]bool {
	out := map[string]bool{}
	for v := range a {
		out[v] = true
	}
	for v := range b {
		out[v] = true
	}
	return out
}

// guard wraps o so that the variables in block are unbound when o runs;
// the results are then joined with the full input (see doc.go, "binding
// propagation").
func (c *compiler) guard(o op, block map[string]bool) op {
	if len(block) == 0 {
		return o
	}
	return &opGuard{inner: o, block: c.slotsOf(block)}
}

func (c *compiler) compile(n algebra.Node) op {
	switch n := n.(type) {
	case *algebra.BGP:
		return c.compileBGP(n, nil)
	case *algebra.PathPattern:
		return &opPath{s: c.pos(n.S), o: c.pos(n.O), path: c.compilePath(n.Path)}
	case *algebra.Join:
		return c.compileJoin(n)
	case *algebra.LeftJoin:
		o := &opLeftJoin{l: c.compile(n.L), r: c.compile(n.R)}
		block := c.x.an.Mentioned(n.R)
		if n.Expr != nil {
			o.expr = c.compileExpr(n.Expr)
			block = union(block, c.x.an.MentionedExpr(n.Expr))
		}
		return c.guard(o, minus(block, c.x.an.Certain(n.L)))
	case *algebra.Filter:
		return c.compileFilter(n)
	case *algebra.Union:
		return &opUnion{l: c.compile(n.L), r: c.compile(n.R)}
	case *algebra.Graph:
		return &opGraph{name: c.pos(n.Name), p: c.compile(n.P)}
	case *algebra.Extend:
		base := n.P
		for {
			e, ok := base.(*algebra.Extend)
			if !ok {
				break
			}
			base = e.P
		}
		c.rowSlots = nil
		for _, v := range c.x.an.InScope(base) {
			c.rowSlots = append(c.rowSlots, c.slot(v))
		}
		o := &opExtend{p: c.compile(n.P), slot: c.slot(n.Var), expr: c.compileExpr(n.Expr)}
		block := minus(c.x.an.MentionedExpr(n.Expr), c.x.an.Certain(n.P))
		block[n.Var] = true
		return c.guard(o, block)
	case *algebra.Minus:
		o := &opMinus{l: c.compile(n.L), r: c.compile(n.R)}
		return c.guard(o, minus(c.x.an.Mentioned(n.R), c.x.an.Certain(n.L)))
	case *algebra.Values:
		o := &opValues{}
		for _, v := range n.Vars {
			o.slots = append(o.slots, c.slot(v))
		}
		for _, row := range n.Rows {
			r := make([]uint32, len(row))
			for i, t := range row {
				r[i] = c.x.idOf(t)
			}
			o.rows = append(o.rows, r)
		}
		return o
	case *algebra.Service:
		return &opError{err: errors.New("memstore: SERVICE (federated query) is not supported")}
	case *algebra.SubQuery:
		inner := newCompiler(c.x, c.base)
		body := inner.compile(n.Q.Pattern)
		o := &opSub{body: body, width: func() int { return len(inner.names) }}
		for _, v := range n.Q.Vars {
			o.inner = append(o.inner, inner.slot(v))
			o.outer = append(o.outer, c.slot(v))
		}
		return o
	case *algebra.Group:
		return c.compileGroup(n)
	case *algebra.OrderBy:
		o := &opOrder{p: c.compile(n.P), top: c.top[n]}
		for _, cond := range n.Conds {
			o.conds = append(o.conds, orderCond{expr: c.compileExpr(cond.Expr), desc: cond.Desc})
		}
		return o
	case *algebra.Project:
		o := &opProject{p: c.compile(n.P)}
		for _, v := range n.Vars {
			o.keep = append(o.keep, c.slot(v))
		}
		return o
	case *algebra.Distinct:
		return &opDistinct{p: c.compile(n.P)}
	case *algebra.Reduced:
		// REDUCED permits but does not require removing duplicates.
		return c.compile(n.P)
	case *algebra.Slice:
		// ORDER BY under LIMIT (through a projection) sorts only the
		// rows the slice can return
		if n.Limit > 0 && n.Offset <= math.MaxInt64-n.Limit {
			under := n.P
			for {
				if p, ok := under.(*algebra.Project); ok {
					under = p.P
				} else if r, ok := under.(*algebra.Reduced); ok {
					under = r.P
				} else {
					break
				}
			}
			if ob, ok := under.(*algebra.OrderBy); ok {
				if c.top == nil {
					c.top = map[*algebra.OrderBy]int64{}
				}
				c.top[ob] = n.Offset + n.Limit
			}
		}
		return &opSlice{p: c.compile(n.P), offset: n.Offset, limit: n.Limit}
	}
	return &opError{err: fmt.Errorf("memstore: unsupported algebra node %T", n)}
}

// compileGroup compiles Group and its aggregates, looked up by name here
// once.
func (c *compiler) compileGroup(n *algebra.Group) op {
	o := &opGroup{p: c.compile(n.P)}
	for _, k := range n.Keys {
		gk := groupKey{expr: c.compileExpr(k.Expr), slot: -1}
		if k.Var != "" {
			gk.slot = c.slot(k.Var)
		}
		o.keys = append(o.keys, gk)
	}
	for _, a := range n.Aggs {
		kind, ok := aggKinds[a.Agg.Name]
		if !ok { // the parser knows the same names
			c.x.fail(&EvaluationError{Msg: "unknown aggregate " + a.Agg.Name})
		}
		ag := aggSpec{slot: c.slot(a.Var), kind: kind, distinct: a.Agg.Distinct, sep: a.Agg.Separator}
		if a.Agg.Arg != nil {
			ag.arg = c.compileExpr(a.Agg.Arg)
		}
		o.aggs = append(o.aggs, ag)
	}
	return o
}

type opError struct{ err error }

func (o *opError) run(x *exec, ag active, b binding, yield yieldFn) bool { return x.fail(o.err) }

// ---- guard ----

type opGuard struct {
	inner op
	block []int
}

func (o *opGuard) run(x *exec, ag active, b binding, yield yieldFn) bool {
	hit := false
	for _, s := range o.block {
		if b[s] != 0 {
			hit = true
			break
		}
	}
	if !hit {
		return o.inner.run(x, ag, b, yield)
	}
	rb := slices.Clone(b)
	for _, s := range o.block {
		rb[s] = 0
	}
	out := make(binding, len(b))
	return o.inner.run(x, ag, rb, func(r binding) bool {
		copy(out, r)
		for _, s := range o.block {
			if b[s] == 0 {
				continue
			}
			if r[s] == 0 {
				out[s] = b[s]
			} else if r[s] != b[s] {
				return true
			}
		}
		return yield(out)
	})
}

// ---- joins, unions ----

type opJoin struct{ l, r op }

func (o *opJoin) run(x *exec, ag active, b binding, yield yieldFn) bool {
	return o.l.run(x, ag, b, func(lb binding) bool {
		return o.r.run(x, ag, lb, yield)
	})
}

type opUnion struct{ l, r op }

func (o *opUnion) run(x *exec, ag active, b binding, yield yieldFn) bool {
	if !o.l.run(x, ag, b, yield) {
		return false
	}
	return o.r.run(x, ag, b, yield)
}

type opLeftJoin struct {
	l, r op
	expr *cexpr
}

func (o *opLeftJoin) run(x *exec, ag active, b binding, yield yieldFn) bool {
	return o.l.run(x, ag, b, func(lb binding) bool {
		found := false
		ok := o.r.run(x, ag, lb, func(rb binding) bool {
			if o.expr != nil && !x.ebvTrue(o.expr, rb, ag) {
				return true
			}
			found = true
			return yield(rb)
		})
		if !ok {
			return false
		}
		if !found {
			return yield(lb)
		}
		return true
	})
}

type opMinus struct {
	l, r op
	memo map[*gindex][][]uint32
}

// agKey identifies an active graph for memoising input-independent parts.
func agKey(ag active) *gindex {
	if len(ag) == 0 {
		return nil
	}
	return ag[0]
}

func (o *opMinus) run(x *exec, ag active, b binding, yield yieldFn) bool {
	if o.memo == nil {
		o.memo = map[*gindex][][]uint32{}
	}
	memo, done := o.memo[agKey(ag)]
	if !done {
		empty := make(binding, len(b))
		o.r.run(x, ag, empty, func(rb binding) bool {
			memo = append(memo, slices.Clone(rb))
			return x.hold(len(memo), bindingBytes(len(rb))) && x.tick()
		})
		o.memo[agKey(ag)] = memo
		if x.err != nil {
			return false
		}
	}
	return o.l.run(x, ag, b, func(lb binding) bool {
		for _, r := range memo {
			shared, compatible := false, true
			for i, v := range r {
				if v == 0 || lb[i] == 0 {
					continue
				}
				if v != lb[i] {
					compatible = false
					break
				}
				shared = true
			}
			if shared && compatible {
				return true
			}
		}
		return yield(lb)
	})
}

// ---- filter ----

func (c *compiler) compileFilter(n *algebra.Filter) op {
	conjuncts := splitAnd(n.Expr)
	// Push conjuncts whose variables the BGP always binds into the BGP,
	// where they run as soon as their variables are bound.
	if bgp, ok := n.P.(*algebra.BGP); ok {
		certain := c.x.an.Certain(bgp)
		var pushed, rest []algebra.Expr
		for _, e := range conjuncts {
			m := c.x.an.MentionedExpr(e)
			if _, isExists := e.(*algebra.Exists); !isExists && len(minus(m, certain)) == 0 && !hasExists(e) {
				pushed = append(pushed, e)
			} else {
				rest = append(rest, e)
			}
		}
		if len(pushed) > 0 {
			o := c.compileBGP(bgp, pushed)
			if len(rest) == 0 {
				return o
			}
			conjuncts, n = rest, &algebra.Filter{Expr: n.Expr, P: bgp}
			f := &opFilter{p: o}
			var mentioned map[string]bool = map[string]bool{}
			for _, e := range rest {
				f.exprs = append(f.exprs, c.compileExpr(e))
				mentioned = union(mentioned, c.x.an.MentionedExpr(e))
			}
			return c.guard(f, minus(mentioned, certain))
		}
	}
	f := &opFilter{p: c.compile(n.P)}
	for _, e := range conjuncts {
		f.exprs = append(f.exprs, c.compileExpr(e))
	}
	return c.guard(f, minus(c.x.an.MentionedExpr(n.Expr), c.x.an.Certain(n.P)))
}

func splitAnd(e algebra.Expr) []algebra.Expr {
	if call, ok := e.(*algebra.Call); ok && call.Op == "&&" {
		return append(splitAnd(call.Args[0]), splitAnd(call.Args[1])...)
	}
	return []algebra.Expr{e}
}

func hasExists(e algebra.Expr) bool {
	switch e := e.(type) {
	case *algebra.Exists:
		return true
	case *algebra.Call:
		for _, a := range e.Args {
			if hasExists(a) {
				return true
			}
		}
	}
	return false
}

type opFilter struct {
	p     op
	exprs []*cexpr
}

func (o *opFilter) run(x *exec, ag active, b binding, yield yieldFn) bool {
	return o.p.run(x, ag, b, func(r binding) bool {
		for _, e := range o.exprs {
			if !x.ebvTrue(e, r, ag) {
				return x.tick()
			}
		}
		return yield(r)
	})
}

// ---- extend, values ----

type opExtend struct {
	p    op
	slot int
	expr *cexpr
}

func (o *opExtend) run(x *exec, ag active, b binding, yield yieldFn) bool {
	var out binding
	return o.p.run(x, ag, b, func(r binding) bool {
		id, err := x.evalID(o.expr, r, ag)
		if err != nil {
			return yield(r)
		}
		if out == nil {
			out = make(binding, len(r))
		}
		copy(out, r)
		out[o.slot] = id
		return yield(out)
	})
}

type opValues struct {
	slots []int
	rows  [][]uint32
}

func (o *opValues) run(x *exec, ag active, b binding, yield yieldFn) bool {
	return joinRows(x, b, o.slots, o.rows, yield)
}

// joinRows yields b merged with every row (values for slots, 0 = unbound)
// that is compatible with it.
func joinRows(x *exec, b binding, slots []int, rows [][]uint32, yield yieldFn) bool {
	out := make(binding, len(b))
	for _, row := range rows {
		// joins of tables alone (VALUES x VALUES x ...) touch no index,
		// so they count their own steps
		if !x.tick() {
			return false
		}
		copy(out, b)
		ok := true
		for i, s := range slots {
			v := row[i]
			if v == 0 {
				continue
			}
			if out[s] == 0 {
				out[s] = v
			} else if out[s] != v {
				ok = false
				break
			}
		}
		if ok && !yield(out) {
			return false
		}
	}
	return true
}

// ---- graph ----

type opGraph struct {
	name pos
	p    op
}

func (o *opGraph) run(x *exec, ag active, b binding, yield yieldFn) bool {
	if o.name.slot < 0 {
		if !x.namedSet[o.name.id] {
			return true
		}
		return o.p.run(x, active{x.sn.graphs[o.name.id]}, b, yield)
	}
	if g := b[o.name.slot]; g != 0 {
		if !x.namedSet[g] {
			return true
		}
		return o.p.run(x, active{x.sn.graphs[g]}, b, yield)
	}
	nb := slices.Clone(b)
	for _, g := range x.named {
		nb[o.name.slot] = g
		if !o.p.run(x, active{x.sn.graphs[g]}, nb, yield) {
			return false
		}
	}
	return true
}

// ---- subquery ----

type opSub struct {
	body         op
	width        func() int
	inner, outer []int
	memo         map[*gindex][][]uint32
}

func (o *opSub) run(x *exec, ag active, b binding, yield yieldFn) bool {
	if o.memo == nil {
		o.memo = map[*gindex][][]uint32{}
	}
	memo, done := o.memo[agKey(ag)]
	if !done {
		o.body.run(x, ag, make(binding, o.width()), func(r binding) bool {
			row := make([]uint32, len(o.inner))
			for i, s := range o.inner {
				row[i] = r[s]
			}
			memo = append(memo, row)
			return x.hold(len(memo), bindingBytes(len(row))) && x.tick()
		})
		o.memo[agKey(ag)] = memo
		if x.err != nil {
			return false
		}
	}
	return joinRows(x, b, o.outer, memo, yield)
}

// ---- modifiers ----

type opProject struct {
	p    op
	keep []int
}

func (o *opProject) run(x *exec, ag active, b binding, yield yieldFn) bool {
	out := make(binding, len(b))
	return o.p.run(x, ag, b, func(r binding) bool {
		clear(out)
		for _, s := range o.keep {
			out[s] = r[s]
		}
		return yield(out)
	})
}

type opDistinct struct{ p op }

func (o *opDistinct) run(x *exec, ag active, b binding, yield yieldFn) bool {
	seen := map[string]struct{}{}
	buf := make([]byte, 0, 4*len(b))
	return o.p.run(x, ag, b, func(r binding) bool {
		buf = buf[:0]
		for _, v := range r {
			buf = append(buf, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
		}
		if _, dup := seen[string(buf)]; dup {
			return x.tick()
		}
		seen[string(buf)] = struct{}{}
		if !x.hold(len(seen), mapEntryBytes+int64(len(buf))) {
			return false
		}
		return yield(r)
	})
}

type opSlice struct {
	p             op
	offset, limit int64
}

func (o *opSlice) run(x *exec, ag active, b binding, yield yieldFn) bool {
	var n int64
	if o.limit == 0 {
		return true
	}
	stopped := false
	ok := o.p.run(x, ag, b, func(r binding) bool {
		n++
		if n <= o.offset {
			return x.tick()
		}
		if !yield(r) {
			return false
		}
		if o.limit >= 0 && n-o.offset >= o.limit {
			stopped = true
			return false
		}
		return true
	})
	return ok || (stopped && x.err == nil)
}

type orderCond struct {
	expr *cexpr
	desc bool
}

type opOrder struct {
	p     op
	conds []orderCond
	// top > 0 when only the first top rows are wanted (ORDER BY under
	// LIMIT: limit + offset): a bounded heap keeps them instead of all.
	top int64
}

type orderRow struct {
	b    binding
	keys []graph.Term
	seq  int // input position: ties keep input order, as a stable sort
}

// before reports whether a sorts before b: by the conditions, then by
// input position, a total order that makes the heap agree with a stable
// sort of all rows.
func (o *opOrder) before(a, b *orderRow) bool {
	for k, c := range o.conds {
		d := orderCompare(a.keys[k], b.keys[k])
		if d == 0 {
			continue
		}
		if c.desc {
			return d > 0
		}
		return d < 0
	}
	return a.seq < b.seq
}

func (o *opOrder) run(x *exec, ag active, b binding, yield yieldFn) bool {
	var rows []orderRow
	// with top, rows is a max-heap (by before) of the best rows so far
	seq := 0
	keys := make([]graph.Term, len(o.conds))
	o.p.run(x, ag, b, func(r binding) bool {
		for i, c := range o.conds {
			keys[i] = graph.Term{}
			if v, err := x.eval(c.expr, r, ag); err == nil {
				keys[i] = v
			}
		}
		seq++
		if o.top > 0 && int64(len(rows)) >= o.top {
			if !o.before(&orderRow{keys: keys, seq: seq}, &rows[0]) {
				return x.tick()
			}
			// replace the worst kept row
			worst := &rows[0]
			worst.b = append(worst.b[:0], r...)
			copy(worst.keys, keys)
			worst.seq = seq
			o.down(rows, 0)
			return x.tick()
		}
		rows = append(rows, orderRow{b: slices.Clone(r), keys: slices.Clone(keys), seq: seq})
		n := orderRowBytes + bindingBytes(len(r)) + sliceBytes + int64(len(keys))*termBytes
		for _, k := range keys {
			n += int64(len(k.Value))
		}
		if !x.hold(len(rows), n) {
			return false
		}
		if o.top > 0 {
			o.up(rows, len(rows)-1)
		}
		return x.tick()
	})
	if x.err != nil {
		return false
	}
	sort.SliceStable(rows, func(i, j int) bool { return o.before(&rows[i], &rows[j]) })
	for _, r := range rows {
		if !yield(r.b) {
			return false
		}
	}
	return true
}

// up and down keep rows a max-heap: rows[0] is the row that sorts last.
func (o *opOrder) up(rows []orderRow, i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if !o.before(&rows[parent], &rows[i]) {
			return
		}
		rows[parent], rows[i] = rows[i], rows[parent]
		i = parent
	}
}

func (o *opOrder) down(rows []orderRow, i int) {
	for {
		l := 2*i + 1
		if l >= len(rows) {
			return
		}
		big := l
		if r := l + 1; r < len(rows) && o.before(&rows[l], &rows[r]) {
			big = r
		}
		if !o.before(&rows[i], &rows[big]) {
			return
		}
		rows[i], rows[big] = rows[big], rows[i]
		i = big
	}
}

// orderCompare orders terms for ORDER BY (SPARQL 1.1 §15.1): unbound,
// blank nodes, IRIs, literals; literals by value where comparable.
func orderCompare(a, b graph.Term) int {
	ra, rb := kindRank(a), kindRank(b)
	if ra != rb {
		return ra - rb
	}
	switch a.Kind {
	case graph.KindNone:
		return 0
	case graph.KindIRI, graph.KindBlank:
		return strings.Compare(a.Value, b.Value)
	}
	switch graph.CompareLiterals(a, b) {
	case graph.Less:
		return -1
	case graph.Greater:
		return 1
	case graph.Incomparable, graph.Unordered:
		// incomparable literals: group by datatype, then lexical form
		if d := strings.Compare(a.Datatype, b.Datatype); d != 0 {
			if a.Datatype == graph.XSDString {
				return -1
			}
			if b.Datatype == graph.XSDString {
				return 1
			}
			return d
		}
	}
	if d := strings.Compare(a.Lang, b.Lang); d != 0 {
		return d
	}
	if d := strings.Compare(a.Datatype, b.Datatype); d != 0 {
		return d
	}
	return strings.Compare(a.Value, b.Value)
}

func kindRank(t graph.Term) int {
	switch t.Kind {
	case graph.KindNone:
		return 0
	case graph.KindBlank:
		return 1
	case graph.KindIRI:
		return 2
	}
	return 3
}
