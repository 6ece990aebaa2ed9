package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/regelkit/regelkit/engine/local/pgstore/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func closeLog(t *testing.T, l *Log) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := l.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
}

func countRows(t *testing.T, pool *pgxpool.Pool, where string, args ...any) int64 {
	t.Helper()
	var n int64
	if err := pool.QueryRow(context.Background(), "SELECT count(*) FROM audit_logs "+where, args...).Scan(&n); err != nil {
		t.Fatalf("count: %v", err)
	}
	return n
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", d, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func entry(action string) Entry {
	return Entry{
		TenantID: "heusden", UserID: "user-1", Action: action, Result: ResultSuccess, RequestID: "req-1",
		Details: map[string]any{"bsn": "999992235"},
	}
}

func TestWithoutDatabase(t *testing.T) {
	var buf bytes.Buffer
	var mu sync.Mutex
	logger := slog.New(slog.NewJSONHandler(writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return buf.Write(p)
	}), nil))
	l := Open(context.Background(), Options{Logger: logger})
	e := entry("brp.personen.fetch")
	e.UserAgent, e.IPAddress, e.ErrorMessage = "curl/8", "10.1.2.3", "upstream 999992235"
	l.Record(e)
	l.Record(Entry{ClientID: "portal-m2m", Action: "process.start.m2m.x", Result: ResultError, RequestID: "req-2"})
	closeLog(t, l)

	if got, want := l.Stats(), (Stats{Written: 2}); got != want {
		t.Errorf("Stats = %+v, want %+v", got, want)
	}
	var lines []map[string]any
	mu.Lock()
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if m["msg"] == "audit" {
			delete(m, "time")
			lines = append(lines, m)
		}
	}
	out := buf.String()
	mu.Unlock()
	want := []map[string]any{
		{"level": "INFO", "msg": "audit", "action": "brp.personen.fetch", "user_id": "user-1", "tenant_id": "heusden", "result": "success", "request_id": "req-1"},
		{"level": "INFO", "msg": "audit", "action": "process.start.m2m.x", "user_id": "portal-m2m", "tenant_id": "portal-m2m", "result": "error", "request_id": "req-2"},
	}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("audit log lines (-want +got):\n%s", diff)
	}
	for _, s := range []string{"999992235", "curl/8", "10.1.2.3"} {
		if strings.Contains(out, s) {
			t.Errorf("log output holds %q:\n%s", s, out)
		}
	}
	if _, err := l.List(context.Background(), ListOptions{}); !errors.Is(err, ErrNoDatabase) {
		t.Errorf("List = %v, want ErrNoDatabase", err)
	}
	l.Record(entry("after close"))
	if got := l.Stats().Dropped; got != 1 {
		t.Errorf("Dropped after Close = %d, want 1", got)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// recordConcurrently calls Record n times from n goroutines and returns
// the longest single call.
func recordConcurrently(l *Log, n int, action string) time.Duration {
	var wg sync.WaitGroup
	var mu sync.Mutex
	var longest time.Duration
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			e := entry(action)
			e.ResourceID = string(rune('a' + i%26))
			t0 := time.Now()
			l.Record(e)
			d := time.Since(t0)
			mu.Lock()
			longest = max(longest, d)
			mu.Unlock()
		}()
	}
	close(start)
	wg.Wait()
	return longest
}

func TestTenThousandConcurrentRecords(t *testing.T) {
	db := pgtest.New(t)
	pool := db.Pool(t)
	l := Open(context.Background(), Options{Pool: pool, QueueSize: 10000})
	recordConcurrently(l, 10000, "task.claim")
	closeLog(t, l)
	if got, want := l.Stats(), (Stats{Written: 10000}); got != want {
		t.Errorf("Stats = %+v, want %+v", got, want)
	}
	if n := countRows(t, pool, "WHERE action = 'task.claim'"); n != 10000 {
		t.Errorf("%d rows, want 10000", n)
	}
}

