package metrics

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Options configure New.
type Options struct {
	// Server is the value of the server label on every series
	// ("explorer", "business", "editor", "rules").
	Server string
	// Config says where /metrics is served (Read fills it from METRICS and
	// METRICS_ADDR).
	Config Config
}

// Metrics holds one server's registry and the series every server has.
// Its methods are safe for concurrent use.
type Metrics struct {
	cfg Config
	reg *prometheus.Registry
	// with adds the server label to everything registered.
	with prometheus.Registerer

	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	inFlight prometheus.Gauge

	outDuration *prometheus.HistogramVec
	outErrors   *prometheus.CounterVec

	cacheHits   *prometheus.CounterVec
	cacheMisses *prometheus.CounterVec

	limits *prometheus.CounterVec
}

// New returns the metrics of one server with the Go runtime and process
// collectors registered.
func New(o Options) *Metrics {
	reg := prometheus.NewRegistry()
	m := &Metrics{
		cfg:  o.Config,
		reg:  reg,
		with: prometheus.WrapRegistererWith(prometheus.Labels{"server": o.Server}, reg),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "http_requests_total",
			Help: "HTTP requests answered, by route template, method and status.",
		}, []string{"route", "method", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "http_request_duration_seconds",
			Help:    "Time to answer an HTTP request, by route template and method.",
			Buckets: prometheus.DefBuckets,
		}, []string{"route", "method"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "http_requests_in_flight",
			Help: "HTTP requests being answered now.",
		}),
		outDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "outbound_request_duration_seconds",
			Help:    "Time of a call to a dependency (engine, SPARQL endpoint, upstream service) until its response headers, by target.",
			Buckets: prometheus.DefBuckets,
		}, []string{"target"}),
		outErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "outbound_request_errors_total",
			Help: "Calls to a dependency that failed: no response (kind=transport) or a 5xx answer (kind=status).",
		}, []string{"target", "kind"}),
		cacheHits: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "cache_hits_total",
			Help: "Lookups answered from a cache, by cache.",
		}, []string{"cache"}),
		cacheMisses: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "cache_misses_total",
			Help: "Lookups a cache could not answer (a fetch followed), by cache.",
		}, []string{"cache"}),
		limits: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "limit_exceeded_total",
			Help: "Requests stopped at one of their bounds (LIMIT_EXCEEDED answers), by the Limits field exceeded.",
		}, []string{"limit"}),
	}
	m.with.MustRegister(m.requests, m.duration, m.inFlight, m.outDuration, m.outErrors,
		m.cacheHits, m.cacheMisses, m.limits)
	// The runtime and process series describe the process, not the server:
	// they go in without the server label, as every exporter names them.
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Registry is the server's registry, for series of its own.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Handler answers scrapes in the Prometheus text (or protobuf) format.
// At most four scrapes run at once, each for at most ten seconds, so a
// scraper cannot pile up work.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{
		ErrorHandling:       promhttp.ContinueOnError,
		MaxRequestsInFlight: 4,
		Timeout:             10 * time.Second,
	})
}

// Limits whose names become label values; anything else is "other".
var limitNames = map[string]bool{
	"Timeout": true, "MaxDepth": true, "MaxRows": true, "MaxBytes": true,
	"MaxTotalBytes": true, "MaxSteps": true, "MaxResponseBytes": true,
}

// LimitExceeded counts a request stopped at a bound; it has the shape of
// httpapi.RouterOptions.OnLimit.
func (m *Metrics) LimitExceeded(limit string) {
	if !limitNames[limit] {
		limit = "other"
	}
	m.limits.WithLabelValues(limit).Inc()
}

// GaugeFunc registers a gauge read at scrape time (a queue depth). name is
// fixed in code; f must be cheap and safe for concurrent use.
func (m *Metrics) GaugeFunc(name, help string, f func() float64) {
	m.with.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, f))
}

// CounterFunc registers a counter read at scrape time from a total the
// server already keeps (rows dropped since start).
func (m *Metrics) CounterFunc(name, help string, f func() float64) {
	m.with.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help}, f))
}
