package xsdregexp

import (
	"container/list"
	"sync"
)

// MaxCachedPattern is the longest pattern (in bytes) a Cache keeps: a
// longer one is compiled on every call, so that a full cache holds at
// most its size times this many bytes of pattern text.
const MaxCachedPattern = 4096

// Cache keeps up to a fixed number of compiled patterns, least recently
// used first out, for callers whose pattern is computed per row or per
// evaluation (SPARQL's REGEX and REPLACE, FEEL's matches, replace and
// split) and would otherwise recompile it every time. Invalid patterns
// are kept too, with their error. A Cache is safe for concurrent use.
type Cache struct {
	mu    sync.Mutex
	size  int
	order *list.List // of *cacheEntry, most recently used at the front
	byKey map[cacheKey]*list.Element
}

type cacheKey struct{ pattern, flags string }

type cacheEntry struct {
	key cacheKey
	re  *Regexp
	err error
}

// NewCache returns a cache of at most size patterns (at least 1).
func NewCache(size int) *Cache {
	size = max(size, 1)
	return &Cache{size: size, order: list.New(), byKey: make(map[cacheKey]*list.Element, size)}
}

// Compile is the package's Compile (default Options: a replacement's
// bound is passed to ReplaceAllWithin), answered from the cache when the
// same pattern and flags were compiled recently.
func (c *Cache) Compile(pattern, flags string) (*Regexp, error) {
	if len(pattern)+len(flags) > MaxCachedPattern {
		return Compile(pattern, flags)
	}
	k := cacheKey{pattern, flags}
	c.mu.Lock()
	if el, ok := c.byKey[k]; ok {
		c.order.MoveToFront(el)
		e := el.Value.(*cacheEntry)
		c.mu.Unlock()
		return e.re, e.err
	}
	c.mu.Unlock()
	// Compiled outside the lock: two goroutines may compile the same
	// pattern at once, which costs time but never a wrong answer.
	re, err := Compile(pattern, flags)
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byKey[k]; !ok {
		c.byKey[k] = c.order.PushFront(&cacheEntry{key: k, re: re, err: err})
		for c.order.Len() > c.size {
			last := c.order.Back()
			c.order.Remove(last)
			delete(c.byKey, last.Value.(*cacheEntry).key)
		}
	}
	return re, err
}

// Len returns the number of patterns held.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
