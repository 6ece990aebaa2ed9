package lifecycle

import (
	"time"

	"github.com/regelkit/regelkit/servers/internal/envconfig"
)

// DefaultDelay is SHUTDOWN_DELAY outside development: long enough for a
// load balancer polling readiness every few seconds to stop sending.
const DefaultDelay = 5 * time.Second

// Settings reads the life-cycle settings every server shares through its
// configuration reader: SHUTDOWN_GRACE (default 20s) and SHUTDOWN_DELAY
// (default 0s in development, where nothing balances the load, otherwise
// 5s).
func Settings(env *envconfig.Reader, development bool) Options {
	delay := DefaultDelay
	if development {
		delay = 0
	}
	return Options{
		Grace: env.Duration("SHUTDOWN_GRACE", DefaultGrace,
			"on SIGTERM, how long in-flight requests, and then background workers, get to finish"),
		Delay: env.Duration("SHUTDOWN_DELAY", delay,
			"on SIGTERM, how long readiness answers 503 while requests are still accepted, before the listener closes; development default 0s, otherwise 5s"),
	}
}
