-- Customer accounts (accountservice) and partners (partnerservice). Every row carries tenant_id so
-- that every query is scoped by the caller's token. `version` counts the edits of a row: an update
-- names the version it was based on and a stale one is refused, so no edit silently overwrites
-- another.

CREATE TABLE accounts (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  code text NOT NULL UNIQUE,
  account_number text NOT NULL,
  type text NOT NULL CHECK (type IN ('person', 'org')),
  title text NOT NULL DEFAULT '',
  first_name text NOT NULL DEFAULT '',
  last_name text NOT NULL DEFAULT '',
  company_name text,
  email text NOT NULL DEFAULT '',
  gender text NOT NULL DEFAULT 'unspecified' CHECK (gender IN ('male', 'female', 'unspecified')),
  street text NOT NULL DEFAULT '',
  house_number text NOT NULL DEFAULT '',
  zip_code text NOT NULL DEFAULT '',
  city text NOT NULL DEFAULT '',
  birth_date date,
  phone text,
  broker_code text,
  custom_fields jsonb NOT NULL DEFAULT '{}',
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  updated_by text NOT NULL DEFAULT 'system'
);
CREATE UNIQUE INDEX accounts_tenant_number_idx ON accounts (tenant_id, account_number);
CREATE INDEX accounts_tenant_last_name_idx ON accounts (tenant_id, lower(last_name), id);

CREATE TABLE partner_types (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  code text NOT NULL UNIQUE,
  name text NOT NULL,
  slug text NOT NULL CHECK (slug IN ('person', 'organization'))
);
CREATE UNIQUE INDEX partner_types_tenant_slug_idx ON partner_types (tenant_id, slug);

CREATE TABLE partner_tags (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  code text NOT NULL UNIQUE,
  slug text NOT NULL,
  label text NOT NULL,
  description text NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX partner_tags_tenant_slug_idx ON partner_tags (tenant_id, slug);

CREATE TABLE partners (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  code text NOT NULL UNIQUE,
  display_name text NOT NULL,
  partner_type_id integer NOT NULL REFERENCES partner_types(id),
  partner_number text NOT NULL,
  account_code text,
  custom_fields jsonb NOT NULL DEFAULT '{}',
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  updated_by text NOT NULL DEFAULT 'system'
);
CREATE INDEX partners_tenant_name_idx ON partners (tenant_id, lower(display_name), id);

CREATE TABLE partner_tag_links (
  tenant_id integer NOT NULL REFERENCES tenants(id),
  partner_id integer NOT NULL REFERENCES partners(id) ON DELETE CASCADE,
  tag_id integer NOT NULL REFERENCES partner_tags(id) ON DELETE CASCADE,
  PRIMARY KEY (partner_id, tag_id)
);
CREATE INDEX partner_tag_links_tag_idx ON partner_tag_links (tag_id);
