-- Documents of the document service (issue 4): metadata of files kept in object storage, owned by
-- an entity (a lead, later a claim, a policy, an invoice). General on purpose: the claims issue
-- adds uploads and downloads to this same table. Every row carries tenant_id.

CREATE TABLE documents (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  code text NOT NULL UNIQUE,
  entity_type text NOT NULL,
  -- The owner's code (lea_..., pol_...), as the back office addresses its records by code.
  entity_id text NOT NULL,
  policy_code text,
  lead_code text,
  description text NOT NULL DEFAULT '',
  content_type text NOT NULL,
  filename text NOT NULL,
  s3_key text NOT NULL,
  requester text NOT NULL DEFAULT 'insuranceservice',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  updated_by text NOT NULL DEFAULT 'system'
);
CREATE INDEX documents_tenant_entity_idx ON documents (tenant_id, entity_type, entity_id, id);
CREATE INDEX documents_tenant_policy_idx ON documents (tenant_id, policy_code, id);
CREATE INDEX documents_tenant_lead_idx ON documents (tenant_id, lead_code, id);
