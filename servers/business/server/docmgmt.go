package server

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"github.com/regelkit/regelkit/docmgmt"
	"github.com/regelkit/regelkit/servers/business/internal/docworker"
	"github.com/regelkit/regelkit/servers/internal/auth"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/openapi"
)

// Codes of the document-management routes.
const (
	codeMissingFields        = "MISSING_FIELDS"
	codeDocmgmtError         = "DOCMGMT_ERROR"
	codeDocmgmtUserToken     = "DOCMGMT_USER_TOKEN_UNAVAILABLE"
	codeNotFound             = "NOT_FOUND"
	docmgmtDefaultAppID      = "DEFAULT"
	docmgmtStandaloneForm    = "D_INTERN_NIEUW"
	docmgmtMaxUploadBody     = 20 << 20 // base64 of a file of about 15 MB
	docmgmtTimeout           = 30 * time.Second
	docmgmtMaxListWorkspaces = 100
)

// stubDocuments are the business flavour's stub listing: the
// project-phase reports a workspace shows before anything is uploaded.
var stubDocuments = []docmgmt.Document{
	{ID: "stub-doc-1", Name: "rip-intake-report.pdf", DocumentNumber: "2993898"},
	{ID: "stub-doc-2", Name: "rip-psu-report.pdf", DocumentNumber: "2993899"},
}

// newDocmgmt is the stub (default) or the live eDOCS client.
func newDocmgmt(cfg *config, a *app) (docmgmt.Client, error) {
	if cfg.DocmgmtStub {
		return docmgmt.NewStub(docmgmt.StubConfig{Library: cfg.DocmgmtLibrary, Documents: stubDocuments}), nil
	}
	return docmgmt.NewLive(docmgmt.LiveConfig{
		BaseURL: cfg.DocmgmtBaseURL, Library: cfg.DocmgmtLibrary,
		UserID: cfg.DocmgmtUserID, Password: cfg.DocmgmtPassword, Logger: a.logger,
	})
}

var (
	docmgmtStatusSchema = openapi.Object(map[string]openapi.Schema{
		"status":        openapi.Enum("", "stub", "up", "down"),
		"library":       openapi.String("the eDOCS library"),
		"stubMode":      openapi.Boolean(""),
		"reachable":     openapi.Boolean(""),
		"authenticated": openapi.Boolean(""),
		"latencyMs":     openapi.Number("live only: the reachability call's latency"),
	}, "status", "library", "stubMode", "reachable", "authenticated")
	docmgmtEnsureSchema = openapi.Object(map[string]openapi.Schema{
		"projectNumber": openapi.String("letters, digits, space and - _ . / only"),
		"projectName":   openapi.String(""),
	}, "projectNumber", "projectName")
	docmgmtUploadSchema = openapi.Object(map[string]openapi.Schema{
		"filename":      openapi.String(""),
		"contentBase64": openapi.String("the file, base64"),
		"workspaceId":   openapi.String("optional: omit for a standalone upload (the only path confirmed working live)"),
		"metadata": openapi.Object(map[string]openapi.Schema{
			"docName":    openapi.String("profile field DOCNAME"),
			"department": openapi.String("profile field UV_AFD_NAAM (Behandelgroep); required"),
			"appId":      openapi.String("profile field APP_ID; default DEFAULT"),
			"formName":   openapi.String("eDOCS profile form; default D_INTERN_NIEUW for standalone uploads"),
			"extra":      openapi.AnyObject("further profile fields (strings), passed through"),
		}, "docName", "department"),
	}, "filename", "contentBase64", "metadata")
)

