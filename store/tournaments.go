package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"satranc/engine/chips"
	"satranc/engine/tourney"
)

// Store implements tourney.Store.
var _ tourney.Store = (*Store)(nil)

// The tournaments (migration 0007_tournaments): standings are computed
// from the games, so voiding a game (games.voided_at) takes its points
// away; each ended period's prizes are paid once, recorded in
// tournament_periods and tournament_prizes in the transaction that posts
// the chips.

// countedGames selects the games that score tournament points (SPEC
// section 7): lounge games (public and staked) played to the end, not made
// unstaked by the same-opponent rule and not voided, that ended in
// [?, ?).
const countedGames = `SELECT white_id, black_id, result FROM games
	WHERE kind = 'lounge' AND status = 'finished' AND ended_at >= ? AND ended_at < ?
		AND stake > 0 AND unstaked = FALSE AND voided_at IS NULL`

// standingsQuery sums each human player's points, games and wins; bots
// hold no account and score nothing. Its arguments are countedGames' two
// bounds, then tourney.WinPoints and tourney.OtherPoints (cast, so that
// PostgreSQL knows their type; SUM of a truth value is SQLite's only).
const standingsQuery = `WITH counted AS (` + countedGames + `),
	seats AS (
		SELECT white_id AS user_id, result = '1-0' AS won FROM counted WHERE white_id IS NOT NULL
		UNION ALL
		SELECT black_id, result = '0-1' FROM counted WHERE black_id IS NOT NULL)
	SELECT s.user_id, u.username, SUM(CASE WHEN s.won THEN CAST(? AS INTEGER) ELSE CAST(? AS INTEGER) END) AS points,
		COUNT(*) AS games, SUM(CASE WHEN s.won THEN 1 ELSE 0 END) AS wins
	FROM seats s JOIN users u ON u.id = s.user_id
	GROUP BY s.user_id, u.username`

// tourneyRow is one player's line of a period.
type tourneyRow struct {
	UserID   int64  `db:"user_id"`
	Username string `db:"username"`
	Points   int    `db:"points"`
	Games    int    `db:"games"`
	Wins     int    `db:"wins"`
}

// Standings returns the players who scored in p, unranked (see
// tourney.Rank).
func (s *Store) Standings(ctx context.Context, p tourney.Period) ([]tourney.Standing, error) {
	ss, err := standings(ctx, s.rdb, p)
	if err != nil {
		return nil, fmt.Errorf("store: standings of %s %s: %w", p.Kind, p.Key(), err)
	}
	return ss, nil
}

func standings(ctx context.Context, q sqlx.QueryerContext, p tourney.Period) ([]tourney.Standing, error) {
	var rows []tourneyRow
	err := sqlx.SelectContext(ctx, q, &rows, standingsQuery,
		formatTime(p.Start), formatTime(p.End), tourney.WinPoints, tourney.OtherPoints)
	if err != nil {
		return nil, err
	}
	out := make([]tourney.Standing, len(rows))
	for i, r := range rows {
		out[i] = tourney.Standing{User: r.UserID, Name: r.Username, Points: r.Points, Games: r.Games, Wins: r.Wins}
	}
	return out, nil
}

// PayoutFrom returns the end of the last paid period of k, or, before any
// was paid, the end of the first game that scored points; ok is false when
// neither exists.
func (s *Store) PayoutFrom(ctx context.Context, k tourney.Kind) (time.Time, bool, error) {
	var from sql.NullString
	err := s.rdb.GetContext(ctx, &from, `SELECT COALESCE(
		(SELECT MAX(end_at) FROM tournament_periods WHERE kind = ?),
		(SELECT MIN(ended_at) FROM games WHERE kind = 'lounge' AND status = 'finished'
			AND stake > 0 AND unstaked = FALSE AND voided_at IS NULL))`, k.String())
	if err != nil || !from.Valid {
		return time.Time{}, false, wrapErr("store: payout start of "+k.String(), err)
	}
	t, err := parseTime(from.String)
	if err != nil {
		return time.Time{}, false, fmt.Errorf("store: payout start of %s: %w", k, err)
	}
	return t, true, nil
}

