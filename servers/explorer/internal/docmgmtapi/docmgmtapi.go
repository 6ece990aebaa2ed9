package docmgmtapi

import (
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sort"
	"strings"

	"github.com/gorilla/mux"

	"github.com/regelkit/regelkit/docmgmt"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/openapi"
	"github.com/regelkit/regelkit/servers/internal/upstream"
)

// Error codes of live failures, all HTTP 500.
const (
	CodeWorkspaceFailed = "EDOCS_WORKSPACE_FAILED"
	CodeUploadFailed    = "EDOCS_UPLOAD_FAILED"
	CodeDocumentsFailed = "EDOCS_DOCUMENTS_FAILED"
)

// DefaultAppID is the explorer's APP_ID when the upload names none.
const DefaultAppID = "INFRA"

// Deps are the endpoints' dependencies.
type Deps struct {
	// Client is the document-management system (docmgmt.NewStub or
	// docmgmt.NewLive).
	Client docmgmt.Client
	// Logger receives live failures; nil discards them.
	Logger *slog.Logger
}

type handlers struct {
	client docmgmt.Client
	log    *slog.Logger
}

// Register adds the document-management routes, each with its /api alias.
func Register(r *httpapi.Router, deps Deps) {
	h := &handlers{client: deps.Client, log: deps.Logger}
	if h.log == nil {
		h.log = slog.New(slog.DiscardHandler)
	}
	tags := []string{"document management"}
	r.Handle("GET", "/v1/docmgmt/status", h.status, openapi.Operation{
		Summary: "Status of the document-management system",
		Description: "stub in stub mode; otherwise a live probe of eDOCS (reachability, then the login): up or down. " +
			"A failing system is reported as status down with the reason in error, never as an error envelope.",
		Tags: tags,
		Responses: map[string]openapi.Response{
			"200": {Description: "the status", Content: openapi.JSON(openapi.Envelope(statusSchema))},
		},
	}, httpapi.Legacy())
	r.Handle("POST", "/v1/docmgmt/workspaces/ensure", h.ensureWorkspace, openapi.Operation{
		Summary: "Find or create the workspace of a project",
		Description: "Idempotent: the workspace is named \"<projectNumber> — <projectName>\" and found again by its project " +
			"number, with created false. The project number may contain letters, digits, spaces and - _ . / only.",
		Tags:        tags,
		RequestBody: openapi.Body(ensureSchema, "the project"),
		Responses: map[string]openapi.Response{
			"200": {Description: "the workspace", Content: openapi.JSON(openapi.Envelope(workspaceSchema))},
			"400": openapi.Failure("a missing or invalid field", httpapi.CodeInvalidRequest, httpapi.CodeMalformedBody),
			"500": openapi.Failure("eDOCS failed; the message names the operation and eDOCS's message", CodeWorkspaceFailed),
		},
	}, httpapi.Legacy())
	r.Handle("POST", "/v1/docmgmt/documents", h.upload, openapi.Operation{
		Summary:     "Upload a document into a workspace",
		Description: "metadata.appId defaults to INFRA. metadata.extra fields are passed to the eDOCS profile unchanged.",
		Tags:        tags,
		RequestBody: openapi.Body(uploadSchema, "the document and its profile"),
		Responses: map[string]openapi.Response{
			"200": {Description: "the uploaded document", Content: openapi.JSON(openapi.Envelope(uploadedSchema))},
			"400": openapi.Failure("a missing or invalid field", httpapi.CodeInvalidRequest, httpapi.CodeMalformedBody),
			"413": openapi.Failure("body over 10 MB", httpapi.CodePayloadTooLarge),
			"500": openapi.Failure("eDOCS failed or rejected the document", CodeUploadFailed),
		},
	}, httpapi.Legacy())
	r.Handle("GET", "/v1/docmgmt/workspaces/{workspaceId}/documents", h.listDocuments, openapi.Operation{
		Summary: "Documents of a workspace",
		Tags:    tags,
		Parameters: []openapi.Parameter{{Name: "workspaceId", In: "path", Required: true,
			Description: "the workspace id from workspaces/ensure", Schema: openapi.String("")}},
		Responses: map[string]openapi.Response{
			"200": {Description: "the documents", Content: openapi.JSON(openapi.Envelope(documentListSchema))},
			"500": openapi.Failure("eDOCS failed", CodeDocumentsFailed),
		},
	}, httpapi.Legacy())
}

// Response shapes (explorer spec 2.7).
type (
	statusResponse struct {
		Status    string   `json:"status"`
		StubMode  bool     `json:"stubMode"`
		LatencyMS *float64 `json:"latencyMs,omitempty"`
		Error     string   `json:"error,omitempty"`
	}
	workspaceResponse struct {
		WorkspaceID   string `json:"workspaceId"`
		WorkspaceName string `json:"workspaceName"`
		Created       bool   `json:"created"`
	}
	uploadedResponse struct {
		DocumentID     string `json:"documentId"`
		DocumentNumber string `json:"documentNumber"`
		WorkspaceID    string `json:"workspaceId"`
	}
	listedDocument struct {
		ID             string `json:"id"`
		Name           string `json:"name"`
		DocumentNumber string `json:"documentNumber"`
	}
	documentList struct {
		Documents []listedDocument `json:"documents"`
		Count     int              `json:"count"`
	}
)

