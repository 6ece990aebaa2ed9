package assets

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
)

// Form is a stored form schema (table form_schemas).
type Form struct {
	ID            string
	Name          string
	Description   *string
	Schema        json.RawMessage // a JSON object
	Status        string
	SchemaVersion int
	Language      *string
	Organization  *string
	ReadOnly      bool
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// DocumentTemplate is a stored document template (table
// document_templates).
type DocumentTemplate struct {
	ID            string
	Name          string
	Description   *string
	ProcessKey    *string
	ServiceID     *string
	SchemaVersion int
	Zones         json.RawMessage // a JSON object
	Bindings      json.RawMessage // a JSON array
	Assets        json.RawMessage // a JSON array
	Status        string
	Language      *string
	Organization  *string
	ReadOnly      bool
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// UpsertForm inserts f or overwrites the form with its ID, keeping the
// stored CreatedAt, SchemaVersion and ReadOnly; ErrReadOnly for a read-only
// row.
func (s *Store) UpsertForm(ctx context.Context, f Form) error {
	return s.upsert(ctx, `
		INSERT INTO form_schemas (id, name, description, schema, status, language, organization, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
		ON CONFLICT (id) DO UPDATE SET
			name = EXCLUDED.name, description = EXCLUDED.description, schema = EXCLUDED.schema,
			status = EXCLUDED.status, language = EXCLUDED.language, organization = EXCLUDED.organization,
			updated_at = EXCLUDED.updated_at
		WHERE NOT form_schemas.readonly
		RETURNING id`,
		f.ID, f.Name, f.Description, f.Schema, f.Status, f.Language, f.Organization, f.CreatedAt, f.UpdatedAt)
}

// ListForms lists the forms that are not read-only, most recently updated
// first.
func (s *Store) ListForms(ctx context.Context) ([]Form, error) {
	var out []Form
	err := s.run(ctx, func(ctx context.Context) error {
		rows, err := s.pool.Query(ctx, `
			SELECT id, name, description, schema, status, schema_version, language, organization, readonly,
				created_at, updated_at
			FROM form_schemas WHERE NOT readonly ORDER BY updated_at DESC, id`)
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (Form, error) {
			var f Form
			err := row.Scan(&f.ID, &f.Name, &f.Description, &f.Schema, &f.Status, &f.SchemaVersion, &f.Language,
				&f.Organization, &f.ReadOnly, &f.CreatedAt, &f.UpdatedAt)
			return f, err
		})
		return err
	})
	return out, err
}

// DeleteForm deletes a form; a missing id succeeds, a read-only row is kept
// (ErrReadOnly).
func (s *Store) DeleteForm(ctx context.Context, id string) error {
	return s.deleteRow(ctx, "form_schemas", "id", id)
}

// UpsertDocumentTemplate inserts d or overwrites the template with its ID,
// keeping the stored CreatedAt and ReadOnly; ErrReadOnly for a read-only
// row.
func (s *Store) UpsertDocumentTemplate(ctx context.Context, d DocumentTemplate) error {
	return s.upsert(ctx, `
		INSERT INTO document_templates (id, name, description, process_key, service_id, schema_version, zones,
			bindings, assets, status, language, organization, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
		ON CONFLICT (id) DO UPDATE SET
			name = EXCLUDED.name, description = EXCLUDED.description, process_key = EXCLUDED.process_key,
			service_id = EXCLUDED.service_id, schema_version = EXCLUDED.schema_version, zones = EXCLUDED.zones,
			bindings = EXCLUDED.bindings, assets = EXCLUDED.assets, status = EXCLUDED.status,
			language = EXCLUDED.language, organization = EXCLUDED.organization, updated_at = EXCLUDED.updated_at
		WHERE NOT document_templates.readonly
		RETURNING id`,
		d.ID, d.Name, d.Description, d.ProcessKey, d.ServiceID, d.SchemaVersion, d.Zones, d.Bindings, d.Assets,
		d.Status, d.Language, d.Organization, d.CreatedAt, d.UpdatedAt)
}

// ListDocumentTemplates lists the templates that are not read-only, most
// recently updated first.
func (s *Store) ListDocumentTemplates(ctx context.Context) ([]DocumentTemplate, error) {
	var out []DocumentTemplate
	err := s.run(ctx, func(ctx context.Context) error {
		rows, err := s.pool.Query(ctx, `
			SELECT id, name, description, process_key, service_id, schema_version, zones, bindings, assets, status,
				language, organization, readonly, created_at, updated_at
			FROM document_templates WHERE NOT readonly ORDER BY updated_at DESC, id`)
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (DocumentTemplate, error) {
			var d DocumentTemplate
			err := row.Scan(&d.ID, &d.Name, &d.Description, &d.ProcessKey, &d.ServiceID, &d.SchemaVersion,
				&d.Zones, &d.Bindings, &d.Assets, &d.Status, &d.Language, &d.Organization, &d.ReadOnly,
				&d.CreatedAt, &d.UpdatedAt)
			return d, err
		})
		return err
	})
	return out, err
}

// DeleteDocumentTemplate deletes a template; a missing id succeeds, a
// read-only row is kept (ErrReadOnly).
func (s *Store) DeleteDocumentTemplate(ctx context.Context, id string) error {
	return s.deleteRow(ctx, "document_templates", "id", id)
}

// upsert runs an INSERT … ON CONFLICT … WHERE NOT readonly RETURNING
// statement; no row back means the existing row is read-only.
func (s *Store) upsert(ctx context.Context, sql string, args ...any) error {
	return s.run(ctx, func(ctx context.Context) error {
		var id string
		err := s.pool.QueryRow(ctx, sql, args...).Scan(&id)
		if errors.Is(err, pgx.ErrNoRows) {
			return ErrReadOnly
		}
		return err
	})
}
