package memstore

import (
	"math"

	"github.com/regelkit/regelkit/sparql/memstore/internal/algebra"
)

// opBGP evaluates a basic graph pattern by nested index lookups, in an
// order chosen from estimated cardinalities, checking pushed-down filter
// conjuncts as soon as their variables are bound.
type opBGP struct {
	pats    [][3]pos
	filters []bgpFilter
	vars    []int // slots of the variables in the BGP
	plans   map[uint64]*bgpPlan

	// for Explain only: the operator's number, the names of vars and the
	// patterns as written
	explainID int
	varNames  []string
	patText   []string
}

type bgpFilter struct {
	expr  *cexpr
	slots []int
}

type bgpPlan struct {
	order   []int
	filters [][]*cexpr // filters to check after step i
	gj      *gjPlan    // when the join graph is cyclic: a generic join
	// peak is the largest intermediate result the order is estimated to
	// build (the product of the step estimates); worst is the same with
	// each bound variable's largest fan-out instead of its average, and
	// skewed says that at some step the largest was far above the average
	peak, worst float64
	skewed      bool
}

// gjThreshold is the estimated intermediate result above which a cyclic
// BGP runs as a generic join. Below it the binary plan's nested lookups
// are faster (the catalogue's cycle and pair queries stay under it).
const gjThreshold = 1e6

// gjSkew is the ratio of largest to average fan-out at one step above
// which a cyclic BGP is judged by its worst case (a hub node: the
// averages promise a small binary plan that the hub blows up).
const gjSkew = 100

// useGJ says whether a cyclic BGP with this plan runs as a generic join.
func (p *bgpPlan) useGJ() bool {
	return p.peak > gjThreshold || p.skewed && p.worst > gjThreshold
}

func (c *compiler) compileBGP(n *algebra.BGP, filters []algebra.Expr) op {
	o := &opBGP{plans: map[uint64]*bgpPlan{}}
	seen := map[int]bool{}
	for _, t := range n.Patterns {
		p := [3]pos{c.pos(t.S), c.pos(t.P), c.pos(t.O)}
		o.pats = append(o.pats, p)
		for _, x := range p {
			if x.slot >= 0 && !seen[x.slot] {
				seen[x.slot] = true
				o.vars = append(o.vars, x.slot)
			}
		}
	}
	if c.x.explain != nil {
		o.explainID = c.x.explain.id()
		for _, t := range n.Patterns {
			o.patText = append(o.patText, termText(t.S)+" "+termText(t.P)+" "+termText(t.O))
		}
		for _, sl := range o.vars {
			o.varNames = append(o.varNames, c.names[sl])
		}
	}
	for _, f := range filters {
		bf := bgpFilter{expr: c.compileExpr(f)}
		for v := range c.x.an.MentionedExpr(f) {
			bf.slots = append(bf.slots, c.slot(v))
		}
		o.filters = append(o.filters, bf)
	}
	return o
}

func (o *opBGP) run(x *exec, ag active, b binding, yield yieldFn) bool {
	// a lookup that finds nothing scans no triple, so count the call
	if !x.tick() {
		return false
	}
	var mask uint64
	for i, s := range o.vars {
		if i < 64 && b[s] != 0 {
			mask |= 1 << uint(i)
		}
	}
	plan := o.plans[mask]
	if plan == nil {
		plan = o.plan(x, ag, b)
		if !x.noWCOJ && (plan.useGJ() || x.forceWCOJ) && len(o.vars) <= 64 && o.cyclic(b) { // the plan key covers 64 variables
			plan.gj = o.gjPlanFor(plan, b)
		}
		o.plans[mask] = plan
		if x.explain != nil {
			o.explainPlan(x, plan, b)
		}
	}
	// filters whose variables are all bound on entry
	for _, f := range plan.filters[0] {
		if !x.ebvTrue(f, b, ag) {
			return true
		}
	}
	if plan.gj != nil && len(ag) == 1 {
		x.gjRuns++
		return o.runGJ(x, ag, plan.gj, b, yield)
	}
	bufs := make([]binding, len(o.pats)+1)
	for i := range bufs {
		bufs[i] = make(binding, len(b))
	}
	copy(bufs[0], b)
	return o.step(x, ag, plan, 0, bufs, yield)
}

