// Package docmgmt files documents in the project workspaces of a document
// management system: OpenText eDOCS DM through its REST API (Live), or a
// deterministic in-process stand-in that contacts no server (Stub, the
// default of every regelkit server).
//
// Both implement Client, whose operations take explicit request structs and
// apply no defaults of their own, so each HTTP surface (the explorer's and
// the business API's) keeps its own defaults and response shapes. Failures
// are *Error values naming the failing operation and eDOCS's own message, or
// *RequestError values naming the invalid field:
//
//	c := docmgmt.NewStub(docmgmt.StubConfig{})
//	ws, err := c.EnsureWorkspace(ctx, docmgmt.EnsureWorkspaceRequest{ProjectNumber: "2024-001", ProjectName: "Bridge"})
//	doc, err := c.Upload(ctx, docmgmt.UploadRequest{WorkspaceID: ws.ID, Filename: "a.pdf", Content: pdf, DocName: "Intake", AppID: "INFRA"})
//
// The live client follows the eDOCS calls a live server accepted: a
// login at /connect whose
// session token (X-DM-DST, plus the CSRF cookie) is cached and sent on every
// call, one re-login and retry after a 401/403, multipart uploads, a 206
// answer with an error list read as a rejection, and a health probe that
// caches a failed login for 30 s so polling cannot lock the service account.
// It never logs document contents, passwords or session tokens. The
// docmgmt/edocstest package serves a fake eDOCS with that contract for
// tests.
//
// The stub remembers what was ensured and uploaded so that a flow shows
// its own uploads, but it is no store: it keeps a bounded working set
// (1,000 uploads, 1,000 workspaces, 4 MiB of names and ids by default, see
// StubConfig) and forgets the oldest first.
package docmgmt
