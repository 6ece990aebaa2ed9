package audit

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Defaults of Options.
const (
	DefaultQueueSize     = 1000
	DefaultBatchSize     = 100
	DefaultFlushInterval = 50 * time.Millisecond
	DefaultMaxAttempts   = 10
	DefaultTimeout       = 5 * time.Second
	DefaultWarnInterval  = time.Minute
)

// Results of an entry (spec §6: success or error).
const (
	ResultSuccess = "success"
	ResultError   = "error"
)

// Options configure a Log.
type Options struct {
	// Pool is the audit database. Nil writes entries to Logger instead
	// (without details), for development without PostgreSQL.
	Pool *pgxpool.Pool
	// QueueSize bounds the entries waiting to be written; a full queue
	// drops new entries (counted in Stats.Dropped). DefaultQueueSize when
	// zero.
	QueueSize int
	// BatchSize bounds the rows of one INSERT; DefaultBatchSize when zero.
	BatchSize int
	// FlushInterval is how long the writer waits to fill a batch once an
	// entry arrived; it is also the first retry delay.
	// DefaultFlushInterval when zero.
	FlushInterval time.Duration
	// MaxAttempts bounds the tries of one batch while the database is
	// unreachable (the delay doubles up to 5 s between tries); after them
	// the batch counts in Stats.Failed. DefaultMaxAttempts when zero.
	MaxAttempts int
	// Timeout bounds one statement; DefaultTimeout when zero.
	Timeout time.Duration
	// WarnInterval is the least time between two warnings of the same kind
	// (drops, database failures); DefaultWarnInterval when zero.
	WarnInterval time.Duration
	// Logger receives warnings (never an entry's details) and, without a
	// Pool, the entries themselves; nil discards.
	Logger *slog.Logger
}

// Entry is one audit record to write. Empty optional strings are stored as
// NULL. Record fills Timestamp when it is zero.
type Entry struct {
	Timestamp time.Time
	// TenantID is the caller's municipality; empty falls back to ClientID
	// and then "unknown" when the row is written. The fallback
	// happens here, never in the principal.
	TenantID string
	// UserID is the token's sub; empty falls back to ClientID, then
	// "unknown".
	UserID string
	// ClientID is the token's azp.
	ClientID string
	// Action names what happened: "POST /v1/process/x/start",
	// "brp.personen.fetch", "task.claim", …; cut to 100 characters.
	Action       string
	ResourceType string
	ResourceID   string // never a citizen number
	// Details is stored as JSONB; nil stores NULL. It may hold a citizen
	// number (brp.personen.fetch does, on purpose), so it is never logged.
	Details map[string]any
	// IPAddress is the client IP; a port, brackets or an IPv4-mapped IPv6
	// form are normalised away, anything unparsable stores NULL.
	IPAddress    string
	UserAgent    string
	Result       string // ResultSuccess or ResultError
	ErrorMessage string
	RequestID    string
}

// Stats counts the entries of a Log since Open.
type Stats struct {
	Queued  int64 `json:"queued"`  // waiting to be written now
	Written int64 `json:"written"` // stored (or, without a Pool, logged)
	Dropped int64 `json:"dropped"` // refused because the queue was full or the Log closed
	Failed  int64 `json:"failed"`  // given up after the database refused or stayed away
}

// Log writes audit entries asynchronously. Record never blocks and never
// fails; the database may be down at start-up or go away and come back, and
// rows resume without a restart.
type Log struct {
	pool          *pgxpool.Pool
	log           *slog.Logger
	queue         chan Entry
	batchSize     int
	flushInterval time.Duration
	maxAttempts   int
	timeout       time.Duration
	warnInterval  time.Duration

	written, dropped, failed, pending atomic.Int64

	closed    atomic.Bool
	stop      chan struct{}
	done      chan struct{}
	closeOnce sync.Once
	closeCtx  context.Context // set before stop is closed

	migrateMu sync.Mutex
	migrated  atomic.Bool

	// Warning state, touched by the writer goroutine only.
	lastDropWarn   time.Time
	warnedDropped  int64
	lastFailWarn   time.Time
	failuresSilent int
}

