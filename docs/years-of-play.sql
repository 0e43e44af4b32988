-- years-of-play.sql fills a copy of the load database (docs/performance.md,
-- "The soaks": 20,000 members signed up by `satranc loadtest --sessions`,
-- no games) as a site after three years of play, for "Years of play":
--
--   cp base.db years.db && sqlite3 years.db < docs/years-of-play.sql
--
-- 200,350 games from 7 December 2023 to 7 December 2026, a game every
-- 473 s: member 11 sits in 50,000 of them, members 12 to 15 in 25,000
-- each, random members in the rest; moves for the latest 20,000; the
-- ledger of the staked games, daily bonuses and prizes; rating changes,
-- chat, reports, tournaments and sessions; the server's next start
-- writes the names of the computer players (see the end). The draws use
-- random(), so two builds differ in their details, not in their sizes.
-- base.db must have this build's schema (start the server on it once).
-- A soak on it first ends the games it leaves in progress, as the
-- driver's own runs do:
--
--   sqlite3 years.db "UPDATE games SET status = 'aborted', ended_at = created_at
--       WHERE status IN ('waiting', 'active'); DELETE FROM game_leases;"
PRAGMA foreign_keys = OFF;
PRAGMA synchronous = OFF;
PRAGMA journal_mode = MEMORY;
PRAGMA cache_size = -200000;
PRAGMA temp_store = MEMORY;

BEGIN;

-- Members: joined over the years, with ratings, counters and flags.
UPDATE users SET
    created_at  = strftime('%Y-%m-%dT%H:%M:%fZ', 1670000000 + id * 1500, 'unixepoch'),
    rating      = 800 + abs(random()) % 1600,
    rated_games = abs(random()) % 300,
    xp          = abs(random()) % 20000,
    gender      = CASE abs(random()) % 4 WHEN 0 THEN 'female' WHEN 1 THEN 'male' ELSE '' END,
    vip         = (abs(random()) % 20 = 0);
UPDATE users SET rating = 2100 + id, rated_games = 40000, xp = 900000 WHERE id BETWEEN 11 AND 15;

-- g0: one row per game with its random draws.
CREATE TEMP TABLE g0 AS
WITH RECURSIVE n(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM n WHERE n < 200350)
SELECT n,
       abs(random()) % 100 AS k,        -- kind
       abs(random()) % 100 AS b,        -- bot seat?
       abs(random()) % 100 AS r,        -- result
       abs(random()) % 100 AS s,        -- stake
       16 + abs(random()) % 19985 AS u1,
       abs(random()) % 19983 AS u2
FROM n;

CREATE TEMP TABLE g1 AS
SELECT n AS id,
    CASE WHEN k < 60 THEN 'lounge' WHEN k < 85 THEN 'quick' WHEN k < 93 THEN 'private' ELSE 'practice' END AS kind,
    -- the member seats before bots are placed
    CASE WHEN n % 8 = 0 THEN 11 WHEN n % 8 IN (1, 2) THEN 12 + (n / 8) % 4 WHEN n % 8 IN (4, 5, 6) THEN u1
         ELSE u1 END AS w,
    CASE WHEN n % 8 = 4 THEN 11 WHEN n % 8 IN (5, 6) THEN 12 + (n / 8) % 4 WHEN n % 8 IN (0, 1, 2) THEN u1
         ELSE 16 + ((u1 - 16 + 1 + u2) % 19985) END AS bl,
    b, r, s, n
FROM g0;

-- which side (if any) is a bot: practice always, quick 15%, lounge 10%;
-- never a veteran's seat.
CREATE TEMP TABLE g2 AS
SELECT id, kind, n, r, s,
    CASE WHEN (kind = 'practice' OR (kind = 'quick' AND b < 15) OR (kind = 'lounge' AND b < 10))
         THEN CASE WHEN w BETWEEN 11 AND 15 THEN 'black' WHEN bl BETWEEN 11 AND 15 THEN 'white'
                   WHEN b % 2 = 0 THEN 'white' ELSE 'black' END
         ELSE '' END AS botside,
    w, bl, b
