-- Document layouts and templates of a workspace (issue 19; docs/contracts.md "Document
-- templates"): Liquid sources printed to PDF by Chromium (decision 018). A layout is the page's
-- frame, its header and footer; a template the body of one kind of document.

CREATE TABLE document_layouts (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  code text NOT NULL UNIQUE,
  name text NOT NULL,
  -- Chromium's header and footer templates, after Liquid: <span class="pageNumber"> and
  -- <span class="totalPages"> are filled in per page.
  header_template text NOT NULL,
  footer_template text NOT NULL,
  -- The workspace's standard layout (seeded), which cannot be deleted.
  is_default boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  created_by text NOT NULL,
  updated_by text NOT NULL,
  UNIQUE (tenant_id, name)
);
CREATE UNIQUE INDEX document_layouts_default_idx ON document_layouts (tenant_id) WHERE is_default;
CREATE INDEX document_layouts_tenant_idx ON document_layouts (tenant_id, created_at, id);

CREATE TABLE doc_templates (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  code text NOT NULL UNIQUE,
  -- The key the sandbox finds a generated document's template by (policy-schedule, ...).
  slug text NOT NULL,
  name text NOT NULL,
  -- The spec's document kinds (policy, invoice, sepa, ipid, ...) and claim: the variables it may use.
  kind text NOT NULL,
  layout_id integer REFERENCES document_layouts(id),
  body_template text NOT NULL,
  is_system boolean NOT NULL DEFAULT false,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  created_by text NOT NULL,
  updated_by text NOT NULL,
  UNIQUE (tenant_id, slug)
);
CREATE INDEX doc_templates_tenant_idx ON doc_templates (tenant_id, id);

-- Every saved state of a template, with who saved it and when.
CREATE TABLE doc_template_versions (
  template_id integer NOT NULL REFERENCES doc_templates(id) ON DELETE CASCADE,
  version integer NOT NULL,
  name text NOT NULL,
  layout_id integer,
  body_template text NOT NULL,
  saved_at timestamptz NOT NULL,
  saved_by text NOT NULL,
  saved_by_name text NOT NULL,
  PRIMARY KEY (template_id, version)
);

-- A document the sandbox issues itself (a policy schedule): what it was rendered from, sources
-- and values, kept as issued, so that its PDF (printed on its first download, then kept in the
-- store) reads as it did that day whatever changes later. NULL for uploaded files.
ALTER TABLE documents ADD COLUMN issued jsonb;
