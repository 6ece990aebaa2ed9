package httpapi_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/servers/internal/apitest"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/openapi"
)

type echoBody struct {
	Name  *string        `json:"name"`
	Count int            `json:"count"`
	Tags  []string       `json:"tags"`
	Meta  map[string]any `json:"meta"`
}

// newTestServer builds a router with a few routes behind the real
// middleware chain and returns a client plus the captured log output.
func newTestServer(t *testing.T, dev bool, origins ...string) (*apitest.Client, *bytes.Buffer) {
	t.Helper()
	var logs bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&logs, nil))
	r := httpapi.NewRouter(httpapi.RouterOptions{Development: dev, Logger: logger, MaxBodyBytes: 1024})
	r.Handle("POST", "/v1/echo", func(w http.ResponseWriter, req *http.Request) error {
		var b echoBody
		if err := httpapi.DecodeJSON(req, &b); err != nil {
			return err
		}
		if b.Name == nil {
			return httpapi.InvalidRequest("name is required")
		}
		return httpapi.WriteData(w, http.StatusOK, b)
	}, openapi.Operation{Summary: "echo"})
	r.Handle("GET", "/v1/items/{id}", func(w http.ResponseWriter, req *http.Request) error {
		return httpapi.WriteData(w, http.StatusOK, map[string]string{"path": req.URL.Path})
	}, openapi.Operation{Summary: "item"}, httpapi.Legacy())
	r.Handle("GET", "/v1/panic", func(w http.ResponseWriter, req *http.Request) error {
		panic("secret internals: password=hunter2")
	}, openapi.Operation{Summary: "panics"})
	r.Handle("GET", "/v1/fail", func(w http.ResponseWriter, req *http.Request) error {
		return errors.New("database at 10.0.0.7 refused the connection")
	}, openapi.Operation{Summary: "fails"})
	h := httpapi.Middleware(r, httpapi.MiddlewareOptions{Version: "9.9.9", Logger: logger, CORSOrigins: origins, Development: dev})
	return apitest.New(t, h), &logs
}

func TestDecodeErrorsThroughMiddleware(t *testing.T) {
	c, _ := newTestServer(t, false)
	cases := []struct {
		name, body string
		status     int
		code       string
		mention    string
	}{
		{"malformed", `{bad`, 400, "MALFORMED_BODY", "line 1, column 2"},
		{"truncated", `{"name": "x"`, 400, "MALFORMED_BODY", "unexpected end"},
		{"trailing data", `{"name":"x"} {"name":"y"}`, 400, "MALFORMED_BODY", "after the JSON value"},
		{"too large", `{"name":"` + strings.Repeat("x", 2000) + `"}`, 413, "PAYLOAD_TOO_LARGE", "1 KB"},
		{"wrong type string", `{"name": 42}`, 400, "INVALID_REQUEST", "name must be a string"},
		{"wrong type int", `{"name":"x","count":"7"}`, 400, "INVALID_REQUEST", "count must be an integer"},
		{"wrong type array", `{"name":"x","tags":"a"}`, 400, "INVALID_REQUEST", "tags must be an array of strings"},
		{"wrong type object", `{"name":"x","meta":[1]}`, 400, "INVALID_REQUEST", "meta must be an object"},
		{"not an object", `[1,2]`, 400, "INVALID_REQUEST", "request body must be an object"},
		{"empty body", ``, 400, "INVALID_REQUEST", "name is required"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := c.Post("/v1/echo", tc.body)
			msg := resp.ExpectError(t, tc.status, tc.code)
			if !strings.Contains(msg, tc.mention) {
				t.Errorf("message %q does not mention %q", msg, tc.mention)
			}
			if got := resp.Header.Get("API-Version"); got != "9.9.9" {
				t.Errorf("API-Version = %q", got)
			}
		})
	}
	var got struct {
		Name  string   `json:"name"`
		Count int      `json:"count"`
		Tags  []string `json:"tags"`
	}
	c.Post("/v1/echo", `{"name":"ok","count":3,"tags":["a"]}`).Data(t, 200, &got)
	if got.Name != "ok" || got.Count != 3 || len(got.Tags) != 1 {
		t.Errorf("echo = %+v", got)
	}
}

