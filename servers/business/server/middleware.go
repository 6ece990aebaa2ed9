package server

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/regelkit/regelkit/brp"
	"github.com/regelkit/regelkit/servers/internal/auth"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/ratelimit"
)

// brpPrefix is where every error is a problem.
const brpPrefix = "/v1/brp/"

func isBRP(r *http.Request) bool { return strings.HasPrefix(r.URL.Path, brpPrefix) }

// Handler is the router behind the business API's middleware chain,
// outermost first: panic recovery, request ID, API-Version, client IP,
// security headers, CORS, rate limiter, access log, gzip compression,
// audit hook.
func (a *app) Handler() http.Handler {
	var h http.Handler = a.router
	h = a.auditHook(h)
	h = httpapi.Compress(h)
	h = a.accessLog(h)
	h = ratelimit.Middleware(a.limiter, h, ratelimit.MiddlewareOptions{
		Key:    func(r *http.Request) string { return clientIPFrom(r.Context()) },
		Skip:   isPreflight,
		Refuse: a.refuseRate("Too many requests, please try again later"),
	})
	h = a.cors(h)
	if a.cfg.HelmetEnabled {
		h = securityHeaders(h, a.cfg.Environment == envProduction)
	}
	h = a.clientIP(h)
	h = apiVersion(h)
	h = requestIDs(h)
	return a.metrics.Wrap(a.recoverPanics(h))
}

// writeFailure writes an error as the envelope, or as a problem under
// /v1/brp/.
func writeFailure(w http.ResponseWriter, r *http.Request, e *httpapi.Error) {
	if isBRP(r) {
		brp.WriteProblem(w, r, e.Status, e.Code, e.Message)
		return
	}
	_ = httpapi.WriteError(w, e)
}

func (a *app) recoverPanics(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &statusRecorder{ResponseWriter: w}
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v)
			}
			a.logger.ErrorContext(r.Context(), "panic serving request", "method", r.Method, "path", r.URL.Path,
				"request_id", httpapi.RequestID(r.Context()), "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			if rec.status != 0 {
				return
			}
			msg := "Internal server error"
			if a.cfg.development() {
				msg += ": " + fmt.Sprint(v)
			}
			writeFailure(rec, r, httpapi.NewError(http.StatusInternalServerError, httpapi.CodeInternal, msg))
		}()
		h.ServeHTTP(rec, r)
	})
}

