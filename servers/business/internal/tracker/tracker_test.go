package tracker

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/regelkit/regelkit/servers/internal/apitest"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
)

// recorded is one request the fake GitLab received.
type recorded struct {
	Method, Path, Query, Token, ContentType string
	Body                                    []byte
	FileName, FileType                      string
	FileData                                []byte
}

// fakeGitLab speaks the three GitLab v4 calls the tracker makes and records
// what it was sent; status overrides the answer of a path suffix.
type fakeGitLab struct {
	srv     *httptest.Server
	mu      sync.Mutex
	reqs    []recorded
	status  map[string]int
	uploads int
}

func newFakeGitLab(t *testing.T) *fakeGitLab {
	g := &fakeGitLab{status: map[string]int{}}
	g.srv = httptest.NewServer(http.HandlerFunc(g.serve))
	t.Cleanup(g.srv.Close)
	return g
}

func (g *fakeGitLab) serve(w http.ResponseWriter, r *http.Request) {
	rec := recorded{Method: r.Method, Path: r.URL.EscapedPath(), Query: r.URL.RawQuery, Token: r.Header.Get("PRIVATE-TOKEN"),
		ContentType: r.Header.Get("Content-Type")}
	if strings.HasSuffix(r.URL.Path, "/uploads") {
		f, h, err := r.FormFile("file")
		if err == nil {
			rec.FileName, rec.FileType = h.Filename, h.Header.Get("Content-Type")
			rec.FileData, _ = io.ReadAll(f)
		}
	} else {
		rec.Body, _ = io.ReadAll(r.Body)
	}
	g.mu.Lock()
	g.reqs = append(g.reqs, rec)
	g.mu.Unlock()
	for suffix, status := range g.status {
		if strings.HasSuffix(r.URL.Path, suffix) {
			w.WriteHeader(status)
			fmt.Fprint(w, `{"message":"internal detail that must not reach the client"}`)
			return
		}
	}
	switch {
	case strings.HasSuffix(r.URL.Path, "/uploads"):
		g.mu.Lock()
		g.uploads++
		n := g.uploads
		g.mu.Unlock()
		w.WriteHeader(201)
		fmt.Fprintf(w, `{"alt":"%[2]s","url":"/uploads/h%[1]d/%[2]s","full_path":"/group/project/uploads/h%[1]d/%[2]s","markdown":"![%[2]s](/uploads/h%[1]d/%[2]s)"}`,
			n, rec.FileName)
	case r.Method == "POST" && strings.HasSuffix(r.URL.Path, "/issues"):
		w.WriteHeader(201)
		fmt.Fprint(w, `{"id":901,"iid":42,"title":"x","web_url":"https://gitlab.example/group/project/-/issues/42"}`)
	case r.Method == "GET" && strings.HasSuffix(r.URL.Path, "/issues"):
		fmt.Fprint(w, `[{"iid":7,"title":"[Use Case] B","state":"opened","created_at":"2026-11-02T10:00:00Z","updated_at":"2026-11-03T10:00:00Z",
		  "web_url":"https://gitlab.example/group/project/-/issues/7","labels":["uc::submitted"],"assignees":[{"name":"Ada","username":"ada"}],
		  "description":"tekst","author":{"name":"bot"}},
		 {"iid":5,"title":"[Use Case] A","state":"opened","created_at":"2026-11-01T10:00:00Z","updated_at":"2026-11-01T10:00:00Z",
		  "web_url":"https://gitlab.example/group/project/-/issues/5","labels":null,"assignees":[],"description":null}]`)
	default:
		http.NotFound(w, r)
	}
}

func (g *fakeGitLab) requests() []recorded {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]recorded(nil), g.reqs...)
}

func serveTracker(t *testing.T, cfg Config, limit func(http.Handler) http.Handler) *apitest.Client {
	t.Helper()
	r := httpapi.NewRouter(httpapi.RouterOptions{})
	New(cfg).Routes(r, limit)
	return apitest.New(t, r)
}

