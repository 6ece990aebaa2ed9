package docmgmtapi

import "github.com/regelkit/regelkit/servers/internal/openapi"

// OpenAPI schemas of the document-management endpoints.
var (
	statusSchema = openapi.Object(map[string]openapi.Schema{
		"status":    openapi.Enum("up: live eDOCS reachable and logged in; down: it failed; stub: stub mode", "up", "down", "stub"),
		"stubMode":  openapi.Boolean("true in stub mode"),
		"latencyMs": openapi.Number("live mode: latency of the reachability probe in milliseconds"),
		"error":     openapi.String("status down: why"),
	}, "status", "stubMode")

	ensureSchema = openapi.Object(map[string]openapi.Schema{
		"projectNumber": openapi.String("workspace search key; letters, digits, spaces and - _ . / (at most 100)"),
		"projectName":   openapi.String("second part of the workspace name"),
	}, "projectNumber", "projectName")

	workspaceSchema = openapi.Object(map[string]openapi.Schema{
		"workspaceId":   openapi.String("eDOCS workspace id (stub: stub-ws-<projectNumber>)"),
		"workspaceName": openapi.String("<projectNumber> — <projectName> (em dash)"),
		"created":       openapi.Boolean("true when this call created the workspace"),
	}, "workspaceId", "workspaceName", "created")

	uploadSchema = openapi.Object(map[string]openapi.Schema{
		"workspaceId":   openapi.String("from workspaces/ensure"),
		"filename":      openapi.String("file name of the document"),
		"contentBase64": openapi.String("the file content, base64"),
		"metadata": openapi.Object(map[string]openapi.Schema{
			"docName":  openapi.String("profile field DOCNAME"),
			"appId":    openapi.String("profile field APP_ID; default INFRA"),
			"formName": openapi.String("eDOCS form used to select the profile, e.g. INFRAPROF"),
			"extra": openapi.Schema{"type": "object", "additionalProperties": openapi.String(""),
				"description": "further profile fields, passed through unchanged (not DOCNAME, APP_ID, AUTHOR_ID, TYPIST_ID, UV_AFD_NAAM, _restapi)"},
		}, "docName"),
	}, "workspaceId", "filename", "contentBase64", "metadata")

	uploadedSchema = openapi.Object(map[string]openapi.Schema{
		"documentId":     openapi.String(""),
		"documentNumber": openapi.String(""),
		"workspaceId":    openapi.String(""),
	}, "documentId", "documentNumber", "workspaceId")

	documentListSchema = openapi.Object(map[string]openapi.Schema{
		"documents": openapi.Array(openapi.Object(map[string]openapi.Schema{
			"id":             openapi.String(""),
			"name":           openapi.String(""),
			"documentNumber": openapi.String(""),
		}, "id", "name", "documentNumber"), ""),
		"count": openapi.Integer("number of documents"),
	}, "documents", "count")
)
