package assets

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"

	"github.com/gorilla/mux"

	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/openapi"
)

// Error codes of the asset endpoints besides INVALID_REQUEST, NOT_FOUND,
// MALFORMED_BODY and PAYLOAD_TOO_LARGE.
const (
	CodeDBNotConfigured = "DB_NOT_CONFIGURED" // 503: no database URL configured
	CodeDBUnavailable   = "DB_UNAVAILABLE"    // 503: the database cannot be reached now
	CodeProcessIDTaken  = "PROCESS_ID_TAKEN"  // 409: bpmnProcessId held by another id of the organisation
	CodeReadOnlyAsset   = "READONLY_ASSET"    // 409: the row is read-only
	CodeUpsertFailed    = "UPSERT_FAILED"     // 500
	CodeListFailed      = "LIST_FAILED"       // 500
	CodeDeleteFailed    = "DELETE_FAILED"     // 500
	CodeLookupFailed    = "LOOKUP_FAILED"     // 500
)

// Deps are the endpoints' dependencies.
type Deps struct {
	// Store is the asset database; nil when none is configured, and every
	// endpoint answers 503 DB_NOT_CONFIGURED.
	Store *Store
	// Logger receives storage failures; nil discards them.
	Logger *slog.Logger
}

type handlers struct {
	store *Store
	log   *slog.Logger
}

// Register adds the /v1/assets routes (they have no legacy aliases).
func Register(r *httpapi.Router, deps Deps) {
	h := &handlers{store: deps.Store, log: deps.Logger}
	if h.log == nil {
		h.log = slog.New(slog.DiscardHandler)
	}
	registerKind(r, h, kind[Process, processItem]{
		path: "/v1/assets/bpmn", singular: "BPMN process", plural: "BPMN processes",
		item: processSchema, body: processBodySchema,
		read: (*Store).ListProcesses, itemOf: processItemOf,
		parse: processFromBody, write: (*Store).UpsertProcess, del: (*Store).DeleteProcess,
		listNote: " Items carry no XML.",
		upsertNote: " One process per (organization, bpmnProcessId), an absent organization being its own value; " +
			"the placeholder bpmnProcessId \"unknown\" is exempt.",
		conflicts: []string{CodeProcessIDTaken},
	})
	r.Handle("GET", "/v1/assets/bpmn/by-bpmn-id/{bpmnProcessId}", h.processByBPMNID, openapi.Operation{
		Summary: "Look a BPMN process up by its process id",
		Description: "Resolves calledElement references; read-only processes are included. Without organization any " +
			"organisation matches (a process without one preferred).",
		Tags: tags,
		Parameters: []openapi.Parameter{
			{Name: "bpmnProcessId", In: "path", Required: true, Description: "the id attribute of the BPMN process element", Schema: openapi.String("")},
			openapi.Query("organization", "scope the look-up to this organisation; empty: processes without one", false),
		},
		Responses: withUnavailable(map[string]openapi.Response{
			"200": {Description: "the process", Content: openapi.JSON(openapi.Envelope(processXMLSchema))},
			"404": openapi.Failure("no process has this id", httpapi.CodeNotFound),
			"500": openapi.Failure("storage failure", CodeLookupFailed),
		}),
	})
	registerKind(r, h, kind[Form, formItem]{
		path: "/v1/assets/forms", singular: "Form schema", plural: "form schemas",
		item: formSchema, body: formBodySchema,
		read: (*Store).ListForms, itemOf: formItemOf,
		parse: formFromBody, write: (*Store).UpsertForm, del: (*Store).DeleteForm,
	})
	registerKind(r, h, kind[DocumentTemplate, templateItem]{
		path: "/v1/assets/documents", singular: "Document template", plural: "document templates",
		item: templateSchema, body: templateBodySchema,
		read: (*Store).ListDocumentTemplates, itemOf: templateItemOf,
		parse: templateFromBody, write: (*Store).UpsertDocumentTemplate, del: (*Store).DeleteDocumentTemplate,
	})
}

var tags = []string{"assets"}

// kind is one asset table as the API serves it: list, upsert and delete.
type kind[T keyed, I any] struct {
	path, singular, plural string
	item, body             openapi.Schema
	read                   func(*Store, context.Context) ([]T, error)
	itemOf                 func(T) I
	parse                  func(*fields) (T, error)
	write                  func(*Store, context.Context, T) error
	del                    func(*Store, context.Context, string) error
	listNote, upsertNote   string
	conflicts              []string // 409 codes besides READONLY_ASSET
}