FROM g1;

INSERT INTO games (id, kind, white_id, black_id, white_bot, black_bot, start_fen, initial_ms, increment_ms,
    stake, rated, status, result, termination, created_at, started_at, ended_at,
    invite_token, ended_by, rematch_of, unstaked, settled, voided_at)
SELECT id, kind,
    CASE WHEN botside = 'white' THEN NULL ELSE w END,
    CASE WHEN botside = 'black' THEN NULL ELSE bl END,
    CASE WHEN botside = 'white' THEN (CASE b % 3 WHEN 0 THEN 'easy' WHEN 1 THEN 'medium' ELSE 'hard' END) ELSE '' END,
    CASE WHEN botside = 'black' THEN (CASE b % 3 WHEN 0 THEN 'easy' WHEN 1 THEN 'medium' ELSE 'hard' END) ELSE '' END,
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
    CASE WHEN kind = 'private' AND n % 3 = 0 THEN 0 ELSE 300000 END,
    CASE WHEN n % 2 = 0 THEN 2000 ELSE 0 END,
    CASE WHEN kind = 'lounge' THEN (CASE WHEN s < 60 THEN 500 WHEN s < 85 THEN 2500 WHEN s < 95 THEN 10000
                                         WHEN s < 99 THEN 50000 ELSE 250000 END) ELSE 0 END,
    -- rated: quick and lounge, not unstaked (unstaked: 2% of two-member lounge games)
    CASE WHEN kind IN ('quick', 'lounge') AND NOT (kind = 'lounge' AND botside = '' AND r % 50 = 7) THEN 1 ELSE 0 END,
    CASE WHEN n > 200300 THEN 'waiting' WHEN n > 200000 THEN 'active' WHEN r < 5 THEN 'aborted' ELSE 'finished' END,
    CASE WHEN n > 200000 OR r < 5 THEN '*' WHEN r < 48 THEN '1-0' WHEN r < 85 THEN '0-1' ELSE '1/2-1/2' END,
    CASE WHEN n > 200000 THEN '' WHEN r < 5 THEN 'aborted' WHEN r < 30 THEN 'checkmate' WHEN r < 60 THEN 'resignation'
         WHEN r < 85 THEN 'timeout' ELSE 'agreement' END,
    strftime('%Y-%m-%dT%H:%M:%fZ', 1701907200 + n * 473, 'unixepoch'),
    CASE WHEN n > 200300 THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%fZ', 1701907200 + n * 473 + 2, 'unixepoch') END,
    CASE WHEN n > 200000 THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%fZ', 1701907200 + n * 473 + 300 + s * 9, 'unixepoch') END,
    CASE WHEN kind = 'private' THEN printf('inv%08d%s', n, hex(randomblob(8))) END,
    CASE WHEN n > 200000 OR r >= 85 THEN '' WHEN r < 48 THEN 'black' ELSE 'white' END,
    CASE WHEN n > 10 AND n % 37 = 0 THEN n - 8 END,
    CASE WHEN kind = 'lounge' AND botside = '' AND r % 50 = 7 THEN 1 ELSE 0 END,
    CASE WHEN n > 200000 THEN 0 ELSE 1 END,
    -- 0.1% of finished games voided, a day after they ended
    CASE WHEN n <= 200000 AND r >= 5 AND n % 1000 = 3 THEN strftime('%Y-%m-%dT%H:%M:%fZ', 1701907200 + n * 473 + 86400, 'unixepoch') END
FROM g2;

-- Moves: 40 plies for the latest 20,000 finished games and the active ones.
INSERT INTO moves (game_id, ply, uci, played_at, clock_ms)
WITH RECURSIVE p(ply) AS (SELECT 1 UNION ALL SELECT ply + 1 FROM p WHERE ply < 40)
SELECT g.id, p.ply,
    CASE p.ply % 4 WHEN 1 THEN 'g1f3' WHEN 2 THEN 'g8f6' WHEN 3 THEN 'f3g1' ELSE 'f6g8' END,
    strftime('%Y-%m-%dT%H:%M:%fZ', 1701907200 + g.id * 473 + 2 + p.ply * 7, 'unixepoch'),
    300000 - p.ply * 3000
