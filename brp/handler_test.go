package brp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

const wesselBody = `{"type":"RaadpleegMetBurgerservicenummer","burgerservicenummer":["999992235"],` +
	`"fields":["burgerservicenummer","naam","geboorte","leeftijd","partners","kinderen"]}`

// rig is the handler mounted on a real mux in front of an upstream.
type rig struct {
	srv    *httptest.Server
	mu     sync.Mutex
	events []Event
}

func newRig(t *testing.T, up Upstream, logger *slog.Logger) *rig {
	t.Helper()
	r := &rig{}
	mux := http.NewServeMux()
	mux.Handle("/v1/brp/personen", Handler(HandlerOptions{
		Upstream:     up,
		MaxBodyBytes: 64 << 10,
		Logger:       logger,
		Observe: func(ctx context.Context, e Event) {
			r.mu.Lock()
			defer r.mu.Unlock()
			e.Duration = 0
			r.events = append(r.events, e)
		},
	}))
	r.srv = httptest.NewServer(mux)
	t.Cleanup(r.srv.Close)
	return r
}

// post sends body and returns the status, content type and decoded answer.
func (r *rig) post(t *testing.T, body string) (int, string, map[string]any) {
	t.Helper()
	resp, err := http.Post(r.srv.URL+"/v1/brp/personen?trace=1", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatalf("answer is not JSON: %v", err)
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), out
}

func (r *rig) lastEvent(t *testing.T) Event {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.events) == 0 {
		t.Fatal("Observe was not called")
	}
	return r.events[len(r.events)-1]
}

func decodeJSON(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("bad test JSON %q: %v", s, err)
	}
	return v
}

// fixedClock is 1 June 2026, noon in the Netherlands.
func fixedClock() time.Time { return time.Date(2026, time.June, 1, 10, 0, 0, 0, time.UTC) }

func TestLookupThroughTheRegister(t *testing.T) {
	var got struct {
		sync.Mutex
		header http.Header
		body   []byte
		path   string
	}
	reg := &Register{Now: fixedClock}
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got.Lock()
		got.header, got.body, got.path = r.Header.Clone(), b, r.URL.Path
		got.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(b))
		reg.ServeHTTP(w, r)
	}))
	defer upstream.Close()
	client := &Client{BaseURL: upstream.URL + "/haalcentraal/api/brp/", Header: http.Header{"X-Api-Key": {"test-key"}}}
	rg := newRig(t, client, nil)

	body := `{"type":"RaadpleegMetBurgerservicenummer","burgerservicenummer":["999992235"],` +
		`"fields":["burgerservicenummer","naam","leeftijd","partners.naam","kinderen.burgerservicenummer"],"extra":{"kept":true}}`
	status, ctype, out := rg.post(t, body)
	if status != http.StatusOK || ctype != "application/json; charset=utf-8" {
		t.Fatalf("status %d, content type %q", status, ctype)
	}
	want := decodeJSON(t, `{
		"type": "RaadpleegMetBurgerservicenummer",
		"personen": [{
			"burgerservicenummer": "999992235",
			"leeftijd": 45,
			"naam": {
				"aanduidingNaamgebruik": {"code": "E", "omschrijving": "eigen geslachtsnaam"},
				"voornamen": "Wessel", "geslachtsnaam": "Kooyman", "voorletters": "W.", "volledigeNaam": "Wessel Kooyman"
			},
			"partners": [{"naam": {"voornamen": "Catootje", "geslachtsnaam": "Altena", "voorletters": "C."}}],
			"kinderen": [
				{"burgerservicenummer": "999991231"},
				{"burgerservicenummer": "999994554"},
				{"burgerservicenummer": "999991954"}
			]
		}]
	}`)
	if out["success"] != true {
		t.Errorf("success = %v", out["success"])
	}
	if diff := cmp.Diff(want, out["data"]); diff != "" {
		t.Errorf("data (-want +got):\n%s", diff)
	}
	if ts, _ := out["timestamp"].(string); len(ts) != len("2026-01-15T10:20:30.123Z") || !strings.HasSuffix(ts, "Z") {
		t.Errorf("timestamp %q", out["timestamp"])
	}

	got.Lock()
	defer got.Unlock()
	if got.path != "/haalcentraal/api/brp/personen" {
		t.Errorf("upstream path %q", got.path)
	}
	if string(got.body) != body {
		t.Errorf("forwarded body %q, want it unchanged", got.body)
	}
	for k, v := range map[string]string{
		"Content-Type": "application/json; charset=utf-8",
		"Accept":       "application/json",
		"X-Api-Key":    "test-key",
	} {
		if got.header.Get(k) != v {
			t.Errorf("upstream header %s = %q, want %q", k, got.header.Get(k), v)
		}
	}
	if diff := cmp.Diff(Event{BSN: "999992235", Type: QueryType, Count: 1, Status: 200}, rg.lastEvent(t)); diff != "" {
		t.Errorf("event (-want +got):\n%s", diff)
	}
}

