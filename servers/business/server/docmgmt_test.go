package server

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"

	"github.com/regelkit/regelkit/docmgmt/edocstest"
	"github.com/regelkit/regelkit/servers/internal/auth"
)

func TestDocmgmtStubRoutes(t *testing.T) {
	ta := newTestApp(t, map[string]string{"DOCMGMT_LIBRARY": "RIJKS"})
	h := bearer(ta.token(t, machine("edocs-mcp-client")))

	var status map[string]any
	ta.c.Get("/v1/docmgmt/status", h...).Data(t, 200, &status)
	want := map[string]any{"status": "stub", "library": "RIJKS", "stubMode": true, "reachable": true, "authenticated": true}
	if len(status) != len(want) {
		t.Errorf("status = %v, want exactly %v", status, want)
	}
	for k, v := range want {
		if status[k] != v {
			t.Errorf("status.%s = %v, want %v", k, status[k], v)
		}
	}

	var ws struct {
		Workspaces []struct{ ID, Name string } `json:"workspaces"`
	}
	ta.c.Get("/v1/docmgmt/workspaces", h...).Data(t, 200, &ws)
	if len(ws.Workspaces) != 1 || ws.Workspaces[0].ID != "stub-ws-1" || ws.Workspaces[0].Name != "Stub Workspace" {
		t.Errorf("workspaces = %+v", ws)
	}

	var ensured struct {
		WorkspaceID, WorkspaceName string
		Created                    bool
	}
	ta.c.Post("/v1/docmgmt/workspaces/ensure", map[string]string{"projectNumber": "2026-017", "projectName": "Fietsbrug Noord"}, h...).
		Data(t, 200, &ensured)
	if ensured.WorkspaceID != "stub-ws-2026-017" || ensured.WorkspaceName != "2026-017 — Fietsbrug Noord" || ensured.Created {
		t.Errorf("ensure = %+v", ensured)
	}

	// Standalone upload: workspaceId null, form D_INTERN_NIEUW, appId DEFAULT.
	var standalone map[string]any
	ta.c.Post("/v1/docmgmt/documents", map[string]any{
		"filename": "memo.txt", "contentBase64": base64.StdEncoding.EncodeToString([]byte("memo")),
		"metadata": map[string]any{"docName": "Memo", "department": "Behandelgroep Infra"},
	}, h...).Data(t, 200, &standalone)
	if id, _ := standalone["documentId"].(string); !strings.HasPrefix(id, "stub-doc-") {
		t.Errorf("documentId = %v", standalone["documentId"])
	}
	if v, ok := standalone["workspaceId"]; !ok || v != nil {
		t.Errorf("standalone workspaceId = %v (present %v), want null", v, ok)
	}

	var up struct{ DocumentID, DocumentNumber, WorkspaceID string }
	ta.c.Post("/v1/docmgmt/documents", map[string]any{
		"workspaceId": ensured.WorkspaceID, "filename": "intake.txt", "contentBase64": base64.StdEncoding.EncodeToString([]byte("x")),
		"metadata": map[string]any{"docName": "Intakerapport", "department": "Infra", "extra": map[string]any{"REMARK": "ok"}},
	}, h...).Data(t, 200, &up)
	if up.WorkspaceID != "stub-ws-2026-017" || !strings.HasPrefix(up.DocumentNumber, "STUB-") {
		t.Errorf("upload = %+v", up)
	}

	var list struct {
		WorkspaceID string
		Documents   []struct{ ID, Name, DocumentNumber string }
	}
	ta.c.Get("/v1/docmgmt/workspaces/stub-ws-2026-017/documents", h...).Data(t, 200, &list)
	if list.WorkspaceID != "stub-ws-2026-017" || len(list.Documents) != 3 ||
		list.Documents[0].ID != "stub-doc-1" || list.Documents[0].Name != "rip-intake-report.pdf" || list.Documents[0].DocumentNumber != "2993898" ||
		list.Documents[1].ID != "stub-doc-2" || list.Documents[1].Name != "rip-psu-report.pdf" ||
		list.Documents[2].ID != up.DocumentID || list.Documents[2].Name != "Intakerapport" {
		t.Errorf("documents = %+v", list)
	}

	var profile map[string]any
	ta.c.Get("/v1/docmgmt/documents/"+up.DocumentID+"/profile", h...).Data(t, 200, &profile)
	if profile["DOCNAME"] != "Intakerapport" || profile["APP_ID"] != "DEFAULT" || profile["DOCNUMBER"] != up.DocumentNumber {
		t.Errorf("profile = %v", profile)
	}
	var versions struct {
		DocumentID string
		Versions   []struct{ ID, Version string }
	}
	ta.c.Get("/v1/docmgmt/documents/"+up.DocumentID+"/versions", h...).Data(t, 200, &versions)
	if versions.DocumentID != up.DocumentID || len(versions.Versions) != 1 || versions.Versions[0].ID != up.DocumentID+"-v1" || versions.Versions[0].Version != "1" {
		t.Errorf("versions = %+v", versions)
	}
	var download struct{ DocumentID, Version, ContentBase64 string }
	ta.c.Get("/v1/docmgmt/documents/"+up.DocumentID+"/versions/0", h...).Data(t, 200, &download)
	if got, _ := base64.StdEncoding.DecodeString(download.ContentBase64); string(got) != "stub content for "+up.DocumentID+" v0" || download.Version != "0" {
		t.Errorf("download = %+v (%q)", download, got)
	}

	var deleted map[string]any
	ta.c.Do("DELETE", "/v1/docmgmt/documents/"+up.DocumentID, nil, h...).Data(t, 200, &deleted)
	if deleted["documentId"] != up.DocumentID || deleted["deleted"] != true {
		t.Errorf("delete document = %v", deleted)
	}
	ta.c.Get("/v1/docmgmt/workspaces/stub-ws-2026-017/documents", h...).Data(t, 200, &list)
	if len(list.Documents) != 2 {
		t.Errorf("after delete, documents = %+v, want the two stub documents", list.Documents)
	}
	ta.c.Do("DELETE", "/v1/docmgmt/workspaces/stub-ws-2026-017", nil, h...).Data(t, 200, &deleted)
	if deleted["workspaceId"] != "stub-ws-2026-017" || deleted["deleted"] != true {
		t.Errorf("delete workspace = %v", deleted)
	}
}

