package memstore

import (
	"github.com/regelkit/regelkit/sparql/graph"
	"github.com/regelkit/regelkit/sparql/memstore/internal/algebra"
)

// cpath is a compiled property path.
type cpath struct {
	kind     int
	pred     uint32 // pathLink
	sub      []*cpath
	fwd, inv []uint32 // pathNeg: excluded predicates
}

const (
	pathLink = iota
	pathInv
	pathSeq
	pathAlt
	pathStar
	pathPlus
	pathOpt
	pathNeg
)

func (c *compiler) compilePath(p algebra.Path) *cpath {
	switch p := p.(type) {
	case *algebra.PathIRI:
		return &cpath{kind: pathLink, pred: c.x.idOf(graph.IRI(p.IRI))}
	case *algebra.PathInv:
		return &cpath{kind: pathInv, sub: []*cpath{c.compilePath(p.P)}}
	case *algebra.PathSeq:
		return &cpath{kind: pathSeq, sub: []*cpath{c.compilePath(p.L), c.compilePath(p.R)}}
	case *algebra.PathAlt:
		return &cpath{kind: pathAlt, sub: []*cpath{c.compilePath(p.L), c.compilePath(p.R)}}
	case *algebra.PathZeroOrMore:
		return &cpath{kind: pathStar, sub: []*cpath{c.compilePath(p.P)}}
	case *algebra.PathOneOrMore:
		return &cpath{kind: pathPlus, sub: []*cpath{c.compilePath(p.P)}}
	case *algebra.PathZeroOrOne:
		return &cpath{kind: pathOpt, sub: []*cpath{c.compilePath(p.P)}}
	case *algebra.PathNeg:
		n := &cpath{kind: pathNeg}
		for _, f := range p.Fwd {
			n.fwd = append(n.fwd, c.x.idOf(graph.IRI(f)))
		}
		for _, f := range p.Inv {
			n.inv = append(n.inv, c.x.idOf(graph.IRI(f)))
		}
		// The forward half applies when the set names forward IRIs or is
		// empty; sub holds a nil marker for it.
		if len(p.Fwd) > 0 || len(p.Inv) == 0 {
			n.sub = []*cpath{nil}
		}
		return n
	}
	return &cpath{kind: pathLink}
}

type opPath struct {
	s, o pos
	path *cpath
}

func (o *opPath) run(x *exec, ag active, b binding, yield yieldFn) bool {
	if !x.tick() {
		return false
	}
	sv, ov := o.value(o.s, b), o.value(o.o, b)
	out := make(binding, len(b))
	emit := func(s, ob uint32) bool {
		copy(out, b)
		if o.s.slot >= 0 {
			if out[o.s.slot] != 0 && out[o.s.slot] != s {
				return true
			}
			out[o.s.slot] = s
		}
		if o.o.slot >= 0 {
			if out[o.o.slot] != 0 && out[o.o.slot] != ob {
				return true
			}
			out[o.o.slot] = ob
		}
		return yield(out)
	}
	// A constant end matches itself over a zero-length path even when the
	// graph does not contain it; a value bound elsewhere must be in the graph.
	x.zeroOK = 0
	if o.s.slot < 0 {
		x.zeroOK = o.s.id
	} else if o.o.slot < 0 {
		x.zeroOK = o.o.id
	}
	switch {
	case sv != 0:
		return x.pathForward(ag, o.path, sv, func(t uint32) bool {
			if ov != 0 && t != ov {
				return true
			}
			return emit(sv, t)
		})
	case ov != 0:
		return x.pathBackward(ag, o.path, ov, func(s uint32) bool { return emit(s, ov) })
	}
	// both ends free: start from every node of the active graph
	for _, start := range x.graphNodes(ag) {
		if !x.pathForward(ag, o.path, start, func(t uint32) bool { return emit(start, t) }) {
			return false
		}
	}
	return true
}

func (o *opPath) value(p pos, b binding) uint32 {
	if p.slot < 0 {
		return p.id
	}
	return b[p.slot]
}

// inGraph reports whether id occurs as a subject or object of the active
// graph: zero-length paths only match such terms.
func (x *exec) inGraph(ag active, id uint32) bool {
	if id == x.zeroOK {
		return true
	}
	if id&overlayBit != 0 {
		return false
	}
	for _, g := range ag {
		if g.count(id, 0, 0) > 0 || g.count(0, 0, id) > 0 {
			return true
		}
	}
	return false
}

// graphNodes returns the distinct subjects and objects of the active graph.
func (x *exec) graphNodes(ag active) []uint32 {
	seen := map[uint32]bool{}
	var out []uint32
	for _, g := range ag {
		for _, k := range g.spo {
			if !seen[k[0]] {
				seen[k[0]] = true
				out = append(out, k[0])
			}
		}
		for _, k := range g.osp {
			if !seen[k[0]] {
				seen[k[0]] = true
				out = append(out, k[0])
			}
		}
	}
	return out
}