// wrapErr wraps a non-nil err with what; nil stays nil.
func wrapErr(what string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", what, err)
}

// PayPeriod closes period p and pays its prizes from table, in one
// transaction: the period's row first, whose primary key refuses a second
// payout (it then reports false and changes nothing), then for each
// winner the item into their inventory (user_items), a tournament_prizes
// row and the chips as a ledger entry from the issuer with reason prize.
// A period without players is recorded as paid with no prizes.
func (s *Store) PayPeriod(ctx context.Context, p tourney.Period, table []tourney.Prize, at time.Time) (bool, error) {
	paid, err := s.payPeriod(ctx, p, table, at)
	if err != nil {
		return false, fmt.Errorf("store: pay %s %s: %w", p.Kind, p.Key(), err)
	}
	return paid, nil
}

func (s *Store) payPeriod(ctx context.Context, p tourney.Period, table []tourney.Prize, at time.Time) (bool, error) {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer func() { _ = tx.Rollback() }()
	res, err := tx.ExecContext(ctx, `INSERT INTO tournament_periods (kind, period, start_at, end_at, paid_at)
		VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
		p.Kind.String(), p.Key(), formatTime(p.Start), formatTime(p.End), formatTime(at))
	if err != nil {
		return false, err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return false, err // paid before
	}
	ss, err := standings(ctx, tx, p)
	if err != nil {
		return false, err
	}
	ranked := tourney.Rank(ss)
	byUser := make(map[int64]tourney.Standing, len(ranked))
	for _, st := range ranked {
		byUser[st.User] = st
	}
	for _, a := range tourney.Awards(ranked, table) {
		st := byUser[a.User]
		var itemAt sql.NullString
		if a.Prize.Item != "" {
			// A winner who owns the item already keeps it: granted either way.
			reason := fmt.Sprintf("%s %s place %d", p.Kind, p.Key(), a.Place)
			if _, err := grantItem(ctx, tx, formatTime(at), a.User, a.Prize.Item, reason); err != nil {
				return false, fmt.Errorf("item %q to user %d: %w", a.Prize.Item, a.User, err)
			}
			itemAt = sql.NullString{String: formatTime(at), Valid: true}
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO tournament_prizes
			(kind, period, user_id, place, points, games, wins, chips, item, item_granted_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			p.Kind.String(), p.Key(), a.User, a.Place, st.Points, st.Games, st.Wins, a.Prize.Chips, a.Prize.Item, itemAt)
		if err != nil {
			return false, err
		}
		if a.Prize.Chips > 0 {
			if err := post(ctx, tx, formatTime(at), chips.Grant(a.User, a.Prize.Chips, chips.ReasonPrize)); err != nil {
				return false, err
			}
		}
	}
	return true, tx.Commit()
}

// periodRow and prizeRow are a paid period and one of its prizes.
type periodRow struct {
	Period  string `db:"period"`
	StartAt string `db:"start_at"`
	EndAt   string `db:"end_at"`
	PaidAt  string `db:"paid_at"`
}

type prizeRow struct {
	Period   string `db:"period"`
	UserID   int64  `db:"user_id"`
	Username string `db:"username"`
	Place    int    `db:"place"`
	Points   int    `db:"points"`
	Games    int    `db:"games"`
	Wins     int    `db:"wins"`
	Chips    int64  `db:"chips"`
	Item     string `db:"item"`
}

// Results returns the latest paid periods of k that had winners, the
// latest first, at most limit, each with its winners by place.
func (s *Store) Results(ctx context.Context, k tourney.Kind, limit int) ([]tourney.Result, error) {
	var rows []periodRow
	err := s.rdb.SelectContext(ctx, &rows, `SELECT period, start_at, end_at, paid_at FROM tournament_periods p
		WHERE kind = ? AND EXISTS (SELECT 1 FROM tournament_prizes z WHERE z.kind = p.kind AND z.period = p.period)
		ORDER BY start_at DESC LIMIT ?`, k.String(), limit)
	if err != nil {
		return nil, fmt.Errorf("store: %s results: %w", k, err)
	}
	out, err := s.withWinners(ctx, k, rows)
	if err != nil {
		return nil, fmt.Errorf("store: %s results: %w", k, err)
	}
	return out, nil
}

// Result returns the paid period of k with key and its winners; ok is
// false when it has not been paid.
func (s *Store) Result(ctx context.Context, k tourney.Kind, key string) (tourney.Result, bool, error) {
	var rows []periodRow
	err := s.rdb.SelectContext(ctx, &rows, `SELECT period, start_at, end_at, paid_at FROM tournament_periods
		WHERE kind = ? AND period = ?`, k.String(), key)
	if err != nil {
		return tourney.Result{}, false, fmt.Errorf("store: %s result %s: %w", k, key, err)
	}
	out, err := s.withWinners(ctx, k, rows)
	if err != nil || len(out) == 0 {
		return tourney.Result{}, false, wrapErr(fmt.Sprintf("store: %s result %s", k, key), err)
	}
	return out[0], true, nil
}

// withWinners turns period rows of k into results with their prizes.
func (s *Store) withWinners(ctx context.Context, k tourney.Kind, rows []periodRow) ([]tourney.Result, error) {
	out := make([]tourney.Result, len(rows))
	at := make(map[string]int, len(rows))
	keys := make([]string, len(rows))
	for i, r := range rows {
		var err error
		out[i] = tourney.Result{Kind: k, Key: r.Period}
		if out[i].Start, err = parseTime(r.StartAt); err != nil {
			return nil, err
		}
		if out[i].End, err = parseTime(r.EndAt); err != nil {
			return nil, err
		}
		if out[i].PaidAt, err = parseTime(r.PaidAt); err != nil {
			return nil, err
		}
		at[r.Period], keys[i] = i, r.Period
	}
	if len(rows) == 0 {
		return out, nil
	}
	q, args, err := sqlx.In(`SELECT z.period, z.user_id, u.username, z.place, z.points, z.games, z.wins, z.chips, z.item
		FROM tournament_prizes z JOIN users u ON u.id = z.user_id
		WHERE z.kind = ? AND z.period IN (?) ORDER BY z.place, z.wins DESC, z.games, u.username`, k.String(), keys)
	if err != nil {
		return nil, err
	}
	var prizes []prizeRow
	if err := s.rdb.SelectContext(ctx, &prizes, s.rdb.Rebind(q), args...); err != nil {
		return nil, err
	}
	for _, z := range prizes {
		r := &out[at[z.Period]]
		r.Winners = append(r.Winners, tourney.Winner{
			Standing: tourney.Standing{Rank: z.Place, User: z.UserID, Name: z.Username, Points: z.Points, Games: z.Games, Wins: z.Wins},
			Prize:    tourney.Prize{Chips: z.Chips, Item: z.Item},
		})
	}
	return out, nil
}

// PrizesWon returns the prizes user won, the latest period first, at most
// limit.
func (s *Store) PrizesWon(ctx context.Context, user int64, limit int) ([]tourney.Won, error) {
	var rows []struct {
		Kind   string `db:"kind"`
		Period string `db:"period"`
		Place  int    `db:"place"`
		Chips  int64  `db:"chips"`
		Item   string `db:"item"`
	}
	err := s.rdb.SelectContext(ctx, &rows, `SELECT z.kind, z.period, z.place, z.chips, z.item
		FROM tournament_prizes z JOIN tournament_periods p ON p.kind = z.kind AND p.period = z.period
		WHERE z.user_id = ? ORDER BY p.end_at DESC, z.kind LIMIT ?`, user, limit)
	if err != nil {
		return nil, fmt.Errorf("store: prizes of user %d: %w", user, err)
	}
	out := make([]tourney.Won, len(rows))
	for i, r := range rows {
		k, err := tourney.ParseKind(r.Kind)
		if err != nil {
			return nil, fmt.Errorf("store: prizes of user %d: %w", user, err)
		}
		out[i] = tourney.Won{Kind: k, Key: r.Period, Place: r.Place, Prize: tourney.Prize{Chips: r.Chips, Item: r.Item}}
	}
	return out, nil
}
