package docmgmt

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func fixedClock(ms int64) func() time.Time {
	return func() time.Time { return time.UnixMilli(ms) }
}

func TestStubEnsureIsIdempotent(t *testing.T) {
	s := NewStub(StubConfig{})
	ctx := context.Background()
	cases := []struct{ number, name, wantID string }{
		{"2024-001", "Bridge", "stub-ws-2024-001"},
		{"A/B 1.2_x", "Odd", "stub-ws-A-B-1-2-x"},
		{"Ü9", "Unicode", "stub-ws--9"},
	}
	for _, tc := range cases {
		for i := 0; i < 2; i++ {
			ws, err := s.EnsureWorkspace(ctx, EnsureWorkspaceRequest{ProjectNumber: tc.number, ProjectName: tc.name})
			if err != nil {
				t.Fatal(err)
			}
			want := Workspace{ID: tc.wantID, Name: tc.number + " — " + tc.name}
			if ws != want {
				t.Errorf("ensure %q (#%d) = %+v, want %+v", tc.number, i, ws, want)
			}
		}
	}
	list, _ := s.ListWorkspaces(ctx, ListWorkspacesRequest{})
	want := []WorkspaceSummary{{"stub-ws-1", "Stub Workspace"}, {"stub-ws-2024-001", "2024-001 — Bridge"},
		{"stub-ws-A-B-1-2-x", "A/B 1.2_x — Odd"}, {"stub-ws--9", "Ü9 — Unicode"}}
	if d := cmp.Diff(want, list); d != "" {
		t.Errorf("workspaces (-want +got):\n%s", d)
	}
	// Project "1" has the seed's id: listed once.
	s.EnsureWorkspace(ctx, EnsureWorkspaceRequest{ProjectNumber: "1", ProjectName: "One"})
	if list, _ := s.ListWorkspaces(ctx, ListWorkspacesRequest{}); len(list) != 4 {
		t.Errorf("workspaces after ensuring stub-ws-1: %+v", list)
	}
	if list, _ := s.ListWorkspaces(ctx, ListWorkspacesRequest{Max: 2}); len(list) != 2 {
		t.Errorf("max 2 gave %d", len(list))
	}
}

func TestStubUploadThenList(t *testing.T) {
	s := NewStub(StubConfig{Now: fixedClock(1767268800000)})
	ctx := context.Background()
	ws, _ := s.EnsureWorkspace(ctx, EnsureWorkspaceRequest{ProjectNumber: "7", ProjectName: "Seven"})
	a, err := s.Upload(ctx, UploadRequest{WorkspaceID: ws.ID, Filename: "a.pdf", Content: []byte("a"), DocName: "A", AppID: "INFRA"})
	if err != nil {
		t.Fatal(err)
	}
	// Same millisecond: the id still differs.
	b, _ := s.Upload(ctx, UploadRequest{WorkspaceID: ws.ID, Filename: "b.pdf", DocName: "B"})
	other, _ := s.Upload(ctx, UploadRequest{WorkspaceID: "elsewhere", Filename: "c.pdf", DocName: "C"})
	if a != (UploadedDocument{"stub-doc-1767268800000", "STUB-1767268800000", "stub-ws-7"}) {
		t.Errorf("a = %+v", a)
	}
	if b.DocumentID != "stub-doc-1767268800001" || b.DocumentNumber != "STUB-1767268800001" || other.DocumentID != "stub-doc-1767268800002" {
		t.Errorf("b = %+v, other = %+v", b, other)
	}
	docs, _ := s.ListDocuments(ctx, ws.ID)
	want := []Document{
		{"stub-doc-1", "Stub document", "STUB-001"},
		{"stub-doc-1767268800000", "A", "STUB-1767268800000"},
		{"stub-doc-1767268800001", "B", "STUB-1767268800001"},
	}
	if d := cmp.Diff(want, docs); d != "" {
		t.Errorf("documents (-want +got):\n%s", d)
	}
	p, _ := s.Profile(ctx, a.DocumentID)
	if d := cmp.Diff(map[string]any{"DOCNAME": "A", "DOCNUMBER": "STUB-1767268800000", "APP_ID": "INFRA"}, p); d != "" {
		t.Errorf("profile (-want +got):\n%s", d)
	}
	p, _ = s.Profile(ctx, "42")
	if d := cmp.Diff(map[string]any{"DOCNAME": "Stub document", "DOCNUMBER": "STUB-42", "APP_ID": "DEFAULT"}, p); d != "" {
		t.Errorf("unknown profile (-want +got):\n%s", d)
	}
	v, _ := s.Versions(ctx, "42")
	if d := cmp.Diff([]Version{{"42-v1", "1"}}, v); d != "" {
		t.Errorf("versions: %s", d)
	}
	content, _ := s.Download(ctx, DownloadRequest{DocumentID: "42", Version: "1"})
	if string(content) != "stub content for 42 v1" {
		t.Errorf("download %q", content)
	}
	if err := s.DeleteDocument(ctx, a.DocumentID); err != nil {
		t.Fatal(err)
	}
	docs, _ = s.ListDocuments(ctx, ws.ID)
	if len(docs) != 2 || docs[1].ID != b.DocumentID {
		t.Errorf("after delete: %+v", docs)
	}
	if err := s.DeleteWorkspace(ctx, ws.ID); err != nil {
		t.Fatal(err)
	}
	docs, _ = s.ListDocuments(ctx, ws.ID)
	if len(docs) != 1 {
		t.Errorf("after workspace delete: %+v", docs)
	}
	if h := s.Health(ctx); h != (Health{Status: StatusStub, Stub: true, Reachable: true, Authenticated: true}) {
		t.Errorf("health = %+v", h)
	}
}

