package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/regelkit/regelkit/servers/internal/auth"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
)

// version is the server's version string, sent as API-Version on every
// response. Release builds set it with -ldflags "-X main.version=…".
var version = "0.1.0"

func main() {
	var err error
	if len(os.Args) > 1 && os.Args[1] == "token" {
		err = tokenCommand(os.Args[2:], os.LookupEnv, os.Stdout, os.Stderr)
	} else {
		err = run()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "business:", err)
		os.Exit(1)
	}
}

func run() error {
	cfg, env, err := loadConfig(os.LookupEnv)
	if err != nil {
		return fmt.Errorf("configuration: %w", err)
	}
	logger := newLogger(cfg, os.Stderr)
	warnings, err := cfg.validate()
	if err != nil {
		return err
	}
	for _, w := range warnings {
		logger.Warn("configuration: " + w)
	}
	logger.Info("configuration", env.LogAttrs()...)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	a, err := newApp(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer a.Close()
	if a.dev != nil {
		logger.Info("development identity: get a token with `go run ./servers/business token -role caseworker -municipality heusden`")
	}
	return a.metrics.ServeBeside(ctx, logger, func(ctx context.Context) error {
		return httpapi.Serve(ctx, net.JoinHostPort(cfg.Host, strconv.Itoa(cfg.Port)), a.Handler(), httpapi.ServeOptions{
			Logger: logger,
			Ready: func(addr net.Addr) {
				logger.Info("business API listening", "addr", addr.String(), "version", version, "environment", cfg.Environment)
			},
		})
	})
}

func newLogger(cfg *config, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// tokenCommand prints a token of the development identity, which the
// server started with the same environment accepts. Refused outside
// development and when an identity provider is configured.
func tokenCommand(args []string, lookup func(string) (string, bool), stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("token", flag.ContinueOnError)
	fs.SetOutput(stderr)
	role := fs.String("role", "caseworker", "realm roles, comma-separated: citizen, caseworker, hr-medewerker, admin")
	municipality := fs.String("municipality", "", "tenant (municipality claim); required for human tokens")
	loa := fs.String("loa", "hoog", "assurance level: basis, midden, substantieel, hoog")
	sub := fs.String("sub", "", "subject; default dev-<role>-<municipality>, or service-account-<azp> with -m2m")
	bsn := fs.String("bsn", "", "citizen number claim (fictional numbers only)")
	orgType := fs.String("organisation-type", "municipality", "organisation_type claim")
	m2m := fs.Bool("m2m", false, "a machine token: no municipality, no roles, azp from -azp")
	azp := fs.String("azp", "", "client (azp claim); required with -m2m, default ronl-frontend otherwise")
	ttl := fs.Duration("ttl", time.Hour, "lifetime")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg, _, err := loadConfig(lookup)
	if err != nil {
		return fmt.Errorf("configuration: %w", err)
	}
	if !cfg.development() {
		return fmt.Errorf("token: refused in %s; the development identity serves development only", cfg.Environment)
	}
	if !cfg.devIdentity() {
		return errors.New("token: IDP_URL is set, so the server verifies the identity provider's tokens; get one there")
	}
	c := auth.TokenClaims{Issuer: cfg.JWTIssuer, Audience: cfg.JWTAudience, LoA: *loa, BSN: *bsn, TTL: *ttl}
	if *m2m {
		if *azp == "" {
			return errors.New("token: -m2m needs -azp <client>, e.g. -azp operaton-mcp-client")
		}
		c.Client, c.Subject, c.LoA = *azp, "service-account-"+*azp, ""
		if *sub != "" {
			c.Subject = *sub
		}
	} else {
		if *municipality == "" {
			return errors.New("token: -municipality is required (or -m2m for a machine token)")
		}
		c.Municipality, c.OrganisationType = *municipality, *orgType
		for _, r := range strings.Split(*role, ",") {
			if r = strings.TrimSpace(r); r != "" {
				c.Roles = append(c.Roles, r)
			}
		}
		c.Client = *azp
		if c.Client == "" {
			c.Client = "ronl-frontend"
		}
		c.Subject = *sub
		if c.Subject == "" {
			c.Subject = "dev-" + strings.Join(c.Roles, "-") + "-" + *municipality
		}
		c.Username, c.Name = c.Subject, c.Subject
	}
	path, err := devKeyPath(cfg)
	if err != nil {
		return err
	}
	dev, err := auth.LoadDevIdentity(path)
	if err != nil {
		return err
	}
	token, err := dev.Token(c)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(stdout, token)
	return err
}
