package enginehttp_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/engine/local"
	"github.com/regelkit/regelkit/servers/internal/enginehttp"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
)

func TestMount(t *testing.T) {
	r := httpapi.NewRouter(httpapi.RouterOptions{})
	enginehttp.Mount(r, local.New(local.Options{}), enginehttp.Options{CORSOrigins: []string{"https://app.example.nl"}})

	for _, op := range [][2]string{{"GET", "/engine-rest/version"}, {"POST", "/engine-rest/task/{id}/complete"}, {"GET", "/engine-rest/history/task"}} {
		if !r.Doc().Has(op[0], op[1]) {
			t.Errorf("the OpenAPI document lacks %s %s", op[0], op[1])
		}
	}

	send := func(method, path string, header map[string]string) (int, string) {
		req := httptest.NewRequest(method, path, strings.NewReader(`{"userId":"demo"}`))
		req.Header.Set("Content-Type", "application/json")
		for k, v := range header {
			req.Header.Set(k, v)
		}
		w := httptest.NewRecorder()
		r.ServeHTTP(w, req)
		return w.Code, w.Body.String()
	}
	if code, body := send("GET", "/engine-rest/version", nil); code != 200 || !strings.Contains(body, `"version"`) {
		t.Errorf("GET /engine-rest/version = %d %s", code, body)
	}
	// a write from another site is refused before the engine sees it
	code, body := send("POST", "/engine-rest/task/nope/claim", map[string]string{"Origin": "https://evil.example"})
	if code != http.StatusForbidden || body != `{"type":"ForbiddenException","message":"cross-site requests may not change the engine"}`+"\n" {
		t.Errorf("cross-site claim = %d %s", code, body)
	}
	code, _ = send("POST", "/engine-rest/task/nope/claim", map[string]string{"Sec-Fetch-Site": "cross-site"})
	if code != http.StatusForbidden {
		t.Errorf("cross-site claim without Origin = %d, want 403", code)
	}
	// the listed origin and tools without an Origin reach the engine (404: no such task)
	for _, h := range []map[string]string{{"Origin": "https://app.example.nl"}, nil} {
		if code, body := send("POST", "/engine-rest/task/nope/claim", h); code != http.StatusNotFound {
			t.Errorf("claim with %v = %d %s, want the engine's 404", h, code, body)
		}
	}
}
