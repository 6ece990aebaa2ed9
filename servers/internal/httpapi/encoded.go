package httpapi

import "net/http"

// WriteEncodedData writes {success:true, data, timestamp} where data is the
// concatenation of parts, JSON text the caller has already encoded (a
// cached listing, say). The parts are written as they are, because
// encoding/json scans and copies a json.RawMessage again on every call,
// which for a 10 MB listing costs more than everything else a cached
// answer does; together they must form one JSON value. The route's
// response ceiling applies as in WriteJSON.
func WriteEncodedData(w http.ResponseWriter, status int, parts ...[]byte) error {
	const head = `{"success":true,"data":`
	tail := `,"timestamp":"` + Timestamp(now()) + "\"}\n"
	n := len(head) + len(tail)
	for _, p := range parts {
		n += len(p)
	}
	if limit := responseLimit(w); limit > 0 && int64(n) > limit {
		return responseTooLarge(int64(n), limit)
	}
	body := make([]byte, 0, n)
	body = append(body, head...)
	for _, p := range parts {
		body = append(body, p...)
	}
	body = append(body, tail...)
	return writeBody(w, status, body)
}