// docmgmtRoutes mounts /v1/docmgmt (spec §4.7): JWT whose azp is
// in DOCMGMT_ALLOWED_CLIENTS; the caller acts as the service account.
func (a *app) docmgmtRoutes(r *httpapi.Router) {
	a.mounted["docmgmt"] = "/v1/docmgmt"
	guard := func(h httpapi.HandlerFunc) httpapi.HandlerFunc {
		return a.auth.Guard(a.docmgmtActor(h), auth.RequireDocmgmtClient(a.cfg.DocmgmtClients))
	}
	tags := []string{"document management"}
	desc := "JWT whose azp is in DOCMGMT_ALLOWED_CLIENTS (else 403 DOCMGMT_CLIENT_NOT_ALLOWED); machine tokens act as the service account. " +
		"A person's token (role caseworker or admin) has no stored identity token: 403 DOCMGMT_USER_TOKEN_UNAVAILABLE, unless " +
		"DOCMGMT_ALLOW_SERVICE_FALLBACK=true, when it acts as the service account and data.actingAs is \"service\". " +
		"In stub mode (the default) nothing is contacted. Live failures: 502 DOCMGMT_ERROR with eDOCS's message."
	fail := func(extra ...string) map[string]openapi.Response {
		m := map[string]openapi.Response{
			"200": {Description: "success envelope"},
			"403": {Description: "DOCMGMT_CLIENT_NOT_ALLOWED, DOCMGMT_USER_TOKEN_UNAVAILABLE"},
			"502": {Description: "DOCMGMT_ERROR"},
		}
		for i := 0; i+1 < len(extra); i += 2 {
			m[extra[i]] = openapi.Response{Description: extra[i+1]}
		}
		return m
	}
	wsParam := []openapi.Parameter{{Name: "workspaceId", In: "path", Required: true, Schema: openapi.String("")}}
	docParam := []openapi.Parameter{{Name: "documentId", In: "path", Required: true, Schema: openapi.String("")}}
	r.Handle("GET", "/v1/docmgmt/status", guard(a.handleDocmgmtStatus), openapi.Operation{
		Summary: "Status of document management", Description: desc + " A down system is status down, never an error.",
		Tags: tags, Responses: map[string]openapi.Response{"200": {Description: "status",
			Content: openapi.JSON(openapi.Envelope(docmgmtStatusSchema))}},
	})
	r.Handle("GET", "/v1/docmgmt/workspaces", guard(a.handleDocmgmtWorkspaces), openapi.Operation{
		Summary: "Workspaces of the library", Description: desc + " data: {workspaces: [{id, name}]}, at most `max` (default 10, at most 100).",
		Tags: tags, Parameters: []openapi.Parameter{{Name: "max", In: "query", Schema: openapi.Integer("")}}, Responses: fail(),
	})
	r.Handle("POST", "/v1/docmgmt/workspaces/ensure", guard(a.handleDocmgmtEnsure), openapi.Operation{
		Summary: "Find or create the workspace of a project", Description: desc + " data: {workspaceId, workspaceName, created}.",
		Tags: tags, RequestBody: openapi.Body(docmgmtEnsureSchema, "the project"),
		Responses: fail("400", "MISSING_FIELDS, VALIDATION_ERROR, MALFORMED_BODY"),
	})
	r.Handle("POST", "/v1/docmgmt/documents", guard(a.handleDocmgmtUpload), openapi.Operation{
		Summary: "Upload a document, standalone or into a workspace",
		Description: desc + " metadata.department is required (400 MISSING_FIELDS, stub mode too); appId defaults to DEFAULT, " +
			"formName to D_INTERN_NIEUW for standalone uploads. data: {documentId, documentNumber, workspaceId|null}. Body at most 20 MB.",
		Tags: tags, RequestBody: openapi.Body(docmgmtUploadSchema, "the document and its profile"),
		Responses: fail("400", "MISSING_FIELDS, VALIDATION_ERROR, MALFORMED_BODY", "413", "PAYLOAD_TOO_LARGE"),
	}, httpapi.BodyLimit(docmgmtMaxUploadBody))
	r.Handle("GET", "/v1/docmgmt/workspaces/{workspaceId}/documents", guard(a.handleDocmgmtDocuments), openapi.Operation{
		Summary: "Documents of a workspace", Description: desc + " data: {workspaceId, documents: [{id, name, documentNumber}]}.",
		Tags: tags, Parameters: wsParam, Responses: fail("404", "NOT_FOUND"),
	})
	r.Handle("GET", "/v1/docmgmt/documents/{documentId}/profile", guard(a.handleDocmgmtProfile), openapi.Operation{
		Summary: "A document's profile", Description: desc + " data: the eDOCS profile fields under their own names (DOCNAME, DOCNUMBER, APP_ID, …).",
		Tags: tags, Parameters: docParam, Responses: fail("404", "NOT_FOUND"),
	})
	r.Handle("GET", "/v1/docmgmt/documents/{documentId}/versions", guard(a.handleDocmgmtVersions), openapi.Operation{
		Summary: "A document's versions", Description: desc + " data: {documentId, versions: [{id, version}]}.",
		Tags: tags, Parameters: docParam, Responses: fail("404", "NOT_FOUND"),
	})
	r.Handle("GET", "/v1/docmgmt/documents/{documentId}/versions/{version}", guard(a.handleDocmgmtDownload), openapi.Operation{
		Summary: "Download one version", Description: desc + " data: {documentId, version, contentBase64}. Live, only version 0 (the current one) works.",
		Tags: tags, Parameters: append(append([]openapi.Parameter(nil), docParam...),
			openapi.Parameter{Name: "version", In: "path", Required: true, Schema: openapi.String("")}),
		Responses: fail("404", "NOT_FOUND"),
	})
	r.Handle("DELETE", "/v1/docmgmt/documents/{documentId}", guard(a.handleDocmgmtDeleteDocument), openapi.Operation{
		Summary: "Delete a document", Description: desc + " data: {documentId, deleted: true}.",
		Tags: tags, Parameters: docParam, Responses: fail("404", "NOT_FOUND"),
	})
	r.Handle("DELETE", "/v1/docmgmt/workspaces/{workspaceId}", guard(a.handleDocmgmtDeleteWorkspace), openapi.Operation{
		Summary: "Delete a workspace", Description: desc + " data: {workspaceId, deleted: true}.",
		Tags: tags, Parameters: wsParam, Responses: fail("404", "NOT_FOUND"),
	})
}

