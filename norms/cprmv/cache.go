package cprmv

import (
	"container/list"
	"sync"
	"time"
)

// lru is a size-bounded cache with an optional time to live whose
// concurrent misses for one key share one load (single flight).
type lru[V any] struct {
	mu  sync.Mutex
	max int
	ttl time.Duration // 0: entries never expire
	// maxWeight, when positive, also bounds the sum of weigh(value): the
	// converted documents held, not just their number.
	maxWeight int64
	weigh     func(V) int64
	weight    int64
	now       func() time.Time
	order     *list.List // front = most recently used; values are *entry[V]
	items     map[string]*list.Element
	pending   map[string]*call[V]
}

type entry[V any] struct {
	key     string
	val     V
	expires time.Time
	weight  int64
}

type call[V any] struct {
	done chan struct{}
	val  V
	err  error
}

func newLRU[V any](max int, ttl time.Duration, now func() time.Time) *lru[V] {
	if max < 1 {
		max = 1
	}
	return &lru[V]{max: max, ttl: ttl, now: now, order: list.New(),
		items: map[string]*list.Element{}, pending: map[string]*call[V]{}}
}

// get returns the cached value of key or loads it once for every
// concurrent caller; errors are not cached.
func (c *lru[V]) get(key string, load func() (V, error)) (V, error) {
	c.mu.Lock()
	if el, ok := c.items[key]; ok {
		e := el.Value.(*entry[V])
		if c.ttl == 0 || c.now().Before(e.expires) {
			c.order.MoveToFront(el)
			c.mu.Unlock()
			return e.val, nil
		}
		c.drop(el)
	}
	if p, ok := c.pending[key]; ok {
		c.mu.Unlock()
		<-p.done
		return p.val, p.err
	}
	p := &call[V]{done: make(chan struct{})}
	c.pending[key] = p
	c.mu.Unlock()

	p.val, p.err = load()

	c.mu.Lock()
	delete(c.pending, key)
	if p.err == nil {
		var w int64
		if c.weigh != nil {
			w = c.weigh(p.val)
		}
		c.items[key] = c.order.PushFront(&entry[V]{key: key, val: p.val, expires: c.now().Add(c.ttl), weight: w})
		c.weight += w
		// The newest entry stays even when it alone is over the weight
		// bound: it was just loaded for a caller.
		for c.order.Len() > c.max || (c.maxWeight > 0 && c.weight > c.maxWeight && c.order.Len() > 1) {
			c.drop(c.order.Back())
		}
	}
	c.mu.Unlock()
	close(p.done)
	return p.val, p.err
}

func (c *lru[V]) drop(el *list.Element) {
	e := el.Value.(*entry[V])
	c.order.Remove(el)
	delete(c.items, e.key)
	c.weight -= e.weight
}

// len reports the number of cached entries.
func (c *lru[V]) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