func (o *opBGP) step(x *exec, ag active, plan *bgpPlan, i int, bufs []binding, yield yieldFn) bool {
	if i == len(plan.order) {
		return yield(bufs[i])
	}
	cur := bufs[i]
	next := bufs[i+1]
	pat := o.pats[plan.order[i]]
	var q [3]uint32
	for k, p := range pat {
		if p.slot < 0 {
			q[k] = p.id
			if p.id&overlayBit != 0 {
				return true // a constant no graph contains
			}
		} else {
			q[k] = cur[p.slot]
			if q[k]&overlayBit != 0 {
				return true
			}
		}
	}
	var dedup map[key]struct{}
	if len(ag) > 1 {
		dedup = map[key]struct{}{}
	}
	for _, g := range ag {
		keys, perm := g.lookup(q[0], q[1], q[2])
		for _, k := range keys {
			if !x.tick() {
				return false
			}
			var t [3]uint32
			t[perm[0]], t[perm[1]], t[perm[2]] = k[0], k[1], k[2]
			if dedup != nil {
				if _, dup := dedup[key(t)]; dup {
					continue
				}
				dedup[key(t)] = struct{}{}
			}
			copy(next, cur)
			ok := true
			for c, p := range pat {
				if p.slot < 0 {
					continue
				}
				if v := next[p.slot]; v == 0 {
					next[p.slot] = t[c]
				} else if v != t[c] {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			for _, f := range plan.filters[i+1] {
				if !x.ebvTrue(f, next, ag) {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			if !o.step(x, ag, plan, i+1, bufs, yield) {
				return false
			}
		}
	}
	return true
}

// plan orders the patterns greedily by estimated result size, preferring
// patterns connected to what is already bound, and places each filter
// after the first step that binds all its variables.
func (o *opBGP) plan(x *exec, ag active, b binding) *bgpPlan {
	bound := map[int]bool{}
	for _, s := range o.vars {
		if b[s] != 0 {
			bound[s] = true
		}
	}
	used := make([]bool, len(o.pats))
	plan := &bgpPlan{filters: make([][]*cexpr, len(o.pats)+1)}
	placed := make([]bool, len(o.filters))
	place := func(step int) {
		for i, f := range o.filters {
			if placed[i] {
				continue
			}
			all := true
			for _, s := range f.slots {
				if !bound[s] {
					all = false
					break
				}
			}
			if all {
				placed[i] = true
				plan.filters[step] = append(plan.filters[step], f.expr)
			}
		}
	}
	place(0)
	prod, worst := 1.0, 1.0
	for step := 0; step < len(o.pats); step++ {
		best, bestCost := -1, math.Inf(1)
		for i, p := range o.pats {
			if used[i] {
				continue
			}
			cost := estimate(x, ag, p, bound)
			connected := false
			anyVar := false
			for _, q := range p {
				if q.slot >= 0 {
					anyVar = true
					if bound[q.slot] {
						connected = true
					}
				}
			}
			if anyVar && !connected && len(bound) > 0 {
				cost *= 1e6 // avoid cross products
			}
			if cost < bestCost {
				best, bestCost = i, cost
			}
		}
		used[best] = true
		plan.order = append(plan.order, best)
		prod *= bestCost
		plan.peak = max(plan.peak, prod)
		w := worstCase(ag, o.pats[best], bound, bestCost)
		if w > gjSkew*max(bestCost, 1) {
			plan.skewed = true
		}
		worst *= w
		plan.worst = max(plan.worst, worst)
		for _, q := range o.pats[best] {
			if q.slot >= 0 {
				bound[q.slot] = true
			}
		}
		place(step + 1)
	}
	// filters left over (never fully bound): run at the end
	for i, f := range o.filters {
		if !placed[i] {
			plan.filters[len(o.pats)] = append(plan.filters[len(o.pats)], f.expr)
		}
	}
	return plan
}

// estimate guesses how many triples pattern p matches once the variables
// in bound have values: exact counts for the constant positions, divided
// by per-predicate fan-outs for the bound variables.
func estimate(x *exec, ag active, p [3]pos, bound map[int]bool) float64 {
	var q [3]uint32
	var isBound [3]bool
	for k, pp := range p {
		if pp.slot < 0 {
			if pp.id&overlayBit != 0 {
				return 0
			}
			q[k] = pp.id
		} else if bound[pp.slot] {
			isBound[k] = true
		}
	}
	total := 0.0
	for _, g := range ag {
		n := float64(g.count(q[0], q[1], q[2]))
		if n == 0 {
			continue
		}
		stats, nSubj, nObj := g.predicateStats()
		if q[1] != 0 {
			ps := stats[q[1]]
			if isBound[0] && q[0] == 0 && ps.subjects > 0 {
				n /= float64(ps.subjects)
			}
			if isBound[2] && q[2] == 0 && ps.objects > 0 {
				n /= float64(ps.objects)
			}
		} else {
			if isBound[0] && q[0] == 0 && nSubj > 0 {
				n /= float64(nSubj)
			}
			if isBound[2] && q[2] == 0 && nObj > 0 {
				n /= float64(nObj)
			}
			if isBound[1] && len(stats) > 0 {
				n /= float64(len(stats))
			}
		}
		total += n
	}
	// a repeated variable (?x ?p ?x) is more selective
	if p[0].slot >= 0 && (p[0].slot == p[2].slot || p[0].slot == p[1].slot) {
		total /= 10
	}
	return total
}

// worstCase is estimate with the largest fan-out of the predicate in
// place of its average for a bound subject or object; avg (the estimate)
// where the predicate is a variable.
func worstCase(ag active, p [3]pos, bound map[int]bool, avg float64) float64 {
	if p[1].slot >= 0 || p[1].id&overlayBit != 0 {
		return avg
	}
	var q [3]uint32
	var isBound [3]bool
	for k, pp := range p {
		if pp.slot < 0 {
			q[k] = pp.id
		} else if bound[pp.slot] {
			isBound[k] = true
		}
	}
	total := 0.0
	for _, g := range ag {
		n := g.count(q[0], q[1], q[2])
		stats, _, _ := g.predicateStats()
		ps := stats[q[1]]
		if isBound[0] && q[0] == 0 {
			n = min(n, ps.maxOut)
		}
		if isBound[2] && q[2] == 0 {
			n = min(n, ps.maxIn)
		}
		total += float64(n)
	}
	return total
}
