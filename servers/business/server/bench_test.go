package server

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/regelkit/regelkit/servers/internal/auth"
)

// benchServer serves the business API on loopback on its defaults, with
// the rate limit lifted and logs formatted into io.Discard (the formatting
// is part of the cost).
func benchServer(tb testing.TB) (*app, *httptest.Server, string) {
	tb.Helper()
	env := map[string]string{
		"DEV_IDENTITY_KEY_FILE": filepath.Join(tb.TempDir(), "dev.pem"), "RATE_LIMIT_MAX_REQUESTS": "1000000000",
	}
	cfg, _, err := loadConfig(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if err != nil {
		tb.Fatal(err)
	}
	a, err := newApp(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(a.Close)
	srv := httptest.NewServer(a.Handler())
	tb.Cleanup(srv.Close)
	c := caseworker("utrecht")
	c.Issuer, c.Audience, c.TTL = cfg.JWTIssuer, cfg.JWTAudience, time.Hour
	tok, err := a.dev.Token(c)
	if err != nil {
		tb.Fatal(err)
	}
	return a, srv, tok
}

const (
	benchPlain   = `{"variables": {"dagVanAanvraag": "2025-12-24", "geboortedatumAanvrager": "1980-01-23", "geboortedatumPartner": null}}`
	benchWrapped = `{"variables": {"dagVanAanvraag": {"value": "2025-12-24", "type": "String"}, "geboortedatumAanvrager": {"value": "1980-01-23", "type": "String"}, "geboortedatumPartner": {"value": null, "type": "Null"}}}`
)

func post(tb testing.TB, client *http.Client, url, body, token string) {
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := client.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		tb.Fatalf("%s: %d", url, resp.StatusCode)
	}
}

// BenchmarkAuthenticatedEvaluate compares, in one run, an authenticated
// decision evaluation over HTTP (JWT verified, tenant checked, audited) with
// the same evaluation through the unauthenticated /engine-rest facade of the
// same process. Reported: ns per authenticated call, ns per facade call and
// their ratio (target ≤ 1.5).
func BenchmarkAuthenticatedEvaluate(b *testing.B) {
	b.Run("verified-token-cache", func(b *testing.B) { benchAuthenticated(b, false) })
	b.Run("no-cache", func(b *testing.B) { benchAuthenticated(b, true) })
}

func benchAuthenticated(b *testing.B, noCache bool) {
	a, srv, tok := benchServer(b)
	if noCache {
		// Every request pays the RSA verification.
		v, err := auth.NewVerifier(context.Background(), auth.VerifierOptions{
			Keys: a.dev.Keys(), Issuer: a.cfg.JWTIssuer, Audience: a.cfg.JWTAudience, CacheSize: -1,
		})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(v.Close)
		a.auth.Verifier = v
	}
	client := srv.Client()
	authURL := srv.URL + "/v1/decision/SVB_LeeftijdsInformatie/evaluate"
	restURL := srv.URL + "/engine-rest/decision-definition/key/SVB_LeeftijdsInformatie/evaluate"
	post(b, client, authURL, benchPlain, tok)
	post(b, client, restURL, benchWrapped, "")
	var authNS, restNS time.Duration
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		// Alternate the order so neither side always runs on a warm cache.
		t0 := time.Now()
		if i%2 == 0 {
			post(b, client, authURL, benchPlain, tok)
			t1 := time.Now()
			post(b, client, restURL, benchWrapped, "")
			authNS += t1.Sub(t0)
			restNS += time.Since(t1)
		} else {
			post(b, client, restURL, benchWrapped, "")
			t1 := time.Now()
			post(b, client, authURL, benchPlain, tok)
			restNS += t1.Sub(t0)
			authNS += time.Since(t1)
		}
	}
	b.ReportMetric(float64(authNS.Nanoseconds())/float64(b.N), "ns/authenticated")
	b.ReportMetric(float64(restNS.Nanoseconds())/float64(b.N), "ns/engine-rest")
	b.ReportMetric(float64(authNS)/float64(restNS), "ratio")
}

// TestLoad is a load generator on loopback, bounded in time: set
// REGELKIT_LOAD=10s to run it. Workers send authenticated evaluations for
// the duration and the test reports requests per second and the latency
// percentiles. It checks nothing but that every answer is 200.
func TestLoad(t *testing.T) {
	d, err := time.ParseDuration(os.Getenv("REGELKIT_LOAD"))
	if err != nil || d <= 0 {
		t.Skip("set REGELKIT_LOAD=10s to run the load generator")
	}
	d = min(d, time.Minute)
	_, srv, tok := benchServer(t)
	workers := 16
	if n, err := fmt.Sscan(os.Getenv("REGELKIT_LOAD_WORKERS"), &workers); n != 1 || err != nil {
		workers = 16
	}
	transport := &http.Transport{MaxIdleConnsPerHost: workers, MaxConnsPerHost: workers}
	client := &http.Client{Transport: transport}
	defer transport.CloseIdleConnections()
	url := srv.URL + "/v1/decision/SVB_LeeftijdsInformatie/evaluate"
	post(t, client, url, benchPlain, tok)
	var (
		mu        sync.Mutex
		latencies []time.Duration
		failures  atomic.Int64
		wg        sync.WaitGroup
	)
	cpu0 := processCPU()
	stop := time.Now().Add(d)
	start := time.Now()
	for range workers {
		wg.Go(func() {
			local := make([]time.Duration, 0, 1<<16)
			for time.Now().Before(stop) {
				t0 := time.Now()
				req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(benchPlain))
				req.Header.Set("Authorization", "Bearer "+tok)
				req.Header.Set("Content-Type", "application/json")
				resp, err := client.Do(req)
				if err != nil {
					failures.Add(1)
					continue
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					failures.Add(1)
				}
				local = append(local, time.Since(t0))
			}
			mu.Lock()
			latencies = append(latencies, local...)
			mu.Unlock()
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	cpu := processCPU() - cpu0
	slices.Sort(latencies)
	pct := func(p float64) time.Duration { return latencies[int(p*float64(len(latencies)-1))] }
	// CPU per request counts the server and this generator (one process):
	// 2 cores / it is what an otherwise idle 2-core machine could carry.
	perReq := cpu / time.Duration(len(latencies))
	t.Logf("%d workers, %v: %d requests, %.0f requests/s, p50 %v, p99 %v, max %v, failures %d; "+
		"process CPU %v (%.2f cores), %v per request (server + generator)",
		workers, elapsed.Round(time.Millisecond), len(latencies), float64(len(latencies))/elapsed.Seconds(),
		pct(0.50), pct(0.99), latencies[len(latencies)-1], failures.Load(),
		cpu.Round(time.Millisecond), cpu.Seconds()/elapsed.Seconds(), perReq)
	if failures.Load() > 0 {
		t.Errorf("%d requests failed", failures.Load())
	}
}

// processCPU is the user plus system CPU time of this process.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
