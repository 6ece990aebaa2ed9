package docmgmt

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Client is a document-management system. Implementations: *Live (eDOCS DM
// REST) and *Stub.
type Client interface {
	// Health probes the system; it never fails, a failure is Status down.
	Health(ctx context.Context) Health
	// EnsureWorkspace returns the workspace of a project, creating it when
	// none exists. Created reports whether this call created it.
	EnsureWorkspace(ctx context.Context, req EnsureWorkspaceRequest) (Workspace, error)
	// Upload files one document, in a workspace or standalone.
	Upload(ctx context.Context, req UploadRequest) (UploadedDocument, error)
	// ListDocuments lists the documents of a workspace.
	ListDocuments(ctx context.Context, workspaceID string) ([]Document, error)
	// ListWorkspaces lists workspaces of the library.
	ListWorkspaces(ctx context.Context, req ListWorkspacesRequest) ([]WorkspaceSummary, error)
	// Profile returns a document's profile fields under their eDOCS names
	// (DOCNAME, DOCNUMBER, APP_ID, …).
	Profile(ctx context.Context, documentID string) (map[string]any, error)
	// Versions lists a document's versions.
	Versions(ctx context.Context, documentID string) ([]Version, error)
	// Download returns the content of one version of a document.
	Download(ctx context.Context, req DownloadRequest) ([]byte, error)
	// DeleteDocument deletes a document.
	DeleteDocument(ctx context.Context, documentID string) error
	// DeleteWorkspace deletes a workspace.
	DeleteWorkspace(ctx context.Context, workspaceID string) error
}

// Health states.
const (
	StatusUp   = "up"
	StatusDown = "down"
	StatusStub = "stub"
)

// Health is the result of a health probe.
type Health struct {
	Status        string // StatusUp, StatusDown or StatusStub
	Stub          bool
	Library       string
	Reachable     bool          // the server answered
	Authenticated bool          // a session exists or a login succeeded
	Latency       time.Duration // of the reachability call; 0 in stub mode
	Err           error         // why the status is down; nil otherwise
}

// EnsureWorkspaceRequest names a project. The workspace is named
// "<ProjectNumber> — <ProjectName>" (an em dash U+2014 between spaces) and
// found again by its project number.
type EnsureWorkspaceRequest struct {
	ProjectNumber string // letters, digits, space, - _ . / ; at most 100 characters
	ProjectName   string
}

// Workspace is a project workspace.
type Workspace struct {
	ID      string
	Name    string
	Created bool
}

// WorkspaceSummary is one item of a workspace listing.
type WorkspaceSummary struct {
	ID   string
	Name string
}

// ListWorkspacesRequest bounds a workspace listing.
type ListWorkspacesRequest struct {
	Max int // at most this many; 10 when zero
}

// UploadRequest is one document to file. The client applies no defaults:
// fields left empty are not sent (AppID, Department, FormName) or, when
// required, rejected (Filename, DocName).
type UploadRequest struct {
	WorkspaceID string // eDOCS workspace id; empty files the document standalone
	Filename    string
	Content     []byte
	DocName     string            // profile field DOCNAME
	AppID       string            // profile field APP_ID
	Department  string            // profile field UV_AFD_NAAM
	FormName    string            // eDOCS form used to select the profile
	Extra       map[string]string // further profile fields, passed through unchanged
}

// UploadedDocument identifies a filed document.
type UploadedDocument struct {
	DocumentID     string
	DocumentNumber string
	WorkspaceID    string // empty for a standalone upload
}

// Document is one item of a document listing.
type Document struct {
	ID             string
	Name           string
	DocumentNumber string
}

// Version is one version of a document.
type Version struct {
	ID      string
	Version string
}

// DownloadRequest names one version of a document. Live eDOCS serves only
// version "0", the current one.
type DownloadRequest struct {
	DocumentID string
	Version    string
}

// Error is a failed call to the document-management system.
type Error struct {
	Op      string // the failing operation, e.g. "upload", "ensure workspace: create"
	Status  int    // eDOCS's HTTP status; 0 when no answer came
	Message string // eDOCS's own message, or what went wrong
	Err     error  // the transport error, if any
}

func (e *Error) Error() string {
	switch {
	case e.Status != 0:
		return fmt.Sprintf("eDOCS %s failed: HTTP %d: %s", e.Op, e.Status, e.Message)
	default:
		return fmt.Sprintf("eDOCS %s failed: %s", e.Op, e.Message)
	}
}

func (e *Error) Unwrap() error { return e.Err }

// RequestError is a request the client refuses before contacting anything.
type RequestError struct {
	Field   string // e.g. "projectNumber", "metadata.extra.AUTHOR_ID"
	Message string // e.g. "is required"
}

func (e *RequestError) Error() string { return e.Field + " " + e.Message }

// ErrNotFound is matched (errors.Is) by an *Error whose status is 404.
var ErrNotFound = errors.New("docmgmt: not found")

// Is makes errors.Is(err, ErrNotFound) true for a 404 answer.
func (e *Error) Is(target error) bool { return target == ErrNotFound && e.Status == 404 }

// WorkspaceName is the name of a project's workspace: the project number, an
// em dash between spaces and the project name.
func WorkspaceName(projectNumber, projectName string) string {
	return projectNumber + " — " + projectName
}

// reservedProfileFields are set from UploadRequest's own fields (or by the
// live client) and may not come through Extra.
var reservedProfileFields = []string{"DOCNAME", "APP_ID", "AUTHOR_ID", "TYPIST_ID", "UV_AFD_NAAM", "_restapi"}

func validateEnsure(req EnsureWorkspaceRequest) error {
	if err := validateProjectNumber(req.ProjectNumber); err != nil {
		return err
	}
	if strings.TrimSpace(req.ProjectName) == "" {
		return &RequestError{Field: "projectName", Message: "is required"}
	}
	if hasControl(req.ProjectName) {
		return &RequestError{Field: "projectName", Message: "must not contain control characters"}
	}
	return nil
}

// validateProjectNumber keeps the project number safe to put into an eDOCS
// filter literal: letters, digits, space and - _ . / only.
func validateProjectNumber(n string) error {
	switch {
	case strings.TrimSpace(n) == "":
		return &RequestError{Field: "projectNumber", Message: "is required"}
	case utf8.RuneCountInString(n) > 100:
		return &RequestError{Field: "projectNumber", Message: "must be at most 100 characters"}
	case strings.TrimSpace(n) != n:
		return &RequestError{Field: "projectNumber", Message: "must not start or end with white space"}
	}
	for _, r := range n {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune(" -_./", r) {
			return &RequestError{Field: "projectNumber",
				Message: fmt.Sprintf("may contain only letters, digits, spaces and - _ . / (found %q)", r)}
		}
	}
	return nil
}

func validateUpload(req UploadRequest) error {
	switch {
	case strings.TrimSpace(req.Filename) == "":
		return &RequestError{Field: "filename", Message: "is required"}
	case hasControl(req.Filename):
		return &RequestError{Field: "filename", Message: "must not contain control characters"}
	case strings.TrimSpace(req.DocName) == "":
		return &RequestError{Field: "metadata.docName", Message: "is required"}
	}
	for k := range req.Extra {
		for _, r := range reservedProfileFields {
			if strings.EqualFold(k, r) {
				return &RequestError{Field: "metadata.extra." + k,
					Message: "is set by the service and may not be passed as an extra profile field"}
			}
		}
		if k == "" {
			return &RequestError{Field: "metadata.extra", Message: "must not have an empty field name"}
		}
	}
	return nil
}

func requireID(field, id string) error {
	if strings.TrimSpace(id) == "" {
		return &RequestError{Field: field, Message: "is required"}
	}
	return nil
}

func hasControl(s string) bool {
	return strings.IndexFunc(s, unicode.IsControl) >= 0
}