func TestChunkedBodyOverLimit(t *testing.T) {
	c, _ := newTestServer(t, false)
	// A body without Content-Length is cut off by the reader limit, not the header check.
	req, _ := http.NewRequest("POST", c.URL()+"/v1/echo", struct{ *strings.Reader }{strings.NewReader(`{"name":"` + strings.Repeat("y", 5000) + `"}`)})
	req.ContentLength = -1
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var env apitest.Envelope
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 413 || env.Error == nil || env.Error.Code != "PAYLOAD_TOO_LARGE" {
		t.Fatalf("status %d, envelope %+v", resp.StatusCode, env.Error)
	}
}

func TestUnknownRouteAndMethod(t *testing.T) {
	c, _ := newTestServer(t, false)
	msg := c.Get("/v1/nope").ExpectError(t, 404, "NOT_FOUND")
	if msg != "Endpoint not found: GET /v1/nope" {
		t.Errorf("message %q", msg)
	}
	resp := c.Do("DELETE", "/v1/echo", nil)
	resp.ExpectError(t, 405, "METHOD_NOT_ALLOWED")
	if got := resp.Header.Get("Allow"); got != "POST" {
		t.Errorf("Allow = %q, want POST", got)
	}
	if resp.Header.Get("API-Version") == "" {
		t.Error("405 without API-Version")
	}
}

func TestPanicAndErrorDoNotLeak(t *testing.T) {
	c, logs := newTestServer(t, false)
	for _, path := range []string{"/v1/panic", "/v1/fail"} {
		resp := c.Get(path)
		msg := resp.ExpectError(t, 500, "INTERNAL_ERROR")
		if msg != "Internal server error" {
			t.Errorf("%s: message %q leaks details", path, msg)
		}
		if bytes.Contains(resp.Body, []byte("hunter2")) || bytes.Contains(resp.Body, []byte("10.0.0.7")) {
			t.Errorf("%s: body leaks internals: %s", path, resp.Body)
		}
	}
	if !strings.Contains(logs.String(), "panic serving request") {
		t.Error("panic not logged")
	}
	dev, _ := newTestServer(t, true)
	msg := dev.Get("/v1/panic").ExpectError(t, 500, "INTERNAL_ERROR")
	if !strings.Contains(msg, "secret internals") {
		t.Errorf("development message %q should carry the panic value", msg)
	}
}

func TestLegacyAlias(t *testing.T) {
	c, _ := newTestServer(t, false)
	v1 := c.Get("/v1/items/a%20b")
	v1.ExpectStatus(t, 200)
	if v1.Header.Get("Deprecation") != "" {
		t.Error("/v1 route must not be deprecated")
	}
	legacy := c.Get("/api/items/a%20b")
	legacy.ExpectStatus(t, 200)
	if got := legacy.Header.Get("Deprecation"); got != "true" {
		t.Errorf("Deprecation = %q", got)
	}
	if got := legacy.Header.Get("Link"); got != `</v1/items/a%20b>; rel="successor-version"` {
		t.Errorf("Link = %q", got)
	}
	var a, b map[string]any
	json.Unmarshal(v1.Body, &a)
	json.Unmarshal(legacy.Body, &b)
	if a["data"].(map[string]any)["path"] != "/v1/items/a b" || b["data"].(map[string]any)["path"] != "/api/items/a b" {
		t.Errorf("bodies: %s / %s", v1.Body, legacy.Body)
	}
}

func TestRequestIDAndAccessLog(t *testing.T) {
	c, logs := newTestServer(t, false)
	resp := c.Post("/v1/echo", `{"name":"BSN 999993653"}`, "X-Request-ID", "req-123")
	if got := resp.Header.Get("X-Request-ID"); got != "req-123" {
		t.Errorf("X-Request-ID = %q, want the incoming one", got)
	}
	gen := c.Get("/v1/items/1", "X-Request-ID", `bad"id`)
	if id := gen.Header.Get("X-Request-ID"); len(id) != 32 {
		t.Errorf("generated request id %q", id)
	}
	var line map[string]any
	for _, l := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(l), &m) == nil && m["request_id"] == "req-123" {
			line = m
		}
	}
	if line == nil {
		t.Fatalf("no access log line for req-123:\n%s", logs)
	}
	for _, k := range []string{"method", "path", "status", "duration_ms"} {
		if _, ok := line[k]; !ok {
			t.Errorf("access log lacks %s: %v", k, line)
		}
	}
	if strings.Contains(logs.String(), "999993653") {
		t.Error("request body reached the log")
	}
}