func (h *handlers) status(w http.ResponseWriter, r *http.Request) error {
	hs := h.client.Health(r.Context())
	resp := statusResponse{Status: hs.Status, StubMode: hs.Stub}
	if !hs.Stub {
		ms := float64(hs.Latency.Microseconds()) / 1000
		resp.LatencyMS = &ms
	}
	if hs.Err != nil {
		resp.Error = hs.Err.Error()
		h.log.WarnContext(r.Context(), "document management down", "error", hs.Err.Error())
	}
	return httpapi.WriteData(w, http.StatusOK, resp)
}

func (h *handlers) ensureWorkspace(w http.ResponseWriter, r *http.Request) error {
	var body struct {
		ProjectNumber string `json:"projectNumber"`
		ProjectName   string `json:"projectName"`
	}
	if err := httpapi.DecodeJSON(r, &body); err != nil {
		return err
	}
	var missing fieldErrors
	missing.require("projectNumber", body.ProjectNumber)
	missing.require("projectName", body.ProjectName)
	if err := missing.err(); err != nil {
		return err
	}
	ws, err := h.client.EnsureWorkspace(r.Context(), docmgmt.EnsureWorkspaceRequest{
		ProjectNumber: body.ProjectNumber, ProjectName: body.ProjectName,
	})
	if err != nil {
		return failure(CodeWorkspaceFailed, "Workspace ensure failed", err)
	}
	return httpapi.WriteData(w, http.StatusOK, workspaceResponse{WorkspaceID: ws.ID, WorkspaceName: ws.Name, Created: ws.Created})
}

func (h *handlers) upload(w http.ResponseWriter, r *http.Request) error {
	var body struct {
		WorkspaceID   string `json:"workspaceId"`
		Filename      string `json:"filename"`
		ContentBase64 string `json:"contentBase64"`
		Metadata      struct {
			DocName  string         `json:"docName"`
			AppID    string         `json:"appId"`
			FormName string         `json:"formName"`
			Extra    map[string]any `json:"extra"`
		} `json:"metadata"`
	}
	if err := httpapi.DecodeJSON(r, &body); err != nil {
		return err
	}
	var errs fieldErrors
	errs.require("workspaceId", body.WorkspaceID)
	errs.require("filename", body.Filename)
	errs.require("contentBase64", body.ContentBase64)
	errs.require("metadata.docName", body.Metadata.DocName)
	var content []byte
	if body.ContentBase64 != "" {
		var err error
		if content, err = decodeBase64(body.ContentBase64); err != nil {
			errs.add("contentBase64 must be valid base64")
		}
	}
	extra := map[string]string{}
	keys := make([]string, 0, len(body.Metadata.Extra))
	for k := range body.Metadata.Extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		switch v := body.Metadata.Extra[k].(type) {
		case string:
			extra[k] = v
		case nil: // JSON null counts as absent
		default:
			errs.add(fmt.Sprintf("metadata.extra.%s must be a string", k))
		}
	}
	if err := errs.err(); err != nil {
		return err
	}
	appID := body.Metadata.AppID
	if appID == "" {
		appID = DefaultAppID
	}
	doc, err := h.client.Upload(r.Context(), docmgmt.UploadRequest{
		WorkspaceID: body.WorkspaceID, Filename: body.Filename, Content: content,
		DocName: body.Metadata.DocName, AppID: appID, FormName: body.Metadata.FormName, Extra: extra,
	})
	if err != nil {
		return failure(CodeUploadFailed, "Document upload failed", err)
	}
	return httpapi.WriteData(w, http.StatusOK, uploadedResponse{
		DocumentID: doc.DocumentID, DocumentNumber: doc.DocumentNumber, WorkspaceID: doc.WorkspaceID,
	})
}

func (h *handlers) listDocuments(w http.ResponseWriter, r *http.Request) error {
	id := mux.Vars(r)["workspaceId"]
	docs, err := h.client.ListDocuments(r.Context(), id)
	if err != nil {
		return failure(CodeDocumentsFailed, "Listing the workspace's documents failed", err)
	}
	out := documentList{Documents: make([]listedDocument, 0, len(docs)), Count: len(docs)}
	for _, d := range docs {
		out.Documents = append(out.Documents, listedDocument{ID: d.ID, Name: d.Name, DocumentNumber: d.DocumentNumber})
	}
	return httpapi.WriteData(w, http.StatusOK, out)
}

// failure maps a client error: a refused request is 400 INVALID_REQUEST,
// anything else 500 with code and eDOCS's message.
func failure(code, what string, err error) error {
	var re *docmgmt.RequestError
	if errors.As(err, &re) {
		return httpapi.InvalidRequest("%s", re.Error())
	}
	if te := upstream.Transport(code, what+": eDOCS", err); te != nil {
		return te // unreachable or slow: 502/504 without the address
	}
	e := httpapi.Errorf(http.StatusInternalServerError, code, "%s: %v", what, err)
	e.Cause = err
	return e
}

// decodeBase64 accepts standard base64 with or without padding (line breaks
// are ignored).
func decodeBase64(s string) ([]byte, error) {
	if b, err := base64.StdEncoding.DecodeString(s); err == nil {
		return b, nil
	}
	return base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "="))
}

// fieldErrors collects field errors into one INVALID_REQUEST message.
type fieldErrors []string

func (f *fieldErrors) add(msg string) { *f = append(*f, msg) }

func (f *fieldErrors) require(name, value string) {
	if strings.TrimSpace(value) == "" {
		f.add(name + " is required")
	}
}

func (f fieldErrors) err() error {
	if len(f) == 0 {
		return nil
	}
	return httpapi.InvalidRequest("%s", strings.Join(f, "; "))
}
