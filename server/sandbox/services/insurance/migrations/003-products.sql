-- Insurance products (issue 4, first slice): products, their versions, the insured objects of a
-- version, the typed fields of an insured object and the premium formulas of a version. Every row
-- carries tenant_id so that every query is scoped by the caller's token, even through a child id.

CREATE TABLE products (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  code text NOT NULL UNIQUE,
  name text NOT NULL,
  slug text NOT NULL,
  category text NOT NULL,
  default_language text NOT NULL DEFAULT 'de',
  contract_duration_days integer NOT NULL DEFAULT 365,
  insured_object_types jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  updated_by text NOT NULL DEFAULT 'system'
);
CREATE UNIQUE INDEX products_tenant_slug_idx ON products (tenant_id, slug);
CREATE INDEX products_tenant_name_idx ON products (tenant_id, lower(name), id);

CREATE TABLE product_versions (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  code text NOT NULL UNIQUE,
  product_id integer NOT NULL REFERENCES products(id) ON DELETE CASCADE,
  version integer NOT NULL,
  description text NOT NULL DEFAULT '',
  status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'active', 'passive', 'archived')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  updated_by text NOT NULL DEFAULT 'system',
  UNIQUE (product_id, version)
);
CREATE INDEX product_versions_tenant_idx ON product_versions (tenant_id, product_id);

CREATE TABLE insured_objects (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  code text NOT NULL UNIQUE,
  product_version_id integer NOT NULL REFERENCES product_versions(id) ON DELETE CASCADE,
  name text NOT NULL,
  label text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  updated_by text NOT NULL DEFAULT 'system',
  UNIQUE (product_version_id, name)
);

CREATE TABLE product_fields (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  code text NOT NULL UNIQUE,
  insured_object_id integer NOT NULL REFERENCES insured_objects(id) ON DELETE CASCADE,
  name text NOT NULL,
  label text NOT NULL,
  type text NOT NULL CHECK (type IN ('number', 'boolean', 'string', 'date')),
  kind text,
  is_required boolean NOT NULL DEFAULT false,
  minimum double precision,
  maximum double precision,
  default_value jsonb,
  "order" integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  updated_by text NOT NULL DEFAULT 'system',
  UNIQUE (insured_object_id, name)
);

CREATE TABLE premium_formulas (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  code text NOT NULL UNIQUE,
  product_version_id integer NOT NULL REFERENCES product_versions(id) ON DELETE CASCADE,
  "group" text NOT NULL,
  name text NOT NULL,
  expression text NOT NULL,
  type text NOT NULL DEFAULT 'time',
  unit text NOT NULL CHECK (unit IN ('day', 'week', 'month', 'quarter', 'year', 'oneTimePayment')),
  item_type text,
  variable_name text,
  "order" integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  updated_by text NOT NULL DEFAULT 'system'
);
CREATE INDEX premium_formulas_version_idx ON premium_formulas (product_version_id, "order");
