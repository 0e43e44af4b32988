-- 0007_tournaments (PostgreSQL): as migrations/0007_tournaments.sql.
CREATE INDEX games_tournament ON games (ended_at) WHERE kind = 'lounge' AND status = 'finished';

CREATE TABLE tournament_periods (
    kind     TEXT NOT NULL CHECK (kind IN ('daily', 'weekly')),
    period   TEXT NOT NULL CHECK (length(period) = 10),
    start_at TEXT NOT NULL,
    end_at   TEXT NOT NULL CHECK (end_at > start_at),
    paid_at  TEXT NOT NULL,
    PRIMARY KEY (kind, period)
);

CREATE TABLE tournament_prizes (
    kind            TEXT    NOT NULL,
    period          TEXT    NOT NULL,
    user_id         BIGINT  NOT NULL REFERENCES users (id),
    place           INTEGER NOT NULL CHECK (place >= 1),
    points          INTEGER NOT NULL CHECK (points >= 0),
    games           INTEGER NOT NULL CHECK (games >= 0),
    wins            INTEGER NOT NULL CHECK (wins >= 0),
    chips           BIGINT  NOT NULL CHECK (chips >= 0),
    item            TEXT    NOT NULL DEFAULT '',
    item_granted_at TEXT,
    PRIMARY KEY (kind, period, user_id),
    FOREIGN KEY (kind, period) REFERENCES tournament_periods (kind, period)
);

CREATE INDEX tournament_prizes_user ON tournament_prizes (user_id);
CREATE INDEX tournament_prizes_item_pending ON tournament_prizes (user_id) WHERE item <> '' AND item_granted_at IS NULL;
