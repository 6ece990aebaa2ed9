package chain

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/regelkit/regelkit/sparql"
	"github.com/regelkit/regelkit/sparql/graph"
)

// countingEndpoint counts SELECTs and can fail or stall them.
type countingEndpoint struct {
	sparql.Endpoint
	selects atomic.Int64
	fail    atomic.Bool
	gate    chan struct{}
}

func (c *countingEndpoint) Select(ctx context.Context, q string) (*sparql.Results, error) {
	c.selects.Add(1)
	if c.gate != nil {
		<-c.gate
	}
	if c.fail.Load() {
		return nil, errors.New("endpoint down")
	}
	return c.Endpoint.Select(ctx, q)
}

func (c *countingEndpoint) Construct(ctx context.Context, q string) (*graph.Graph, error) {
	return c.Endpoint.Construct(ctx, q)
}

func TestCatalogCachesPerEndpoint(t *testing.T) {
	ctx := context.Background()
	ep := &countingEndpoint{Endpoint: exampleStore(t, localPassOnly...)}
	clock := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	c := &Catalog{Now: func() time.Time { return clock }}

	first, cached, err := models(ctx, c, "http://kg/a", ep, LookupOptions{})
	if err != nil || cached || len(first) != 3 {
		t.Fatalf("first call: %d models, cached %v, %v", len(first), cached, err)
	}
	runs := ep.selects.Load()
	_, cached, _ = models(ctx, c, "http://kg/a", ep, LookupOptions{})
	if !cached || ep.selects.Load() != runs {
		t.Errorf("second call within the TTL: cached %v, %d more queries", cached, ep.selects.Load()-runs)
	}
	l, err := c.Listing(ctx, "http://kg/a", ep, LookupOptions{})
	m, ok := l.Model("SZW_BijstandsnormInformatie")
	cached = l.Cached
	if err != nil || !ok || !cached || m.Title != "SZW Bijstandsnorminformatie" {
		t.Errorf("single model from the cache: %v %v %v %v", m.Title, ok, cached, err)
	}
	if _, ok := l.Model("NOPE"); ok {
		t.Error("unknown identifier found")
	}
	_, cached, _ = models(ctx, c, "http://kg/a", ep, LookupOptions{Refresh: true})
	if cached {
		t.Error("refresh must bypass the cache")
	}
	_, cached, _ = models(ctx, c, "http://kg/b", ep, LookupOptions{})
	if cached {
		t.Error("another endpoint key must not share the cache")
	}
	clock = clock.Add(DefaultListingTTL + time.Second)
	_, cached, _ = models(ctx, c, "http://kg/a", ep, LookupOptions{})
	if cached {
		t.Error("an expired entry must be refetched")
	}

	// A failed run is not cached.
	ep.fail.Store(true)
	if _, _, err := models(ctx, c, "http://kg/c", ep, LookupOptions{}); err == nil {
		t.Fatal("want the endpoint error")
	}
	ep.fail.Store(false)
	if _, cached, err := models(ctx, c, "http://kg/c", ep, LookupOptions{}); err != nil || cached {
		t.Errorf("after a failure: cached %v, %v", cached, err)
	}
}

func TestCatalogSharesOneRun(t *testing.T) {
	ctx := context.Background()
	ep := &countingEndpoint{Endpoint: exampleStore(t, localPassOnly...), gate: make(chan struct{})}
	c := &Catalog{}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, _, err := models(ctx, c, "k", ep, LookupOptions{}); err != nil {
				t.Error(err)
			}
		}()
	}
	time.Sleep(50 * time.Millisecond) // let the callers pile up behind the first run
	close(ep.gate)
	wg.Wait()
	_, _, _ = models(ctx, c, "k", ep, LookupOptions{})
	// One listing run issues a fixed number of SELECTs; eight callers must not multiply it.
	single := &countingEndpoint{Endpoint: exampleStore(t, localPassOnly...)}
	if _, err := ListModels(ctx, single, ListOptions{}); err != nil {
		t.Fatal(err)
	}
	if ep.selects.Load() != single.selects.Load() {
		t.Errorf("%d SELECTs for eight concurrent callers, want %d (one run)", ep.selects.Load(), single.selects.Load())
	}
}

