-- Tenant administration and onboarding: organisations, invitations, custom schemas, per-user
-- settings, password resets and the outbox of e-mails the sandbox would send. Every row carries
-- tenant_id so that every query can be scoped by the caller's token. Tokens are stored only as
-- SHA-256 hashes: a leaked database must not hand out working links.

CREATE TABLE organizations (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  code text NOT NULL UNIQUE,
  parent_id integer REFERENCES organizations(id) ON DELETE SET NULL,
  name text NOT NULL,
  email text NOT NULL DEFAULT '',
  street text NOT NULL,
  house_number text NOT NULL,
  zip_code text NOT NULL,
  city text NOT NULL,
  country text NOT NULL,
  custom_fields jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  updated_by text NOT NULL DEFAULT 'system'
);
CREATE UNIQUE INDEX organizations_tenant_name_idx ON organizations (tenant_id, lower(name));

-- A user's organisation is per workspace, like the roles.
ALTER TABLE tenant_users ADD COLUMN organization_id integer REFERENCES organizations(id) ON DELETE SET NULL;

-- Access tokens issued before this instant are refused (password reset ends every session).
ALTER TABLE users ADD COLUMN tokens_valid_after timestamptz;
-- Address and custom fields entered at registration.
ALTER TABLE users ADD COLUMN profile jsonb NOT NULL DEFAULT '{}';

CREATE TABLE invites (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  code text NOT NULL UNIQUE,
  email text NOT NULL,
  organization_id integer REFERENCES organizations(id) ON DELETE SET NULL,
  token_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  metadata jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  updated_by text NOT NULL DEFAULT 'system'
);
CREATE INDEX invites_tenant_idx ON invites (tenant_id, lower(email));

CREATE TABLE invite_roles (
  tenant_id integer NOT NULL REFERENCES tenants(id),
  invite_id integer NOT NULL REFERENCES invites(id) ON DELETE CASCADE,
  role_id integer NOT NULL REFERENCES roles(id) ON DELETE CASCADE,
  PRIMARY KEY (invite_id, role_id)
);

CREATE TABLE organization_invitations (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  code text NOT NULL UNIQUE,
  email text NOT NULL,
  name text NOT NULL,
  slug text NOT NULL,
  parent_organization_id integer REFERENCES organizations(id) ON DELETE SET NULL,
  street text NOT NULL DEFAULT '',
  house_number text NOT NULL DEFAULT '',
  zip_code text NOT NULL DEFAULT '',
  city text NOT NULL DEFAULT '',
  country text NOT NULL DEFAULT '',
  custom_fields jsonb NOT NULL DEFAULT '{}',
  offer_sso boolean NOT NULL DEFAULT false,
  token_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  organization_id integer REFERENCES organizations(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  updated_by text NOT NULL DEFAULT 'system'
);
CREATE INDEX organization_invitations_tenant_idx ON organization_invitations (tenant_id);

CREATE TABLE organization_invitation_roles (
  tenant_id integer NOT NULL REFERENCES tenants(id),
  invitation_id integer NOT NULL REFERENCES organization_invitations(id) ON DELETE CASCADE,
  role_id integer NOT NULL REFERENCES roles(id) ON DELETE CASCADE,
  PRIMARY KEY (invitation_id, role_id)
);

CREATE TABLE custom_schemas (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  code text NOT NULL,
  product_code text,
  entity text NOT NULL CHECK (entity IN ('account', 'claim', 'invoice', 'payment', 'organization')),
  fields jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  updated_by text NOT NULL DEFAULT 'system',
  UNIQUE (tenant_id, code)
);

CREATE TABLE user_settings (
  tenant_id integer NOT NULL REFERENCES tenants(id),
  user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  key text NOT NULL,
  value jsonb,
  is_sensitive boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, user_id, key)
);

CREATE TABLE password_reset_tokens (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE outbox_emails (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  to_email text NOT NULL,
  subject text NOT NULL,
  text text NOT NULL,
  link text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX outbox_emails_to_idx ON outbox_emails (lower(to_email), id DESC);
