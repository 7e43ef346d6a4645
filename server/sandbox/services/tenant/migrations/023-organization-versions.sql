-- An organisation's count of saves (issue 16: its custom data is edited after creation): a save
-- sends the version it was based on, and a stale one is refused 409 with the organisation as
-- saved now, as the other edits do. A save without a version (the API's older callers) still
-- moves it.
ALTER TABLE organizations
  ADD COLUMN version integer NOT NULL DEFAULT 1;
