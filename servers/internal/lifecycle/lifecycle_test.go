package lifecycle_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/regelkit/regelkit/servers/internal/lifecycle"
	"github.com/regelkit/regelkit/servers/internal/lifecycle/lifecycletest"
)

// queue is a worker like the audit queue: the handler enqueues one row per
// request, Run writes them, Close writes what is left.
type queue struct {
	mu      sync.Mutex
	pending int
	written atomic.Int64
	closed  atomic.Bool
	wake    chan struct{}
}

func newQueue() *queue { return &queue{wake: make(chan struct{}, 1)} }

func (q *queue) add() {
	if q.closed.Load() {
		panic("row added after Close: the life cycle closed the worker before the requests drained")
	}
	q.mu.Lock()
	q.pending++
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

func (q *queue) flush() {
	q.mu.Lock()
	n := q.pending
	q.pending = 0
	q.mu.Unlock()
	q.written.Add(int64(n))
}

func (q *queue) Run(ctx context.Context) error {
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-q.wake:
			time.Sleep(2 * time.Millisecond) // batch
			q.flush()
		}
	}
}

func (q *queue) Close(ctx context.Context) error {
	q.closed.Store(true)
	q.flush()
	return nil
}

func listen(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestRunDrainsUnderLoad: a steady stream of requests across the shutdown
// sees no failure, readiness answers 503 during the delay, every accepted
// request's row is written, and Run returns nil.
func TestRunDrainsUnderLoad(t *testing.T) {
	q := newQueue()
	seen := &lifecycletest.Seen{}
	lc := lifecycle.New(lifecycle.Options{Grace: 5 * time.Second, Delay: 300 * time.Millisecond})
	lc.Add("queue", q)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /work", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(3 * time.Millisecond)
		q.add()
		_, _ = io.WriteString(w, "done")
	})
	mux.HandleFunc("GET /ready", func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, `{"status":"ready"}`) })
	ln := listen(t)
	base := "http://" + ln.Addr().String()
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- lc.Run(ctx, lifecycle.Server{Name: "test", Listener: ln, Handler: lc.Ready(seen.Wrap(mux), "/ready")})
	}()
	if code, body := get(t, base+"/ready"); code != http.StatusOK || body != `{"status":"ready"}` {
		t.Fatalf("before the signal: ready = %d %s", code, body)
	}

	loadCtx, stopLoad := context.WithCancel(context.Background())
	results := make(chan []lifecycletest.Result, 1)
	go func() {
		results <- lifecycletest.Load(loadCtx, 8, func(ctx context.Context, _ int) (*http.Request, error) {
			return http.NewRequestWithContext(ctx, http.MethodGet, base+"/work", nil)
		})
	}()
	time.Sleep(300 * time.Millisecond)
	stop()
	// Readiness false at once, while the listener still accepts.
	code, body := lifecycletest.AwaitStatus(t, base+"/ready", http.StatusServiceUnavailable, 200*time.Millisecond)
	if code != http.StatusServiceUnavailable || body != `{"status":"not ready","reason":"shutting down"}`+"\n" {
		t.Errorf("while draining: ready = %d %q, want 503 not ready", code, body)
	}
	if !lc.Draining() {
		t.Error("Draining() = false after the signal")
	}
	var err error
	select {
	case err = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return within 10s")
	}
	time.Sleep(100 * time.Millisecond) // the load keeps knocking on a closed port
	stopLoad()
	rs := <-results
	if err != nil {
		t.Fatalf("Run = %v, want nil", err)
	}
	ok, refused := lifecycletest.Check(t, rs, seen)
	if ok < 50 || refused == 0 {
		t.Errorf("%d answered, %d refused: the load did not span the shutdown", ok, refused)
	}
	if got := q.written.Load(); got != int64(ok) {
		t.Errorf("rows written = %d, want one per answered request (%d)", got, ok)
	}
}

