package memstore

import (
	"slices"
	"sync"
)

// key is a triple of term ids in the order of one permutation.
type key [3]uint32

func cmpKey(a, b key) int {
	for i := 0; i < 3; i++ {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// gindex holds one graph's triples in three sorted permutations, so that a
// triple pattern with any combination of bound positions is a binary
// search followed by a contiguous scan. A gindex is immutable once built;
// writers build a new one (copy-on-write), readers keep theirs.
type gindex struct {
	spo, pos, osp []key

	statsOnce sync.Once
	stats     map[uint32]predStats // per predicate
	nSubj     int
	nObj      int
}

type predStats struct {
	count, subjects, objects int
	// the most objects one subject has, and subjects one object has: a
	// hub the averages hide (the planner's skew check)
	maxOut, maxIn int
}

func (g *gindex) len() int {
	if g == nil {
		return 0
	}
	return len(g.spo)
}

// with returns a new index with add inserted and del removed (both in
// S,P,O order). g may be nil.
func (g *gindex) with(add, del []key) *gindex {
	if g == nil {
		g = &gindex{}
	}
	if len(add) == 0 && len(del) == 0 {
		return g
	}
	perm := func(base []key, order func(key) key) []key {
		a := make([]key, len(add))
		for i, t := range add {
			a[i] = order(t)
		}
		d := make([]key, len(del))
		for i, t := range del {
			d[i] = order(t)
		}
		slices.SortFunc(a, cmpKey)
		slices.SortFunc(d, cmpKey)
		return mergeKeys(base, a, d)
	}
	return &gindex{
		spo: perm(g.spo, func(t key) key { return t }),
		pos: perm(g.pos, func(t key) key { return key{t[1], t[2], t[0]} }),
		osp: perm(g.osp, func(t key) key { return key{t[2], t[0], t[1]} }),
	}
}

// mergeKeys returns base ∪ add \ del; all three sorted.
func mergeKeys(base, add, del []key) []key {
	out := make([]key, 0, len(base)+len(add))
	i, j, k := 0, 0, 0
	emit := func(t key) {
		for k < len(del) && cmpKey(del[k], t) < 0 {
			k++
		}
		if k < len(del) && del[k] == t {
			return
		}
		if n := len(out); n > 0 && out[n-1] == t {
			return
		}
		out = append(out, t)
	}
	for i < len(base) || j < len(add) {
		if j >= len(add) || (i < len(base) && cmpKey(base[i], add[j]) <= 0) {
			emit(base[i])
			i++
		} else {
			emit(add[j])
			j++
		}
	}
	return out
}

// prefixRange returns the part of keys whose first n components equal
// those of k.
func prefixRange(keys []key, k key, n int) []key {
	if n == 0 {
		return keys
	}
	lo, hi := 0, len(keys)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if cmpPrefix(&keys[m], &k, n) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	start := lo
	hi = len(keys)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if cmpPrefix(&keys[m], &k, n) <= 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return keys[start:lo]
}

func cmpPrefix(a, k *key, n int) int {
	for c := 0; c < n; c++ {
		if a[c] != k[c] {
			if a[c] < k[c] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// lookup returns the matching keys for pattern (s,p,o) (0 = wildcard) and
// the permutation they are in: order[i] says which triple position
// component i of each key holds (0=S, 1=P, 2=O).
func (g *gindex) lookup(s, p, o uint32) ([]key, [3]int) {
	if g == nil {
		return nil, [3]int{0, 1, 2}
	}
	switch {
	case s != 0 && p != 0:
		return prefixRange(g.spo, key{s, p, o}, 2+b2i(o != 0)), [3]int{0, 1, 2}
	case s != 0 && o != 0:
		return prefixRange(g.osp, key{o, s, 0}, 2), [3]int{2, 0, 1}
	case s != 0:
		return prefixRange(g.spo, key{s}, 1), [3]int{0, 1, 2}
	case p != 0:
		return prefixRange(g.pos, key{p, o}, 1+b2i(o != 0)), [3]int{1, 2, 0}
	case o != 0:
		return prefixRange(g.osp, key{o}, 1), [3]int{2, 0, 1}
	}
	return g.spo, [3]int{0, 1, 2}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// count returns the exact number of triples matching (s,p,o).
func (g *gindex) count(s, p, o uint32) int {
	r, _ := g.lookup(s, p, o)
	return len(r)
}

// predicateStats returns per-predicate counts of triples, distinct subjects
// and distinct objects, computed once per index.
func (g *gindex) predicateStats() (map[uint32]predStats, int, int) {
	if g == nil {
		return nil, 0, 0
	}
	g.statsOnce.Do(func() {
		st := map[uint32]predStats{}
		// distinct (p, s) pairs from POS would need a PSO order; SPO gives
		// them as runs of equal (s, p).
		run := 0
		for i, t := range g.spo {
			ps := st[t[1]]
			ps.count++
			if i == 0 || g.spo[i-1][0] != t[0] || g.spo[i-1][1] != t[1] {
				ps.subjects++
				run = 0
			}
			run++
			ps.maxOut = max(ps.maxOut, run)
			st[t[1]] = ps
		}
		for i, t := range g.pos {
			ps := st[t[0]]
			if i == 0 || g.pos[i-1][0] != t[0] || g.pos[i-1][1] != t[1] {
				ps.objects++
				run = 0
			}
			run++
			ps.maxIn = max(ps.maxIn, run)
			st[t[0]] = ps
		}
		for i, t := range g.spo {
			if i == 0 || g.spo[i-1][0] != t[0] {
				g.nSubj++
			}
		}
		for i, t := range g.osp {
			if i == 0 || g.osp[i-1][0] != t[0] {
				g.nObj++
			}
		}
		g.stats = st
	})
	return g.stats, g.nSubj, g.nObj
}
