package lifecycle_test

import (
	"testing"
	"time"

	"github.com/regelkit/regelkit/servers/internal/envconfig"
	"github.com/regelkit/regelkit/servers/internal/lifecycle"
)

func TestSettingsDefaults(t *testing.T) {
	for _, tc := range []struct {
		dev          bool
		env          map[string]string
		grace, delay time.Duration
	}{
		{true, nil, 20 * time.Second, 0},
		{false, nil, 20 * time.Second, 5 * time.Second},
		{false, map[string]string{"SHUTDOWN_GRACE": "3s", "SHUTDOWN_DELAY": "0s"}, 3 * time.Second, 0},
	} {
		env := envconfig.FromMap(tc.env)
		o := lifecycle.Settings(env, tc.dev)
		if err := env.Err(); err != nil {
			t.Fatal(err)
		}
		if o.Grace != tc.grace || o.Delay != tc.delay {
			t.Errorf("dev=%v %v: grace %v delay %v, want %v %v", tc.dev, tc.env, o.Grace, o.Delay, tc.grace, tc.delay)
		}
	}
	env := envconfig.FromMap(map[string]string{"SHUTDOWN_GRACE": "-1s"})
	lifecycle.Settings(env, true)
	if env.Err() == nil {
		t.Error("a negative SHUTDOWN_GRACE must be refused")
	}
}
