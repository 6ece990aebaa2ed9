package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/regelkit/regelkit/engine/local"
	business "github.com/regelkit/regelkit/servers/business/server"
	editor "github.com/regelkit/regelkit/servers/editor/server"
	explorer "github.com/regelkit/regelkit/servers/explorer/server"
	"github.com/regelkit/regelkit/servers/internal/envconfig"
	"github.com/regelkit/regelkit/servers/internal/lifecycle"
	rules "github.com/regelkit/regelkit/servers/rules/server"
	"github.com/regelkit/regelkit/sparql/memstore"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "stack:", err)
		os.Exit(1)
	}
}

func run() error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// After the first signal the default action returns: a second Ctrl-C
	// ends a drain that waits on a stuck request.
	context.AfterFunc(ctx, stop)
	return serve(ctx, os.LookupEnv, os.Stdout, os.Stderr)
}

// config is the stack's own settings: the four ports. Everything else each
// server reads itself, from the same environment.
type config struct {
	Explorer, Business, Editor, Rules int
	// MetricsAddr is each server's separate /metrics listener (its
	// METRICS_ADDR in the stack), by server name; "" = none.
	MetricsAddr map[string]string
	Development bool
	Shutdown    lifecycle.Options
	LogLevel    slog.Level
}

func loadConfig(lookup func(string) (string, bool)) (*config, *envconfig.Reader, error) {
	env := envconfig.New(lookup)
	c := &config{}
	c.Explorer = env.Port("EXPLORER_PORT", 8081, "port of the explorer (its PORT in the stack)")
	c.Business = env.Port("BUSINESS_PORT", 3002, "port of the business API (its PORT in the stack)")
	c.Editor = env.Port("EDITOR_PORT", 8084, "port of the editor (its PORT in the stack)")
	c.Rules = env.Port("RULES_PORT", 8083, "port of the rules API (its PORT in the stack)")
	c.MetricsAddr = map[string]string{}
	for _, name := range []string{"explorer", "business", "editor", "rules"} {
		v := strings.ToUpper(name) + "_METRICS_ADDR"
		c.MetricsAddr[name] = env.String(v, "", "a separate /metrics listener of the "+name+" (its METRICS_ADDR in the stack), e.g. :9091; empty: none")
	}
	c.Development = env.OneOf("ENVIRONMENT", "development",
		[]string{"development", "acceptance", "production"}, "deployment environment, passed to every server") == "development"
	level := env.OneOf("LOG_LEVEL", "info", []string{"debug", "info", "warn", "error"}, "minimum log level")
	_ = c.LogLevel.UnmarshalText([]byte(strings.ToUpper(level)))
	c.Shutdown = lifecycle.Settings(env, c.Development)
	if err := env.Err(); err != nil {
		return nil, env, err
	}
	if v, ok := lookup("METRICS_ADDR"); ok && v != "" {
		// every server would try to listen on it
		return nil, env, errors.New("METRICS_ADDR would be every server's: set EXPLORER_METRICS_ADDR, BUSINESS_METRICS_ADDR, EDITOR_METRICS_ADDR or RULES_METRICS_ADDR instead")
	}
	addrs := map[string]string{}
	for name, a := range c.MetricsAddr {
		if a == "" {
			continue
		}
		if other, ok := addrs[a]; ok {
			return nil, env, fmt.Errorf("the %s and the %s would both serve /metrics on %s", other, name, a)
		}
		addrs[a] = name
	}
	ports := map[int]string{}
	for _, p := range []struct {
		name string
		port int
	}{{"EXPLORER_PORT", c.Explorer}, {"BUSINESS_PORT", c.Business}, {"EDITOR_PORT", c.Editor}, {"RULES_PORT", c.Rules}} {
		if other, ok := ports[p.port]; ok {
			return nil, env, fmt.Errorf("%s and %s are both %d", other, p.name, p.port)
		}
		ports[p.port] = p.name
	}
	return c, env, nil
}

// withPort is lookup with PORT answered by port and METRICS_ADDR by
// metricsAddr: each server in the stack reads its own port and metrics
// listener from the stack's settings.
func withPort(lookup func(string) (string, bool), port int, metricsAddr string) func(string) (string, bool) {
	return func(name string) (string, bool) {
		switch name {
		case "PORT":
			return strconv.Itoa(port), true
		case "METRICS_ADDR":
			return metricsAddr, metricsAddr != ""
		}
		return lookup(name)
	}
}

// stack is the four servers around one engine and one knowledge graph,
// under one life cycle.
type stack struct {
	eng       *local.Engine
	kg        *memstore.Store
	lc        *lifecycle.Lifecycle
	listeners []lifecycle.Server
	closers   []func()
}

// serve builds the stack, prints the development tokens to out and serves
// until ctx ends.
func serve(ctx context.Context, lookup func(string) (string, bool), out, logOut io.Writer) error {
	s, err := build(ctx, lookup, out, logOut)
	if err != nil {
		return err
	}
	return s.run(ctx)
}

