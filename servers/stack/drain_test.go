package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/regelkit/regelkit/engine/local/pgstore/pgtest"
	business "github.com/regelkit/regelkit/servers/business/server"
	editor "github.com/regelkit/regelkit/servers/editor/server"
	explorer "github.com/regelkit/regelkit/servers/explorer/server"
	"github.com/regelkit/regelkit/servers/internal/lifecycle"
	"github.com/regelkit/regelkit/servers/internal/lifecycle/lifecycletest"
	rules "github.com/regelkit/regelkit/servers/rules/server"
)

// childEnv makes the test binary run the stack's main: the child of
// TestSIGTERMChildProcess.
const childEnv = "REGELKIT_STACK_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		if err := run(); err != nil {
			fmt.Fprintln(os.Stderr, "stack:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	pgtest.Main(m)
}

// The decision the load evaluates, and its named audit row.
const (
	leeftijdBody   = `{"variables": {"dagVanAanvraag": "2025-12-24", "geboortedatumAanvrager": "1980-01-23", "geboortedatumPartner": null}}`
	leeftijdAction = "decision.evaluate.SVB_LeeftijdsInformatie"
)

// notReady is the life cycle's readiness answer while draining.
const notReady = `{"status":"not ready","reason":"shutting down"}` + "\n"

var discard = slog.New(slog.DiscardHandler)

type drainable interface {
	Listeners(*lifecycle.Lifecycle) []lifecycle.Server
	Close()
}

func lookupOf(env map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := env[k]; return v, ok }
}

// TestDrainUnderLoad runs each server alone under a steady stream of
// requests and cancels its context as SIGTERM does: readiness turns 503 at
// once, no request the server accepted fails, the rest are refused before
// being accepted, Run returns nil, and for the business API every answered
// request left its audit row in PostgreSQL.
func TestDrainUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("load across a shutdown")
	}
	quiet := map[string]string{"LOG_LEVEL": "error"}
	cases := []struct {
		name  string
		ready string
		// setup builds the server and says what to send; after checks
		// what the load left behind.
		setup func(t *testing.T) (drainable, func(base string, n int) (*http.Request, error), func(t *testing.T, ok int))
	}{
		{"explorer", "/v1/health", func(t *testing.T) (drainable, func(string, int) (*http.Request, error), func(*testing.T, int)) {
			s, err := explorer.New(context.Background(), explorer.Options{Lookup: lookupOf(quiet), Logger: discard})
			if err != nil {
				t.Fatal(err)
			}
			return s, func(base string, _ int) (*http.Request, error) {
				return http.NewRequest("GET", base+"/v1/dmns?endpoint=%2Fv1%2Fsparql", nil)
			}, nil
		}},
		{"business", "/v1/health/ready", func(t *testing.T) (drainable, func(string, int) (*http.Request, error), func(*testing.T, int)) {
			db := pgtest.New(t)
			s, err := business.New(context.Background(), business.Options{Lookup: lookupOf(map[string]string{
				"LOG_LEVEL": "error", "DATABASE_URL": db.URL, "RATE_LIMIT_MAX_REQUESTS": "1000000",
				"DEV_IDENTITY_KEY_FILE": filepath.Join(t.TempDir(), "key.pem"),
			}), Logger: discard})
			if err != nil {
				t.Fatal(err)
			}
			tok, err := s.DevToken(business.TokenRequest{Roles: []string{"caseworker"}, Municipality: "heusden", LoA: "hoog", TTL: time.Hour})
			if err != nil {
				t.Fatal(err)
			}
			pool := db.Pool(t)
			return s, func(base string, n int) (*http.Request, error) {
					time.Sleep(2 * time.Millisecond) // a stream the audit writer keeps up with, as below
					req, err := http.NewRequest("POST", base+"/v1/decision/SVB_LeeftijdsInformatie/evaluate", strings.NewReader(leeftijdBody))
					if err == nil {
						req.Header.Set("Content-Type", "application/json")
						req.Header.Set("Authorization", "Bearer "+tok)
						req.Header.Set("X-Request-ID", "load-"+strconv.Itoa(n))
					}
					return req, err
				}, func(t *testing.T, ok int) {
					var rows int
					if err := pool.QueryRow(context.Background(), `SELECT count(*) FROM audit_logs WHERE action = $1`, leeftijdAction).Scan(&rows); err != nil {
						t.Fatal(err)
					}
					if rows != ok {
						t.Errorf("%d audit rows %s, want one per answered request: %d", rows, leeftijdAction, ok)
					}
				}
		}},
		{"editor", "/api/ready", func(t *testing.T) (drainable, func(string, int) (*http.Request, error), func(*testing.T, int)) {
			s, err := editor.New(context.Background(), editor.Options{Lookup: lookupOf(quiet), Logger: discard})
			if err != nil {
				t.Fatal(err)
			}
			return s, func(base string, _ int) (*http.Request, error) {
				return http.NewRequest("GET", base+"/api/getSources", nil)
			}, nil
		}},
		{"rules", "/", func(t *testing.T) (drainable, func(string, int) (*http.Request, error), func(*testing.T, int)) {
			s, err := rules.New(context.Background(), rules.Options{Lookup: lookupOf(quiet), Logger: discard})
			if err != nil {
				t.Fatal(err)
			}
			return s, func(base string, _ int) (*http.Request, error) {
				return http.NewRequest("GET", base+"/rules/BWBR0015703_2025-07-01_0", nil)
			}, nil
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, newReq, after := tc.setup(t)
			defer srv.Close()
			lc := lifecycle.New(lifecycle.Options{Grace: 10 * time.Second, Delay: 300 * time.Millisecond})
			ls := srv.Listeners(lc)
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			seen := &lifecycletest.Seen{}
			ls[0].Listener, ls[0].Handler = ln, seen.Wrap(ls[0].Handler)
			base := "http://" + ln.Addr().String()
			ctx, sigterm := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- lc.Run(ctx, ls...) }()

			loadCtx, stopLoad := context.WithCancel(context.Background())
			results := make(chan []lifecycletest.Result, 1)
			go func() {
				results <- lifecycletest.Load(loadCtx, 4, func(ctx context.Context, n int) (*http.Request, error) {
					req, err := newReq(base, n)
					if err != nil {
						return nil, err
					}
					return req.WithContext(ctx), nil
				})
			}()
			time.Sleep(400 * time.Millisecond)
			sigterm()
			if code, body := lifecycletest.AwaitStatus(t, base+tc.ready, http.StatusServiceUnavailable, 200*time.Millisecond); code != http.StatusServiceUnavailable || body != notReady {
				t.Errorf("readiness while draining: %d %q", code, body)
			}
			select {
			case err = <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("Run did not return within 20s")
			}
			time.Sleep(100 * time.Millisecond) // knocking on a closed port
			stopLoad()
			rs := <-results
			if err != nil {
				t.Errorf("Run = %v, want nil", err)
			}
			ok, refused := lifecycletest.Check(t, rs, seen)
			t.Logf("%d answered, %d refused", ok, refused)
			if ok < 10 || refused == 0 {
				t.Errorf("%d answered, %d refused: the load did not span the shutdown", ok, refused)
			}
			if after != nil {
				after(t, ok)
			}
		})
	}
}