// problem checks the six standard members of a problem answer.
func checkProblem(t *testing.T, status int, ctype string, out map[string]any, wantStatus int, code, detail string) {
	t.Helper()
	if status != wantStatus || ctype != "application/problem+json" {
		t.Errorf("status %d, content type %q; want %d application/problem+json", status, ctype, wantStatus)
	}
	want := map[string]any{
		"type": "about:blank", "status": float64(wantStatus), "title": Title(code),
		"detail": detail, "instance": "/v1/brp/personen", "code": code,
	}
	for k, v := range want {
		if out[k] != v {
			t.Errorf("%s = %#v, want %#v", k, out[k], v)
		}
	}
}

func TestUpstreamFailures(t *testing.T) {
	tests := []struct {
		name       string
		upstream   http.HandlerFunc
		timeout    time.Duration
		wantStatus int
		wantDetail string
		wantExt    string // the details member as JSON; "" when absent
	}{
		{
			name: "400 with invalidParams",
			upstream: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/problem+json")
				w.WriteHeader(400)
				io.WriteString(w, `{"title":"Een of meerdere parameters zijn niet correct.","status":400,"code":"paramsValidation",`+
					`"invalidParams":[{"name":"fields[0]","code":"fields","reason":"Parameter bevat een niet bestaande veldnaam."}]}`)
			},
			wantStatus: 400, wantDetail: "BRP API returned an error",
			wantExt: `{"title":"Een of meerdere parameters zijn niet correct.","status":400,"code":"paramsValidation",` +
				`"invalidParams":[{"name":"fields[0]","code":"fields","reason":"Parameter bevat een niet bestaande veldnaam."}]}`,
		},
		{
			name: "404 person not found",
			upstream: func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(404)
				io.WriteString(w, `{"title":"Persoon niet gevonden","status":404,"detail":"De persoon met opgegeven burgerservicenummer is niet gevonden"}`)
			},
			wantStatus: 404, wantDetail: "BRP API returned an error",
			wantExt: `{"title":"Persoon niet gevonden","status":404,"detail":"De persoon met opgegeven burgerservicenummer is niet gevonden"}`,
		},
		{
			name: "403 with a text body",
			upstream: func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(403)
				io.WriteString(w, "forbidden for this client")
			},
			wantStatus: 403, wantDetail: "BRP API returned an error", wantExt: `"forbidden for this client"`,
		},
		{
			name: "400 with a body too large to pass on",
			upstream: func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(400)
				io.WriteString(w, `{"detail":"`+strings.Repeat("x", 70<<10)+`"}`)
			},
			wantStatus: 400, wantDetail: "BRP API returned an error",
		},
		{
			name: "404 without a body",
			upstream: func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(404)
			},
			wantStatus: 404, wantDetail: "BRP API returned an error", wantExt: `""`,
		},
		{
			name: "503 with a problem",
			upstream: func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(503)
				io.WriteString(w, `{"title":"Service Unavailable","detail":"Onderhoud tot 06:00"}`)
			},
			wantStatus: 503, wantDetail: "Onderhoud tot 06:00",
		},
		{
			name: "500 without JSON",
			upstream: func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(500)
				io.WriteString(w, "<html>boom</html>")
			},
			wantStatus: 500, wantDetail: "BRP API request failed",
		},
		{
			name:       "hang past the timeout",
			upstream:   hang,
			timeout:    150 * time.Millisecond,
			wantStatus: 500, wantDetail: "BRP API did not respond within 150 ms",
		},
		{
			name: "malformed JSON",
			upstream: func(w http.ResponseWriter, r *http.Request) {
				io.WriteString(w, `{"type":"RaadpleegMetBurgerservicenummer","personen":[{"burgerservicenummer":"999992235"`)
			},
			wantStatus: 500, wantDetail: "BRP API returned a response that is not valid JSON",
		},
		{
			name: "50 MB answer",
			upstream: func(w http.ResponseWriter, r *http.Request) {
				chunk := bytes.Repeat([]byte(" "), 1<<20)
				io.WriteString(w, `{"personen":[`)
				for range 50 {
					if _, err := w.Write(chunk); err != nil {
						return // the client stopped reading
					}
				}
				io.WriteString(w, `]}`)
			},
			wantStatus: 500, wantDetail: "BRP API response exceeds the limit of 4194304 bytes",
		},
		{
			name: "50 MB answer announced",
			upstream: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Length", "52428800")
				w.WriteHeader(200)
				io.WriteString(w, `{"personen":[`)
			},
			wantStatus: 500, wantDetail: "BRP API response exceeds the limit of 4194304 bytes",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			upstream := httptest.NewServer(tt.upstream)
			defer upstream.Close()
			rg := newRig(t, &Client{BaseURL: upstream.URL, Timeout: tt.timeout}, nil)
			start := time.Now()
			status, ctype, out := rg.post(t, wesselBody)
			checkProblem(t, status, ctype, out, tt.wantStatus, CodeAPIError, tt.wantDetail)
			ext, has := out["details"]
			switch {
			case tt.wantExt == "" && has:
				t.Errorf("details = %v, want none", ext)
			case tt.wantExt != "":
				if diff := cmp.Diff(decodeJSON(t, tt.wantExt), ext); diff != "" {
					t.Errorf("details (-want +got):\n%s", diff)
				}
			}
			if tt.timeout > 0 && time.Since(start) > tt.timeout+2*time.Second {
				t.Errorf("took %v with a timeout of %v", time.Since(start), tt.timeout)
			}
			want := Event{BSN: "999992235", Type: QueryType, Count: 1, Status: tt.wantStatus, Code: CodeAPIError}
			if diff := cmp.Diff(want, rg.lastEvent(t)); diff != "" {
				t.Errorf("event (-want +got):\n%s", diff)
			}
		})
	}
}

