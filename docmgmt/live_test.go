package docmgmt

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/regelkit/regelkit/docmgmt/edocstest"
)

func newLive(t *testing.T, srv *edocstest.Server, mod ...func(*LiveConfig)) *Live {
	t.Helper()
	cfg := LiveConfig{BaseURL: srv.BaseURL, Library: edocstest.Library, UserID: edocstest.UserID, Password: edocstest.Password}
	for _, m := range mod {
		m(&cfg)
	}
	c, err := NewLive(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// asError asserts err is an *Error for op with status and a message
// containing msg.
func asError(t *testing.T, err error, op string, status int, msg string) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T), want *Error", err, err)
	}
	if e.Op != op || e.Status != status || !strings.Contains(e.Message, msg) {
		t.Fatalf("error = {Op:%q Status:%d Message:%q}, want {%q %d …%q…}", e.Op, e.Status, e.Message, op, status, msg)
	}
	if !strings.Contains(e.Error(), op) || !strings.Contains(e.Error(), msg) {
		t.Errorf("Error() %q does not name the operation and the message", e.Error())
	}
	return e
}

func TestLiveEnsureUploadListRoundTrip(t *testing.T) {
	srv := edocstest.New(t)
	c := newLive(t, srv)
	ctx := context.Background()

	ws, err := c.EnsureWorkspace(ctx, EnsureWorkspaceRequest{ProjectNumber: "2024-001", ProjectName: "Bridge A12"})
	if err != nil {
		t.Fatal(err)
	}
	want := Workspace{ID: strconv.Itoa(edocstest.FirstID), Name: "2024-001 — Bridge A12", Created: true}
	if ws != want {
		t.Fatalf("ensure = %+v, want %+v", ws, want)
	}
	// Ensuring again finds it: created false, no second create.
	again, err := c.EnsureWorkspace(ctx, EnsureWorkspaceRequest{ProjectNumber: "2024-001", ProjectName: "Other name"})
	if err != nil {
		t.Fatal(err)
	}
	if again != (Workspace{ID: ws.ID, Name: "2024-001 — Bridge A12"}) {
		t.Fatalf("second ensure = %+v", again)
	}

	content := []byte("%PDF-1.7 fake bytes \x00\xff")
	doc, err := c.Upload(ctx, UploadRequest{
		WorkspaceID: ws.ID, Filename: "intake report.pdf", Content: content, DocName: "Intake report",
		AppID: "INFRA", Department: "Behandelgroep 3", FormName: "INFRAPROF",
		Extra: map[string]string{"PD_STATUS": "concept"},
	})
	if err != nil {
		t.Fatal(err)
	}
	docID := strconv.Itoa(edocstest.FirstID + 1)
	if doc != (UploadedDocument{DocumentID: docID, DocumentNumber: docID, WorkspaceID: ws.ID}) {
		t.Fatalf("upload = %+v", doc)
	}
	stored, ok := srv.Document(edocstest.FirstID + 1)
	if !ok {
		t.Fatal("eDOCS did not store the document")
	}
	if !bytes.Equal(stored.Content, content) || stored.Filename != "intake report.pdf" {
		t.Errorf("stored content %q filename %q", stored.Content, stored.Filename)
	}
	wantProfile := map[string]any{
		"DOCNAME": "Intake report", "AUTHOR_ID": edocstest.UserID, "TYPIST_ID": edocstest.UserID,
		"APP_ID": "INFRA", "UV_AFD_NAAM": "Behandelgroep 3", "PD_STATUS": "concept",
		"_restapi": map[string]any{"form_name": "INFRAPROF",
			"ref": map[string]any{"type": "workspace", "id": json.Number(ws.ID), "lib": edocstest.Library}},
	}
	if d := cmp.Diff(wantProfile, stored.Profile); d != "" {
		t.Errorf("profile sent (-want +got):\n%s", d)
	}

	docs, err := c.ListDocuments(ctx, ws.ID)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]Document{{ID: docID, Name: "Intake report", DocumentNumber: docID}}, docs); d != "" {
		t.Errorf("documents (-want +got):\n%s", d)
	}

	profile, err := c.Profile(ctx, docID)
	if err != nil {
		t.Fatal(err)
	}
	if profile["DOCNAME"] != "Intake report" || profile["APP_ID"] != "INFRA" || profile["DOCNUMBER"] != json.Number(docID) {
		t.Errorf("profile = %v", profile)
	}
	versions, err := c.Versions(ctx, docID)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]Version{{ID: docID + "1", Version: "1"}}, versions); d != "" {
		t.Errorf("versions (-want +got):\n%s", d)
	}
	got, err := c.Download(ctx, DownloadRequest{DocumentID: docID, Version: "0"})
	if err != nil || !bytes.Equal(got, content) {
		t.Fatalf("download = %q, %v", got, err)
	}
	_, err = c.Download(ctx, DownloadRequest{DocumentID: docID, Version: "1"})
	asError(t, err, "download", 400, "Invalid version 1")

	if err := c.DeleteDocument(ctx, docID); err != nil {
		t.Fatal(err)
	}
	_, err = c.Profile(ctx, docID)
	if e := asError(t, err, "profile", 404, "not found"); !errors.Is(e, ErrNotFound) {
		t.Error("404 does not match ErrNotFound")
	}
	if err := c.DeleteWorkspace(ctx, ws.ID); err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Workspaces()); n != 0 {
		t.Errorf("%d workspaces left", n)
	}
	// One login served every call; each call named the library.
	if srv.Logins() != 1 {
		t.Errorf("%d logins, want 1", srv.Logins())
	}
	for _, call := range srv.Calls() {
		if !strings.Contains(call, "library="+edocstest.Library) {
			t.Errorf("call without library: %s", call)
		}
	}
}

