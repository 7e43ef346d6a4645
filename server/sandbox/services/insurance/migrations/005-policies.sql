-- Policies (issue 4): a policy, its versions (each edit of a policy is a new version; one is
-- current, a draft is kept apart), the timeslices of a version (a period with its premium) and the
-- policy objects of a timeslice (the data of one insured object). Every row carries tenant_id so
-- that every query is scoped by the caller's token, even through a child id.

CREATE TABLE policies (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  code text NOT NULL UNIQUE,
  policy_number text NOT NULL,
  product_id integer NOT NULL REFERENCES products(id),
  product_version_id integer NOT NULL REFERENCES product_versions(id),
  account_code text,
  holder jsonb,
  status text NOT NULL CHECK (status IN ('ACTIVE', 'WITHDRAWN', 'TERMINATED', 'SUSPENDED')),
  -- NULL when not given: the answer then falls back to created_at (spec section 3).
  policy_start_date timestamptz,
  lead_code text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  updated_by text NOT NULL DEFAULT 'system'
);
CREATE UNIQUE INDEX policies_tenant_number_idx ON policies (tenant_id, policy_number);
-- Keyset pagination walks (tenant_id, id); the filtered lists walk their own (filter, id) index.
CREATE INDEX policies_tenant_id_idx ON policies (tenant_id, id);
CREATE INDEX policies_tenant_status_idx ON policies (tenant_id, status, id);
CREATE INDEX policies_tenant_account_idx ON policies (tenant_id, account_code, id);
CREATE INDEX policies_tenant_product_idx ON policies (tenant_id, product_id, id);

CREATE TABLE policy_versions (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  policy_id integer NOT NULL REFERENCES policies(id) ON DELETE CASCADE,
  version_number integer NOT NULL,
  is_current boolean NOT NULL DEFAULT false,
  is_draft boolean NOT NULL DEFAULT false,
  revision_status text NOT NULL DEFAULT 'applied'
    CHECK (revision_status IN ('applied', 'superseded', 'draft')),
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  updated_by text NOT NULL DEFAULT 'system',
  UNIQUE (policy_id, version_number)
);
-- At most one current version and one draft per policy.
CREATE UNIQUE INDEX policy_versions_current_idx ON policy_versions (policy_id) WHERE is_current;
CREATE UNIQUE INDEX policy_versions_draft_idx ON policy_versions (policy_id) WHERE is_draft;

CREATE TABLE timeslices (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  policy_version_id integer NOT NULL REFERENCES policy_versions(id) ON DELETE CASCADE,
  "from" timestamptz NOT NULL,
  "to" timestamptz,
  premium jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  updated_by text NOT NULL DEFAULT 'system'
);
CREATE INDEX timeslices_version_idx ON timeslices (policy_version_id, "from");

CREATE TABLE policy_objects (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  code text NOT NULL UNIQUE,
  timeslice_id integer NOT NULL REFERENCES timeslices(id) ON DELETE CASCADE,
  policy_code text NOT NULL,
  -- The insured object of the product version; kept by value too, so that a policy still reads
  -- after its product version's objects changed.
  insured_object_id integer,
  insured_object_name text NOT NULL,
  insured_object_label text NOT NULL,
  data jsonb NOT NULL DEFAULT '{}',
  summary text NOT NULL DEFAULT '',
  "order" integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  updated_by text NOT NULL DEFAULT 'system'
);
CREATE INDEX policy_objects_timeslice_idx ON policy_objects (timeslice_id, "order");