FROM games g, p
WHERE g.id BETWEEN 180001 AND 200300 AND g.status IN ('finished', 'active');

-- Ledger: stakes, payouts, fees, bot wins and refunds of the staked lounge games.
CREATE TEMP TABLE sg AS
SELECT id, white_id, black_id, stake, result, status, ended_at, created_at FROM games
WHERE kind = 'lounge' AND stake > 0 AND unstaked = 0 AND status <> 'waiting';

INSERT INTO ledger (debit_kind, debit_id, credit_kind, credit_id, amount, reason, game_id, created_at)
SELECT * FROM (
    SELECT CASE WHEN white_id IS NULL THEN 'house' ELSE 'user' END, COALESCE(white_id, 0), 'escrow', id, stake, 'stake', id, created_at FROM sg
    UNION ALL
    SELECT CASE WHEN black_id IS NULL THEN 'house' ELSE 'user' END, COALESCE(black_id, 0), 'escrow', id, stake, 'stake', id, created_at FROM sg
    -- wins: pot - 5% to the winner (or the sink for a bot), 5% to the house
    UNION ALL
    SELECT 'escrow', id,
        CASE WHEN (CASE result WHEN '1-0' THEN white_id ELSE black_id END) IS NULL THEN 'sink' ELSE 'user' END,
        COALESCE(CASE result WHEN '1-0' THEN white_id ELSE black_id END, 0),
        2 * stake - 2 * stake * 5 / 100,
        CASE WHEN (CASE result WHEN '1-0' THEN white_id ELSE black_id END) IS NULL THEN 'bot_win' ELSE 'payout' END,
        id, ended_at FROM sg WHERE result IN ('1-0', '0-1')
    UNION ALL
    SELECT 'escrow', id, 'house', 0, 2 * stake * 5 / 100, 'fee', id, ended_at FROM sg WHERE result IN ('1-0', '0-1')
    -- draws and aborts: both stakes back
    UNION ALL
    SELECT 'escrow', id, CASE WHEN white_id IS NULL THEN 'house' ELSE 'user' END, COALESCE(white_id, 0), stake, 'refund', id, ended_at
        FROM sg WHERE status <> 'active' AND result IN ('1/2-1/2', '*')
    UNION ALL
    SELECT 'escrow', id, CASE WHEN black_id IS NULL THEN 'house' ELSE 'user' END, COALESCE(black_id, 0), stake, 'refund', id, ended_at
        FROM sg WHERE status <> 'active' AND result IN ('1/2-1/2', '*')
) ORDER BY 8;

-- Voided games' compensating entries (void_refund of each stake).
INSERT INTO ledger (debit_kind, debit_id, credit_kind, credit_id, amount, reason, game_id, created_at)
SELECT 'escrow', l.game_id, l.debit_kind, l.debit_id, l.amount, 'void_refund', l.game_id, g.voided_at
FROM ledger l JOIN games g ON g.id = l.game_id
WHERE g.voided_at IS NOT NULL AND l.reason = 'stake';

-- Daily bonuses: every veteran every day; other members now and then.
INSERT OR IGNORE INTO ledger (debit_kind, debit_id, credit_kind, credit_id, amount, reason, created_at)
WITH RECURSIVE d(d) AS (SELECT 0 UNION ALL SELECT d + 1 FROM d WHERE d < 1094)
SELECT 'issued', 0, 'user', u.id, 100, 'daily_bonus',
    strftime('%Y-%m-%dT%H:%M:%fZ', 1701907200 + d.d * 86400 + 3600 + u.id, 'unixepoch')
FROM d, users u WHERE u.id BETWEEN 11 AND 15;
INSERT OR IGNORE INTO ledger (debit_kind, debit_id, credit_kind, credit_id, amount, reason, created_at)
WITH RECURSIVE n(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM n WHERE n < 250000)
SELECT 'issued', 0, 'user', 16 + abs(random()) % 19985, 100, 'daily_bonus',
    strftime('%Y-%m-%dT%H:%M:%fZ', 1701907200 + (abs(random()) % 1095) * 86400 + 7200, 'unixepoch')
