-- 0001_init: accounts, games and their moves.
--
-- Conventions for every migration:
--   * times are UTC text 'YYYY-MM-DDTHH:MM:SS.sssZ' (store.timeLayout), so
--     they sort as text and keep the milliseconds the clocks need;
--   * durations are INTEGER milliseconds;
--   * tables are STRICT, so a wrong type is an error instead of a surprise.

-- users: one row per account. Chips live in a ledger (a later migration),
-- never in a balance column that could drift from it.
CREATE TABLE users (
    id            INTEGER PRIMARY KEY,
    username      TEXT    NOT NULL UNIQUE COLLATE NOCASE
                          CHECK (length(username) BETWEEN 1 AND 32),
    password_hash TEXT    NOT NULL,
    language      TEXT    NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'tr')),
    gender        TEXT    NOT NULL DEFAULT '' CHECK (gender IN ('', 'female', 'male', 'other')),
    vip           INTEGER NOT NULL DEFAULT 0 CHECK (vip IN (0, 1)),
    restricted    INTEGER NOT NULL DEFAULT 0 CHECK (restricted IN (0, 1)),
    rating        INTEGER NOT NULL DEFAULT 1200,
    rated_games   INTEGER NOT NULL DEFAULT 0 CHECK (rated_games >= 0),
    created_at    TEXT    NOT NULL
) STRICT;

-- games: a game is its start position plus its moves (table moves); the
-- current position is rebuilt by replaying them with the rules engine.
-- A seat is either a user (white_id/black_id) or a bot level
-- (white_bot/black_bot), or still empty while the game is waiting.
CREATE TABLE games (
    id           INTEGER PRIMARY KEY,
    kind         TEXT    NOT NULL CHECK (kind IN ('quick', 'lounge', 'private', 'practice')),
    white_id     INTEGER REFERENCES users (id),
    black_id     INTEGER REFERENCES users (id),
    white_bot    TEXT    NOT NULL DEFAULT '' CHECK (white_bot IN ('', 'easy', 'medium', 'hard')),
    black_bot    TEXT    NOT NULL DEFAULT '' CHECK (black_bot IN ('', 'easy', 'medium', 'hard')),
    start_fen    TEXT    NOT NULL,
    initial_ms   INTEGER NOT NULL DEFAULT 0 CHECK (initial_ms >= 0),   -- 0: untimed
    increment_ms INTEGER NOT NULL DEFAULT 0 CHECK (increment_ms >= 0),
    stake        INTEGER NOT NULL DEFAULT 0 CHECK (stake >= 0),        -- chips per player
    rated        INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1)),
    status       TEXT    NOT NULL DEFAULT 'waiting'
                         CHECK (status IN ('waiting', 'active', 'finished', 'aborted')),
    result       TEXT    NOT NULL DEFAULT '*' CHECK (result IN ('*', '1-0', '0-1', '1/2-1/2')),
    termination  TEXT    NOT NULL DEFAULT '',  -- checkmate, resignation, timeout, ...
    created_at   TEXT    NOT NULL,
    started_at   TEXT,
    ended_at     TEXT,
    CHECK (white_id IS NULL OR white_bot = ''),
    CHECK (black_id IS NULL OR black_bot = ''),
    CHECK ((status IN ('finished', 'aborted')) = (ended_at IS NOT NULL))
) STRICT;

-- Restart recovery reloads every unfinished game.
CREATE INDEX games_unfinished ON games (status) WHERE status IN ('waiting', 'active');
CREATE INDEX games_white ON games (white_id, created_at);
CREATE INDEX games_black ON games (black_id, created_at);

-- moves: one row per half-move, in UCI ("e2e4", "e7e8q"). ply 1 is the
-- first move after start_fen. The (game_id, ply) key rejects a replayed or
-- duplicated move. played_at and clock_ms (the mover's remaining time after
-- the move, increment included; NULL when untimed) restore the clocks after
-- a restart.
CREATE TABLE moves (
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply       INTEGER NOT NULL CHECK (ply >= 1),
    uci       TEXT    NOT NULL CHECK (length(uci) IN (4, 5)),
    played_at TEXT    NOT NULL,
    clock_ms  INTEGER CHECK (clock_ms >= 0),
    PRIMARY KEY (game_id, ply)
) STRICT, WITHOUT ROWID;
