-- 0002_sessions (PostgreSQL): log-in sessions, as migrations/0002_sessions.sql.
CREATE TABLE sessions (
    token_hash BYTEA  NOT NULL PRIMARY KEY CHECK (length(token_hash) = 32),
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TEXT   NOT NULL,
    expires_at TEXT   NOT NULL
);

CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expires ON sessions (expires_at);
