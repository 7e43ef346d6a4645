-- Saved list views (issue 4, "beyond the anchors"): a user's named filters of a list, kept on the
-- server so they follow the user to any browser, and optionally shared with the whole workspace.
CREATE TABLE list_views (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  code text NOT NULL UNIQUE,
  owner_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  list text NOT NULL,
  name text NOT NULL,
  query text NOT NULL,
  shared boolean NOT NULL DEFAULT false,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL,
  updated_by text NOT NULL
);
-- One name per owner and list, whatever the case: two views both called "Open" would be ambiguous.
CREATE UNIQUE INDEX list_views_owner_name ON list_views (tenant_id, owner_id, list, lower(name));
CREATE INDEX list_views_tenant_list ON list_views (tenant_id, list);
