package rest

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"testing"

	"github.com/regelkit/regelkit/engine/local"
)

// FuzzEvaluateBody posts arbitrary bodies to the evaluate endpoint of the
// local-pass models: every answer is Operaton's JSON with an expected
// status, and nothing panics (a recovered panic would answer "internal error").
func FuzzEvaluateBody(f *testing.F) {
	s := newServer(f, Options{})
	s.deployLocalPass()
	handler := s.srv.Config.Handler
	for _, seed := range []string{`{"variables":` + step2Vars + `}`, `{}`, ``, `{"variables":null}`, `{"variables":{"x":{"value":1,"type":"Long"}}}`,
		`{"variables":{"dagVanAanvraag":{"value":"2026-01-01"}}}`, `[`, `{"variables":{"a":{"value":"x","type":"Date"}}}`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		req := httptest.NewRequest("POST", "/engine-rest/decision-definition/key/SZW_BijstandsnormInformatie/evaluate", bytes.NewReader(body))
		w := httptest.NewRecorder()
		handler.ServeHTTP(w, req)
		var v any
		if err := json.Unmarshal(w.Body.Bytes(), &v); err != nil {
			t.Fatalf("answer %q is not JSON", w.Body)
		}
		switch w.Code {
		case 200:
			if _, ok := v.([]any); !ok {
				t.Fatalf("200 with %s", w.Body)
			}
		case 400, 500:
			m, ok := v.(map[string]any)
			if !ok || m["type"] == nil || m["message"] == "internal error" {
				t.Fatalf("%d with %s", w.Code, w.Body)
			}
		default:
			t.Fatalf("status %d: %s", w.Code, w.Body)
		}
	})
}

// FuzzProcessBodies posts arbitrary bodies to the process routes that read
// JSON: each answer is a success or Operaton's 4xx {type, message}; no
// body reaches a panic or a 500.
func FuzzProcessBodies(f *testing.F) {
	st := &procStub{Engine: local.New(local.Options{})}
	handler := NewHandler(st, Options{MaxJSONBytes: 1 << 16})
	paths := []string{"/engine-rest/process-definition/key/aanvraag/start", "/engine-rest/task/t1/complete", "/engine-rest/task",
		"/engine-rest/history/process-instance", "/engine-rest/external-task/fetchAndLock", "/engine-rest/process-instance/pi1/variables",
		"/engine-rest/history/variable-instance", "/engine-rest/process-instance", "/engine-rest/external-task/x1/failure"}
	for i, seed := range []string{`{"businessKey":"b","variables":{"a":{"value":1,"type":"Long"}}}`, `{"variables":{"x":{"value":"2025-01-01T00:00:00.000+0000","type":"Date"}}}`,
		`{"processVariables":[{"name":"a","operator":"eq","value":"x"}],"sorting":[{"sortBy":"created","sortOrder":"asc"}]}`,
		`{"variables":[{"name":"a","operator":"like","value":"%"}],"processInstanceIds":["x"]}`,
		`{"workerId":"w","maxTasks":1,"asyncResponseTimeout":10,"topics":[{"topicName":"t","lockDuration":5}]}`,
		`{"modifications":{},"deletions":["a"]}`, `{"variableName":"a"}`, `[`, `{"workerId":"w","retries":-1,"retryTimeout":-5}`} {
		f.Add(uint8(i), []byte(seed))
	}
	f.Fuzz(func(t *testing.T, which uint8, body []byte) {
		req := httptest.NewRequest("POST", paths[int(which)%len(paths)], bytes.NewReader(body))
		w := httptest.NewRecorder()
		handler.ServeHTTP(w, req)
		switch {
		case w.Code == 204:
			return
		case w.Code == 200, w.Code == 400, w.Code == 413:
		default:
			t.Fatalf("%s: status %d: %s", req.URL.Path, w.Code, w.Body)
		}
		var v any
		if err := json.Unmarshal(w.Body.Bytes(), &v); err != nil {
			t.Fatalf("answer %q is not JSON", w.Body)
		}
		if m, ok := v.(map[string]any); ok && w.Code != 200 && (m["type"] == nil || m["message"] == "internal error") {
			t.Fatalf("%d with %s", w.Code, w.Body)
		}
	})
}
