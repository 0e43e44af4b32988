-- 0002_sessions: log-in sessions.
--
-- A session is known by the SHA-256 of its 256-bit random token; the token
-- itself lives only in the browser's cookie, so a copy of the database
-- cannot be used to log in. Expired rows are deleted when new sessions are
-- created; a lookup ignores them in any case.
CREATE TABLE sessions (
    token_hash BLOB    NOT NULL PRIMARY KEY CHECK (length(token_hash) = 32),
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TEXT    NOT NULL,
    expires_at TEXT    NOT NULL
) STRICT, WITHOUT ROWID;

CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expires ON sessions (expires_at);
