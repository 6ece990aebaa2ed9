// Package lifecycletest drives a server with a steady stream of requests
// across its shutdown and checks that none failed: every request the server
// accepted (its handler saw it) was answered 2xx, and every other request
// failed before the server accepted it (connection refused or reset
// without an answer), which a client may retry.
package lifecycletest

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// SeqHeader numbers the requests of a Load.
const SeqHeader = "X-Load-Seq"

// Result is one request's outcome.
type Result struct {
	Seq    int
	Status int   // 0 when Err is set
	Err    error // a transport error: no answer came
}

// Seen wraps a handler and records the sequence numbers of the requests
// that reached it, i.e. that the server accepted.
type Seen struct {
	mu  sync.Mutex
	seq map[int]bool
}

// Wrap returns h recording into s.
func (s *Seen) Wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n, err := strconv.Atoi(r.Header.Get(SeqHeader)); err == nil {
			s.Add(n)
		}
		h.ServeHTTP(w, r)
	})
}

// Add records that the request numbered n reached the server (a child
// process reports what it saw).
func (s *Seen) Add(n int) {
	s.mu.Lock()
	if s.seq == nil {
		s.seq = map[int]bool{}
	}
	s.seq[n] = true
	s.mu.Unlock()
}

// Has reports whether the request numbered n reached the handler.
func (s *Seen) Has(n int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seq[n]
}

// Load sends requests made by newReq from workers goroutines, each one
// after the other, until ctx ends, and returns every outcome. Request n
// carries SeqHeader n (newReq may also put n where the server records it,
// e.g. a request id); the client has its own transport, which Load closes.
func Load(ctx context.Context, workers int, newReq func(ctx context.Context, n int) (*http.Request, error)) []Result {
	tr := &http.Transport{MaxIdleConnsPerHost: workers}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	var (
		seq  atomic.Int64
		mu   sync.Mutex
		out  []Result
		wg   sync.WaitGroup
		reqs = context.WithoutCancel(ctx) // a request in flight is not cut off by the end of the load
	)
	for range workers {
		wg.Go(func() {
			for ctx.Err() == nil {
				n := int(seq.Add(1))
				req, err := newReq(reqs, n)
				if err != nil {
					panic(err)
				}
				req.Header.Set(SeqHeader, strconv.Itoa(n))
				res := Result{Seq: n}
				resp, err := client.Do(req)
				if err != nil {
					res.Err = err
					// A refused connection comes back at once: do not spin.
					time.Sleep(time.Millisecond)
				} else {
					res.Status = resp.StatusCode
					_, _ = drain(resp)
				}
				mu.Lock()
				out = append(out, res)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return out
}

// Check fails t for every request that the server accepted and did not
// answer 2xx, and for a transport error on a request the server accepted;
// it returns the number answered 2xx and the number refused.
func Check(t testing.TB, results []Result, seen *Seen) (ok, refused int) {
	t.Helper()
	failed := 0
	for _, r := range results {
		switch {
		case r.Err == nil && r.Status >= 200 && r.Status < 300:
			ok++
		case r.Err != nil && !seen.Has(r.Seq):
			refused++
		default:
			if failed++; failed <= 5 {
				t.Errorf("request %d failed after the server accepted it: status %d, err %v", r.Seq, r.Status, r.Err)
			}
		}
	}
	if failed > 5 {
		t.Errorf("... %d failed requests in all", failed)
	}
	return ok, refused
}

func drain(resp *http.Response) (int64, error) {
	defer resp.Body.Close()
	return io.Copy(io.Discard, resp.Body)
}

// AwaitStatus asks url until it answers want or within has passed, and
// returns the last answer: a signal reaches the server's goroutines a
// moment after it is sent, so readiness is asked until it turns.
func AwaitStatus(t testing.TB, url string, want int, within time.Duration) (int, string) {
	t.Helper()
	var (
		code int
		body []byte
	)
	for deadline := time.Now().Add(within); ; time.Sleep(5 * time.Millisecond) {
		resp, err := http.Get(url)
		if err != nil {
			t.Fatalf("GET %s: %v", url, err)
		}
		body, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
		if code = resp.StatusCode; code == want || time.Now().After(deadline) {
			return code, string(body)
		}
	}
}
