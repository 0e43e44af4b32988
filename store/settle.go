package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"

	"satranc/engine/chips"
	"satranc/engine/play"
)

// CreatePublicGame inserts a started Quick Play or lounge game, in one
// transaction with the checks and the stakes: each human must be allowed
// to sit at the table (chips.Open, which applies chips.MaySit: errors wrap
// lobby.ErrRestricted, which is chips.ErrRestricted, or, in a lounge,
// chips.ErrReserved or chips.ErrInsufficientBalance), the same-opponent
// rule applies (the 4th and later lounge games between the same two
// accounts begun within 24 hours are unstaked), and a staked game holds
// both stakes in escrow, the house covering a bot's. The IMMEDIATE
// transaction (see dsn) makes the count and the hold one step, so two
// games created at once cannot both be "the 3rd".
func (s *Store) CreatePublicGame(ctx context.Context, g play.GameRecord) (int64, bool, error) {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return 0, false, fmt.Errorf("store: create public game: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	id, unstaked, err := createPublicGame(ctx, tx, g)
	if err == nil {
		err = tx.Commit()
	}
	if err != nil {
		return 0, false, fmt.Errorf("store: create %s game: %w", g.Kind, err)
	}
	return id, unstaked, nil
}

// createPublicGame reads what chips.Open needs, in tx, and writes what it
// decides. The lobby checked the players when they joined; this checks
// them again where it counts, for a game from the lobby and a rematch
// alike.
func createPublicGame(ctx context.Context, tx *countedTx, g play.GameRecord) (int64, bool, error) {
	o := chips.Opening{White: chips.Sitter{Seat: g.White}, Black: chips.Sitter{Seat: g.Black}}
	for _, st := range []*chips.Sitter{&o.White, &o.Black} {
		if !st.Seat.IsHuman() {
			continue
		}
		var err error
		if st.Player, err = sitter(ctx, tx, st.Seat.User); err != nil {
			return 0, false, err
		}
	}
	switch {
	case g.Kind == play.Quick && g.Stake == 0:
		o.Table = chips.QuickPlay
	case g.Kind == play.Lounge:
		lounge, err := chips.LoungeByStake(g.Stake)
		if err != nil {
			return 0, false, err
		}
		o.Table, o.Lounge = chips.LoungeTable, lounge
	default:
		return 0, false, fmt.Errorf("%w: kind %q with stake %d", play.ErrInvalid, g.Kind, g.Stake)
	}
	if o.Table == chips.LoungeTable && g.White.IsHuman() && g.Black.IsHuman() {
		err := tx.GetContext(ctx, &o.Earlier, `SELECT COUNT(*) FROM games WHERE kind = 'lounge'
			AND ((white_id = ? AND black_id = ?) OR (white_id = ? AND black_id = ?)) AND created_at > ?`,
			g.White.User, g.Black.User, g.Black.User, g.White.User, formatTime(g.CreatedAt.Add(-chips.SameOpponentWindow)))
		if err != nil {
			return 0, false, err
		}
	}
	var err error
	if g.Unstaked, err = chips.Open(o); err != nil {
		return 0, false, err
	}
	id, err := createGame(ctx, tx, g)
	if err != nil || g.Unstaked {
		return id, g.Unstaked, err
	}
	hold, err := chips.Hold(id, g.White, g.Black, g.Stake)
	if err == nil {
		err = post(ctx, tx, formatTime(g.CreatedAt), hold...)
	}
	return id, false, err
}

// sitter reads what decides whether user may sit at a public table
// (chips.MaySit).
func sitter(ctx context.Context, q sqlx.QueryerContext, user int64) (chips.Player, error) {
	var r struct {
		Gender     string `db:"gender"`
		VIP        bool   `db:"vip"`
		Restricted bool   `db:"restricted"`
	}
	if err := sqlx.GetContext(ctx, q, &r, "SELECT gender, vip, restricted FROM users WHERE id = ?", user); err != nil {
		return chips.Player{}, fmt.Errorf("user %d: %w", user, notFound(err))
	}
	bal, err := balanceOf(ctx, q, chips.UserAccount(user))
	return chips.Player{Balance: bal, Female: r.Gender == "female", VIP: r.VIP, Restricted: r.Restricted}, err
}

// settleGame settles a game that has just ended, in q's transaction: the
// chips of a staked lounge game, the ratings of a rated one and everyone's
// experience, as chips.Decide decides from the facts read here. It does it
// once: a game already marked settled is left alone, so settling twice
// changes nothing.
func settleGame(ctx context.Context, q sqlx.ExtContext, id int64) error {
	res, err := q.ExecContext(ctx, "UPDATE games SET settled = TRUE WHERE id = ? AND settled = FALSE AND status IN ('finished', 'aborted')", id)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return err // settled already (or not over: nothing to settle yet)
	}
	var row gameRow
	if err := sqlx.GetContext(ctx, q, &row, "SELECT "+gameColumns+" FROM games WHERE id = ?", id); err != nil {
		return err
	}
	g, err := toGame(row, nil)
	if err != nil {
		return err
	}
	e, err := ended(ctx, q, g)
	if err != nil {
		return err
	}
	d, err := chips.Decide(e)
	if err != nil {
		return err
	}
	return writeDecision(ctx, q, g, d)
}

