package server

import "github.com/regelkit/regelkit/servers/internal/openapi"

// Schemas shared by several operations of the OpenAPI description.
var (
	rootSchema = openapi.Object(map[string]openapi.Schema{
		"name":          openapi.String(""),
		"version":       openapi.String(""),
		"status":        openapi.String("running"),
		"environment":   openapi.Enum("", "development", "acceptance", "production"),
		"documentation": openapi.String("path of this OpenAPI description"),
		"health":        openapi.String("path of the health endpoint"),
		"endpoints":     openapi.AnyObject("current paths: health, dmns, chains"),
		"legacy":        openapi.AnyObject("deprecated /api paths: health, dmns, chains"),
	}, "name", "version", "status", "environment", "documentation", "health", "endpoints", "legacy")

	serviceStateSchema = openapi.Object(map[string]openapi.Schema{
		"status":    openapi.Enum("", "up", "down", "unknown"),
		"latency":   openapi.Number("probe latency in milliseconds"),
		"lastCheck": openapi.String("ISO 8601 timestamp"),
		"error":     openapi.String("why the dependency is down"),
	}, "status", "latency", "lastCheck")

	healthSchema = openapi.Object(map[string]openapi.Schema{
		"name":          openapi.String(""),
		"version":       openapi.String(""),
		"environment":   openapi.String(""),
		"status":        openapi.Enum("", "healthy", "degraded", "unhealthy"),
		"uptime":        openapi.Number("seconds since start"),
		"timestamp":     openapi.String(""),
		"services":      openapi.Schema{"type": "object", "additionalProperties": serviceStateSchema, "description": "triplydb (knowledge graph), operaton (decision engine)"},
		"documentation": openapi.String(""),
		"error":         openapi.String("set when the health check itself failed"),
	}, "name", "version", "environment", "status", "uptime", "timestamp", "services")
)
