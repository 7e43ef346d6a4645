-- Claims (issue 5): the claim service's claims on policies, the tenant's claim statuses (their
-- moves go into status_transition_rules with entity type 'claim'), the roles a partner can have
-- on a claim, the partners linked to a claim, and the settlements of a claim (amounts in cents).
-- Every row carries tenant_id so that every query is scoped by the caller's token.

CREATE TABLE claim_statuses (
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

CREATE TABLE claim_partner_roles (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  code text NOT NULL UNIQUE,
  slug text NOT NULL,
  name text NOT NULL,
  "order" integer NOT NULL,
  UNIQUE (tenant_id, slug)
);

-- One row per tenant, taken with a row lock by the upsert, so that concurrent creations never
-- share a number. The seed sets it to the number of claims it gave.
CREATE TABLE claim_number_counters (
  tenant_id integer PRIMARY KEY REFERENCES tenants(id),
  last_number integer NOT NULL
);

CREATE TABLE claims (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  code text NOT NULL UNIQUE,
  claim_number text NOT NULL,
  title text NOT NULL,
  description text NOT NULL DEFAULT '',
  -- Copied from the policy when the claim is made (a claim never moves to another policy), so
  -- that the list filters and searches them without a join.
  policy_code text NOT NULL,
  policy_number text NOT NULL,
  account_code text,
  product_id integer NOT NULL REFERENCES products(id),
  status text NOT NULL,
  damage_date date NOT NULL,
  notification_date date NOT NULL,
  claim_type text NOT NULL CHECK (claim_type IN ('damage', 'theft', 'liability', 'health', 'other')),
  custom_fields jsonb NOT NULL DEFAULT '{}',
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  updated_by text NOT NULL DEFAULT 'system'
);
CREATE UNIQUE INDEX claims_tenant_number_idx ON claims (tenant_id, claim_number);
-- The default order (newest first) and each filter walk their own (…, id) index.
CREATE INDEX claims_tenant_created_idx ON claims (tenant_id, created_at, id);
CREATE INDEX claims_tenant_status_idx ON claims (tenant_id, status, id);
CREATE INDEX claims_tenant_policy_idx ON claims (tenant_id, policy_code, id);
CREATE INDEX claims_tenant_account_idx ON claims (tenant_id, account_code, id);
CREATE INDEX claims_tenant_product_idx ON claims (tenant_id, product_id, id);
CREATE INDEX claims_tenant_type_idx ON claims (tenant_id, claim_type, id);
CREATE INDEX claims_tenant_damage_idx ON claims (tenant_id, damage_date, id);

CREATE TABLE claim_partners (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  claim_id integer NOT NULL REFERENCES claims(id) ON DELETE CASCADE,
  partner_id integer NOT NULL REFERENCES partners(id) ON DELETE CASCADE,
  claim_partner_role_id integer NOT NULL REFERENCES claim_partner_roles(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  updated_by text NOT NULL DEFAULT 'system',
  -- The same partner twice in the same role is one link (409 duplicate).
  UNIQUE (claim_id, partner_id, claim_partner_role_id)
);
CREATE INDEX claim_partners_tenant_claim_idx ON claim_partners (tenant_id, claim_id, id);

CREATE TABLE settlements (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  code text NOT NULL UNIQUE,
  claim_id integer NOT NULL REFERENCES claims(id) ON DELETE CASCADE,
  -- The name of a policy object of the claim's policy (its current version when written).
  insured_object text NOT NULL,
  -- Cents, up to 10^10: beyond integer.
  reserve bigint NOT NULL CHECK (reserve >= 0),
  payment bigint NOT NULL CHECK (payment >= 0),
  recourse bigint NOT NULL CHECK (recourse >= 0),
  currency text NOT NULL,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  updated_by text NOT NULL DEFAULT 'system'
);
CREATE INDEX settlements_tenant_claim_idx ON settlements (tenant_id, claim_id, id);
