// Package envconfig reads a server's settings from environment variables
// with documented defaults, collects every parse error instead of stopping at
// the first, and lists the settings for the start-up log with secrets masked.
//
// It never reads the environment itself: the server's main passes
// os.LookupEnv, and tests pass a map.
//
//	env := envconfig.New(os.LookupEnv)
//	port := env.Int("PORT", 8081, "HTTP port")
//	if err := env.Err(); err != nil { ... }
//	logger.Info("configuration", env.LogAttrs()...)
package envconfig
