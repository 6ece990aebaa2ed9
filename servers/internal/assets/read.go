package assets

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
)

// Find bounds a reader's listing (FindProcesses, FindForms,
// FindDocumentTemplates). Read-only rows are included: a reader wants the
// seeded examples too.
type Find struct {
	// Organization is the reader's organisation: rows without one are
	// always seen, rows of this one besides ("" sees only the former).
	Organization string
	// Search, when set, keeps rows whose id or name contains it, ignoring
	// case.
	Search string
	// Limit caps the rows returned: 50 when zero, at most MaxFind.
	Limit int
	// ShellID, when set, keeps the processes whose shellId it is (a
	// bundle's sub-processes); FindProcesses only.
	ShellID string
}

// Get bounds a reader's look-up of one row (ProcessByID, FormByID,
// DocumentTemplateByID).
type Get struct {
	// Organization as in Find: a row of another organisation is not found.
	Organization string
	// MaxContent bounds each large column read, in bytes: 128 KiB when
	// zero. A longer BPMN XML is cut; a longer JSON column is left nil.
	MaxContent int
}

// Sizes are the full byte lengths of a row's large columns, by column
// name (xml, schema, zones, bindings, assets), to tell what a Get cut.
type Sizes map[string]int64

// MaxFind is the most rows one Find returns.
const MaxFind = 1000

func (f Find) limit() int {
	switch {
	case f.Limit <= 0:
		return 50
	case f.Limit > MaxFind:
		return MaxFind
	}
	return f.Limit
}

func (g Get) maxContent() int {
	if g.MaxContent <= 0 {
		return 128 << 10
	}
	return g.MaxContent
}

// visible is the organisation and search filter of the reader queries:
// $1 the organisation, $2 the search text, $3 the limit.
const visible = `(coalesce(organization, '') = '' OR organization = $1)
	AND ($2 = '' OR strpos(lower(name), lower($2)) > 0 OR strpos(lower(%s), lower($2)) > 0)`

// FindProcesses lists the processes the reader sees, most recently updated
// first, without their XML, and how many matched in all (the limit aside).
func (s *Store) FindProcesses(ctx context.Context, f Find) ([]Process, int, error) {
	return find(ctx, s, `
		SELECT lde_id, bpmn_process_id, name, description, process_role, called_element, shell_id,
			linked_dmn_templates, status, readonly, schema_version, language, organization, created_at, updated_at,
			count(*) OVER ()
		FROM process_definitions WHERE `+fmt.Sprintf(visible, "lde_id")+` AND ($4 = '' OR shell_id = $4)
		ORDER BY updated_at DESC, lde_id LIMIT $3`, f,
		func(row pgx.CollectableRow, total *int) (Process, error) {
			var p Process
			err := row.Scan(&p.ID, &p.BPMNProcessID, &p.Name, &p.Description, &p.ProcessRole, &p.CalledElement,
				&p.ShellID, &p.LinkedDMNTemplates, &p.Status, &p.ReadOnly, &p.SchemaVersion, &p.Language,
				&p.Organization, &p.CreatedAt, &p.UpdatedAt, total)
			return p, err
		}, f.ShellID)
}

// FindForms lists the forms the reader sees, most recently updated first,
// without their schema, and how many matched in all.
func (s *Store) FindForms(ctx context.Context, f Find) ([]Form, int, error) {
	return find(ctx, s, `
		SELECT id, name, description, status, schema_version, language, organization, readonly,
			created_at, updated_at, count(*) OVER ()
		FROM form_schemas WHERE `+fmt.Sprintf(visible, "id")+`
		ORDER BY updated_at DESC, id LIMIT $3`, f,
		func(row pgx.CollectableRow, total *int) (Form, error) {
			var d Form
			err := row.Scan(&d.ID, &d.Name, &d.Description, &d.Status, &d.SchemaVersion, &d.Language,
				&d.Organization, &d.ReadOnly, &d.CreatedAt, &d.UpdatedAt, total)
			return d, err
		})
}

// FindDocumentTemplates lists the templates the reader sees, most recently
// updated first, without zones, bindings and assets, and how many matched
// in all.
func (s *Store) FindDocumentTemplates(ctx context.Context, f Find) ([]DocumentTemplate, int, error) {
	return find(ctx, s, `
		SELECT id, name, description, process_key, service_id, schema_version, status, language, organization,
			readonly, created_at, updated_at, count(*) OVER ()
		FROM document_templates WHERE `+fmt.Sprintf(visible, "id")+`
		ORDER BY updated_at DESC, id LIMIT $3`, f,
		func(row pgx.CollectableRow, total *int) (DocumentTemplate, error) {
			var d DocumentTemplate
			err := row.Scan(&d.ID, &d.Name, &d.Description, &d.ProcessKey, &d.ServiceID, &d.SchemaVersion,
				&d.Status, &d.Language, &d.Organization, &d.ReadOnly, &d.CreatedAt, &d.UpdatedAt, total)
			return d, err
		})
}

