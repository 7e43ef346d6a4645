-- Static documents and the product information sheet (issue 19; docs/decisions/020).
--
-- A static document (terms and conditions, privacy notice, complaints rules) is a document
-- template of a record-less kind (terms, static, rules, mediation) published under a stable key,
-- its template's slug. Each publication prints the PDF once and keeps it here as a new version;
-- `documents/download-static/{key}` serves the newest, older ones stay (never deleted, not even
-- with their template: the key and what was printed are kept with each row).
CREATE TABLE static_document_versions (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  key text NOT NULL,
  version integer NOT NULL,
  -- The template it was printed from (its code, its saved version then); the template may go.
  template_code text NOT NULL,
  template_version integer NOT NULL,
  kind text NOT NULL,
  title text NOT NULL,
  filename text NOT NULL,
  s3_key text NOT NULL UNIQUE,
  -- NULL until printed: the seed's first publications print on their first download.
  size_bytes integer,
  -- What it is printed from: sources and values of that day (issued-documents.ts' shape).
  issued jsonb NOT NULL,
  published_at timestamptz NOT NULL,
  published_by text NOT NULL,
  published_by_name text NOT NULL,
  UNIQUE (tenant_id, key, version)
);

-- An IPID is a product document of one product version: the Documents section names it.
ALTER TABLE documents ADD COLUMN product_version_id integer;
