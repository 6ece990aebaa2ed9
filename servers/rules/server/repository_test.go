package server

import (
	"encoding/pem"
	"io"
	"io/fs"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// officialRepo replays the official repository and its SRU service from
// the embedded fixtures, counting requests.
type officialRepo struct {
	docs, sru atomic.Int64
	delay     time.Duration
	fixtures  fs.FS
}

// sruRecord is a recorded SRU answer, trimmed to the fields the adapter reads.
const sruRecord = `<?xml version="1.0" encoding="UTF-8"?>
<sru:searchRetrieveResponse xmlns:sru="http://docs.oasis-open.org/ns/search-ws/sruResponse">
 <sru:numberOfRecords>1</sru:numberOfRecords>
 <sru:records><sru:record><sru:recordData>
  <gzd xmlns="http://standaarden.overheid.nl/sru"><originalData><overheidbwb:meta xmlns:overheidbwb="http://standaarden.overheid.nl/bwb/terms/">
   <overheidbwb:geldigheidsperiode_startdatum>2026-01-01</overheidbwb:geldigheidsperiode_startdatum>
   <overheidbwb:locatie_toestand>https://repository.officiele-overheidspublicaties.nl/bwb/BWBR0015703/2026-01-01_0/xml/BWBR0015703_2026-01-01_0.xml</overheidbwb:locatie_toestand>
  </overheidbwb:meta></originalData></gzd>
 </sru:recordData></sru:record></sru:records>
</sru:searchRetrieveResponse>`

func (o *officialRepo) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	time.Sleep(o.delay) // lets concurrent requests overlap
	if strings.HasPrefix(r.URL.Path, "/sru") {
		o.sru.Add(1)
		if !strings.Contains(r.URL.Query().Get("query"), "dcterms.identifier=BWBR0015703") {
			http.Error(w, "unexpected query "+r.URL.RawQuery, 400)
			return
		}
		_, _ = w.Write([]byte(sruRecord))
		return
	}
	o.docs.Add(1)
	b, err := fs.ReadFile(o.fixtures, strings.TrimPrefix(r.URL.Path, "/"))
	if err != nil {
		http.NotFound(w, r)
		return
	}
	_, _ = w.Write(b)
}

func httpApp(t *testing.T, env map[string]string) *httptest.Server {
	t.Helper()
	a, err := newApp(testConfig(t, env), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(a.Handler())
	t.Cleanup(srv.Close)
	return srv
}

func fixtures(t *testing.T) fs.FS {
	t.Helper()
	dir := t.TempDir()
	// The same documents the local adapter embeds, served over HTTP.
	src := filepath.Join("..", "..", "..", "norms", "cprmv", "repository")
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return os.DirFS(dir)
}

// TestHTTPAdapterOneFetch: 100 concurrent requests for one uncached rule
// set cause exactly one document fetch, and for "latest" one SRU request.
func TestHTTPAdapterOneFetch(t *testing.T) {
	repo := &officialRepo{delay: 50 * time.Millisecond, fixtures: fixtures(t)}
	upstream := httptest.NewServer(repo)
	defer upstream.Close()
	srv := httpApp(t, map[string]string{"RULES_REPOSITORY": "http", "RULES_OFFICIAL_REPOSITORY_URL": upstream.URL,
		"RULES_SRU_URL": upstream.URL + "/sru"})
	for _, c := range []struct {
		path           string
		docs, sruCalls int64
		wantID         string
	}{
		{"/rules/BWBR0015703_2025-07-01_0,Artikel%2020", 1, 0, `"BWBR0015703_2025-07-01_0"`},
		{"/rules/BWBR0015703,Artikel%2021", 2, 1, `"BWBR0015703_2026-01-01_0"`}, // the resolved id replaces the short one
	} {
		var wg sync.WaitGroup
		var failures atomic.Int64
		for range 100 {
			wg.Go(func() {
				if r, err := tryFetch(srv, c.path); err != nil || r.status != 200 || !strings.Contains(r.body, c.wantID) {
					failures.Add(1)
				}
			})
		}
		wg.Wait()
		if failures.Load() != 0 {
			t.Errorf("%s: %d of 100 requests failed", c.path, failures.Load())
		}
		if repo.docs.Load() != c.docs || repo.sru.Load() != c.sruCalls {
			t.Errorf("%s: %d document fetches and %d SRU requests, want %d and %d", c.path, repo.docs.Load(), repo.sru.Load(), c.docs, c.sruCalls)
		}
	}
	// A second round is served from the caches.
	fetch(t, srv, "/rules/BWBR0015703,Artikel%2020")
	if repo.docs.Load() != 2 || repo.sru.Load() != 1 {
		t.Errorf("cached round: %d fetches, %d SRU requests", repo.docs.Load(), repo.sru.Load())
	}
	if r := fetch(t, srv, "/rules/BWBR0015703_2025-07-01_9"); r.status != 404 {
		t.Errorf("a version the repository lacks: %d %s", r.status, r.body)
	}
}

// TestHTTPAdapterRefusesLargeDocument: a 60 MB document is refused with
// 502, with and without a Content-Length.
func TestHTTPAdapterRefusesLargeDocument(t *testing.T) {
	chunk := make([]byte, 1<<20)
	for _, withLength := range []bool{true, false} {
		upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if withLength {
				w.Header().Set("Content-Length", "62914560")
			}
			for range 60 {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		}))
		srv := httpApp(t, map[string]string{"RULES_REPOSITORY": "http", "RULES_OFFICIAL_REPOSITORY_URL": upstream.URL})
		r := fetch(t, srv, "/rules/BWBR0015703_2025-07-01_0")
		if r.status != 502 || r.body != `{"error": "Publication repository unavailable."}` {
			t.Errorf("60 MB (Content-Length %v): %d %s", withLength, r.status, r.body)
		}
		upstream.Close()
	}
}