func registerKind[T keyed, I any](r *httpapi.Router, h *handlers, k kind[T, I]) {
	r.Handle("GET", k.path, list(h, k.plural, k.read, k.itemOf), openapi.Operation{
		Summary:     strings.ToUpper(k.plural[:1]) + k.plural[1:],
		Description: "Every row that is not read-only, most recently updated first." + k.listNote,
		Tags:        tags,
		Responses: withUnavailable(map[string]openapi.Response{
			"200": {Description: "the " + k.plural, Content: openapi.JSON(openapi.Envelope(openapi.Array(k.item, "")))},
			"500": openapi.Failure("storage failure", CodeListFailed),
		}),
	})
	r.Handle("POST", k.path, upsert(h, k.singular, k.parse, k.write), openapi.Operation{
		Summary:     "Create or update a " + strings.ToLower(k.singular) + " (upsert by id)",
		Description: "An update keeps createdAt and overwrites everything else." + k.upsertNote,
		Tags:        tags,
		RequestBody: openapi.Body(k.body, "the "+strings.ToLower(k.singular)),
		Responses: withUnavailable(map[string]openapi.Response{
			"200": {Description: "stored", Content: openapi.JSON(successSchema)},
			"400": openapi.Failure("field errors, all of them joined by \"; \", or a malformed body",
				httpapi.CodeInvalidRequest, httpapi.CodeMalformedBody),
			"409": openapi.Failure("the row is read-only (READONLY_ASSET)"+conflictNote(k.conflicts),
				append([]string{CodeReadOnlyAsset}, k.conflicts...)...),
			"413": openapi.Failure("body over 10 MB", httpapi.CodePayloadTooLarge),
			"500": openapi.Failure("storage failure", CodeUpsertFailed),
		}),
	})
	r.Handle("DELETE", k.path+"/{id}", remove(h, k.singular, k.del), openapi.Operation{
		Summary:     "Delete a " + strings.ToLower(k.singular) + " by id",
		Description: "Idempotent: deleting an id that does not exist succeeds. A read-only row is kept: 409 READONLY_ASSET.",
		Tags:        tags,
		Responses: withUnavailable(map[string]openapi.Response{
			"200": {Description: "deleted (or absent)", Content: openapi.JSON(successSchema)},
			"409": openapi.Failure("the row is read-only", CodeReadOnlyAsset),
			"500": openapi.Failure("storage failure", CodeDeleteFailed),
		}),
	})
}

// withUnavailable adds the 503 answers every asset route gives.
func withUnavailable(responses map[string]openapi.Response) map[string]openapi.Response {
	responses["503"] = openapi.Failure("no database configured (DB_NOT_CONFIGURED) or the database is unreachable "+
		"(DB_UNAVAILABLE); DB_NOT_CONFIGURED is answered before the body is read", CodeDBNotConfigured, CodeDBUnavailable)
	return responses
}

func conflictNote(codes []string) string {
	if len(codes) == 0 {
		return ""
	}
	return " or the bpmnProcessId is used by another process of the organisation (PROCESS_ID_TAKEN, details name it)"
}

// storeFor answers DB_NOT_CONFIGURED before anything else is looked at.
func (h *handlers) storeFor() (*Store, error) {
	if h.store == nil {
		return nil, httpapi.NewError(http.StatusServiceUnavailable, CodeDBNotConfigured,
			"Asset storage needs a database; none is configured (DATABASE_URL)")
	}
	return h.store, nil
}

// fail maps a store error to the envelope; failCode names unexpected
// failures.
func (h *handlers) fail(ctx context.Context, err error, failCode, what string) error {
	var taken *ProcessIDTakenError
	var invalid *InvalidValueError
	switch {
	case errors.Is(err, ErrUnavailable):
		h.log.WarnContext(ctx, "asset database unavailable", "error", err.Error())
		e := httpapi.NewError(http.StatusServiceUnavailable, CodeDBUnavailable,
			"The asset database is unavailable; try again later")
		e.Cause = err
		return e
	case errors.Is(err, ErrReadOnly):
		return httpapi.Errorf(http.StatusConflict, CodeReadOnlyAsset, "%s is read-only; it cannot be changed or deleted", what)
	case errors.As(err, &taken):
		e := httpapi.Errorf(http.StatusConflict, CodeProcessIDTaken,
			"bpmnProcessId %q is already used by process %q (%s)", taken.BPMNProcessID, taken.Existing.ID, taken.Existing.Name)
		e.Details = map[string]any{
			"bpmnProcessId": taken.BPMNProcessID,
			"organization":  taken.Organization,
			"existing":      map[string]string{"id": taken.Existing.ID, "name": taken.Existing.Name, "status": taken.Existing.Status},
		}
		return e
	case errors.As(err, &invalid):
		return httpapi.InvalidRequest("a value cannot be stored: %s", invalid.Err.Error())
	}
	e := httpapi.Errorf(http.StatusInternalServerError, failCode, "%s: storage failed", what)
	e.Cause = err
	return e
}

