package main

import (
	"net/http"
	"testing"

	"github.com/regelkit/regelkit/servers/internal/metrics/metricstest"
)

// TestStackMetricsPerServer: the four servers share one process, and each
// /metrics holds its own server's series only (one registry per server).
func TestStackMetricsPerServer(t *testing.T) {
	s := startStack(t, map[string]string{"METRICS": "true"})
	for server, base := range map[string]string{"explorer": s.explorer, "business": s.business, "editor": s.editor, "rules": s.rules} {
		resp, err := http.Get(base + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		fams, err := metricstest.Scrape(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("%s /metrics: %d %v", server, resp.StatusCode, err)
		}
		if _, ok := metricstest.Value(fams, "http_requests_in_flight", "server", server); !ok {
			t.Errorf("%s /metrics has no http_requests_in_flight{server=%q}", server, server)
		}
		for name, f := range fams {
			for _, m := range f.GetMetric() {
				for _, l := range m.GetLabel() {
					if l.GetName() == "server" && l.GetValue() != server {
						t.Errorf("%s /metrics holds %s{server=%q}", server, name, l.GetValue())
					}
				}
			}
		}
	}
}