type actingAsKey struct{}

// docmgmtActor decides who the call acts as. A machine token acts as the
// service account. A person's token would act as that person with their
// exchanged identity token, which this server does not store yet (notes
// §9.2): it is refused unless the service fallback is on.
func (a *app) docmgmtActor(h httpapi.HandlerFunc) httpapi.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		p := auth.FromContext(r.Context())
		if p != nil && p.HasRole(auth.RoleCaseworker, auth.RoleAdmin) {
			if !a.cfg.DocmgmtServiceFallback {
				return httpapi.NewError(http.StatusForbidden, codeDocmgmtUserToken,
					"No stored identity token for this user; document management is available to service clients only")
			}
			r = r.WithContext(context.WithValue(r.Context(), actingAsKey{}, "service"))
		}
		return h(w, r)
	}
}

// writeDocmgmt writes data, adding actingAs when the service fallback made
// a person act as the service account.
func writeDocmgmt(w http.ResponseWriter, r *http.Request, data map[string]any) error {
	if v, ok := r.Context().Value(actingAsKey{}).(string); ok {
		data["actingAs"] = v
	}
	return httpapi.WriteData(w, http.StatusOK, data)
}

// docmgmtFailure maps a client error: a refused request is 400
// VALIDATION_ERROR naming the field, a 404 of eDOCS is 404 NOT_FOUND, anything
// else 502 DOCMGMT_ERROR with eDOCS's own message (never its address).
func docmgmtFailure(what string, err error) error {
	var re *docmgmt.RequestError
	switch {
	case errors.As(err, &re):
		return httpapi.NewError(http.StatusBadRequest, codeValidation, re.Error())
	case errors.Is(err, docmgmt.ErrNotFound):
		return &httpapi.Error{Status: http.StatusNotFound, Code: codeNotFound, Message: what + ": not found", Cause: err}
	case errors.Is(err, context.DeadlineExceeded):
		return &httpapi.Error{Status: http.StatusBadGateway, Code: codeDocmgmtError, Message: what + ": document management did not answer in time", Cause: err}
	}
	return &httpapi.Error{Status: http.StatusBadGateway, Code: codeDocmgmtError, Message: what + ": " + err.Error(), Cause: err}
}