func TestStubRemembersABoundedNumber(t *testing.T) {
	s := NewStub(StubConfig{Documents: []Document{}, MaxRemembered: 3, Now: fixedClock(1000)})
	ctx := context.Background()
	for i := 0; i < 5; i++ {
		s.Upload(ctx, UploadRequest{WorkspaceID: "w", Filename: "f", DocName: fmt.Sprint(i)})
	}
	docs, _ := s.ListDocuments(ctx, "w")
	if len(docs) != 3 || docs[0].Name != "2" || docs[2].Name != "4" {
		t.Errorf("docs = %+v", docs)
	}
}

// Both implementations refuse the same invalid requests before doing
// anything.
func TestValidation(t *testing.T) {
	ctx := context.Background()
	live, err := NewLive(LiveConfig{BaseURL: "http://127.0.0.1:1/x", Library: "L", UserID: "u", Password: "p"})
	if err != nil {
		t.Fatal(err)
	}
	ensure := []struct {
		req   EnsureWorkspaceRequest
		field string
	}{
		{EnsureWorkspaceRequest{ProjectName: "x"}, "projectNumber"},
		{EnsureWorkspaceRequest{ProjectNumber: "1"}, "projectName"},
		{EnsureWorkspaceRequest{ProjectNumber: "1'; DROP", ProjectName: "x"}, "projectNumber"},
		{EnsureWorkspaceRequest{ProjectNumber: "1%", ProjectName: "x"}, "projectNumber"},
		{EnsureWorkspaceRequest{ProjectNumber: " 1", ProjectName: "x"}, "projectNumber"},
		{EnsureWorkspaceRequest{ProjectNumber: string(make([]byte, 101)), ProjectName: "x"}, "projectNumber"},
		{EnsureWorkspaceRequest{ProjectNumber: "1", ProjectName: "a\nb"}, "projectName"},
	}
	upload := []struct {
		req   UploadRequest
		field string
	}{
		{UploadRequest{DocName: "d"}, "filename"},
		{UploadRequest{Filename: "f"}, "metadata.docName"},
		{UploadRequest{Filename: "f", DocName: "d", Extra: map[string]string{"author_id": "x"}}, "metadata.extra.author_id"},
		{UploadRequest{Filename: "f", DocName: "d", Extra: map[string]string{"_restapi": "x"}}, "metadata.extra._restapi"},
	}
	for _, c := range []Client{NewStub(StubConfig{}), live} {
		for _, tc := range ensure {
			_, err := c.EnsureWorkspace(ctx, tc.req)
			var re *RequestError
			if !errors.As(err, &re) || re.Field != tc.field {
				t.Errorf("%T ensure %+v: %v, want a RequestError on %s", c, tc.req, err, tc.field)
			}
		}
		for _, tc := range upload {
			_, err := c.Upload(ctx, tc.req)
			var re *RequestError
			if !errors.As(err, &re) || re.Field != tc.field {
				t.Errorf("%T upload %+v: %v, want a RequestError on %s", c, tc.req, err, tc.field)
			}
		}
		for name, err := range map[string]error{
			"list":     func() error { _, err := c.ListDocuments(ctx, ""); return err }(),
			"profile":  func() error { _, err := c.Profile(ctx, " "); return err }(),
			"download": func() error { _, err := c.Download(ctx, DownloadRequest{DocumentID: "1"}); return err }(),
			"delete":   c.DeleteDocument(ctx, ""),
		} {
			var re *RequestError
			if !errors.As(err, &re) {
				t.Errorf("%T %s with an empty id: %v", c, name, err)
			}
		}
	}
}

