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

	"github.com/regelkit/regelkit/servers/internal/httpapi"
)

// version is the server's version string, sent as API-Version on every
// response. Release builds set it with -ldflags "-X main.version=…".
var version = "0.1.0"

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "explorer:", err)
		os.Exit(1)
	}
}

func run() error {
	cfg, env, err := loadConfig(os.LookupEnv)
	if err != nil {
		return fmt.Errorf("configuration: %w", err)
	}
	logger := newLogger(cfg)
	logger.Info("configuration", env.LogAttrs()...)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	a, err := newApp(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer a.Close()
	logger.Info("dependencies", a.dependencies()...)
	return a.metrics.ServeBeside(ctx, logger, func(ctx context.Context) error {
		return httpapi.Serve(ctx, ":"+strconv.Itoa(cfg.Port), a.Handler(), httpapi.ServeOptions{
			Logger: logger,
			Ready: func(addr net.Addr) {
				logger.Info("explorer listening", "addr", addr.String(), "version", version, "environment", cfg.Environment)
			},
		})
	})
}

func newLogger(cfg *config) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(os.Stderr, opts))
	}
	return slog.New(slog.NewTextHandler(os.Stderr, opts))
}