func TestCORS(t *testing.T) {
	c, _ := newTestServer(t, false, "https://app.example")
	ok := c.Get("/v1/items/1", "Origin", "https://app.example")
	if got := ok.Header.Get("Access-Control-Allow-Origin"); got != "https://app.example" {
		t.Errorf("allowed origin: ACAO = %q", got)
	}
	other := c.Get("/v1/items/1", "Origin", "https://app.example.evil")
	if got := other.Header.Get("Access-Control-Allow-Origin"); got != "" {
		t.Errorf("unlisted origin got ACAO %q", got)
	}
	pre := c.Do("OPTIONS", "/v1/echo", nil, "Origin", "https://app.example", "Access-Control-Request-Method", "POST")
	if pre.Status != 204 || pre.Header.Get("Access-Control-Allow-Methods") == "" {
		t.Errorf("preflight: %d %v", pre.Status, pre.Header)
	}
	c.Do("OPTIONS", "/v1/echo", nil, "Origin", "https://x.example", "Access-Control-Request-Method", "POST").
		ExpectError(t, 403, "FORBIDDEN")
}

func TestRoutesAreDocumented(t *testing.T) {
	r := httpapi.NewRouter(httpapi.RouterOptions{})
	r.Handle("GET", "/v1/things/{id}", func(http.ResponseWriter, *http.Request) error { return nil },
		openapi.Operation{Summary: "thing"}, httpapi.Legacy())
	doc := r.Doc()
	for _, rt := range r.Routes() {
		if !doc.Has(rt.Method, rt.Path) {
			t.Errorf("%s %s missing from the document", rt.Method, rt.Path)
		}
	}
	op := doc.Operation("GET", "/api/things/{id}")
	if op == nil || !op.Deprecated {
		t.Fatalf("legacy operation not marked deprecated: %+v", op)
	}
	if len(op.Parameters) != 1 || op.Parameters[0].Name != "id" || op.Parameters[0].In != "path" {
		t.Errorf("path parameter not derived: %+v", op.Parameters)
	}
}

func TestJSONIsNotHTMLEscaped(t *testing.T) {
	r := httpapi.NewRouter(httpapi.RouterOptions{})
	r.Handle("GET", "/v1/chain", func(w http.ResponseWriter, req *http.Request) error {
		return httpapi.WriteData(w, http.StatusOK, map[string]string{"chainId": "A->B", "html": "<b>&</b>"})
	}, openapi.Operation{})
	resp := apitest.New(t, r).Get("/v1/chain")
	if !bytes.Contains(resp.Body, []byte(`"chainId":"A->B"`)) || !bytes.Contains(resp.Body, []byte(`"html":"<b>&</b>"`)) {
		t.Errorf("body %s", resp.Body)
	}
}

func TestExpectedFailuresAreLoggedWithoutMessage(t *testing.T) {
	var logs bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&logs, nil))
	r := httpapi.NewRouter(httpapi.RouterOptions{Logger: logger})
	r.Handle("POST", "/v1/run", func(w http.ResponseWriter, req *http.Request) error {
		return httpapi.NewError(http.StatusInternalServerError, "EXECUTION_ERROR", "M: value 1980-01-23 not allowed")
	}, openapi.Operation{})
	msg := apitest.New(t, r).Post("/v1/run", `{}`).ExpectError(t, 500, "EXECUTION_ERROR")
	if !strings.Contains(msg, "1980-01-23") {
		t.Errorf("the client still gets the message: %q", msg)
	}
	if strings.Contains(logs.String(), "1980-01-23") || !strings.Contains(logs.String(), "EXECUTION_ERROR") {
		t.Errorf("log must carry the code, never the message: %s", logs.String())
	}
}