func TestDocmgmtValidation(t *testing.T) {
	ta := newTestApp(t, nil)
	h := bearer(ta.token(t, machine("copilot-studio-edocs")))
	content := base64.StdEncoding.EncodeToString([]byte("x"))
	for _, c := range []struct {
		name, path string
		body       any
		status     int
		code       string
		mention    string
	}{
		{"ensure without fields", "/v1/docmgmt/workspaces/ensure", map[string]string{}, 400, codeMissingFields, "projectNumber, projectName"},
		{"ensure with a quote", "/v1/docmgmt/workspaces/ensure", map[string]string{"projectNumber": "20'26", "projectName": "x"}, 400, codeValidation, "projectNumber"},
		{"ensure with a number for a name", "/v1/docmgmt/workspaces/ensure", `{"projectNumber": "1", "projectName": 7}`, 400, codeValidation, "projectName"},
		{"ensure malformed", "/v1/docmgmt/workspaces/ensure", `{"projectNumber": `, 400, "MALFORMED_BODY", ""},
		{"upload without department", "/v1/docmgmt/documents",
			map[string]any{"filename": "a.txt", "contentBase64": content, "metadata": map[string]any{"docName": "A"}}, 400, codeMissingFields, "metadata.department"},
		{"upload without anything", "/v1/docmgmt/documents", map[string]any{}, 400, codeMissingFields,
			"filename, contentBase64, metadata.docName, metadata.department"},
		{"upload with bad base64", "/v1/docmgmt/documents",
			map[string]any{"filename": "a.txt", "contentBase64": "!!!", "metadata": map[string]any{"docName": "A", "department": "D"}}, 400, codeMissingFields, "contentBase64"},
		{"upload with a number as extra field", "/v1/docmgmt/documents",
			map[string]any{"filename": "a.txt", "contentBase64": content, "metadata": map[string]any{"docName": "A", "department": "D", "extra": map[string]any{"X": 1}}},
			400, codeValidation, "metadata.extra.X"},
		{"upload overriding a reserved profile field", "/v1/docmgmt/documents",
			map[string]any{"filename": "a.txt", "contentBase64": content, "metadata": map[string]any{"docName": "A", "department": "D", "extra": map[string]any{"AUTHOR_ID": "me"}}},
			400, codeValidation, "AUTHOR_ID"},
	} {
		t.Run(c.name, func(t *testing.T) {
			msg := ta.c.Post(c.path, c.body, h...).ExpectError(t, c.status, c.code)
			if !strings.Contains(msg, c.mention) {
				t.Errorf("message %q does not mention %q", msg, c.mention)
			}
		})
	}
	t.Run("upload over 20 MB", func(t *testing.T) {
		big := `{"filename":"a","contentBase64":"` + strings.Repeat("A", 21<<20) + `"}`
		ta.c.Post("/v1/docmgmt/documents", big, h...).ExpectError(t, 413, "PAYLOAD_TOO_LARGE")
	})
}