func TestQueueTooSmallCountsEveryDrop(t *testing.T) {
	db := pgtest.New(t)
	pool := db.Pool(t)
	l := Open(context.Background(), Options{Pool: pool, QueueSize: 10, BatchSize: 5})
	recordConcurrently(l, 10000, "task.complete")
	closeLog(t, l)
	st := l.Stats()
	rows := countRows(t, pool, "")
	if st.Dropped == 0 {
		t.Errorf("nothing dropped with a queue of 10: %+v", st)
	}
	if st.Written != rows || rows+st.Dropped != 10000 || st.Failed != 0 || st.Queued != 0 {
		t.Errorf("Stats %+v with %d rows: want Written = rows and rows + Dropped = 10000", st, rows)
	}
}

func TestDatabaseOutage(t *testing.T) {
	db := pgtest.New(t)
	pool := db.Pool(t)
	l := Open(context.Background(), Options{Pool: pool, QueueSize: 100, FlushInterval: 10 * time.Millisecond, MaxAttempts: 3})
	for range 10 {
		l.Record(entry("before"))
	}
	waitFor(t, 10*time.Second, "rows before the outage", func() bool { return l.Stats().Written == 10 })

	db.Stop(t)
	longest := recordConcurrently(l, 500, "during")
	if longest > 50*time.Millisecond {
		t.Errorf("a Record call took %v while the database was down", longest)
	}
	time.Sleep(300 * time.Millisecond) // let the writer fail at least once
	db.Start(t)

	for range 10 {
		l.Record(entry("after"))
	}
	waitFor(t, 30*time.Second, "rows after the restart", func() bool {
		return countRows(t, pool, "WHERE action = 'after'") == 10
	})
	closeLog(t, l)
	st := l.Stats()
	t.Logf("after the outage: %+v", st)
	if st.Written+st.Dropped+st.Failed != 520 || st.Queued != 0 {
		t.Errorf("Stats %+v: want Written + Dropped + Failed = 520", st)
	}
	if rows := countRows(t, pool, ""); rows != st.Written {
		t.Errorf("%d rows, Written %d", rows, st.Written)
	}
	if st.Dropped == 0 {
		t.Errorf("500 records into a queue of 100 during an outage dropped none: %+v", st)
	}
}

func TestDatabaseDownAtStart(t *testing.T) {
	db := pgtest.New(t)
	pool := db.Pool(t)
	db.Stop(t)
	var buf bytes.Buffer
	var mu sync.Mutex
	logger := slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return buf.Write(p)
	}), nil))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	l := Open(ctx, Options{Pool: pool, Logger: logger, FlushInterval: 10 * time.Millisecond, MaxAttempts: 100})
	l.Record(entry("brp.personen.fetch"))
	db.Start(t)
	waitFor(t, 30*time.Second, "the row recorded while the database was down", func() bool { return l.Stats().Written == 1 })
	closeLog(t, l)
	if n := countRows(t, pool, ""); n != 1 {
		t.Errorf("%d rows, want 1", n)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(buf.String(), "audit database unavailable at start-up") {
		t.Errorf("no start-up warning:\n%s", buf.String())
	}
	if strings.Contains(buf.String(), "999992235") {
		t.Errorf("log holds the citizen number:\n%s", buf.String())
	}
}

