package lifecycle

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Default bounds, used when an Options field is zero.
const (
	DefaultGrace = 20 * time.Second
	// DefaultReadHeaderTimeout and the other timeouts are those of the
	// servers' former httpapi.Serve.
	DefaultReadHeaderTimeout = 10 * time.Second
	DefaultReadTimeout       = 60 * time.Second
	DefaultWriteTimeout      = 120 * time.Second
	DefaultIdleTimeout       = 120 * time.Second
)

// ErrGraceExceeded is returned by Run when requests or workers were still
// busy when the grace period ended; they were cut off.
var ErrGraceExceeded = errors.New("lifecycle: shutdown grace period exceeded")

// Options configure a Lifecycle.
type Options struct {
	// Grace bounds the wait for in-flight requests after the listeners
	// close, and again the wait for the workers to close
	// (SHUTDOWN_GRACE). Zero: DefaultGrace.
	Grace time.Duration
	// Delay keeps the listeners open, with readiness false, this long
	// after the signal, so a load balancer stops sending before
	// connections are refused (SHUTDOWN_DELAY). Zero: none.
	Delay  time.Duration
	Logger *slog.Logger // nil discards
}

// A Worker is background work that outlives single requests: the audit
// queue, a cache refresher, an external-task worker. Run works until its
// ctx is cancelled; Close stops it after the listeners have drained,
// finishing queued work within ctx. Run's ctx is cancelled after Close.
type Worker interface {
	Run(ctx context.Context) error
	Close(ctx context.Context) error
}

// CloseFunc is a Worker whose work runs elsewhere (e.g. a queue started by
// its constructor): Run waits for the end, close stops it.
func CloseFunc(close func(ctx context.Context) error) Worker { return closeFunc(close) }

type closeFunc func(ctx context.Context) error

func (closeFunc) Run(ctx context.Context) error     { <-ctx.Done(); return nil }
func (f closeFunc) Close(ctx context.Context) error { return f(ctx) }

// Server is one listener of a Run.
type Server struct {
	Name    string // for logs
	Addr    string // host:port; ignored when Listener is set
	Handler http.Handler
	// Listener, when set, is served instead of listening on Addr (tests
	// pass a listener on a free port).
	Listener net.Listener
	// Ready, when set, is called with the bound address once listening.
	Ready func(addr net.Addr)
}

// Lifecycle is one process's life cycle. Its methods are safe for
// concurrent use; Run is called once.
type Lifecycle struct {
	opts     Options
	draining atomic.Bool
	mu       sync.Mutex
	workers  []named
}

type named struct {
	name string
	w    Worker
}

// New returns a Lifecycle.
func New(o Options) *Lifecycle {
	if o.Grace <= 0 {
		o.Grace = DefaultGrace
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return &Lifecycle{opts: o}
}

// Add registers a worker; Run starts it before the listeners open and
// closes it after they drained, in reverse order of Add.
func (l *Lifecycle) Add(name string, w Worker) {
	l.mu.Lock()
	l.workers = append(l.workers, named{name, w})
	l.mu.Unlock()
}

// Draining reports whether the shutdown has begun.
func (l *Lifecycle) Draining() bool { return l.draining.Load() }

// notReady is the readiness body while draining, in the shape of the
// business API's readiness answer.
const notReady = `{"status":"not ready","reason":"shutting down"}` + "\n"

// Ready wraps h so that GET and HEAD of the readiness paths answer 503
// {status: "not ready", reason: "shutting down"} once draining has begun;
// before that, and for every other path, h answers.
func (l *Lifecycle) Ready(h http.Handler, paths ...string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if l.draining.Load() && (r.Method == http.MethodGet || r.Method == http.MethodHead) && slices.Contains(paths, r.URL.Path) {
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			w.Header().Set("Cache-Control", "no-store")
			w.Header().Set("Connection", "close")
			w.WriteHeader(http.StatusServiceUnavailable)
			if r.Method == http.MethodGet {
				_, _ = w.Write([]byte(notReady))
			}
			return
		}
		h.ServeHTTP(w, r)
	})
}

// ready is the readiness body before draining.
const ready = `{"status":"ready"}` + "\n"

// ReadyRoute serves GET and HEAD of path itself, for a server with no
// health route of its own: 200 {status: "ready"} until draining has begun,
// then 503 as Ready answers. Every other request goes to h.
func (l *Lifecycle) ReadyRoute(h http.Handler, path string) http.Handler {
	drain := l.Ready(h, path)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if l.draining.Load() || r.URL.Path != path || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
			drain.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusOK)
		if r.Method == http.MethodGet {
			_, _ = w.Write([]byte(ready))
		}
	})
}

