package httpapi

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"
)

// MiddlewareOptions configure Middleware.
type MiddlewareOptions struct {
	// Version is the value of the API-Version header on every response.
	Version string
	// Logger receives one access-log line per request and panic reports.
	Logger *slog.Logger
	// CORSOrigins is the exact-match list of origins allowed to call the API
	// from a browser. Empty: no CORS headers at all.
	CORSOrigins []string
	// Development puts the panic value into the 500 message.
	Development bool
}

// Middleware wraps h in the chain every server uses, outermost first:
// request ID, access log, gzip compression (Compress), API-Version header,
// CORS, panic recovery.
func Middleware(h http.Handler, o MiddlewareOptions) http.Handler {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	h = recoverPanics(h, o.Logger, o.Development)
	h = cors(h, o.CORSOrigins)
	h = apiVersion(h, o.Version)
	h = Compress(h)
	h = accessLog(h, o.Logger)
	return requestID(h)
}

type ctxKey int

const requestIDKey ctxKey = 0

// RequestIDHeader carries the request ID in both directions.
const RequestIDHeader = "X-Request-ID"

// RequestID returns the request ID stored in ctx by the middleware, or "".
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey).(string)
	return id
}

// requestID echoes a well-formed incoming X-Request-ID or generates one, and
// stores it in the request context and the response header.
func requestID(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(RequestIDHeader)
		if !validRequestID(id) {
			id = newRequestID()
		}
		w.Header().Set(RequestIDHeader, id)
		h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestIDKey, id)))
	})
}

// validRequestID accepts 1–128 visible ASCII characters that cannot break a
// header or a log line.
func validRequestID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if c <= ' ' || c >= 0x7f || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

func newRequestID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// statusRecorder captures the status code and body size for the access log.
type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	n, err := s.ResponseWriter.Write(b)
	s.bytes += int64(n)
	return n, err
}

func (s *statusRecorder) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		if s.status == 0 {
			s.status = http.StatusOK
		}
		f.Flush()
	}
}

func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// accessLog writes one line per request: method, path (never the query
// string or the body, which may carry personal data), status, duration,
// size and request ID.
func accessLog(h http.Handler, logger *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w}
		defer func() {
			status := rec.status
			if status == 0 {
				status = http.StatusOK
			}
			level := slog.LevelInfo
			if status >= 500 {
				level = slog.LevelError
			}
			logger.LogAttrs(r.Context(), level, "request",
				slog.String("method", r.Method),
				slog.String("path", r.URL.Path),
				slog.Int("status", status),
				slog.Float64("duration_ms", float64(time.Since(start).Microseconds())/1000),
				slog.Int64("bytes", rec.bytes),
				slog.String("request_id", RequestID(r.Context())),
			)
		}()
		h.ServeHTTP(rec, r)
	})
}

// apiVersion sets the API-Version header before anything else writes, so it
// is on every response: errors, 304s and 404s included.
func apiVersion(h http.Handler, version string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("API-Version", version)
		h.ServeHTTP(w, r)
	})
}

var (
	corsAllowMethods = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS"
	corsAllowHeaders = "Accept, Authorization, Content-Type, If-Match, If-Modified-Since, If-None-Match, X-Request-ID"
	corsExpose       = "API-Version, Deprecation, ETag, Last-Modified, Link, Sunset, X-Request-ID"
)

// cors allows browsers on exactly the listed origins. A preflight from an
// unlisted origin is refused with 403; other requests from it are served
// without CORS headers (the browser then withholds the response).
func cors(h http.Handler, origins []string) http.Handler {
	allowed := slices.Clone(origins)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin == "" {
			h.ServeHTTP(w, r)
			return
		}
		w.Header().Add("Vary", "Origin")
		ok := slices.Contains(allowed, origin)
		preflight := r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != ""
		if preflight {
			w.Header().Add("Vary", "Access-Control-Request-Method")
			w.Header().Add("Vary", "Access-Control-Request-Headers")
			if !ok {
				_ = WriteError(w, Errorf(http.StatusForbidden, CodeForbidden, "origin %s is not allowed", strconv.Quote(origin)))
				return
			}
			w.Header().Set("Access-Control-Allow-Origin", origin)
			w.Header().Set("Access-Control-Allow-Credentials", "true")
			w.Header().Set("Access-Control-Allow-Methods", corsAllowMethods)
			w.Header().Set("Access-Control-Allow-Headers", corsAllowHeaders)
			w.Header().Set("Access-Control-Max-Age", "600")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		if ok {
			w.Header().Set("Access-Control-Allow-Origin", origin)
			w.Header().Set("Access-Control-Allow-Credentials", "true")
			w.Header().Set("Access-Control-Expose-Headers", corsExpose)
		}
		h.ServeHTTP(w, r)
	})
}

// recoverPanics turns a panic into 500 INTERNAL_ERROR. The stack goes to the
// log, never to the client; the panic value reaches the client only in
// development.
func recoverPanics(h http.Handler, logger *slog.Logger, development bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tw := &trackingWriter{ResponseWriter: w}
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v)
			}
			logger.ErrorContext(r.Context(), "panic serving request",
				"method", r.Method, "path", r.URL.Path,
				"request_id", RequestID(r.Context()),
				"panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			if tw.wrote {
				return
			}
			msg := "Internal server error"
			if development {
				msg = "Internal server error: " + strings.TrimSpace(fmt.Sprint(v))
			}
			_ = WriteError(tw, NewError(http.StatusInternalServerError, CodeInternal, msg))
		}()
		h.ServeHTTP(tw, r)
	})
}