// ended reads what chips.Decide needs of game g, which has just ended:
// each human's rating, rated games and VIP status as they stand before
// the settlement.
func ended(ctx context.Context, q sqlx.QueryerContext, g play.GameRecord) (chips.Ended, error) {
	e := chips.Ended{Game: g.ID, Table: g.Kind.Table(), White: chips.Side{Seat: g.White}, Black: chips.Side{Seat: g.Black},
		Stake: g.Stake, Unstaked: g.Unstaked, Status: g.Status, Result: g.Outcome.Result}
	for _, s := range []*chips.Side{&e.White, &e.Black} {
		if !s.Seat.IsHuman() {
			continue
		}
		var r struct {
			Rating int  `db:"rating"`
			Rated  int  `db:"rated_games"`
			VIP    bool `db:"vip"`
		}
		if err := sqlx.GetContext(ctx, q, &r, "SELECT rating, rated_games, vip FROM users WHERE id = ?", s.Seat.User); err != nil {
			return chips.Ended{}, fmt.Errorf("user %d: %w", s.Seat.User, err)
		}
		s.Rating, s.RatedGames, s.VIP = r.Rating, r.Rated, r.VIP
	}
	return e, nil
}

// writeDecision writes what chips.Decide decided for game g, in q's
// transaction: the ledger entries, the new ratings with their history
// rows (rating_changes), and the experience.
func writeDecision(ctx context.Context, q sqlx.ExtContext, g play.GameRecord, d chips.Decision) error {
	at := formatTime(g.EndedAt)
	if err := post(ctx, q, at, d.Entries...); err != nil {
		return fmt.Errorf("settle chips: %w", err)
	}
	for _, c := range d.Ratings {
		if _, err := q.ExecContext(ctx, "UPDATE users SET rating = ?, rated_games = rated_games + 1 WHERE id = ?", c.After, c.User); err != nil {
			return fmt.Errorf("settle ratings: %w", err)
		}
		if _, err := q.ExecContext(ctx, `INSERT INTO rating_changes (game_id, user_id, rating_before, rating_after, created_at)
			VALUES (?, ?, ?, ?, ?)`, g.ID, c.User, c.Before, c.After, at); err != nil {
			return fmt.Errorf("settle ratings: %w", err)
		}
	}
	for _, a := range d.XP {
		if _, err := q.ExecContext(ctx, "UPDATE users SET xp = xp + ? WHERE id = ?", a.XP, a.User); err != nil {
			return fmt.Errorf("settle xp: %w", err)
		}
	}
	return nil
}

// SettleGame settles game id if it is over and was not settled yet: a
// repair for a game ended before settlement existed, and the idempotence
// the ledger promises (settling twice changes nothing). It reports whether
// it settled the game now.
func (s *Store) SettleGame(ctx context.Context, id int64) (bool, error) {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("store: settle game %d: %w", id, err)
	}
	defer func() { _ = tx.Rollback() }()
	var settled bool
	err = tx.GetContext(ctx, &settled, "SELECT settled FROM games WHERE id = ?", id)
	if errors.Is(err, sql.ErrNoRows) {
		err = errGameNotFound
	}
	if err == nil && !settled {
		err = settleGame(ctx, tx, id)
	}
	if err == nil {
		err = tx.Commit()
	}
	if err != nil {
		return false, fmt.Errorf("store: settle game %d: %w", id, err)
	}
	var now bool
	if !settled {
		if err := s.rdb.GetContext(ctx, &now, "SELECT settled FROM games WHERE id = ?", id); err != nil {
			return false, fmt.Errorf("store: settle game %d: %w", id, err)
		}
	}
	return now, nil
}
