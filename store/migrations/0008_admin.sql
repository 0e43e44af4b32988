-- 0008_admin: administrators, notes on ledger entries and player reports
-- (SPEC section 10, issue 7 "Fair play and administration").

-- users.is_admin: administrators reach the /admin pages. The first account
-- created becomes one (decided in the sign-up transaction); more are named
-- with `satranc admin admin NAME on` or `satranc serve --admin-user NAME`.
ALTER TABLE users ADD COLUMN is_admin INTEGER NOT NULL DEFAULT 0 CHECK (is_admin IN (0, 1));
-- A database made before this migration: its first account becomes the
-- administrator, as it would have been at sign-up.
UPDATE users SET is_admin = 1 WHERE id = (SELECT MIN(id) FROM users);

-- ledger.note: free text kept with an entry, such as why an administrator
-- granted chips. Adding a column rewrites no row, so the append-only
-- triggers are not involved.
ALTER TABLE ledger ADD COLUMN note TEXT NOT NULL DEFAULT '';

-- reports: a player reports the opponent of a game ("report this player").
-- reported_id is NULL when the opponent was a computer player: the table
-- does not tell a player that (SPEC section 6), so the report is taken all
-- the same. One report per reporter and game.
CREATE TABLE reports (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games (id),
    reporter_id INTEGER NOT NULL REFERENCES users (id),
    reported_id INTEGER REFERENCES users (id),
    reason      TEXT    NOT NULL CHECK (length(reason) BETWEEN 1 AND 200),
    created_at  TEXT    NOT NULL,
    UNIQUE (game_id, reporter_id)
) STRICT;
CREATE INDEX reports_created ON reports (created_at);

-- rating_voids: what voiding a game did to each player's rating (the
-- game's own change taken back, see engine/fairplay), so that the
-- rating history shows the step and ends at the current rating.
CREATE TABLE rating_voids (
    game_id       INTEGER NOT NULL REFERENCES games (id),
    user_id       INTEGER NOT NULL REFERENCES users (id),
    rating_before INTEGER NOT NULL,
    rating_after  INTEGER NOT NULL,
    created_at    TEXT    NOT NULL,
    PRIMARY KEY (game_id, user_id)
) STRICT;
CREATE INDEX rating_voids_user ON rating_voids (user_id, created_at);
