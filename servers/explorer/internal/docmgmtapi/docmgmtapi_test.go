package docmgmtapi_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/regelkit/regelkit/docmgmt"
	"github.com/regelkit/regelkit/docmgmt/edocstest"
	"github.com/regelkit/regelkit/servers/explorer/internal/docmgmtapi"
	"github.com/regelkit/regelkit/servers/internal/apitest"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
)

func newServer(t *testing.T, c docmgmt.Client) (*apitest.Client, *httpapi.Router) {
	t.Helper()
	r := httpapi.NewRouter(httpapi.RouterOptions{})
	docmgmtapi.Register(r, docmgmtapi.Deps{Client: c})
	return apitest.New(t, httpapi.Middleware(r, httpapi.MiddlewareOptions{Version: "test"})), r
}

func newStub() *docmgmt.Stub {
	return docmgmt.NewStub(docmgmt.StubConfig{Now: func() time.Time { return time.UnixMilli(1767268800000) }})
}

func newLive(t *testing.T, srv *edocstest.Server) *docmgmt.Live {
	t.Helper()
	c, err := docmgmt.NewLive(docmgmt.LiveConfig{BaseURL: srv.BaseURL, Library: edocstest.Library,
		UserID: edocstest.UserID, Password: edocstest.Password, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// dataJSON returns the envelope's data as a generic map, so tests assert
// exactly which fields are present.
func dataJSON(t *testing.T, resp *apitest.Response, status int) map[string]any {
	t.Helper()
	var data map[string]any
	resp.Data(t, status, &data)
	return data
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func TestStubStatus(t *testing.T) {
	c, _ := newServer(t, newStub())
	for _, path := range []string{"/v1/docmgmt/status", "/api/docmgmt/status"} {
		resp := c.Get(path)
		got := dataJSON(t, resp, 200)
		if d := cmp.Diff(map[string]any{"status": "stub", "stubMode": true}, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", path, d)
		}
		legacy := strings.HasPrefix(path, "/api/")
		if (resp.Header.Get("Deprecation") == "true") != legacy {
			t.Errorf("%s: Deprecation %q", path, resp.Header.Get("Deprecation"))
		}
		if legacy && resp.Header.Get("Link") != `</v1/docmgmt/status>; rel="successor-version"` {
			t.Errorf("Link %q", resp.Header.Get("Link"))
		}
	}
}

func TestStubEnsureUploadList(t *testing.T) {
	c, _ := newServer(t, newStub())
	body := map[string]any{"projectNumber": "2024-001", "projectName": "Bridge A12"}
	want := map[string]any{"workspaceId": "stub-ws-2024-001", "workspaceName": "2024-001 — Bridge A12", "created": false}
	for _, path := range []string{"/v1/docmgmt/workspaces/ensure", "/v1/docmgmt/workspaces/ensure", "/api/docmgmt/workspaces/ensure"} {
		if d := cmp.Diff(want, dataJSON(t, c.Post(path, body), 200)); d != "" {
			t.Errorf("%s (-want +got):\n%s", path, d)
		}
	}
	up := map[string]any{"workspaceId": "stub-ws-2024-001", "filename": "intake.pdf", "contentBase64": b64("%PDF"),
		"metadata": map[string]any{"docName": "Intake report", "formName": "INFRAPROF", "extra": map[string]any{"PD_STATUS": "concept"}}}
	got := dataJSON(t, c.Post("/v1/docmgmt/documents", up), 200)
	wantDoc := map[string]any{"documentId": "stub-doc-1767268800000", "documentNumber": "STUB-1767268800000", "workspaceId": "stub-ws-2024-001"}
	if d := cmp.Diff(wantDoc, got); d != "" {
		t.Errorf("upload (-want +got):\n%s", d)
	}
	for _, path := range []string{"/v1/docmgmt/workspaces/stub-ws-2024-001/documents", "/api/docmgmt/workspaces/stub-ws-2024-001/documents"} {
		got := dataJSON(t, c.Get(path), 200)
		want := map[string]any{"count": 2.0, "documents": []any{
			map[string]any{"id": "stub-doc-1", "name": "Stub document", "documentNumber": "STUB-001"},
			map[string]any{"id": "stub-doc-1767268800000", "name": "Intake report", "documentNumber": "STUB-1767268800000"},
		}}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", path, d)
		}
	}
	// Another workspace lists only the stub document.
	got = dataJSON(t, c.Get("/v1/docmgmt/workspaces/other/documents"), 200)
	if got["count"] != 1.0 {
		t.Errorf("other workspace: %v", got)
	}
}

func TestValidation(t *testing.T) {
	c, _ := newServer(t, newStub())
	cases := []struct {
		name, path, body, code, msg string
	}{
		{"ensure empty", "/v1/docmgmt/workspaces/ensure", `{}`, "INVALID_REQUEST", "projectNumber is required; projectName is required"},
		{"ensure no body", "/v1/docmgmt/workspaces/ensure", ``, "INVALID_REQUEST", "projectNumber is required; projectName is required"},
		{"ensure blank name", "/v1/docmgmt/workspaces/ensure", `{"projectNumber":"1","projectName":"  "}`, "INVALID_REQUEST", "projectName is required"},
		{"ensure wrong type", "/v1/docmgmt/workspaces/ensure", `{"projectNumber":5,"projectName":"x"}`, "INVALID_REQUEST", "projectNumber must be a string"},
		{"ensure quote", "/v1/docmgmt/workspaces/ensure", `{"projectNumber":"1' OR '1'='1","projectName":"x"}`, "INVALID_REQUEST", "projectNumber may contain only letters, digits, spaces and - _ . / (found '\\'')"},
		{"ensure malformed", "/v1/docmgmt/workspaces/ensure", `{"projectNumber":`, "MALFORMED_BODY", "unexpected end"},
		{"ensure array", "/api/docmgmt/workspaces/ensure", `[]`, "INVALID_REQUEST", "request body must be an object"},
		{"upload empty", "/v1/docmgmt/documents", `{}`, "INVALID_REQUEST",
			"workspaceId is required; filename is required; contentBase64 is required; metadata.docName is required"},
		{"upload bad base64", "/v1/docmgmt/documents",
			`{"workspaceId":"w","filename":"f","contentBase64":"not base64!","metadata":{"docName":"d"}}`, "INVALID_REQUEST", "contentBase64 must be valid base64"},
		{"upload extra not strings", "/v1/docmgmt/documents",
			`{"workspaceId":"w","filename":"f","contentBase64":"eA==","metadata":{"docName":"d","extra":{"b":1,"a":true,"c":null}}}`,
			"INVALID_REQUEST", "metadata.extra.a must be a string; metadata.extra.b must be a string"},
		{"upload extra not object", "/v1/docmgmt/documents",
			`{"workspaceId":"w","filename":"f","contentBase64":"eA==","metadata":{"docName":"d","extra":[1]}}`, "INVALID_REQUEST", "metadata.extra must be an object"},
		{"upload reserved extra", "/api/docmgmt/documents",
			`{"workspaceId":"w","filename":"f","contentBase64":"eA==","metadata":{"docName":"d","extra":{"AUTHOR_ID":"x"}}}`,
			"INVALID_REQUEST", "metadata.extra.AUTHOR_ID is set by the service"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			msg := c.Post(tc.path, tc.body).ExpectError(t, 400, tc.code)
			if !strings.Contains(msg, tc.msg) {
				t.Errorf("message %q, want %q", msg, tc.msg)
			}
		})
	}
	// Unpadded base64 is accepted.
	c.Post("/v1/docmgmt/documents", `{"workspaceId":"w","filename":"f","contentBase64":"eA","metadata":{"docName":"d"}}`).
		ExpectStatus(t, 200)
}

func TestLive(t *testing.T) {
	srv := edocstest.New(t)
	c, _ := newServer(t, newLive(t, srv))

	status := dataJSON(t, c.Get("/v1/docmgmt/status"), 200)
	if status["status"] != "up" || status["stubMode"] != false || status["latencyMs"] == nil || status["error"] != nil {
		t.Errorf("status = %v", status)
	}

	body := map[string]any{"projectNumber": "2024-001", "projectName": "Bridge A12"}
	first := dataJSON(t, c.Post("/v1/docmgmt/workspaces/ensure", body), 200)
	wsID := strconv.Itoa(edocstest.FirstID)
	if d := cmp.Diff(map[string]any{"workspaceId": wsID, "workspaceName": "2024-001 — Bridge A12", "created": true}, first); d != "" {
		t.Errorf("first ensure (-want +got):\n%s", d)
	}
	second := dataJSON(t, c.Post("/api/docmgmt/workspaces/ensure", body), 200)
	if second["workspaceId"] != wsID || second["created"] != false {
		t.Errorf("second ensure = %v", second)
	}

	up := map[string]any{"workspaceId": wsID, "filename": "intake.pdf", "contentBase64": b64("%PDF-1.7"),
		"metadata": map[string]any{"docName": "Intake report", "formName": "INFRAPROF"}}
	doc := dataJSON(t, c.Post("/v1/docmgmt/documents", up), 200)
	docID := strconv.Itoa(edocstest.FirstID + 1)
	if d := cmp.Diff(map[string]any{"documentId": docID, "documentNumber": docID, "workspaceId": wsID}, doc); d != "" {
		t.Errorf("upload (-want +got):\n%s", d)
	}
	stored, _ := srv.Document(edocstest.FirstID + 1)
	if string(stored.Content) != "%PDF-1.7" || stored.Profile["APP_ID"] != "INFRA" || stored.Filename != "intake.pdf" {
		t.Errorf("stored: %q %v %q", stored.Content, stored.Profile, stored.Filename)
	}
	rest, _ := json.Marshal(stored.Profile["_restapi"])
	if string(rest) != `{"form_name":"INFRAPROF","ref":{"id":`+wsID+`,"lib":"RIJKS","type":"workspace"}}` {
		t.Errorf("_restapi = %s", rest)
	}
	list := dataJSON(t, c.Get("/v1/docmgmt/workspaces/"+wsID+"/documents"), 200)
	want := map[string]any{"count": 1.0, "documents": []any{
		map[string]any{"id": docID, "name": "Intake report", "documentNumber": docID}}}
	if d := cmp.Diff(want, list); d != "" {
		t.Errorf("list (-want +got):\n%s", d)
	}

	// A non-numeric workspace id cannot be a live eDOCS workspace.
	up["workspaceId"] = "stub-ws-1"
	msg := c.Post("/v1/docmgmt/documents", up).ExpectError(t, 400, "INVALID_REQUEST")
	if msg != "workspaceId must be a numeric eDOCS workspace id" {
		t.Errorf("message %q", msg)
	}
}

func TestLiveFailures(t *testing.T) {
	srv := edocstest.New(t)
	c, _ := newServer(t, newLive(t, srv))
	ws := strconv.FormatInt(srv.AddWorkspace("1 — One"), 10)
	up := map[string]any{"workspaceId": ws, "filename": "f", "contentBase64": b64("x"), "metadata": map[string]any{"docName": "d"}}

	srv.Fail(http.MethodPost, "/documents", 500, "Disk full")
	srv.Fail(http.MethodGet, "/workspaces", 503, "Index offline")
	msg := c.Post("/v1/docmgmt/documents", up).ExpectError(t, 500, "EDOCS_UPLOAD_FAILED")
	if msg != "Document upload failed: eDOCS upload failed: HTTP 500: Disk full" {
		t.Errorf("upload message %q", msg)
	}
	msg = c.Get("/api/docmgmt/workspaces/"+ws+"/documents").ExpectError(t, 500, "EDOCS_DOCUMENTS_FAILED")
	if !strings.Contains(msg, "list documents") || !strings.Contains(msg, "Index offline") {
		t.Errorf("list message %q", msg)
	}
	msg = c.Post("/v1/docmgmt/workspaces/ensure", map[string]any{"projectNumber": "2", "projectName": "Two"}).
		ExpectError(t, 500, "EDOCS_WORKSPACE_FAILED")
	if !strings.Contains(msg, "ensure workspace: find") || !strings.Contains(msg, "Index offline") {
		t.Errorf("ensure message %q", msg)
	}
	srv.ClearFailures()

	srv.RefuseWorkspaceCreation(true)
	msg = c.Post("/v1/docmgmt/workspaces/ensure", map[string]any{"projectNumber": "2", "projectName": "Two"}).
		ExpectError(t, 500, "EDOCS_WORKSPACE_FAILED")
	if !strings.Contains(msg, "ensure workspace: create failed: HTTP 500") {
		t.Errorf("create message %q", msg)
	}

	// A rejected upload (206 with an error list) fails with eDOCS's reasons.
	up["workspaceId"] = "424242"
	msg = c.Post("/v1/docmgmt/documents", up).ExpectError(t, 500, "EDOCS_UPLOAD_FAILED")
	if !strings.Contains(msg, "workspace 424242 does not exist") {
		t.Errorf("rejection message %q", msg)
	}

	// Status is never an error envelope: down, with the reason.
	srv.Fail(http.MethodGet, "/libraries", 503, "Maintenance window")
	got := dataJSON(t, c.Get("/v1/docmgmt/status"), 200)
	if got["status"] != "down" || got["stubMode"] != false || !strings.Contains(got["error"].(string), "Maintenance window") {
		t.Errorf("status = %v", got)
	}
	srv.Close()
	got = dataJSON(t, c.Get("/api/docmgmt/status"), 200)
	if got["status"] != "down" || got["error"] == nil {
		t.Errorf("status with the server gone = %v", got)
	}
}

func TestRoutesAreDocumented(t *testing.T) {
	_, r := newServer(t, newStub())
	routes := r.Routes()
	if len(routes) != 8 {
		t.Fatalf("%d routes, want 4 plus 4 aliases: %v", len(routes), routes)
	}
	for _, rt := range routes {
		op := r.Doc().Operation(rt.Method, rt.Path)
		if op == nil || op.Summary == "" || op.Responses["200"].Content == nil {
			t.Errorf("%s %s is not documented with a 200 schema", rt.Method, rt.Path)
		}
		if rt.Legacy != op.Deprecated {
			t.Errorf("%s %s: deprecated = %v", rt.Method, rt.Path, op.Deprecated)
		}
	}
	if op := r.Doc().Operation("POST", "/v1/docmgmt/documents"); op.RequestBody == nil {
		t.Error("upload has no request body schema")
	}
}

// TestStubWorkingSetThroughTheRouter: 20 uploads of 100 KB names into a
// stub bounded to 1 MB of names list the 10 newest (the stub
// once kept every upload, +1.2 GB).
func TestStubWorkingSetThroughTheRouter(t *testing.T) {
	stub := docmgmt.NewStub(docmgmt.StubConfig{MaxBytes: 1 << 20})
	c, _ := newServer(t, stub)
	for i := 0; i < 20; i++ {
		up := map[string]any{"workspaceId": "stub-ws-7", "filename": "f.pdf", "contentBase64": b64("%PDF"),
			"metadata": map[string]any{"docName": strconv.Itoa(i) + strings.Repeat("n", 100_000)}}
		dataJSON(t, c.Post("/v1/docmgmt/documents", up), 200)
	}
	var list struct {
		Documents []struct {
			Name string `json:"name"`
		} `json:"documents"`
		Count int `json:"count"`
	}
	c.Get("/v1/docmgmt/workspaces/stub-ws-7/documents").Data(t, 200, &list)
	// Each upload holds 100,002 bytes of name and 49 of ids: ten fit in 1 MiB.
	if list.Count != 11 || !strings.HasPrefix(list.Documents[1].Name, "10n") || !strings.HasPrefix(list.Documents[10].Name, "19n") {
		t.Errorf("listing: %d documents", list.Count)
	}
}
