package server

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

func TestSecurityHeaders(t *testing.T) {
	ta := newTestApp(t, nil)
	h := ta.c.Get("/").Header
	for k, want := range map[string]string{
		"Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; script-src 'self'; img-src 'self' data: https:",
		"X-Content-Type-Options":  "nosniff", "Referrer-Policy": "no-referrer", "X-Frame-Options": "SAMEORIGIN",
	} {
		if h.Get(k) != want {
			t.Errorf("%s = %q, want %q", k, h.Get(k), want)
		}
	}
	if h.Get("Strict-Transport-Security") != "" {
		t.Error("HSTS over plain HTTP outside production")
	}
	off := newTestApp(t, map[string]string{"HELMET_ENABLED": "false"})
	if off.c.Get("/").Header.Get("Content-Security-Policy") != "" {
		t.Error("HELMET_ENABLED=false still sends the headers")
	}
}

func TestRequestIDs(t *testing.T) {
	ta := newTestApp(t, nil)
	if got := ta.c.Get("/", "X-Request-ID", "abc-123.x:y").Header.Get("X-Request-ID"); got != "abc-123.x:y" {
		t.Errorf("a well-formed id must be kept, got %q", got)
	}
	uuid := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	for _, bad := range []string{"", "has space", "x/y", strings.Repeat("a", 129)} {
		if got := ta.c.Get("/", "X-Request-ID", bad).Header.Get("X-Request-ID"); !uuid.MatchString(got) {
			t.Errorf("id %q: got %q, want a fresh UUIDv4", bad, got)
		}
	}
}

func TestCORS(t *testing.T) {
	env := map[string]string{"CORS_ORIGIN": "https://mijn.example.nl", "CORS_PREVIEW_SLUGS": "ronl-app"}
	ta := newTestApp(t, env)
	preflight := func(c *testApp, origin string) *http.Response {
		req, _ := http.NewRequest(http.MethodOptions, c.c.URL()+"/v1/decision/x/evaluate", nil)
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", "POST")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	for _, tc := range []struct {
		origin string
		ok     bool
	}{
		{"https://mijn.example.nl", true},
		{"https://mijn.example.nl/", false},
		{"http://mijn.example.nl", false},
		{"https://ronl-app-42.westeurope.3.azurestaticapps.net", true},
		{"https://ronl-app-42.westeurope.3.azurestaticapps.net.evil.example", false},
		{"https://evil-ronl-app-42.westeurope.3.azurestaticapps.net", false},
		{"https://ronlXapp-42.westeurope.3.azurestaticapps.net", false},
	} {
		resp := preflight(ta, tc.origin)
		allowed := resp.Header.Get("Access-Control-Allow-Origin") == tc.origin
		if resp.StatusCode != 204 || allowed != tc.ok || !strings.Contains(strings.Join(resp.Header.Values("Vary"), ","), "Origin") {
			t.Errorf("%s: %d allow-origin %q, want allowed=%v", tc.origin, resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"), tc.ok)
		}
		if tc.ok && (resp.Header.Get("Access-Control-Allow-Headers") != "Content-Type, Authorization, X-Request-ID" ||
			resp.Header.Get("Access-Control-Allow-Credentials") != "true") {
			t.Errorf("%s: allow headers %v", tc.origin, resp.Header)
		}
		if resp.Header.Get("RateLimit-Limit") != "" {
			t.Errorf("%s: a preflight was rate limited", tc.origin)
		}
	}
	get := ta.c.Get("/", "Origin", "https://mijn.example.nl")
	if !strings.Contains(get.Header.Get("Access-Control-Expose-Headers"), "RateLimit-Remaining") {
		t.Errorf("expose headers: %q", get.Header.Get("Access-Control-Expose-Headers"))
	}
	// In production the preview slugs are ignored.
	prod := map[string]string{"DEPLOYMENT_ENV": "production", "IDP_URL": "http://127.0.0.1:1"}
	for k, v := range env {
		prod[k] = v
	}
	tp := newTestApp(t, prod)
	if resp := preflight(tp, "https://ronl-app-42.westeurope.3.azurestaticapps.net"); resp.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Error("preview origin allowed in production")
	}
	if resp := preflight(tp, "https://mijn.example.nl"); resp.Header.Get("Access-Control-Allow-Origin") != "https://mijn.example.nl" {
		t.Error("exact origin refused in production")
	}
}

