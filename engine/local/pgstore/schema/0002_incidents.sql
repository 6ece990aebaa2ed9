-- Incidents. An external task's open incident lives in its row, so that
-- the failure that opens it and the incident commit together: doc carries
-- IncidentID and IncidentTime, and retries = 0 marks the rows that have
-- one (the engine opens an incident exactly when retries reach 0).
CREATE INDEX engine_external_tasks_incident ON engine_external_tasks (seq) WHERE retries = 0;

-- Tasks that ran out of retries under schema 1 get their incident now.
UPDATE engine_external_tasks
   SET version = version + 1,
       doc = convert_to((convert_from(doc, 'UTF8')::jsonb || jsonb_build_object(
                 'IncidentID', gen_random_uuid()::text,
                 'IncidentTime', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')))::text, 'UTF8')
 WHERE retries = 0 AND coalesce(convert_from(doc, 'UTF8')::jsonb ->> 'IncidentID', '') = '';
