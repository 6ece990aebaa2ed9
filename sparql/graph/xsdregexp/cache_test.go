package xsdregexp

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

func TestCacheReturnsSameCompiledPattern(t *testing.T) {
	c := NewCache(4)
	a, err := c.Compile("^a+b$", "i")
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.Compile("^a+b$", "i")
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Error("second Compile of the same pattern did not come from the cache")
	}
	if ok, _ := b.MatchString("AAB"); !ok {
		t.Error(`cached "^a+b$" with flag i does not match "AAB"`)
	}
	other, _ := c.Compile("^a+b$", "")
	if other == a {
		t.Error("different flags share one cache entry")
	}
	if ok, _ := other.MatchString("AAB"); ok {
		t.Error(`"^a+b$" without flags matches "AAB"`)
	}
}

func TestCacheKeepsErrors(t *testing.T) {
	c := NewCache(4)
	for range 2 {
		if _, err := c.Compile("a(", ""); err == nil {
			t.Fatal(`"a(" compiled`)
		}
	}
	if c.Len() != 1 {
		t.Errorf("Len = %d, want 1", c.Len())
	}
}

// TestCacheBound compiles far more distinct patterns than the cache holds:
// it never holds more than its size and forgets the least recently used.
func TestCacheBound(t *testing.T) {
	c := NewCache(8)
	first, _ := c.Compile("p0", "")
	for i := range 1000 {
		if _, err := c.Compile(fmt.Sprintf("p%d", i), ""); err != nil {
			t.Fatal(err)
		}
		if c.Len() > 8 {
			t.Fatalf("after %d patterns Len = %d, want at most 8", i+1, c.Len())
		}
	}
	if c.Len() != 8 {
		t.Errorf("Len = %d, want 8", c.Len())
	}
	again, _ := c.Compile("p0", "")
	if again == first {
		t.Error("p0, least recently used, was not evicted")
	}
	recent, _ := c.Compile("p999", "")
	if recent2, _ := c.Compile("p999", ""); recent != recent2 {
		t.Error("p999, most recently used, was evicted")
	}
}

func TestCacheSkipsLongPatterns(t *testing.T) {
	c := NewCache(8)
	long := strings.Repeat("a", MaxCachedPattern+1)
	if _, err := c.Compile(long, ""); err != nil {
		t.Fatal(err)
	}
	if c.Len() != 0 {
		t.Errorf("a %d-byte pattern was cached", len(long))
	}
}

func TestCacheConcurrent(t *testing.T) {
	c := NewCache(16)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				re, err := c.Compile(fmt.Sprintf("^x%d$", (i+g)%40), "")
				if err != nil {
					t.Error(err)
					return
				}
				if ok, _ := re.MatchString(fmt.Sprintf("x%d", (i+g)%40)); !ok {
					t.Errorf("pattern %d does not match its own text", (i+g)%40)
					return
				}
			}
		})
	}
	wg.Wait()
	if c.Len() > 16 {
		t.Errorf("Len = %d, want at most 16", c.Len())
	}
}
