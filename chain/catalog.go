package chain

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"time"

	"github.com/regelkit/regelkit/sparql"
)

// DefaultListingTTL is how long a model listing is served from the cache.
const DefaultListingTTL = 5 * time.Minute

// Bounds of a Catalog: how many endpoints' listings it keeps, how many
// models in all and how many bytes of their JSON in all (a listing of
// 10,000 models is about 11 MB of JSON).
const (
	DefaultMaxEndpoints = 32
	DefaultMaxModels    = 100_000
	DefaultMaxBytes     = 128 << 20
)

// Listing is one endpoint's model listing: the models and their JSON array
// (as encoding/json writes it without HTML escaping), encoded once when
// the listing is fetched so that a cached answer is not encoded again.
// Both are shared by every caller and must not be modified.
type Listing struct {
	Models []Model
	JSON   []byte
	// Cached reports whether this answer came from the cache rather than
	// from a listing run.
	Cached bool
}

// Model returns the model with the identifier; ok is false when the
// listing has none.
func (l Listing) Model(identifier string) (m Model, ok bool) {
	for _, m := range l.Models {
		if m.Identifier == identifier {
			return m, true
		}
	}
	return Model{}, false
}

// LookupOptions tune one Catalog.Listing call.
type LookupOptions struct {
	// Refresh lists the endpoint again even when its cached listing is
	// younger than the TTL (and replaces it).
	Refresh bool
}

// Catalog is the one cache of model listings, per endpoint. Concurrent
// requests for the same endpoint share one listing run; a failed run is
// not cached. Callers name endpoints freely, so the cache holds at most
// MaxEndpoints listings, MaxModels models and MaxBytes bytes of JSON: a
// new endpoint first drops the expired listings, then the least recently
// used ones; a listing over MaxModels or MaxBytes by itself is answered
// but not kept.
type Catalog struct {
	TTL          time.Duration    // DefaultListingTTL when zero
	MaxEndpoints int              // DefaultMaxEndpoints when zero or negative
	MaxModels    int              // DefaultMaxModels when zero or negative
	MaxBytes     int64            // DefaultMaxBytes when zero or negative
	Logger       *slog.Logger     // vendor-query degradation warnings
	Now          func() time.Time // the clock; time.Now when nil
	// OnLookup, when set, is told of every lookup whether the cache
	// answered it (a server's hit and miss counters).
	OnLookup func(hit bool)

	mu        sync.Mutex
	entries   map[string]*catalogEntry
	uses      uint64 // counts lookups, to order entries by last use
	held      int    // models of the finished listings in entries
	heldBytes int64  // JSON bytes of the finished listings in entries
}

type catalogEntry struct {
	done    chan struct{} // closed when the run finishes
	listing Listing
	err     error
	fetched time.Time
	used    uint64 // Catalog.uses at the last lookup; guarded by Catalog.mu
	counted bool   // its models are in Catalog.held; guarded by Catalog.mu
}