func TestLiveStandaloneUploadSendsNoRef(t *testing.T) {
	srv := edocstest.New(t)
	c := newLive(t, srv)
	doc, err := c.Upload(context.Background(), UploadRequest{Filename: "a.txt", Content: []byte("x"), DocName: "A"})
	if err != nil {
		t.Fatal(err)
	}
	if doc.WorkspaceID != "" {
		t.Errorf("workspace %q", doc.WorkspaceID)
	}
	stored, _ := srv.Document(edocstest.FirstID)
	want := map[string]any{"DOCNAME": "A", "AUTHOR_ID": edocstest.UserID, "TYPIST_ID": edocstest.UserID}
	if d := cmp.Diff(want, stored.Profile); d != "" {
		t.Errorf("profile (-want +got):\n%s", d)
	}
}

func TestLiveWorkspaceLookup(t *testing.T) {
	srv := edocstest.New(t)
	longer := srv.AddWorkspace("1234 — Longer number")
	exact := srv.AddWorkspace("123 — Exact")
	quoted := srv.AddWorkspace("12'3 — Quoted")
	_ = quoted
	c := newLive(t, srv)
	ctx := context.Background()

	// The LIKE filter also matches 1234, listed first; only "123 — " counts.
	ws, err := c.EnsureWorkspace(ctx, EnsureWorkspaceRequest{ProjectNumber: "123", ProjectName: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if ws != (Workspace{ID: strconv.FormatInt(exact, 10), Name: "123 — Exact"}) {
		t.Fatalf("ensure 123 = %+v (1234 is %d)", ws, longer)
	}
	// 12 matches neither exactly: a new workspace.
	ws, err = c.EnsureWorkspace(ctx, EnsureWorkspaceRequest{ProjectNumber: "12", ProjectName: "Twelve"})
	if err != nil {
		t.Fatal(err)
	}
	if !ws.Created || ws.Name != "12 — Twelve" {
		t.Fatalf("ensure 12 = %+v", ws)
	}
	var filters []string
	for _, call := range srv.Calls() {
		if strings.HasPrefix(call, "GET /workspaces?") {
			filters = append(filters, call)
		}
	}
	if len(filters) != 2 || !strings.Contains(filters[0], "filter=DOCNAME+like+%27123%25%27") {
		t.Errorf("look-ups: %v", filters)
	}

	// A quote cannot reach the filter: refused before any call.
	before := len(srv.Calls())
	_, err = c.EnsureWorkspace(ctx, EnsureWorkspaceRequest{ProjectNumber: "12'3", ProjectName: "x"})
	var re *RequestError
	if !errors.As(err, &re) || re.Field != "projectNumber" {
		t.Fatalf("quote: %v", err)
	}
	if len(srv.Calls()) != before {
		t.Error("an invalid project number reached eDOCS")
	}
	if got := escapeFilterLiteral("12'3"); got != "12''3" {
		t.Errorf("escape = %q", got)
	}
}

func TestLiveWorkspaceCreateRefused(t *testing.T) {
	srv := edocstest.New(t)
	srv.RefuseWorkspaceCreation(true)
	c := newLive(t, srv)
	_, err := c.EnsureWorkspace(context.Background(), EnsureWorkspaceRequest{ProjectNumber: "9", ProjectName: "Nine"})
	asError(t, err, "ensure workspace: create", 500, "Internal server error while creating the workspace")
}

func TestLiveExpiredSessionLogsInOnceMore(t *testing.T) {
	srv := edocstest.New(t)
	ws := srv.AddWorkspace("1 — One")
	c := newLive(t, srv)
	ctx := context.Background()
	id := strconv.FormatInt(ws, 10)
	if _, err := c.ListDocuments(ctx, id); err != nil {
		t.Fatal(err)
	}
	srv.ExpireSessions()
	// The upload's body must be sent again intact after the re-login.
	if _, err := c.Upload(ctx, UploadRequest{WorkspaceID: id, Filename: "f", Content: []byte("body"), DocName: "D"}); err != nil {
		t.Fatalf("after expiry: %v", err)
	}
	if srv.Logins() != 2 {
		t.Errorf("%d logins, want 2", srv.Logins())
	}
	if d, _ := srv.Document(ws + 1); string(d.Content) != "body" {
		t.Errorf("content after retry %q", d.Content)
	}

	// A session that keeps being refused: one re-login, then the error.
	srv.Fail(http.MethodGet, "/workspaces/", http.StatusUnauthorized, "Access denied")
	_, err := c.ListDocuments(ctx, id)
	asError(t, err, "list documents", 401, "Access denied")
	if srv.Logins() != 3 {
		t.Errorf("%d logins, want 3 (one re-login only)", srv.Logins())
	}
}

func TestLiveLoginFailure(t *testing.T) {
	srv := edocstest.New(t)
	c := newLive(t, srv, func(cfg *LiveConfig) { cfg.Password = "wrong" })
	_, err := c.ListDocuments(context.Background(), "1")
	asError(t, err, "list documents: login", 401, "Logon failure: unknown user name or bad password")
	if srv.Logins() != 1 {
		t.Errorf("%d logins, want 1", srv.Logins())
	}
}

func TestLiveTokenInHeader(t *testing.T) {
	srv := edocstest.New(t)
	srv.TokenInHeader(true)
	// The fake wants the token as cookie and header; a header-only login
	// answer still yields both on later calls.
	c := newLive(t, srv)
	if _, err := c.ListWorkspaces(context.Background(), ListWorkspacesRequest{}); err != nil {
		t.Fatal(err)
	}
}

func TestLiveNoTokenIsAnError(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"data":{}}`))
	})
	srv := httptest.NewServer(h)
	defer srv.Close()
	c, err := NewLive(LiveConfig{BaseURL: srv.URL, Library: "L", UserID: "u", Password: "p"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ListWorkspaces(context.Background(), ListWorkspacesRequest{})
	asError(t, err, "list workspaces: login", 200, "no session token")
}

func TestLiveServerErrors(t *testing.T) {
	srv := edocstest.New(t)
	ws := strconv.FormatInt(srv.AddWorkspace("5 — Five"), 10)
	c := newLive(t, srv)
	ctx := context.Background()
	srv.Fail(http.MethodPost, "/documents", http.StatusInternalServerError, "Disk full")
	srv.Fail(http.MethodGet, "/workspaces", http.StatusBadGateway, "Upstream index down")
	_, err := c.Upload(ctx, UploadRequest{WorkspaceID: ws, Filename: "f", Content: []byte("x"), DocName: "D"})
	asError(t, err, "upload", 500, "Disk full")
	_, err = c.ListDocuments(ctx, ws)
	asError(t, err, "list documents", 502, "Upstream index down")
	_, err = c.EnsureWorkspace(ctx, EnsureWorkspaceRequest{ProjectNumber: "5", ProjectName: "Five"})
	asError(t, err, "ensure workspace: find", 502, "Upstream index down")
	srv.ClearFailures()

	// 206 with an error list is a rejection.
	_, err = c.Upload(ctx, UploadRequest{WorkspaceID: "77", Filename: "f", Content: []byte("x"), DocName: "D"})
	asError(t, err, "upload", 206, "the document was rejected: _restapi.ref: workspace 77 does not exist")
	var re *RequestError
	_, err = c.Upload(ctx, UploadRequest{WorkspaceID: "ws-1", Filename: "f", DocName: "D"})
	if !errors.As(err, &re) || re.Field != "workspaceId" {
		t.Fatalf("non-numeric workspace id: %v", err)
	}
}

func TestLiveErrorBodies(t *testing.T) {
	cases := []struct {
		body, contentType string
		status            int
		want              string
	}{
		{`{"ERROR":{"message":"Bad thing","rapi_code":7}}`, "application/json", 500, "Bad thing"},
		{`{"ERROR":{"rapi_details":"Only details"}}`, "application/json", 500, "Only details"},
		{`{"ERROR":{"rapi_details":{"x":1}}}`, "application/json", 500, `{"x":1}`},
		{`{"error":"lower case"}`, "application/json", 500, "lower case"},
		{`gateway exploded`, "text/plain; charset=utf-8", 502, "gateway exploded"},
		{`<html>oops</html>`, "text/html", 503, "Service Unavailable"},
		{``, "", 500, "Internal Server Error"},
	}
	for _, tc := range cases {
		got := edocsMessage(&response{status: tc.status, header: http.Header{"Content-Type": {tc.contentType}}, body: []byte(tc.body)})
		if got != tc.want {
			t.Errorf("edocsMessage(%s) = %q, want %q", tc.body, got, tc.want)
		}
	}
}

func TestLiveTimeout(t *testing.T) {
	block := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-block:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(block)
	c, err := NewLive(LiveConfig{BaseURL: srv.URL, Library: "L", UserID: "u", Password: "p", Timeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ListWorkspaces(context.Background(), ListWorkspacesRequest{})
	asError(t, err, "list workspaces: login", 0, "no answer within 50ms")
}

func TestLiveHealth(t *testing.T) {
	srv := edocstest.New(t)
	c := newLive(t, srv)
	h := c.Health(context.Background())
	if h.Status != StatusUp || !h.Reachable || !h.Authenticated || h.Stub || h.Err != nil || h.Latency <= 0 || h.Library != edocstest.Library {
		t.Fatalf("health = %+v", h)
	}
	// The session is reused: no second login.
	c.Health(context.Background())
	if srv.Logins() != 1 {
		t.Errorf("%d logins", srv.Logins())
	}
	// A 5xx from libraries is down, with eDOCS's message.
	srv.Fail(http.MethodGet, "/libraries", 503, "Maintenance")
	h = c.Health(context.Background())
	if h.Status != StatusDown || h.Reachable || h.Err == nil || !strings.Contains(h.Err.Error(), "Maintenance") {
		t.Errorf("5xx health = %+v", h)
	}
	srv.Close()
	h = c.Health(context.Background())
	if h.Status != StatusDown || h.Reachable || h.Err == nil {
		t.Errorf("closed server health = %+v", h)
	}
}

func TestLiveHealthCachesFailedLogin(t *testing.T) {
	srv := edocstest.New(t)
	c := newLive(t, srv, func(cfg *LiveConfig) { cfg.Password = "wrong" })
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	c.now = func() time.Time { return now }
	ctx := context.Background()
	for i := 0; i < 5; i++ {
		h := c.Health(ctx)
		if h.Status != StatusDown || !h.Reachable || h.Authenticated || !strings.Contains(h.Err.Error(), "Logon failure") {
			t.Fatalf("health = %+v", h)
		}
	}
	if srv.Logins() != 1 {
		t.Fatalf("%d logins within 30 s, want 1", srv.Logins())
	}
	now = now.Add(29 * time.Second)
	c.Health(ctx)
	if srv.Logins() != 1 {
		t.Fatalf("%d logins after 29 s, want 1", srv.Logins())
	}
	now = now.Add(2 * time.Second)
	c.Health(ctx)
	if srv.Logins() != 2 {
		t.Fatalf("%d logins after 31 s, want 2", srv.Logins())
	}
}

func TestLiveConcurrentCallsShareOneLogin(t *testing.T) {
	srv := edocstest.New(t)
	ws := strconv.FormatInt(srv.AddWorkspace("1 — One"), 10)
	c := newLive(t, srv)
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := c.ListDocuments(context.Background(), ws)
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if srv.Logins() != 1 {
		t.Errorf("%d logins, want 1", srv.Logins())
	}
}

func TestLiveLogsNoSecrets(t *testing.T) {
	srv := edocstest.New(t)
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c := newLive(t, srv, func(cfg *LiveConfig) { cfg.Logger = logger })
	ctx := context.Background()
	secret := "TOP-SECRET-CONTENT"
	if _, err := c.Upload(ctx, UploadRequest{Filename: "f", Content: []byte(secret), DocName: "D"}); err != nil {
		t.Fatal(err)
	}
	srv.ExpireSessions()
	if _, err := c.ListWorkspaces(ctx, ListWorkspacesRequest{}); err != nil {
		t.Fatal(err)
	}
	bad := newLive(t, srv, func(cfg *LiveConfig) { cfg.Logger = logger; cfg.Password = "wrong-" + edocstest.Password })
	bad.Health(ctx)
	out := logs.String()
	if !strings.Contains(out, "eDOCS login") || !strings.Contains(out, "login failed") {
		t.Fatalf("expected login events in the log:\n%s", out)
	}
	if strings.Contains(out, edocstest.Password) || strings.Contains(out, secret) {
		t.Errorf("log leaks a password or content:\n%s", out)
	}
	if regexp.MustCompile(`[0-9a-f]{32}`).MatchString(out) {
		t.Errorf("log leaks a session token:\n%s", out)
	}
}

func TestNewLiveChecksConfig(t *testing.T) {
	ok := LiveConfig{BaseURL: "https://dm.example/edocsapi/v1.0", Library: "L", UserID: "u", Password: "p"}
	cases := []struct {
		name string
		mod  func(*LiveConfig)
		want string
	}{
		{"no url", func(c *LiveConfig) { c.BaseURL = "" }, "base URL is required"},
		{"relative", func(c *LiveConfig) { c.BaseURL = "/edocsapi" }, "absolute http(s) URL"},
		{"ftp", func(c *LiveConfig) { c.BaseURL = "ftp://x/y" }, "absolute http(s) URL"},
		{"userinfo", func(c *LiveConfig) { c.BaseURL = "https://u:p@x/y" }, "must not carry credentials"},
		{"connect", func(c *LiveConfig) { c.BaseURL = "https://x/edocsapi/v1.0/connect" }, "not the /connect endpoint"},
		{"query", func(c *LiveConfig) { c.BaseURL = "https://x/y?a=b" }, "query"},
		{"library", func(c *LiveConfig) { c.Library = "" }, "library is required"},
		{"password", func(c *LiveConfig) { c.Password = "" }, "password are required"},
	}
	for _, tc := range cases {
		cfg := ok
		tc.mod(&cfg)
		if _, err := NewLive(cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want %q", tc.name, err, tc.want)
		}
	}
	if _, err := NewLive(ok); err != nil {
		t.Errorf("valid config: %v", err)
	}
}