// Response items.
type (
	processItem struct {
		ID                 string   `json:"id"`
		BPMNProcessID      string   `json:"bpmnProcessId"`
		Name               string   `json:"name"`
		Description        *string  `json:"description,omitempty"`
		ProcessRole        string   `json:"processRole"`
		CalledElement      *string  `json:"calledElement"`
		ShellID            *string  `json:"shellId,omitempty"`
		LinkedDMNTemplates []string `json:"linkedDmnTemplates"`
		Status             string   `json:"status"`
		Language           *string  `json:"language,omitempty"`
		Organization       *string  `json:"organization,omitempty"`
		ReadOnly           bool     `json:"readonly"`
		SchemaVersion      int      `json:"schemaVersion"`
		CreatedAt          string   `json:"createdAt"`
		UpdatedAt          string   `json:"updatedAt"`
	}
	processXML struct {
		ID            string `json:"id"`
		BPMNProcessID string `json:"bpmnProcessId"`
		XML           string `json:"xml"`
	}
	formItem struct {
		ID            string          `json:"id"`
		Name          string          `json:"name"`
		Description   *string         `json:"description,omitempty"`
		Schema        json.RawMessage `json:"schema"`
		Status        string          `json:"status"`
		SchemaVersion int             `json:"schemaVersion"`
		Language      *string         `json:"language,omitempty"`
		Organization  *string         `json:"organization,omitempty"`
		ReadOnly      bool            `json:"readonly"`
		CreatedAt     string          `json:"createdAt"`
		UpdatedAt     string          `json:"updatedAt"`
	}
	templateItem struct {
		ID            string          `json:"id"`
		Name          string          `json:"name"`
		Description   *string         `json:"description,omitempty"`
		ProcessKey    *string         `json:"processKey,omitempty"`
		ServiceID     *string         `json:"serviceId,omitempty"`
		SchemaVersion int             `json:"schemaVersion"`
		Zones         json.RawMessage `json:"zones"`
		Bindings      json.RawMessage `json:"bindings"`
		Assets        json.RawMessage `json:"assets"`
		Status        string          `json:"status"`
		Language      *string         `json:"language,omitempty"`
		Organization  *string         `json:"organization,omitempty"`
		ReadOnly      bool            `json:"readonly"`
		CreatedAt     string          `json:"createdAt"`
		UpdatedAt     string          `json:"updatedAt"`
	}
)

// list answers the rows of a table, each turned into its response item.
func list[T, I any](h *handlers, what string, read func(*Store, context.Context) ([]T, error), item func(T) I) httpapi.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		s, err := h.storeFor()
		if err != nil {
			return err
		}
		rows, err := read(s, r.Context())
		if err != nil {
			return h.fail(r.Context(), err, CodeListFailed, "Listing the "+what)
		}
		out := make([]I, 0, len(rows))
		for _, row := range rows {
			out = append(out, item(row))
		}
		return httpapi.WriteData(w, http.StatusOK, out)
	}
}

// keyed is a stored row with its API id.
type keyed interface{ key() string }

func (p Process) key() string          { return p.ID }
func (f Form) key() string             { return f.ID }
func (d DocumentTemplate) key() string { return d.ID }

// upsert reads, validates and stores one row.
func upsert[T keyed](h *handlers, what string, parse func(*fields) (T, error), write func(*Store, context.Context, T) error) httpapi.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		s, err := h.storeFor()
		if err != nil {
			return err
		}
		f, err := readFields(r)
		if err != nil {
			return err
		}
		row, err := parse(f)
		if err != nil {
			return err
		}
		if err := write(s, r.Context(), row); err != nil {
			return h.fail(r.Context(), err, CodeUpsertFailed, what+" "+quote(row.key()))
		}
		return httpapi.WriteData(w, http.StatusOK, nil)
	}
}

// remove deletes the row named by the path's id.
func remove(h *handlers, what string, del func(*Store, context.Context, string) error) httpapi.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		s, err := h.storeFor()
		if err != nil {
			return err
		}
		id := mux.Vars(r)["id"]
		if err := del(s, r.Context(), id); err != nil {
			return h.fail(r.Context(), err, CodeDeleteFailed, what+" "+quote(id))
		}
		return httpapi.WriteData(w, http.StatusOK, nil)
	}
}

func (h *handlers) processByBPMNID(w http.ResponseWriter, r *http.Request) error {
	s, err := h.storeFor()
	if err != nil {
		return err
	}
	id := mux.Vars(r)["bpmnProcessId"]
	var org *string
	if q := r.URL.Query(); q.Has("organization") {
		o := q.Get("organization")
		org = &o
	}
	p, err := s.ProcessByBPMNID(r.Context(), id, org)
	if errors.Is(err, ErrNotFound) {
		return httpapi.NotFound("No process found for bpmnProcessId: %s", id)
	}
	if err != nil {
		return h.fail(r.Context(), err, CodeLookupFailed, "Looking up bpmnProcessId "+quote(id))
	}
	return httpapi.WriteData(w, http.StatusOK, processXML{ID: p.ID, BPMNProcessID: p.BPMNProcessID, XML: p.XML})
}