// Listing returns the listing of ep, keyed by key (the endpoint URL), from
// the cache when it is younger than the TTL and opts.Refresh is false.
func (c *Catalog) Listing(ctx context.Context, key string, ep sparql.Endpoint, opts LookupOptions) (Listing, error) {
	now := c.now()
	c.mu.Lock()
	if c.entries == nil {
		c.entries = map[string]*catalogEntry{}
	}
	c.uses++
	e := c.entries[key]
	if e != nil {
		e.used = c.uses
	}
	if e != nil && !opts.Refresh {
		select {
		case <-e.done:
			if e.err == nil && now.Sub(e.fetched) < c.ttl() {
				c.mu.Unlock()
				c.observe(true)
				l := e.listing
				l.Cached = true
				return l, nil
			}
		default:
			// A run is in flight: wait for it rather than start another.
			c.mu.Unlock()
			c.observe(false)
			select {
			case <-e.done:
				if e.err != nil {
					return Listing{}, e.err
				}
				return e.listing, nil
			case <-ctx.Done():
				return Listing{}, ctx.Err()
			}
		}
	}
	if e == nil {
		c.makeRoom(now)
	} else {
		c.drop(key)
	}
	e = &catalogEntry{done: make(chan struct{}), used: c.uses}
	c.entries[key] = e
	c.mu.Unlock()
	c.observe(false)

	// The run outlives a caller that gives up, so waiters still get it.
	e.listing, e.err = fetchListing(context.WithoutCancel(ctx), ep, ListOptions{Logger: c.Logger})
	e.fetched = c.now()
	close(e.done)
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.entries[key] != e:
		// dropped meanwhile (evicted, refreshed): answered, not kept
	case e.err != nil || len(e.listing.Models) > c.maxModels() || int64(len(e.listing.JSON)) > c.maxBytes():
		c.drop(key)
	default:
		e.counted = true
		c.held += len(e.listing.Models)
		c.heldBytes += int64(len(e.listing.JSON))
		for c.held > c.maxModels() || c.heldBytes > c.maxBytes() {
			c.drop(c.leastUsed(e))
		}
	}
	if e.err != nil {
		return Listing{}, e.err
	}
	return e.listing, nil
}

// observe reports a lookup to OnLookup: a hit when the cache answered, a
// miss when a run (this caller's or one in flight) had to.
func (c *Catalog) observe(hit bool) {
	if c.OnLookup != nil {
		c.OnLookup(hit)
	}
}

// fetchListing lists the models of ep and encodes them once.
func fetchListing(ctx context.Context, ep sparql.Endpoint, opts ListOptions) (Listing, error) {
	models, err := ListModels(ctx, ep, opts)
	if err != nil {
		return Listing{}, err
	}
	if len(models) == 0 {
		return Listing{Models: models, JSON: []byte("[]")}, nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // the servers' JSON is never embedded in HTML
	if err := enc.Encode(models); err != nil {
		return Listing{}, err
	}
	return Listing{Models: models, JSON: bytes.TrimSuffix(buf.Bytes(), []byte("\n"))}, nil
}

// drop removes the entry of key. Caller holds c.mu.
func (c *Catalog) drop(key string) {
	if e, ok := c.entries[key]; ok {
		if e.counted {
			c.held -= len(e.listing.Models)
			c.heldBytes -= int64(len(e.listing.JSON))
		}
		delete(c.entries, key)
	}
}

// leastUsed returns the key of the least recently used entry other than
// keep. Caller holds c.mu; there is such an entry.
func (c *Catalog) leastUsed(keep *catalogEntry) string {
	var oldest *catalogEntry
	key := ""
	for k, e := range c.entries {
		if e != keep && (oldest == nil || e.used < oldest.used) {
			oldest, key = e, k
		}
	}
	return key
}

func (c *Catalog) maxModels() int {
	if c.MaxModels > 0 {
		return c.MaxModels
	}
	return DefaultMaxModels
}

func (c *Catalog) maxBytes() int64 {
	if c.MaxBytes > 0 {
		return c.MaxBytes
	}
	return DefaultMaxBytes
}

// Len reports how many endpoints' listings the cache holds (or is fetching).
func (c *Catalog) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

// makeRoom drops expired listings and then, while the cache is full, the
// least recently used one (a run in flight too: its waiters keep their
// entry, it is only no longer shared). Caller holds c.mu.
func (c *Catalog) makeRoom(now time.Time) {
	max := c.MaxEndpoints
	if max <= 0 {
		max = DefaultMaxEndpoints
	}
	if len(c.entries) < max {
		return
	}
	for k, e := range c.entries {
		select {
		case <-e.done:
			if now.Sub(e.fetched) >= c.ttl() {
				c.drop(k)
			}
		default:
		}
	}
	for len(c.entries) >= max {
		c.drop(c.leastUsed(nil))
	}
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
