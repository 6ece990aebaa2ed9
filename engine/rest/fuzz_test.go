package rest

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"testing"
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
