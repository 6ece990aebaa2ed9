package assistant

import (
	"encoding/json"
	"net/http"
	"sync"
	"time"
)

// event is one server-sent event of the chat (spec §6).
type event struct {
	Type    string `json:"type"`
	Text    string `json:"text,omitempty"`
	Message string `json:"message,omitempty"`
	Code    string `json:"code,omitempty"`
}

// stream writes events and keep-alive comments; safe for the keep-alive
// goroutine and the turn. After close nothing is written.
type stream struct {
	mu     sync.Mutex
	w      http.ResponseWriter
	rc     *http.ResponseController
	closed bool
	failed bool
	stop   chan struct{}
	done   chan struct{}
}

// openStream sends the headers at once and starts the keep-alive comments.
func openStream(w http.ResponseWriter, rc *http.ResponseController, keepAlive time.Duration) *stream {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("Connection", "keep-alive")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	s := &stream{w: w, rc: rc, stop: make(chan struct{}), done: make(chan struct{})}
	_ = rc.Flush()
	go s.keepAlive(keepAlive)
	return s
}

func (s *stream) keepAlive(every time.Duration) {
	defer close(s.done)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			s.write([]byte(": keep-alive\n\n"))
		}
	}
}

func (s *stream) send(e event) {
	b, _ := json.Marshal(e)
	buf := make([]byte, 0, len(b)+8)
	buf = append(buf, "data: "...)
	buf = append(buf, b...)
	buf = append(buf, "\n\n"...)
	s.write(buf)
}

func (s *stream) write(b []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.failed {
		return
	}
	if _, err := s.w.Write(b); err != nil {
		s.failed = true
		return
	}
	if err := s.rc.Flush(); err != nil {
		s.failed = true
	}
}

// close stops the keep-alive and forbids further writes.
func (s *stream) close() {
	close(s.stop)
	<-s.done
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
}
