package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/servers/internal/apitest"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/openapi"
)

// TestWriteEncodedData: pre-encoded parts become the envelope's data as
// written, and the route's response ceiling still holds.
func TestWriteEncodedData(t *testing.T) {
	r := httpapi.NewRouter(httpapi.RouterOptions{MaxResponseBytes: 200})
	r.Handle("GET", "/v1/encoded", func(w http.ResponseWriter, req *http.Request) error {
		return httpapi.WriteEncodedData(w, http.StatusOK, []byte(`{"dmns":`), []byte(`[{"a":"->"}]`), []byte(`,"cached":true}`))
	}, openapi.Operation{})
	r.Handle("GET", "/v1/encoded-big", func(w http.ResponseWriter, req *http.Request) error {
		return httpapi.WriteEncodedData(w, http.StatusOK, []byte(`"`+strings.Repeat("x", 300)+`"`))
	}, openapi.Operation{})
	c := apitest.New(t, r)

	resp := c.Get("/v1/encoded").ExpectStatus(t, 200)
	body := string(resp.Body)
	const prefix = `{"success":true,"data":{"dmns":[{"a":"->"}],"cached":true},"timestamp":"`
	if !strings.HasPrefix(body, prefix) || !strings.HasSuffix(body, "Z\"}\n") || len(body) != len(prefix)+len("2026-01-15T10:20:30.123Z\"}\n") {
		t.Errorf("body %q", body)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	msg := c.Get("/v1/encoded-big").ExpectError(t, 400, "LIMIT_EXCEEDED")
	if !strings.Contains(msg, "200 bytes") {
		t.Errorf("message %q must name the ceiling", msg)
	}
}
