-- The rest of product management (issue 4): product factor tables and named ranges of a version
-- (premium lookups), insured objects that keep an edit version and the type they came from,
-- booking funnels with a snapshot per change, and the languages and translations of a product.
-- Every row carries tenant_id, so every query is scoped by the caller's token.

CREATE TABLE product_factors (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  code text NOT NULL UNIQUE,
  product_version_id integer NOT NULL REFERENCES product_versions(id) ON DELETE CASCADE,
  name text NOT NULL,
  key_columns jsonb NOT NULL,
  rows jsonb NOT NULL,
  row_count integer NOT NULL,
  filename text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  updated_by text NOT NULL DEFAULT 'system',
  UNIQUE (product_version_id, name)
);
-- The client's cache check asks for the newest updatedAt of a version's factors.
CREATE INDEX product_factors_newest_idx ON product_factors (product_version_id, updated_at DESC, id DESC);

CREATE TABLE named_ranges (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  code text NOT NULL UNIQUE,
  product_version_id integer NOT NULL REFERENCES product_versions(id) ON DELETE CASCADE,
  name text NOT NULL,
  bands jsonb NOT NULL,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  updated_by text NOT NULL DEFAULT 'system',
  UNIQUE (product_version_id, name)
);

ALTER TABLE insured_objects ADD COLUMN version integer NOT NULL DEFAULT 1;
ALTER TABLE insured_objects ADD COLUMN insured_object_type_id integer;

CREATE TABLE booking_funnels (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  code text NOT NULL UNIQUE,
  product_id integer NOT NULL REFERENCES products(id) ON DELETE CASCADE,
  product_version_id integer REFERENCES product_versions(id) ON DELETE SET NULL,
  name text NOT NULL,
  steps jsonb NOT NULL,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  updated_by text NOT NULL DEFAULT 'system'
);
CREATE INDEX booking_funnels_tenant_idx ON booking_funnels (tenant_id, product_id, id);

CREATE TABLE booking_funnel_versions (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  booking_funnel_id integer NOT NULL REFERENCES booking_funnels(id) ON DELETE CASCADE,
  version integer NOT NULL,
  snapshot jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  UNIQUE (booking_funnel_id, version)
);

CREATE TABLE product_languages (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  code text NOT NULL UNIQUE,
  product_id integer NOT NULL REFERENCES products(id) ON DELETE CASCADE,
  language text NOT NULL,
  is_active boolean NOT NULL DEFAULT false,
  translation_status text NOT NULL DEFAULT 'none'
    CHECK (translation_status IN ('none', 'incomplete', 'complete')),
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  updated_by text NOT NULL DEFAULT 'system',
  UNIQUE (product_id, language)
);

CREATE TABLE translations (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  product_language_id integer NOT NULL REFERENCES product_languages(id) ON DELETE CASCADE,
  key text NOT NULL,
  value text NOT NULL,
  UNIQUE (product_language_id, key)
);