// TestCatalogIsBounded: listings of 50 caller-named endpoints leave at most
// MaxEndpoints in the cache; the one in use stays, the least recently used
// go, and expired ones go first.
func TestCatalogIsBounded(t *testing.T) {
	ctx := context.Background()
	ep := &countingEndpoint{Endpoint: exampleStore(t, localPassOnly...)}
	clock := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	c := &Catalog{MaxEndpoints: 4, Now: func() time.Time { return clock }}
	for i := 0; i < 50; i++ {
		if _, _, err := models(ctx, c, "http://kg/hot", ep, LookupOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, _, err := models(ctx, c, fmt.Sprintf("http://kg/%d", i), ep, LookupOptions{}); err != nil {
			t.Fatal(err)
		}
		if n := c.Len(); n > 4 {
			t.Fatalf("after %d endpoints the cache holds %d listings, bound 4", i+1, n)
		}
	}
	if _, cached, _ := models(ctx, c, "http://kg/hot", ep, LookupOptions{}); !cached {
		t.Error("the endpoint in use was evicted")
	}
	if _, cached, _ := models(ctx, c, "http://kg/49", ep, LookupOptions{}); !cached {
		t.Error("the newest endpoint was evicted")
	}
	if _, cached, _ := models(ctx, c, "http://kg/0", ep, LookupOptions{}); cached {
		t.Error("the oldest endpoint is still cached")
	}
	// Expired listings go before live ones: after the TTL, two new
	// endpoints leave both of them and the (refreshed) hot one.
	clock = clock.Add(DefaultListingTTL + time.Second)
	models(ctx, c, "http://kg/hot", ep, LookupOptions{})
	models(ctx, c, "http://kg/new1", ep, LookupOptions{})
	models(ctx, c, "http://kg/new2", ep, LookupOptions{})
	for _, k := range []string{"http://kg/hot", "http://kg/new1", "http://kg/new2"} {
		if _, cached, _ := models(ctx, c, k, ep, LookupOptions{}); !cached {
			t.Errorf("%s not cached", k)
		}
	}
	if n := c.Len(); n != 3 {
		t.Errorf("after expiry the cache holds %d listings, want 3", n)
	}
}

// TestCatalogBoundsModels: with MaxModels 7, listings of three models each
// keep at most two endpoints; a listing over the bound by itself is
// answered but not kept.
func TestCatalogBoundsModels(t *testing.T) {
	ctx := context.Background()
	ep := &countingEndpoint{Endpoint: exampleStore(t, localPassOnly...)}
	c := &Catalog{MaxModels: 7}
	for _, k := range []string{"a", "b", "c"} {
		if models, _, err := models(ctx, c, k, ep, LookupOptions{}); err != nil || len(models) != 3 {
			t.Fatalf("%s: %d models, %v", k, len(models), err)
		}
	}
	c.mu.Lock()
	n, held := len(c.entries), c.held
	c.mu.Unlock()
	if n != 2 || held != 6 {
		t.Errorf("cache holds %d listings, %d models; want 2, 6", n, held)
	}
	if _, cached, _ := models(ctx, c, "a", ep, LookupOptions{}); cached {
		t.Error("the least recently used listing is still cached")
	}
	small := &Catalog{MaxModels: 2}
	models(ctx, small, "a", ep, LookupOptions{})
	if _, cached, _ := models(ctx, small, "a", ep, LookupOptions{}); cached || small.Len() != 0 {
		t.Errorf("a 3-model listing was kept under MaxModels 2 (cached %v, %d entries)", cached, small.Len())
	}
}

// TestCatalogBoundsBytes: the cached listing carries its JSON, encoded once
// and shared by later answers; with MaxBytes at two and a half listings,
// 200 caller-named endpoints keep at most two, the byte count matches what
// the entries hold, and a listing over MaxBytes by itself is answered with
// its JSON but not kept.
func TestCatalogBoundsBytes(t *testing.T) {
	ctx := context.Background()
	ep := &countingEndpoint{Endpoint: exampleStore(t, localPassOnly...)}
	probe, _, err := listing(ctx, (&Catalog{}), "probe", ep, LookupOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var decoded []struct{ Identifier string }
	if err := json.Unmarshal(probe.JSON, &decoded); err != nil {
		t.Fatalf("listing JSON: %v", err)
	}
	var ids []string
	for _, m := range decoded {
		ids = append(ids, m.Identifier)
	}
	if got, want := strings.Join(ids, " "), "RONL_LocalpassEindresultaat SVB_LeeftijdsInformatie SZW_BijstandsnormInformatie"; got != want {
		t.Errorf("listing JSON identifiers %q, want %q", got, want)
	}
	if bytes.HasSuffix(probe.JSON, []byte("\n")) {
		t.Error("listing JSON ends in a newline")
	}

	size := int64(len(probe.JSON))
	c := &Catalog{MaxBytes: size*5/2 + 1}
	for i := 0; i < 200; i++ {
		if _, _, err := listing(ctx, c, fmt.Sprintf("http://kg/%d", i), ep, LookupOptions{}); err != nil {
			t.Fatal(err)
		}
		c.mu.Lock()
		n, held := len(c.entries), c.heldBytes
		c.mu.Unlock()
		if n > 2 || held > c.MaxBytes {
			t.Fatalf("after %d endpoints: %d listings, %d bytes, bound %d", i+1, n, held, c.MaxBytes)
		}
	}
	first, _, _ := listing(ctx, c, "http://kg/same", ep, LookupOptions{})
	again, cached, _ := listing(ctx, c, "http://kg/same", ep, LookupOptions{})
	if !cached || &first.JSON[0] != &again.JSON[0] {
		t.Errorf("a repeated listing was encoded again (cached %v)", cached)
	}
	c.mu.Lock()
	var total int64
	for _, e := range c.entries {
		total += int64(len(e.listing.JSON))
	}
	held := c.heldBytes
	c.mu.Unlock()
	if total != held {
		t.Errorf("byte count %d, listings hold %d", held, total)
	}

	small := &Catalog{MaxBytes: size - 1}
	l, _, err := listing(ctx, small, "a", ep, LookupOptions{})
	if err != nil || int64(len(l.JSON)) != size {
		t.Fatalf("over MaxBytes: %d bytes of JSON, %v", len(l.JSON), err)
	}
	if _, cached, _ := listing(ctx, small, "a", ep, LookupOptions{}); cached || small.Len() != 0 {
		t.Errorf("a listing over MaxBytes was kept (cached %v, %d entries)", cached, small.Len())
	}
}

// models and listing split Catalog.Listing the way these tests check it.
func models(ctx context.Context, c *Catalog, key string, ep sparql.Endpoint, opts LookupOptions) ([]Model, bool, error) {
	l, err := c.Listing(ctx, key, ep, opts)
	return l.Models, l.Cached, err
}

func listing(ctx context.Context, c *Catalog, key string, ep sparql.Endpoint, opts LookupOptions) (Listing, bool, error) {
	l, err := c.Listing(ctx, key, ep, opts)
	return l, l.Cached, err
}
