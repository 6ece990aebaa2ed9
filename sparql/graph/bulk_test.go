package graph

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestRadixSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, limit := range []uint32{1, 7, 3000, 1 << 21, 1<<32 - 1} {
		keys := make([]key, 5000)
		for i := range keys {
			keys[i] = key{rng.Uint32N(limit), rng.Uint32N(limit), rng.Uint32N(limit)}
			if limit == 1<<32-1 && i%3 == 0 {
				keys[i][0] = limit // the largest value
			}
		}
		want := slices.Clone(keys)
		slices.SortFunc(want, func(a, b key) int {
			for c := range 3 {
				if a[c] != b[c] {
					if a[c] < b[c] {
						return -1
					}
					return 1
				}
			}
			return 0
		})
		radixSort(keys, make([]key, len(keys)))
		if !slices.Equal(keys, want) {
			t.Fatalf("ids below %d: radix sort differs from slices.SortFunc", limit)
		}
	}
}

// TestBulkLoad compares graphs loaded in bulk with graphs built triple by
// triple, then keeps modifying the bulk-built one.
func TestBulkLoad(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	randomTriples := func(n int) []Triple {
		out := make([]Triple, n)
		for i := range out {
			out[i] = Triple{ex(fmt.Sprint("s", rng.IntN(400))), ex(fmt.Sprint("p", rng.IntN(9))), Literal(fmt.Sprint(rng.IntN(3000)), XSDInteger)}
		}
		return out
	}
	first := randomTriples(40000) // with duplicates
	bulk, one := NewGraph(), NewGraph()
	for _, tr := range first {
		one.Add(tr)
	}
	if n := bulk.AddAll(slices.Values(first)); n != one.Len() {
		t.Fatalf("AddAll reported %d new triples, graph built one by one has %d", n, one.Len())
	}
	check := func(stage string) {
		t.Helper()
		if !bulk.Equal(one) || !one.Equal(bulk) {
			t.Fatalf("%s: graphs differ (%d vs %d triples)", stage, bulk.Len(), one.Len())
		}
		for _, s := range []Term{{}, ex("s7"), ex("s399")} {
			for _, p := range []Term{{}, ex("p3")} {
				for _, o := range []Term{{}, Literal("42", XSDInteger)} {
					a, b := slices.Collect(bulk.Match(s, p, o)), slices.Collect(one.Match(s, p, o))
					if len(a) != len(b) {
						t.Fatalf("%s: Match(%v, %v, %v): %d vs %d triples", stage, s, p, o, len(a), len(b))
					}
				}
			}
		}
	}
	check("bulk load")
	// Single adds and removes on the packed trees (full leaves split).
	for _, tr := range randomTriples(5000) {
		if bulk.Add(tr) != one.Add(tr) {
			t.Fatalf("Add(%v) disagrees", tr)
		}
	}
	for _, tr := range randomTriples(5000) {
		if bulk.Remove(tr) != one.Remove(tr) {
			t.Fatalf("Remove(%v) disagrees", tr)
		}
	}
	check("after adds and removes")
	// A small batch is inserted, a large one merged.
	for _, n := range []int{100, 80000} {
		batch := randomTriples(n)
		got := bulk.AddAll(slices.Values(batch))
		want := 0
		for _, tr := range batch {
			if one.Add(tr) {
				want++
			}
		}
		if got != want {
			t.Fatalf("AddAll of %d: %d new, want %d", n, got, want)
		}
		check(fmt.Sprintf("after AddAll of %d", n))
	}
}
