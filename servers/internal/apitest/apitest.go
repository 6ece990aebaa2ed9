package apitest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Client sends requests to one test server.
type Client struct {
	t   testing.TB
	srv *httptest.Server
}

// New serves h on a fresh httptest.Server closed at the end of the test.
func New(t testing.TB, h http.Handler) *Client {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &Client{t: t, srv: srv}
}

// URL is the server's base URL.
func (c *Client) URL() string { return c.srv.URL }

// Response is a finished response with its body read.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Do sends a request. body may be nil, a string/[]byte sent as is, or any
// other value sent as JSON. headers alternate name, value.
func (c *Client) Do(method, path string, body any, headers ...string) *Response {
	c.t.Helper()
	var rd io.Reader
	contentType := ""
	switch b := body.(type) {
	case nil:
	case string:
		rd, contentType = strings.NewReader(b), "application/json"
	case []byte:
		rd, contentType = bytes.NewReader(b), "application/json"
	default:
		data, err := json.Marshal(b)
		if err != nil {
			c.t.Fatalf("marshal request body: %v", err)
		}
		rd, contentType = bytes.NewReader(data), "application/json"
	}
	req, err := http.NewRequest(method, c.srv.URL+path, rd)
	if err != nil {
		c.t.Fatalf("new request: %v", err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := c.srv.Client().Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatalf("read body: %v", err)
	}
	return &Response{Status: resp.StatusCode, Header: resp.Header, Body: data}
}

// Get is Do("GET", path, nil, headers...).
func (c *Client) Get(path string, headers ...string) *Response {
	c.t.Helper()
	return c.Do(http.MethodGet, path, nil, headers...)
}

// Post is Do("POST", path, body).
func (c *Client) Post(path string, body any, headers ...string) *Response {
	c.t.Helper()
	return c.Do(http.MethodPost, path, body, headers...)
}

// JSON decodes the body into a generic value (numbers as json.Number).
func (r *Response) JSON(t testing.TB) map[string]any {
	t.Helper()
	var v map[string]any
	dec := json.NewDecoder(bytes.NewReader(r.Body))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("response body is not a JSON object: %v\n%s", err, r.Body)
	}
	return v
}

// Decode decodes the body into v.
func (r *Response) Decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decode response: %v\n%s", err, r.Body)
	}
}

// ExpectStatus fails the test unless the status is want.
func (r *Response) ExpectStatus(t testing.TB, want int) *Response {
	t.Helper()
	if r.Status != want {
		t.Fatalf("status %d, want %d; body: %s", r.Status, want, r.Body)
	}
	return r
}

// Envelope is the decoded response envelope.
type Envelope struct {
	Success bool            `json:"success"`
	Data    json.RawMessage `json:"data"`
	Error   *struct {
		Code    string          `json:"code"`
		Message string          `json:"message"`
		Details json.RawMessage `json:"details"`
	} `json:"error"`
	Timestamp string `json:"timestamp"`
}

// Envelope decodes the body as an envelope and checks its invariants: a
// timestamp in the envelope format; data xor error matching success.
func (r *Response) Envelope(t testing.TB) *Envelope {
	t.Helper()
	var e Envelope
	r.Decode(t, &e)
	if !timestampRE.MatchString(e.Timestamp) {
		t.Errorf("envelope timestamp %q is not ISO 8601 UTC with milliseconds", e.Timestamp)
	}
	if e.Success && e.Error != nil {
		t.Errorf("success envelope carries an error: %s", r.Body)
	}
	if !e.Success && (e.Error == nil || e.Error.Code == "" || e.Error.Message == "") {
		t.Errorf("failure envelope lacks error.code/message: %s", r.Body)
	}
	return &e
}

// ExpectError checks a failure envelope with the given status and code and
// returns its message.
func (r *Response) ExpectError(t testing.TB, status int, code string) string {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d; body: %s", r.Status, status, r.Body)
	}
	e := r.Envelope(t)
	if e.Success || e.Error == nil {
		t.Fatalf("want a failure envelope, got %s", r.Body)
	}
	if e.Error.Code != code {
		t.Fatalf("error code %q, want %q (message %q)", e.Error.Code, code, e.Error.Message)
	}
	return e.Error.Message
}

// Data checks a success envelope with status want and decodes data into v
// (v may be nil).
func (r *Response) Data(t testing.TB, want int, v any) {
	t.Helper()
	r.ExpectStatus(t, want)
	e := r.Envelope(t)
	if !e.Success {
		t.Fatalf("want success, got %s", r.Body)
	}
	if v != nil {
		if err := json.Unmarshal(e.Data, v); err != nil {
			t.Fatalf("decode data: %v\n%s", err, e.Data)
		}
	}
}
