package graph

// index is a B+tree set of keys of three term ids, ordered
// lexicographically. A Graph keeps three of them (SPO, POS, OSP) so that
// every triple pattern is a range scan over a key prefix.
//
// Deletion is lazy: a leaf that becomes empty is unlinked, but underfull
// nodes are not merged. Separators stay valid bounds, so lookups stay
// correct; only space is lost, and only under heavy deletion.
type index struct {
	root *inode
	n    int
}

type key [3]uint32

const (
	leafMax  = 120 // keys per leaf (12 bytes each)
	innerMax = 64  // children per inner node
)

// inode is a leaf (kids == nil) or an inner node. In an inner node,
// keys[i] is the smallest key that may be found in kids[i+1]; all keys in
// kids[i] are smaller than keys[i].
type inode struct {
	keys []key
	kids []*inode
}

func (a key) less(b key) bool {
	ah, bh := uint64(a[0])<<32|uint64(a[1]), uint64(b[0])<<32|uint64(b[1])
	return ah < bh || ah == bh && a[2] < b[2]
}

// search returns the first position i in keys with keys[i] >= k.
func search(keys []key, k key) int {
	lo, hi := 0, len(keys)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if keys[m].less(k) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// child returns the index of the child of inner node n that may hold k.
func (n *inode) child(k key) int {
	lo, hi := 0, len(n.keys)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if !k.less(n.keys[m]) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

func (t *index) has(k key) bool {
	n := t.root
	if n == nil {
		return false
	}
	for n.kids != nil {
		n = n.kids[n.child(k)]
	}
	i := search(n.keys, k)
	return i < len(n.keys) && n.keys[i] == k
}

// insert adds k and reports whether it was absent.
func (t *index) insert(k key) bool {
	if t.root == nil {
		t.root = &inode{keys: make([]key, 0, 8)}
	}
	added, sep, right := t.root.insert(k)
	if right != nil {
		t.root = &inode{keys: []key{sep}, kids: []*inode{t.root, right}}
	}
	if added {
		t.n++
	}
	return added
}

// insert adds k below n. When n splits it returns the new right sibling and
// the separator (smallest key of the right sibling).
func (n *inode) insert(k key) (added bool, sep key, right *inode) {
	if n.kids == nil {
		i := search(n.keys, k)
		if i < len(n.keys) && n.keys[i] == k {
			return false, sep, nil
		}
		if len(n.keys) < leafMax {
			n.keys = insertAt(n.keys, i, k)
			return true, k, nil
		}
		// Full leaf. Appending at its end (the common case for data loaded
		// in order) starts a new leaf so that the old one stays full;
		// otherwise split in the middle.
		if i == len(n.keys) {
			r := &inode{keys: make([]key, 1, leafMax)}
			r.keys[0] = k
			return true, k, r
		}
		half := len(n.keys) / 2
		r := &inode{keys: make([]key, len(n.keys)-half, leafMax)}
		copy(r.keys, n.keys[half:])
		n.keys = n.keys[:half:leafMax]
		if i <= half {
			n.keys = insertAt(n.keys, i, k)
		} else {
			r.keys = insertAt(r.keys, i-half, k)
		}
		return true, r.keys[0], r
	}
	ci := n.child(k)
	added, csep, cright := n.kids[ci].insert(k)
	if cright == nil {
		return added, sep, nil
	}
	n.keys = insertAt(n.keys, ci, csep)
	n.kids = insertAt(n.kids, ci+1, cright)
	if len(n.kids) <= innerMax {
		return added, sep, nil
	}
	// Split the inner node: keys[half] moves up.
	half := len(n.keys) / 2
	if ci+1 == len(n.kids)-1 {
		half = len(n.keys) - 1 // appending: keep the left node full
	}
	r := &inode{
		keys: append(make([]key, 0, innerMax), n.keys[half+1:]...),
		kids: append(make([]*inode, 0, innerMax+1), n.kids[half+1:]...),
	}
	up := n.keys[half]
	clear(n.kids[half+1:])
	n.keys = n.keys[:half]
	n.kids = n.kids[:half+1]
	return added, up, r
}

func insertAt[T any](s []T, i int, v T) []T {
	var zero T
	s = append(s, zero)
	copy(s[i+1:], s[i:])
	s[i] = v
	return s
}

// remove deletes k and reports whether it was present.
func (t *index) remove(k key) bool {
	if t.root == nil {
		return false
	}
	removed, _ := t.root.remove(k)
	if !removed {
		return false
	}
	t.n--
	for len(t.root.kids) == 1 {
		t.root = t.root.kids[0]
	}
	if t.root.kids != nil && len(t.root.kids) == 0 {
		t.root = nil
	}
	return true
}

// remove deletes k below n and reports whether n became empty.
func (n *inode) remove(k key) (removed, empty bool) {
	if n.kids == nil {
		i := search(n.keys, k)
		if i >= len(n.keys) || n.keys[i] != k {
			return false, false
		}
		n.keys = append(n.keys[:i], n.keys[i+1:]...)
		return true, len(n.keys) == 0
	}
	ci := n.child(k)
	removed, empty = n.kids[ci].remove(k)
	if !empty {
		return removed, false
	}
	// Unlink the empty child together with one adjacent separator.
	copy(n.kids[ci:], n.kids[ci+1:])
	n.kids[len(n.kids)-1] = nil
	n.kids = n.kids[:len(n.kids)-1]
	if len(n.keys) > 0 {
		ki := ci
		if ki > 0 {
			ki--
		}
		n.keys = append(n.keys[:ki], n.keys[ki+1:]...)
	}
	return removed, len(n.kids) == 0
}

// scan calls yield with every key that has the first plen components of
// prefix, in order, until yield returns false. Keys are handed over in
// batches copied out of one leaf, and the next leaf is found by a fresh
// descent from the root, so yield may modify the index: keys added or
// removed during the scan may or may not be seen, but no key is seen twice.
func (t *index) scan(prefix key, plen int, yield func(key) bool) {
	var buf [leafMax]key
	lo := prefix
	for i := plen; i < 3; i++ {
		lo[i] = 0
	}
	for {
		n := t.root
		if n == nil {
			return
		}
		for n.kids != nil {
			n = n.kids[n.child(lo)]
		}
		i := search(n.keys, lo)
		if i == len(n.keys) {
			// lo lies beyond this leaf; the next leaf starts at the
			// separator after it. Find it by descending for the
			// smallest key above the leaf's last key.
			next, ok := t.after(lo)
			if !ok {
				return
			}
			lo = next
			continue
		}
		m := copy(buf[:], n.keys[i:])
		for j := range m {
			k := buf[j]
			for c := range plen {
				if k[c] != prefix[c] {
					return
				}
			}
			if !yield(k) {
				return
			}
		}
		last := buf[m-1]
		if !last.inc() {
			return
		}
		lo = last
	}
}

// after returns the smallest separator greater than k, which is the first
// key of the leaf following the one where k would be.
func (t *index) after(k key) (key, bool) {
	var best key
	found := false
	n := t.root
	for n.kids != nil {
		ci := n.child(k)
		if ci < len(n.keys) {
			best, found = n.keys[ci], true
		}
		n = n.kids[ci]
	}
	return best, found
}

// inc advances k to the next key in order; false when k is the largest.
func (k *key) inc() bool {
	for i := 2; i >= 0; i-- {
		k[i]++
		if k[i] != 0 {
			return true
		}
	}
	return false
}
