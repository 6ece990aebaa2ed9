package metrics

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/mux"
)

// Unmatched is the route label of a request no route answered: the
// router's 404 and 405, and requests refused before routing (429).
const Unmatched = "unmatched"

// Path is where Wrap serves the metrics when Config.Public is set.
const Path = "/metrics"

// setRoute tells the recorder of Instrument, found by unwrapping w, the
// route template that answers the request. The response writer carries it
// rather than the request context: a new context would copy the request,
// which cost a fifth of the instrumentation's time. Every writer between
// Instrument and the router unwraps (http.ResponseController's
// convention); one that did not would leave its requests "unmatched",
// which each server's metrics test would show.
func setRoute(w http.ResponseWriter, route string) {
	for w != nil {
		if rec, ok := w.(*recorder); ok {
			rec.route = route
			return
		}
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return
		}
		w = u.Unwrap()
	}
}

// MuxTemplates makes r report the path template of the route each request
// matched (/v1/task/{id}, never the raw path) to the middleware of Wrap.
// Requests r answers itself (404, 405) stay "unmatched".
func MuxTemplates(r *mux.Router) {
	r.Use(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			if cr := mux.CurrentRoute(req); cr != nil {
				if t, err := cr.GetPathTemplate(); err == nil {
					setRoute(w, t)
				}
			}
			next.ServeHTTP(w, req)
		})
	})
}

// ServeMuxPatterns reports the pattern of the http.ServeMux route each
// request matched ("/api/", "GET /swagger" as "/swagger"). A request the
// mux matches with no pattern stays "unmatched".
func ServeMuxPatterns(m *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m.ServeHTTP(w, r)
		// ServeMux records the pattern on the request it was given.
		if p := r.Pattern; p != "" {
			if _, path, ok := strings.Cut(p, " "); ok {
				p = path
			}
			setRoute(w, p)
		}
	})
}

// Route labels every request to h with one fixed route (a handler with no
// router of its own, such as a converter page).
func Route(route string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		setRoute(w, route)
		h.ServeHTTP(w, r)
	})
}

// Wrap instruments h: every request is counted and timed by route
// template, method and status, and counted in flight while it runs. With
// Config.Public, GET /metrics is answered here, before h (and its access
// log, rate limits and authentication); it is not itself counted.
func (m *Metrics) Wrap(h http.Handler) http.Handler {
	instrumented := m.Instrument(h)
	if !m.cfg.Public {
		return instrumented
	}
	scrape := m.Handler()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == Path && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
			scrape.ServeHTTP(w, r)
			return
		}
		instrumented.ServeHTTP(w, r)
	})
}

// Instrument is Wrap without serving /metrics.
func (m *Metrics) Instrument(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		m.inFlight.Inc()
		rec := &recorder{ResponseWriter: w}
		defer func() {
			m.inFlight.Dec()
			status := rec.status
			if status == 0 {
				status = http.StatusOK
			}
			route := rec.route
			if route == "" {
				route = Unmatched
			}
			method := methodLabel(r.Method)
			m.requests.WithLabelValues(route, method, statusLabel(status)).Inc()
			m.duration.WithLabelValues(route, method).Observe(time.Since(start).Seconds())
		}()
		h.ServeHTTP(rec, r)
	})
}

// methodLabel keeps the method label to the standard methods: a client
// can send any token as a method.
func methodLabel(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return m
	}
	return "OTHER"
}

// statusLabels avoids formatting the common statuses on every request.
var statusLabels = func() [600]string {
	var s [600]string
	for i := 100; i < 600; i++ {
		s[i] = strconv.Itoa(i)
	}
	return s
}()

func statusLabel(code int) string {
	if code >= 100 && code < 600 {
		return statusLabels[code]
	}
	return "other"
}

// recorder captures the status that went out and the route template the
// router reported (setRoute).
type recorder struct {
	http.ResponseWriter
	status int
	route  string
}

func (r *recorder) WriteHeader(code int) {
	if r.status == 0 && code >= 200 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.ResponseWriter.Write(b)
}

func (r *recorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		if r.status == 0 {
			r.status = http.StatusOK
		}
		f.Flush()
	}
}

func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }
