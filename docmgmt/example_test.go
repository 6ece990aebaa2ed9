package docmgmt_test

import (
	"context"
	"fmt"
	"time"

	"github.com/regelkit/regelkit/docmgmt"
)

// The stub remembers what it was given, so a workspace, an upload and a
// listing fit together without any server.
func Example() {
	ctx := context.Background()
	var c docmgmt.Client = docmgmt.NewStub(docmgmt.StubConfig{
		Now: func() time.Time { return time.UnixMilli(1767268800000) },
	})
	ws, _ := c.EnsureWorkspace(ctx, docmgmt.EnsureWorkspaceRequest{ProjectNumber: "2024-001", ProjectName: "Bridge A12"})
	fmt.Println(ws.ID, "|", ws.Name, "| created:", ws.Created)

	doc, _ := c.Upload(ctx, docmgmt.UploadRequest{
		WorkspaceID: ws.ID, Filename: "intake.pdf", Content: []byte("%PDF-1.7"),
		DocName: "Intake report", AppID: "INFRA",
	})
	fmt.Println(doc.DocumentID, doc.DocumentNumber)

	docs, _ := c.ListDocuments(ctx, ws.ID)
	for _, d := range docs {
		fmt.Println(d.ID, d.Name, d.DocumentNumber)
	}
	fmt.Println(c.Health(ctx).Status)
	// Output:
	// stub-ws-2024-001 | 2024-001 — Bridge A12 | created: false
	// stub-doc-1767268800000 STUB-1767268800000
	// stub-doc-1 Stub document STUB-001
	// stub-doc-1767268800000 Intake report STUB-1767268800000
	// stub
}
