-- Every business row carries tenant_id (or tenant_group_id for group-wide rows) so that each
-- query can be scoped by the caller's token.

CREATE TABLE tenant_groups (
  id serial PRIMARY KEY,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE tenants (
  id serial PRIMARY KEY,
  tenant_group_id integer NOT NULL REFERENCES tenant_groups(id),
  name text NOT NULL,
  slug text NOT NULL UNIQUE,
  is_default boolean NOT NULL DEFAULT false,
  is_disabled boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
  id serial PRIMARY KEY,
  tenant_group_id integer NOT NULL REFERENCES tenant_groups(id),
  -- Home workspace: where a password sign-in lands.
  tenant_id integer NOT NULL REFERENCES tenants(id),
  code text NOT NULL UNIQUE,
  sub uuid NOT NULL UNIQUE,
  email text NOT NULL,
  password_hash text,
  first_name text NOT NULL DEFAULT '',
  last_name text NOT NULL DEFAULT '',
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled', 'invited')),
  must_change_password boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  updated_by text NOT NULL DEFAULT 'system'
);
CREATE UNIQUE INDEX users_group_email_idx ON users (tenant_group_id, lower(email));
CREATE INDEX users_email_idx ON users (lower(email));

-- Which workspaces of its group a user may enter.
CREATE TABLE tenant_users (
  tenant_id integer NOT NULL REFERENCES tenants(id),
  user_id integer NOT NULL REFERENCES users(id),
  PRIMARY KEY (tenant_id, user_id)
);
CREATE INDEX tenant_users_user_idx ON tenant_users (user_id);

CREATE TABLE roles (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  code text NOT NULL,
  label text NOT NULL,
  description text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  updated_by text NOT NULL DEFAULT 'system',
  UNIQUE (tenant_id, code)
);

CREATE TABLE role_permissions (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  role_id integer NOT NULL REFERENCES roles(id) ON DELETE CASCADE,
  permission text NOT NULL,
  UNIQUE (role_id, permission)
);

CREATE TABLE user_roles (
  tenant_id integer NOT NULL REFERENCES tenants(id),
  user_id integer NOT NULL REFERENCES users(id),
  role_id integer NOT NULL REFERENCES roles(id) ON DELETE CASCADE,
  PRIMARY KEY (tenant_id, user_id, role_id)
);

CREATE TABLE refresh_tokens (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  user_id integer NOT NULL REFERENCES users(id),
  token_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX refresh_tokens_user_idx ON refresh_tokens (user_id);

CREATE TABLE one_time_codes (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  user_id integer NOT NULL REFERENCES users(id),
  kind text NOT NULL CHECK (kind IN ('saml', 'password_change')),
  code_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE settings (
  tenant_id integer NOT NULL REFERENCES tenants(id),
  key text NOT NULL,
  value jsonb,
  is_sensitive boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text NOT NULL DEFAULT 'system',
  PRIMARY KEY (tenant_id, key)
);

CREATE TABLE general_settings (
  tenant_id integer PRIMARY KEY REFERENCES tenants(id),
  time_zone text NOT NULL,
  language text NOT NULL,
  currency text NOT NULL,
  format_hours text NOT NULL,
  format_dates text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE branding (
  tenant_id integer PRIMARY KEY REFERENCES tenants(id),
  name text NOT NULL,
  address text,
  logo text,
  main_color text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE signing_keys (
  id integer PRIMARY KEY CHECK (id = 1),
  secret text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
