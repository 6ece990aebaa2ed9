package docmgmt

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
)

// StubConfig configures a Stub.
type StubConfig struct {
	// Library is reported by Health.
	Library string
	// Documents are listed in every workspace before the documents uploaded
	// to it. Nil: one document {stub-doc-1, "Stub document", STUB-001}, the
	// explorer's stub listing.
	Documents []Document
	// Workspaces are listed before the workspaces ensured in the process.
	// Nil: one workspace {stub-ws-1, "Stub Workspace"}.
	Workspaces []WorkspaceSummary
	// Now is the clock behind the millisecond document ids; time.Now when nil.
	Now func() time.Time
	// MaxRemembered bounds the uploads kept in memory (oldest forgotten
	// first); 1000 when zero.
	MaxRemembered int
}

// Stub is a Client that contacts no server. Its answers are deterministic
// apart from the millisecond document ids, and it remembers what was ensured
// and uploaded in the process, so ensure → upload → list shows the upload.
// It never keeps document contents.
type Stub struct {
	cfg StubConfig

	mu         sync.Mutex
	lastMS     int64 // last document id's milliseconds, kept increasing
	workspaces []WorkspaceSummary
	uploads    []stubUpload
}

type stubUpload struct {
	doc   UploadedDocument
	name  string
	appID string
}

// NewStub returns a stub client.
func NewStub(cfg StubConfig) *Stub {
	if cfg.Documents == nil {
		cfg.Documents = []Document{{ID: "stub-doc-1", Name: "Stub document", DocumentNumber: "STUB-001"}}
	}
	if cfg.Workspaces == nil {
		cfg.Workspaces = []WorkspaceSummary{{ID: "stub-ws-1", Name: "Stub Workspace"}}
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.MaxRemembered <= 0 {
		cfg.MaxRemembered = 1000
	}
	return &Stub{cfg: cfg}
}

var _ Client = (*Stub)(nil)

// Health reports the stub state.
func (s *Stub) Health(context.Context) Health {
	return Health{Status: StatusStub, Stub: true, Library: s.cfg.Library, Reachable: true, Authenticated: true}
}

// StubWorkspaceID is the stub's workspace id of a project number:
// "stub-ws-" followed by the number with every character other than a
// letter or digit replaced by "-".
func StubWorkspaceID(projectNumber string) string {
	return "stub-ws-" + strings.Map(func(r rune) rune {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return r
		}
		return '-'
	}, projectNumber)
}

// EnsureWorkspace answers the project's stub workspace with created false,
// every time.
func (s *Stub) EnsureWorkspace(_ context.Context, req EnsureWorkspaceRequest) (Workspace, error) {
	if err := validateEnsure(req); err != nil {
		return Workspace{}, err
	}
	ws := Workspace{ID: StubWorkspaceID(req.ProjectNumber), Name: WorkspaceName(req.ProjectNumber, req.ProjectName)}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, w := range s.workspaces {
		if w.ID == ws.ID {
			// The first name sticks, as a real workspace keeps its name.
			ws.Name = s.workspaces[i].Name
			return ws, nil
		}
	}
	s.workspaces = append(s.workspaces, WorkspaceSummary{ID: ws.ID, Name: ws.Name})
	return ws, nil
}

