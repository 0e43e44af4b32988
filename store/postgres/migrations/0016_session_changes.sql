-- 0016_session_changes (PostgreSQL): as migrations/0016_session_changes.sql.
CREATE TABLE session_changes (
    user_id    BIGINT NOT NULL,
    changed_at TEXT   NOT NULL
);

CREATE INDEX session_changes_at ON session_changes (changed_at);
