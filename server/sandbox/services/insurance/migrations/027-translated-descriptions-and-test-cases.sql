-- Issue 15 point 2 and issue 16, one migration for the two (numbers are handed out one a change):
--
-- A product version's stored test case: per insured object (by name), the field values the trial
-- calculation at activation uses instead of the field defaults. One row a version at most; a
-- version without one is tried with the defaults, as before.
CREATE TABLE product_version_test_cases (
  tenant_id integer NOT NULL REFERENCES tenants(id),
  product_version_id integer PRIMARY KEY REFERENCES product_versions(id) ON DELETE CASCADE,
  objects jsonb NOT NULL DEFAULT '{}',
  version integer NOT NULL DEFAULT 1,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text NOT NULL DEFAULT 'system'
);

-- A role's description per language ({"de": …, "en": …, "pl": …}); `description` stays the text
-- shown where a language has none. The tenant service's table, altered here after it exists.
ALTER TABLE roles ADD COLUMN description_labels jsonb NOT NULL DEFAULT '{}';
