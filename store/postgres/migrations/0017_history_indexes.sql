-- 0017_history_indexes (PostgreSQL): as migrations/0017_history_indexes.sql.
CREATE INDEX games_white_over ON games (white_id, ended_at) WHERE status IN ('finished', 'aborted');
CREATE INDEX games_black_over ON games (black_id, ended_at) WHERE status IN ('finished', 'aborted');

CREATE INDEX games_white_result ON games (white_id, result) WHERE status = 'finished' AND voided_at IS NULL;
CREATE INDEX games_black_result ON games (black_id, result) WHERE status = 'finished' AND voided_at IS NULL;

CREATE INDEX users_rating ON users (rating DESC, rated_games DESC);

CREATE INDEX games_voided ON games (voided_at) WHERE voided_at IS NOT NULL;
