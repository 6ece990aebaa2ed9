package assets

import "github.com/regelkit/regelkit/servers/internal/openapi"

// OpenAPI schemas of the asset endpoints.
var (
	timestamps = map[string]openapi.Schema{
		"createdAt": openapi.String("ISO 8601; kept from the first upsert"),
		"updatedAt": openapi.String("ISO 8601; from the latest upsert"),
	}

	processSchema = openapi.Object(with(timestamps, map[string]openapi.Schema{
		"id":                 openapi.String("identity in the store"),
		"bpmnProcessId":      openapi.String("the id attribute of the BPMN process element; unknown when not given"),
		"name":               openapi.String(""),
		"description":        openapi.String("absent when unset"),
		"processRole":        openapi.Enum("", "shell", "subprocess", "standalone"),
		"calledElement":      openapi.Nullable(openapi.String("null when unset")),
		"shellId":            openapi.String("absent when unset"),
		"linkedDmnTemplates": openapi.Array(openapi.String(""), ""),
		"status":             openapi.Enum("", "example", "wip", "e2e"),
		"language":           openapi.String("absent when unset"),
		"organization":       openapi.String("absent when unset"),
		"readonly":           openapi.Boolean("always false in listings"),
		"schemaVersion":      openapi.Integer(""),
	}), "id", "bpmnProcessId", "name", "processRole", "calledElement", "linkedDmnTemplates", "status",
		"readonly", "schemaVersion", "createdAt", "updatedAt")

	processBodySchema = openapi.Object(with(timestamps, map[string]openapi.Schema{
		"id":                 openapi.String("non-blank"),
		"name":               openapi.String("non-blank"),
		"xml":                openapi.String("the BPMN XML"),
		"linkedDmnTemplates": openapi.Array(openapi.String(""), ""),
		"bpmnProcessId":      openapi.String("default unknown"),
		"description":        openapi.String(""),
		"processRole":        openapi.Enum("default standalone", "shell", "subprocess", "standalone"),
		"calledElement":      openapi.String(""),
		"shellId":            openapi.String(""),
		"status":             openapi.Enum("default wip", "example", "wip", "e2e"),
		"language":           openapi.String(""),
		"organization":       openapi.String("absent or empty: no organisation"),
	}), "id", "name", "xml", "linkedDmnTemplates", "createdAt", "updatedAt")

	processXMLSchema = openapi.Object(map[string]openapi.Schema{
		"id":            openapi.String(""),
		"bpmnProcessId": openapi.String(""),
		"xml":           openapi.String("the BPMN XML"),
	}, "id", "bpmnProcessId", "xml")

	formSchema = openapi.Object(with(timestamps, map[string]openapi.Schema{
		"id":            openapi.String(""),
		"name":          openapi.String(""),
		"description":   openapi.String("absent when unset"),
		"schema":        openapi.AnyObject("the form schema"),
		"status":        openapi.String(""),
		"schemaVersion": openapi.Integer(""),
		"language":      openapi.String("absent when unset"),
		"organization":  openapi.String("absent when unset"),
		"readonly":      openapi.Boolean("always false in listings"),
	}), "id", "name", "schema", "status", "schemaVersion", "readonly", "createdAt", "updatedAt")

	formBodySchema = openapi.Object(with(timestamps, map[string]openapi.Schema{
		"id":           openapi.String("non-blank"),
		"name":         openapi.String("non-blank"),
		"schema":       openapi.AnyObject("the form schema"),
		"description":  openapi.String(""),
		"status":       openapi.String("any string; default wip"),
		"language":     openapi.String(""),
		"organization": openapi.String(""),
	}), "id", "name", "schema", "createdAt", "updatedAt")

	templateSchema = openapi.Object(with(timestamps, map[string]openapi.Schema{
		"id":            openapi.String(""),
		"name":          openapi.String(""),
		"description":   openapi.String("absent when unset"),
		"processKey":    openapi.String("absent when unset"),
		"serviceId":     openapi.String("absent when unset"),
		"schemaVersion": openapi.Integer(""),
		"zones":         openapi.AnyObject(""),
		"bindings":      openapi.Array(openapi.Schema{}, ""),
		"assets":        openapi.Array(openapi.Schema{}, ""),
		"status":        openapi.String(""),
		"language":      openapi.String("absent when unset"),
		"organization":  openapi.String("absent when unset"),
		"readonly":      openapi.Boolean("always false in listings"),
	}), "id", "name", "schemaVersion", "zones", "bindings", "assets", "status", "readonly", "createdAt", "updatedAt")

	templateBodySchema = openapi.Object(with(timestamps, map[string]openapi.Schema{
		"id":            openapi.String("non-blank"),
		"name":          openapi.String("non-blank"),
		"schemaVersion": openapi.Integer(""),
		"zones":         openapi.AnyObject(""),
		"bindings":      openapi.Array(openapi.Schema{}, ""),
		"assets":        openapi.Array(openapi.Schema{}, ""),
		"description":   openapi.String(""),
		"processKey":    openapi.String(""),
		"serviceId":     openapi.String(""),
		"status":        openapi.String("default wip"),
		"language":      openapi.String(""),
		"organization":  openapi.String(""),
	}), "id", "name", "schemaVersion", "zones", "bindings", "assets", "createdAt", "updatedAt")

	successSchema = openapi.Object(map[string]openapi.Schema{
		"success":   openapi.Boolean("always true"),
		"timestamp": openapi.String("ISO 8601 UTC with milliseconds"),
	}, "success", "timestamp")
)

func with(a, b map[string]openapi.Schema) map[string]openapi.Schema {
	out := map[string]openapi.Schema{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}
