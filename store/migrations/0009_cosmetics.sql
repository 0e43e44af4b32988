-- 0009_cosmetics: board themes, piece sets and profile frames (SPEC
-- section 9; engine/cosmetics). They change appearance only.
--
-- users.board_theme, piece_set and frame are the member's chosen items by
-- ID; '' means the kind's default (engine/cosmetics.Default). The store
-- checks nothing here: the cosmetics service lets a member choose only
-- items they own, and a reader falls back to the default for an ID the
-- catalogue no longer knows.
ALTER TABLE users ADD COLUMN board_theme TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN piece_set   TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN frame       TEXT NOT NULL DEFAULT '';

-- user_items: the items granted to an account (tournament prizes, an
-- administrator's gift). The standard items every account owns are not
-- listed. One row per (user, item): granting an owned item again changes
-- nothing, so a prize paid twice by mistake still gives the item once.
CREATE TABLE user_items (
    user_id    INTEGER NOT NULL REFERENCES users (id),
    item       TEXT    NOT NULL CHECK (length(item) BETWEEN 1 AND 64),
    reason     TEXT    NOT NULL CHECK (length(reason) BETWEEN 1 AND 200),
    granted_at TEXT    NOT NULL,
    PRIMARY KEY (user_id, item)
) STRICT, WITHOUT ROWID;
