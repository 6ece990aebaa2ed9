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

// version is sent as API-Version on every response.
var version = "0.1.0"

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "editor:", err)
		os.Exit(1)
	}
}

func run() error {
	cfg, env, err := loadConfig(os.LookupEnv)
	if err != nil {
		return fmt.Errorf("configuration: %w", err)
	}
	var logger *slog.Logger
	if cfg.LogFormat == "json" {
		logger = slog.New(slog.NewJSONHandler(os.Stderr, nil))
	} else {
		logger = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	logger.Info("configuration", env.LogAttrs()...)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	a, err := newApp(ctx, cfg, logger)
	if err != nil {
		return err
	}
	// The converter's pages share the front's lifetime: when either server
	// stops, the other is shut down too.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	conv := make(chan error, 1)
	if cfg.ConverterPort != 0 {
		go func() {
			defer cancel()
			conv <- httpapi.Serve(ctx, ":"+strconv.Itoa(cfg.ConverterPort), a.ConverterHandler(), httpapi.ServeOptions{
				Logger: logger,
				Ready:  func(addr net.Addr) { logger.Info("converter pages listening", "addr", addr.String()) },
			})
		}()
	} else {
		conv <- nil
	}
	err = a.metrics.ServeBeside(ctx, logger, func(ctx context.Context) error {
		return httpapi.Serve(ctx, ":"+strconv.Itoa(cfg.Port), a.Handler(), httpapi.ServeOptions{
			Logger: logger,
			Ready: func(addr net.Addr) {
				logger.Info("editor listening", "addr", addr.String(), "version", version, "dataset", cfg.Dataset)
			},
		})
	})
	cancel()
	if cerr := <-conv; err == nil {
		err = cerr
	}
	return err
}