// Open starts a Log. With a Pool it tries the migrations once, bounded by
// ctx and Timeout; a database that cannot be reached is logged and the
// migrations run on the first successful contact. Open never fails.
func Open(ctx context.Context, opts Options) *Log {
	l := &Log{
		pool:          opts.Pool,
		log:           opts.Logger,
		batchSize:     opts.BatchSize,
		flushInterval: opts.FlushInterval,
		maxAttempts:   opts.MaxAttempts,
		timeout:       opts.Timeout,
		warnInterval:  opts.WarnInterval,
		stop:          make(chan struct{}),
		done:          make(chan struct{}),
	}
	if l.log == nil {
		l.log = slog.New(slog.DiscardHandler)
	}
	size := opts.QueueSize
	if size <= 0 {
		size = DefaultQueueSize
	}
	l.queue = make(chan Entry, size)
	if l.batchSize <= 0 {
		l.batchSize = DefaultBatchSize
	}
	if l.flushInterval <= 0 {
		l.flushInterval = DefaultFlushInterval
	}
	if l.maxAttempts <= 0 {
		l.maxAttempts = DefaultMaxAttempts
	}
	if l.timeout <= 0 {
		l.timeout = DefaultTimeout
	}
	if l.warnInterval <= 0 {
		l.warnInterval = DefaultWarnInterval
	}
	if l.pool != nil {
		if err := l.migrate(ctx); err != nil {
			l.log.WarnContext(ctx, "audit database unavailable at start-up; entries are queued and the table is created once it is reachable",
				failureAttrs(err)...)
		}
	} else {
		l.log.InfoContext(ctx, "audit log without a database: entries go to the application log without their details")
	}
	go l.run()
	return l
}

// Record queues an entry and returns at once. When the queue is full (the
// database is slow or away) the entry is dropped and counted; the writer
// warns about drops at most once per WarnInterval.
func (l *Log) Record(e Entry) {
	if l.closed.Load() {
		l.dropped.Add(1)
		return
	}
	if e.Timestamp.IsZero() {
		e.Timestamp = time.Now()
	}
	select {
	case l.queue <- e:
	default:
		l.dropped.Add(1)
	}
}

// Stats returns the counters; safe to call at any time, for health and
// logs.
func (l *Log) Stats() Stats {
	return Stats{
		Queued:  int64(len(l.queue)) + l.pending.Load(),
		Written: l.written.Load(),
		Dropped: l.dropped.Load(),
		Failed:  l.failed.Load(),
	}
}