// TestGraceExceeded: a request that outlives the grace period is cut off
// and Run says so.
func TestGraceExceeded(t *testing.T) {
	lc := lifecycle.New(lifecycle.Options{Grace: 100 * time.Millisecond})
	entered, release := make(chan struct{}), make(chan struct{})
	defer close(release)
	ln := listen(t)
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- lc.Run(ctx, lifecycle.Server{Name: "slow", Listener: ln, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			close(entered)
			<-release
		})})
	}()
	go func() { _, _ = http.Get("http://" + ln.Addr().String()) }()
	<-entered
	start := time.Now()
	stop()
	select {
	case err := <-done:
		if !errors.Is(err, lifecycle.ErrGraceExceeded) {
			t.Errorf("Run = %v, want ErrGraceExceeded", err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("Run took %v with a grace of 100ms", d)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return: the grace period is not enforced")
	}
}

type recorder struct {
	name  string
	log   *[]string
	mu    *sync.Mutex
	inRun chan struct{}
}

func (r recorder) note(s string) { r.mu.Lock(); *r.log = append(*r.log, s); r.mu.Unlock() }
func (r recorder) Run(ctx context.Context) error {
	close(r.inRun)
	<-ctx.Done()
	r.note(r.name + " run ended")
	return nil
}
func (r recorder) Close(context.Context) error { r.note(r.name + " closed"); return nil }

// TestOrder: the in-flight request finishes, then the workers close last
// added first, then their Run contexts end.
func TestOrder(t *testing.T) {
	var (
		mu  sync.Mutex
		log []string
	)
	lc := lifecycle.New(lifecycle.Options{Grace: 5 * time.Second})
	a := recorder{"a", &log, &mu, make(chan struct{})}
	b := recorder{"b", &log, &mu, make(chan struct{})}
	lc.Add("a", a)
	lc.Add("b", b)
	entered := make(chan struct{})
	ln := listen(t)
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- lc.Run(ctx, lifecycle.Server{Name: "t", Listener: ln, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			close(entered)
			time.Sleep(200 * time.Millisecond)
			a.note("request done")
		})})
	}()
	<-a.inRun
	<-b.inRun
	answered := make(chan int, 1)
	go func() {
		resp, err := http.Get("http://" + ln.Addr().String())
		if err != nil {
			answered <- 0
			return
		}
		resp.Body.Close()
		answered <- resp.StatusCode
	}()
	<-entered
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if code := <-answered; code != http.StatusOK {
		t.Errorf("the in-flight request got %d, want 200", code)
	}
	mu.Lock()
	defer mu.Unlock()
	got := strings.Join(log[:3], ", ")
	if want := "request done, b closed, a closed"; got != want {
		t.Errorf("order = %s, want %s then both runs ended", got, want)
	}
	if len(log) != 5 {
		t.Errorf("log = %v, want both runs ended after the closes", log)
	}
}

// TestListenFailure: a port in use stops Run with the server's name, and
// the workers still close.
func TestListenFailure(t *testing.T) {
	ln := listen(t)
	defer ln.Close()
	q := newQueue()
	lc := lifecycle.New(lifecycle.Options{})
	lc.Add("queue", q)
	err := lc.Run(context.Background(), lifecycle.Server{Name: "busy", Addr: ln.Addr().String(), Handler: http.NotFoundHandler()})
	if err == nil || !strings.HasPrefix(err.Error(), "busy: ") {
		t.Errorf("Run = %v, want the listen error named busy", err)
	}
	if !q.closed.Load() {
		t.Error("the worker was not closed")
	}
}

// childEnv makes the test binary, run as a child, serve until SIGTERM.
const childEnv = "LIFECYCLE_TEST_CHILD"

