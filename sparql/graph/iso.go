package graph

import (
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
)

// Isomorphic reports whether a and b are the same graph up to a renaming of
// blank nodes (RDF 1.1 Concepts §3.6).
//
// Blank nodes are first told apart by colour refinement (a node's colour is
// refined by the colours of the triples around it until the partition is
// stable); only nodes that refinement cannot separate are matched by
// backtracking, each choice followed by another refinement.
func Isomorphic(a, b *Graph) bool {
	if a.Len() != b.Len() {
		return false
	}
	return isomorphic(triplesAsQuads(a), triplesAsQuads(b), func(q Quad) bool { return b.Has(q.Triple()) })
}

// IsomorphicDatasets reports whether a and b are the same dataset up to a
// renaming of blank nodes, which may also name graphs. A blank node shared
// by two graphs must map to one blank node shared by the same two graphs.
func IsomorphicDatasets(a, b *Dataset) bool {
	if a.Len() != b.Len() {
		return false
	}
	return isomorphic(slices.Collect(a.Quads()), slices.Collect(b.Quads()), b.Has)
}

func triplesAsQuads(g *Graph) []Quad {
	out := make([]Quad, 0, g.Len())
	for t := range g.Triples() {
		out = append(out, Quad{t.S, t.P, t.O, Term{}})
	}
	return out
}

func hasBlank(q Quad) bool {
	return q.S.Kind == KindBlank || q.O.Kind == KindBlank || q.G.Kind == KindBlank || q.P.Kind == KindBlank
}

func isomorphic(qa, qb []Quad, bHas func(Quad) bool) bool {
	// Ground quads must match one to one.
	na, nb := 0, 0
	for _, q := range qa {
		if !hasBlank(q) {
			na++
			if !bHas(q) {
				return false
			}
		}
	}
	for _, q := range qb {
		if !hasBlank(q) {
			nb++
		}
	}
	if na != nb {
		return false
	}
	hasher := newTermHasher()
	ga, gb := newBlankStructure(qa, hasher), newBlankStructure(qb, hasher)
	if len(ga.blanks) != len(gb.blanks) || len(ga.quads) != len(gb.quads) {
		return false
	}
	ca, cb := ga.initialColours(), gb.initialColours()
	ca, cb = ga.refine(ca), gb.refine(cb)
	return matchColours(ga, gb, ca, cb, bHas, 0)
}

// matchColours searches for a bijection between the blank nodes of a and b
// that respects the stable colourings ca and cb and maps every quad of a
// onto a quad of b.
func matchColours(a, b *blankStructure, ca, cb []uint64, bHas func(Quad) bool, depth int) bool {
	if !sameMultiset(ca, cb) {
		return false
	}
	cls := a.smallestTiedClass(ca)
	if cls < 0 {
		// Every colour is unique: the mapping is forced.
		byColour := make(map[uint64]int, len(cb))
		for i, c := range cb {
			byColour[c] = i
		}
		m := make([]Term, len(ca))
		for i, c := range ca {
			m[i] = b.blanks[byColour[c]]
		}
		for _, q := range a.quads {
			if !bHas(a.mapQuad(q, m)) {
				return false
			}
		}
		return true
	}
	x := cls
	mark := mix(ca[x], 0x5bd1e995+uint64(depth))
	for y, c := range cb {
		if c != ca[x] {
			continue
		}
		na, nb := slices.Clone(ca), slices.Clone(cb)
		na[x], nb[y] = mark, mark
		na, nb = a.refine(na), b.refine(nb)
		if matchColours(a, b, na, nb, bHas, depth+1) {
			return true
		}
	}
	return false
}

func sameMultiset(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	sa, sb := slices.Clone(a), slices.Clone(b)
	slices.Sort(sa)
	slices.Sort(sb)
	return slices.Equal(sa, sb)
}

// termHasher gives every non-blank term a deterministic 64-bit hash (FNV-1a
// over its N-Triples form), so colours are comparable between graphs and
// stable between runs.
type termHasher map[Term]uint64

func newTermHasher() termHasher { return termHasher{} }

func (h termHasher) hash(t Term) uint64 {
	if v, ok := h[t]; ok {
		return v
	}
	f := fnv.New64a()
	f.Write([]byte(t.String()))
	v := f.Sum64()
	h[t] = v
	return v
}

// blankStructure is the part of a graph or dataset that involves blank
// nodes: the blank nodes and the quads that mention them.
type blankStructure struct {
	blanks []Term
	index  map[Term]int
	quads  []Quad
	pos    [][4]int32  // per quad: blank index per position, -1 for other terms
	ground [][4]uint64 // per quad: hash per position of the other terms
	inc    [][]int32   // per blank: the quads that mention it
}

func newBlankStructure(qs []Quad, h termHasher) *blankStructure {
	s := &blankStructure{index: map[Term]int{}}
	for _, q := range qs {
		if !hasBlank(q) {
			continue
		}
		qi := int32(len(s.quads))
		s.quads = append(s.quads, q)
		var p [4]int32
		var g [4]uint64
		for k, t := range [4]Term{q.S, q.P, q.O, q.G} {
			if t.Kind != KindBlank {
				p[k] = -1
				g[k] = h.hash(t)
				continue
			}
			i, ok := s.index[t]
			if !ok {
				i = len(s.blanks)
				s.index[t] = i
				s.blanks = append(s.blanks, t)
				s.inc = append(s.inc, nil)
			}
			p[k] = int32(i)
			if !slices.Contains(s.inc[i], qi) {
				s.inc[i] = append(s.inc[i], qi)
			}
		}
		s.pos = append(s.pos, p)
		s.ground = append(s.ground, g)
	}
	return s
}

