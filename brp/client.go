package brp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Defaults of a Client.
const (
	DefaultTimeout          = 10 * time.Second // spec §8: upstream register timeout
	DefaultMaxResponseBytes = 4 << 20          // a family of persons is a few kilobytes
)

// maxErrorBody bounds the register's 4xx answer that is passed on: a problem
// with invalidParams is a few hundred bytes, and the lookup's answer should
// not echo megabytes.
const maxErrorBody = 64 << 10

// Causes of an *UpstreamError without a usable answer; match them with
// errors.Is on the error Lookup returns.
var (
	// ErrTimeout: the register did not answer within the Client's Timeout.
	ErrTimeout = errors.New("brp: upstream timeout")
	// ErrUnreachable: no connection (refused, DNS, TLS, reset).
	ErrUnreachable = errors.New("brp: upstream unreachable")
	// ErrResponseTooLarge: the answer exceeded MaxResponseBytes; the rest
	// was not read.
	ErrResponseTooLarge = errors.New("brp: upstream response too large")
	// ErrMalformedResponse: a success answer that is not JSON.
	ErrMalformedResponse = errors.New("brp: upstream response is not JSON")
)

// Upstream answers a validated lookup body with the register's JSON answer.
// *Client (the real register over HTTP) and *Register (the embedded
// development register) implement it. A failure is an *UpstreamError.
type Upstream interface {
	Lookup(ctx context.Context, body []byte) ([]byte, error)
}

// Client posts lookups to a Haal Centraal "Personen bevragen" register. The
// zero value is not usable: BaseURL is required. A Client is safe for
// concurrent use; do not change its fields while it is in use.
type Client struct {
	// BaseURL is the register's API root; Lookup posts to BaseURL +
	// "/personen".
	BaseURL string
	// HTTPClient sends the requests; nil uses a client on
	// http.DefaultTransport that follows no redirect, so a lookup body
	// (which holds a citizen number) only ever goes to BaseURL. Give one
	// with its own Transport for PKIoverheid mTLS or a proxy.
	HTTPClient *http.Client
	// Header is added to every request, e.g. the register's X-API-Key.
	// Content-Type and Accept are always the spec's.
	Header http.Header
	// Timeout bounds one lookup from connect to the last byte;
	// DefaultTimeout when zero.
	Timeout time.Duration
	// MaxResponseBytes caps the answer read; DefaultMaxResponseBytes when
	// zero.
	MaxResponseBytes int64
}