func docmgmtContext(r *http.Request) (context.Context, context.CancelFunc) {
	return context.WithTimeout(r.Context(), docmgmtTimeout)
}

func (a *app) handleDocmgmtStatus(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := docmgmtContext(r)
	defer cancel()
	h := a.docmgmt.Health(ctx)
	data := map[string]any{"status": h.Status, "library": a.cfg.DocmgmtLibrary, "stubMode": h.Stub,
		"reachable": h.Reachable, "authenticated": h.Authenticated}
	if !h.Stub {
		data["latencyMs"] = float64(h.Latency.Microseconds()) / 1000
	}
	if h.Err != nil {
		// The reason goes to the log only.
		a.logger.WarnContext(r.Context(), "document management down", "error", h.Err.Error())
	}
	return writeDocmgmt(w, r, data)
}

func (a *app) handleDocmgmtWorkspaces(w http.ResponseWriter, r *http.Request) error {
	max := 10
	if v := r.URL.Query().Get("max"); v != "" {
		var n int
		if _, err := fmt.Sscan(v, &n); err == nil && n > 0 {
			max = min(n, docmgmtMaxListWorkspaces)
		}
	}
	ctx, cancel := docmgmtContext(r)
	defer cancel()
	ws, err := a.docmgmt.ListWorkspaces(ctx, docmgmt.ListWorkspacesRequest{Max: max})
	if err != nil {
		return docmgmtFailure("Listing workspaces failed", err)
	}
	out := make([]map[string]string, 0, len(ws))
	for _, w := range ws {
		out = append(out, map[string]string{"id": w.ID, "name": w.Name})
	}
	return writeDocmgmt(w, r, map[string]any{"workspaces": out})
}

// missingFields collects the names of absent fields for one 400
// MISSING_FIELDS naming all of them.
type missingFields []string

func (m *missingFields) require(name, value string) {
	if strings.TrimSpace(value) == "" {
		*m = append(*m, name)
	}
}

func (m missingFields) err() error {
	if len(m) == 0 {
		return nil
	}
	e := httpapi.NewError(http.StatusBadRequest, codeMissingFields, "Missing required fields: "+strings.Join(m, ", "))
	e.Details = map[string]any{"fields": []string(m)}
	return e
}

func (a *app) handleDocmgmtEnsure(w http.ResponseWriter, r *http.Request) error {
	var body struct {
		ProjectNumber string `json:"projectNumber"`
		ProjectName   string `json:"projectName"`
	}
	if err := decodeBody(r, &body); err != nil {
		return err
	}
	var m missingFields
	m.require("projectNumber", body.ProjectNumber)
	m.require("projectName", body.ProjectName)
	if err := m.err(); err != nil {
		return err
	}
	ctx, cancel := docmgmtContext(r)
	defer cancel()
	ws, err := a.docmgmt.EnsureWorkspace(ctx, docmgmt.EnsureWorkspaceRequest{ProjectNumber: body.ProjectNumber, ProjectName: body.ProjectName})
	if err != nil {
		return docmgmtFailure("Workspace ensure failed", err)
	}
	return writeDocmgmt(w, r, map[string]any{"workspaceId": ws.ID, "workspaceName": ws.Name, "created": ws.Created})
}

// decodeBody decodes a JSON body; a wrong field type is 400
// VALIDATION_ERROR naming the field, a syntax error 400 MALFORMED_BODY.
func decodeBody(r *http.Request, dst any) error {
	if err := httpapi.DecodeJSON(r, dst); err != nil {
		var e *httpapi.Error
		if errors.As(err, &e) && e.Code == httpapi.CodeInvalidRequest {
			e.Code = codeValidation
		}
		return err
	}
	return nil
}

