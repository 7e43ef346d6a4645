-- Leads (issue 4): an application for a product, before it becomes a policy. The statuses a lead
-- can be in and the moves between them are the tenant's own rows (spec: "read from the server"),
-- so that a tenant can differ; the rules table is keyed by entity type so that claim statuses can
-- use it later. Every saved change of a lead writes a lead version with a snapshot of the lead.
-- Every row carries tenant_id so that every query is scoped by the caller's token.

CREATE TABLE lead_statuses (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  code text NOT NULL UNIQUE,
  slug text NOT NULL,
  name text NOT NULL,
  "order" integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  updated_by text NOT NULL DEFAULT 'system',
  UNIQUE (tenant_id, slug)
);

CREATE TABLE status_transition_rules (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  entity_type text NOT NULL,
  from_status text NOT NULL,
  to_status text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  updated_by text NOT NULL DEFAULT 'system',
  UNIQUE (tenant_id, entity_type, from_status, to_status)
);

CREATE TABLE leads (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  code text NOT NULL UNIQUE,
  lead_number text NOT NULL,
  status text NOT NULL,
  account_code text,
  product_id integer NOT NULL REFERENCES products(id),
  product_version_id integer NOT NULL REFERENCES product_versions(id),
  -- A create-policy body: {productVersionId, accountCode, holder, policyObjects, premiumOverride}.
  policy jsonb NOT NULL,
  bank_account jsonb,
  payment_method jsonb,
  custom_data jsonb,
  premium_override jsonb,
  -- The premium of the policy data, computed when it was saved (a non-draft tariff never changes).
  premium jsonb NOT NULL,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  updated_by text NOT NULL DEFAULT 'system'
);
CREATE UNIQUE INDEX leads_tenant_number_idx ON leads (tenant_id, lead_number);
CREATE INDEX leads_tenant_id_idx ON leads (tenant_id, id);
CREATE INDEX leads_tenant_status_idx ON leads (tenant_id, status, id);
CREATE INDEX leads_tenant_account_idx ON leads (tenant_id, account_code, id);
CREATE INDEX leads_tenant_product_idx ON leads (tenant_id, product_id, id);

CREATE TABLE lead_versions (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  lead_id integer NOT NULL REFERENCES leads(id) ON DELETE CASCADE,
  version integer NOT NULL,
  status text NOT NULL,
  -- Which parts of the lead this save changed (status, policy, paymentMethod, ...).
  changed_fields text[] NOT NULL DEFAULT '{}',
  snapshot jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  UNIQUE (lead_id, version)
);
