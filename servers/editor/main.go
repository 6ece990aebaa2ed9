package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/regelkit/regelkit/servers/editor/server"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "editor:", err)
		os.Exit(1)
	}
}

func run() error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// After the first signal the default action returns: a second Ctrl-C
	// ends a drain that waits on a stuck request.
	context.AfterFunc(ctx, stop)
	return server.Run(ctx, server.Options{})
}