// Close stops accepting entries, writes what is queued and returns when
// done or when ctx ends; entries still unwritten then count as Failed.
// Entries recorded after Close are dropped. The Pool is the caller's to
// close, after Close.
func (l *Log) Close(ctx context.Context) error {
	l.closeOnce.Do(func() {
		l.closeCtx = ctx
		l.closed.Store(true)
		close(l.stop)
	})
	select {
	case <-l.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// run is the writer goroutine: it gathers batches and writes them.
func (l *Log) run() {
	defer close(l.done)
	batch := make([]Entry, 0, l.batchSize)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		select {
		case e := <-l.queue:
			batch = append(batch[:0], e)
			l.pending.Store(1)
			timer.Reset(l.flushInterval)
		gather:
			for len(batch) < l.batchSize {
				select {
				case e := <-l.queue:
					batch = append(batch, e)
					l.pending.Add(1)
				case <-timer.C:
					break gather
				case <-l.stop:
					break gather
				}
			}
			timer.Stop()
			l.write(context.Background(), batch)
			l.warnDrops()
		case <-l.stop:
			l.drain()
			return
		}
	}
}

// drain writes what is left in the queue under the Close context.
func (l *Log) drain() {
	ctx := l.closeCtx
	batch := make([]Entry, 0, l.batchSize)
	for {
		batch = batch[:0]
	fill:
		for len(batch) < l.batchSize {
			select {
			case e := <-l.queue:
				batch = append(batch, e)
				l.pending.Add(1)
			default:
				break fill
			}
		}
		if len(batch) == 0 {
			l.warnDrops()
			return
		}
		l.write(ctx, batch)
	}
}

// write stores one batch: to the log without a pool, else to the database
// with bounded retries while it is unreachable. Rows the database refuses
// as data are tried one by one, so one bad row cannot sink its batch.
func (l *Log) write(ctx context.Context, batch []Entry) {
	defer l.pending.Store(0)
	if l.pool == nil {
		for _, e := range batch {
			l.log.LogAttrs(ctx, slog.LevelInfo, "audit",
				slog.String("action", cutRunes(e.Action, 100)),
				slog.String("user_id", fallback(e.UserID, e.ClientID)),
				slog.String("tenant_id", fallback(e.TenantID, e.ClientID)),
				slog.String("result", e.Result),
				slog.String("request_id", e.RequestID))
		}
		l.written.Add(int64(len(batch)))
		return
	}
	rows := make([][]any, len(batch))
	for i, e := range batch {
		rows[i] = values(e)
	}
	delay := l.flushInterval
	var stop <-chan struct{} = l.stop
	for attempt := 1; ; attempt++ {
		err := l.insert(ctx, rows)
		if err == nil {
			l.written.Add(int64(len(rows)))
			l.failuresSilent = 0
			return
		}
		if isDataError(err) {
			l.insertEach(ctx, rows)
			return
		}
		l.warnFailure(err)
		if attempt >= l.maxAttempts || ctx.Err() != nil {
			l.failed.Add(int64(len(rows)))
			return
		}
		if !l.pause(&ctx, &stop, delay) {
			l.failed.Add(int64(len(rows)))
			return
		}
		delay = min(delay*2, 5*time.Second)
	}
}

// pause waits out a retry delay. Close does not cut it short but moves the
// retries under its context; false means that context ended.
func (l *Log) pause(ctx *context.Context, stop *<-chan struct{}, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			return true
		case <-*stop:
			*ctx, *stop = l.closeCtx, nil
		case <-(*ctx).Done():
			return false
		}
	}
}

func (l *Log) insertEach(ctx context.Context, rows [][]any) {
	for _, row := range rows {
		if err := l.insert(ctx, [][]any{row}); err != nil {
			l.failed.Add(1)
			l.warnFailure(err)
			continue
		}
		l.written.Add(1)
	}
}

// columns is the explicit column list of every insert: an entry with an
// extra field can never break the statement.
const columns = "timestamp, tenant_id, user_id, action, resource_type, resource_id, details, ip_address, user_agent, result, error_message, request_id"

const columnCount = 12

func (l *Log) insert(ctx context.Context, rows [][]any) error {
	if !l.migrated.Load() {
		if err := l.migrate(ctx); err != nil {
			return err
		}
	}
	var sb strings.Builder
	sb.WriteString("INSERT INTO audit_logs (" + columns + ") VALUES ")
	args := make([]any, 0, len(rows)*columnCount)
	for i, row := range rows {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteByte('(')
		for j := range columnCount {
			if j > 0 {
				sb.WriteByte(',')
			}
			sb.WriteByte('$')
			sb.WriteString(strconv.Itoa(i*columnCount + j + 1))
		}
		sb.WriteByte(')')
		args = append(args, row...)
	}
	ctx, cancel := context.WithTimeout(ctx, l.timeout)
	defer cancel()
	_, err := l.pool.Exec(ctx, sb.String(), args...)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "42P01" { // the table went away: migrate again
		l.migrated.Store(false)
	}
	return err
}

// migrate applies the migrations once per Log (again after the table was
// dropped).
func (l *Log) migrate(ctx context.Context) error {
	l.migrateMu.Lock()
	defer l.migrateMu.Unlock()
	if l.migrated.Load() {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, l.timeout)
	defer cancel()
	n, err := migrate(ctx, l.pool)
	if err != nil {
		return err
	}
	l.migrated.Store(true)
	l.log.InfoContext(ctx, "audit database ready", "migrations_applied", n)
	return nil
}

