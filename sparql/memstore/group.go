package memstore

import (
	"math"
	"slices"
	"strings"

	"github.com/regelkit/regelkit/sparql/graph"
)

type groupKey struct {
	expr *cexpr
	slot int // -1 when the key binds no variable
}

// aggKind is an aggregate function, looked up by name once at compile
// time.
type aggKind uint8

const (
	aggCount aggKind = iota
	aggSum
	aggAvg
	aggMin
	aggMax
	aggSample
	aggGroupConcat
)

var aggKinds = map[string]aggKind{
	"COUNT": aggCount, "SUM": aggSum, "AVG": aggAvg, "MIN": aggMin, "MAX": aggMax,
	"SAMPLE": aggSample, "GROUP_CONCAT": aggGroupConcat,
}

type aggSpec struct {
	slot     int
	kind     aggKind
	distinct bool
	sep      string
	arg      *cexpr // nil for COUNT(*)
}

// opGroup implements Group + Aggregation (SPARQL 1.1 §18.5): it reads all
// its input, partitions it by the key values and computes one row per
// group.
type opGroup struct {
	p    op
	keys []groupKey
	aggs []aggSpec
}

type aggState struct {
	count   int64
	sum     num
	sumSet  bool
	err     bool
	best    graph.Term
	sample  graph.Term
	parts   []string
	length  int64 // bytes of the GROUP_CONCAT result so far
	lang    string
	langSet bool
	seen    map[graph.Term]bool
}

// aggStateBytes is roughly the heap of one aggState.
const aggStateBytes = 200

type group struct {
	keyVals []uint32
	states  []aggState
}

func (o *opGroup) run(x *exec, ag active, b binding, yield yieldFn) bool {
	groups := map[string]*group{}
	var order []string
	keyBuf := make([]byte, 0, 32)
	ok := o.p.run(x, ag, b, func(r binding) bool {
		keyBuf = keyBuf[:0]
		vals := make([]uint32, len(o.keys))
		for i, k := range o.keys {
			v, err := x.eval(k.expr, r, ag)
			if err == nil {
				vals[i] = x.idOf(v)
			}
			id := vals[i]
			keyBuf = append(keyBuf, byte(id), byte(id>>8), byte(id>>16), byte(id>>24))
		}
		g := groups[string(keyBuf)]
		if g == nil {
			g = &group{keyVals: vals, states: make([]aggState, len(o.aggs))}
			groups[string(keyBuf)] = g
			order = append(order, string(keyBuf))
			n := mapEntryBytes + 2*int64(len(keyBuf)) + sliceBytes*2 + int64(len(vals))*4 + int64(len(o.aggs))*aggStateBytes
			if !x.hold(len(groups), n) {
				return false
			}
		}
		for i := range o.aggs {
			o.accumulate(x, ag, &o.aggs[i], &g.states[i], r)
		}
		return x.tick()
	})
	if !ok && x.err != nil {
		return false
	}
	if len(groups) == 0 && len(o.keys) == 0 {
		groups[""] = &group{states: make([]aggState, len(o.aggs))}
		order = append(order, "")
	}
	out := make(binding, len(b))
	for _, k := range order {
		g := groups[k]
		copy(out, b)
		for i, key := range o.keys {
			if key.slot >= 0 {
				out[key.slot] = g.keyVals[i]
			}
		}
		for i := range o.aggs {
			if v, ok := o.aggs[i].result(&g.states[i]); ok {
				out[o.aggs[i].slot] = x.idOf(v)
			} else {
				out[o.aggs[i].slot] = 0
			}
		}
		if !yield(out) {
			return false
		}
	}
	return true
}

func (o *opGroup) accumulate(x *exec, ag active, a *aggSpec, st *aggState, r binding) {
	if st.err {
		return
	}
	if a.arg == nil { // COUNT(*)
		if a.distinct {
			if st.seen == nil {
				st.seen = map[graph.Term]bool{}
			}
			var sb strings.Builder
			for _, id := range r {
				sb.WriteString(x.term(id).String())
				sb.WriteByte('|')
			}
			k := graph.String(sb.String())
			if st.seen[k] {
				return
			}
			st.seen[k] = true
			x.addBytes(mapEntryBytes + termHeap(k.Value))
		}
		st.count++
		return
	}
	v, err := x.eval(a.arg, r, ag)
	if err != nil {
		// an error is skipped by COUNT, SAMPLE, MIN and MAX, and makes
		// the others an error
		if a.kind != aggCount && a.kind != aggSample && a.kind != aggMin && a.kind != aggMax {
			st.err = true
		}
		return
	}
	if a.distinct {
		if st.seen == nil {
			st.seen = map[graph.Term]bool{}
		}
		if st.seen[v] {
			return
		}
		st.seen[v] = true
		x.addBytes(mapEntryBytes + termBytes)
	}
	switch a.kind {
	case aggCount:
		st.count++
	case aggSum, aggAvg:
		n, ok := parseNum(v)
		if !ok {
			st.err = true
			return
		}
		st.count++
		if !st.sumSet {
			st.sum, st.sumSet = n, true
			return
		}
		s, ok := arith('+', st.sum, n)
		if !ok {
			st.err = true
			return
		}
		st.sum = s
	case aggMin, aggMax:
		if st.best.IsZero() {
			st.best = v
			return
		}
		c := orderCompare(v, st.best)
		if (a.kind == aggMin && c < 0) || (a.kind == aggMax && c > 0) {
			st.best = v
		}
	case aggSample:
		if st.sample.IsZero() {
			st.sample = v
		}
	case aggGroupConcat:
		if !isStringLit(v) {
			st.err = true
			return
		}
		if !st.langSet {
			st.lang, st.langSet = v.Lang, true
		} else if st.lang != v.Lang {
			st.lang = ""
		}
		st.length += int64(len(v.Value))
		if len(st.parts) > 0 {
			st.length += int64(len(a.sep))
		}
		if x.tooLong(int(min(st.length, math.MaxInt32))) {
			st.err = true
			return
		}
		st.parts = append(st.parts, v.Value)
		x.addBytes(16)
	}
}

func (a *aggSpec) result(st *aggState) (graph.Term, bool) {
	if st.err {
		return graph.Term{}, false
	}
	switch a.kind {
	case aggCount:
		return intNum(st.count).term(), true
	case aggSum:
		if !st.sumSet {
			return intNum(0).term(), true
		}
		return st.sum.term(), true
	case aggAvg:
		if !st.sumSet {
			return intNum(0).term(), true
		}
		q, ok := arith('/', st.sum, intNum(st.count))
		if !ok {
			return graph.Term{}, false
		}
		return q.term(), true
	case aggMin, aggMax:
		return st.best, !st.best.IsZero()
	case aggSample:
		return st.sample, !st.sample.IsZero()
	case aggGroupConcat:
		parts := slices.Clone(st.parts)
		return graph.String(strings.Join(parts, a.sep)), true
	}
	return graph.Term{}, false
}
