package public

import (
	"context"
	"sync"
	"time"
)

// snapshot is one successful fetch.
type snapshot[T any] struct {
	value   T
	fetched time.Time
}

// cached is what a cache answers: a snapshot, and whether it is stale (the
// refresh that should have replaced it failed).
type cached[T any] struct {
	snapshot[T]
	stale bool
	hit   bool // answered from the cache without a fetch
}

// cache holds the last good value of one source. A value older than ttl is
// refreshed by one fetch at a time (single flight: concurrent callers wait
// for the same fetch); when the fetch fails the old value is served as
// stale, however old. It holds one value, so it needs no further bound.
type cache[T any] struct {
	ttl time.Duration
	now func() time.Time

	mu     sync.Mutex
	last   *snapshot[T]
	flight *flight[T]

	observe func(hit bool) // nil: lookups are not reported
}

// observeAs reports the lookups of c (nil: none) under name.
func observeAs[T any](c *cache[T], name string, f func(string, bool)) {
	if c != nil {
		c.observe = func(hit bool) { f(name, hit) }
	}
}

type flight[T any] struct {
	done chan struct{}
	err  error
}

func newCache[T any](ttl time.Duration, now func() time.Time) *cache[T] {
	return &cache[T]{ttl: ttl, now: now}
}

// peek returns the last good value, fresh or stale, without fetching.
func (c *cache[T]) peek() (snapshot[T], bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.last == nil {
		return snapshot[T]{}, false
	}
	return *c.last, true
}

// get returns the cached value, refreshing it first when it is older than
// the ttl or force is set. The fetch runs detached from ctx, so a caller
// that goes away does not fail the others waiting on it; fetch bounds its
// own time. Without any good value a failed fetch is the error.
func (c *cache[T]) get(ctx context.Context, force bool, fetch func(context.Context) (T, error)) (cached[T], error) {
	c.mu.Lock()
	if c.last != nil && !force && c.now().Sub(c.last.fetched) < c.ttl {
		s := *c.last
		c.mu.Unlock()
		if c.observe != nil {
			c.observe(true)
		}
		return cached[T]{snapshot: s, hit: true}, nil
	}
	f := c.flight
	if f == nil {
		f = &flight[T]{done: make(chan struct{})}
		c.flight = f
		go c.run(context.WithoutCancel(ctx), f, fetch)
	}
	c.mu.Unlock()
	if c.observe != nil {
		c.observe(false)
	}

	var err error
	select {
	case <-f.done:
		err = f.err
	case <-ctx.Done():
		err = ctx.Err()
	}
	c.mu.Lock()
	last := c.last
	c.mu.Unlock()
	switch {
	case last == nil:
		return cached[T]{}, err
	case err != nil:
		return cached[T]{snapshot: *last, stale: true}, nil
	}
	return cached[T]{snapshot: *last}, nil
}

func (c *cache[T]) run(ctx context.Context, f *flight[T], fetch func(context.Context) (T, error)) {
	v, err := fetch(ctx)
	c.mu.Lock()
	if err == nil {
		c.last = &snapshot[T]{value: v, fetched: c.now()}
	}
	f.err = err
	c.flight = nil
	c.mu.Unlock()
	close(f.done)
}