// values maps an entry to the insert's parameters in column order, made
// safe for the column types: valid UTF-8 without NUL (PostgreSQL refuses
// both), cut to the VARCHAR lengths, an IP or NULL.
func values(e Entry) []any {
	var details any
	if e.Details != nil {
		if b, err := json.Marshal(e.Details); err == nil {
			// jsonb refuses the NUL character even escaped.
			details = strings.ReplaceAll(string(b), `\u0000`, `\ufffd`)
		}
	}
	var ip any
	if a, ok := NormalizeIP(e.IPAddress); ok {
		ip = netip.PrefixFrom(a, a.BitLen())
	}
	ts := e.Timestamp
	if ts.IsZero() {
		ts = time.Now()
	}
	return []any{
		ts,
		cutRunes(clean(fallback(e.TenantID, e.ClientID)), 255),
		cutRunes(clean(fallback(e.UserID, e.ClientID)), 255),
		cutRunes(clean(e.Action), 100),
		nullable(e.ResourceType, 100),
		nullable(e.ResourceID, 255),
		details,
		ip,
		nullable(e.UserAgent, 0),
		cutRunes(clean(e.Result), 50),
		nullable(e.ErrorMessage, 0),
		nullable(e.RequestID, 255),
	}
}

func fallback(v, client string) string {
	switch {
	case v != "":
		return v
	case client != "":
		return client
	}
	return "unknown"
}

func nullable(s string, limit int) any {
	if s == "" {
		return nil
	}
	s = clean(s)
	if limit > 0 {
		s = cutRunes(s, limit)
	}
	return s
}

func clean(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if strings.IndexByte(s, 0) >= 0 {
		s = strings.ReplaceAll(s, "\x00", "\uFFFD")
	}
	return s
}

// cutRunes keeps at most n characters, as VARCHAR(n) counts them.
func cutRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos]
		}
		i++
	}
	return s
}

// NormalizeIP turns a client address as proxies send it into an IP: a
// ":port" (Azure sends "a.b.c.d:port"), IPv6 brackets and zones are removed
// and an IPv4-mapped IPv6 address becomes IPv4. ok is false for anything
// else, which is stored as NULL.
func NormalizeIP(s string) (addr netip.Addr, ok bool) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 100 {
		return netip.Addr{}, false
	}
	if ap, err := netip.ParseAddrPort(s); err == nil {
		addr = ap.Addr()
	} else if a, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")); err == nil {
		addr = a
	} else {
		return netip.Addr{}, false
	}
	return addr.WithZone("").Unmap(), true
}

// isDataError tells a row PostgreSQL refuses (data exception, constraint)
// from a database that is away.
func isDataError(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (strings.HasPrefix(pgErr.Code, "22") || strings.HasPrefix(pgErr.Code, "23"))
}

// failureAttrs describe a database failure without its message, which can
// quote a refused value (and so a citizen number).
func failureAttrs(err error) []any {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return []any{"sqlstate", pgErr.Code}
	}
	kind := "unavailable"
	if errors.Is(err, context.DeadlineExceeded) || pgconn.Timeout(err) {
		kind = "timeout"
	}
	return []any{"error_kind", kind}
}

func (l *Log) warnFailure(err error) {
	now := time.Now()
	if now.Sub(l.lastFailWarn) < l.warnInterval {
		l.failuresSilent++
		return
	}
	attrs := append(failureAttrs(err), "failures_since_last_warning", l.failuresSilent)
	l.log.Warn("audit rows could not be written; retrying", attrs...)
	l.lastFailWarn, l.failuresSilent = now, 0
}

func (l *Log) warnDrops() {
	d := l.dropped.Load()
	if d == l.warnedDropped {
		return
	}
	now := time.Now()
	if now.Sub(l.lastDropWarn) < l.warnInterval {
		return
	}
	l.log.Warn("audit queue full: entries dropped", "dropped_since_last_warning", d-l.warnedDropped, "dropped_total", d)
	l.lastDropWarn, l.warnedDropped = now, d
}
