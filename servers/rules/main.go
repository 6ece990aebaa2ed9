package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	_ "time/tzdata" // "today" is the Europe/Amsterdam date on any host

	"github.com/regelkit/regelkit/servers/internal/httpapi"
)

// version is the server's build version, sent as API-Version; the API's
// own version in GET / is the CPRMV vocabulary version.
var version = "0.1.0"

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "rules:", err)
		os.Exit(1)
	}
}

func run() error {
	cfg, env, err := loadConfig(os.LookupEnv)
	if err != nil {
		return fmt.Errorf("configuration: %w", err)
	}
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	logger := slog.New(slog.NewTextHandler(os.Stderr, opts))
	if cfg.LogFormat == "json" {
		logger = slog.New(slog.NewJSONHandler(os.Stderr, opts))
	}
	logger.Info("configuration", env.LogAttrs()...)
	a, err := newApp(cfg, logger)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return a.metrics.ServeBeside(ctx, logger, func(ctx context.Context) error {
		return httpapi.Serve(ctx, net.JoinHostPort(cfg.Host, strconv.Itoa(cfg.Port)), a.Handler(), httpapi.ServeOptions{
			Logger: logger,
			Ready: func(addr net.Addr) {
				logger.Info("rules API listening", "addr", addr.String(), "version", version, "repository", cfg.Repository)
			},
		})
	})
}