func configured(g *fakeGitLab) Config {
	return Config{BaseURL: g.srv.URL + "/", Token: "glpat-test", ProjectPath: "group/project",
		Now: func() time.Time { return time.Date(2026, 11, 23, 23, 30, 0, 0, time.UTC) }}
}

const issuesPath = "/api/v4/projects/group%2Fproject/issues"

func TestUseCase(t *testing.T) {
	g := newFakeGitLab(t)
	c := serveTracker(t, configured(g), nil)
	resp := c.Post("/v1/public/use-case", `{"title": "  Huurtoeslag berekenen ", "description": "Als burger wil ik **weten**"}`).ExpectStatus(t, 201)
	var got struct {
		Success bool    `json:"success"`
		Data    Created `json:"data"`
		Meta    struct {
			GeneratedAt string `json:"generatedAt"`
		} `json:"meta"`
	}
	resp.Decode(t, &got)
	if !got.Success || got.Data != (Created{IID: 42, WebURL: "https://gitlab.example/group/project/-/issues/42"}) || got.Meta.GeneratedAt == "" {
		t.Errorf("answer %s", resp.Body)
	}
	reqs := g.requests()
	if len(reqs) != 1 || reqs[0].Method != "POST" || reqs[0].Path != issuesPath || reqs[0].Token != "glpat-test" ||
		reqs[0].ContentType != "application/json" {
		t.Fatalf("requests %+v", reqs)
	}
	var sent map[string]string
	if err := json.Unmarshal(reqs[0].Body, &sent); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"title": "[Use Case] Huurtoeslag berekenen", "description": "Als burger wil ik **weten**", "labels": "uc::submitted"}
	if d := cmp.Diff(want, sent); d != "" {
		t.Errorf("issue (-want +got):\n%s", d)
	}
	for _, body := range []string{`{"title": " ", "description": "x"}`, `{"title": "x"}`, `{}`, ``} {
		c.Post("/v1/public/use-case", body).ExpectError(t, 400, CodeUseCase)
	}
	c.Post("/v1/public/use-case", `{"title": `).ExpectError(t, 400, "MALFORMED_BODY")
	if n := len(g.requests()); n != 1 {
		t.Errorf("invalid bodies reached the tracker: %d requests", n)
	}
}

func TestUseCaseList(t *testing.T) {
	g := newFakeGitLab(t)
	c := serveTracker(t, Config{BaseURL: g.srv.URL, Token: "tok", ProjectPath: "group%2Fproject"}, nil)
	var got struct {
		Data []Issue `json:"data"`
	}
	c.Get("/v1/public/use-cases?state=bogus").ExpectStatus(t, 200).Decode(t, &got)
	want := []Issue{
		{IID: 7, Title: "[Use Case] B", State: "opened", CreatedAt: "2026-11-02T10:00:00Z", UpdatedAt: "2026-11-03T10:00:00Z",
			WebURL: "https://gitlab.example/group/project/-/issues/7", Labels: []string{"uc::submitted"}, Assignees: []string{"Ada"}, Description: "tekst"},
		{IID: 5, Title: "[Use Case] A", State: "opened", CreatedAt: "2026-11-01T10:00:00Z", UpdatedAt: "2026-11-01T10:00:00Z",
			WebURL: "https://gitlab.example/group/project/-/issues/5", Labels: []string{}, Assignees: []string{}},
	}
	if d := cmp.Diff(want, got.Data); d != "" {
		t.Errorf("issues (-want +got):\n%s", d)
	}
	c.Get("/v1/public/use-cases?state=closed").ExpectStatus(t, 200)
	reqs := g.requests()
	// A pre-encoded project path is used as it is, never encoded twice.
	if reqs[0].Path != issuesPath || reqs[0].Query != "order_by=created_at&per_page=100&sort=desc&state=opened" ||
		reqs[1].Query != "order_by=created_at&per_page=100&sort=desc&state=closed" {
		t.Errorf("requests %+v", reqs)
	}
}

// multipartBody builds a form: fields in order, then files (field, name, data).
func multipartBody(t *testing.T, fields [][2]string, files []struct {
	field, name string
	data        []byte
}) (string, []byte) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, f := range fields {
		_ = mw.WriteField(f[0], f[1])
	}
	for _, f := range files {
		w, err := mw.CreateFormFile(f.field, f.name)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = w.Write(f.data)
	}
	_ = mw.Close()
	return mw.FormDataContentType(), buf.Bytes()
}

