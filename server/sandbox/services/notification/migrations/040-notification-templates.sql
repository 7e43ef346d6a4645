-- E-mail layouts and notification templates of a workspace (issue 19). The tenant service
-- depends on this one (its live channel), so these tables come before `tenants` on a fresh
-- database and cannot reference it: every query names the tenant itself.

CREATE TABLE mail_layouts (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL,
  code text NOT NULL UNIQUE,
  name text NOT NULL,
  -- Liquid sources; each places the template's body with {{ content }}.
  html_template text NOT NULL,
  text_template text NOT NULL,
  is_system boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  created_by text NOT NULL,
  updated_by text NOT NULL,
  UNIQUE (tenant_id, name)
);

CREATE TABLE notification_templates (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL,
  code text NOT NULL UNIQUE,
  -- The key the sandbox's own e-mails find their template by (user-invitation, ...).
  slug text NOT NULL,
  name text NOT NULL,
  -- Which variables the template may use (template-variables.ts).
  kind text NOT NULL,
  layout_id integer REFERENCES mail_layouts(id),
  -- {"de": {"subject": "...", "html": "...", "text": "..."}, "en": ..., "pl": ...}
  bodies jsonb NOT NULL,
  is_system boolean NOT NULL DEFAULT false,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  created_by text NOT NULL,
  updated_by text NOT NULL,
  UNIQUE (tenant_id, slug)
);

-- Every saved state of a template, with who saved it and when: the editor's versions.
CREATE TABLE notification_template_versions (
  template_id integer NOT NULL REFERENCES notification_templates(id) ON DELETE CASCADE,
  version integer NOT NULL,
  name text NOT NULL,
  layout_id integer,
  bodies jsonb NOT NULL,
  saved_at timestamptz NOT NULL,
  saved_by text NOT NULL,
  saved_by_name text NOT NULL,
  PRIMARY KEY (template_id, version)
);
