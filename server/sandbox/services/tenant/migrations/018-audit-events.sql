-- One audit trail for every service (issue 15, point 12): who (by name, as the name was at the
-- time), when (the sandbox's clock) and what changed (field, before, after) for policies, claims,
-- leads, customers, product versions and users. Rows are written in the transaction of the change
-- they describe and never updated or deleted.
CREATE TABLE audit_events (
  id bigserial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  -- policy, claim, lead, account, partner, product_version, user
  entity_type text NOT NULL,
  -- The record's code (`acc_…`, `clm_…`): stable, and what the read routes are addressed by.
  entity_id text NOT NULL,
  actor_id integer,
  -- Kept with the event: a user renamed or removed later still reads as who it was.
  actor_name text NOT NULL,
  at timestamptz NOT NULL,
  action text NOT NULL,
  changes jsonb NOT NULL DEFAULT '[]'::jsonb
);
CREATE INDEX audit_events_entity_idx ON audit_events (tenant_id, entity_type, entity_id, at DESC, id DESC);
