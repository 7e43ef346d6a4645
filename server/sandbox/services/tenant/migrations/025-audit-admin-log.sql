-- The tenant's activity log (issue 16): administration changes (users, roles, organisations,
-- settings) read across records, newest first, so the log pages by (at, id) within the tenant.
-- The record's name as it was is kept with the event: a deleted role still reads as itself.
ALTER TABLE audit_events ADD COLUMN entity_label text;
CREATE INDEX audit_events_tenant_at_idx ON audit_events (tenant_id, entity_type, at DESC, id DESC);
