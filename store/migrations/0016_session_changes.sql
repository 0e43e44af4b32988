-- 0016_session_changes: one row for each change to what a member's
-- sessions read (a log-out, the profile, the sound, the look, a flag),
-- written in the change's own transaction. Every server's cache of
-- sessions (store/session_cache.go) reads the rows of the last half
-- minute each second and forgets those members' sessions, so that a
-- change made by another process (`satranc admin`, another node) shows
-- within a second or so. Rows an hour old are deleted as sessions are
-- created.
CREATE TABLE session_changes (
    user_id    INTEGER NOT NULL,
    changed_at TEXT    NOT NULL
) STRICT;

CREATE INDEX session_changes_at ON session_changes (changed_at);