func TestDocmgmtGuard(t *testing.T) {
	ta := newTestApp(t, nil)
	ta.c.Get("/v1/docmgmt/status").ExpectError(t, 401, auth.CodeUnauthorized)
	ta.c.Get("/v1/docmgmt/status", bearer(ta.token(t, machine("some-other-client")))...).ExpectError(t, 403, auth.CodeDocmgmtClientNotAllow)
	// A caseworker's token on an allowed client has no stored identity token.
	person := caseworker("utrecht")
	person.Client = "edocs-mcp-client"
	ta.c.Get("/v1/docmgmt/workspaces", bearer(ta.token(t, person))...).ExpectError(t, 403, codeDocmgmtUserToken)

	fallback := newTestApp(t, map[string]string{"DOCMGMT_ALLOW_SERVICE_FALLBACK": "true", "DOCMGMT_ALLOWED_CLIENTS": "edocs-mcp-client"})
	var got map[string]any
	fallback.c.Get("/v1/docmgmt/status", bearer(fallback.token(t, person))...).Data(t, 200, &got)
	if got["actingAs"] != "service" {
		t.Errorf("fallback status = %v, want actingAs service", got)
	}
	fallback.c.Get("/v1/docmgmt/status", bearer(fallback.token(t, machine("copilot-studio-edocs")))...).ExpectError(t, 403, auth.CodeDocmgmtClientNotAllow)

	cfg := configFrom(t, map[string]string{"DEPLOYMENT_ENV": "production", "DOCMGMT_ALLOW_SERVICE_FALLBACK": "true"})
	if _, err := cfg.validate(); err == nil || !strings.Contains(err.Error(), "DOCMGMT_ALLOW_SERVICE_FALLBACK=true is refused in production") {
		t.Errorf("production boot with the service fallback: %v", err)
	}
}

func TestDocmgmtLiveFailures(t *testing.T) {
	srv := edocstest.New(t)
	ta := newTestApp(t, map[string]string{"DOCMGMT_STUB_MODE": "false", "DOCMGMT_BASE_URL": srv.BaseURL,
		"DOCMGMT_LIBRARY": edocstest.Library, "DOCMGMT_USER_ID": edocstest.UserID, "DOCMGMT_PASSWORD": edocstest.Password})
	h := bearer(ta.token(t, machine("edocs-mcp-client")))
	var status map[string]any
	ta.c.Get("/v1/docmgmt/status", h...).Data(t, 200, &status)
	if status["status"] != "up" || status["stubMode"] != false || status["authenticated"] != true {
		t.Errorf("live status = %v", status)
	}
	if _, ok := status["latencyMs"].(float64); !ok {
		t.Errorf("live status lacks latencyMs: %v", status)
	}
	// Live eDOCS refused workspace creation: surfaced as 502 with its message.
	srv.RefuseWorkspaceCreation(true)
	msg := ta.c.Post("/v1/docmgmt/workspaces/ensure", map[string]string{"projectNumber": "2026-1", "projectName": "X"}, h...).
		ExpectError(t, http.StatusBadGateway, codeDocmgmtError)
	if strings.Contains(msg, srv.BaseURL) || !strings.Contains(msg, "Workspace ensure failed") {
		t.Errorf("message %q: want the operation, never the address", msg)
	}
	srv.Fail("GET", "/documents/", 500, "Library is offline")
	msg = ta.c.Get("/v1/docmgmt/documents/42/profile", h...).ExpectError(t, http.StatusBadGateway, codeDocmgmtError)
	if !strings.Contains(msg, "Library is offline") {
		t.Errorf("message %q lacks eDOCS's message", msg)
	}
	srv.ClearFailures()
	srv.Fail("GET", "/documents/", 404, "No such document")
	ta.c.Get("/v1/docmgmt/documents/42/versions", h...).ExpectError(t, http.StatusNotFound, codeNotFound)
}
