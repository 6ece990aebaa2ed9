package assistant

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestTruncate(t *testing.T) {
	if got := truncate("kort"); got != "kort" {
		t.Errorf("short result changed: %q", got)
	}
	exact := strings.Repeat("é", 12000)
	if got := truncate(exact); got != exact {
		t.Error("a result of exactly 12,000 characters must stay whole")
	}
	got := truncate(strings.Repeat("é", 12000) + "abc")
	want := strings.Repeat("é", 12000) + "\n[Result truncated: 3 characters omitted]"
	if got != want {
		t.Errorf("truncated tail %q", got[len(got)-60:])
	}
}

func TestSSEReader(t *testing.T) {
	in := "event: a\ndata: {\"x\":1}\n\n: comment\n\ndata: one\ndata: two\r\n\r\nevent: last\ndata: end"
	r := newSSEReader(strings.NewReader(in))
	for _, want := range [][2]string{{"a", `{"x":1}`}, {"", "one\ntwo"}, {"last", "end"}} {
		ev, data, err := r.next()
		if err != nil || ev != want[0] || data != want[1] {
			t.Fatalf("next = %q %q %v, want %q %q", ev, data, err, want[0], want[1])
		}
	}
	if _, _, err := r.next(); err != io.EOF {
		t.Errorf("after the last event: %v, want EOF", err)
	}
	// One event larger than the bound is refused, not buffered.
	huge := "data: " + strings.Repeat("x", maxEventBytes+1) + "\n\n"
	if _, _, err := newSSEReader(strings.NewReader(huge)).next(); err == nil || !strings.Contains(err.Error(), "longer than") {
		t.Errorf("oversized line: %v", err)
	}
	many := strings.Repeat("data: "+strings.Repeat("y", 1000)+"\n", maxEventBytes/1000+10) + "\n"
	if _, _, err := newSSEReader(strings.NewReader(many)).next(); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("oversized event of many lines: %v", err)
	}
}

// FuzzSSEReader: any byte stream ends in events and an error, never a
// panic or an endless loop.
func FuzzSSEReader(f *testing.F) {
	f.Add("event: a\ndata: b\n\n")
	f.Add("data: [DONE]\n\n")
	f.Add(":\n\n\r\ndata\n")
	f.Fuzz(func(t *testing.T, s string) {
		r := newSSEReader(strings.NewReader(s))
		for i := 0; ; i++ {
			if i > len(s)+1 {
				t.Fatalf("more events than bytes in %q", s)
			}
			if _, _, err := r.next(); err != nil {
				return
			}
		}
	})
}

// bodyTransport answers every request with 200 and body.
type bodyTransport struct{ body string }

func (b bodyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(b.body)), Request: r}, nil
}

// FuzzModelStreams: whatever a provider streams, both parsers end in a
// reply or an error, never a panic, and a reply's tool inputs are JSON.
func FuzzModelStreams(f *testing.F) {
	f.Add("data: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"n\"}}\n\n" +
		"data: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{}\"}}\n\n" +
		"data: {\"type\":\"message_stop\"}\n\n")
	f.Add("data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c\",\"function\":{\"name\":\"n\",\"arguments\":\"{\\\"a\\\":1}\"}}]}}]}\n\ndata: [DONE]\n\n")
	f.Add("data: {\"type\":\"error\",\"error\":{\"type\":\"x\"}}\n\n")
	f.Fuzz(func(t *testing.T, body string) {
		c := &http.Client{Transport: bodyTransport{body}}
		req := &modelRequest{Model: "m", MaxTokens: 1, Messages: []message{{Role: roleUser, Content: "x"}}}
		for _, m := range []model{&anthropic{baseURL: "http://x", key: "k", client: c}, &openAI{baseURL: "http://x", key: "k", client: c}} {
			reply, err := m.stream(context.Background(), req, func(string) {})
			if err != nil {
				continue
			}
			for _, u := range reply.ToolUses {
				if !json.Valid(u.Input) {
					t.Fatalf("tool input %q is not JSON", u.Input)
				}
			}
		}
	})
}