func (a *app) handleDocmgmtUpload(w http.ResponseWriter, r *http.Request) error {
	var body struct {
		WorkspaceID   string `json:"workspaceId"`
		Filename      string `json:"filename"`
		ContentBase64 string `json:"contentBase64"`
		Metadata      struct {
			DocName    string         `json:"docName"`
			Department string         `json:"department"`
			AppID      string         `json:"appId"`
			FormName   string         `json:"formName"`
			Extra      map[string]any `json:"extra"`
		} `json:"metadata"`
	}
	if err := decodeBody(r, &body); err != nil {
		return err
	}
	var m missingFields
	m.require("filename", body.Filename)
	m.require("contentBase64", body.ContentBase64)
	m.require("metadata.docName", body.Metadata.DocName)
	m.require("metadata.department", body.Metadata.Department)
	if err := m.err(); err != nil {
		return err
	}
	content, err := decodeBase64(body.ContentBase64)
	if err != nil {
		e := httpapi.NewError(http.StatusBadRequest, codeMissingFields, "contentBase64 must be valid base64")
		e.Details = map[string]any{"fields": []string{"contentBase64"}}
		return e
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
		case nil:
		default:
			return httpapi.Errorf(http.StatusBadRequest, codeValidation, "metadata.extra.%s must be a string", excerpt(k, 64))
		}
	}
	appID := body.Metadata.AppID
	if appID == "" {
		appID = docmgmtDefaultAppID
	}
	form := body.Metadata.FormName
	if form == "" && body.WorkspaceID == "" {
		form = docmgmtStandaloneForm
	}
	ctx, cancel := docmgmtContext(r)
	defer cancel()
	doc, err := a.docmgmt.Upload(ctx, docmgmt.UploadRequest{
		WorkspaceID: body.WorkspaceID, Filename: body.Filename, Content: content, DocName: body.Metadata.DocName,
		AppID: appID, Department: body.Metadata.Department, FormName: form, Extra: extra,
	})
	if err != nil {
		return docmgmtFailure("Document upload failed", err)
	}
	var ws any
	if doc.WorkspaceID != "" {
		ws = doc.WorkspaceID
	}
	return writeDocmgmt(w, r, map[string]any{"documentId": doc.DocumentID, "documentNumber": doc.DocumentNumber, "workspaceId": ws})
}

// decodeBase64 accepts standard base64 with or without padding.
func decodeBase64(s string) ([]byte, error) {
	if b, err := base64.StdEncoding.DecodeString(s); err == nil {
		return b, nil
	}
	return base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "="))
}