// refusedURL is an address where nothing listens.
func refusedURL(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr
}

func TestRefusedConnection(t *testing.T) {
	client := &Client{BaseURL: refusedURL(t)}
	rg := newRig(t, client, nil)
	status, ctype, out := rg.post(t, wesselBody)
	checkProblem(t, status, ctype, out, 500, CodeAPIError, "BRP API could not be reached")

	_, err := client.Lookup(context.Background(), []byte(wesselBody))
	var ue *UpstreamError
	if !errors.As(err, &ue) || ue.Status != 0 || ue.Timeout() {
		t.Fatalf("Lookup = %#v, want an UpstreamError without status, not a timeout", err)
	}
	if !errors.Is(err, ErrUnreachable) || !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("Lookup = %v, want ErrUnreachable wrapping ECONNREFUSED", err)
	}
	if strings.Contains(ue.Detail, "127.0.0.1") {
		t.Errorf("detail %q names the upstream address", ue.Detail)
	}
}

func TestClientTimeoutIsDistinguishable(t *testing.T) {
	upstream := httptest.NewServer(http.HandlerFunc(hang))
	defer upstream.Close()
	_, err := (&Client{BaseURL: upstream.URL, Timeout: 50 * time.Millisecond}).Lookup(context.Background(), []byte(wesselBody))
	var ue *UpstreamError
	if !errors.As(err, &ue) || !ue.Timeout() || !errors.Is(err, ErrTimeout) || errors.Is(err, ErrUnreachable) {
		t.Fatalf("Lookup = %v, want a timeout", err)
	}
	// The caller's own cancellation is not a register timeout.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err = (&Client{BaseURL: upstream.URL}).Lookup(ctx, []byte(wesselBody))
	if !errors.As(err, &ue) || ue.Timeout() || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Lookup with a cancelled context = %v", err)
	}
}

