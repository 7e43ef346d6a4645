-- Translations of tenant-defined names (issue 15 point 16): the claim and lead statuses and the
-- claim partner roles get the texts the tenant gives them per language ({"de": …, "en": …,
-- "pl": …}); `name` stays the key and the text shown where a language has none. NULL means never
-- labelled: the seed gives the default ones their labels then (a data directory seeded before this
-- migration too), while an admin's edit always stores an object, so it is never overwritten.
-- lead_statuses belongs to the insurance service; it is altered here, with the claim service's
-- tables, so that the one change is one migration (the claim service runs after insurance).

ALTER TABLE claim_statuses ADD COLUMN labels jsonb;
ALTER TABLE claim_partner_roles ADD COLUMN labels jsonb;
ALTER TABLE lead_statuses ADD COLUMN labels jsonb;

-- A role's labels are edited like a status's: who and when, as on every other row.
ALTER TABLE claim_partner_roles
  ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now(),
  ADD COLUMN updated_by text NOT NULL DEFAULT 'system';
