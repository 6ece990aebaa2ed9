-- The process runtime's tables (engine/local on PostgreSQL).
--
-- Every row keeps the record the engine wrote as JSON in doc (bytea, so
-- that numbers and key order come back exactly as written) and copies
-- into columns only what a query narrows on or what Commit checks. The
-- store narrows with the indexed columns, then applies engine/local's
-- Match… helpers to the decoded rows, so a filter means the same on
-- PostgreSQL as in memory. seq is insertion order: the order of an
-- unsorted listing.

CREATE TABLE engine_deployments (
	seq bigserial NOT NULL UNIQUE,
	id  text      PRIMARY KEY,
	doc bytea     NOT NULL
);

CREATE TABLE engine_resources (
	deployment_id text    NOT NULL REFERENCES engine_deployments (id) ON DELETE CASCADE,
	ord           integer NOT NULL, -- position in the deployment
	id            text    NOT NULL,
	name          text    NOT NULL,
	data          bytea   NOT NULL,
	PRIMARY KEY (deployment_id, ord)
);

CREATE TABLE engine_definitions (
	seq           bigserial NOT NULL UNIQUE,
	id            text      PRIMARY KEY,
	key           text      NOT NULL,
	tenant_id     text      NOT NULL,
	version       integer   NOT NULL,
	deployment_id text      NOT NULL REFERENCES engine_deployments (id) ON DELETE CASCADE,
	doc           bytea     NOT NULL,
	UNIQUE (key, tenant_id, version)
);
CREATE INDEX engine_definitions_deployment ON engine_definitions (deployment_id);

-- Running process instances. version is the optimistic lock: Commit
-- updates WHERE id = $1 AND version = <the version the engine read>.
CREATE TABLE engine_instances (
	seq               bigserial NOT NULL UNIQUE,
	id                text      PRIMARY KEY,
	version           bigint    NOT NULL,
	definition_id     text      NOT NULL,
	definition_key    text      NOT NULL,
	deployment_id     text      NOT NULL,
	business_key      text      NOT NULL,
	tenant_id         text      NOT NULL,
	super_instance_id text      NOT NULL,
	doc               bytea     NOT NULL, -- the record without State and Variables
	variables         bytea     NOT NULL, -- engine.Variables as JSON
	state             bytea     NOT NULL  -- the engine's execution state, opaque
);
CREATE INDEX engine_instances_definition ON engine_instances (definition_id);
CREATE INDEX engine_instances_key ON engine_instances (definition_key);
CREATE INDEX engine_instances_deployment ON engine_instances (deployment_id);
CREATE INDEX engine_instances_business_key ON engine_instances (business_key);
CREATE INDEX engine_instances_super ON engine_instances (super_instance_id) WHERE super_instance_id <> '';

-- Open user tasks. municipality is the instance's "municipality"
-- variable as text ('' when absent or null), kept current by the engine:
-- the task list of one municipality reads one index range.
-- municipality_num is that text as a number when it is a JSON number, for
-- the rows a text filter matches numerically ("0363" matches 363).
CREATE TABLE engine_tasks (
	seq              bigserial NOT NULL UNIQUE,
	id               text      PRIMARY KEY,
	version          bigint    NOT NULL,
	instance_id      text      NOT NULL,
	definition_key   text      NOT NULL,
	task_def_key     text      NOT NULL,
	municipality     text      NOT NULL,
	municipality_num numeric,
	assignee         text      NOT NULL,
	candidate_users  text[]    NOT NULL,
	candidate_groups text[]    NOT NULL,
	tenant_id        text      NOT NULL,
	doc              bytea     NOT NULL
);
CREATE INDEX engine_tasks_instance ON engine_tasks (instance_id);
CREATE INDEX engine_tasks_municipality ON engine_tasks (municipality, seq);
CREATE INDEX engine_tasks_municipality_num ON engine_tasks (municipality_num) WHERE municipality_num IS NOT NULL;
CREATE INDEX engine_tasks_assignee ON engine_tasks (assignee) WHERE assignee <> '';
CREATE INDEX engine_tasks_groups ON engine_tasks USING gin (candidate_groups);
CREATE INDEX engine_tasks_users ON engine_tasks USING gin (candidate_users);
CREATE INDEX engine_tasks_definition_key ON engine_tasks (definition_key);