func TestRequestFailures(t *testing.T) {
	var calls atomic.Int32
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { calls.Add(1) }))
	defer upstream.Close()
	rg := newRig(t, &Client{BaseURL: upstream.URL}, nil)

	status, ctype, out := rg.post(t, "{\n\"type\": RaadpleegMet}")
	checkProblem(t, status, ctype, out, 400, CodeMalformedBody, "The request body could not be parsed.")
	wantParams := decodeJSON(t, `[{"name":"body","code":"syntax","reason":"malformed JSON body at line 2, column 9: invalid character 'R' looking for beginning of value"}]`)
	if diff := cmp.Diff(wantParams, out["invalidParams"]); diff != "" {
		t.Errorf("invalidParams (-want +got):\n%s", diff)
	}

	status, ctype, out = rg.post(t, `{"type":"RaadpleegMetBurgerservicenummer","burgerservicenummer":["12345"],"fields":["naam","foto"]}`)
	checkProblem(t, status, ctype, out, 400, CodeValidation, "burgerservicenummer[0]: Value does not match the pattern ^[0-9]{9}$.")
	wantParams = decodeJSON(t, `[
		{"name":"burgerservicenummer[0]","code":"pattern","reason":"Value does not match the pattern ^[0-9]{9}$."},
		{"name":"fields[1]","code":"fields","reason":"Parameter names a field that does not exist."}]`)
	if diff := cmp.Diff(wantParams, out["invalidParams"]); diff != "" {
		t.Errorf("invalidParams (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(Event{Status: 400, Code: CodeValidation}, rg.lastEvent(t)); diff != "" {
		t.Errorf("event (-want +got):\n%s", diff)
	}

	status, ctype, out = rg.post(t, `{"fields":["`+strings.Repeat("a", 70<<10)+`"]}`)
	checkProblem(t, status, ctype, out, 413, CodePayloadTooLarge, "The request body exceeds the limit of 64 KB.")

	resp, err := http.Get(rg.srv.URL + "/v1/brp/personen")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 405 || resp.Header.Get("Allow") != "POST" || resp.Header.Get("Content-Type") != ProblemContentType {
		t.Errorf("GET: %d, Allow %q, %q", resp.StatusCode, resp.Header.Get("Allow"), resp.Header.Get("Content-Type"))
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("the register was called %d times for refused bodies", n)
	}
}

func TestNoUpstream(t *testing.T) {
	rg := newRig(t, nil, nil)
	status, ctype, out := rg.post(t, wesselBody)
	checkProblem(t, status, ctype, out, 500, CodeAPIError, "BRP API is not configured")
}

func TestWriteProblem(t *testing.T) {
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("POST", "/v1/brp/personen?x=1", nil)
	WriteProblem(rec, req, http.StatusTooManyRequests, CodeRateLimit, "Too many requests, please try again later")
	want := `{"type":"about:blank","status":429,"title":"Rate limit exceeded","detail":"Too many requests, please try again later","instance":"/v1/brp/personen","code":"RATE_LIMIT_EXCEEDED"}` + "\n"
	if rec.Body.String() != want {
		t.Errorf("body\n%s\nwant\n%s", rec.Body.String(), want)
	}
	if rec.Code != 429 || rec.Header().Get("Content-Type") != "application/problem+json" {
		t.Errorf("status %d, content type %q", rec.Code, rec.Header().Get("Content-Type"))
	}
	if got := Title("BRP_API_ERROR"); got != "Brp api error" {
		t.Errorf("Title = %q", got)
	}
}