// excerpt quotes at most n bytes of s (on a rune boundary).
func excerpt(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !isRuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

func (a *app) handleDocmgmtDocuments(w http.ResponseWriter, r *http.Request) error {
	id := mux.Vars(r)["workspaceId"]
	ctx, cancel := docmgmtContext(r)
	defer cancel()
	docs, err := a.docmgmt.ListDocuments(ctx, id)
	if err != nil {
		return docmgmtFailure("Listing the workspace's documents failed", err)
	}
	out := make([]map[string]string, 0, len(docs))
	for _, d := range docs {
		out = append(out, map[string]string{"id": d.ID, "name": d.Name, "documentNumber": d.DocumentNumber})
	}
	return writeDocmgmt(w, r, map[string]any{"workspaceId": id, "documents": out})
}

func (a *app) handleDocmgmtProfile(w http.ResponseWriter, r *http.Request) error {
	id := mux.Vars(r)["documentId"]
	ctx, cancel := docmgmtContext(r)
	defer cancel()
	p, err := a.docmgmt.Profile(ctx, id)
	if err != nil {
		return docmgmtFailure("Reading the document profile failed", err)
	}
	if p == nil {
		p = map[string]any{}
	}
	return writeDocmgmt(w, r, p)
}

func (a *app) handleDocmgmtVersions(w http.ResponseWriter, r *http.Request) error {
	id := mux.Vars(r)["documentId"]
	ctx, cancel := docmgmtContext(r)
	defer cancel()
	vs, err := a.docmgmt.Versions(ctx, id)
	if err != nil {
		return docmgmtFailure("Listing the document versions failed", err)
	}
	out := make([]map[string]string, 0, len(vs))
	for _, v := range vs {
		out = append(out, map[string]string{"id": v.ID, "version": v.Version})
	}
	return writeDocmgmt(w, r, map[string]any{"documentId": id, "versions": out})
}

func (a *app) handleDocmgmtDownload(w http.ResponseWriter, r *http.Request) error {
	id, version := mux.Vars(r)["documentId"], mux.Vars(r)["version"]
	ctx, cancel := docmgmtContext(r)
	defer cancel()
	b, err := a.docmgmt.Download(ctx, docmgmt.DownloadRequest{DocumentID: id, Version: version})
	if err != nil {
		return docmgmtFailure("Downloading the document failed", err)
	}
	return writeDocmgmt(w, r, map[string]any{"documentId": id, "version": version, "contentBase64": base64.StdEncoding.EncodeToString(b)})
}

func (a *app) handleDocmgmtDeleteDocument(w http.ResponseWriter, r *http.Request) error {
	id := mux.Vars(r)["documentId"]
	ctx, cancel := docmgmtContext(r)
	defer cancel()
	if err := a.docmgmt.DeleteDocument(ctx, id); err != nil {
		return docmgmtFailure("Deleting the document failed", err)
	}
	return writeDocmgmt(w, r, map[string]any{"documentId": id, "deleted": true})
}

func (a *app) handleDocmgmtDeleteWorkspace(w http.ResponseWriter, r *http.Request) error {
	id := mux.Vars(r)["workspaceId"]
	ctx, cancel := docmgmtContext(r)
	defer cancel()
	if err := a.docmgmt.DeleteWorkspace(ctx, id); err != nil {
		return docmgmtFailure("Deleting the workspace failed", err)
	}
	return writeDocmgmt(w, r, map[string]any{"workspaceId": id, "deleted": true})
}

// newDocs sets up document management and, on the embedded engine, the
// external-task worker of the document topics (DOCMGMT_WORKER_ENABLED).
// The worker never runs against a remote engine: there, the operator runs
// workers next to Operaton.
func (a *app) newDocs(ctx context.Context) error {
	c, err := newDocmgmt(a.cfg, a)
	if err != nil {
		return fmt.Errorf("document management: %w", err)
	}
	a.docmgmt = c
	if !a.embedded {
		return nil
	}
	// The project-phase example (served by the worker below) and the
	// onboarding example run on embedded defaults.
	for _, dir := range []string{"processes/projectphase", "processes/onboarding"} {
		if err := deployProcessBundle(ctx, a.engine, dir); err != nil {
			return fmt.Errorf("deploying the example process %s: %w", dir, err)
		}
	}
	if !a.cfg.DocWorker {
		return nil
	}
	pe, err := a.processEngine()
	if err != nil {
		a.logger.Warn("document worker not started: the embedded engine has no process side")
		return nil
	}
	w := docworker.New(docworker.Options{Engine: pe, Docs: c, Logger: a.logger, CallTimeout: a.cfg.EngineTimeout})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = w.Run(ctx)
	}()
	// stopDocWorker ends the worker: the life cycle calls it once the
	// requests have drained (within the grace period), Close again at no cost.
	a.stopDocWorker = func(ctx context.Context) error {
		cancel()
		select {
		case <-done:
			return nil
		case <-ctx.Done():
			return fmt.Errorf("document worker: %w", ctx.Err())
		}
	}
	a.closers = append(a.closers, func() { cancel(); <-done })
	return nil
}

// docsRoutes registers the route groups of onboarding, project phase,
// document management and bundle deployment.
func (a *app) docsRoutes(r *httpapi.Router) {
	a.onboardingRoutes(r)
	a.ripRoutes(r)
	a.docmgmtRoutes(r)
	a.deployRoutes(r)
}