// Upload remembers the document and answers stub-doc-<ms> / STUB-<ms>, the
// milliseconds kept strictly increasing so that ids are unique.
func (s *Stub) Upload(_ context.Context, req UploadRequest) (UploadedDocument, error) {
	if err := validateUpload(req); err != nil {
		return UploadedDocument{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ms := s.cfg.Now().UnixMilli()
	if ms <= s.lastMS {
		ms = s.lastMS + 1
	}
	s.lastMS = ms
	n := strconv.FormatInt(ms, 10)
	doc := UploadedDocument{DocumentID: "stub-doc-" + n, DocumentNumber: "STUB-" + n, WorkspaceID: req.WorkspaceID}
	s.uploads = append(s.uploads, stubUpload{doc: doc, name: req.DocName, appID: req.AppID})
	if len(s.uploads) > s.cfg.MaxRemembered {
		s.uploads = append(s.uploads[:0:0], s.uploads[len(s.uploads)-s.cfg.MaxRemembered:]...)
	}
	return doc, nil
}

// ListDocuments answers the configured documents followed by those uploaded
// to the workspace in this process.
func (s *Stub) ListDocuments(_ context.Context, workspaceID string) ([]Document, error) {
	if err := requireID("workspaceId", workspaceID); err != nil {
		return nil, err
	}
	out := append([]Document(nil), s.cfg.Documents...)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, u := range s.uploads {
		if u.doc.WorkspaceID == workspaceID {
			out = append(out, Document{ID: u.doc.DocumentID, Name: u.name, DocumentNumber: u.doc.DocumentNumber})
		}
	}
	return out, nil
}

// ListWorkspaces answers the configured workspaces followed by those ensured
// in this process.
func (s *Stub) ListWorkspaces(_ context.Context, req ListWorkspacesRequest) ([]WorkspaceSummary, error) {
	max := req.Max
	if max <= 0 {
		max = 10
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []WorkspaceSummary{}
	seen := map[string]bool{}
	for _, w := range append(append([]WorkspaceSummary(nil), s.cfg.Workspaces...), s.workspaces...) {
		if !seen[w.ID] && len(out) < max {
			seen[w.ID] = true
			out = append(out, w)
		}
	}
	return out, nil
}

// Profile answers the remembered profile of an upload, otherwise
// {DOCNAME:"Stub document", DOCNUMBER:"STUB-<id>", APP_ID:"DEFAULT"}.
func (s *Stub) Profile(_ context.Context, documentID string) (map[string]any, error) {
	if err := requireID("documentId", documentID); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, u := range s.uploads {
		if u.doc.DocumentID == documentID {
			p := map[string]any{"DOCNAME": u.name, "DOCNUMBER": u.doc.DocumentNumber}
			if u.appID != "" {
				p["APP_ID"] = u.appID
			}
			return p, nil
		}
	}
	return map[string]any{"DOCNAME": "Stub document", "DOCNUMBER": "STUB-" + documentID, "APP_ID": "DEFAULT"}, nil
}

// Versions answers one version, {<id>-v1, "1"}.
func (s *Stub) Versions(_ context.Context, documentID string) ([]Version, error) {
	if err := requireID("documentId", documentID); err != nil {
		return nil, err
	}
	return []Version{{ID: documentID + "-v1", Version: "1"}}, nil
}

// Download answers "stub content for <id> v<version>".
func (s *Stub) Download(_ context.Context, req DownloadRequest) ([]byte, error) {
	if err := requireID("documentId", req.DocumentID); err != nil {
		return nil, err
	}
	if err := requireID("version", req.Version); err != nil {
		return nil, err
	}
	return []byte("stub content for " + req.DocumentID + " v" + req.Version), nil
}

// DeleteDocument forgets an upload; deleting anything else succeeds too.
func (s *Stub) DeleteDocument(_ context.Context, documentID string) error {
	if err := requireID("documentId", documentID); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, u := range s.uploads {
		if u.doc.DocumentID == documentID {
			s.uploads = append(s.uploads[:i], s.uploads[i+1:]...)
			break
		}
	}
	return nil
}

// DeleteWorkspace forgets an ensured workspace and its uploads; deleting
// anything else succeeds too.
func (s *Stub) DeleteWorkspace(_ context.Context, workspaceID string) error {
	if err := requireID("workspaceId", workspaceID); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ws := s.workspaces[:0]
	for _, w := range s.workspaces {
		if w.ID != workspaceID {
			ws = append(ws, w)
		}
	}
	s.workspaces = ws
	ups := s.uploads[:0]
	for _, u := range s.uploads {
		if u.doc.WorkspaceID != workspaceID {
			ups = append(ups, u)
		}
	}
	s.uploads = ups
	return nil
}
