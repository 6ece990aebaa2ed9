package chain

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/regelkit/regelkit/sparql"
)

// DefaultListingTTL is how long a model listing is served from the cache.
const DefaultListingTTL = 5 * time.Minute

// Catalog caches model listings per endpoint. Concurrent requests for the
// same endpoint share one listing run; a failed run is not cached.
type Catalog struct {
	TTL    time.Duration    // DefaultListingTTL when zero
	Logger *slog.Logger     // vendor-query degradation warnings
	Now    func() time.Time // the clock; time.Now when nil

	mu      sync.Mutex
	entries map[string]*catalogEntry
}

type catalogEntry struct {
	done    chan struct{} // closed when the run finishes
	models  []Model
	err     error
	fetched time.Time
}

// Models returns the listing of ep, keyed by key (the endpoint URL), from
// the cache when it is younger than the TTL and refresh is false. cached
// reports whether the answer came from the cache.
func (c *Catalog) Models(ctx context.Context, key string, ep sparql.Endpoint, refresh bool) (models []Model, cached bool, err error) {
	now := c.now()
	c.mu.Lock()
	if c.entries == nil {
		c.entries = map[string]*catalogEntry{}
	}
	e := c.entries[key]
	if e != nil && !refresh {
		select {
		case <-e.done:
			if e.err == nil && now.Sub(e.fetched) < c.ttl() {
				c.mu.Unlock()
				return e.models, true, nil
			}
		default:
			// A run is in flight: wait for it rather than start another.
			c.mu.Unlock()
			select {
			case <-e.done:
				if e.err != nil {
					return nil, false, e.err
				}
				return e.models, false, nil
			case <-ctx.Done():
				return nil, false, ctx.Err()
			}
		}
	}
	e = &catalogEntry{done: make(chan struct{})}
	c.entries[key] = e
	c.mu.Unlock()

	// The run outlives a caller that gives up, so waiters still get it.
	e.models, e.err = ListModels(context.WithoutCancel(ctx), ep, c.Logger)
	e.fetched = c.now()
	close(e.done)
	if e.err != nil {
		c.mu.Lock()
		if c.entries[key] == e {
			delete(c.entries, key)
		}
		c.mu.Unlock()
		return nil, false, e.err
	}
	return e.models, false, nil
}

// Model returns one model by identifier from the (cached) listing; ok is
// false when no model has that identifier.
func (c *Catalog) Model(ctx context.Context, key string, ep sparql.Endpoint, identifier string, refresh bool) (m Model, ok, cached bool, err error) {
	models, cached, err := c.Models(ctx, key, ep, refresh)
	if err != nil {
		return Model{}, false, false, err
	}
	for _, m := range models {
		if m.Identifier == identifier {
			return m, true, cached, nil
		}
	}
	return Model{}, false, cached, nil
}

func (c *Catalog) ttl() time.Duration {
	if c.TTL > 0 {
		return c.TTL
	}
	return DefaultListingTTL
}

func (c *Catalog) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}
