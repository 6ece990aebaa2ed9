-- Asset storage of the explorer: BPMN processes, form schemas and document
-- templates (explorer notes §10.1). Read-only rows (seeded examples) are left
-- out of the lists and cannot be overwritten or deleted through the API.

CREATE TABLE process_definitions (
    uuid                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    lde_id                 text NOT NULL UNIQUE,
    bpmn_process_id        text NOT NULL DEFAULT 'unknown',
    name                   text NOT NULL,
    description            text,
    xml                    text NOT NULL,
    process_role           text NOT NULL DEFAULT 'standalone'
                           CHECK (process_role IN ('shell', 'subprocess', 'standalone')),
    called_element         text,
    shell_id               text,
    linked_dmn_templates   text[] NOT NULL DEFAULT '{}',
    status                 text NOT NULL DEFAULT 'wip'
                           CHECK (status IN ('example', 'wip', 'e2e')),
    readonly               boolean NOT NULL DEFAULT false,
    schema_version         integer NOT NULL DEFAULT 1,
    language               text,
    organization           text,
    created_at             timestamptz NOT NULL DEFAULT now(),
    updated_at             timestamptz NOT NULL DEFAULT now(),
    deployed_at            timestamptz,
    operaton_url           text,
    operaton_deployment_id text,
    deployed_forms         text[],
    deployed_documents     text[],
    board_owner            text
);

-- One process per (organization, bpmn_process_id); an absent organization is
-- its own value. The placeholder 'unknown' (no process id given) is exempt.
CREATE UNIQUE INDEX process_definitions_org_bpmn_process_id_key
    ON process_definitions ((coalesce(organization, '')), bpmn_process_id)
    WHERE bpmn_process_id <> 'unknown';
CREATE INDEX process_definitions_bpmn_process_id_idx ON process_definitions (bpmn_process_id);
CREATE INDEX process_definitions_called_element_idx ON process_definitions (called_element)
    WHERE called_element IS NOT NULL;
CREATE INDEX process_definitions_process_role_idx ON process_definitions (process_role);

CREATE TABLE form_schemas (
    id             text PRIMARY KEY,
    name           text NOT NULL,
    description    text,
    schema         jsonb NOT NULL,
    status         text NOT NULL DEFAULT 'wip',
    schema_version integer NOT NULL DEFAULT 1,
    language       text,
    organization   text,
    readonly       boolean NOT NULL DEFAULT false,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE document_templates (
    id             text PRIMARY KEY,
    name           text NOT NULL,
    description    text,
    process_key    text,
    service_id     text,
    schema_version integer NOT NULL DEFAULT 1,
    zones          jsonb NOT NULL,
    bindings       jsonb NOT NULL,
    assets         jsonb NOT NULL,
    status         text NOT NULL DEFAULT 'wip',
    language       text,
    organization   text,
    readonly       boolean NOT NULL DEFAULT false,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now()
);
