-- Optimistic versioning of the tenant's general settings and branding (issue 13, section 4): two
-- admins saving the same settings tab must not overwrite each other unseen. A save sends the
-- version it was based on; a stale one is refused 409 with the record as saved now. Who saved it
-- last is shown in the conflict; rows saved before this column existed were saved by 'system'.
ALTER TABLE general_settings
  ADD COLUMN version integer NOT NULL DEFAULT 1,
  ADD COLUMN updated_by text NOT NULL DEFAULT 'system';

ALTER TABLE branding
  ADD COLUMN version integer NOT NULL DEFAULT 1,
  ADD COLUMN updated_by text NOT NULL DEFAULT 'system';
