-- Docx templates of a workspace (issue 19, decision 019): Word files with docxtemplater tags,
-- their bytes in the object store under a key the service made, checked once the upload arrived
-- and filled with a record's facts. Removed ones are kept (deleted_at), as is a refused upload
-- with its problems, so that reading it says why it is gone.

CREATE TABLE docx_templates (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  code text NOT NULL UNIQUE,
  name text NOT NULL,
  filename text NOT NULL,
  -- The record kind it is filled with: its variables are that document kind's (policy, ...).
  entity_type text NOT NULL CHECK (entity_type IN ('policy', 'claim', 'invoice')),
  s3_key text NOT NULL UNIQUE,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'ready', 'refused')),
  -- The tags the file uses (ready), or the problems it was refused for (refused).
  tags jsonb NOT NULL DEFAULT '[]',
  problems jsonb,
  size_bytes integer,
  upload_expires_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  created_by text NOT NULL,
  updated_by text NOT NULL,
  deleted_at timestamptz,
  deleted_by text
);
CREATE INDEX docx_templates_tenant_idx ON docx_templates (tenant_id, created_at, id)
  WHERE deleted_at IS NULL;
