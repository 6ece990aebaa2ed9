// Package docmgmtapi serves the explorer's document-management endpoints
// (/v1/docmgmt and the deprecated /api/docmgmt aliases): the status of the
// document-management system, idempotent project workspaces, uploads and
// workspace listings, in the shapes of the explorer specification (2.7).
//
// The handlers are thin: they validate the body (400 INVALID_REQUEST naming
// every missing field), apply the explorer's defaults (APP_ID "INFRA") and
// call a docmgmt.Client, stub or live. Live failures become 500
// EDOCS_WORKSPACE_FAILED, EDOCS_UPLOAD_FAILED or EDOCS_DOCUMENTS_FAILED with
// a message naming the operation and eDOCS's own message; the status
// endpoint never fails, it answers status "down":
//
//	docmgmtapi.Register(router, docmgmtapi.Deps{Client: docmgmt.NewStub(docmgmt.StubConfig{})})
package docmgmtapi
