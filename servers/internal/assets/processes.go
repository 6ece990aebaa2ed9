package assets

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Process is a stored BPMN process (table process_definitions). Optional
// text fields are nil when unset.
type Process struct {
	ID                 string // the API id (column lde_id)
	BPMNProcessID      string // "unknown" when the client gave none
	Name               string
	Description        *string
	XML                string // empty in listings
	ProcessRole        string // shell, subprocess or standalone
	CalledElement      *string
	ShellID            *string
	LinkedDMNTemplates []string
	Status             string // example, wip or e2e
	ReadOnly           bool
	SchemaVersion      int
	Language           *string
	Organization       *string // nil: no organisation
	CreatedAt          time.Time
	UpdatedAt          time.Time
}

const processIDIndex = "process_definitions_org_bpmn_process_id_key"

// UpsertProcess inserts p or overwrites the process with its ID, keeping the
// stored CreatedAt, ReadOnly and SchemaVersion. It fails with ErrReadOnly
// for a read-only row and with *ProcessIDTakenError when another process of
// the same organisation has p's BPMNProcessID.
func (s *Store) UpsertProcess(ctx context.Context, p Process) error {
	if p.LinkedDMNTemplates == nil {
		p.LinkedDMNTemplates = []string{}
	}
	return s.run(ctx, func(ctx context.Context) error {
		// Two first inserts of the same id race on the unique index of the
		// process id before either sees the other's row; the loser then finds
		// its own id holding the pair, and a second attempt updates.
		for attempt := 0; ; attempt++ {
			var id string
			err := s.pool.QueryRow(ctx, `
				INSERT INTO process_definitions (lde_id, bpmn_process_id, name, description, xml, process_role,
					called_element, shell_id, linked_dmn_templates, status, language, organization, created_at, updated_at)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
				ON CONFLICT (lde_id) DO UPDATE SET
					bpmn_process_id = EXCLUDED.bpmn_process_id, name = EXCLUDED.name,
					description = EXCLUDED.description, xml = EXCLUDED.xml, process_role = EXCLUDED.process_role,
					called_element = EXCLUDED.called_element, shell_id = EXCLUDED.shell_id,
					linked_dmn_templates = EXCLUDED.linked_dmn_templates, status = EXCLUDED.status,
					language = EXCLUDED.language, organization = EXCLUDED.organization,
					updated_at = EXCLUDED.updated_at
				WHERE NOT process_definitions.readonly
				RETURNING lde_id`,
				p.ID, p.BPMNProcessID, p.Name, p.Description, p.XML, p.ProcessRole, p.CalledElement, p.ShellID,
				p.LinkedDMNTemplates, p.Status, p.Language, p.Organization, p.CreatedAt, p.UpdatedAt,
			).Scan(&id)
			if errors.Is(err, pgx.ErrNoRows) {
				return ErrReadOnly // the conflicting row is read-only: nothing changed
			}
			var pgErr *pgconn.PgError
			if !errors.As(err, &pgErr) || pgErr.Code != "23505" || pgErr.ConstraintName != processIDIndex {
				return err
			}
			holder, found, lookupErr := s.processIDHolder(ctx, p.BPMNProcessID, p.Organization)
			if lookupErr != nil {
				return lookupErr
			}
			if found && holder.ID != p.ID {
				return &ProcessIDTakenError{BPMNProcessID: p.BPMNProcessID, Organization: p.Organization, Existing: holder}
			}
			if attempt == 2 {
				return err
			}
		}
	})
}

func (s *Store) processIDHolder(ctx context.Context, bpmnProcessID string, org *string) (ProcessRef, bool, error) {
	var ref ProcessRef
	err := s.pool.QueryRow(ctx, `
		SELECT lde_id, name, status FROM process_definitions
		WHERE coalesce(organization, '') = coalesce($1, '') AND bpmn_process_id = $2`,
		org, bpmnProcessID).Scan(&ref.ID, &ref.Name, &ref.Status)
	if errors.Is(err, pgx.ErrNoRows) {
		return ref, false, nil
	}
	return ref, err == nil, err
}

// ListProcesses lists the processes that are not read-only, most recently
// updated first, without their XML.
func (s *Store) ListProcesses(ctx context.Context) ([]Process, error) {
	var out []Process
	err := s.run(ctx, func(ctx context.Context) error {
		rows, err := s.pool.Query(ctx, `
			SELECT lde_id, bpmn_process_id, name, description, process_role, called_element, shell_id,
				linked_dmn_templates, status, readonly, schema_version, language, organization, created_at, updated_at
			FROM process_definitions WHERE NOT readonly
			ORDER BY updated_at DESC, lde_id`)
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (Process, error) {
			var p Process
			err := row.Scan(&p.ID, &p.BPMNProcessID, &p.Name, &p.Description, &p.ProcessRole, &p.CalledElement,
				&p.ShellID, &p.LinkedDMNTemplates, &p.Status, &p.ReadOnly, &p.SchemaVersion, &p.Language,
				&p.Organization, &p.CreatedAt, &p.UpdatedAt)
			return p, err
		})
		return err
	})
	return out, err
}

// ProcessByBPMNID finds a process by its BPMN process id, read-only rows
// included (they are called by others). A non-nil organization scopes the
// look-up ("" meaning no organisation); nil takes any organisation,
// preferring a process without one, then the most recently updated.
func (s *Store) ProcessByBPMNID(ctx context.Context, bpmnProcessID string, organization *string) (Process, error) {
	var p Process
	err := s.run(ctx, func(ctx context.Context) error {
		return s.pool.QueryRow(ctx, `
			SELECT lde_id, bpmn_process_id, xml FROM process_definitions
			WHERE bpmn_process_id = $1 AND ($2::text IS NULL OR coalesce(organization, '') = $2)
			ORDER BY organization IS NULL DESC, updated_at DESC, lde_id
			LIMIT 1`, bpmnProcessID, organization).Scan(&p.ID, &p.BPMNProcessID, &p.XML)
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return Process{}, ErrNotFound
	}
	return p, err
}

// DeleteProcess deletes a process. Deleting an id that does not exist
// succeeds; a read-only row is kept and ErrReadOnly returned.
func (s *Store) DeleteProcess(ctx context.Context, id string) error {
	return s.deleteRow(ctx, "process_definitions", "lde_id", id)
}

// deleteRow deletes a row unless it is read-only, in one statement.
func (s *Store) deleteRow(ctx context.Context, table, key, id string) error {
	var readonly bool
	err := s.run(ctx, func(ctx context.Context) error {
		return s.pool.QueryRow(ctx, `
			WITH deleted AS (DELETE FROM `+table+` WHERE `+key+` = $1 AND NOT readonly RETURNING 1)
			SELECT EXISTS (SELECT 1 FROM `+table+` WHERE `+key+` = $1 AND readonly)`, id).Scan(&readonly)
	})
	if err == nil && readonly {
		return ErrReadOnly
	}
	return err
}
