package memstore

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/regelkit/regelkit/sparql/graph"
)

// answeredLog records whether the handler logged that a SELECT was
// answered: it does so once evaluation has produced its last row.
type answeredLog struct {
	mu   sync.Mutex
	rows string
}

func (l *answeredLog) Enabled(context.Context, slog.Level) bool { return true }
func (l *answeredLog) Handle(_ context.Context, r slog.Record) error {
	if r.Message == "sparql select answered" {
		r.Attrs(func(a slog.Attr) bool {
			if a.Key == "rows" {
				l.mu.Lock()
				l.rows = a.Value.String()
				l.mu.Unlock()
			}
			return true
		})
	}
	return nil
}
func (l *answeredLog) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *answeredLog) WithGroup(string) slog.Handler      { return l }
func (l *answeredLog) answered() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.rows
}

func heapAfterGC() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// A 150,000-row SELECT is streamed: a slow reader gets the first row while
// the evaluation has not produced the last (the handler logs "answered"
// only after the last row), and the heap while serving stays under twice
// the store's own size. Materialising the result first (the handler before
// streaming) fails both: no byte leaves before every row is computed, and
// the 150,000 solutions alone outweigh the store.
func TestSelectStreamsToSlowReader(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 150,000-triple store")
	}
	const n = 150_000
	before := heapAfterGC()
	s := New()
	quads := make([]graph.Quad, 0, n)
	for i := range n {
		quads = append(quads, graph.Quad{
			S: graph.IRI("http://example.org/regel/" + strconv.Itoa(i)),
			P: graph.IRI("http://example.org/label"),
			O: graph.String("regel nummer " + strconv.Itoa(i)),
		})
	}
	s.Add(quads...)
	quads = nil
	storeSize := heapAfterGC() - before

	logs := &answeredLog{}
	srv := httptest.NewServer(s.Handler(HandlerOptions{Logger: slog.New(logs)}))
	defer srv.Close()
	q := `SELECT ?s ?label WHERE { ?s <http://example.org/label> ?label }`

	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > peak.Load() {
				peak.Store(m.HeapAlloc)
			}
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()

	resp, err := srv.Client().Get(srv.URL + "?query=" + url.QueryEscape(q))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	br := bufio.NewReaderSize(resp.Body, 256)
	head, err := br.ReadString('}') // through the head
	if err != nil || !strings.HasPrefix(head, `{"head":{"vars":["s","label"]`) {
		t.Fatalf("head %q, %v", head, err)
	}
	first, err := br.ReadString('[') // `,"results":{"bindings":[`
	if err == nil {
		first, err = br.ReadString('}') // the first row's ?s
	}
	if err != nil || !strings.Contains(first, `"type":"uri","value":"http://example.org/regel/`) {
		t.Fatalf("first row %q, %v", first, err)
	}
	if rows := logs.answered(); rows != "" {
		t.Fatalf("the evaluation had produced all %s rows when the first arrived: the result was not streamed", rows)
	}
	time.Sleep(200 * time.Millisecond) // the reader is slow: the evaluation waits for it
	if rows := logs.answered(); rows != "" {
		t.Fatalf("the evaluation finished (%s rows) while the reader read nothing: rows are buffered without bound", rows)
	}
	// Count rows without holding the 17 MB body, whose copy would weigh on
	// the heap measured.
	cnt := &rowCounter{}
	_, err = io.Copy(cnt, br)
	close(stop)
	<-sampled
	if err != nil {
		t.Fatal(err)
	}
	if cnt.rows != n {
		t.Errorf("%d rows, want %d", cnt.rows, n)
	}
	if !bytes.HasSuffix(cnt.tail, []byte("]}}")) {
		t.Errorf("the document does not end with ]}}: %q", cnt.tail)
	}
	if rows := logs.answered(); rows != strconv.Itoa(n) {
		t.Errorf("answered log says %q rows, want %d", rows, n)
	}
	extra := int64(peak.Load()) - int64(before)
	t.Logf("store %.1f MB; peak heap while serving %.1f MB above the heap before the store (%.2f× the store)",
		float64(storeSize)/(1<<20), float64(extra)/(1<<20), float64(extra)/float64(storeSize))
	if extra >= 2*int64(storeSize) {
		t.Errorf("peak heap while serving is %.1f MB, over twice the store's %.1f MB", float64(extra)/(1<<20), float64(storeSize)/(1<<20))
	}
}

