package httpapi_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/regelkit/regelkit/servers/internal/httpapi"
)

// TestServeShutsDownGracefully cancels the context (what SIGINT/SIGTERM do
// in main) while a request is in flight: the request still completes, new
// connections are refused, and Serve returns nil.
func TestServeShutsDownGracefully(t *testing.T) {
	inFlight := make(chan struct{})
	release := make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(inFlight)
		<-release
		io.WriteString(w, "done")
	})
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan net.Addr, 1)
	errc := make(chan error, 1)
	go func() {
		errc <- httpapi.Serve(ctx, "127.0.0.1:0", h, httpapi.ServeOptions{
			ShutdownTimeout: 5 * time.Second,
			Ready:           func(a net.Addr) { addrc <- a },
		})
	}()
	addr := (<-addrc).String()

	body := make(chan string, 1)
	go func() {
		resp, err := http.Get("http://" + addr + "/slow")
		if err != nil {
			body <- "error: " + err.Error()
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		body <- string(b)
	}()
	<-inFlight
	cancel()
	// The listener closes at once: a new connection is refused.
	deadline := time.Now().Add(2 * time.Second)
	for {
		conn, err := net.DialTimeout("tcp", addr, 100*time.Millisecond)
		if err != nil {
			break
		}
		conn.Close()
		if time.Now().After(deadline) {
			t.Fatal("the listener still accepts connections after shutdown began")
		}
		time.Sleep(10 * time.Millisecond)
	}
	close(release)
	if got := <-body; got != "done" {
		t.Errorf("in-flight request: %q, want it to complete", got)
	}
	if err := <-errc; err != nil {
		t.Errorf("Serve returned %v", err)
	}
}
