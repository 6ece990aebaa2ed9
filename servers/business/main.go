package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/regelkit/regelkit/servers/business/server"
)

func main() {
	var err error
	if len(os.Args) > 1 && os.Args[1] == "token" {
		err = server.TokenCommand(os.Args[2:], os.LookupEnv, os.Stdout, os.Stderr)
	} else {
		err = run()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "business:", err)
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