-- External tasks, fetchable or locked. LockExternalTasks takes the
-- fetchable rows of a topic with FOR UPDATE SKIP LOCKED.
CREATE TABLE engine_external_tasks (
	seq             bigserial   NOT NULL UNIQUE,
	id              text        PRIMARY KEY,
	version         bigint      NOT NULL,
	instance_id     text        NOT NULL,
	topic           text        NOT NULL,
	lock_expiration timestamptz, -- NULL: not locked
	retries         integer,     -- NULL: never failed
	retry_at        timestamptz, -- NULL: no retry timeout
	suspended       boolean     NOT NULL,
	priority        bigint      NOT NULL,
	definition_key  text        NOT NULL,
	business_key    text        NOT NULL,
	tenant_id       text        NOT NULL,
	doc             bytea       NOT NULL
);
CREATE INDEX engine_external_tasks_topic ON engine_external_tasks (topic, lock_expiration);
CREATE INDEX engine_external_tasks_instance ON engine_external_tasks (instance_id);

-- History: rows are upserted by id.
CREATE TABLE engine_hist_instances (
	seq            bigserial NOT NULL UNIQUE,
	id             text      PRIMARY KEY,
	definition_key text      NOT NULL,
	business_key   text      NOT NULL,
	doc            bytea     NOT NULL
);
CREATE INDEX engine_hist_instances_key ON engine_hist_instances (definition_key);
CREATE INDEX engine_hist_instances_business_key ON engine_hist_instances (business_key);

CREATE TABLE engine_hist_activities (
	seq         bigserial NOT NULL UNIQUE,
	id          text      PRIMARY KEY,
	instance_id text      NOT NULL,
	doc         bytea     NOT NULL
);
CREATE INDEX engine_hist_activities_instance ON engine_hist_activities (instance_id);

CREATE TABLE engine_hist_tasks (
	seq            bigserial NOT NULL UNIQUE,
	id             text      PRIMARY KEY,
	instance_id    text      NOT NULL,
	definition_key text      NOT NULL,
	finished       boolean   NOT NULL,
	end_ns         bigint, -- EndTime in Unix nanoseconds: the order of sortBy=endTime
	doc            bytea     NOT NULL
);
CREATE INDEX engine_hist_tasks_instance ON engine_hist_tasks (instance_id);
CREATE INDEX engine_hist_tasks_end ON engine_hist_tasks (end_ns DESC NULLS LAST, seq);
CREATE INDEX engine_hist_tasks_definition_key ON engine_hist_tasks (definition_key);

-- The latest value of each variable of running and ended instances.
-- text_value is the value of a String variable (NULL for other types),
-- for the municipality filter of the history queries. create_time is the
-- first write's (time.Time's text form, to the nanosecond): an update
-- leaves it.
CREATE TABLE engine_hist_variables (
	seq            bigserial NOT NULL UNIQUE,
	id             text      PRIMARY KEY,
	instance_id    text      NOT NULL,
	definition_key text      NOT NULL,
	name           text      NOT NULL,
	text_value     text,
	create_time    text      NOT NULL,
	doc            bytea     NOT NULL
);
CREATE INDEX engine_hist_variables_instance ON engine_hist_variables (instance_id);
CREATE INDEX engine_hist_variables_key ON engine_hist_variables (definition_key);
CREATE INDEX engine_hist_variables_value ON engine_hist_variables (name, text_value, instance_id);

CREATE TABLE engine_hist_decisions (
	seq            bigserial NOT NULL UNIQUE,
	id             text      PRIMARY KEY,
	instance_id    text      NOT NULL,
	definition_key text      NOT NULL,
	doc            bytea     NOT NULL
);
CREATE INDEX engine_hist_decisions_instance ON engine_hist_decisions (instance_id);
CREATE INDEX engine_hist_decisions_key ON engine_hist_decisions (definition_key);

-- engine_expect_one fails its statement unless a versioned write touched
-- exactly one row. Commit sends a step as one batch, which PostgreSQL
-- runs as one implicit transaction: the error rolls all of it back, so
-- the optimistic lock costs no extra round trip.
CREATE FUNCTION engine_expect_one(n bigint) RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN
	IF n <> 1 THEN
		RAISE EXCEPTION 'regelkit: stale version' USING ERRCODE = 'RK409';
	END IF;
	RETURN n;
END
$$;
