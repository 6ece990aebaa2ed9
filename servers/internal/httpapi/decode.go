package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
)

// DefaultMaxBodyBytes is the body limit of every JSON route unless the route
// sets its own: 10 MB, the explorer specification's DMN-validation limit,
// applied to every body as the upstream service did.
const DefaultMaxBodyBytes = 10 << 20

// DecodeJSON reads the request body as one JSON value into dst.
//
// An empty body leaves dst untouched, so the handler's own validation reports
// the missing fields. Failures are *Error values ready to return from a
// handler: a syntax error or trailing data is 400 MALFORMED_BODY, a body over
// the route's limit 413 PAYLOAD_TOO_LARGE, a value of the wrong JSON type 400
// INVALID_REQUEST naming the field ("inputs must be an object"), a body
// not declared as JSON 415 UNSUPPORTED_MEDIA_TYPE (RequireJSON).
func DecodeJSON(r *http.Request, dst any) error {
	if r.Body == nil {
		return nil
	}
	if err := RequireJSON(r); err != nil {
		return err
	}
	data, err := io.ReadAll(r.Body)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return payloadTooLarge(tooLarge.Limit)
		}
		return Errorf(http.StatusBadRequest, CodeMalformedBody, "could not read request body: %v", err)
	}
	return decodeBytes(data, dst)
}

func payloadTooLarge(limit int64) *Error {
	return Errorf(http.StatusRequestEntityTooLarge, CodePayloadTooLarge,
		"request body exceeds the limit of %s", formatBytes(limit))
}

func decodeBytes(data []byte, dst any) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(dst); err != nil {
		return jsonError(data, err)
	}
	// Exactly one JSON value: anything after it but white space is malformed.
	if _, err := dec.Token(); err != io.EOF {
		off := dec.InputOffset()
		line, col := position(data, off)
		return Errorf(http.StatusBadRequest, CodeMalformedBody,
			"malformed JSON body: unexpected data after the JSON value at line %d, column %d", line, col)
	}
	return nil
}

func jsonError(data []byte, err error) *Error {
	var syntax *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		// Offset counts the offending byte; point at it, not past it.
		line, col := position(data, max(syntax.Offset-1, 0))
		return Errorf(http.StatusBadRequest, CodeMalformedBody,
			"malformed JSON body at line %d, column %d: %s", line, col, syntax.Error())
	case errors.Is(err, io.ErrUnexpectedEOF):
		return NewError(http.StatusBadRequest, CodeMalformedBody, "malformed JSON body: unexpected end of input")
	case errors.As(err, &typeErr):
		field := typeErr.Field
		if field == "" {
			return Errorf(http.StatusBadRequest, CodeInvalidRequest,
				"request body must be %s, not %s", jsonKind(typeErr.Type), typeErr.Value)
		}
		return Errorf(http.StatusBadRequest, CodeInvalidRequest,
			"%s must be %s, not %s", field, jsonKind(typeErr.Type), typeErr.Value)
	}
	return Errorf(http.StatusBadRequest, CodeInvalidRequest, "invalid request body: %v", err)
}

// jsonKind names the JSON type a Go type decodes from, with an article.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.String {
			return "an array of strings"
		}
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	if t == reflect.TypeFor[json.Number]() {
		return "a number"
	}
	return "a " + t.String()
}

// position turns a byte offset into a 1-based line and column.
func position(data []byte, off int64) (line, col int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	line, col = 1, 1
	for _, b := range data[:off] {
		if b == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}

func formatBytes(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
