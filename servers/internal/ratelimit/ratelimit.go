package ratelimit

import (
	"net/http"
	"strconv"
	"sync"
	"time"
)

// DefaultMaxKeys bounds the table of windows when Options.MaxKeys is 0:
// about 100 bytes a window, so some 10 MB at most.
const DefaultMaxKeys = 100_000

// Options configure a Limiter.
type Options struct {
	Max     int           // requests per window and key (at least 1)
	Window  time.Duration // window length (at least 1 s)
	MaxKeys int           // table bound (DefaultMaxKeys when 0)
	Now     func() time.Time
}

// Limiter counts requests per key in fixed windows. It is safe for
// concurrent use.
type Limiter struct {
	opts Options
	mu   sync.Mutex
	m    map[string]*window
	// The windows form a list in order of their start: a key whose window
	// expired starts a new one at the tail, so the head is always the
	// oldest window and eviction is O(1).
	head, tail *window
}

type window struct {
	key        string
	start      time.Time
	count      int
	prev, next *window
}

// New returns a Limiter.
func New(o Options) *Limiter {
	if o.Max < 1 {
		o.Max = 1
	}
	if o.Window < time.Second {
		o.Window = time.Second
	}
	if o.MaxKeys <= 0 {
		o.MaxKeys = DefaultMaxKeys
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Limiter{opts: o, m: make(map[string]*window)}
}

// Decision is the outcome of one Allow.
type Decision struct {
	Allowed   bool
	Limit     int
	Remaining int
	Reset     time.Duration // until the window ends
	Window    time.Duration
}

// ResetSeconds is Reset in whole seconds, rounded up (at least 1 while the
// window runs).
func (d Decision) ResetSeconds() int {
	s := int((d.Reset + time.Second - 1) / time.Second)
	return max(s, 1)
}

// SetHeaders writes RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset
// and RateLimit-Policy; a refusal adds Retry-After. Never X-RateLimit-*.
func (d Decision) SetHeaders(h http.Header) {
	reset := strconv.Itoa(d.ResetSeconds())
	h.Set("RateLimit-Limit", strconv.Itoa(d.Limit))
	h.Set("RateLimit-Remaining", strconv.Itoa(d.Remaining))
	h.Set("RateLimit-Reset", reset)
	h.Set("RateLimit-Policy", strconv.Itoa(d.Limit)+";w="+strconv.Itoa(int(d.Window/time.Second)))
	if !d.Allowed {
		h.Set("Retry-After", reset)
	}
}

// Allow counts one request of key.
func (l *Limiter) Allow(key string) Decision {
	now := l.opts.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.expire(now)
	w := l.m[key]
	if w == nil {
		if len(l.m) >= l.opts.MaxKeys {
			// Full of live windows: the oldest goes. Its key starts afresh,
			// which only helps a client that spreads over more addresses than
			// the table holds, and such a client escapes per-address limits
			// anyway.
			l.remove(l.head)
		}
		w = &window{key: key, start: now}
		l.m[key] = w
		l.push(w)
	}
	w.count++
	d := Decision{Limit: l.opts.Max, Window: l.opts.Window, Reset: w.start.Add(l.opts.Window).Sub(now)}
	d.Allowed = w.count <= l.opts.Max
	d.Remaining = max(l.opts.Max-w.count, 0)
	return d
}

// expire drops the windows that have ended; they sit at the head.
func (l *Limiter) expire(now time.Time) {
	for l.head != nil && !now.Before(l.head.start.Add(l.opts.Window)) {
		l.remove(l.head)
	}
}

func (l *Limiter) push(w *window) {
	w.prev, w.next = l.tail, nil
	if l.tail != nil {
		l.tail.next = w
	} else {
		l.head = w
	}
	l.tail = w
}

func (l *Limiter) remove(w *window) {
	if w.prev != nil {
		w.prev.next = w.next
	} else {
		l.head = w.next
	}
	if w.next != nil {
		w.next.prev = w.prev
	} else {
		l.tail = w.prev
	}
	w.prev, w.next = nil, nil
	delete(l.m, w.key)
}

// Len returns the number of windows held.
func (l *Limiter) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.m)
}

// MiddlewareOptions configure Middleware.
type MiddlewareOptions struct {
	// Key names the client of a request (its IP); required.
	Key func(*http.Request) string
	// Skip exempts requests (e.g. CORS preflights); nil exempts none.
	Skip func(*http.Request) bool
	// Refuse writes the 429 body; the headers are already set.
	Refuse func(w http.ResponseWriter, r *http.Request, d Decision)
}

// Middleware counts every request that Skip does not exempt, sets the
// RateLimit-* headers on the response, and lets Refuse answer 429 when the
// window is exhausted.
func Middleware(l *Limiter, h http.Handler, o MiddlewareOptions) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o.Skip != nil && o.Skip(r) {
			h.ServeHTTP(w, r)
			return
		}
		d := l.Allow(o.Key(r))
		d.SetHeaders(w.Header())
		if !d.Allowed {
			o.Refuse(w, r, d)
			return
		}
		h.ServeHTTP(w, r)
	})
}