// build makes the shared engine and knowledge graph and the four servers
// around them, and prints the development tokens to out.
func build(ctx context.Context, lookup func(string) (string, bool), out, logOut io.Writer) (_ *stack, err error) {
	cfg, env, err := loadConfig(lookup)
	if err != nil {
		return nil, fmt.Errorf("configuration: %w", err)
	}
	logger := slog.New(slog.NewTextHandler(logOut, &slog.HandlerOptions{Level: cfg.LogLevel}))
	logger.Info("configuration", env.LogAttrs()...)

	// One engine and one knowledge graph for all four. The store unions its
	// named graphs into the default graph, as the editor's own store does;
	// the explorer's example graph is in the default graph itself.
	s := &stack{
		eng: local.New(local.Options{Version: "regelkit-stack"}),
		kg:  memstore.NewWithOptions(memstore.Options{UnionDefaultGraph: true}),
	}
	defer func() {
		if err != nil {
			s.close()
		}
	}()
	ex, err := explorer.New(ctx, explorer.Options{Lookup: withPort(lookup, cfg.Explorer, cfg.MetricsAddr["explorer"]),
		Logger: logger.With("server", "explorer"), Engine: s.eng, KnowledgeGraph: s.kg})
	if err != nil {
		return nil, fmt.Errorf("explorer: %w", err)
	}
	s.closers = append(s.closers, ex.Close)
	biz, err := business.New(ctx, business.Options{Lookup: withPort(lookup, cfg.Business, cfg.MetricsAddr["business"]),
		Logger: logger.With("server", "business"), Engine: s.eng})
	if err != nil {
		return nil, fmt.Errorf("business: %w", err)
	}
	s.closers = append(s.closers, biz.Close)
	ed, err := editor.New(ctx, editor.Options{Lookup: withPort(lookup, cfg.Editor, cfg.MetricsAddr["editor"]),
		Logger: logger.With("server", "editor"), KnowledgeGraph: s.kg})
	if err != nil {
		return nil, fmt.Errorf("editor: %w", err)
	}
	s.closers = append(s.closers, ed.Close)
	ru, err := rules.New(ctx, rules.Options{Lookup: withPort(lookup, cfg.Rules, cfg.MetricsAddr["rules"]),
		Logger: logger.With("server", "rules"), Repository: engineRepository{s.eng}})
	if err != nil {
		return nil, fmt.Errorf("rules: %w", err)
	}
	s.closers = append(s.closers, ru.Close)

	if err := printTokens(out, biz, cfg); err != nil {
		logger.Warn("no development tokens: " + err.Error())
	}
	o := cfg.Shutdown
	o.Logger = logger
	s.lc = lifecycle.New(o)
	s.listeners = append(s.listeners, ex.Listeners(s.lc)...)
	s.listeners = append(s.listeners, biz.Listeners(s.lc)...)
	s.listeners = append(s.listeners, ed.Listeners(s.lc)...)
	s.listeners = append(s.listeners, ru.Listeners(s.lc)...)
	return s, nil
}

// run serves until ctx ends, drains, and releases the servers.
func (s *stack) run(ctx context.Context) error {
	defer s.close()
	return s.lc.Run(ctx, s.listeners...)
}

// close releases the servers, last built first.
func (s *stack) close() {
	for i := len(s.closers) - 1; i >= 0; i-- {
		s.closers[i]()
	}
	s.closers = nil
}

// tokenTTL is the printed tokens' lifetime: a working day.
const tokenTTL = 8 * time.Hour

// printTokens prints the business API's development tokens as shell
// assignments, ready for curl -H "Authorization: Bearer $CASEWORKER".
func printTokens(out io.Writer, biz *business.Server, cfg *config) error {
	if !cfg.Development {
		return errors.New("the development identity serves development only")
	}
	tokens := []struct {
		name, what string
		req        business.TokenRequest
	}{
		{"CASEWORKER", "caseworker of the municipality heusden",
			business.TokenRequest{Roles: []string{"caseworker"}, Municipality: "heusden", LoA: "hoog", TTL: tokenTTL}},
		{"CITIZEN", "citizen of heusden (fictional 999992235, Wessel Kooyman)",
			business.TokenRequest{Roles: []string{"citizen"}, Municipality: "heusden", LoA: "substantieel", BSN: "999992235", TTL: tokenTTL}},
		{"M2M", "machine client operaton-mcp-client",
			business.TokenRequest{Machine: true, Client: "operaton-mcp-client", TTL: tokenTTL}},
	}
	fmt.Fprintf(out, "# regelkit stack: explorer http://localhost:%d, business http://localhost:%d, editor http://localhost:%d, rules http://localhost:%d\n",
		cfg.Explorer, cfg.Business, cfg.Editor, cfg.Rules)
	fmt.Fprintf(out, "# development tokens of the business API, valid %s:\n", tokenTTL)
	for _, t := range tokens {
		tok, err := biz.DevToken(t.req)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%s=%s  # %s\n", t.name, tok, t.what)
	}
	return nil
}
