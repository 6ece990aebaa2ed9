package main

import (
	"net/http"
	"strconv"
	"testing"
	"time"

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

// TestStackMetricsAddr: a server's own metrics listener in the stack
// serves that server's series; the others' public ports keep /metrics off
// when METRICS is off.
func TestStackMetricsAddr(t *testing.T) {
	p := freePorts(t, 1)
	addr := "127.0.0.1:" + strconv.Itoa(p[0])
	s := startStack(t, map[string]string{"METRICS": "false", "BUSINESS_METRICS_ADDR": addr})
	var resp *http.Response
	var err error
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if resp, err = http.Get("http://" + addr + "/metrics"); err == nil || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	fams, err := metricstest.Scrape(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("BUSINESS_METRICS_ADDR /metrics: %d %v", resp.StatusCode, err)
	}
	if _, ok := metricstest.Value(fams, "http_requests_in_flight", "server", "business"); !ok {
		t.Error("the business API's metrics listener has no http_requests_in_flight{server=\"business\"}")
	}
	resp, err = http.Get(s.explorer + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("explorer /metrics with METRICS=false: %d, want 404", resp.StatusCode)
	}
}