// TestSIGTERMChildProcess sends a real SIGTERM to the whole stack running
// as a child process while the business API is under load: readiness turns
// 503 on every server, the child exits 0, no request the business API
// accepted failed, and every answered request has its audit row, matched
// by request id (the audit rows are what the child accepted).
func TestSIGTERMChildProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process")
	}
	db := pgtest.New(t)
	p := freePorts(t, 4)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=1",
		"EXPLORER_PORT="+strconv.Itoa(p[0]), "BUSINESS_PORT="+strconv.Itoa(p[1]),
		"EDITOR_PORT="+strconv.Itoa(p[2]), "RULES_PORT="+strconv.Itoa(p[3]),
		"DATABASE_URL="+db.URL, "RATE_LIMIT_MAX_REQUESTS=1000000", "LOG_LEVEL=error",
		"DEV_IDENTITY_KEY_FILE="+filepath.Join(t.TempDir(), "key.pem"),
		"SHUTDOWN_DELAY=500ms", "SHUTDOWN_GRACE=10s")
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill() }()
	exited := make(chan error, 1)
	var token string
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if m := regexp.MustCompile(`^CASEWORKER=(\S+)`).FindStringSubmatch(sc.Text()); m != nil {
			token = m[1]
			break
		}
	}
	go func() {
		_, _ = io.Copy(io.Discard, out)
		exited <- cmd.Wait()
	}()
	if token == "" {
		t.Fatal("the child printed no caseworker token")
	}
	biz := "http://127.0.0.1:" + strconv.Itoa(p[1])
	explorerURL := "http://127.0.0.1:" + strconv.Itoa(p[0])
	for deadline := time.Now().Add(60 * time.Second); ; {
		if resp, err := http.Get(biz + "/v1/health/live"); err == nil {
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the child's business API does not answer")
		}
		time.Sleep(50 * time.Millisecond)
	}

	loadCtx, stopLoad := context.WithCancel(context.Background())
	results := make(chan []lifecycletest.Result, 1)
	go func() {
		results <- lifecycletest.Load(loadCtx, 4, func(ctx context.Context, n int) (*http.Request, error) {
			// A steady stream the audit writer keeps up with: a flood
			// fills its bounded queue, which drops by design (counted in
			// the health answer), and that is not what this test is about.
			time.Sleep(2 * time.Millisecond)
			req, err := http.NewRequestWithContext(ctx, "POST", biz+"/v1/decision/SVB_LeeftijdsInformatie/evaluate", strings.NewReader(leeftijdBody))
			if err == nil {
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+token)
				req.Header.Set("X-Request-ID", "load-"+strconv.Itoa(n))
			}
			return req, err
		})
	}()
	time.Sleep(400 * time.Millisecond)
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	// The signal reaches the child's goroutines a moment later: readiness
	// must turn 503 well within SHUTDOWN_DELAY, while the port still
	// accepts.
	for _, u := range []string{biz + "/v1/health/ready", explorerURL + "/v1/health"} {
		if code, body := lifecycletest.AwaitStatus(t, u, http.StatusServiceUnavailable, 300*time.Millisecond); code != http.StatusServiceUnavailable || body != notReady {
			t.Errorf("%s while draining: %d %q", u, code, body)
		}
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("the child exited with %v, want status 0", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the child did not exit within 30s of SIGTERM")
	}
	time.Sleep(100 * time.Millisecond)
	stopLoad()
	rs := <-results

	seen := &lifecycletest.Seen{}
	rows, err := db.Pool(t).Query(context.Background(), `SELECT request_id FROM audit_logs WHERE action = $1`, leeftijdAction)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		seq, err := strconv.Atoi(strings.TrimPrefix(id, "load-"))
		if err != nil {
			t.Fatalf("audit row with request id %q", id)
		}
		seen.Add(seq)
		n++
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	ok, refused := lifecycletest.Check(t, rs, seen)
	t.Logf("%d answered, %d refused, %d audit rows", ok, refused, n)
	if n != ok {
		t.Errorf("%d audit rows, want one per answered request: %d", n, ok)
	}
	if ok < 10 || refused == 0 {
		t.Errorf("%d answered, %d refused: the load did not span the shutdown", ok, refused)
	}
}
