package chain

import (
	"context"
	"testing"
	"time"
)

// TestCatalogOnLookup: every lookup is reported, a hit when the cache
// answered it and a miss when a run had to (a refresh, another endpoint,
// an expired entry).
func TestCatalogOnLookup(t *testing.T) {
	ctx := context.Background()
	ep := &countingEndpoint{Endpoint: exampleStore(t, localPassOnly...)}
	clock := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	var hits, misses int
	c := &Catalog{Now: func() time.Time { return clock }, OnLookup: func(hit bool) {
		if hit {
			hits++
		} else {
			misses++
		}
	}}
	for _, l := range []struct {
		key     string
		refresh bool
	}{{"http://kg/a", false}, {"http://kg/a", false}, {"http://kg/a", true}, {"http://kg/b", false}, {"http://kg/a", false}} {
		if _, err := c.Listing(ctx, l.key, ep, LookupOptions{Refresh: l.refresh}); err != nil {
			t.Fatal(err)
		}
	}
	clock = clock.Add(DefaultListingTTL + time.Second)
	if _, err := c.Listing(ctx, "http://kg/a", ep, LookupOptions{}); err != nil {
		t.Fatal(err)
	}
	if hits != 2 || misses != 4 {
		t.Errorf("hits %d, misses %d; want 2 and 4", hits, misses)
	}
}
