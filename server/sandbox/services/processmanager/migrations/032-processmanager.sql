-- The process manager (issue 17): workflows and their BPMN versions, the instances the engine
-- runs with the engine's saved state, the service events that start them, decision tables.

CREATE TABLE workflows (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  code text NOT NULL UNIQUE,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL,
  updated_by text NOT NULL
);
CREATE INDEX workflows_tenant ON workflows (tenant_id, id);

-- A version is immutable once saved: instances keep running the version they started on.
CREATE TABLE workflow_versions (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  workflow_id integer NOT NULL REFERENCES workflows(id),
  code text NOT NULL UNIQUE,
  version_number integer NOT NULL,
  definition text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL,
  updated_by text NOT NULL,
  UNIQUE (workflow_id, version_number)
);

CREATE TABLE workflow_instances (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  code text NOT NULL UNIQUE,
  workflow_id integer NOT NULL REFERENCES workflows(id),
  workflow_version_id integer NOT NULL REFERENCES workflow_versions(id),
  entity_code text,
  -- active | failed | completed | cancelled (process status in_progress, failed, done, cancelled)
  status text NOT NULL,
  -- bpmn-engine's getState() after the last step that ended well: what a restart or retry resumes.
  engine_state jsonb,
  variables jsonb NOT NULL DEFAULT '{}',
  -- The executed steps with their times, for the monitor's history and executed path.
  history jsonb NOT NULL DEFAULT '[]',
  error jsonb,
  -- When the engine's next timer is due (on the sandbox clock), for the monitor.
  timer_due_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  created_by text NOT NULL,
  updated_by text NOT NULL
);
CREATE INDEX workflow_instances_list ON workflow_instances (tenant_id, created_at, id);
CREATE INDEX workflow_instances_running ON workflow_instances (status) WHERE status = 'active';

-- Which workflow a domain event starts: the latest version of the workflow runs.
CREATE TABLE service_events (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  event_type text NOT NULL,
  workflow_id integer NOT NULL REFERENCES workflows(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL,
  updated_by text NOT NULL,
  UNIQUE (tenant_id, event_type, workflow_id)
);

CREATE TABLE decision_tables (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  code text NOT NULL,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL,
  updated_by text NOT NULL,
  UNIQUE (tenant_id, code)
);

CREATE TABLE decision_table_versions (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  decision_table_id integer NOT NULL REFERENCES decision_tables(id),
  version_number integer NOT NULL,
  definition text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL,
  updated_by text NOT NULL,
  UNIQUE (decision_table_id, version_number)
);

-- Follow-ups a workflow's task put on a lead (the lead service has none of its own yet).
CREATE TABLE lead_follow_ups (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  lead_code text NOT NULL,
  note text NOT NULL,
  due_at timestamptz,
  instance_code text,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL
);