// TestLogsCarryNoCitizenNumber runs a lookup through every outcome with all
// slog output captured — the default logger's and the handler's — and
// checks that no number of the request or of the answers appears in it.
func TestLogsCarryNoCitizenNumber(t *testing.T) {
	var buf bytes.Buffer
	var mu sync.Mutex
	logger := slog.New(slog.NewJSONHandler(&lockedWriter{w: &buf, mu: &mu}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	prev := slog.Default()
	slog.SetDefault(logger)
	defer slog.SetDefault(prev)

	reg := &Register{Now: fixedClock}
	upstreams := []http.HandlerFunc{
		reg.ServeHTTP, // success, with the family's numbers in the answer
		func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(400)
			io.WriteString(w, `{"invalidParams":[{"name":"burgerservicenummer[0]","reason":"999992235 is ongeldig"}]}`)
		},
		func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(404)
			io.WriteString(w, `{"title":"Persoon niet gevonden","detail":"999992235 niet gevonden"}`)
		},
		func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(503)
			io.WriteString(w, `{"detail":"storing bij opvragen 999992235"}`)
		},
		func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, `{"burgerservicenummer":"999992235"`) },
		hang,
	}
	bodies := []string{
		`{"type":"RaadpleegMetBurgerservicenummer","burgerservicenummer":["999992235"],"fields":["burgerservicenummer","partners","kinderen"]}`,
		`{"type":"RaadpleegMetBurgerservicenummer","burgerservicenummer":["999992235","999991450"],"fields":["naam"]}`,
		`{"type":"RaadpleegMetBurgerservicenummer","burgerservicenummer":["999992235"],"fields":["naam"],}`,
	}
	for _, up := range upstreams {
		upstream := httptest.NewServer(up)
		rg := newRig(t, &Client{BaseURL: upstream.URL, Timeout: 100 * time.Millisecond}, logger)
		for _, body := range bodies {
			rg.post(t, body)
		}
		upstream.Close()
	}
	rg := newRig(t, &Client{BaseURL: refusedURL(t)}, logger)
	rg.post(t, bodies[0])
	rg = newRig(t, reg, logger) // the embedded register without HTTP
	rg.post(t, bodies[0])

	mu.Lock()
	out := buf.String()
	mu.Unlock()
	if strings.Count(out, `"msg":"brp lookup"`) != 3*len(upstreams)+2 {
		t.Fatalf("want one log line per lookup, got:\n%s", out)
	}
	for _, n := range []string{"999992235", "999991450", "999991231", "999994554", "999991954", "999-99-2235"} {
		if strings.Contains(out, n) {
			t.Errorf("log output contains %q:\n%s", n, out)
		}
	}
}

type lockedWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// hang answers nothing until the client goes away. It reads the body first:
// only then does the server notice a closed connection.
func hang(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	select {
	case <-r.Context().Done():
	case <-time.After(10 * time.Second):
	}
}

func TestRedirectIsNotFollowed(t *testing.T) {
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { elsewhere.Add(1) }))
	defer other.Close()
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/personen", http.StatusTemporaryRedirect)
	}))
	defer upstream.Close()
	rg := newRig(t, &Client{BaseURL: upstream.URL}, nil)
	status, ctype, out := rg.post(t, wesselBody)
	checkProblem(t, status, ctype, out, 500, CodeAPIError, "BRP API answered with unexpected status 307")
	if n := elsewhere.Load(); n != 0 {
		t.Errorf("the body followed the redirect %d times", n)
	}
}
