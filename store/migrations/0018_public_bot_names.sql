-- 0018_public_bot_names: the name each computer player went by at a
-- public table (account.PublicBotName), kept with the game once it is
-- over, so that a name's profile reads the games played under it and not
-- every public game with a computer (245 ms for 20,000 such games:
-- docs/performance.md, "Years of play"). NULL for a member's seat, a
-- practice or private game's computer, and a game not over yet. The
-- store writes the names as a game ends (finishGame); the games over
-- before this migration get theirs in its transaction, from Go, since
-- SQL cannot compute the name (store/migrate_fill.go).
ALTER TABLE games ADD COLUMN white_bot_name TEXT;
ALTER TABLE games ADD COLUMN black_bot_name TEXT;

CREATE INDEX games_white_bot_name ON games (white_bot_name, ended_at) WHERE white_bot_name IS NOT NULL;
CREATE INDEX games_black_bot_name ON games (black_bot_name, ended_at) WHERE black_bot_name IS NOT NULL;
