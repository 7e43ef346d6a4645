-- The write side of policies (issue 4): how a policy ended, the premium totals agreed by hand,
-- the tenant's policy number counter, and the indexes of the policy-object list and of the
-- version search.

ALTER TABLE policies ADD COLUMN termination_date timestamptz;
ALTER TABLE policies ADD COLUMN termination_reason text;
-- {premiumItems: [{premiumFormulaId, total}]}: applied again whenever the premium is recomputed.
ALTER TABLE policies ADD COLUMN premium_override jsonb;

-- One row per tenant, taken with a row lock, so that concurrent creations never share a number.
-- Created on first use from the highest number already given (the seed numbers without it).
CREATE TABLE policy_number_counters (
  tenant_id integer PRIMARY KEY REFERENCES tenants(id),
  last_number integer NOT NULL
);

-- GET /policies/policy-objects of one policy (the detail screen) walks (tenant_id, policy_code,
-- id). Unfiltered and by insured object it walks the primary key: the tenant's objects are
-- most of the table, and every index slows the bulk inserts of the seed.
CREATE INDEX policy_objects_tenant_policy_idx ON policy_objects (tenant_id, policy_code, id);
