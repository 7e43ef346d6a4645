-- Optimistic versioning of the remaining settings tabs (chat widget, payment, dashboard and
-- brokers, custom fields), as 013 did for the general settings and branding: a save sends the
-- version it was based on; a stale one is refused 409 with the record as saved now.
--
-- A key/value setting's version is the tenant's settings revision at its last save, not a count
-- of its own saves: a tab of two keys (payment, dashboard) is saved one key per call (the spec's
-- POST /settings/tenant takes one), and its version is the highest of its keys'. With a revision
-- shared by all of the tenant's keys, a save of either key moves that highest one, so a save
-- based on an older version of the tab is told apart from one based on the current.
ALTER TABLE settings
  ADD COLUMN version integer NOT NULL DEFAULT 1;

-- A custom schema's own count of saves; 0 is what a client sends for an entity without one yet.
ALTER TABLE custom_schemas
  ADD COLUMN version integer NOT NULL DEFAULT 1;