func processItemOf(p Process) processItem {
	return processItem{
		ID: p.ID, BPMNProcessID: p.BPMNProcessID, Name: p.Name, Description: p.Description,
		ProcessRole: p.ProcessRole, CalledElement: p.CalledElement, ShellID: p.ShellID,
		LinkedDMNTemplates: nonNil(p.LinkedDMNTemplates), Status: p.Status, Language: p.Language,
		Organization: p.Organization, ReadOnly: p.ReadOnly, SchemaVersion: p.SchemaVersion,
		CreatedAt: httpapi.Timestamp(p.CreatedAt), UpdatedAt: httpapi.Timestamp(p.UpdatedAt),
	}
}

func formItemOf(f Form) formItem {
	return formItem{
		ID: f.ID, Name: f.Name, Description: f.Description, Schema: f.Schema, Status: f.Status,
		SchemaVersion: f.SchemaVersion, Language: f.Language, Organization: f.Organization, ReadOnly: f.ReadOnly,
		CreatedAt: httpapi.Timestamp(f.CreatedAt), UpdatedAt: httpapi.Timestamp(f.UpdatedAt),
	}
}

func templateItemOf(d DocumentTemplate) templateItem {
	return templateItem{
		ID: d.ID, Name: d.Name, Description: d.Description, ProcessKey: d.ProcessKey, ServiceID: d.ServiceID,
		SchemaVersion: d.SchemaVersion, Zones: d.Zones, Bindings: d.Bindings, Assets: d.Assets, Status: d.Status,
		Language: d.Language, Organization: d.Organization, ReadOnly: d.ReadOnly,
		CreatedAt: httpapi.Timestamp(d.CreatedAt), UpdatedAt: httpapi.Timestamp(d.UpdatedAt),
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// processFromBody reads an upsert body; the error is 400
// INVALID_REQUEST naming every field at fault.
func processFromBody(f *fields) (Process, error) {
	p := Process{
		ID:   f.requiredText("id", true),
		Name: f.requiredText("name", true),
		XML:  f.requiredText("xml", false),
	}
	p.LinkedDMNTemplates = f.stringList("linkedDmnTemplates")
	p.CreatedAt = f.timestamp("createdAt")
	p.UpdatedAt = f.timestamp("updatedAt")
	p.BPMNProcessID = "unknown"
	if id := f.optionalText("bpmnProcessId"); id != nil {
		p.BPMNProcessID = *id
	}
	p.Description = f.optionalText("description")
	p.ProcessRole = f.oneOf("processRole", "standalone", "shell", "subprocess", "standalone")
	p.CalledElement = f.optionalText("calledElement")
	p.ShellID = f.optionalText("shellId")
	p.Status = f.oneOf("status", "wip", "example", "wip", "e2e")
	p.Language = f.optionalText("language")
	p.Organization = f.optionalText("organization")
	return p, f.err()
}

// formFromBody reads an upsert body; the error is 400
// INVALID_REQUEST naming every field at fault.
func formFromBody(f *fields) (Form, error) {
	form := Form{
		ID:     f.requiredText("id", true),
		Name:   f.requiredText("name", true),
		Schema: f.object("schema"),
	}
	form.CreatedAt = f.timestamp("createdAt")
	form.UpdatedAt = f.timestamp("updatedAt")
	form.Description = f.optionalText("description")
	form.Status = "wip"
	if st := f.optionalText("status"); st != nil {
		form.Status = *st
	}
	form.Language = f.optionalText("language")
	form.Organization = f.optionalText("organization")
	return form, f.err()
}

// templateFromBody reads an upsert body; the error is 400
// INVALID_REQUEST naming every field at fault.
func templateFromBody(f *fields) (DocumentTemplate, error) {
	d := DocumentTemplate{
		ID:            f.requiredText("id", true),
		Name:          f.requiredText("name", true),
		SchemaVersion: f.integer("schemaVersion"),
		Zones:         f.object("zones"),
		Bindings:      f.array("bindings"),
		Assets:        f.array("assets"),
	}
	d.CreatedAt = f.timestamp("createdAt")
	d.UpdatedAt = f.timestamp("updatedAt")
	d.Description = f.optionalText("description")
	d.ProcessKey = f.optionalText("processKey")
	d.ServiceID = f.optionalText("serviceId")
	d.Status = "wip"
	if st := f.optionalText("status"); st != nil {
		d.Status = *st
	}
	d.Language = f.optionalText("language")
	d.Organization = f.optionalText("organization")
	return d, f.err()
}
