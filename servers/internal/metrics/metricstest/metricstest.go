// Package metricstest reads a server's /metrics in tests the way Prometheus
// does: ScrapeHandler asks a handler for the text exposition and Value
// finds one sample by its labels.
package metricstest

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// Scrape parses a Prometheus text exposition into its metric families,
// for tests that read /metrics the way Prometheus does.
func Scrape(r io.Reader) (map[string]*dto.MetricFamily, error) {
	p := expfmt.NewTextParser(model.UTF8Validation)
	return p.TextToMetricFamilies(r)
}

// ScrapeHandler asks h for path in the text format and parses the answer.
func ScrapeHandler(h http.Handler, path string) (map[string]*dto.MetricFamily, error) {
	req := httptest.NewRequest(http.MethodGet, path, nil)
	req.Header.Set("Accept", "text/plain")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		return nil, fmt.Errorf("GET %s: status %d: %s", path, rec.Code, strings.TrimSpace(rec.Body.String()))
	}
	return Scrape(rec.Body)
}

// Value finds the sample of family name whose labels include every pair
// of labels (name, value, name, value, …), and returns its counter, gauge,
// untyped value or histogram sample count; ok is false without one.
func Value(families map[string]*dto.MetricFamily, name string, labels ...string) (v float64, ok bool) {
	f := families[name]
	if f == nil {
		return 0, false
	}
next:
	for _, m := range f.GetMetric() {
		have := map[string]string{}
		for _, l := range m.GetLabel() {
			have[l.GetName()] = l.GetValue()
		}
		for i := 0; i+1 < len(labels); i += 2 {
			if have[labels[i]] != labels[i+1] {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			return m.GetCounter().GetValue(), true
		case m.Gauge != nil:
			return m.GetGauge().GetValue(), true
		case m.Histogram != nil:
			return float64(m.GetHistogram().GetSampleCount()), true
		case m.Untyped != nil:
			return m.GetUntyped().GetValue(), true
		}
	}
	return 0, false
}

// Series counts the samples of every family (a histogram's series as one).
func Series(families map[string]*dto.MetricFamily) int {
	n := 0
	for _, f := range families {
		n += len(f.GetMetric())
	}
	return n
}

// Sample is one expected sample of a scrape: the family, label pairs
// (name, value, …) that pick the series, and its value (a histogram's
// sample count).
type Sample struct {
	Name   string
	Labels []string
	Want   float64
}

// Check scrapes h's /metrics, reports every sample that is missing or has
// another value, and returns the scrape for further checks.
func Check(t testing.TB, h http.Handler, samples []Sample) map[string]*dto.MetricFamily {
	t.Helper()
	fams, err := ScrapeHandler(h, "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range samples {
		got, ok := Value(fams, s.Name, s.Labels...)
		if !ok || got != s.Want {
			t.Errorf("%s%v = %v (found: %v), want %v", s.Name, s.Labels, got, ok, s.Want)
		}
	}
	return fams
}

// RequestSeries counts the series of http_requests_total and
// http_request_duration_seconds in a scrape of h's /metrics: requests with
// distinct ids must not change it.
func RequestSeries(t testing.TB, h http.Handler) int {
	t.Helper()
	fams, err := ScrapeHandler(h, "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	return len(fams["http_requests_total"].GetMetric()) + len(fams["http_request_duration_seconds"].GetMetric())
}
