-- Claim controls (issue 15): the audit of cover overrides, cancelling a claim instead of deleting
-- it, the payment authority limit of each role, and payments waiting for a second person.

-- A claim cancelled with a reason is closed for good; its settlements stay.
ALTER TABLE claims ADD COLUMN cancel_reason text;
ALTER TABLE claims ADD COLUMN cancelled_by text;
ALTER TABLE claims ADD COLUMN cancelled_at timestamptz;

-- Each time a claim was registered or edited although the cover check refused it: the refusal
-- codes overridden, who, when and why. Kept with the claim (a claim without money may still be
-- deleted, and its overrides with it).
CREATE TABLE claim_cover_overrides (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  claim_id integer NOT NULL REFERENCES claims(id) ON DELETE CASCADE,
  codes text[] NOT NULL,
  reason text NOT NULL,
  overridden_by text NOT NULL,
  overridden_at timestamptz NOT NULL
);
CREATE INDEX claim_cover_overrides_claim_idx ON claim_cover_overrides (tenant_id, claim_id, id);

-- The most a holder of the role may pay out in one step without a second person, in cents. A
-- user's limit is the highest of their roles'; a role without a row has none (0).
CREATE TABLE claim_payment_limits (
  role_id integer PRIMARY KEY REFERENCES roles(id) ON DELETE CASCADE,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  limit_cents bigint NOT NULL CHECK (limit_cents >= 0)
);

-- A raise of a settlement's payment above its requester's limit: `payment` is the total it sets
-- once approved. Decided rows stay as the audit of the four-eyes step; at most one is pending.
CREATE TABLE settlement_payment_requests (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  settlement_id integer NOT NULL REFERENCES settlements(id) ON DELETE CASCADE,
  payment bigint NOT NULL CHECK (payment >= 0),
  status text NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
  requested_by text NOT NULL,
  requested_at timestamptz NOT NULL,
  decided_by text,
  decided_at timestamptz
);
CREATE UNIQUE INDEX settlement_payment_requests_pending_idx
  ON settlement_payment_requests (settlement_id) WHERE status = 'pending';
