package server

import "github.com/regelkit/regelkit/servers/internal/openapi"

// Schemas shared by several operations of the OpenAPI description.
var (
	rootSchema = openapi.Object(map[string]openapi.Schema{
		"name":        openapi.String(""),
		"version":     openapi.String("the same string as the API-Version header"),
		"status":      openapi.String("running"),
		"environment": openapi.String("development, test, acceptance or production"),
		"endpoints":   openapi.AnyObject("the mounted route groups: health, decision, brp, m2m, admin"),
	}, "name", "version", "status", "environment", "endpoints")

	serviceStateSchema = openapi.Object(map[string]openapi.Schema{
		"status":  openapi.Enum("", "up", "down"),
		"latency": openapi.Integer("probe latency in milliseconds"),
	}, "status", "latency")

	healthSchema = openapi.Object(map[string]openapi.Schema{
		"name":        openapi.String(""),
		"version":     openapi.String(""),
		"environment": openapi.String(""),
		"status":      openapi.Enum("", "healthy", "degraded", "unhealthy"),
		"uptime":      openapi.Number("seconds since start"),
		"timestamp":   openapi.String(""),
		"services": openapi.Object(map[string]openapi.Schema{
			"identity_provider": serviceStateSchema,
			"process_engine":    serviceStateSchema,
		}, "identity_provider", "process_engine"),
		"audit": openapi.Object(map[string]openapi.Schema{
			"queued":  openapi.Integer("entries waiting to be written"),
			"written": openapi.Integer(""),
			"dropped": openapi.Integer("entries lost to a full queue"),
			"failed":  openapi.Integer("entries given up after database failures"),
		}),
	}, "name", "version", "environment", "status", "uptime", "timestamp", "services")

	evaluateRequestSchema = openapi.Object(map[string]openapi.Schema{
		"variables": openapi.AnyObject("name → plain JSON value, or {value, type, valueInfo?} with an Operaton type name"),
	})
)
