package limits_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/regelkit/regelkit/dmn/feel"
	"github.com/regelkit/regelkit/servers/internal/envconfig"
	"github.com/regelkit/regelkit/servers/internal/limits"
	"github.com/regelkit/regelkit/shacl"
	"github.com/regelkit/regelkit/sparql/memstore"
)

func TestReadDefaults(t *testing.T) {
	env := envconfig.FromMap(nil)
	got := limits.Read(env)
	want := limits.Config{Timeout: 30 * time.Second, MaxResponseBytes: 32 << 20}
	if got != want {
		t.Errorf("defaults = %+v, want %+v", got, want)
	}
	printed := map[string]string{}
	for _, v := range env.Vars() {
		printed[v.Name] = v.Display()
	}
	for name, value := range map[string]string{"EVAL_TIMEOUT": "30s", "EVAL_MAX_ROWS": "0", "RESPONSE_MAX_BYTES": "33554432"} {
		if printed[name] != value {
			t.Errorf("%s printed as %q, want %q", name, printed[name], value)
		}
	}
}

func TestReadValues(t *testing.T) {
	env := envconfig.FromMap(map[string]string{
		"EVAL_TIMEOUT": "5s", "EVAL_MAX_DEPTH": "200", "EVAL_MAX_ROWS": "5000", "EVAL_MAX_BYTES": "512KB",
		"EVAL_MAX_TOTAL_BYTES": "1GB", "EVAL_MAX_STEPS": "-1", "RESPONSE_MAX_BYTES": "8MiB",
	})
	got := limits.Read(env)
	want := limits.Config{Timeout: 5 * time.Second, MaxDepth: 200, MaxRows: 5000, MaxBytes: 512 << 10,
		MaxTotalBytes: 1 << 30, MaxSteps: -1, MaxResponseBytes: 8 << 20}
	if err := env.Err(); err != nil || got != want {
		t.Errorf("Read = %+v, %v; want %+v", got, err, want)
	}
	bad := envconfig.FromMap(map[string]string{"EVAL_MAX_ROWS": "many", "RESPONSE_MAX_BYTES": "32 parsecs", "EVAL_TIMEOUT": "soon"})
	limits.Read(bad)
	for _, name := range []string{"EVAL_MAX_ROWS", "RESPONSE_MAX_BYTES", "EVAL_TIMEOUT"} {
		if err := bad.Err(); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("a bad %s is not reported: %v", name, err)
		}
	}
}

type engineLimit struct{ limit string }

func (e *engineLimit) Error() string         { return "feel: evaluation exceeded " + e.limit + " (100)" }
func (e *engineLimit) LimitExceeded() string { return e.limit }

func TestHTTPError(t *testing.T) {
	cases := []struct {
		err    error
		status int
	}{
		{&engineLimit{"Timeout"}, 503},
		{&engineLimit{"MaxRows"}, 400},
		{fmt.Errorf("decision d1: %w", &engineLimit{"MaxDepth"}), 400},
		{fmt.Errorf("step: %w", fmt.Errorf("inner: %w", &engineLimit{"MaxSteps"})), 400},
	}
	for _, tc := range cases {
		e := limits.HTTPError(tc.err)
		if e == nil || e.Status != tc.status || e.Code != "LIMIT_EXCEEDED" || !strings.Contains(e.Message, "exceeded") {
			t.Errorf("HTTPError(%v) = %+v, want %d LIMIT_EXCEEDED", tc.err, e, tc.status)
		}
	}
	if limits.HTTPError(errors.New("syntax error")) != nil {
		t.Error("an ordinary error is no limit error")
	}
}

func TestContext(t *testing.T) {
	ctx, cancel := limits.Config{Timeout: time.Millisecond}.Context(context.Background())
	defer cancel()
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the timeout did not end the context")
	}
	open, cancel2 := limits.Config{Timeout: -1}.Context(context.Background())
	defer cancel2()
	if _, ok := open.Deadline(); ok {
		t.Error("a negative Timeout must set no deadline")
	}
}

func TestEngineLimits(t *testing.T) {
	c := limits.Config{Timeout: 5 * time.Second, MaxDepth: 50, MaxRows: 1000, MaxBytes: 4096, MaxTotalBytes: 1 << 20, MaxSteps: 77}
	if got, want := c.FEEL(), (feel.Limits{Timeout: 5 * time.Second, MaxDepth: 50, MaxRows: 1000, MaxBytes: 4096}); got != want {
		t.Errorf("FEEL() = %+v, want %+v", got, want)
	}
	if got, want := c.SHACL(), (shacl.Limits{Timeout: 5 * time.Second, MaxDepth: 50, MaxRows: 1000}); got != want {
		t.Errorf("SHACL() = %+v, want %+v", got, want)
	}
	if got, want := c.SPARQL(), (memstore.Limits{Timeout: 5 * time.Second, MaxDepth: 50, MaxRows: 1000, MaxBytes: 4096, MaxTotalBytes: 1 << 20}); got != want {
		t.Errorf("SPARQL() = %+v, want %+v", got, want)
	}
}
