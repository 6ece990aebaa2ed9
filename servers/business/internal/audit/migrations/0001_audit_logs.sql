-- Audit trail of the business API (business notes §5.1). One row per
-- authenticated request plus named rows such as brp.personen.fetch; nothing
-- purges them (spec §8). No tenants table: nothing reads it.

CREATE TABLE IF NOT EXISTS audit_logs (
    id            SERIAL PRIMARY KEY,
    timestamp     TIMESTAMPTZ NOT NULL DEFAULT now(),
    tenant_id     VARCHAR(255) NOT NULL,
    user_id       VARCHAR(255) NOT NULL,
    action        VARCHAR(100) NOT NULL,
    resource_type VARCHAR(100),
    resource_id   VARCHAR(255),
    details       JSONB,
    ip_address    INET,
    user_agent    TEXT,
    result        VARCHAR(50) NOT NULL,
    error_message TEXT,
    request_id    VARCHAR(255),
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE INDEX IF NOT EXISTS audit_logs_tenant_id_idx  ON audit_logs (tenant_id);
CREATE INDEX IF NOT EXISTS audit_logs_user_id_idx    ON audit_logs (user_id);
CREATE INDEX IF NOT EXISTS audit_logs_timestamp_idx  ON audit_logs (timestamp);
CREATE INDEX IF NOT EXISTS audit_logs_action_idx     ON audit_logs (action);
CREATE INDEX IF NOT EXISTS audit_logs_request_id_idx ON audit_logs (request_id);
