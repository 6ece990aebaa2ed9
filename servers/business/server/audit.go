package server

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/regelkit/regelkit/brp"
	"github.com/regelkit/regelkit/servers/business/internal/audit"
	"github.com/regelkit/regelkit/servers/internal/auth"
	"github.com/regelkit/regelkit/servers/internal/httpapi"
	"github.com/regelkit/regelkit/servers/internal/metrics"
	"github.com/regelkit/regelkit/servers/internal/openapi"
)

// auditor turns requests into audit entries on the audit Log:
// PostgreSQL with DATABASE_URL, the application log without.
type auditor struct {
	log       *audit.Log // nil when AUDIT_LOG_ENABLED=false
	pool      *pgxpool.Pool
	includeIP bool
}

func newAuditor(ctx context.Context, cfg *config, logger *slog.Logger, m *metrics.Metrics) (*auditor, error) {
	a := &auditor{includeIP: cfg.AuditIncludeIP}
	if !cfg.AuditEnabled {
		return a, nil
	}
	opts := audit.Options{Logger: logger}
	if cfg.DatabaseURL != "" {
		pc, err := pgxpool.ParseConfig(cfg.DatabaseURL)
		if err != nil {
			return nil, errors.New("DATABASE_URL cannot be parsed")
		}
		pc.MaxConns = int32(max(cfg.DatabasePoolMax, 1))
		pc.ConnConfig.Tracer = m.Database("database")
		// NewWithConfig connects lazily: a database that is down at boot
		// does not stop the server.
		if a.pool, err = pgxpool.NewWithConfig(ctx, pc); err != nil {
			return nil, err
		}
		opts.Pool = a.pool
	}
	a.log = audit.Open(ctx, opts)
	return a, nil
}

func (a *auditor) close() {
	if a.log != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_ = a.log.Close(ctx)
		cancel()
	}
	if a.pool != nil {
		a.pool.Close()
	}
}

// flush closes the audit queue once the requests have drained, writing
// what is queued within ctx (the life cycle's grace period). Idempotent:
// the app's Close closes it again at no cost.
func (a *auditor) flush(ctx context.Context) error {
	if a.log == nil {
		return nil
	}
	return a.log.Close(ctx)
}

func (a *auditor) stats() audit.Stats {
	if a.log == nil {
		return audit.Stats{}
	}
	return a.log.Stats()
}

// auditRow is what a handler or the hook knows of an entry; record adds
// the principal, the client and the request.
type auditRow struct {
	Action       string
	ResourceType string
	ResourceID   string
	Details      map[string]any
	Failed       bool
	ErrorMessage string
}

func (a *auditor) record(ctx context.Context, r *http.Request, p *auth.Principal, row auditRow) {
	if a.log == nil {
		return
	}
	e := audit.Entry{
		TenantID: p.Tenant, UserID: p.UserID, ClientID: p.Client,
		Action: row.Action, ResourceType: row.ResourceType, ResourceID: row.ResourceID,
		Details: row.Details, UserAgent: r.UserAgent(), Result: audit.ResultSuccess,
		ErrorMessage: row.ErrorMessage, RequestID: httpapi.RequestID(ctx),
	}
	if row.Failed {
		e.Result = audit.ResultError
	}
	if a.includeIP {
		e.IPAddress = clientIPFrom(ctx)
	}
	a.log.Record(e)
}

// auditDecision writes the named row decision.evaluate[.m2m].<key> in addition to the per-request row; a failed evaluation (err, the
// engine's error) marks it as an error with the mapped message.
func (a *app) auditDecision(r *http.Request, p *auth.Principal, action, key string, variableCount int, err error) {
	row := auditRow{Action: action, ResourceType: "decision", ResourceID: key,
		Details: map[string]any{"decisionKey": key, "variableCount": variableCount}}
	if err != nil {
		row.Failed = true
		var e *httpapi.Error
		if errors.As(a.engineFailure(err, key), &e) {
			row.ErrorMessage = e.Message
		}
	}
	a.audit.record(r.Context(), r, p, row)
}