var requestIDPattern = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,128}$`)

// requestIDs keeps a well-formed incoming X-Request-ID, else mints a UUIDv4.
func requestIDs(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(httpapi.RequestIDHeader)
		if !requestIDPattern.MatchString(id) {
			id = uuid4()
		}
		w.Header().Set(httpapi.RequestIDHeader, id)
		h.ServeHTTP(w, r.WithContext(httpapi.WithRequestID(r.Context(), id)))
	})
}

func uuid4() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

func apiVersion(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("API-Version", version)
		h.ServeHTTP(w, r)
	})
}

type clientIPKey struct{}

func clientIPFrom(ctx context.Context) string {
	ip, _ := ctx.Value(clientIPKey{}).(string)
	return ip
}

func (a *app) clientIP(h http.Handler) http.Handler {
	trust := a.cfg.TrustProxy
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ip := ratelimit.ClientIP(r, trust)
		h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), clientIPKey{}, ip)))
	})
}

// securityHeaders is the helmet equivalent; HSTS only over
// HTTPS or in production (behind a TLS-terminating proxy).
func securityHeaders(h http.Handler, production bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'; script-src 'self'; img-src 'self' data: https:")
		if production || r.TLS != nil {
			hd.Set("Strict-Transport-Security", "max-age=31536000; includeSubDomains; preload")
		}
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "no-referrer")
		hd.Set("X-Frame-Options", "SAMEORIGIN")
		h.ServeHTTP(w, r)
	})
}

func isPreflight(r *http.Request) bool {
	return r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != ""
}

// previewHost is the rest of an Azure Static Web Apps preview origin after
// "https://<slug>-"; the slug itself is compared literally, never as a
// pattern.
var previewHost = regexp.MustCompile(`^[0-9]+\.[a-z0-9]+\.[0-9]+\.azurestaticapps\.net$`)

// originAllowed: exact match on CORS_ORIGIN, or outside production a
// preview origin of a listed slug.
func (a *app) originAllowed(origin string) bool {
	if slices.Contains(a.cfg.CORSOrigins, origin) {
		return true
	}
	if a.cfg.Environment == envProduction {
		return false
	}
	for _, slug := range a.cfg.CORSPreview {
		if rest, ok := strings.CutPrefix(origin, "https://"+slug+"-"); ok && previewHost.MatchString(rest) {
			return true
		}
	}
	return false
}

const (
	corsMethods = "GET, POST, PUT, PATCH, DELETE, OPTIONS"
	corsHeaders = "Content-Type, Authorization, X-Request-ID"
	corsExpose  = "API-Version, X-Request-ID, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, Deprecation, Link"
)

// cors answers preflights itself (never rate limited); a disallowed origin
// gets no allow headers, its preflight a bare 204.
func (a *app) cors(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin == "" {
			h.ServeHTTP(w, r)
			return
		}
		w.Header().Add("Vary", "Origin")
		ok := a.originAllowed(origin)
		if ok {
			w.Header().Set("Access-Control-Allow-Origin", origin)
			w.Header().Set("Access-Control-Allow-Credentials", "true")
		}
		if isPreflight(r) {
			if ok {
				w.Header().Set("Access-Control-Allow-Methods", corsMethods)
				w.Header().Set("Access-Control-Allow-Headers", corsHeaders)
				w.Header().Set("Access-Control-Max-Age", "600")
			}
			w.WriteHeader(http.StatusNoContent)
			return
		}
		if ok {
			w.Header().Set("Access-Control-Expose-Headers", corsExpose)
		}
		h.ServeHTTP(w, r)
	})
}

// refuseRate writes the rate limit's 429 (a problem under /v1/brp/).
func (a *app) refuseRate(message string) func(http.ResponseWriter, *http.Request, ratelimit.Decision) {
	return func(w http.ResponseWriter, r *http.Request, d ratelimit.Decision) {
		if isBRP(r) {
			brp.WriteProblem(w, r, http.StatusTooManyRequests, brp.CodeRateLimit,
				fmt.Sprintf("Too many requests, retry after %d seconds", d.ResetSeconds()))
			return
		}
		_ = httpapi.WriteError(w, httpapi.NewError(http.StatusTooManyRequests, "RATE_LIMIT_EXCEEDED", message))
	}
}

// writeLimited applies the write limiter (10 per 15 minutes per IP) to the
// public POST routes.
func (a *app) writeLimited(h http.Handler) http.Handler {
	return ratelimit.Middleware(a.writeLimiter, h, ratelimit.MiddlewareOptions{
		Key:    func(r *http.Request) string { return clientIPFrom(r.Context()) },
		Refuse: a.refuseRate("Too many submissions, please try again later."),
	})
}

// statusRecorder captures the status and, for failures, the first bytes of
// the body: the audit row's error_message.
type statusRecorder struct {
	http.ResponseWriter
	status int
	errBuf []byte
}

const errCapture = 4 << 10

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
	if s.status >= 400 && len(s.errBuf) < errCapture {
		s.errBuf = append(s.errBuf, b[:min(len(b), errCapture-len(s.errBuf))]...)
	}
	return s.ResponseWriter.Write(b)
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

func (s *statusRecorder) code() int {
	if s.status == 0 {
		return http.StatusOK
	}
	return s.status
}

// errorMessage is error.message of an envelope or detail of a problem.
func (s *statusRecorder) errorMessage() string {
	if len(s.errBuf) == 0 {
		return ""
	}
	var body struct {
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
		Detail string `json:"detail"`
	}
	if json.Unmarshal(bytes.TrimSpace(s.errBuf), &body) != nil {
		return ""
	}
	if body.Error != nil {
		return body.Error.Message
	}
	return body.Detail
}

// accessLog writes one line per request: method, path (never the query
// string, never a body), status, duration, request id, client IP.
func (a *app) accessLog(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w}
		defer func() {
			status := rec.code()
			v := recover()
			if v != nil {
				status = http.StatusInternalServerError // the recovery layer answers it
			}
			level := slog.LevelInfo
			if status >= 500 {
				level = slog.LevelError
			}
			a.logger.LogAttrs(r.Context(), level, "request",
				slog.String("method", r.Method),
				slog.String("path", r.URL.Path),
				slog.Int("status", status),
				slog.Float64("duration_ms", float64(time.Since(start).Microseconds())/1000),
				slog.String("request_id", httpapi.RequestID(r.Context())),
				slog.String("client_ip", clientIPFrom(r.Context())),
			)
			if v != nil {
				panic(v)
			}
		}()
		h.ServeHTTP(rec, r)
	})
}

// auditSkipped are the paths never audited by the per-request hook (spec:
// the admin listing is excluded from its own trail; the chat stream is not
// audited).
var auditSkipped = map[string]bool{"/v1/admin/audit": true, "/v1/mcp/chat": true}

// auditHook writes one audit row per authenticated request:
// the guard inside the router records the principal in the Holder.
func (a *app) auditHook(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, holder := auth.WithHolder(r.Context())
		rec := &statusRecorder{ResponseWriter: w}
		start := time.Now()
		h.ServeHTTP(rec, r.WithContext(ctx))
		p := holder.Principal
		if p == nil || auditSkipped[r.URL.Path] {
			return
		}
		status := rec.code()
		resourceType, resourceID := resourceOf(r.URL.Path)
		details := map[string]any{
			"method": r.Method, "path": r.URL.Path, "query": r.URL.RawQuery,
			"statusCode": status, "duration": time.Since(start).Milliseconds(),
		}
		if isBRP(r) {
			// The query string of a register call never reaches the trail.
			details["query"] = ""
		}
		a.audit.record(ctx, r, p, auditRow{
			Action: r.Method + " " + r.URL.Path, ResourceType: resourceType, ResourceID: resourceID,
			Details: details, Failed: status >= 400, ErrorMessage: rec.errorMessage(),
		})
	})
}

// resourceOf returns the first two path segments after /v1.
func resourceOf(path string) (typ, id string) {
	rest, ok := strings.CutPrefix(path, "/v1/")
	if !ok {
		rest = strings.TrimPrefix(path, "/")
	}
	parts := strings.SplitN(rest, "/", 3)
	typ = parts[0]
	if len(parts) > 1 {
		id = parts[1]
	}
	return typ, id
}