type fileSpec = struct {
	field, name string
	data        []byte
}

var png = append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), make([]byte, 64)...)

func post(t *testing.T, c *apitest.Client, path, contentType string, body []byte) *apitest.Response {
	t.Helper()
	return c.Do("POST", path, body, "Content-Type", contentType)
}

func TestFeedback(t *testing.T) {
	g := newFakeGitLab(t)
	c := serveTracker(t, configured(g), nil)
	ct, body := multipartBody(t, [][2]string{
		{"name", "Jan | de <b>Vries</b>"}, {"org", "Gemeente\nVoorbeeld"}, {"contact", "jan@example.nl"},
		{"description", "Het formulier **hangt**.\nStap 2."},
	}, []fileSpec{{"screenshots", "scherm 1.png", png}, {"screenshots", "notes.txt", []byte("plain text, not an image")},
		{"screenshots", "../../etc/scherm2.png", png}})
	resp := post(t, c, "/v1/public/feedback", ct, body).ExpectStatus(t, 201)
	var got struct {
		Data Created `json:"data"`
	}
	resp.Decode(t, &got)
	if got.Data.IID != 42 {
		t.Errorf("answer %s", resp.Body)
	}
	reqs := g.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d tracker requests, want two uploads (the text file dropped) and one issue: %+v", len(reqs), reqs)
	}
	for i, name := range []string{"scherm 1.png", "scherm2.png"} {
		if reqs[i].Path != "/api/v4/projects/group%2Fproject/uploads" || reqs[i].FileName != name || reqs[i].FileType != "image/png" ||
			!bytes.Equal(reqs[i].FileData, png) || reqs[i].Token != "glpat-test" {
			t.Errorf("upload %d: %+v", i, reqs[i])
		}
	}
	var issue map[string]string
	if err := json.Unmarshal(reqs[2].Body, &issue); err != nil {
		t.Fatal(err)
	}
	wantBody := "## Indiener · Submitter\n\n| | |\n|---|---|\n" +
		"| Naam | Jan \\| de &lt;b>Vries&lt;/b> |\n" +
		"| Organisatie | Gemeente Voorbeeld |\n" +
		"| Functie | — |\n" +
		"| Contact | jan@example.nl |\n" +
		"| Datum | 24-11-2026 |\n" + // 23:30 UTC is the 24th in Amsterdam
		"\n## Beschrijving · Description\n\nHet formulier **hangt**.\nStap 2.\n" +
		"\n## Screenshots\n\n![scherm 1.png](/uploads/h1/scherm 1.png)\n![scherm2.png](/uploads/h2/scherm2.png)\n"
	if issue["title"] != "[Feedback] Jan | de <b>Vries</b>" || issue["labels"] != "Feedback" {
		t.Errorf("issue title/labels %q %q", issue["title"], issue["labels"])
	}
	if d := cmp.Diff(wantBody, issue["description"]); d != "" {
		t.Errorf("issue body (-want +got):\n%s", d)
	}
}

func TestFeedbackRefusals(t *testing.T) {
	g := newFakeGitLab(t)
	c := serveTracker(t, configured(g), nil)
	ct, body := multipartBody(t, [][2]string{{"name", "Jan"}, {"description", " "}}, nil)
	msg := post(t, c, "/v1/public/feedback", ct, body).ExpectError(t, 400, CodeMissingFields)
	if msg != "Required fields missing: contact, description" {
		t.Errorf("message %q", msg)
	}
	var six []fileSpec
	for i := range 6 {
		six = append(six, fileSpec{"screenshots", fmt.Sprintf("s%d.png", i), png})
	}
	ct, body = multipartBody(t, [][2]string{{"name", "Jan"}, {"contact", "j@x.nl"}, {"description", "d"}}, six)
	post(t, c, "/v1/public/feedback", ct, body).ExpectError(t, 400, CodeValidation)
	big := append(append([]byte{}, png...), make([]byte, MaxFileBytes)...)
	ct, body = multipartBody(t, [][2]string{{"name", "Jan"}, {"contact", "j@x.nl"}, {"description", "d"}},
		[]fileSpec{{"screenshots", "big.png", big}})
	post(t, c, "/v1/public/feedback", ct, body).ExpectError(t, 413, "PAYLOAD_TOO_LARGE")
	post(t, c, "/v1/public/feedback", "application/json", []byte(`{}`)).ExpectError(t, 400, CodeValidation)
	if n := len(g.requests()); n != 0 {
		t.Errorf("refused forms reached the tracker: %d requests", n)
	}
}