// brpObserver turns a register lookup into the audit row
// brp.personen.fetch, which stores the queried number on purpose (spec
// §4.13), and a log line that holds no number: user, tenant, query type,
// count, status, duration.
func (a *app) brpObserver(ctx context.Context, ev brp.Event) {
	p := auth.FromContext(ctx)
	if p == nil {
		return
	}
	a.logger.LogAttrs(ctx, slog.LevelInfo, "brp lookup",
		slog.String("user", p.UserID), slog.String("tenant", p.Tenant),
		slog.String("type", ev.Type), slog.Int("count", ev.Count),
		slog.Int("status", ev.Status), slog.String("code", ev.Code),
		slog.Int64("duration_ms", ev.Duration.Milliseconds()),
		slog.String("request_id", httpapi.RequestID(ctx)))
	r, _ := ctx.Value(requestKey{}).(*http.Request)
	if r == nil {
		return
	}
	details := map[string]any{"bsn": ev.BSN}
	row := auditRow{Action: "brp.personen.fetch", Details: details}
	if ev.Status >= 400 {
		row.Failed = true
		details["status"] = ev.Status
		row.ErrorMessage = ev.Code
	}
	a.audit.record(ctx, r, p, row)
}

// requestKey gives the observer the request (user agent) of its lookup.
type requestKey struct{}

func withRequest(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestKey{}, r)))
	})
}

func (a *app) adminRoutes(r *httpapi.Router) {
	a.mounted["admin"] = "/v1/admin"
	r.Handle("GET", "/v1/admin/audit", a.auth.Guard(a.handleAuditList, auth.RequireRole(auth.RoleAdmin)), openapi.Operation{
		Summary: "Audit records, newest first (role admin)",
		Description: "Query limit (default 50, max 200; a non-number or a value below 1 takes the default) and offset (default 0). " +
			"data: {items, pagination: {limit, offset, total, hasMore}}. Not itself audited. 403 FORBIDDEN without role admin; " +
			"500 DB_ERROR without a database or when the query fails.",
		Tags: []string{"admin"},
		Parameters: []openapi.Parameter{
			{Name: "limit", In: "query", Schema: openapi.Integer("")},
			{Name: "offset", In: "query", Schema: openapi.Integer("")},
		},
		Responses: map[string]openapi.Response{"200": {Description: "a page of audit records"}},
	})
}

// queryInt reads a paging parameter; anything unusable is def (never
// 400).
func queryInt(r *http.Request, name string, def int) int {
	n, err := strconv.Atoi(r.URL.Query().Get(name))
	if err != nil {
		return def
	}
	return n
}

func (a *app) handleAuditList(w http.ResponseWriter, r *http.Request) error {
	limit := queryInt(r, "limit", audit.DefaultListLimit)
	if limit < 1 {
		limit = audit.DefaultListLimit
	}
	offset := max(queryInt(r, "offset", 0), 0)
	if a.audit.log == nil {
		return httpapi.NewError(http.StatusInternalServerError, "DB_ERROR", "Auditlog kon niet worden opgehaald.")
	}
	page, err := a.audit.log.List(r.Context(), audit.ListOptions{Limit: limit, Offset: offset})
	if err != nil {
		return &httpapi.Error{Status: http.StatusInternalServerError, Code: "DB_ERROR",
			Message: "Auditlog kon niet worden opgehaald.", Cause: err}
	}
	items := page.Items
	if items == nil {
		items = []audit.Record{}
	}
	return httpapi.WriteData(w, http.StatusOK, map[string]any{
		"items": items,
		"pagination": map[string]any{
			"limit": page.Limit, "offset": page.Offset, "total": page.Total, "hasMore": page.HasMore(),
		},
	})
}
