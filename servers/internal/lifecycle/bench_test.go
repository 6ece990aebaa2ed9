package lifecycle_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/regelkit/regelkit/servers/internal/lifecycle"
)

// BenchmarkReady is the readiness wrapper's cost on an ordinary request:
// one atomic load before the server's own handler.
func BenchmarkReady(b *testing.B) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})
	lc := lifecycle.New(lifecycle.Options{})
	for _, bc := range []struct {
		name string
		h    http.Handler
	}{{"bare", ok}, {"ready", lc.Ready(ok, "/v1/health", "/v1/health/ready")}} {
		b.Run(bc.name, func(b *testing.B) {
			req := httptest.NewRequest("GET", "/v1/decision/x/evaluate", nil)
			w := httptest.NewRecorder()
			b.ReportAllocs()
			for b.Loop() {
				bc.h.ServeHTTP(w, req)
			}
		})
	}
}