func TestUpload(t *testing.T) {
	g := newFakeGitLab(t)
	c := serveTracker(t, configured(g), nil)
	ct, body := multipartBody(t, nil, []fileSpec{{"file", "bijlage.pdf", []byte("%PDF-1.7 example")}})
	var got struct {
		Data map[string]string `json:"data"`
	}
	post(t, c, "/v1/public/upload-file", ct, body).ExpectStatus(t, 200).Decode(t, &got)
	want := map[string]string{"markdown": "![bijlage.pdf](/uploads/h1/bijlage.pdf)", "url": "/uploads/h1/bijlage.pdf"}
	if d := cmp.Diff(want, got.Data); d != "" {
		t.Errorf("upload (-want +got):\n%s", d)
	}
	if r := g.requests()[0]; r.FileType != "application/pdf" || string(r.FileData) != "%PDF-1.7 example" {
		t.Errorf("uploaded %+v", r)
	}
	ct, body = multipartBody(t, [][2]string{{"other", "x"}}, []fileSpec{{"attachment", "a.txt", []byte("x")}})
	post(t, c, "/v1/public/upload-file", ct, body).ExpectError(t, 400, CodeNoFile)
	ct, body = multipartBody(t, nil, []fileSpec{{"file", "big.bin", make([]byte, MaxFileBytes+1)}})
	post(t, c, "/v1/public/upload-file", ct, body).ExpectError(t, 413, "PAYLOAD_TOO_LARGE")
}

// TestTrackerFailures: every failure is mapped, none leaks the tracker's
// answer or address.
func TestTrackerFailures(t *testing.T) {
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	g := newFakeGitLab(t)
	g.status["/issues"] = 500
	g.status["/uploads"] = 403
	c := serveTracker(t, configured(g), nil)
	for _, tc := range []struct {
		path, ct string
		body     []byte
		code     string
		msg      string
	}{
		{"/v1/public/use-case", "application/json", []byte(`{"title":"t","description":"d"}`), CodeTrackerError, "GitLab returned 500"},
	} {
		msg := post(t, c, tc.path, tc.ct, tc.body).ExpectError(t, 502, tc.code)
		if msg != tc.msg {
			t.Errorf("%s: %q", tc.path, msg)
		}
	}
	if msg := c.Get("/v1/public/use-cases").ExpectError(t, 502, CodeTrackerError); msg != "GitLab returned 500" {
		t.Errorf("list: %q", msg)
	}
	ct, body := multipartBody(t, nil, []fileSpec{{"file", "a.png", png}})
	if msg := post(t, c, "/v1/public/upload-file", ct, body).ExpectError(t, 502, CodeTrackerError); msg != "GitLab returned 403" {
		t.Errorf("upload: %q", msg)
	}
	ct, body = multipartBody(t, [][2]string{{"name", "n"}, {"contact", "c"}, {"description", "d"}}, []fileSpec{{"screenshots", "a.png", png}})
	post(t, c, "/v1/public/feedback", ct, body).ExpectError(t, 502, CodeTrackerError)

	cfg := configured(g)
	cfg.BaseURL = down.URL
	c = serveTracker(t, cfg, nil)
	resp := c.Post("/v1/public/use-case", `{"title":"t","description":"d"}`)
	resp.ExpectError(t, 502, CodeUnreachable)
	if strings.Contains(string(resp.Body), "127.0.0.1") {
		t.Errorf("address leaked: %s", resp.Body)
	}
	c.Get("/v1/public/use-cases").ExpectError(t, 502, CodeUnreachable)

	for _, cfg := range []Config{{}, {BaseURL: g.srv.URL, Token: "t"}, {BaseURL: g.srv.URL, ProjectPath: "p"}, {Token: "t", ProjectPath: "p"}} {
		c := serveTracker(t, cfg, nil)
		c.Post("/v1/public/use-case", `{"title":"t","description":"d"}`).ExpectError(t, 503, CodeNotConfigured)
		c.Get("/v1/public/use-cases").ExpectError(t, 503, CodeNotConfigured)
		ct, body := multipartBody(t, [][2]string{{"name", "n"}, {"contact", "c"}, {"description", "d"}}, nil)
		post(t, c, "/v1/public/feedback", ct, body).ExpectError(t, 503, CodeNotConfigured)
		ct, body = multipartBody(t, nil, []fileSpec{{"file", "a.png", png}})
		post(t, c, "/v1/public/upload-file", ct, body).ExpectError(t, 503, CodeNotConfigured)
	}
}

