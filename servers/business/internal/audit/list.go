package audit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Paging bounds of List (spec §4.12 and §8).
const (
	DefaultListLimit = 50
	MaxListLimit     = 200
)

// ErrNoDatabase: List was called on a Log without a Pool. Servers answer it,
// like any List failure, with 500 DB_ERROR.
var ErrNoDatabase = errors.New("audit: no database configured")

// ListOptions page through the records, newest first.
type ListOptions struct {
	// Limit is the page size: below 1 means DefaultListLimit, above
	// MaxListLimit means MaxListLimit.
	Limit int
	// Offset skips records; a negative offset means 0.
	Offset int
}

// Record is one stored audit record as GET /v1/admin/audit returns it (spec
// §2.4). The IP address and user agent are not part of it (data
// minimisation).
type Record struct {
	ID           int64           `json:"id"`
	Timestamp    time.Time       `json:"-"`
	TenantID     string          `json:"tenant_id"`
	UserID       string          `json:"user_id"`
	Action       string          `json:"action"`
	ResourceType *string         `json:"resource_type"`
	ResourceID   *string         `json:"resource_id"`
	Details      json.RawMessage `json:"details"` // {} when NULL
	Result       string          `json:"result"`
	ErrorMessage *string         `json:"error_message"`
	RequestID    *string         `json:"request_id"`
}

// MarshalJSON writes the record with its timestamp in the API's format
// (UTC, three fraction digits, Z).
func (r Record) MarshalJSON() ([]byte, error) {
	type plain Record
	return json.Marshal(struct {
		plain
		Timestamp string `json:"timestamp"`
	}{plain(r), r.Timestamp.UTC().Format("2006-01-02T15:04:05.000Z")})
}

// Page is one page of records with the paging the envelope reports.
type Page struct {
	Items  []Record
	Total  int64
	Limit  int // after clamping
	Offset int // after clamping
}

// HasMore reports whether records follow this page.
func (p Page) HasMore() bool { return int64(p.Offset+p.Limit) < p.Total }

// List returns one page of records, newest first (timestamp, then id), and
// the total count. It fails with ErrNoDatabase without a Pool, or with the
// database's error.
func (l *Log) List(ctx context.Context, opts ListOptions) (Page, error) {
	if l.pool == nil {
		return Page{}, ErrNoDatabase
	}
	page := Page{Limit: opts.Limit, Offset: max(opts.Offset, 0)}
	if page.Limit < 1 {
		page.Limit = DefaultListLimit
	}
	page.Limit = min(page.Limit, MaxListLimit)
	if !l.migrated.Load() {
		if err := l.migrate(ctx); err != nil {
			return Page{}, fmt.Errorf("audit: list: %w", err)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, l.timeout)
	defer cancel()
	if err := l.pool.QueryRow(ctx, "SELECT count(*) FROM audit_logs").Scan(&page.Total); err != nil {
		return Page{}, fmt.Errorf("audit: list: %w", err)
	}
	rows, err := l.pool.Query(ctx, `SELECT id, timestamp, tenant_id, user_id, action, resource_type, resource_id,
		COALESCE(details, '{}'::jsonb), result, error_message, request_id
		FROM audit_logs ORDER BY timestamp DESC, id DESC LIMIT $1 OFFSET $2`, page.Limit, page.Offset)
	if err != nil {
		return Page{}, fmt.Errorf("audit: list: %w", err)
	}
	defer rows.Close()
	page.Items = []Record{}
	for rows.Next() {
		var r Record
		var details []byte
		if err := rows.Scan(&r.ID, &r.Timestamp, &r.TenantID, &r.UserID, &r.Action, &r.ResourceType, &r.ResourceID,
			&details, &r.Result, &r.ErrorMessage, &r.RequestID); err != nil {
			return Page{}, fmt.Errorf("audit: list: %w", err)
		}
		r.Details = json.RawMessage(details)
		page.Items = append(page.Items, r)
	}
	if err := rows.Err(); err != nil {
		return Page{}, fmt.Errorf("audit: list: %w", err)
	}
	return page, nil
}
