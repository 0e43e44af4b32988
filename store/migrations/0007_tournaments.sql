-- 0007_tournaments: the Daily Chess Cup and the Weekly Chess League (SPEC
-- section 7).
--
-- Standings are not stored: they are computed from the games table (public
-- staked lounge games played to the end, not made unstaked, not voided), so
-- a voided game's points go with it. What is stored is each ended period's
-- payout, once.

-- The standings of a period read the finished lounge games by end time.
CREATE INDEX games_tournament ON games (ended_at) WHERE kind = 'lounge' AND status = 'finished';

-- tournament_periods: one row per ended period whose prizes were paid,
-- written in the same transaction as the prizes' ledger entries; its key
-- makes the payout happen exactly once, even when two runs race or the
-- server restarts in between. period is the period's key (the date of its
-- first day in the server's time zone, engine/tourney Period.Key);
-- start_at and end_at are its bounds as stored times.
CREATE TABLE tournament_periods (
    kind     TEXT NOT NULL CHECK (kind IN ('daily', 'weekly')),
    period   TEXT NOT NULL CHECK (length(period) = 10),
    start_at TEXT NOT NULL,
    end_at   TEXT NOT NULL CHECK (end_at > start_at),
    paid_at  TEXT NOT NULL,
    PRIMARY KEY (kind, period)
) STRICT, WITHOUT ROWID;

-- tournament_prizes: the prizes won in a paid period, one row per player
-- who placed: their place, points and games, and the prize (chips, paid
-- through the ledger with reason 'prize' in the same transaction, and a
-- cosmetic item name or ''). item_granted_at is set when the item has been
-- put into the player's inventory (cosmetics, a later migration); NULL
-- while it waits for that.
CREATE TABLE tournament_prizes (
    kind            TEXT    NOT NULL,
    period          TEXT    NOT NULL,
    user_id         INTEGER NOT NULL REFERENCES users (id),
    place           INTEGER NOT NULL CHECK (place >= 1),
    points          INTEGER NOT NULL CHECK (points >= 0),
    games           INTEGER NOT NULL CHECK (games >= 0),
    wins            INTEGER NOT NULL CHECK (wins >= 0),
    chips           INTEGER NOT NULL CHECK (chips >= 0),
    item            TEXT    NOT NULL DEFAULT '',
    item_granted_at TEXT,
    PRIMARY KEY (kind, period, user_id),
    FOREIGN KEY (kind, period) REFERENCES tournament_periods (kind, period)
) STRICT;

CREATE INDEX tournament_prizes_user ON tournament_prizes (user_id);
CREATE INDEX tournament_prizes_item_pending ON tournament_prizes (user_id) WHERE item <> '' AND item_granted_at IS NULL;