// solve finds the ALTCHA number by brute force, as a browser does.
func solve(t *testing.T, ch Challenge) int {
	t.Helper()
	for n := 0; n <= ch.MaxNumber; n++ {
		if hashHex(ch.Salt+strconv.Itoa(n)) == ch.Challenge {
			return n
		}
	}
	t.Fatal("no solution")
	return 0
}

func payload(ch Challenge, n int) string {
	b, _ := json.Marshal(map[string]any{"algorithm": ch.Algorithm, "challenge": ch.Challenge, "number": n, "salt": ch.Salt, "signature": ch.Signature})
	return base64.StdEncoding.EncodeToString(b)
}

func TestAltcha(t *testing.T) {
	g := newFakeGitLab(t)
	now := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	cfg := configured(g)
	cfg.AltchaKey = "k3y-for-tests-9f2"
	cfg.Now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	c := serveTracker(t, cfg, nil)

	var ch Challenge
	c.Get("/v1/public/altcha/challenge").ExpectStatus(t, 200).Decode(t, &ch)
	if ch.Algorithm != "SHA-256" || ch.MaxNumber != 50000 || !strings.HasSuffix(ch.Salt, fmt.Sprintf("?expires=%d", now.Add(10*time.Minute).Unix())) ||
		len(ch.Challenge) != 64 || len(ch.Signature) != 64 {
		t.Fatalf("challenge %+v", ch)
	}
	n := solve(t, ch)
	useCase := func(altcha string) *apitest.Response {
		b, _ := json.Marshal(map[string]string{"title": "t", "description": "d", "altcha": altcha})
		return c.Post("/v1/public/use-case", b)
	}
	useCase("").ExpectError(t, 400, CodeAltchaMissing)
	useCase("%%%").ExpectError(t, 400, CodeAltchaError)
	useCase(payload(ch, (n+1)%50001)).ExpectError(t, 400, CodeAltchaInvalid)
	forged := ch
	forged.Signature = strings.Repeat("0", 64)
	useCase(payload(forged, n)).ExpectError(t, 400, CodeAltchaInvalid)
	if len(g.requests()) != 0 {
		t.Fatal("unverified submissions reached the tracker")
	}
	useCase(payload(ch, n)).ExpectStatus(t, 201)
	if msg := useCase(payload(ch, n)).ExpectError(t, 400, CodeAltchaInvalid); !strings.Contains(msg, "already used") {
		t.Errorf("replay: %q", msg)
	}

	// Multipart forms carry it as a field, read after the files.
	var ch2 Challenge
	c.Get("/v1/public/altcha/challenge").Decode(t, &ch2)
	ct, body := multipartBody(t, nil, []fileSpec{{"file", "a.png", png}})
	post(t, c, "/v1/public/upload-file", ct, body).ExpectError(t, 400, CodeAltchaMissing)
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, _ := mw.CreateFormFile("file", "a.png")
	_, _ = fw.Write(png)
	_ = mw.WriteField("altcha", payload(ch2, solve(t, ch2)))
	_ = mw.Close()
	post(t, c, "/v1/public/upload-file", mw.FormDataContentType(), buf.Bytes()).ExpectStatus(t, 200)

	// Expired after 10 minutes.
	var ch3 Challenge
	c.Get("/v1/public/altcha/challenge").Decode(t, &ch3)
	mu.Lock()
	now = now.Add(10*time.Minute + time.Second)
	mu.Unlock()
	if msg := useCase(payload(ch3, solve(t, ch3))).ExpectError(t, 400, CodeAltchaInvalid); !strings.Contains(msg, "expired") {
		t.Errorf("expired: %q", msg)
	}

	// Without a key: no challenge, and writes skip the check.
	off := serveTracker(t, configured(g), nil)
	off.Get("/v1/public/altcha/challenge").ExpectError(t, 503, CodeAltchaNotConfigured)
	off.Post("/v1/public/use-case", `{"title":"t","description":"d"}`).ExpectStatus(t, 201)
}