FROM n;
-- Some administrator grants.
INSERT INTO ledger (debit_kind, debit_id, credit_kind, credit_id, amount, reason, created_at, note)
WITH RECURSIVE n(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM n WHERE n < 2000)
SELECT 'issued', 0, 'user', 11 + abs(random()) % 19990, 1000, 'admin_grant',
    strftime('%Y-%m-%dT%H:%M:%fZ', 1701907200 + n * 47000, 'unixepoch'), 'goodwill'
FROM n;

-- Balances: every escrow of a staked game (settled: 0), house, sink.
INSERT OR IGNORE INTO balances (kind, id, balance) SELECT 'escrow', id, 0 FROM sg WHERE status <> 'active';
INSERT OR IGNORE INTO balances (kind, id, balance) SELECT 'escrow', id, 2 * stake FROM sg WHERE status = 'active';
INSERT OR IGNORE INTO balances (kind, id, balance) VALUES ('house', 0, 5000000), ('sink', 0, 3000000);
UPDATE balances SET balance = 1000 + abs(random()) % 500000 WHERE kind = 'user';

-- Rating changes: each member of a finished rated game.
INSERT INTO rating_changes (game_id, user_id, rating_before, rating_after, created_at)
SELECT id, white_id, 1200 + id % 900, 1200 + id % 900 + CASE result WHEN '1-0' THEN 8 WHEN '0-1' THEN -8 ELSE 0 END, ended_at
FROM games WHERE rated = 1 AND status = 'finished' AND white_id IS NOT NULL;
INSERT INTO rating_changes (game_id, user_id, rating_before, rating_after, created_at)
SELECT id, black_id, 1250 + id % 900, 1250 + id % 900 + CASE result WHEN '0-1' THEN 8 WHEN '1-0' THEN -8 ELSE 0 END, ended_at
FROM games WHERE rated = 1 AND status = 'finished' AND black_id IS NOT NULL;
INSERT INTO rating_voids (game_id, user_id, rating_before, rating_after, created_at)
SELECT rc.game_id, rc.user_id, rc.rating_after, rc.rating_before, g.voided_at
FROM rating_changes rc JOIN games g ON g.id = rc.game_id WHERE g.voided_at IS NOT NULL;

-- Chat: ten lines in every fifth game.
INSERT INTO chat_messages (game_id, user_id, body, created_at)
WITH RECURSIVE m(m) AS (SELECT 1 UNION ALL SELECT m + 1 FROM m WHERE m < 10)
SELECT g.id, CASE WHEN m.m % 2 = 0 AND g.black_id IS NOT NULL THEN g.black_id ELSE COALESCE(g.white_id, g.black_id) END,
    'iyi oyunlar ' || m.m, strftime('%Y-%m-%dT%H:%M:%fZ', 1701907200 + g.id * 473 + 10 + m.m * 20, 'unixepoch')
FROM games g, m WHERE g.id % 5 = 0
ORDER BY g.id, m.m;

-- Reports.
INSERT OR IGNORE INTO reports (game_id, reporter_id, reported_id, reason, created_at)
SELECT id, white_id, black_id, 'suspected engine use', ended_at
FROM games WHERE id % 40 = 1 AND white_id IS NOT NULL AND status = 'finished';

-- Tournaments: every daily and weekly period paid, with prizes.
INSERT INTO tournament_periods (kind, period, start_at, end_at, paid_at)
WITH RECURSIVE d(d) AS (SELECT 0 UNION ALL SELECT d + 1 FROM d WHERE d < 1094)
SELECT 'daily', date(1701907200 + d * 86400, 'unixepoch'),
    strftime('%Y-%m-%dT%H:%M:%fZ', 1701907200 + d * 86400 - 10800, 'unixepoch'),
    strftime('%Y-%m-%dT%H:%M:%fZ', 1701907200 + (d + 1) * 86400 - 10800, 'unixepoch'),
    strftime('%Y-%m-%dT%H:%M:%fZ', 1701907200 + (d + 1) * 86400 - 10000, 'unixepoch')
