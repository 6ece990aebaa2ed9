package httpapi_test

import (
	"bufio"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/openapi"
)

// compressServer serves a few routes through the real router and
// middleware; the client sends Accept-Encoding itself, so the transport
// does not decompress and the test sees the bytes on the wire.
func compressServer(t *testing.T, release <-chan struct{}) *httptest.Server {
	t.Helper()
	big := `{"data":"` + strings.Repeat("regel ", 1000) + `"}`
	r := httpapi.NewRouter(httpapi.RouterOptions{MaxResponseBytes: 10_000})
	r.Handle("GET", "/big", func(w http.ResponseWriter, req *http.Request) error {
		if req.Header.Get("If-None-Match") == `"v1"` {
			w.Header().Set("ETag", `"v1"`)
			w.WriteHeader(http.StatusNotModified)
			return nil
		}
		w.Header().Set("ETag", `"v1"`)
		w.Header().Set("Content-Type", "application/json")
		_, err := io.WriteString(w, big)
		return err
	}, openapi.Operation{Summary: "big"})
	r.Handle("GET", "/small", func(w http.ResponseWriter, req *http.Request) error {
		return httpapi.WriteData(w, http.StatusOK, "tiny")
	}, openapi.Operation{Summary: "small"})
	r.Handle("GET", "/png", func(w http.ResponseWriter, req *http.Request) error {
		w.Header().Set("Content-Type", "image/png")
		_, err := io.WriteString(w, strings.Repeat("x", 5000))
		return err
	}, openapi.Operation{Summary: "png"})
	r.Handle("GET", "/encoded", func(w http.ResponseWriter, req *http.Request) error {
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Content-Encoding", "br")
		_, err := io.WriteString(w, strings.Repeat("y", 5000))
		return err
	}, openapi.Operation{Summary: "pre-encoded"})
	r.Handle("GET", "/toolarge", func(w http.ResponseWriter, req *http.Request) error {
		w.Header().Set("Content-Type", "text/plain")
		_, err := io.WriteString(w, strings.Repeat("z", 20_000))
		return err
	}, openapi.Operation{Summary: "over the ceiling"})
	r.Handle("GET", "/stream", func(w http.ResponseWriter, req *http.Request) error {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = io.WriteString(w, "first line\n")
		w.(http.Flusher).Flush()
		<-release
		_, err := io.WriteString(w, "last line\n")
		return err
	}, openapi.Operation{Summary: "stream"})
	srv := httptest.NewServer(httpapi.Middleware(r, httpapi.MiddlewareOptions{Version: "1"}))
	t.Cleanup(srv.Close)
	return srv
}