// rowCounter counts the `"label":` keys of a JSON result passing through,
// keeping only the last bytes.
type rowCounter struct {
	tail []byte
	rows int
}

func (c *rowCounter) Write(b []byte) (int, error) {
	key := []byte(`"label":`)
	buf := append(c.tail, b...)
	c.rows += bytes.Count(buf, key)
	// keep fewer bytes than the key, so no key is counted twice
	c.tail = append([]byte(nil), buf[max(0, len(buf)-len(key)+1):]...)
	return len(b), nil
}

// Limits keep applying to a streamed SELECT: one hit before any byte left
// is an ordinary 400 naming the limit; one hit after the response started
// cuts the connection, so the client cannot take the truncated result for
// a complete one.
func TestStreamedSelectLimits(t *testing.T) {
	quads := make([]graph.Quad, 0, 5000)
	for i := range 5000 {
		quads = append(quads, graph.Quad{S: graph.IRI("http://example.org/regel/" + strconv.Itoa(i)), P: graph.IRI("http://example.org/label"), O: graph.String("regel nummer " + strconv.Itoa(i))})
	}
	q := url.QueryEscape(`SELECT ?s ?label WHERE { ?s <http://example.org/label> ?label }`)
	for _, tc := range []struct {
		maxRows   int
		wantFound bool // a status and message naming the limit
	}{{100, true}, {4000, false}} {
		s := NewWithOptions(Options{Limits: Limits{MaxRows: tc.maxRows}})
		s.Add(quads...)
		srv := httptest.NewServer(s.Handler(HandlerOptions{}))
		resp, err := srv.Client().Get(srv.URL + "?query=" + q)
		if err != nil {
			t.Fatal(err)
		}
		body, readErr := io.ReadAll(resp.Body)
		resp.Body.Close()
		srv.Close()
		if tc.wantFound {
			if resp.StatusCode != 400 || !strings.Contains(string(body), "MaxRows (100 solutions)") {
				t.Errorf("MaxRows %d: %d %q, want 400 naming MaxRows (100 solutions)", tc.maxRows, resp.StatusCode, body)
			}
			continue
		}
		if readErr == nil {
			t.Errorf("MaxRows %d: read %d bytes without error (ends %q); want the connection cut", tc.maxRows, len(body), body[max(0, len(body)-20):])
		}
	}
}

// BenchmarkHandlerSelect150k serves the 150,000-row SELECT of
// TestSelectStreamsToSlowReader over HTTP as JSON.
func BenchmarkHandlerSelect150k(b *testing.B) {
	s := New()
	quads := make([]graph.Quad, 0, 150_000)
	for i := range 150_000 {
		quads = append(quads, graph.Quad{S: graph.IRI("http://example.org/regel/" + strconv.Itoa(i)), P: graph.IRI("http://example.org/label"), O: graph.String("regel nummer " + strconv.Itoa(i))})
	}
	s.Add(quads...)
	srv := httptest.NewServer(s.Handler(HandlerOptions{}))
	defer srv.Close()
	u := srv.URL + "?query=" + url.QueryEscape(`SELECT ?s ?label WHERE { ?s <http://example.org/label> ?label }`)
	b.ReportAllocs()
	for b.Loop() {
		resp, err := srv.Client().Get(u)
		if err != nil {
			b.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || n < 17_000_000 {
			b.Fatalf("status %d, %d bytes", resp.StatusCode, n)
		}
	}
}
