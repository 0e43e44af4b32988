-- 0017_history_indexes: indexes that keep what reads a member's or the
-- site's whole past as quick on a site with years of games as on a new
-- one. Without them each of these reads went through every game the
-- member had played (the profile's wins, draws and losses; its past
-- games), through every member for each member ranked (the
-- leaderboard), or through every game (the watch for voids, every 5 s):
-- 40.7 ms, 35.8 ms, 485 ms and 13.0 ms on a database of 120,000 games
-- and 20,000 members (docs/performance.md, "Years of play").

-- A member's games over, latest first (PlayerGames).
CREATE INDEX games_white_over ON games (white_id, ended_at) WHERE status IN ('finished', 'aborted');
CREATE INDEX games_black_over ON games (black_id, ended_at) WHERE status IN ('finished', 'aborted');

-- A member's results that count (Stats): finished, not voided.
CREATE INDEX games_white_result ON games (white_id, result) WHERE status = 'finished' AND voided_at IS NULL;
CREATE INDEX games_black_result ON games (black_id, result) WHERE status = 'finished' AND voided_at IS NULL;

-- The leaderboard's order, and the count of the members rated higher
-- that gives each one's rank.
CREATE INDEX users_rating ON users (rating DESC, rated_games DESC);

-- The voided games, few, which every server polls for (VoidsSince).
CREATE INDEX games_voided ON games (voided_at) WHERE voided_at IS NOT NULL;
