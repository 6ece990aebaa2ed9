package server

import (
	"context"
	"math"
	"net/http"
	"sync"
	"time"

	"github.com/regelkit/regelkit/servers/internal/health"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/openapi"
)

func (a *app) healthRoutes(r *httpapi.Router) {
	a.mounted["health"] = healthPath
	tags := []string{"health"}
	r.Handle("GET", healthPath, a.handleHealth, openapi.Operation{
		Summary: "Health of the service, its identity provider and process engine",
		Description: "Not wrapped in the envelope. healthy → 200; degraded (a dependency down) or unhealthy (the check failed) → 503. " +
			"audit reports the audit queue: queued, written, dropped, failed.",
		Tags: tags,
		Responses: map[string]openapi.Response{
			"200": {Description: "healthy", Content: openapi.JSON(healthSchema)},
			"503": {Description: "degraded or unhealthy", Content: openapi.JSON(healthSchema)},
		},
	}, httpapi.Legacy())
	r.Handle("GET", healthPath+"/live", func(w http.ResponseWriter, r *http.Request) error {
		return httpapi.WriteJSON(w, http.StatusOK, map[string]string{"status": "alive"})
	}, openapi.Operation{
		Summary: "Liveness: {status: alive}", Tags: tags,
		Responses: map[string]openapi.Response{"200": {Description: "alive"}},
	})
	r.Handle("GET", healthPath+"/ready", a.handleReady, openapi.Operation{
		Summary: "Readiness: the process engine answers", Tags: tags,
		Responses: map[string]openapi.Response{
			"200": {Description: "{status: ready}"},
			"503": {Description: "{status: not ready, reason: process engine unavailable}"},
		},
	})
	r.Handle("GET", healthPath+"/external", a.handleExternal, openapi.Operation{
		Summary: "Reachability of the rule-serving API (cprmv), the knowledge graph (triplydb) and the explorer (lde)",
		Description: "Server-side HEAD requests with a 5-second timeout; any answer below 500 counts as up. Always 200: " +
			"data: {cprmv, triplydb, lde}, each {status: up|down, latency (ms)}.",
		Tags:      tags,
		Responses: map[string]openapi.Response{"200": {Description: "envelope with the three services"}},
	})
}

func (a *app) checker() *health.Checker {
	return &health.Checker{
		Name: serviceName, Version: version, Environment: a.cfg.Environment, Started: a.started,
		Probes: []health.Probe{
			{Name: "identity_provider", Check: a.verifier.Probe},
			{Name: "process_engine", Check: func(ctx context.Context) error { _, err := a.engine.Version(ctx); return err }},
		},
	}
}

type serviceState struct {
	Status  string `json:"status"`
	Latency int64  `json:"latency"` // ms
}

// handleHealth answers the spec's bare health object. Error texts of down
// services go to the log only.
func (a *app) handleHealth(w http.ResponseWriter, r *http.Request) error {
	rep := a.checker().Check(r.Context())
	services := map[string]serviceState{}
	for name, s := range rep.Services {
		services[name] = serviceState{Status: s.Status, Latency: int64(math.Round(s.Latency))}
		if s.Error != "" {
			a.logger.WarnContext(r.Context(), "health probe failed", "service", name, "error", s.Error)
		}
	}
	if rep.Error != "" {
		a.logger.ErrorContext(r.Context(), "health check failed", "error", rep.Error)
	}
	status := http.StatusOK
	if rep.Status != health.Healthy {
		status = http.StatusServiceUnavailable
	}
	w.Header().Set("Cache-Control", "no-store")
	return httpapi.WriteJSON(w, status, map[string]any{
		"name": rep.Name, "version": rep.Version, "environment": rep.Environment,
		"status": rep.Status, "uptime": rep.Uptime, "timestamp": rep.Timestamp,
		"services": services,
		"audit":    a.audit.stats(),
	})
}

func (a *app) handleReady(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), 3*time.Second)
	defer cancel()
	if _, err := a.engine.Version(ctx); err != nil {
		a.logger.WarnContext(r.Context(), "not ready", "error", err.Error())
		return httpapi.WriteJSON(w, http.StatusServiceUnavailable, map[string]string{
			"status": "not ready", "reason": "process engine unavailable",
		})
	}
	return httpapi.WriteJSON(w, http.StatusOK, map[string]string{"status": "ready"})
}

// handleExternal probes the three configured URLs concurrently.
func (a *app) handleExternal(w http.ResponseWriter, r *http.Request) error {
	targets := []struct{ key, url string }{
		{"cprmv", a.cfg.HealthRulesAPIURL},
		{"triplydb", a.cfg.HealthKnowledgeGraphURL},
		{"lde", a.cfg.HealthExplorerURL},
	}
	out := make(map[string]serviceState, len(targets))
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, t := range targets {
		wg.Go(func() {
			s := a.headProbe(r.Context(), t.url)
			mu.Lock()
			out[t.key] = s
			mu.Unlock()
		})
	}
	wg.Wait()
	return httpapi.WriteData(w, http.StatusOK, out)
}

func (a *app) headProbe(ctx context.Context, url string) serviceState {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	start := time.Now()
	state := func(s string) serviceState {
		return serviceState{Status: s, Latency: time.Since(start).Milliseconds()}
	}
	if url == "" {
		return state(health.Down)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodHead, url, nil)
	if err != nil {
		return state(health.Down)
	}
	resp, err := a.external.Do(req)
	if err != nil {
		return state(health.Down)
	}
	resp.Body.Close()
	if resp.StatusCode >= 500 {
		return state(health.Down)
	}
	return state(health.Up)
}