FROM d;
INSERT INTO tournament_periods (kind, period, start_at, end_at, paid_at)
WITH RECURSIVE d(d) AS (SELECT 0 UNION ALL SELECT d + 7 FROM d WHERE d < 1087)
SELECT 'weekly', date(1701907200 + d * 86400, 'unixepoch'),
    strftime('%Y-%m-%dT%H:%M:%fZ', 1701907200 + d * 86400 - 10800, 'unixepoch'),
    strftime('%Y-%m-%dT%H:%M:%fZ', 1701907200 + (d + 7) * 86400 - 10800, 'unixepoch'),
    strftime('%Y-%m-%dT%H:%M:%fZ', 1701907200 + (d + 7) * 86400 - 10000, 'unixepoch')
FROM d;
INSERT OR IGNORE INTO tournament_prizes (kind, period, user_id, place, points, games, wins, chips, item, item_granted_at)
WITH RECURSIVE pl(pl) AS (SELECT 1 UNION ALL SELECT pl + 1 FROM pl WHERE pl < 10)
SELECT p.kind, p.period, CASE WHEN pl.pl <= 2 THEN 11 + (abs(random()) % 5) ELSE 16 + abs(random()) % 19985 END,
    pl.pl, 100 - pl.pl * 5, 60 - pl.pl, 40 - pl.pl, 10000 / pl.pl,
    CASE WHEN pl.pl = 1 THEN 'frame_cup_gold' ELSE '' END, CASE WHEN pl.pl = 1 THEN p.paid_at END
FROM tournament_periods p, pl WHERE pl.pl <= CASE p.kind WHEN 'daily' THEN 3 ELSE 10 END;
INSERT INTO ledger (debit_kind, debit_id, credit_kind, credit_id, amount, reason, created_at)
SELECT 'issued', 0, 'user', z.user_id, z.chips, 'prize', p.paid_at
FROM tournament_prizes z JOIN tournament_periods p USING (kind, period) ORDER BY p.paid_at;
INSERT OR IGNORE INTO user_items (user_id, item, reason, granted_at)
SELECT user_id, item, kind || ' ' || period || ' place 1', item_granted_at FROM tournament_prizes WHERE item <> '';

-- Sessions: 60,000 live ones over the last 30 days, 500 expired.
INSERT INTO sessions (token_hash, user_id, created_at, expires_at)
WITH RECURSIVE n(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM n WHERE n < 60500)
SELECT randomblob(32), CASE WHEN n <= 50 THEN 11 + n % 5 ELSE 1 + abs(random()) % 20000 END,
    strftime('%Y-%m-%dT%H:%M:%fZ', 1796670000 - 2592000 + n * 42, 'unixepoch'),
    strftime('%Y-%m-%dT%H:%M:%fZ', 1796670000 + n * 42 - 21000, 'unixepoch')
FROM n;
-- Changes of the last hour.
INSERT INTO session_changes (user_id, changed_at)
WITH RECURSIVE n(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM n WHERE n < 600)
SELECT 1 + abs(random()) % 20000, strftime('%Y-%m-%dT%H:%M:%fZ', 1796670000 - 3600 + n * 6, 'unixepoch') FROM n;

COMMIT;

DROP TABLE g0; DROP TABLE g1; DROP TABLE g2; DROP TABLE sg;

-- The names the computer players went by at public tables are kept with
-- each game over (migration 0018), but SQL cannot work them out
-- (account.PublicBotName). So take that migration back: the server's
-- next start applies it again and writes the names of every game above.
DROP INDEX games_white_bot_name;
DROP INDEX games_black_bot_name;
ALTER TABLE games DROP COLUMN white_bot_name;
ALTER TABLE games DROP COLUMN black_bot_name;
DELETE FROM schema_migrations WHERE version = 18;
PRAGMA foreign_keys = ON;
PRAGMA foreign_key_check;
