package chainapi_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"testing"
	"time"
)

// TestListDMNsCatalogueGzip: the 10,000-model listing (about 11 MB of JSON)
// crosses the wire under 1.5 MB when the client accepts gzip, and
// decompresses to the full listing.
func TestListDMNsCatalogueGzip(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 500,000-triple catalogue")
	}
	c := catalogueClient(t)
	path := "/v1/dmns?endpoint=" + url.QueryEscape(catalogueURL)
	c.Get(path).ExpectStatus(t, 200) // fill the cache
	for _, gz := range []bool{false, true} {
		req, _ := http.NewRequest("GET", c.URL()+path, nil)
		if gz {
			req.Header.Set("Accept-Encoding", "gzip")
		} else {
			req.Header.Set("Accept-Encoding", "identity")
		}
		start := time.Now()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		wire, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		took := time.Since(start)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("status %d, %v", resp.StatusCode, err)
		}
		body := wire
		if gz {
			if resp.Header.Get("Content-Encoding") != "gzip" {
				t.Fatalf("Content-Encoding %q, want gzip", resp.Header.Get("Content-Encoding"))
			}
			if len(wire) >= 1_500_000 {
				t.Errorf("gzip listing is %d bytes on the wire, want under 1.5 MB", len(wire))
			}
			zr, err := gzip.NewReader(bytes.NewReader(wire))
			if err != nil {
				t.Fatal(err)
			}
			if body, err = io.ReadAll(zr); err != nil {
				t.Fatal(err)
			}
		}
		var env struct {
			Data struct {
				DMNs []json.RawMessage `json:"dmns"`
			} `json:"data"`
		}
		if err := json.Unmarshal(body, &env); err != nil || len(env.Data.DMNs) != 10000 {
			t.Fatalf("gzip=%v: %d models, %v", gz, len(env.Data.DMNs), err)
		}
		t.Logf("GET /v1/dmns cached, gzip=%v: %d bytes on the wire (%d uncompressed) in %v", gz, len(wire), len(body), took)
	}
}
