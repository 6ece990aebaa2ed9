package memstore

import (
	"math"

	"github.com/regelkit/regelkit/sparql/memstore/internal/algebra"
)

// opJoinN joins the operands of a chain of Joins (a group's basic graph
// patterns and UNIONs) in an order chosen per set of bound variables
// rather than as written. Written order is a nested loop over the first
// operand's results: in { {?a a X} UNION {?a a Y} {?b a X} UNION {?b a Y}
// ?a :p ?b } the two UNIONs alone make a cross product of every ?a with
// every ?b before the pattern that links them runs. The order is greedy,
// as opBGP's: the cheapest operand by estimated first step, preferring
// operands that share a variable with what is already bound.
//
// Reordering is sound because every op yields Join({b}, op) for any
// input b, and Join is commutative; only operands whose cost can be
// estimated (BGPs, and UNIONs and joins of them) are gathered, so OPTIONAL,
// MINUS, BIND and sub-queries keep their place.
type opJoinN struct {
	ops   []op
	binds [][]int // slots each operand certainly binds
	vars  []int   // slots of all operands, for the plan key
	plans map[uint64][]int

	explainID int      // for Explain only: the operator's number
	varNames  []string // and the names of vars
}

// joinOperands flattens a chain of Joins into its operands.
func joinOperands(n algebra.Node, out []algebra.Node) []algebra.Node {
	if j, ok := n.(*algebra.Join); ok {
		out = joinOperands(j.L, out)
		return joinOperands(j.R, out)
	}
	return append(out, n)
}

// compileJoin compiles a Join: an opJoinN when all of its chain's operands
// can be estimated, else the written nested loop.
func (c *compiler) compileJoin(n *algebra.Join) op {
	if c.x.noReorder {
		return &opJoin{l: c.compile(n.L), r: c.compile(n.R)}
	}
	nodes := joinOperands(n, nil)
	for _, nd := range nodes {
		if !estimable(nd) {
			return &opJoin{l: c.compile(n.L), r: c.compile(n.R)}
		}
	}
	o := &opJoinN{plans: map[uint64][]int{}}
	seen := map[int]bool{}
	for _, nd := range nodes {
		o.ops = append(o.ops, c.compile(nd))
		slots := c.slotsOf(c.x.an.Certain(nd))
		o.binds = append(o.binds, slots)
		for _, s := range slots {
			if !seen[s] {
				seen[s] = true
				o.vars = append(o.vars, s)
			}
		}
	}
	if c.x.explain != nil {
		o.explainID = c.x.explain.id()
		for _, sl := range o.vars {
			o.varNames = append(o.varNames, c.names[sl])
		}
	}
	return o
}

// estimable reports whether n compiles to ops estimateOp knows. It
// recurses over nested UNIONs and joins, no deeper than the parser's
// nesting limit.
func estimable(n algebra.Node) bool {
	switch n := n.(type) {
	case *algebra.BGP:
		return true
	case *algebra.Join:
		return estimable(n.L) && estimable(n.R)
	case *algebra.Union:
		return estimable(n.L) && estimable(n.R)
	}
	return false
}

// estimateOp guesses the size of the first step of o once the slots in
// bound have values.
func estimateOp(x *exec, ag active, o op, bound map[int]bool) float64 {
	switch o := o.(type) {
	case *opBGP:
		best := math.Inf(1)
		for _, p := range o.pats {
			best = min(best, estimate(x, ag, p, bound))
		}
		if len(o.pats) == 0 {
			return 1
		}
		return best
	case *opUnion:
		return estimateOp(x, ag, o.l, bound) + estimateOp(x, ag, o.r, bound)
	case *opJoinN:
		best := math.Inf(1)
		for _, op := range o.ops {
			best = min(best, estimateOp(x, ag, op, bound))
		}
		return best
	}
	return math.Inf(1)
}

func (o *opJoinN) run(x *exec, ag active, b binding, yield yieldFn) bool {
	var mask uint64
	for i, s := range o.vars {
		if i < 64 && b[s] != 0 {
			mask |= 1 << uint(i)
		}
	}
	order := o.plans[mask]
	if order == nil {
		order = o.plan(x, ag, b)
		o.plans[mask] = order
		if x.explain != nil {
			o.explainPlan(x, order, b)
		}
	}
	return o.step(x, ag, order, 0, b, yield)
}

func (o *opJoinN) step(x *exec, ag active, order []int, i int, b binding, yield yieldFn) bool {
	if i == len(order) {
		return yield(b)
	}
	return o.ops[order[i]].run(x, ag, b, func(nb binding) bool {
		return o.step(x, ag, order, i+1, nb, yield)
	})
}

// plan orders the operands greedily; an operand that shares no variable
// with those bound pays the cross-product penalty opBGP's planner uses.
// Ties keep the written order.
func (o *opJoinN) plan(x *exec, ag active, b binding) []int {
	bound := map[int]bool{}
	for _, s := range o.vars {
		if b[s] != 0 {
			bound[s] = true
		}
	}
	used := make([]bool, len(o.ops))
	order := make([]int, 0, len(o.ops))
	for range o.ops {
		best, bestCost := -1, math.Inf(1)
		for i, op := range o.ops {
			if used[i] {
				continue
			}
			cost := estimateOp(x, ag, op, bound)
			connected := len(o.binds[i]) == 0
			for _, s := range o.binds[i] {
				if bound[s] {
					connected = true
					break
				}
			}
			if !connected && len(bound) > 0 {
				cost *= 1e6
			}
			if best < 0 || cost < bestCost {
				best, bestCost = i, cost
			}
		}
		used[best] = true
		order = append(order, best)
		for _, s := range o.binds[best] {
			bound[s] = true
		}
	}
	return order
}
