-- Uploads and downloads of documents (issue 5). The document service signs S3-style uploads and
-- downloads; the sandbox's own object storage keeps the bytes here unless S3_ENDPOINT is set.

-- A document is written when its upload is signed ('pending') and listed once its object is
-- stored ('stored'); pending rows whose signature expired are swept.
ALTER TABLE documents
  ADD COLUMN status text NOT NULL DEFAULT 'stored' CHECK (status IN ('pending', 'stored')),
  ADD COLUMN account_code text,
  ADD COLUMN template_slug text,
  ADD COLUMN size_bytes integer,
  ADD COLUMN upload_expires_at timestamptz;
CREATE UNIQUE INDEX documents_s3_key_idx ON documents (s3_key);
CREATE INDEX documents_tenant_created_idx ON documents (tenant_id, created_at, id);

-- The stand-in object storage: one row per stored object, keyed as S3 keys them.
CREATE TABLE storage_objects (
  bucket text NOT NULL,
  key text NOT NULL,
  content bytea NOT NULL,
  content_type text NOT NULL,
  size_bytes integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (bucket, key)
);

-- Its access key and secret, made once per data directory (like the token signing key).
CREATE TABLE storage_credentials (
  id integer PRIMARY KEY CHECK (id = 1),
  access_key_id text NOT NULL,
  secret text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
