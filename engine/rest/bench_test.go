package rest

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/regelkit/regelkit/engine"
	"github.com/regelkit/regelkit/engine/internal/enginetest"
	"github.com/regelkit/regelkit/engine/local"
)

// BenchmarkEvaluateREST posts an evaluation of the 10-rule table to the
// facade over real HTTP (loopback, keep-alive) and reports the latency
// percentiles of the requests.
func BenchmarkEvaluateREST(b *testing.B) {
	e := local.New(local.Options{})
	if _, err := e.Deploy(context.Background(), engine.NewDeployment{Resources: []engine.Resource{{Name: "t.dmn", Data: enginetest.TenRuleTable()}}}); err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(NewHandler(e, Options{}))
	defer srv.Close()
	url := srv.URL + "/engine-rest/decision-definition/key/" + enginetest.TenRuleKey + "/evaluate"
	body := []byte(`{"variables":{"age":{"value":95,"type":"Integer"},"riskCategory":{"value":"High","type":"String"},"isAffordable":{"value":false,"type":"Boolean"}}}`)
	want := `[{"result":{"type":"String","value":"result 9","valueInfo":{}}}]`
	client := srv.Client()
	post := func() string {
		resp, err := client.Post(url, "application/json", bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return string(data)
	}
	if got := post(); got != want {
		b.Fatalf("got %s", got)
	}
	var lat []time.Duration
	b.ReportAllocs()
	for b.Loop() {
		start := time.Now()
		post()
		lat = append(lat, time.Since(start))
	}
	reportPercentiles(b, lat)
}

func reportPercentiles(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	at := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) }
	b.ReportMetric(at(0.50), "p50-µs")
	b.ReportMetric(at(0.99), "p99-µs")
}

// BenchmarkHandlerEvaluate is the facade without the network: the handler
// on a recorder.
func BenchmarkHandlerEvaluate(b *testing.B) {
	e := local.New(local.Options{})
	if _, err := e.Deploy(context.Background(), engine.NewDeployment{Resources: []engine.Resource{{Name: "t.dmn", Data: enginetest.TenRuleTable()}}}); err != nil {
		b.Fatal(err)
	}
	h := NewHandler(e, Options{})
	body := []byte(`{"variables":{"age":{"value":95,"type":"Integer"},"riskCategory":{"value":"High","type":"String"},"isAffordable":{"value":false,"type":"Boolean"}}}`)
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest("POST", "/engine-rest/decision-definition/key/"+enginetest.TenRuleKey+"/evaluate", bytes.NewReader(body))
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			b.Fatalf("status %d: %s", w.Code, w.Body)
		}
	}
}