// TestSIGTERMChildProcess sends a real SIGTERM to a child process serving
// under load: no request fails, and the child exits 0.
func TestSIGTERMChildProcess(t *testing.T) {
	if os.Getenv(childEnv) == "1" {
		child()
		return
	}
	if testing.Short() {
		t.Skip("starts a child process")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestSIGTERMChildProcess$")
	cmd.Env = append(os.Environ(), childEnv+"=1")
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill() }()
	sc := bufio.NewScanner(out)
	var base string
	for sc.Scan() {
		if addr, ok := strings.CutPrefix(sc.Text(), "listening "); ok {
			base = "http://" + addr
			break
		}
	}
	if base == "" {
		t.Fatal("the child did not report its address")
	}
	seen := &lifecycletest.Seen{}
	reported := make(chan struct{})
	go func() {
		defer close(reported)
		for sc.Scan() {
			if n, err := strconv.Atoi(strings.TrimPrefix(sc.Text(), "seen ")); err == nil {
				seen.Add(n)
			}
		}
	}()
	loadCtx, stopLoad := context.WithCancel(context.Background())
	results := make(chan []lifecycletest.Result, 1)
	go func() {
		results <- lifecycletest.Load(loadCtx, 8, func(ctx context.Context, _ int) (*http.Request, error) {
			return http.NewRequestWithContext(ctx, http.MethodGet, base+"/work", nil)
		})
	}()
	time.Sleep(300 * time.Millisecond)
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	// The signal reaches the child's goroutines a moment later: readiness
	// must turn 503 well within the delay, while the port still accepts.
	code, body := lifecycletest.AwaitStatus(t, base+"/ready", http.StatusServiceUnavailable, 200*time.Millisecond)
	if code != http.StatusServiceUnavailable {
		t.Errorf("while draining: ready = %d %s, want 503", code, body)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("the child exited with %v, want 0", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the child did not exit within 15s of SIGTERM")
	}
	time.Sleep(100 * time.Millisecond)
	stopLoad()
	rs := <-results
	<-reported
	ok, refused := lifecycletest.Check(t, rs, seen)
	if ok < 50 || refused == 0 {
		t.Errorf("%d answered, %d refused: the load did not span the shutdown", ok, refused)
	}
}

func child() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	lc := lifecycle.New(lifecycle.Options{Grace: 5 * time.Second, Delay: 300 * time.Millisecond})
	mux := http.NewServeMux()
	var mu sync.Mutex // one line at a time on stdout
	mux.HandleFunc("GET /work", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		fmt.Println("seen " + r.Header.Get(lifecycletest.SeqHeader))
		mu.Unlock()
		time.Sleep(3 * time.Millisecond)
		_, _ = io.WriteString(w, "done")
	})
	mux.HandleFunc("GET /ready", func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "ready") })
	err := lc.Run(ctx, lifecycle.Server{Name: "child", Addr: "127.0.0.1:0", Handler: lc.Ready(mux, "/ready"),
		Ready: func(addr net.Addr) { fmt.Println("listening " + addr.String()) }})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// TestReadyRoute: a server without a health route gets one: 200 ready,
// then 503 once draining; other paths pass through.
func TestReadyRoute(t *testing.T) {
	lc := lifecycle.New(lifecycle.Options{Delay: 300 * time.Millisecond})
	ln := listen(t)
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- lc.Run(ctx, lifecycle.Server{Name: "t", Listener: ln, Handler: lc.ReadyRoute(http.NotFoundHandler(), "/api/ready")})
	}()
	base := "http://" + ln.Addr().String()
	if code, body := get(t, base+"/api/ready"); code != http.StatusOK || body != `{"status":"ready"}`+"\n" {
		t.Errorf("before draining: %d %q", code, body)
	}
	if code, _ := get(t, base+"/other"); code != http.StatusNotFound {
		t.Errorf("another path: %d, want the handler's 404", code)
	}
	stop()
	code, body := lifecycletest.AwaitStatus(t, base+"/api/ready", http.StatusServiceUnavailable, 200*time.Millisecond)
	if code != http.StatusServiceUnavailable || body != `{"status":"not ready","reason":"shutting down"}`+"\n" {
		t.Errorf("while draining: %d %q", code, body)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
