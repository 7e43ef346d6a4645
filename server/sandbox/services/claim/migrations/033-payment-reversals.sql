-- Reversals of booked payments (issue 15): an insurer never edits a booked amount, it books a
-- counter-entry of the negative amount with a reason, who and when. A settlement's payment stays
-- what was booked; what counts as paid is the payment plus its reversals (the claim's totals).
CREATE TABLE settlement_payment_reversals (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  settlement_id integer NOT NULL REFERENCES settlements(id) ON DELETE CASCADE,
  amount bigint NOT NULL CHECK (amount < 0),
  reason text NOT NULL,
  reversed_by text NOT NULL,
  reversed_at timestamptz NOT NULL
);
CREATE INDEX settlement_payment_reversals_settlement_idx
  ON settlement_payment_reversals (tenant_id, settlement_id, id);
