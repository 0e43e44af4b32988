-- 0003_game_play (PostgreSQL): as migrations/0003_game_play.sql.
ALTER TABLE games ADD COLUMN invite_token TEXT;
ALTER TABLE games ADD COLUMN ended_by TEXT NOT NULL DEFAULT ''
    CHECK (ended_by IN ('', 'white', 'black'));
ALTER TABLE games ADD COLUMN rematch_of BIGINT REFERENCES games (id);

CREATE UNIQUE INDEX games_invite ON games (invite_token) WHERE invite_token IS NOT NULL;