func (x *exec) triples(ag active, s, p, o uint32, fn func(t [3]uint32) bool) bool {
	if s&overlayBit != 0 || p&overlayBit != 0 || o&overlayBit != 0 {
		return true
	}
	var seen map[key]struct{}
	if len(ag) > 1 {
		seen = map[key]struct{}{}
	}
	for _, g := range ag {
		keys, perm := g.lookup(s, p, o)
		for _, k := range keys {
			if !x.tick() {
				return false
			}
			var t [3]uint32
			t[perm[0]], t[perm[1]], t[perm[2]] = k[0], k[1], k[2]
			if seen != nil {
				if _, dup := seen[key(t)]; dup {
					continue
				}
				seen[key(t)] = struct{}{}
			}
			if !fn(t) {
				return false
			}
		}
	}
	return true
}

func contains(ids []uint32, id uint32) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// pathForward calls fn for every node reachable from s over p (with
// multiplicity for links, sequences and alternatives; distinct for the
// closures).
func (x *exec) pathForward(ag active, p *cpath, s uint32, fn func(uint32) bool) bool {
	switch p.kind {
	case pathLink:
		return x.triples(ag, s, p.pred, 0, func(t [3]uint32) bool { return fn(t[2]) })
	case pathInv:
		return x.pathBackward(ag, p.sub[0], s, fn)
	case pathSeq:
		return x.pathForward(ag, p.sub[0], s, func(m uint32) bool {
			return x.pathForward(ag, p.sub[1], m, fn)
		})
	case pathAlt:
		if !x.pathForward(ag, p.sub[0], s, fn) {
			return false
		}
		return x.pathForward(ag, p.sub[1], s, fn)
	case pathOpt:
		seen := map[uint32]bool{s: true}
		if x.inGraph(ag, s) && !fn(s) {
			return false
		}
		return x.pathForward(ag, p.sub[0], s, func(t uint32) bool {
			if seen[t] {
				return true
			}
			seen[t] = true
			return fn(t)
		})
	case pathStar, pathPlus:
		return x.closure(ag, p.sub[0], s, p.kind == pathStar, true, fn)
	case pathNeg:
		if len(p.sub) > 0 {
			if !x.triples(ag, s, 0, 0, func(t [3]uint32) bool {
				if contains(p.fwd, t[1]) {
					return true
				}
				return fn(t[2])
			}) {
				return false
			}
		}
		if len(p.inv) > 0 {
			return x.triples(ag, 0, 0, s, func(t [3]uint32) bool {
				if contains(p.inv, t[1]) {
					return true
				}
				return fn(t[0])
			})
		}
		return true
	}
	return true
}

// pathBackward calls fn for every node from which o is reachable over p.
func (x *exec) pathBackward(ag active, p *cpath, o uint32, fn func(uint32) bool) bool {
	switch p.kind {
	case pathLink:
		return x.triples(ag, 0, p.pred, o, func(t [3]uint32) bool { return fn(t[0]) })
	case pathInv:
		return x.pathForward(ag, p.sub[0], o, fn)
	case pathSeq:
		return x.pathBackward(ag, p.sub[1], o, func(m uint32) bool {
			return x.pathBackward(ag, p.sub[0], m, fn)
		})
	case pathAlt:
		if !x.pathBackward(ag, p.sub[0], o, fn) {
			return false
		}
		return x.pathBackward(ag, p.sub[1], o, fn)
	case pathOpt:
		seen := map[uint32]bool{o: true}
		if x.inGraph(ag, o) && !fn(o) {
			return false
		}
		return x.pathBackward(ag, p.sub[0], o, func(t uint32) bool {
			if seen[t] {
				return true
			}
			seen[t] = true
			return fn(t)
		})
	case pathStar, pathPlus:
		return x.closure(ag, p.sub[0], o, p.kind == pathStar, false, fn)
	case pathNeg:
		if len(p.sub) > 0 {
			if !x.triples(ag, 0, 0, o, func(t [3]uint32) bool {
				if contains(p.fwd, t[1]) {
					return true
				}
				return fn(t[0])
			}) {
				return false
			}
		}
		if len(p.inv) > 0 {
			return x.triples(ag, o, 0, 0, func(t [3]uint32) bool {
				if contains(p.inv, t[1]) {
					return true
				}
				return fn(t[2])
			})
		}
		return true
	}
	return true
}

// closure walks p repeatedly from start (breadth first), calling fn once
// per distinct node reached; with zero, start itself counts.
func (x *exec) closure(ag active, p *cpath, start uint32, zero, forward bool, fn func(uint32) bool) bool {
	seen := map[uint32]bool{}
	if zero {
		seen[start] = true
		if x.inGraph(ag, start) && !fn(start) {
			return false
		}
	}
	queue := []uint32{start}
	visitedStart := zero
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		step := func(t uint32) bool {
			if seen[t] {
				return true
			}
			seen[t] = true
			if t == start && !visitedStart {
				visitedStart = true
			}
			if !fn(t) {
				return false
			}
			queue = append(queue, t)
			return true
		}
		var ok bool
		if forward {
			ok = x.pathForward(ag, p, n, step)
		} else {
			ok = x.pathBackward(ag, p, n, step)
		}
		if !ok {
			return false
		}
	}
	return true
}
