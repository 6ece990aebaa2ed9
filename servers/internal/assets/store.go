package assets

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Errors of the store. Match them with errors.Is / errors.As.
var (
	// ErrUnavailable: the database cannot be reached (down, restarting,
	// out of connections, too slow). The next call tries again.
	ErrUnavailable = errors.New("asset database unavailable")
	// ErrReadOnly: the row is read-only; it was neither changed nor deleted.
	ErrReadOnly = errors.New("asset is read-only")
	// ErrNotFound: no row matched a look-up.
	ErrNotFound = errors.New("asset not found")
)

// ProcessIDTakenError: another stored process (of the same organisation)
// already has the BPMN process id.
type ProcessIDTakenError struct {
	BPMNProcessID string
	Organization  *string
	Existing      ProcessRef
}

// ProcessRef names the process that holds a BPMN process id.
type ProcessRef struct {
	ID, Name, Status string
}

func (e *ProcessIDTakenError) Error() string {
	org := "no organisation"
	if e.Organization != nil {
		org = "organisation " + *e.Organization
	}
	return fmt.Sprintf("bpmnProcessId %s is already used by process %s (%s) of %s",
		e.BPMNProcessID, e.Existing.ID, e.Existing.Name, org)
}

// InvalidValueError: the database refused a value (a NUL character in a
// string, for one).
type InvalidValueError struct{ Err error }

func (e *InvalidValueError) Error() string { return "invalid value: " + e.Err.Error() }
func (e *InvalidValueError) Unwrap() error { return e.Err }

// Options configure a Store.
type Options struct {
	// Logger receives start-up and migration events; nil discards them.
	Logger *slog.Logger
	// Timeout bounds every store call, waiting for a connection included;
	// 5 s when zero.
	Timeout time.Duration
	// Tracer, when set, traces Open's pool's queries (a server's metrics).
	Tracer pgx.QueryTracer
	// Reader marks a store that only reads another server's tables (the
	// business server's assistant over the explorer's database): it never
	// migrates, so a role with SELECT rights only suffices.
	Reader bool
}

// Store keeps the assets in PostgreSQL. It is safe for concurrent use and
// outlives database outages: a call during one fails with ErrUnavailable,
// and the first call after it succeeds (migrations included, when the
// database was down at start-up).
type Store struct {
	pool    *pgxpool.Pool
	owned   bool // Close closes the pool
	log     *slog.Logger
	timeout time.Duration

	migrateMu sync.Mutex
	migrated  atomic.Bool
}

// Open connects to databaseURL and applies the migrations. A database that
// cannot be reached is not an error: it is logged, and the migrations run on
// the first call that reaches it. Only an unusable URL or a failing
// migration fails Open.
func Open(ctx context.Context, databaseURL string, opts Options) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(databaseURL)
	if err != nil {
		return nil, fmt.Errorf("assets: database URL: %w", err)
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = 5 * time.Second
	}
	if opts.Tracer != nil {
		cfg.ConnConfig.Tracer = opts.Tracer
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("assets: %w", err)
	}
	s := New(pool, opts)
	s.owned = true
	if err := s.Migrate(ctx); err != nil {
		if !errors.Is(err, ErrUnavailable) {
			pool.Close()
			return nil, err
		}
		s.log.WarnContext(ctx, "asset database unavailable at start-up; migrations run once it is reachable",
			"error", err.Error())
	}
	return s, nil
}

// New returns a store on an existing pool, which the caller closes. The
// migrations run on the first call (or call Migrate).
func New(pool *pgxpool.Pool, opts Options) *Store {
	s := &Store{pool: pool, log: opts.Logger, timeout: opts.Timeout}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.timeout <= 0 {
		s.timeout = 5 * time.Second
	}
	if opts.Reader {
		s.migrated.Store(true) // the owning server migrates
	}
	return s
}

// Close closes the pool if Open created it.
func (s *Store) Close() {
	if s.owned {
		s.pool.Close()
	}
}

// Ping checks that the database answers; for health probes.
func (s *Store) Ping(ctx context.Context) error {
	return s.run(ctx, func(ctx context.Context) error { return s.pool.Ping(ctx) })
}

// Migrate applies the pending migrations (idempotent).
func (s *Store) Migrate(ctx context.Context) error {
	s.migrateMu.Lock()
	defer s.migrateMu.Unlock()
	if s.migrated.Load() {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 4*s.timeout)
	defer cancel()
	n, err := migrate(ctx, s.pool)
	if err != nil {
		if isUnavailable(ctx, err) {
			return fmt.Errorf("%w: migrations: %v", ErrUnavailable, err)
		}
		return fmt.Errorf("assets: %w", err)
	}
	s.migrated.Store(true)
	s.log.InfoContext(ctx, "asset database ready", "migrations_applied", n)
	return nil
}

// run makes one logical call: it applies missing migrations first, bounds
// the call by the store's timeout and, when the connection broke (a database
// restart leaves dead connections in the pool), resets the pool and runs fn
// once more. Every call of the store is idempotent, so running it again is
// safe.
func (s *Store) run(ctx context.Context, fn func(context.Context) error) error {
	if !s.migrated.Load() {
		if err := s.Migrate(ctx); err != nil {
			return err
		}
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	err := fn(ctx)
	if err != nil && isUnavailable(ctx, err) && ctx.Err() == nil {
		s.pool.Reset()
		err = fn(ctx)
	}
	if err == nil {
		return nil
	}
	if isUnavailable(ctx, err) {
		return fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && strings.HasPrefix(pgErr.Code, "22") { // data exception
		return &InvalidValueError{Err: errors.New(pgErr.Message)}
	}
	return err
}

// isUnavailable tells a database that cannot be reached or used right now
// from a failing statement.
func isUnavailable(ctx context.Context, err error) bool {
	if err == nil {
		return false
	}
	if ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) || pgconn.Timeout(err) {
		return true
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch {
		case strings.HasPrefix(pgErr.Code, "08"), // connection exception
			pgErr.Code == "57P01", pgErr.Code == "57P02", pgErr.Code == "57P03", // shutdown, crash, cannot connect now
			pgErr.Code == "53300": // too many connections
			return true
		}
		return false
	}
	var connectErr *pgconn.ConnectError
	var netErr net.Error
	return errors.As(err, &connectErr) || errors.As(err, &netErr) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) ||
		strings.Contains(err.Error(), "conn closed") || strings.Contains(err.Error(), "closed pool")
}