// TestStubWorkingSetIsBounded: the stub forgets the oldest workspaces and
// uploads past its count and byte bounds (it once kept everything),
// and does not remember an item larger than the whole byte bound.
func TestStubWorkingSetIsBounded(t *testing.T) {
	ctx := context.Background()
	s := NewStub(StubConfig{Now: fixedClock(1767268800000), MaxRemembered: 5, MaxWorkspaces: 3, MaxBytes: 4000})
	for i := 0; i < 10; i++ {
		if _, err := s.EnsureWorkspace(ctx, EnsureWorkspaceRequest{ProjectNumber: fmt.Sprint("P", i), ProjectName: "N"}); err != nil {
			t.Fatal(err)
		}
	}
	list, _ := s.ListWorkspaces(ctx, ListWorkspacesRequest{Max: 100})
	want := []WorkspaceSummary{{"stub-ws-1", "Stub Workspace"}, {"stub-ws-P7", "P7 — N"}, {"stub-ws-P8", "P8 — N"}, {"stub-ws-P9", "P9 — N"}}
	if d := cmp.Diff(want, list); d != "" {
		t.Errorf("workspaces after 10 ensures, bound 3 (-want +got):\n%s", d)
	}
	for i := 0; i < 8; i++ {
		if _, err := s.Upload(ctx, UploadRequest{WorkspaceID: "stub-ws-P9", Filename: "f", DocName: fmt.Sprint("D", i)}); err != nil {
			t.Fatal(err)
		}
	}
	docs, _ := s.ListDocuments(ctx, "stub-ws-P9")
	if len(docs) != 1+5 || docs[1].Name != "D3" || docs[5].Name != "D7" {
		t.Errorf("documents after 8 uploads, bound 5: %+v", docs)
	}
	// Bytes: 10 uploads with 1,000-byte names do not fit in 4,000 bytes;
	// the oldest go, uploads before workspaces.
	for i := 0; i < 10; i++ {
		s.Upload(ctx, UploadRequest{WorkspaceID: "stub-ws-P9", Filename: "f", DocName: strings.Repeat("x", 999) + fmt.Sprint(i)})
	}
	s.mu.Lock()
	n, bytes, wsCount := len(s.uploads), s.bytes, len(s.workspaces)
	s.mu.Unlock()
	if bytes > 4000 || n != 3 || wsCount != 3 {
		t.Errorf("after 10 large uploads: %d uploads, %d workspaces, %d bytes (bound 4000)", n, wsCount, bytes)
	}
	// An item larger than the bound is answered, not remembered.
	doc, err := s.Upload(ctx, UploadRequest{WorkspaceID: "stub-ws-P9", Filename: "f", DocName: strings.Repeat("y", 5000)})
	if err != nil || doc.DocumentID == "" {
		t.Fatalf("oversized upload: %+v %v", doc, err)
	}
	if p, _ := s.Profile(ctx, doc.DocumentID); p["DOCNAME"] != "Stub document" {
		t.Errorf("oversized upload was remembered: %v", p["DOCNAME"])
	}
	// Deleting frees what it held.
	s.DeleteWorkspace(ctx, "stub-ws-P9")
	s.mu.Lock()
	defer s.mu.Unlock()
	var sum int64
	for _, w := range s.workspaces {
		sum += w.size()
	}
	for _, u := range s.uploads {
		sum += u.size()
	}
	if sum != s.bytes || len(s.uploads) != 0 || len(s.workspaces) != 2 {
		t.Errorf("after deleting the workspace: %d uploads, %d workspaces, %d bytes counted, %d held", len(s.uploads), len(s.workspaces), s.bytes, sum)
	}
}
