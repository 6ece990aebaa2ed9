package memstore

import "slices"

// Generic join (Ngo, Porat, Ré, Rudra) for basic graph patterns whose join
// graph has a cycle: variables are bound one at a time, and the values of
// each come from the pattern that offers the fewest candidates, checked
// against every other pattern that mentions the variable with one index
// lookup each. A binary plan joins whole patterns and can build
// intermediate results far larger than the answer on a cycle; a variable
// at a time never holds a partial binding that some pattern mentioning
// its variables rules out.

// gjPlan is the variable order of a generic join and where each pushed
// filter runs.
type gjPlan struct {
	vars    []int   // slots in binding order
	atoms   [][]int // patterns that mention vars[i]
	closed  []int   // patterns without free variables: checked once first
	filters [][]*cexpr
}

// cyclic reports whether the patterns' variables not bound on entry form
// a cycle (two patterns joined along two paths), the case where a binary
// plan can blow up. A pattern repeating a variable makes the BGP
// ineligible: the candidate enumeration assumes one position per variable.
func (o *opBGP) cyclic(b binding) bool {
	parent := map[int]int{}
	find := func(v int) int {
		for parent[v] != v {
			parent[v] = parent[parent[v]]
			v = parent[v]
		}
		return v
	}
	cycle := false
	for _, p := range o.pats {
		var free []int
		for _, q := range p {
			if q.slot >= 0 && b[q.slot] == 0 {
				if slices.Contains(free, q.slot) {
					return false
				}
				free = append(free, q.slot)
				if _, ok := parent[q.slot]; !ok {
					parent[q.slot] = q.slot
				}
			}
		}
		for i := 1; i < len(free); i++ {
			a, c := find(free[0]), find(free[i])
			if a == c {
				cycle = true
			} else {
				parent[a] = c
			}
		}
	}
	return cycle
}

// gjPlanFor orders the free variables as the binary plan binds them and
// places each filter after the variable that completes it.
func (o *opBGP) gjPlanFor(plan *bgpPlan, b binding) *gjPlan {
	gp := &gjPlan{}
	level := map[int]int{}
	for _, pi := range plan.order {
		for _, q := range o.pats[pi] {
			if q.slot >= 0 && b[q.slot] == 0 {
				if _, ok := level[q.slot]; !ok {
					level[q.slot] = len(gp.vars)
					gp.vars = append(gp.vars, q.slot)
				}
			}
		}
	}
	gp.atoms = make([][]int, len(gp.vars))
	for pi, p := range o.pats {
		free := false
		for _, q := range p {
			if q.slot >= 0 && b[q.slot] == 0 {
				free = true
				gp.atoms[level[q.slot]] = append(gp.atoms[level[q.slot]], pi)
			}
		}
		if !free {
			gp.closed = append(gp.closed, pi)
		}
	}
	gp.filters = make([][]*cexpr, len(gp.vars)+1)
	for _, f := range o.filters {
		at := 0
		for _, s := range f.slots {
			if l, ok := level[s]; ok {
				at = max(at, l+1)
			}
		}
		gp.filters[at] = append(gp.filters[at], f.expr)
	}
	return gp
}

// query returns pattern p with its constants and the values bound in b
// (0 where a variable is free) and reports false when it names a term no
// graph contains.
func (o *opBGP) query(p [3]pos, b binding) ([3]uint32, bool) {
	var q [3]uint32
	for k, x := range p {
		if x.slot < 0 {
			q[k] = x.id
		} else {
			q[k] = b[x.slot]
		}
		if q[k]&overlayBit != 0 {
			return q, false
		}
	}
	return q, true
}

// runGJ evaluates the BGP on one graph (ag[0]) by generic join; the
// filters of level 0 have run.
func (o *opBGP) runGJ(x *exec, ag active, gp *gjPlan, b binding, yield yieldFn) bool {
	g := ag[0]
	for _, pi := range gp.closed {
		q, ok := o.query(o.pats[pi], b)
		if !ok || g.count(q[0], q[1], q[2]) == 0 {
			return true
		}
	}
	cur := make(binding, len(b))
	copy(cur, b)
	return o.gjStep(x, ag, g, gp, 0, cur, yield)
}

func (o *opBGP) gjStep(x *exec, ag active, g *gindex, gp *gjPlan, i int, b binding, yield yieldFn) bool {
	if i == len(gp.vars) {
		return yield(b)
	}
	v := gp.vars[i]
	// the pattern with the fewest matching triples supplies the candidates
	best, bestN := -1, 0
	var bestKeys []key
	var bestPerm [3]int
	for _, pi := range gp.atoms[i] {
		q, ok := o.query(o.pats[pi], b)
		if !ok {
			return true
		}
		keys, perm := g.lookup(q[0], q[1], q[2])
		if len(keys) == 0 {
			return true
		}
		if best < 0 || len(keys) < bestN {
			best, bestN, bestKeys, bestPerm = pi, len(keys), keys, perm
		}
	}
	// the key component that holds v
	kc := 0
	for k := range 3 {
		if o.pats[best][bestPerm[k]].slot == v {
			kc = k
		}
	}
	// v's values are sorted runs when v follows the bound prefix in the
	// permutation; otherwise they are gathered and sorted
	var vals []uint32
	sortedRuns := true
	for k := 0; k < kc; k++ {
		p := o.pats[best][bestPerm[k]]
		if p.slot >= 0 && b[p.slot] == 0 {
			sortedRuns = false
		}
	}
	if !sortedRuns {
		vals = make([]uint32, 0, len(bestKeys))
		for _, k := range bestKeys {
			if !x.tick() {
				return false
			}
			vals = append(vals, k[kc])
		}
		slices.Sort(vals)
		vals = slices.Compact(vals)
	}
	n := len(vals)
	if sortedRuns {
		n = len(bestKeys)
	}
	for j := 0; j < n; j++ {
		if !x.tick() {
			return false
		}
		var val uint32
		if sortedRuns {
			val = bestKeys[j][kc]
			if j > 0 && bestKeys[j-1][kc] == val {
				continue
			}
		} else {
			val = vals[j]
		}
		b[v] = val
		ok := true
		for _, pi := range gp.atoms[i] {
			if pi == best {
				continue
			}
			q, _ := o.query(o.pats[pi], b)
			if g.count(q[0], q[1], q[2]) == 0 {
				ok = false
				break
			}
		}
		if ok {
			for _, f := range gp.filters[i+1] {
				if !x.ebvTrue(f, b, ag) {
					ok = false
					break
				}
			}
		}
		if ok && !o.gjStep(x, ag, g, gp, i+1, b, yield) {
			b[v] = 0
			return false
		}
	}
	b[v] = 0
	return true
}
