package brp

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
)

// Problem codes of the register route (business spec §7).
const (
	CodeMalformedBody    = "MALFORMED_BODY"
	CodeValidation       = "VALIDATION_ERROR"
	CodeMissingToken     = "MISSING_TOKEN"
	CodeInvalidToken     = "INVALID_TOKEN"
	CodeAPIError         = "BRP_API_ERROR"
	CodeRateLimit        = "RATE_LIMIT_EXCEEDED"
	CodePayloadTooLarge  = "PAYLOAD_TOO_LARGE"
	CodeMethodNotAllowed = "METHOD_NOT_ALLOWED"
	CodeNotFound         = "NOT_FOUND"
	CodeInternal         = "INTERNAL_ERROR"
)

// ProblemContentType is the media type of every failure under /v1/brp/.
const ProblemContentType = "application/problem+json"

// WriteProblem answers an RFC 9457 problem: type about:blank, the status,
// a title derived from the code, the detail, the request path (without the
// query) as instance, and the code. Auth, rate-limit and fallback layers
// use it to answer under /v1/brp/ in the register route's format:
//
//	brp.WriteProblem(w, r, http.StatusUnauthorized, brp.CodeMissingToken, "Authorization header missing or invalid")
func WriteProblem(w http.ResponseWriter, r *http.Request, status int, code, detail string) {
	writeProblem(w, r, status, code, detail, nil)
}

// Title derives a problem title from a code: underscores become spaces and
// only the first letter stays upper case (BRP_API_ERROR → "Brp api error").
func Title(code string) string {
	s := strings.ToLower(strings.ReplaceAll(code, "_", " "))
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// writeProblem writes the six standard members first and then the
// extensions in the given order; an extension never overwrites a standard
// member.
func writeProblem(w http.ResponseWriter, r *http.Request, status int, code, detail string, ext []member) {
	instance := ""
	if r != nil && r.URL != nil {
		instance = r.URL.Path
	}
	members := []member{
		{"type", "about:blank"},
		{"status", status},
		{"title", Title(code)},
		{"detail", detail},
		{"instance", instance},
		{"code", code},
	}
	for _, m := range ext {
		switch m.key {
		case "type", "status", "title", "detail", "instance", "code":
			continue
		}
		members = append(members, m)
	}
	body := encodeObject(members)
	h := w.Header()
	h.Set("Content-Type", ProblemContentType)
	h.Set("Cache-Control", "no-store")
	h.Del("Content-Length")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

type member struct {
	key   string
	value any
}

// encodeObject writes members in order; a value that cannot be encoded
// becomes null rather than breaking the answer.
func encodeObject(members []member) []byte {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, m := range members {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, _ := json.Marshal(m.key)
		buf.Write(k)
		buf.WriteByte(':')
		v, err := marshal(m.value)
		if err != nil {
			v = []byte("null")
		}
		buf.Write(v)
	}
	buf.WriteString("}\n")
	return buf.Bytes()
}

// marshal encodes like json.Marshal without HTML escaping, as the rest of
// the servers' JSON.
func marshal(v any) ([]byte, error) {
	if raw, ok := v.(json.RawMessage); ok {
		return raw, nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}
