package httpapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"time"
)

// TimestampLayout is the envelope's timestamp format: UTC with exactly three
// fraction digits and a Z, e.g. 2026-01-15T10:20:30.123Z.
const TimestampLayout = "2006-01-02T15:04:05.000Z"

// Timestamp formats t in TimestampLayout.
func Timestamp(t time.Time) string { return t.UTC().Format(TimestampLayout) }

// Envelope is the response body of the explorer and business APIs.
type Envelope struct {
	Success   bool       `json:"success"`
	Data      any        `json:"data,omitempty"`
	Error     *ErrorBody `json:"error,omitempty"`
	Timestamp string     `json:"timestamp"`
}

// ErrorBody is the error member of a failed Envelope.
type ErrorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Details any    `json:"details,omitempty"`
}

// now is the clock used for envelope timestamps; tests replace it.
var now = time.Now

// MarshalJSON encodes v like json.Marshal but without HTML escaping, so
// "->" and "<" reach clients as written, and with a final newline. JSON
// responses are never embedded in HTML, where the escaping would matter.
func MarshalJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// WriteJSON writes v as JSON with the given status. A body over the
// route's response ceiling (RouterOptions.MaxResponseBytes, ResponseLimit)
// is not written: the returned 400 LIMIT_EXCEEDED *Error is, when the
// handler returns it.
func WriteJSON(w http.ResponseWriter, status int, v any) error {
	body, err := MarshalJSON(v)
	if err != nil {
		return err
	}
	if limit := responseLimit(w); limit > 0 && int64(len(body)) > limit {
		return responseTooLarge(int64(len(body)), limit)
	}
	return writeBody(w, status, body)
}

// writeBody writes a marshalled JSON body, past any response ceiling: error
// envelopes are small and must always get out.
func writeBody(w http.ResponseWriter, status int, body []byte) error {
	if tw, ok := w.(*trackingWriter); ok {
		w = tw.unlimited()
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, err := w.Write(body)
	return err
}

// WriteData writes {success:true, data, timestamp}. A nil data writes
// {success:true, timestamp}.
func WriteData(w http.ResponseWriter, status int, data any) error {
	return WriteJSON(w, status, Envelope{Success: true, Data: data, Timestamp: Timestamp(now())})
}

// WriteError writes the failure envelope for e.
func WriteError(w http.ResponseWriter, e *Error) error {
	if e.Header != nil {
		for k, vs := range e.Header {
			for _, v := range vs {
				w.Header().Add(k, v)
			}
		}
	}
	body, err := MarshalJSON(Envelope{
		Error:     &ErrorBody{Code: e.Code, Message: e.Message, Details: e.Details},
		Timestamp: Timestamp(now()),
	})
	if err != nil {
		return err
	}
	return writeBody(w, e.Status, body)
}