func TestAltchaSpentTableIsBounded(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	a := newAltcha("k", func() time.Time { return now })
	for i := range maxSpent + 10 {
		if !a.spend(strconv.Itoa(i), now.Add(time.Minute)) {
			t.Fatalf("fresh signature %d refused", i)
		}
	}
	if len(a.spent) > maxSpent {
		t.Errorf("spent table holds %d entries, bound %d", len(a.spent), maxSpent)
	}
}

func TestMediaAggregatorGuard(t *testing.T) {
	open := serveTracker(t, Config{}, nil)
	if body := string(open.Get("/v1/media-aggregator/search?q=x").ExpectStatus(t, 200).Body); body != "{\"articles\":[]}\n" {
		t.Errorf("open: %q", body)
	}
	guarded := serveTracker(t, Config{MediaKey: "m3dia-key-51"}, nil)
	guarded.Get("/v1/media-aggregator/search").ExpectError(t, 401, "UNAUTHORIZED")
	guarded.Get("/v1/media-aggregator/search", "Authorization", "Bearer wrong").ExpectError(t, 401, "UNAUTHORIZED")
	guarded.Get("/v1/media-aggregator/search", "Authorization", "m3dia-key-51").ExpectError(t, 401, "UNAUTHORIZED")
	guarded.Get("/v1/media-aggregator/search", "Authorization", "Bearer m3dia-key-51").ExpectStatus(t, 200)
}

func TestSafeFileName(t *testing.T) {
	for in, want := range map[string]string{
		"scherm.png":                      "scherm.png",
		"../../etc/passwd":                "passwd",
		`C:\Users\jan\scherm.png`:         "scherm.png",
		"a](javascript:alert(1)).png":     "a__javascript:alert_1__.png",
		"<img src=x>.png":                 "_img src=x_.png",
		"line\nbreak.png":                 "linebreak.png",
		"":                                "file",
		strings.Repeat("é", 100) + ".png": strings.Repeat("é", 64),
	} {
		if got := safeFileName(in); got != want {
			t.Errorf("safeFileName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestFormsInMemoryAreBounded: with MaxForms 1, a second upload waits
// until the first has been sent to the tracker.
func TestFormsInMemoryAreBounded(t *testing.T) {
	gate := make(chan struct{})
	var active, peak int
	var mu sync.Mutex
	gl := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		active++
		peak = max(peak, active)
		mu.Unlock()
		<-gate
		mu.Lock()
		active--
		mu.Unlock()
		w.WriteHeader(201)
		fmt.Fprint(w, `{"markdown":"![a](/u/a)","url":"/u/a"}`)
	}))
	defer gl.Close()
	c := serveTracker(t, Config{BaseURL: gl.URL, Token: "t", ProjectPath: "p", MaxForms: 1}, nil)
	ct, body := multipartBody(t, nil, []fileSpec{{"file", "a.png", png}})
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			post(t, c, "/v1/public/upload-file", ct, body).ExpectStatus(t, 200)
		}()
	}
	for range 3 {
		time.Sleep(100 * time.Millisecond)
		gate <- struct{}{}
	}
	wg.Wait()
	if peak != 1 {
		t.Errorf("%d uploads in flight at once, want 1", peak)
	}
}
