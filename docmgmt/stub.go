package docmgmt

import (
	"context"
	"slices"
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
	// first); DefaultStubUploads when zero.
	MaxRemembered int
	// MaxWorkspaces bounds the ensured workspaces kept in memory (oldest
	// forgotten first); DefaultStubWorkspaces when zero.
	MaxWorkspaces int
	// MaxBytes bounds the bytes of what the stub remembers (ids, names,
	// application ids of workspaces and uploads): past it the oldest
	// uploads are forgotten first, then the oldest workspaces; an item
	// larger than the whole bound is answered but not remembered.
	// DefaultStubBytes when zero.
	MaxBytes int64
}

// The stub's default working set (StubConfig): it answers like a server
// but is no store, so what it remembers is bounded and the oldest goes.
const (
	DefaultStubUploads    = 1000
	DefaultStubWorkspaces = 1000
	DefaultStubBytes      = 4 << 20
)

// Stub is a Client that contacts no server. Its answers are deterministic
// apart from the millisecond document ids, and it remembers what was ensured
// and uploaded in the process, so ensure → upload → list shows the upload.
// It never keeps document contents, and what it remembers is a bounded
// working set (StubConfig.MaxRemembered, MaxWorkspaces, MaxBytes): the
// oldest uploads and workspaces are forgotten, after which they list and
// answer as if never made (an ensure creates the workspace again).
type Stub struct {
	cfg StubConfig

	mu         sync.Mutex
	lastMS     int64 // last document id's milliseconds, kept increasing
	workspaces []WorkspaceSummary
	uploads    []stubUpload
	bytes      int64 // size of workspaces and uploads
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
		cfg.MaxRemembered = DefaultStubUploads
	}
	if cfg.MaxWorkspaces <= 0 {
		cfg.MaxWorkspaces = DefaultStubWorkspaces
	}
	if cfg.MaxBytes <= 0 {
		cfg.MaxBytes = DefaultStubBytes
	}
	return &Stub{cfg: cfg}
}

func (w WorkspaceSummary) size() int64 { return int64(len(w.ID) + len(w.Name)) }

func (u stubUpload) size() int64 {
	return int64(len(u.doc.DocumentID) + len(u.doc.DocumentNumber) + len(u.doc.WorkspaceID) + len(u.name) + len(u.appID))
}

// trim forgets the oldest uploads and workspaces until the working set is
// within its bounds. Caller holds s.mu.
func (s *Stub) trim() {
	drop := 0
	for len(s.uploads)-drop > s.cfg.MaxRemembered || (s.bytes > s.cfg.MaxBytes && drop < len(s.uploads)) {
		s.bytes -= s.uploads[drop].size()
		drop++
	}
	if drop > 0 {
		s.uploads = append(s.uploads[:0:0], s.uploads[drop:]...)
	}
	drop = 0
	for len(s.workspaces)-drop > s.cfg.MaxWorkspaces || (s.bytes > s.cfg.MaxBytes && drop < len(s.workspaces)) {
		s.bytes -= s.workspaces[drop].size()
		drop++
	}
	if drop > 0 {
		s.workspaces = append(s.workspaces[:0:0], s.workspaces[drop:]...)
	}
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
	if w := (WorkspaceSummary{ID: ws.ID, Name: ws.Name}); w.size() <= s.cfg.MaxBytes {
		s.workspaces = append(s.workspaces, w)
		s.bytes += w.size()
		s.trim()
	}
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
	if u := (stubUpload{doc: doc, name: req.DocName, appID: req.AppID}); u.size() <= s.cfg.MaxBytes {
		s.uploads = append(s.uploads, u)
		s.bytes += u.size()
		s.trim()
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
			s.bytes -= u.size()
			s.uploads = slices.Delete(s.uploads, i, i+1) // clears the freed slot
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
		} else {
			s.bytes -= w.size()
		}
	}
	clear(s.workspaces[len(ws):]) // the forgotten names are garbage now
	s.workspaces = ws
	ups := s.uploads[:0]
	for _, u := range s.uploads {
		if u.doc.WorkspaceID != workspaceID {
			ups = append(ups, u)
		} else {
			s.bytes -= u.size()
		}
	}
	clear(s.uploads[len(ups):])
	s.uploads = ups
	return nil
}
