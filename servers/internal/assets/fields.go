package assets

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/regelkit/regelkit/servers/internal/httpapi"
)

// fields reads an upsert body member by member and collects every field
// error, in these forms: "<field> is required",
// "<field> must be a string | an integer | an array | an array of strings |
// an object", "<field> must be one of: a, b", "<field> must not be blank".
// JSON null counts as absent; a body that is not an object has no fields.
type fields struct {
	m    map[string]any
	errs []string
}

// readFields decodes the request body (400 MALFORMED_BODY / 413 on bad
// JSON).
func readFields(r *http.Request) (*fields, error) {
	var v any
	if err := httpapi.DecodeJSON(r, &v); err != nil {
		return nil, err
	}
	m, _ := v.(map[string]any)
	return &fields{m: m}, nil
}

func (f *fields) fail(msg string) { f.errs = append(f.errs, msg) }

// err is the collected INVALID_REQUEST, or nil.
func (f *fields) err() error {
	if len(f.errs) == 0 {
		return nil
	}
	return httpapi.InvalidRequest("%s", strings.Join(f.errs, "; "))
}

func (f *fields) get(name string) (any, bool) {
	v, ok := f.m[name]
	return v, ok && v != nil
}

// text reads a string; required fields must be present, nonBlank ones must
// hold more than white space. Absent optional strings are nil.
func (f *fields) text(name string, required, nonBlank bool) *string {
	v, ok := f.get(name)
	if !ok {
		if required {
			f.fail(name + " is required")
		}
		return nil
	}
	s, isString := v.(string)
	switch {
	case !isString:
		f.fail(name + " must be a string")
		return nil
	case nonBlank && strings.TrimSpace(s) == "":
		f.fail(name + " must not be blank")
		return nil
	}
	return &s
}

// requiredText is text for a required field, "" after an error.
func (f *fields) requiredText(name string, nonBlank bool) string {
	if s := f.text(name, true, nonBlank); s != nil {
		return *s
	}
	return ""
}

// optionalText is text for an optional field; an empty string counts as
// absent (nil).
func (f *fields) optionalText(name string) *string {
	s := f.text(name, false, false)
	if s != nil && *s == "" {
		return nil
	}
	return s
}

// oneOf reads an optional string restricted to values, def when absent.
func (f *fields) oneOf(name, def string, values ...string) string {
	s := f.text(name, false, false)
	if s == nil {
		return def
	}
	for _, v := range values {
		if *s == v {
			return v
		}
	}
	f.fail(name + " must be one of: " + strings.Join(values, ", "))
	return def
}

// stringList reads a required array of strings.
func (f *fields) stringList(name string) []string {
	v, ok := f.get(name)
	if !ok {
		f.fail(name + " is required")
		return nil
	}
	arr, isArray := v.([]any)
	if !isArray {
		f.fail(name + " must be an array of strings")
		return nil
	}
	out := make([]string, 0, len(arr))
	for _, item := range arr {
		s, isString := item.(string)
		if !isString {
			f.fail(name + " must be an array of strings")
			return nil
		}
		out = append(out, s)
	}
	return out
}

// object reads a required JSON object, re-encoded.
func (f *fields) object(name string) json.RawMessage {
	v, ok := f.get(name)
	if !ok {
		f.fail(name + " is required")
		return nil
	}
	if _, isObject := v.(map[string]any); !isObject {
		f.fail(name + " must be an object")
		return nil
	}
	return encode(v)
}

// array reads a required JSON array, re-encoded.
func (f *fields) array(name string) json.RawMessage {
	v, ok := f.get(name)
	if !ok {
		f.fail(name + " is required")
		return nil
	}
	if _, isArray := v.([]any); !isArray {
		f.fail(name + " must be an array")
		return nil
	}
	return encode(v)
}

// integer reads a required JSON integer ("1" is a string, 1.5 no integer)
// that fits a PostgreSQL integer.
func (f *fields) integer(name string) int {
	v, ok := f.get(name)
	if !ok {
		f.fail(name + " is required")
		return 0
	}
	n, isNumber := v.(json.Number)
	if !isNumber {
		f.fail(name + " must be an integer")
		return 0
	}
	i, err := n.Int64()
	if err != nil || i < -1<<31 || i > 1<<31-1 {
		f.fail(name + " must be an integer")
		return 0
	}
	return int(i)
}

// timestamp reads a required ISO 8601 (RFC 3339) timestamp string.
func (f *fields) timestamp(name string) time.Time {
	s := f.text(name, true, false)
	if s == nil {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, *s)
	if err != nil {
		f.fail(name + " must be an ISO 8601 timestamp (e.g. 2026-01-15T10:20:30.123Z)")
		return time.Time{}
	}
	return t
}

// encode re-encodes a decoded JSON value; json.Number keeps numbers exact.
func encode(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return nil // cannot happen for decoded JSON
	}
	return b
}
