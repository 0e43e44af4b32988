-- 0018_public_bot_names (PostgreSQL): as migrations/0018_public_bot_names.sql.
ALTER TABLE games ADD COLUMN white_bot_name TEXT;
ALTER TABLE games ADD COLUMN black_bot_name TEXT;

CREATE INDEX games_white_bot_name ON games (white_bot_name, ended_at) WHERE white_bot_name IS NOT NULL;
CREATE INDEX games_black_bot_name ON games (black_bot_name, ended_at) WHERE black_bot_name IS NOT NULL;
