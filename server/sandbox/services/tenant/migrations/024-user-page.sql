-- The user page (issue 16): a version for edits of a user's name and e-mail (optimistic
-- concurrency, as every other edited record), and sign-in sessions an administrator can list and
-- end (docs/decisions/007-user-sessions.md).
ALTER TABLE users ADD COLUMN version integer NOT NULL DEFAULT 1;

-- One row per sign-in; the refresh tokens it rotates through carry its id, and so do its access
-- tokens (`sid`), which stop working the moment the session ends.
CREATE TABLE auth_sessions (
  id uuid PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id),
  user_id integer NOT NULL REFERENCES users(id),
  started_at timestamptz NOT NULL,
  ended_at timestamptz,
  ended_by text
);
CREATE INDEX auth_sessions_user_idx ON auth_sessions (user_id);
ALTER TABLE refresh_tokens ADD COLUMN session_id uuid REFERENCES auth_sessions(id);
CREATE INDEX refresh_tokens_session_idx ON refresh_tokens (session_id);
