-- 0009_cosmetics (PostgreSQL): as migrations/0009_cosmetics.sql.
ALTER TABLE users ADD COLUMN board_theme TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN piece_set   TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN frame       TEXT NOT NULL DEFAULT '';

CREATE TABLE user_items (
    user_id    BIGINT NOT NULL REFERENCES users (id),
    item       TEXT   NOT NULL CHECK (length(item) BETWEEN 1 AND 64),
    reason     TEXT   NOT NULL CHECK (length(reason) BETWEEN 1 AND 200),
    granted_at TEXT   NOT NULL,
    PRIMARY KEY (user_id, item)
);
