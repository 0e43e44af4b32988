-- 0015_games_seated: each member's unfinished games, for the game in
-- progress every page of theirs links to (Store.ActiveGame).
-- games_unfinished (0001) indexes the status alone, so finding one
-- member's game read every game in progress: 0.56 ms a page at 5,000
-- games, and more as the site grows.
CREATE INDEX games_unfinished_white ON games (white_id, id) WHERE status IN ('waiting', 'active');
CREATE INDEX games_unfinished_black ON games (black_id, id) WHERE status IN ('waiting', 'active');