func get(t *testing.T, srv *httptest.Server, method, path string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest(method, srv.URL+path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

func gunzip(t *testing.T, b []byte) string {
	t.Helper()
	zr, err := gzip.NewReader(strings.NewReader(string(b)))
	if err != nil {
		t.Fatalf("not gzip: %v (%q…)", err, b[:min(len(b), 40)])
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func TestCompressLargeJSON(t *testing.T) {
	srv := compressServer(t, nil)
	want := `{"data":"` + strings.Repeat("regel ", 1000) + `"}`
	for _, ae := range []string{"gzip", "br, gzip;q=0.5", "*", "deflate, GZIP"} {
		resp, body := get(t, srv, "GET", "/big", "Accept-Encoding", ae)
		if resp.Header.Get("Content-Encoding") != "gzip" {
			t.Fatalf("Accept-Encoding %q: Content-Encoding %q, want gzip", ae, resp.Header.Get("Content-Encoding"))
		}
		if got := gunzip(t, body); got != want {
			t.Fatalf("Accept-Encoding %q: decompressed body differs (%d bytes, want %d)", ae, len(got), len(want))
		}
		if len(body) > 200 {
			t.Errorf("compressed body is %d bytes, want well under 200 for 6 KB of one repeated word", len(body))
		}
		if resp.Header.Get("Vary") != "Accept-Encoding" || resp.Header.Get("Content-Length") == "6011" {
			t.Errorf("headers: Vary %q, Content-Length %q", resp.Header.Get("Vary"), resp.Header.Get("Content-Length"))
		}
		if resp.Header.Get("ETag") != `"v1"` || resp.Header.Get("API-Version") != "1" {
			t.Errorf("lost headers: %v", resp.Header)
		}
	}
}

func TestCompressLeavesAlone(t *testing.T) {
	srv := compressServer(t, nil)
	cases := []struct {
		name, method, path string
		header             []string
		wantLen            int
	}{
		{"no Accept-Encoding", "GET", "/big", []string{"Accept-Encoding", "identity"}, 6011},
		{"gzip refused with q=0", "GET", "/big", []string{"Accept-Encoding", "gzip;q=0, br"}, 6011},
		{"small body", "GET", "/small", []string{"Accept-Encoding", "gzip"}, -1},
		{"incompressible type", "GET", "/png", []string{"Accept-Encoding", "gzip"}, 5000},
		{"already encoded", "GET", "/encoded", []string{"Accept-Encoding", "gzip"}, 5000},
		{"HEAD", "HEAD", "/big", []string{"Accept-Encoding", "gzip"}, 0},
		{"304", "GET", "/big", []string{"Accept-Encoding", "gzip", "If-None-Match", `"v1"`}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := get(t, srv, tc.method, tc.path, tc.header...)
			if ce := resp.Header.Get("Content-Encoding"); ce == "gzip" {
				t.Fatalf("compressed, want not")
			}
			if tc.wantLen >= 0 && len(body) != tc.wantLen {
				t.Errorf("body %d bytes, want %d", len(body), tc.wantLen)
			}
			if resp.Header.Get("Vary") != "Accept-Encoding" {
				t.Errorf("Vary %q, want Accept-Encoding", resp.Header.Get("Vary"))
			}
		})
	}
	resp, body := get(t, srv, "GET", "/small", "Accept-Encoding", "gzip")
	if !strings.Contains(string(body), `"data":"tiny"`) || resp.StatusCode != 200 {
		t.Errorf("small body: %d %s", resp.StatusCode, body)
	}
	resp, _ = get(t, srv, "GET", "/big", "Accept-Encoding", "gzip", "If-None-Match", `"v1"`)
	if resp.StatusCode != http.StatusNotModified {
		t.Errorf("status %d, want 304", resp.StatusCode)
	}
	resp, _ = get(t, srv, "GET", "/encoded", "Accept-Encoding", "gzip")
	if resp.Header.Get("Content-Encoding") != "br" {
		t.Errorf("Content-Encoding %q, want the handler's br", resp.Header.Get("Content-Encoding"))
	}
}

// The ceiling counts uncompressed bytes: 20,000 repeated bytes compress to
// almost nothing but are still over the 10,000-byte ceiling.
func TestCompressKeepsResponseCeiling(t *testing.T) {
	srv := compressServer(t, nil)
	resp, body := get(t, srv, "GET", "/toolarge", "Accept-Encoding", "gzip")
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), "LIMIT_EXCEEDED") {
		t.Fatalf("status %d, body %q; want 400 LIMIT_EXCEEDED", resp.StatusCode, body)
	}
}

// A flushed first line reaches the client, decompressed, while the handler
// still waits to write the last.
func TestCompressStreamsFlushes(t *testing.T) {
	release := make(chan struct{})
	srv := compressServer(t, release)
	defer close(release)
	req, _ := http.NewRequest("GET", srv.URL+"/stream", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("Content-Encoding %q, want gzip", resp.Header.Get("Content-Encoding"))
	}
	zr, err := gzip.NewReader(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(zr).ReadString('\n')
		got <- line
	}()
	select {
	case line := <-got:
		if line != "first line\n" {
			t.Fatalf("first line %q", line)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the flushed first line did not arrive while the handler waited")
	}
}