// find runs a reader query: $1 to $3 as in visible, more from $4 on.
func find[T any](ctx context.Context, s *Store, sql string, f Find, scan func(pgx.CollectableRow, *int) (T, error), more ...any) ([]T, int, error) {
	var out []T
	total := 0
	err := s.run(ctx, func(ctx context.Context) error {
		rows, err := s.pool.Query(ctx, sql, append([]any{f.Organization, f.Search, f.limit()}, more...)...)
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (T, error) { return scan(row, &total) })
		return err
	})
	return out, total, err
}

// ProcessByID reads the process with the id when the reader sees it, its
// XML cut to g.MaxContent bytes (at a character boundary); ErrNotFound
// otherwise.
func (s *Store) ProcessByID(ctx context.Context, id string, g Get) (Process, Sizes, error) {
	var p Process
	var size int64
	err := s.getRow(ctx, `
		SELECT lde_id, bpmn_process_id, name, description, left(xml, $3), octet_length(xml), process_role,
			called_element, shell_id, linked_dmn_templates, status, readonly, schema_version, language,
			organization, created_at, updated_at
		FROM process_definitions WHERE lde_id = $1 AND (coalesce(organization, '') = '' OR organization = $2)`,
		[]any{id, g.Organization, g.maxContent()},
		&p.ID, &p.BPMNProcessID, &p.Name, &p.Description, &p.XML, &size, &p.ProcessRole, &p.CalledElement,
		&p.ShellID, &p.LinkedDMNTemplates, &p.Status, &p.ReadOnly, &p.SchemaVersion, &p.Language,
		&p.Organization, &p.CreatedAt, &p.UpdatedAt)
	// left() counts characters; the bound is in bytes.
	p.XML = cut(p.XML, g.maxContent())
	return p, Sizes{"xml": size}, err
}

// FormByID reads the form with the id when the reader sees it, its schema
// nil when longer than g.MaxContent bytes; ErrNotFound otherwise.
func (s *Store) FormByID(ctx context.Context, id string, g Get) (Form, Sizes, error) {
	var f Form
	var size int64
	var schema *string
	err := s.getRow(ctx, `
		SELECT id, name, description, CASE WHEN octet_length(schema::text) <= $3 THEN schema::text END,
			octet_length(schema::text), status, schema_version, language, organization, readonly, created_at, updated_at
		FROM form_schemas WHERE id = $1 AND (coalesce(organization, '') = '' OR organization = $2)`,
		[]any{id, g.Organization, g.maxContent()},
		&f.ID, &f.Name, &f.Description, &schema, &size, &f.Status, &f.SchemaVersion, &f.Language,
		&f.Organization, &f.ReadOnly, &f.CreatedAt, &f.UpdatedAt)
	f.Schema = raw(schema)
	return f, Sizes{"schema": size}, err
}

// DocumentTemplateByID reads the template with the id when the reader sees
// it, each of zones, bindings and assets nil when longer than
// g.MaxContent bytes; ErrNotFound otherwise.
func (s *Store) DocumentTemplateByID(ctx context.Context, id string, g Get) (DocumentTemplate, Sizes, error) {
	var d DocumentTemplate
	var zones, bindings, assets *string
	var zonesSize, bindingsSize, assetsSize int64
	err := s.getRow(ctx, `
		SELECT id, name, description, process_key, service_id, schema_version,
			CASE WHEN octet_length(zones::text) <= $3 THEN zones::text END, octet_length(zones::text),
			CASE WHEN octet_length(bindings::text) <= $3 THEN bindings::text END, octet_length(bindings::text),
			CASE WHEN octet_length(assets::text) <= $3 THEN assets::text END, octet_length(assets::text),
			status, language, organization, readonly, created_at, updated_at
		FROM document_templates WHERE id = $1 AND (coalesce(organization, '') = '' OR organization = $2)`,
		[]any{id, g.Organization, g.maxContent()},
		&d.ID, &d.Name, &d.Description, &d.ProcessKey, &d.ServiceID, &d.SchemaVersion,
		&zones, &zonesSize, &bindings, &bindingsSize, &assets, &assetsSize,
		&d.Status, &d.Language, &d.Organization, &d.ReadOnly, &d.CreatedAt, &d.UpdatedAt)
	d.Zones, d.Bindings, d.Assets = raw(zones), raw(bindings), raw(assets)
	return d, Sizes{"zones": zonesSize, "bindings": bindingsSize, "assets": assetsSize}, err
}

// getRow scans one row; no row is ErrNotFound.
func (s *Store) getRow(ctx context.Context, sql string, args []any, dest ...any) error {
	err := s.run(ctx, func(ctx context.Context) error {
		return s.pool.QueryRow(ctx, sql, args...).Scan(dest...)
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return ErrNotFound
	}
	return err
}

func raw(s *string) json.RawMessage {
	if s == nil {
		return nil
	}
	return json.RawMessage(*s)
}

// cut shortens s to at most n bytes without splitting a character.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
