package httpapi

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/regelkit/regelkit/servers/internal/openapi"
)

// Codes of the request-hygiene and limit errors, shared by every server.
const (
	// CodeUnsupportedMediaType (415): a JSON route got a body that is not
	// declared as JSON.
	CodeUnsupportedMediaType = "UNSUPPORTED_MEDIA_TYPE"
	// CodeLimitExceeded: an evaluation or a response hit one of its bounds
	// (503 for a time limit, 400 for any other).
	CodeLimitExceeded = "LIMIT_EXCEEDED"
)

// DefaultMaxResponseBytes is the response ceiling of every route unless the
// router or the route sets its own: 32 MB, three times the largest
// response the explorer's example data and its 10,000-model benchmark need.
const DefaultMaxResponseBytes = 32 << 20

// IsJSONMediaType reports whether a Content-Type header value declares
// JSON: application/json or any +json type, with or without parameters
// ("application/json; charset=utf-8", "application/problem+json").
func IsJSONMediaType(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false
	}
	return mt == "application/json" || (strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json"))
}

// RequireJSON refuses a request body that is not declared as JSON with 415
// UNSUPPORTED_MEDIA_TYPE. A request without a body passes (the handler's
// own validation names the missing fields). Requiring the header is what
// keeps cross-site "simple" requests out: a browser sends text/plain,
// multipart/form-data or a form encoding without a CORS preflight, never
// application/json.
func RequireJSON(r *http.Request) error {
	ct := r.Header.Get("Content-Type")
	if ct == "" && (r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0) {
		return nil
	}
	if IsJSONMediaType(ct) {
		return nil
	}
	if ct == "" {
		return NewError(http.StatusUnsupportedMediaType, CodeUnsupportedMediaType,
			"the request body must be JSON, sent with Content-Type: application/json")
	}
	return Errorf(http.StatusUnsupportedMediaType, CodeUnsupportedMediaType,
		"the request body must be JSON, sent with Content-Type: application/json, not %q", Excerpt(ct, 100))
}

// takesJSON reports whether an operation documents a JSON request body.
func takesJSON(body *openapi.RequestBody) bool {
	if body == nil {
		return false
	}
	for ct := range body.Content {
		if IsJSONMediaType(ct) {
			return true
		}
	}
	return false
}

// Excerpt returns s cut to at most n characters (runes) at a rune
// boundary, with "…" and the count of the characters left out, so messages
// quote caller input in bounded size: Excerpt("abcdef", 3) is
// "abc… (3 more characters)". Invalid UTF-8 counts byte by byte.
func Excerpt(s string, n int) string {
	if n < 0 {
		n = 0
	}
	if len(s) <= n {
		return s
	}
	cut, count := 0, 0
	for cut < len(s) && count < n {
		_, size := utf8.DecodeRuneInString(s[cut:])
		cut += size
		count++
	}
	if cut >= len(s) {
		return s
	}
	return s[:cut] + fmt.Sprintf("… (%d more characters)", utf8.RuneCountInString(s[cut:]))
}

// limitExceeder is the shape of every engine's LimitError
// (memstore.LimitError, feel.LimitError, shacl.LimitError, …): matched
// structurally so this package imports no engine.
type limitExceeder interface {
	error
	LimitExceeded() string
}

// LimitError maps an error that is or wraps an engine's limit error to
// LIMIT_EXCEEDED: 503 when the limit was Timeout (the work may succeed when
// the server is less busy or the bound is raised), 400 for any other limit
// (the request asks for too much). The message is the engine's, which
// names the limit and its bound. Any other error gives nil.
//
// The router applies it to every error a handler returns, also when a
// handler wrapped the limit error in an *Error of its own.
func LimitError(err error) *Error {
	var le limitExceeder
	if err == nil || !errors.As(err, &le) {
		return nil
	}
	status := http.StatusBadRequest
	if le.LimitExceeded() == "Timeout" {
		status = http.StatusServiceUnavailable
	}
	return &Error{Status: status, Code: CodeLimitExceeded, Message: Excerpt(le.Error(), 300), Cause: err, limit: le.LimitExceeded()}
}

// timeoutError is the answer to a handler that ran out of the request's
// time (its context deadline) without an engine saying which bound.
func timeoutError(err error) *Error {
	return &Error{Status: http.StatusServiceUnavailable, Code: CodeLimitExceeded,
		Message: "the request exceeded its time limit (Timeout)", Cause: err, limit: "Timeout"}
}

func isDeadline(err error) bool { return errors.Is(err, context.DeadlineExceeded) }

// responseTooLarge refuses a response over the route's ceiling.
func responseTooLarge(size, limit int64) *Error {
	e := Errorf(http.StatusBadRequest, CodeLimitExceeded,
		"the response (%s) exceeds this endpoint's limit of %s (MaxResponseBytes); narrow the request",
		formatSize(size), formatBytes(limit))
	e.limit = "MaxResponseBytes"
	return e
}

func formatSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// ErrResponseTooLarge is returned by a response writer's Write when the
// bytes written would pass the route's ceiling; nothing of that Write is
// sent.
var ErrResponseTooLarge = errors.New("httpapi: response exceeds the route's MaxResponseBytes")

// responseLimit finds the ceiling of the route serving w (0: none).
func responseLimit(w http.ResponseWriter) int64 {
	for w != nil {
		if tw, ok := w.(*trackingWriter); ok && tw.limit > 0 {
			return tw.limit
		}
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return 0
		}
		w = u.Unwrap()
	}
	return 0
}