// Run starts the workers, serves every server until ctx is cancelled (main
// cancels it on SIGTERM or SIGINT) or one of them fails, then shuts down:
// readiness false, Delay, listeners closed, in-flight requests given Grace,
// workers closed in reverse order within Grace. It returns nil after a
// clean shutdown, ErrGraceExceeded when something had to be cut off, or
// the error that stopped a server.
func (l *Lifecycle) Run(ctx context.Context, servers ...Server) error {
	log := l.opts.Logger
	runCtx, stopWorkers := context.WithCancel(context.WithoutCancel(ctx))
	defer stopWorkers()
	l.mu.Lock()
	workers := slices.Clone(l.workers)
	l.mu.Unlock()
	var running sync.WaitGroup
	for _, w := range workers {
		running.Go(func() {
			if err := w.w.Run(runCtx); err != nil && !errors.Is(err, context.Canceled) {
				log.Error("worker stopped", "worker", w.name, "err", err)
			}
		})
	}

	srvs := make([]*http.Server, 0, len(servers))
	errc := make(chan error, len(servers))
	var failed error
	for _, s := range servers {
		ln := s.Listener
		if ln == nil {
			var err error
			if ln, err = net.Listen("tcp", s.Addr); err != nil {
				failed = fmt.Errorf("%s: %w", s.Name, err)
				break
			}
		}
		srv := &http.Server{
			Handler:           s.Handler,
			ReadHeaderTimeout: DefaultReadHeaderTimeout,
			ReadTimeout:       DefaultReadTimeout,
			WriteTimeout:      DefaultWriteTimeout,
			IdleTimeout:       DefaultIdleTimeout,
			ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
			// Requests keep their context through the drain: a signal does
			// not cancel the work that is still allowed to finish.
			BaseContext: func(net.Listener) context.Context { return runCtx },
		}
		srvs = append(srvs, srv)
		if s.Ready != nil {
			s.Ready(ln.Addr())
		}
		go func() {
			if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
				errc <- fmt.Errorf("%s: %w", s.Name, err)
			}
		}()
	}
	if failed == nil {
		select {
		case <-ctx.Done():
		case failed = <-errc:
		}
	}

	l.draining.Store(true)
	log.Info("shutting down", "delay", l.opts.Delay.String(), "grace", l.opts.Grace.String())
	if failed == nil && l.opts.Delay > 0 {
		t := time.NewTimer(l.opts.Delay)
		select {
		case <-t.C:
		case failed = <-errc:
			t.Stop()
		}
	}
	err := l.drain(srvs)
	if failed != nil {
		err = failed
	}
	if werr := l.closeWorkers(workers); err == nil {
		err = werr
	}
	stopWorkers()
	running.Wait()
	if err == nil {
		log.Info("stopped")
	}
	return err
}

// drain closes the listeners and waits up to Grace for in-flight
// requests, then cuts off what is left.
func (l *Lifecycle) drain(srvs []*http.Server) error {
	ctx, cancel := context.WithTimeout(context.Background(), l.opts.Grace)
	defer cancel()
	var wg sync.WaitGroup
	var late atomic.Bool
	for _, srv := range srvs {
		wg.Go(func() {
			if err := srv.Shutdown(ctx); err != nil {
				late.Store(true)
				_ = srv.Close()
			}
		})
	}
	wg.Wait()
	if late.Load() {
		l.opts.Logger.Warn("requests still in flight at the end of the grace period were cut off", "grace", l.opts.Grace.String())
		return ErrGraceExceeded
	}
	return nil
}

// closeWorkers closes the workers last-added first, all within one Grace.
func (l *Lifecycle) closeWorkers(workers []named) error {
	ctx, cancel := context.WithTimeout(context.Background(), l.opts.Grace)
	defer cancel()
	var err error
	for i := len(workers) - 1; i >= 0; i-- {
		w := workers[i]
		if cerr := w.w.Close(ctx); cerr != nil {
			l.opts.Logger.Warn("worker did not close cleanly", "worker", w.name, "err", cerr)
			switch {
			case err != nil:
			case errors.Is(cerr, context.DeadlineExceeded):
				err = ErrGraceExceeded
			default:
				err = fmt.Errorf("lifecycle: closing %s: %w", w.name, cerr)
			}
		}
	}
	return err
}
