package ratelimit

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func TestFixedWindow(t *testing.T) {
	c := &clock{t: time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)}
	l := New(Options{Max: 3, Window: time.Minute, Now: c.now})
	for i, want := range []int{2, 1, 0} {
		d := l.Allow("10.0.0.1")
		if !d.Allowed || d.Remaining != want || d.Limit != 3 || d.ResetSeconds() != 60 {
			t.Fatalf("request %d: %+v", i+1, d)
		}
	}
	c.t = c.t.Add(20 * time.Second)
	d := l.Allow("10.0.0.1")
	if d.Allowed || d.Remaining != 0 || d.ResetSeconds() != 40 {
		t.Fatalf("fourth request: %+v", d)
	}
	if other := l.Allow("10.0.0.2"); !other.Allowed || other.Remaining != 2 {
		t.Fatalf("another client shares the window: %+v", other)
	}
	c.t = c.t.Add(40 * time.Second)
	if d := l.Allow("10.0.0.1"); !d.Allowed || d.Remaining != 2 {
		t.Fatalf("new window: %+v", d)
	}
}

// TestBoundedTable: an attacker rotating 1,000,000 source addresses cannot
// grow the table beyond its cap, and a client inside the cap keeps its count.
func TestBoundedTable(t *testing.T) {
	c := &clock{t: time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)}
	l := New(Options{Max: 5, Window: time.Minute, MaxKeys: 10_000, Now: c.now})
	for i := range 1_000_000 {
		l.Allow(fmt.Sprintf("10.%d.%d.%d", i>>16&255, i>>8&255, i&255))
		if i%100_000 == 0 && l.Len() > 10_000 {
			t.Fatalf("table grew to %d windows after %d addresses", l.Len(), i)
		}
	}
	if n := l.Len(); n != 10_000 {
		t.Fatalf("table holds %d windows, want exactly the cap 10000", n)
	}
	// Expired windows go first: after the window, one request leaves one.
	c.t = c.t.Add(time.Minute)
	l.Allow("192.0.2.1")
	if n := l.Len(); n != 1 {
		t.Errorf("after expiry the table holds %d windows, want 1", n)
	}
}

func TestMiddlewareHeaders(t *testing.T) {
	l := New(Options{Max: 1, Window: time.Minute})
	h := Middleware(l, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	}), MiddlewareOptions{
		Key:  func(r *http.Request) string { return ClientIP(r, false) },
		Skip: func(r *http.Request) bool { return r.Method == http.MethodOptions },
		Refuse: func(w http.ResponseWriter, r *http.Request, d Decision) {
			w.WriteHeader(http.StatusTooManyRequests)
		},
	})
	do := func(method string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		r := httptest.NewRequest(method, "/", nil)
		r.RemoteAddr = "192.0.2.7:5555"
		h.ServeHTTP(rec, r)
		return rec
	}
	first := do("GET")
	if first.Code != 204 || first.Header().Get("RateLimit-Limit") != "1" || first.Header().Get("RateLimit-Remaining") != "0" ||
		first.Header().Get("RateLimit-Reset") != "60" || first.Header().Get("RateLimit-Policy") != "1;w=60" ||
		first.Header().Get("Retry-After") != "" {
		t.Fatalf("first: %d %v", first.Code, first.Header())
	}
	if pre := do("OPTIONS"); pre.Code != 204 || pre.Header().Get("RateLimit-Limit") != "" {
		t.Errorf("preflights are never limited: %d %v", pre.Code, pre.Header())
	}
	second := do("GET")
	if second.Code != 429 || second.Header().Get("Retry-After") != "60" {
		t.Fatalf("second: %d %v", second.Code, second.Header())
	}
	for k := range second.Header() {
		if len(k) > 12 && k[:12] == "X-Ratelimit-" {
			t.Errorf("legacy header %s sent", k)
		}
	}
}

func TestClientIP(t *testing.T) {
	for _, tc := range []struct {
		remote string
		xff    []string
		trust  bool
		want   string
	}{
		{"192.0.2.1:1234", nil, false, "192.0.2.1"},
		{"192.0.2.1:1234", []string{"203.0.113.9"}, false, "192.0.2.1"},
		{"192.0.2.1:1234", []string{"198.51.100.1, 203.0.113.9"}, true, "203.0.113.9"},
		{"192.0.2.1:1234", []string{"198.51.100.1", "203.0.113.9:4711"}, true, "203.0.113.9"},
		{"192.0.2.1:1234", []string{"[2001:db8::1]:443"}, true, "2001:db8::1"},
		{"192.0.2.1:1234", []string{"::ffff:203.0.113.9"}, true, "203.0.113.9"},
		{"192.0.2.1:1234", []string{"not-an-ip"}, true, "192.0.2.1"},
		{"[::ffff:192.0.2.1]:80", nil, false, "192.0.2.1"},
		{"[2001:db8::2]:80", nil, true, "2001:db8::2"},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = tc.remote
		for _, v := range tc.xff {
			r.Header.Add("X-Forwarded-For", v)
		}
		if got := ClientIP(r, tc.trust); got != tc.want {
			t.Errorf("%s %v trust=%v: %q, want %q", tc.remote, tc.xff, tc.trust, got, tc.want)
		}
	}
}

func BenchmarkAllow(b *testing.B) {
	l := New(Options{Max: 1 << 30, Window: time.Minute})
	keys := make([]string, 1024)
	for i := range keys {
		keys[i] = fmt.Sprintf("10.0.%d.%d", i>>8, i&255)
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			l.Allow(keys[i&1023])
			i++
		}
	})
}