// TestHTTPAdapterHangingRepository: a repository that never answers gives
// 502 within 11 s (the 10 s request timeout).
func TestHTTPAdapterHangingRepository(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the 10 s repository timeout")
	}
	release := make(chan struct{})
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer upstream.Close()
	defer close(release)
	srv := httpApp(t, map[string]string{"RULES_REPOSITORY": "http", "RULES_OFFICIAL_REPOSITORY_URL": upstream.URL})
	start := time.Now()
	r := fetch(t, srv, "/rules/BWBR0015703_2025-07-01_0")
	elapsed := time.Since(start)
	if r.status != 502 || r.body != `{"error": "Publication repository unavailable."}` || elapsed > 11*time.Second || elapsed < 9*time.Second {
		t.Errorf("hanging repository: %d %s after %s", r.status, r.body, elapsed)
	}
}

// TestExtraCAFile: the adapter trusts the repository's certificate only
// through RULES_EXTRA_CA_FILE.
func TestExtraCAFile(t *testing.T) {
	repo := &officialRepo{fixtures: fixtures(t)}
	upstream := httptest.NewUnstartedServer(repo)
	upstream.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake is expected
	upstream.StartTLS()
	defer upstream.Close()
	env := map[string]string{"RULES_REPOSITORY": "http", "RULES_OFFICIAL_REPOSITORY_URL": upstream.URL}
	if r := fetch(t, httpApp(t, env), "/rules/BWBR0015703_2025-07-01_0"); r.status != 502 {
		t.Errorf("an unknown certificate must fail: %d", r.status)
	}
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: upstream.Certificate().Raw})
	if err := os.WriteFile(caFile, pemBytes, 0o600); err != nil {
		t.Fatal(err)
	}
	env["RULES_EXTRA_CA_FILE"] = caFile
	if r := fetch(t, httpApp(t, env), "/rules/BWBR0015703_2025-07-01_0"); r.status != 200 {
		t.Errorf("with the CA file: %d %s", r.status, r.body)
	}
}

// TestLocalThenHTTP: local+http answers local rule sets without the
// network and asks HTTP for the rest.
func TestLocalThenHTTP(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join("..", "..", "..", "norms", "cprmv", "repository", "cvdr")
	if err := os.CopyFS(filepath.Join(dir, "cvdr"), os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	repo := &officialRepo{fixtures: fixtures(t)}
	upstream := httptest.NewServer(repo)
	defer upstream.Close()
	srv := httpApp(t, map[string]string{"RULES_REPOSITORY": "local+http", "RULES_REPOSITORY_DIR": dir,
		"RULES_OFFICIAL_REPOSITORY_URL": upstream.URL, "RULES_SRU_URL": upstream.URL + "/sru"})
	if r := fetch(t, srv, "/rules/CVDR712517_1"); r.status != 200 || repo.docs.Load() != 0 {
		t.Errorf("local rule set: %d, %d fetches", r.status, repo.docs.Load())
	}
	if r := fetch(t, srv, "/rules/BWBR0015703_2025-07-01_0"); r.status != 200 || repo.docs.Load() != 1 {
		t.Errorf("remote rule set: %d, %d fetches", r.status, repo.docs.Load())
	}
}