// defaultHTTPClient refuses redirects: a 3xx is answered as an unexpected
// status instead of re-posting the body elsewhere. It is never modified.
var defaultHTTPClient = &http.Client{
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// UpstreamError reports a lookup the register did not answer with success.
type UpstreamError struct {
	// Status is the register's HTTP status; 0 when there was no answer
	// (timeout, no connection).
	Status int
	// Body is the register's answer to a 4xx, as received; nil otherwise
	// and when it exceeds 64 KiB.
	Body []byte
	// Detail is a sentence for the problem's detail member. It never holds
	// a URL or credentials; for a 5xx it is the register's own
	// detail/title/message, cut to 300 bytes.
	Detail string
	// Err is the cause: ErrTimeout, ErrUnreachable (wrapping the network
	// error), ErrResponseTooLarge, ErrMalformedResponse, the caller's
	// context error, or nil for an answer with a failure status.
	Err error
}

func (e *UpstreamError) Error() string {
	if e.Status != 0 {
		return fmt.Sprintf("brp: upstream status %d: %s", e.Status, e.Detail)
	}
	return "brp: " + e.Detail
}

func (e *UpstreamError) Unwrap() error { return e.Err }

// Timeout reports whether the register did not answer in time.
func (e *UpstreamError) Timeout() bool { return errors.Is(e.Err, ErrTimeout) }

// Lookup posts body to {BaseURL}/personen and returns the register's JSON
// answer. Every failure is an *UpstreamError. The body is sent unchanged
// and is never part of an error.
func (c *Client) Lookup(ctx context.Context, body []byte) ([]byte, error) {
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	limit := c.MaxResponseBytes
	if limit <= 0 {
		limit = DefaultMaxResponseBytes
	}
	hc := c.HTTPClient
	if hc == nil {
		hc = defaultHTTPClient
	}
	lctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	url := strings.TrimRight(c.BaseURL, "/") + "/personen"
	req, err := http.NewRequestWithContext(lctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		// The URL is configuration; it is not repeated in the error.
		return nil, &UpstreamError{Detail: "BRP API address is invalid", Err: fmt.Errorf("%w: %w", ErrUnreachable, errors.New("invalid base URL"))}
	}
	for k, vs := range c.Header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	req.Header.Set("Accept", "application/json")

	resp, err := hc.Do(req)
	if err != nil {
		return nil, c.transportError(ctx, lctx, timeout, err)
	}
	defer resp.Body.Close()

	if resp.ContentLength > limit {
		return nil, tooLarge(limit)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, c.transportError(ctx, lctx, timeout, err)
	}
	if int64(len(data)) > limit {
		return nil, tooLarge(limit)
	}

	switch s := resp.StatusCode; {
	case s >= 200 && s < 300:
		if !json.Valid(data) {
			return nil, &UpstreamError{Status: s, Detail: "BRP API returned a response that is not valid JSON", Err: ErrMalformedResponse}
		}
		return data, nil
	case s >= 400 && s < 500:
		e := &UpstreamError{Status: s, Detail: "BRP API returned an error"}
		if len(data) <= maxErrorBody {
			e.Body = data
		}
		return nil, e
	case s >= 500 && s < 600:
		return nil, &UpstreamError{Status: s, Detail: upstreamDetail(data)}
	default:
		return nil, &UpstreamError{Status: s, Detail: fmt.Sprintf("BRP API answered with unexpected status %d", s)}
	}
}

// transportError classifies a failed exchange: our own deadline is a
// timeout, the caller's cancellation is passed on, anything else means the
// register could not be reached. The underlying error is kept for errors.Is
// (syscall.ECONNREFUSED, …) but its text, which names the URL, is not used.
func (c *Client) transportError(parent, lctx context.Context, timeout time.Duration, err error) error {
	switch {
	case parent.Err() != nil:
		return &UpstreamError{Detail: "BRP API request was cancelled", Err: parent.Err()}
	case errors.Is(lctx.Err(), context.DeadlineExceeded):
		return &UpstreamError{
			Detail: fmt.Sprintf("BRP API did not respond within %d ms", timeout.Milliseconds()),
			Err:    fmt.Errorf("%w: %w", ErrTimeout, err),
		}
	}
	var te interface{ Timeout() bool }
	if errors.As(err, &te) && te.Timeout() {
		return &UpstreamError{
			Detail: fmt.Sprintf("BRP API did not respond within %d ms", timeout.Milliseconds()),
			Err:    fmt.Errorf("%w: %w", ErrTimeout, err),
		}
	}
	return &UpstreamError{Detail: "BRP API could not be reached", Err: fmt.Errorf("%w: %w", ErrUnreachable, err)}
}

func tooLarge(limit int64) error {
	return &UpstreamError{
		Detail: fmt.Sprintf("BRP API response exceeds the limit of %d bytes", limit),
		Err:    ErrResponseTooLarge,
	}
}

// upstreamDetail takes a 5xx answer's detail, title or message (the first
// present), else a fixed sentence.
func upstreamDetail(data []byte) string {
	var p struct {
		Detail  any `json:"detail"`
		Title   any `json:"title"`
		Message any `json:"message"`
	}
	if json.Unmarshal(data, &p) == nil {
		for _, v := range []any{p.Detail, p.Title, p.Message} {
			if s, ok := v.(string); ok && strings.TrimSpace(s) != "" {
				return cut(strings.TrimSpace(s), 300)
			}
		}
	}
	return "BRP API request failed"
}

// cut shortens s to at most n bytes on a rune boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8Start(s[n]) {
		n--
	}
	return s[:n] + "…"
}
