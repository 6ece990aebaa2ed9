package metrics

import (
	"net/http"
	"time"
)

// Transport times every call through rt (http.DefaultTransport when nil)
// under the fixed target name ("engine", "sparql", "brp", …), and counts
// the calls that got no response or a 5xx one. Target names are fixed in
// code, never taken from a URL. A nil Metrics returns rt as it is.
func (m *Metrics) Transport(target string, rt http.RoundTripper) http.RoundTripper {
	if m == nil {
		return rt
	}
	if rt == nil {
		rt = http.DefaultTransport
	}
	return &transport{
		next:      rt,
		duration:  m.outDuration.WithLabelValues(target),
		transport: m.outErrors.WithLabelValues(target, "transport"),
		status:    m.outErrors.WithLabelValues(target, "status"),
	}
}

// Client returns a copy of c (a new client when nil) whose calls are
// measured under target; c itself is left as it was. A nil Metrics
// returns c as it is.
func (m *Metrics) Client(target string, c *http.Client) *http.Client {
	if m == nil {
		return c
	}
	var cp http.Client
	if c != nil {
		cp = *c
	}
	cp.Transport = m.Transport(target, cp.Transport)
	return &cp
}

type transport struct {
	next      http.RoundTripper
	duration  interface{ Observe(float64) }
	transport interface{ Inc() }
	status    interface{ Inc() }
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	start := time.Now()
	resp, err := t.next.RoundTrip(req)
	t.duration.Observe(time.Since(start).Seconds())
	switch {
	case err != nil:
		t.transport.Inc()
	case resp.StatusCode >= 500:
		t.status.Inc()
	}
	return resp, err
}

// Cache counts the lookups of one named cache.
type Cache struct {
	hit, miss interface{ Inc() }
}

// Cache returns the counters of the cache called name (fixed in code:
// "chain_listing", …).
func (m *Metrics) Cache(name string) *Cache {
	return &Cache{hit: m.cacheHits.WithLabelValues(name), miss: m.cacheMisses.WithLabelValues(name)}
}

// Observe counts one lookup; its shape fits a cache's hook func(hit bool).
func (c *Cache) Observe(hit bool) {
	if hit {
		c.hit.Inc()
	} else {
		c.miss.Inc()
	}
}

// ObserveCache counts one lookup of the cache called name; its shape fits
// a hook that names the cache (func(cache string, hit bool)).
func (m *Metrics) ObserveCache(name string, hit bool) {
	if hit {
		m.cacheHits.WithLabelValues(name).Inc()
	} else {
		m.cacheMisses.WithLabelValues(name).Inc()
	}
}
