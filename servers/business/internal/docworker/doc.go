// Package docworker is the business API's external-task worker for
// document management: it serves the topics of the project-phase example
// process (examples/processes/projectphase) against any engine.Processes
// and files into any docmgmt.Client.
//
//   - rip-edocs-workspace: ensures the project's workspace from the
//     variables projectNumber and projectName and completes the task with
//     docmgmtWorkspaceId and docmgmtWorkspaceName.
//   - rip-edocs-document: renders the template named by the task's input
//     documentTemplateId (the resource <id>.document of the process
//     definition's deployment, placeholders {{name}} filled from the
//     instance's variables) as plain text, files it into the task's
//     workspaceId (standalone when empty) and completes the task with
//     <id in camel case>DocumentId and …DocumentNumber, e.g.
//     ripIntakeReportDocumentId. An engine that does not hand a task's
//     input parameters over with the fetched variables is served too: the
//     worker then reads them from the BPMN (a literal, or a plain ${name}
//     resolved from the variables).
//
// A failing call is reported as an external-task failure with one retry
// less and an exponential back-off; the last failure of a workspace task
// throws the BPMN error DOCMGMT_UNAVAILABLE instead (the example process
// catches it and falls back to a manual task), the last failure of a
// document task leaves an incident. A request the document system refuses
// as invalid is not retried.
//
// The one call a newcomer needs:
//
//	w := docworker.New(docworker.Options{Engine: eng, Docs: docmgmt.NewStub(docmgmt.StubConfig{})})
//	go w.Run(ctx) // returns when ctx is done
package docworker
