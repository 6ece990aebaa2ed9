package graph

// Bulk loading: ParseGraph and ParseDataset collect the id keys of all
// triples, sort them and build each index bottom-up with full leaves. That
// is several times faster than inserting one triple at a time into three
// B+trees, and the packed leaves take less memory.

// bulkLoader collects triples for one graph.
type bulkLoader struct {
	g    *Graph
	keys []key
}

func (b *bulkLoader) add(t Triple) {
	if t.S.Kind == KindNone || t.P.Kind == KindNone || t.O.Kind == KindNone {
		return
	}
	s, p, o := b.g.intern3(t)
	b.keys = append(b.keys, key{s, p, o})
}

// finish adds the collected triples to the graph. A batch at least as
// large as the graph rebuilds the indexes from sorted keys; a smaller one
// is inserted key by key.
func (b *bulkLoader) finish() {
	g := b.g
	keys := b.keys
	b.keys = nil
	if len(keys) < g.Len() {
		for _, k := range keys {
			if g.spo.insert(k) {
				g.pos.insert(key{k[1], k[2], k[0]})
				g.osp.insert(key{k[2], k[0], k[1]})
			}
		}
		return
	}
	if len(keys) == 0 {
		return
	}
	for k := range g.spo.all() {
		keys = append(keys, k)
	}
	tmp := make([]key, len(keys))
	spo := sortUnique(keys, tmp)
	g.spo.build(spo) // build copies the keys
	n := len(spo)
	pos := tmp[:n]
	for i, k := range spo {
		pos[i] = key{k[1], k[2], k[0]}
	}
	radixSort(pos, keys[:n])
	g.pos.build(pos)
	osp := keys[:n]
	for i, k := range pos {
		osp[i] = key{k[1], k[2], k[0]}
	}
	radixSort(osp, tmp[:n])
	g.osp.build(osp)
}

// all yields every key in order.
func (t *index) all() func(func(key) bool) {
	return func(yield func(key) bool) { t.scan(key{}, 0, yield) }
}

// sortUnique sorts keys (tmp is scratch space of the same length) and
// removes duplicates, returning the sorted prefix of keys.
func sortUnique(keys, tmp []key) []key {
	radixSort(keys, tmp)
	out := keys[:0]
	for i, k := range keys {
		if i == 0 || k != keys[i-1] {
			out = append(out, k)
		}
	}
	return out
}

// radixSort sorts keys lexicographically with a stable LSD radix sort, 11
// bits per pass, skipping the high bits that no key uses.
func radixSort(keys, tmp []key) {
	const bits = 11
	if len(keys) < 2 {
		return
	}
	src, dst := keys, tmp
	var count [1 << bits]int
	for col := 2; col >= 0; col-- {
		var maxv uint32
		for _, k := range src {
			maxv = max(maxv, k[col])
		}
		for shift := uint(0); shift < 32 && maxv>>shift > 0; shift += bits {
			clear(count[:])
			for _, k := range src {
				count[(k[col]>>shift)&(1<<bits-1)]++
			}
			sum := 0
			for i, c := range count {
				count[i] = sum
				sum += c
			}
			for _, k := range src {
				d := (k[col] >> shift) & (1<<bits - 1)
				dst[count[d]] = k
				count[d]++
			}
			src, dst = dst, src
		}
	}
	if &src[0] != &keys[0] {
		copy(keys, src)
	}
}

// build replaces the index with one holding the sorted, unique keys, with
// full leaves and inner nodes.
func (t *index) build(keys []key) {
	t.n = len(keys)
	if len(keys) == 0 {
		t.root = nil
		return
	}
	level := make([]*inode, 0, (len(keys)+leafMax-1)/leafMax)
	firsts := make([]key, 0, cap(level))
	for i := 0; i < len(keys); i += leafMax {
		chunk := keys[i:min(i+leafMax, len(keys))]
		level = append(level, &inode{keys: append(make([]key, 0, len(chunk)), chunk...)})
		firsts = append(firsts, chunk[0])
	}
	for len(level) > 1 {
		var up []*inode
		var upFirsts []key
		for i := 0; i < len(level); i += innerMax {
			j := min(i+innerMax, len(level))
			n := &inode{
				kids: append(make([]*inode, 0, j-i), level[i:j]...),
				keys: append(make([]key, 0, j-i-1), firsts[i+1:j]...),
			}
			up = append(up, n)
			upFirsts = append(upFirsts, firsts[i])
		}
		level, firsts = up, upFirsts
	}
	t.root = level[0]
}
