-- 0004_economy: chips, ratings and experience (SPEC sections 5 and 7).
--
-- Chips: the ledger is append-only and double-entry. Each row moves amount
-- chips from one account (debit_kind, debit_id) to another (credit_kind,
-- credit_id), so no row can create or lose a chip (engine/chips). Accounts:
-- 'user' (id = user), 'escrow' (id = game), 'house', 'sink', 'issued'
-- (id 0). balances is the running total of every account, updated in the
-- same transaction as each ledger row; its CHECK refuses any entry that
-- would take a user or an escrow below zero, so a balance never goes
-- negative whatever the code above does. Balances equal the ledger's sums
-- (store tests verify it); the table exists so that a balance is one
-- indexed read instead of a scan.

CREATE TABLE ledger (
    id          INTEGER PRIMARY KEY,
    debit_kind  TEXT    NOT NULL CHECK (debit_kind IN ('user', 'escrow', 'house', 'sink', 'issued')),
    debit_id    INTEGER NOT NULL,
    credit_kind TEXT    NOT NULL CHECK (credit_kind IN ('user', 'escrow', 'house', 'sink', 'issued')),
    credit_id   INTEGER NOT NULL,
    amount      INTEGER NOT NULL CHECK (amount > 0),
    reason      TEXT    NOT NULL CHECK (length(reason) > 0),
    game_id     INTEGER REFERENCES games (id),
    created_at  TEXT    NOT NULL,
    CHECK (debit_kind <> credit_kind OR debit_id <> credit_id)
) STRICT;

CREATE TRIGGER ledger_append_only_update BEFORE UPDATE ON ledger
BEGIN SELECT RAISE(ABORT, 'ledger is append-only'); END;
CREATE TRIGGER ledger_append_only_delete BEFORE DELETE ON ledger
BEGIN SELECT RAISE(ABORT, 'ledger is append-only'); END;

-- Idempotency: a game moves chips between the same two accounts for the
-- same reason at most once (holding twice or settling twice is refused),
-- a user gets one sign-up grant, and one daily bonus per UTC day (the day
-- is the first ten characters of created_at, which is UTC).
CREATE UNIQUE INDEX ledger_game_entry
    ON ledger (game_id, reason, debit_kind, debit_id, credit_kind, credit_id) WHERE game_id IS NOT NULL;
CREATE UNIQUE INDEX ledger_signup ON ledger (credit_id) WHERE reason = 'signup_grant';
CREATE UNIQUE INDEX ledger_daily ON ledger (credit_id, substr(created_at, 1, 10)) WHERE reason = 'daily_bonus';
CREATE INDEX ledger_credit ON ledger (credit_kind, credit_id);
CREATE INDEX ledger_debit ON ledger (debit_kind, debit_id);

CREATE TABLE balances (
    kind    TEXT    NOT NULL CHECK (kind IN ('user', 'escrow', 'house', 'sink', 'issued')),
    id      INTEGER NOT NULL,
    balance INTEGER NOT NULL,
    PRIMARY KEY (kind, id),
    -- Only the sources may go below zero: the issuer (minus all ever
    -- issued) and the house (which covers the bots' stakes).
    CHECK (balance >= 0 OR kind IN ('house', 'issued'))
) STRICT, WITHOUT ROWID;

-- games: stake (0001) holds the lounge's stake per player; unstaked marks
-- a lounge game the same-opponent rule made unstaked (nothing held, no
-- Elo), decided when the game is created so the table can say so before
-- it starts; rated (0001) is set for public games that may change ratings;
-- settled marks a game whose end was settled (chips, Elo, XP), which
-- happens in the transaction that ends it, once.
ALTER TABLE games ADD COLUMN unstaked INTEGER NOT NULL DEFAULT 0 CHECK (unstaked IN (0, 1));
ALTER TABLE games ADD COLUMN settled INTEGER NOT NULL DEFAULT 0 CHECK (settled IN (0, 1));
CREATE INDEX games_lounge_pairs ON games (white_id, black_id, created_at) WHERE kind = 'lounge';

-- users.rating and users.rated_games are in 0001; xp is every finished
-- game's experience (engine/xp).
ALTER TABLE users ADD COLUMN xp INTEGER NOT NULL DEFAULT 0 CHECK (xp >= 0);

-- rating_changes: one row per rated game and human player, for the
-- rating-history chart.
CREATE TABLE rating_changes (
    game_id       INTEGER NOT NULL REFERENCES games (id),
    user_id       INTEGER NOT NULL REFERENCES users (id),
    rating_before INTEGER NOT NULL,
    rating_after  INTEGER NOT NULL,
    created_at    TEXT    NOT NULL,
    PRIMARY KEY (game_id, user_id)
) STRICT;
CREATE INDEX rating_changes_user ON rating_changes (user_id, created_at);
