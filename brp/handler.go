package brp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"time"
)

// DefaultMaxBodyBytes bounds a lookup body: 1 MB, the business API's JSON
// body limit.
const DefaultMaxBodyBytes = 1 << 20

// HandlerOptions configure Handler.
type HandlerOptions struct {
	// Upstream answers the lookups: a *Client for a real register, a
	// *Register in development. Required.
	Upstream Upstream
	// MaxBodyBytes bounds the request body (413 PAYLOAD_TOO_LARGE above
	// it); DefaultMaxBodyBytes when zero.
	MaxBodyBytes int64
	// Observe, when set, is called once per lookup after the answer is
	// written, with the request's context: the server turns it into the
	// audit row brp.personen.fetch (which stores Event.BSN on purpose) and
	// into a log line without the number.
	Observe func(ctx context.Context, e Event)
	// Logger, when set, gets one line per lookup with the query type, the
	// count of numbers, the status, the code and the duration — never a
	// number or a body. Leave it nil when Observe logs.
	Logger *slog.Logger
}

// Event describes one lookup for the audit trail.
type Event struct {
	BSN      string        // the queried number; "" when the body named none validly
	Type     string        // the query type; "" when the body was invalid
	Count    int           // numbers queried: 1 for a valid body, else 0
	Status   int           // the HTTP status answered
	Code     string        // the problem code; "" on success
	Duration time.Duration // from the request to the answer
}

// Handler serves POST /v1/brp/personen (business spec §4.13 and
// §7): it validates the body, forwards it unchanged to the Upstream and
// answers {success:true, data:<register answer>, timestamp}, or an RFC 9457
// problem for every failure. It checks no token: the server's JWT
// middleware runs before it.
func Handler(opts HandlerOptions) http.Handler {
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	return &handler{opts: opts}
}

type handler struct{ opts HandlerOptions }

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		WriteProblem(w, r, http.StatusMethodNotAllowed, CodeMethodNotAllowed, "Method "+boundedName(r.Method)+" is not allowed; use POST")
		return
	}
	start := time.Now()
	ev := h.serve(w, r)
	ev.Duration = time.Since(start)
	if h.opts.Logger != nil {
		h.opts.Logger.LogAttrs(r.Context(), slog.LevelInfo, "brp lookup",
			slog.String("type", ev.Type),
			slog.Int("count", ev.Count),
			slog.Int("status", ev.Status),
			slog.String("code", ev.Code),
			slog.Int64("duration_ms", ev.Duration.Milliseconds()))
	}
	if h.opts.Observe != nil {
		h.opts.Observe(r.Context(), ev)
	}
}

// serve answers one lookup and returns its event without the duration.
func (h *handler) serve(w http.ResponseWriter, r *http.Request) Event {
	fail := func(ev Event, status int, code, detail string, ext ...member) Event {
		writeProblem(w, r, status, code, detail, ext)
		ev.Status, ev.Code = status, code
		return ev
	}

	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.opts.MaxBodyBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return fail(Event{}, http.StatusRequestEntityTooLarge, CodePayloadTooLarge,
				"The request body exceeds the limit of "+formatBytes(h.opts.MaxBodyBytes)+".")
		}
		return fail(Event{}, http.StatusBadRequest, CodeMalformedBody, "The request body could not be read.")
	}

	req, err := Validate(body)
	if err != nil {
		var se *SyntaxError
		var ve *ValidationError
		switch {
		case errors.As(err, &se):
			return fail(Event{}, http.StatusBadRequest, CodeMalformedBody, "The request body could not be parsed.",
				member{"invalidParams", []InvalidParam{{Name: "body", Code: "syntax", Reason: se.describe()}}})
		case errors.As(err, &ve):
			return fail(Event{}, http.StatusBadRequest, CodeValidation, ve.Detail(), member{"invalidParams", ve.Params})
		}
		return fail(Event{}, http.StatusBadRequest, CodeValidation, "The request body is not a valid lookup.")
	}
	ev := Event{BSN: req.BSN, Type: req.Type, Count: 1}

	if h.opts.Upstream == nil {
		return fail(ev, http.StatusInternalServerError, CodeAPIError, "BRP API is not configured")
	}
	data, err := h.opts.Upstream.Lookup(r.Context(), req.Body)
	if err == nil && !json.Valid(data) {
		err = &UpstreamError{Detail: "BRP API returned a response that is not valid JSON", Err: ErrMalformedResponse}
	}
	if err != nil {
		var ue *UpstreamError
		if !errors.As(err, &ue) {
			return fail(ev, http.StatusInternalServerError, CodeAPIError, "BRP API request failed")
		}
		switch {
		case ue.Err == nil && ue.Status >= 400 && ue.Status < 500:
			if ue.Body == nil {
				return fail(ev, ue.Status, CodeAPIError, "BRP API returned an error")
			}
			return fail(ev, ue.Status, CodeAPIError, "BRP API returned an error", member{"details", upstreamBody(ue.Body)})
		case ue.Err == nil && ue.Status >= 500 && ue.Status < 600:
			return fail(ev, ue.Status, CodeAPIError, ue.Detail)
		}
		return fail(ev, http.StatusInternalServerError, CodeAPIError, ue.Detail)
	}

	out := encodeObject([]member{
		{"success", true},
		{"data", json.RawMessage(data)},
		{"timestamp", time.Now().UTC().Format("2006-01-02T15:04:05.000Z")},
	})
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(out)
	ev.Status = http.StatusOK
	return ev
}

// upstreamBody is the details member of an upstream 4xx: its JSON as JSON,
// anything else as text.
func upstreamBody(b []byte) any {
	if json.Valid(b) {
		return json.RawMessage(b)
	}
	return string(b)
}

func formatBytes(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + " MB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + " KB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}
