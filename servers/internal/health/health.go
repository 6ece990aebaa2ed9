package health

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"sync"
	"time"

	"github.com/regelkit/regelkit/servers/internal/httpapi"
)

// Overall and per-service states.
const (
	Healthy   = "healthy"
	Degraded  = "degraded"
	Unhealthy = "unhealthy"

	Up      = "up"
	Down    = "down"
	Unknown = "unknown" // no probe configured for the dependency
)

// Probe checks one dependency. A nil Check reports the dependency as
// "unknown" (not configured), which does not degrade the status.
type Probe struct {
	Name  string
	Check func(ctx context.Context) error
}

// Checker builds the health response.
type Checker struct {
	Name          string
	Version       string
	Environment   string
	Documentation string        // e.g. /v1/openapi.json
	Started       time.Time     // for uptime
	Timeout       time.Duration // per probe; 3s when zero
	Probes        []Probe
	// Extra adds members to the body (e.g. the SHACL layer load state); it
	// never changes the status code.
	Extra func() map[string]any
	// Development puts probe errors and a failed check's panic value into
	// the body. Elsewhere they carry internal causes (addresses, driver
	// messages): the body says only down or unhealthy, and Logger gets the
	// text.
	Development bool
	// Logger receives probe failures outside development; nil discards them.
	Logger *slog.Logger
}

// Service is one dependency's state.
type Service struct {
	Status    string  `json:"status"`
	Latency   float64 `json:"latency"` // milliseconds
	LastCheck string  `json:"lastCheck"`
	Error     string  `json:"error,omitempty"`
}

// Report is the health body.
type Report struct {
	Name          string             `json:"name"`
	Version       string             `json:"version"`
	Environment   string             `json:"environment"`
	Status        string             `json:"status"`
	Uptime        float64            `json:"uptime"` // seconds
	Timestamp     string             `json:"timestamp"`
	Services      map[string]Service `json:"services"`
	Documentation string             `json:"documentation,omitempty"`
	Error         string             `json:"error,omitempty"`
}

func (c *Checker) logger() *slog.Logger {
	if c.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return c.Logger
}

// Check runs every probe concurrently and returns the report and its status.
func (c *Checker) Check(ctx context.Context) (rep Report) {
	rep = Report{
		Name: c.Name, Version: c.Version, Environment: c.Environment,
		Documentation: c.Documentation,
		Uptime:        math.Round(time.Since(c.Started).Seconds()*1000) / 1000,
		Timestamp:     httpapi.Timestamp(time.Now()),
		Services:      map[string]Service{},
	}
	defer func() {
		// A probe that panics means the health check itself failed.
		if v := recover(); v != nil {
			rep.Status = Unhealthy
			rep.Error = "health check failed"
			if c.Development {
				rep.Error = fmt.Sprintf("health check failed: %v", v)
			}
			c.logger().Error("health check failed", "panic", fmt.Sprint(v))
		}
	}()
	timeout := c.Timeout
	if timeout == 0 {
		timeout = 3 * time.Second
	}
	results := make([]Service, len(c.Probes))
	panics := make([]any, len(c.Probes))
	var wg sync.WaitGroup
	for i, p := range c.Probes {
		if p.Check == nil {
			results[i] = Service{Status: Unknown, LastCheck: httpapi.Timestamp(time.Now())}
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { panics[i] = recover() }()
			pctx, cancel := context.WithTimeout(ctx, timeout)
			defer cancel()
			start := time.Now()
			err := p.Check(pctx)
			s := Service{Status: Up, Latency: float64(time.Since(start).Microseconds()) / 1000, LastCheck: httpapi.Timestamp(time.Now())}
			if err != nil {
				s.Status = Down
				if c.Development {
					s.Error = err.Error()
				} else {
					c.logger().Warn("dependency down", "service", p.Name, "error", err.Error())
				}
			}
			results[i] = s
		}()
	}
	wg.Wait()
	rep.Status = Healthy
	for i, p := range c.Probes {
		if panics[i] != nil {
			panic(panics[i])
		}
		rep.Services[p.Name] = results[i]
		if results[i].Status == Down {
			rep.Status = Degraded
		}
	}
	return rep
}

// Handle is the GET /v1/health handler. The body is not wrapped in the
// envelope.
func (c *Checker) Handle(w http.ResponseWriter, r *http.Request) error {
	rep := c.Check(r.Context())
	status := http.StatusOK
	if rep.Status != Healthy {
		status = http.StatusServiceUnavailable
	}
	body := map[string]any{}
	if c.Extra != nil {
		for k, v := range c.Extra() {
			body[k] = v
		}
	}
	body["name"] = rep.Name
	body["version"] = rep.Version
	body["environment"] = rep.Environment
	body["status"] = rep.Status
	body["uptime"] = rep.Uptime
	body["timestamp"] = rep.Timestamp
	body["services"] = rep.Services
	if rep.Documentation != "" {
		body["documentation"] = rep.Documentation
	}
	if rep.Error != "" {
		body["error"] = rep.Error
	}
	w.Header().Set("Cache-Control", "no-store")
	return httpapi.WriteJSON(w, status, body)
}