func TestRateLimit(t *testing.T) {
	ta := newTestApp(t, map[string]string{"RATE_LIMIT_MAX_REQUESTS": "2", "RATE_LIMIT_WINDOW_MS": "60000"})
	first := ta.c.Get("/v1/health/live")
	if first.Header.Get("RateLimit-Limit") != "2" || first.Header.Get("RateLimit-Remaining") != "1" || first.Header.Get("RateLimit-Reset") == "" {
		t.Errorf("headers: %v", first.Header)
	}
	ta.c.Get("/v1/health/live").ExpectStatus(t, 200)
	resp := ta.c.Get("/v1/health/live")
	msg := resp.ExpectError(t, 429, "RATE_LIMIT_EXCEEDED")
	if msg != "Too many requests, please try again later" || resp.Header.Get("Retry-After") == "" || resp.Header.Get("API-Version") != version {
		t.Errorf("429: %q %v", msg, resp.Header)
	}
	for k := range resp.Header {
		if strings.HasPrefix(strings.ToLower(k), "x-ratelimit") {
			t.Errorf("legacy header %s", k)
		}
	}
	// Under /v1/brp/ the 429 is a problem.
	expectProblem(t, ta.c.Post("/v1/brp/personen", `{}`), 429, "RATE_LIMIT_EXCEEDED", "/v1/brp/personen")
}

func TestTrustProxy(t *testing.T) {
	for _, tc := range []struct {
		trust string
		want  int
	}{{"true", 200}, {"false", 429}} {
		ta := newTestApp(t, map[string]string{"RATE_LIMIT_MAX_REQUESTS": "1", "TRUST_PROXY": tc.trust})
		ta.c.Get("/v1/health/live", "X-Forwarded-For", "203.0.113.1").ExpectStatus(t, 200)
		// Another client behind the same proxy: its own window only when the
		// proxy is trusted.
		if got := ta.c.Get("/v1/health/live", "X-Forwarded-For", "203.0.113.2").Status; got != tc.want {
			t.Errorf("TRUST_PROXY=%s: second client got %d, want %d", tc.trust, got, tc.want)
		}
	}
}

func TestWriteLimiter(t *testing.T) {
	ta := newTestApp(t, nil)
	h := ta.clientIP(ta.writeLimited(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(201) })))
	for i := range 11 {
		rec := httptest.NewRecorder()
		r := httptest.NewRequest("POST", "/v1/public/use-case", nil)
		r.RemoteAddr = "198.51.100.4:999"
		h.ServeHTTP(rec, r)
		want := 201
		if i == 10 {
			want = 429
		}
		if rec.Code != want {
			t.Fatalf("submission %d: %d, want %d", i+1, rec.Code, want)
		}
		if i == 10 && (!strings.Contains(rec.Body.String(), "Too many submissions, please try again later.") || rec.Header().Get("RateLimit-Limit") != "10") {
			t.Errorf("write limiter 429: %v %s", rec.Header(), rec.Body)
		}
	}
}

func TestPanicRecovery(t *testing.T) {
	ta := newTestApp(t, map[string]string{"DEPLOYMENT_ENV": "production", "IDP_URL": "http://127.0.0.1:1"})
	ta.router.Mux().HandleFunc("/v1/boom", func(http.ResponseWriter, *http.Request) { panic("secret detail") })
	resp := ta.c.Get("/v1/boom")
	msg := resp.ExpectError(t, 500, "INTERNAL_ERROR")
	if msg != "Internal server error" || resp.Header.Get("API-Version") != version || resp.Header.Get("X-Request-ID") == "" {
		t.Errorf("panic: %q %v", msg, resp.Header)
	}
	if !strings.Contains(ta.logs.String(), "path=/v1/boom status=500") || strings.Contains(ta.logs.String(), "path=/v1/boom status=200") {
		t.Errorf("the access log must record the panic as 500:\n%s", ta.logs.String())
	}
}

func TestAccessLogHasNoQueryOrBody(t *testing.T) {
	ta := newTestApp(t, nil)
	tok := ta.token(t, caseworker("utrecht"))
	ta.c.Post("/v1/decision/SVB_LeeftijdsInformatie/evaluate?bsn=999992235", leeftijdBody, bearer(tok)...).Data(t, 200, nil)
	logs := ta.logs.String()
	if !strings.Contains(logs, "path=/v1/decision/SVB_LeeftijdsInformatie/evaluate") || !strings.Contains(logs, "client_ip=127.0.0.1") {
		t.Errorf("access log line missing:\n%s", logs)
	}
	for _, leaked := range []string{"999992235", "1980-01-23", "bsn="} {
		if strings.Contains(logs, leaked) {
			t.Errorf("log holds %q:\n%s", leaked, logs)
		}
	}
}