func mix(a, b uint64) uint64 {
	x := a ^ (b + 0x9E3779B97F4A7C15 + (a << 6) + (a >> 2))
	x ^= x >> 30
	x *= 0xBF58476D1CE4E5B9
	x ^= x >> 27
	x *= 0x94D049BB133111EB
	x ^= x >> 31
	return x
}

func (s *blankStructure) initialColours() []uint64 {
	return make([]uint64, len(s.blanks))
}

// quadColour hashes quad qi as seen from blank node self, with the other
// blank nodes replaced by their colours.
func (s *blankStructure) quadColour(qi int32, self int, colours []uint64) uint64 {
	h := uint64(0x243F6A8885A308D3)
	p, g := s.pos[qi], s.ground[qi]
	for k := range 4 {
		switch {
		case p[k] < 0:
			h = mix(h, g[k])
		case int(p[k]) == self:
			h = mix(h, 0x13198A2E03707344)
		default:
			h = mix(h, colours[p[k]]^0xA4093822299F31D0)
		}
	}
	return h
}

// refine iterates colour refinement until the number of colours stops
// growing, and returns the stable colouring.
func (s *blankStructure) refine(colours []uint64) []uint64 {
	count := distinct(colours)
	next := make([]uint64, len(colours))
	for range len(colours) + 1 {
		for i := range colours {
			var sum uint64
			for _, qi := range s.inc[i] {
				sum += mix(s.quadColour(qi, i, colours), 0)
			}
			next[i] = mix(colours[i], sum)
		}
		n := distinct(next)
		colours, next = next, colours
		if n == count {
			break
		}
		count = n
	}
	return colours
}

func distinct(c []uint64) int {
	s := slices.Clone(c)
	slices.Sort(s)
	return len(slices.Compact(s))
}

// smallestTiedClass returns a member of the smallest colour class with more
// than one member (ties broken by the smallest colour), or -1.
func (s *blankStructure) smallestTiedClass(colours []uint64) int {
	size := map[uint64]int{}
	for _, c := range colours {
		size[c]++
	}
	best, bestSize, bestColour := -1, 0, uint64(0)
	for i, c := range colours {
		n := size[c]
		if n < 2 {
			continue
		}
		if best < 0 || n < bestSize || n == bestSize && c < bestColour {
			best, bestSize, bestColour = i, n, c
		}
	}
	return best
}

func (s *blankStructure) mapQuad(q Quad, m []Term) Quad {
	f := func(t Term) Term {
		if t.Kind == KindBlank {
			return m[s.index[t]]
		}
		return t
	}
	return Quad{f(q.S), f(q.P), f(q.O), f(q.G)}
}

// CanonicalNTriples returns g as N-Triples with blank nodes relabelled
// canonically (_:c0, _:c1, ...) and the lines sorted, so two isomorphic
// graphs give the same text. See CanonicalNQuads for the limits.
func CanonicalNTriples(g *Graph) string {
	return canonical(triplesAsQuads(g))
}

// CanonicalNQuads returns d as N-Quads with blank nodes relabelled
// canonically and the lines sorted.
//
// The labelling comes from colour refinement; blank nodes it cannot tell
// apart are individualised one by one and the smallest resulting text is
// kept. The search stops after 256 complete labellings, which only
// matters for large, highly symmetric blank node structures: there the
// result is still a correct serialisation but two isomorphic inputs might
// give different texts.
func CanonicalNQuads(d *Dataset) string {
	return canonical(slices.Collect(d.Quads()))
}

func canonical(qs []Quad) string {
	s := newBlankStructure(qs, newTermHasher())
	var ground []string
	for _, q := range qs {
		if !hasBlank(q) {
			ground = append(ground, q.String()+"\n")
		}
	}
	c := &canonicaliser{s: s, budget: 256}
	best := c.search(s.refine(s.initialColours()), 0)
	lines := append(ground, best...)
	slices.Sort(lines)
	return strings.Join(lines, "")
}

type canonicaliser struct {
	s      *blankStructure
	budget int
}

// search returns the sorted lines of the blank-node quads under the
// smallest labelling reachable from the stable colouring c.
func (c *canonicaliser) search(colours []uint64, depth int) []string {
	x := c.s.smallestTiedClass(colours)
	if x < 0 {
		c.budget--
		return c.label(colours)
	}
	var best []string
	mark := mix(colours[x], 0x5bd1e995+uint64(depth))
	for y, col := range colours {
		if col != colours[x] {
			continue
		}
		if best != nil && c.budget <= 0 {
			break
		}
		n := slices.Clone(colours)
		n[y] = mark
		lines := c.search(c.s.refine(n), depth+1)
		if best == nil || slices.Compare(lines, best) < 0 {
			best = lines
		}
	}
	return best
}

// label names the blank nodes c0, c1, ... in colour order (all colours are
// distinct) and returns the sorted lines.
func (c *canonicaliser) label(colours []uint64) []string {
	order := make([]int, len(colours))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(i, j int) int {
		switch {
		case colours[i] < colours[j]:
			return -1
		case colours[i] > colours[j]:
			return 1
		}
		return 0
	})
	m := make([]Term, len(colours))
	for rank, i := range order {
		m[i] = Blank("c" + strconv.Itoa(rank))
	}
	lines := make([]string, len(c.s.quads))
	for i, q := range c.s.quads {
		lines[i] = c.s.mapQuad(q, m).String() + "\n"
	}
	slices.Sort(lines)
	return lines
}
