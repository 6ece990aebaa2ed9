package httpapi

import (
	"fmt"
	"net/http"
)

// Error codes shared by the servers. Servers may use further codes of their
// own specification with NewError.
const (
	CodeInvalidRequest   = "INVALID_REQUEST"
	CodeMalformedBody    = "MALFORMED_BODY"
	CodePayloadTooLarge  = "PAYLOAD_TOO_LARGE"
	CodeNotFound         = "NOT_FOUND"
	CodeMethodNotAllowed = "METHOD_NOT_ALLOWED"
	CodeForbidden        = "FORBIDDEN"
	CodeInternal         = "INTERNAL_ERROR"
)

// Error is an API failure: an HTTP status, a code from the specification and
// a message a client can act on. Handlers return it; the router writes it.
type Error struct {
	Status  int
	Code    string
	Message string
	Details any         // optional, serialised as error.details
	Header  http.Header // optional extra response headers (e.g. Allow)
	Cause   error       // optional, never sent to the client
	// DevDetail is appended to the message in development only: the
	// internal cause (an address, a driver message) that helps a developer
	// and must not reach clients elsewhere. It is also logged with 5xx.
	DevDetail string
	// limit is the Limits field a LIMIT_EXCEEDED answer reports, for
	// RouterOptions.OnLimit.
	limit string
}

func (e *Error) Error() string {
	if e.Cause != nil {
		return fmt.Sprintf("%s (%d): %s: %v", e.Code, e.Status, e.Message, e.Cause)
	}
	return fmt.Sprintf("%s (%d): %s", e.Code, e.Status, e.Message)
}

func (e *Error) Unwrap() error { return e.Cause }

// NewError returns an *Error with the given status, code and message.
func NewError(status int, code, message string) *Error {
	return &Error{Status: status, Code: code, Message: message}
}

// Errorf is NewError with a formatted message.
func Errorf(status int, code, format string, args ...any) *Error {
	return &Error{Status: status, Code: code, Message: fmt.Sprintf(format, args...)}
}

// InvalidRequest returns a 400 INVALID_REQUEST error.
func InvalidRequest(format string, args ...any) *Error {
	return Errorf(http.StatusBadRequest, CodeInvalidRequest, format, args...)
}

// NotFound returns a 404 NOT_FOUND error.
func NotFound(format string, args ...any) *Error {
	return Errorf(http.StatusNotFound, CodeNotFound, format, args...)
}
