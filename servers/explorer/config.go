package main

import (
	"log/slog"
	"strings"

	"github.com/regelkit/regelkit/servers/internal/envconfig"
)

// config is the explorer's configuration, read from the environment by
// loadConfig. The README's configuration table lists the same variables; a
// test keeps the two in step.
type config struct {
	Port        int
	Environment string // development, acceptance or production
	CORSOrigins []string
	LogLevel    slog.Level
	LogFormat   string // text or json
}

// development reports whether error details may reach clients.
func (c *config) development() bool { return c.Environment == "development" }

// loadConfig reads the configuration through lookup (os.LookupEnv).
func loadConfig(lookup func(string) (string, bool)) (*config, *envconfig.Reader, error) {
	env := envconfig.New(lookup)
	c := &config{}
	c.Port = env.Port("PORT", 8081, "HTTP port")
	c.Environment = env.OneOf("ENVIRONMENT", "development",
		[]string{"development", "acceptance", "production"}, "deployment environment")
	var defaultOrigins []string
	if c.Environment == "development" {
		defaultOrigins = []string{"http://localhost:3000", "http://localhost:5173"}
	}
	c.CORSOrigins = env.List("CORS_ORIGINS", defaultOrigins,
		"comma-separated browser origins allowed by CORS (exact match); development default: the local frontend dev servers")
	level := env.OneOf("LOG_LEVEL", "info", []string{"debug", "info", "warn", "error"}, "minimum log level")
	_ = c.LogLevel.UnmarshalText([]byte(strings.ToUpper(level)))
	defaultFormat := "json"
	if c.Environment == "development" {
		defaultFormat = "text"
	}
	c.LogFormat = env.OneOf("LOG_FORMAT", defaultFormat, []string{"text", "json"},
		"log format; development default text, otherwise json")
	return c, env, env.Err()
}
