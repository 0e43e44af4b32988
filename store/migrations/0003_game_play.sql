-- 0003_game_play: what live games need beyond 0001's games table.
--
--   * invite_token: the secret of a private game's invite link (NULL for
--     other games), unique so that a link names one game;
--   * ended_by: the side the ending is about ('white' or 'black'): who was
--     checkmated, resigned, ran out of time, left, disconnected or aborted;
--     termination holds the reason (engine/game Reason names, such as
--     'checkmate', 'timeout_vs_insufficient', 'left_table', 'aborted');
--   * rematch_of: the game this one is a rematch of.
ALTER TABLE games ADD COLUMN invite_token TEXT;
ALTER TABLE games ADD COLUMN ended_by TEXT NOT NULL DEFAULT ''
    CHECK (ended_by IN ('', 'white', 'black'));
ALTER TABLE games ADD COLUMN rematch_of INTEGER REFERENCES games (id);

CREATE UNIQUE INDEX games_invite ON games (invite_token) WHERE invite_token IS NOT NULL;