func TestStoredValues(t *testing.T) {
	db := pgtest.New(t)
	pool := db.Pool(t)
	l := Open(context.Background(), Options{Pool: pool})
	ts := time.Date(2026, 1, 15, 10, 20, 30, 123_000_000, time.UTC)
	long := strings.Repeat("é", 150)
	entries := []Entry{
		{Timestamp: ts, TenantID: "heusden", UserID: "u", Action: long, IPAddress: "203.0.113.7:51234", Result: ResultSuccess},
		{Timestamp: ts, ClientID: "portal", Action: "b", IPAddress: "[2001:db8::1]:443", Result: ResultError, ResourceType: "process", ResourceID: "42"},
		{Timestamp: ts, Action: "c", IPAddress: "::ffff:10.0.0.1", Result: ResultSuccess, UserAgent: "nul\x00agent", ErrorMessage: "bad \xff utf8"},
		{Timestamp: ts, TenantID: "t\x00x", UserID: "u", Action: "d", IPAddress: "not an ip", Result: ResultSuccess,
			Details: map[string]any{"note": "nul\x00inside"}},
		{Timestamp: ts, TenantID: "t", UserID: "u", Action: "e", IPAddress: "fe80::1%eth0", Result: ResultSuccess, RequestID: strings.Repeat("r", 300)},
	}
	for _, e := range entries {
		l.Record(e)
	}
	closeLog(t, l)
	if st := l.Stats(); st.Written != 5 || st.Failed != 0 {
		t.Fatalf("Stats %+v, want 5 written", st)
	}
	rows, err := pool.Query(context.Background(), `SELECT tenant_id, user_id, length(action), COALESCE(host(ip_address), 'NULL'),
		COALESCE(user_agent, 'NULL'), COALESCE(error_message, 'NULL'), COALESCE(details::text, 'NULL'), COALESCE(length(request_id), 0)
		FROM audit_logs ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		Tenant, User string
		ActionLen    int
		IP, UA, Err  string
		Details      string
		RequestIDLen int
	}
	var got []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.Tenant, &r.User, &r.ActionLen, &r.IP, &r.UA, &r.Err, &r.Details, &r.RequestIDLen); err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	}
	want := []row{
		{"heusden", "u", 100, "203.0.113.7", "NULL", "NULL", "NULL", 0},
		{"portal", "portal", 1, "2001:db8::1", "NULL", "NULL", "NULL", 0},
		{"unknown", "unknown", 1, "10.0.0.1", "nul\uFFFDagent", "bad \uFFFD utf8", "NULL", 0},
		{"t\uFFFDx", "u", 1, "NULL", "NULL", "NULL", `{"note": "nul` + "\uFFFD" + `inside"}`, 0},
		{"t", "u", 1, "fe80::1", "NULL", "NULL", "NULL", 255},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
}

func TestList(t *testing.T) {
	db := pgtest.New(t)
	pool := db.Pool(t)
	l := Open(context.Background(), Options{Pool: pool})
	t0 := time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)
	l.Record(Entry{Timestamp: t0, TenantID: "a", UserID: "u1", Action: "first", Result: ResultSuccess})
	l.Record(Entry{Timestamp: t0.Add(2 * time.Second), TenantID: "a", UserID: "u1", Action: "brp.personen.fetch",
		Details: map[string]any{"bsn": "999992235", "status": 404}, Result: ResultError, ErrorMessage: "BRP API returned an error",
		RequestID: "req-9", IPAddress: "10.0.0.9", UserAgent: "curl/8"})
	l.Record(Entry{Timestamp: t0.Add(time.Second), TenantID: "b", UserID: "u2", Action: "same-second-1", Result: ResultSuccess,
		ResourceType: "task", ResourceID: "t-1"})
	l.Record(Entry{Timestamp: t0.Add(time.Second), TenantID: "b", UserID: "u2", Action: "same-second-2", Result: ResultSuccess})
	closeLog(t, l)

	page, err := l.List(context.Background(), ListOptions{Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if page.Total != 4 || page.Limit != 2 || page.Offset != 0 || !page.HasMore() {
		t.Errorf("page %d/%d/%d hasMore %v", page.Total, page.Limit, page.Offset, page.HasMore())
	}
	b, _ := json.Marshal(page.Items)
	want := `[{"id":2,"tenant_id":"a","user_id":"u1","action":"brp.personen.fetch","resource_type":null,"resource_id":null,` +
		`"details":{"bsn": "999992235", "status": 404},"result":"error","error_message":"BRP API returned an error","request_id":"req-9",` +
		`"timestamp":"2026-03-01T08:00:02.000Z"},` +
		`{"id":4,"tenant_id":"b","user_id":"u2","action":"same-second-2","resource_type":null,"resource_id":null,"details":{},` +
		`"result":"success","error_message":null,"request_id":null,"timestamp":"2026-03-01T08:00:01.000Z"}]`
	var gotV, wantV any
	_ = json.Unmarshal(b, &gotV)
	if err := json.Unmarshal([]byte(want), &wantV); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantV, gotV); diff != "" {
		t.Errorf("items (-want +got):\n%s", diff)
	}
	if strings.Contains(string(b), "10.0.0.9") || strings.Contains(string(b), "curl") {
		t.Errorf("list exposes IP or user agent: %s", b)
	}

	page, err = l.List(context.Background(), ListOptions{Limit: 2, Offset: 2})
	if err != nil {
		t.Fatal(err)
	}
	var actions []string
	for _, r := range page.Items {
		actions = append(actions, r.Action)
	}
	if diff := cmp.Diff([]string{"same-second-1", "first"}, actions); diff != "" || page.HasMore() {
		t.Errorf("second page (-want +got):\n%s hasMore %v", diff, page.HasMore())
	}
	if r := page.Items[0]; r.ResourceType == nil || *r.ResourceType != "task" || r.ResourceID == nil || *r.ResourceID != "t-1" {
		t.Errorf("resource of %+v", r)
	}

	for _, tt := range []struct {
		in                    ListOptions
		wantLimit, wantOffset int
		wantItems             int
	}{
		{ListOptions{}, 50, 0, 4},
		{ListOptions{Limit: -3, Offset: -1}, 50, 0, 4},
		{ListOptions{Limit: 1000}, 200, 0, 4},
		{ListOptions{Limit: 10, Offset: 10}, 10, 10, 0},
	} {
		page, err := l.List(context.Background(), tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if page.Limit != tt.wantLimit || page.Offset != tt.wantOffset || len(page.Items) != tt.wantItems || page.Items == nil || page.Total != 4 {
			t.Errorf("List(%+v) = limit %d offset %d, %d items, total %d", tt.in, page.Limit, page.Offset, len(page.Items), page.Total)
		}
	}
}

func TestListOnFreshDatabaseAndOutage(t *testing.T) {
	db := pgtest.New(t)
	pool := db.Pool(t)
	l := &Log{pool: pool, log: slog.New(slog.DiscardHandler), timeout: 2 * time.Second}
	page, err := l.List(context.Background(), ListOptions{})
	if err != nil || page.Total != 0 || page.Items == nil {
		t.Fatalf("List on a fresh database = %+v, %v", page, err)
	}
	db.Stop(t)
	if _, err := l.List(context.Background(), ListOptions{}); err == nil {
		t.Fatal("List with the database down succeeded")
	}
}

func TestMigrationsAreIdempotent(t *testing.T) {
	db := pgtest.New(t)
	pool := db.Pool(t)
	for i := range 2 {
		n, err := migrate(context.Background(), pool)
		if err != nil {
			t.Fatal(err)
		}
		if want := 1 - i; n != want {
			t.Errorf("run %d applied %d migrations, want %d", i+1, n, want)
		}
	}
	var indexes []string
	rows, _ := pool.Query(context.Background(), "SELECT indexname FROM pg_indexes WHERE tablename = 'audit_logs' ORDER BY indexname")
	for rows.Next() {
		var s string
		_ = rows.Scan(&s)
		indexes = append(indexes, s)
	}
	want := []string{"audit_logs_action_idx", "audit_logs_pkey", "audit_logs_request_id_idx", "audit_logs_tenant_id_idx",
		"audit_logs_timestamp_idx", "audit_logs_user_id_idx"}
	if diff := cmp.Diff(want, indexes); diff != "" {
		t.Errorf("indexes (-want +got):\n%s", diff)
	}
}

func TestNormalizeIP(t *testing.T) {
	for in, want := range map[string]string{
		"203.0.113.7":           "203.0.113.7",
		"203.0.113.7:8080":      "203.0.113.7",
		" 203.0.113.7 ":         "203.0.113.7",
		"[2001:db8::1]:443":     "2001:db8::1",
		"[2001:db8::1]":         "2001:db8::1",
		"2001:db8::1":           "2001:db8::1",
		"::ffff:192.0.2.1":      "192.0.2.1",
		"[::ffff:192.0.2.1]:1":  "192.0.2.1",
		"fe80::1%eth0":          "fe80::1",
		"":                      "",
		"unknown":               "",
		"203.0.113.7, 10.0.0.1": "",
		"999992235":             "",
	} {
		a, ok := NormalizeIP(in)
		got := ""
		if ok {
			got = a.String()
		}
		if got != want {
			t.Errorf("NormalizeIP(%q) = %q, want %q", in, got, want)
		}
	}
}

func BenchmarkRecord(b *testing.B) {
	l := Open(context.Background(), Options{QueueSize: 1 << 16, Logger: slog.New(slog.DiscardHandler)})
	defer l.Close(context.Background())
	e := entry("brp.personen.fetch")
	b.ReportAllocs()
	for b.Loop() {
		l.Record(e)
	}
}

// BenchmarkWriteToPostgreSQL measures how fast the writer stores rows: the
// queue holds every entry, and the clock runs until Close has written them.
func BenchmarkWriteToPostgreSQL(b *testing.B) {
	db := pgtest.New(b)
	pool := db.Pool(b)
	l := Open(context.Background(), Options{Pool: pool, QueueSize: max(b.N, 1)})
	e := entry("brp.personen.fetch")
	b.ReportAllocs()
	start := time.Now()
	for range b.N {
		l.Record(e)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := l.Close(ctx); err != nil {
		b.Fatal(err)
	}
	st := l.Stats()
	if st.Written != int64(b.N) {
		b.Fatalf("Stats %+v after %d records", st, b.N)
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "rows/s")
}

func TestOneBadRowDoesNotSinkItsBatch(t *testing.T) {
	db := pgtest.New(t)
	pool := db.Pool(t)
	l := Open(context.Background(), Options{Pool: pool, FlushInterval: time.Second})
	l.Record(entry("good-1"))
	bad := entry("bad")
	bad.Timestamp = time.Date(300000, 1, 1, 0, 0, 0, 0, time.UTC) // beyond timestamptz
	l.Record(bad)
	l.Record(entry("good-2"))
	closeLog(t, l)
	if got, want := l.Stats(), (Stats{Written: 2, Failed: 1}); got != want {
		t.Errorf("Stats = %+v, want %+v", got, want)
	}
	if n := countRows(t, pool, "WHERE action LIKE 'good-%'"); n != 2 {
		t.Errorf("%d good rows, want 2", n)
	}
}

func TestDropsAreWarnedOncePerInterval(t *testing.T) {
	gate := make(chan struct{})
	var buf bytes.Buffer
	var mu sync.Mutex
	logger := slog.New(slog.NewJSONHandler(writerFunc(func(p []byte) (int, error) {
		if bytes.Contains(p, []byte(`"msg":"audit"`)) {
			<-gate // the sink is stuck: the queue fills
		}
		mu.Lock()
		defer mu.Unlock()
		return buf.Write(p)
	}), nil))
	l := Open(context.Background(), Options{QueueSize: 2, Logger: logger, FlushInterval: time.Millisecond, BatchSize: 1})
	l.Record(entry("first"))
	waitFor(t, 5*time.Second, "the writer to take the first entry", func() bool { return len(l.queue) == 0 })
	for range 7 {
		l.Record(entry("more"))
	}
	if st := l.Stats(); st.Dropped != 5 || st.Queued != 3 {
		t.Errorf("Stats %+v with a stuck sink: want 3 queued, 5 dropped", st)
	}
	close(gate)
	waitFor(t, 5*time.Second, "the queue to empty", func() bool { return l.Stats().Written == 3 })
	for range 4 {
		l.Record(entry("later"))
	}
	l.dropped.Add(2) // more drops within the interval
	closeLog(t, l)

	mu.Lock()
	defer mu.Unlock()
	if n := strings.Count(buf.String(), "audit queue full"); n != 1 {
		t.Errorf("%d drop warnings, want 1:\n%s", n, buf.String())
	}
	if !strings.Contains(buf.String(), `"dropped_since_last_warning":5`) {
		t.Errorf("the warning does not count the drops:\n%s", buf.String())
	}
	if strings.Contains(buf.String(), "999992235") {
		t.Errorf("log holds a citizen number:\n%s", buf.String())
	}
}

func TestCloseWhileDatabaseDown(t *testing.T) {
	db := pgtest.New(t)
	pool := db.Pool(t)
	l := Open(context.Background(), Options{Pool: pool, FlushInterval: 10 * time.Millisecond, MaxAttempts: 1000})
	waitFor(t, 10*time.Second, "the migrations", l.migrated.Load)
	db.Stop(t)
	for range 5 {
		l.Record(entry("lost"))
	}
	time.Sleep(100 * time.Millisecond) // the writer is retrying now
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	start := time.Now()
	_ = l.Close(ctx)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Close took %v with a 500 ms context", d)
	}
	waitFor(t, 5*time.Second, "the retried rows to count as failed", func() bool { return l.Stats().Failed == 5 })
	if st := l.Stats(); st.Written != 0 || st.Queued != 0 {
		t.Errorf("Stats %+v", st)
	}
}
