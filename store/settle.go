package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"satranc/engine/chips"
	"satranc/engine/game"
	"satranc/engine/lobby"
	"satranc/engine/play"
)

// sameOpponentWindow is the same-opponent rule's window (SPEC section 5:
// "within 24 hours").
const sameOpponentWindow = 24 * time.Hour

// CreatePublicGame inserts a started Quick Play or lounge game, refusing a
// restricted account (lobby.ErrRestricted). For a lounge game, in the same
// transaction, it checks that each human may sit
// in the lounge (chips.Lounge.CanSit: errors wrap chips.ErrInsufficientBalance
// or chips.ErrReserved), applies the same-opponent rule (the 4th and later
// lounge games between the same two accounts begun within 24 hours are
// unstaked) and holds both stakes in escrow, the house covering a bot's.
// The IMMEDIATE transaction (see dsn) makes the count and the hold one
// step, so two games created at once cannot both be "the 3rd".
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

func createPublicGame(ctx context.Context, tx *countedTx, g play.GameRecord) (int64, bool, error) {
	// A restricted account sits at no public table (SPEC section 10),
	// whichever way the game comes: the lobby checks it, and so does this
	// transaction for a rematch.
	for _, seat := range []game.Seat{g.White, g.Black} {
		if !seat.IsHuman() {
			continue
		}
		var restricted bool
		if err := tx.GetContext(ctx, &restricted, "SELECT restricted FROM users WHERE id = ?", seat.User); err != nil {
			return 0, false, fmt.Errorf("user %d: %w", seat.User, notFound(err))
		}
		if restricted {
			return 0, false, fmt.Errorf("user %d: %w", seat.User, lobby.ErrRestricted)
		}
	}
	switch {
	case g.Kind == play.Quick && g.Stake == 0:
		g.Unstaked = false
		id, err := createGame(ctx, tx, g)
		return id, false, err
	case g.Kind != play.Lounge:
		return 0, false, fmt.Errorf("%w: kind %q with stake %d", play.ErrInvalid, g.Kind, g.Stake)
	}
	lounge, err := chips.LoungeByStake(g.Stake)
	if err != nil {
		return 0, false, err
	}
	for _, seat := range []game.Seat{g.White, g.Black} {
		if !seat.IsHuman() {
			continue
		}
		p, err := sitter(ctx, tx, seat.User)
		if err != nil {
			return 0, false, err
		}
		if r := lounge.CanSit(p); r != chips.Allowed {
			return 0, false, fmt.Errorf("user %d in %s: %w", seat.User, lounge.Name, r.Err())
		}
	}
	if g.White.IsHuman() && g.Black.IsHuman() {
		var earlier int
		err := tx.GetContext(ctx, &earlier, `SELECT COUNT(*) FROM games WHERE kind = 'lounge'
			AND ((white_id = ? AND black_id = ?) OR (white_id = ? AND black_id = ?)) AND created_at > ?`,
			g.White.User, g.Black.User, g.Black.User, g.White.User, formatTime(g.CreatedAt.Add(-sameOpponentWindow)))
		if err != nil {
			return 0, false, err
		}
		g.Unstaked = chips.Unstaked(earlier)
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

// sitter reads what decides whether user may sit in a lounge.
func sitter(ctx context.Context, q sqlx.QueryerContext, user int64) (chips.Player, error) {
	var r struct {
		Gender string `db:"gender"`
		VIP    bool   `db:"vip"`
	}
	if err := sqlx.GetContext(ctx, q, &r, "SELECT gender, vip FROM users WHERE id = ?", user); err != nil {
		return chips.Player{}, fmt.Errorf("user %d: %w", user, notFound(err))
	}
	bal, err := balanceOf(ctx, q, chips.UserAccount(user))
	return chips.Player{Balance: bal, Female: r.Gender == "female", VIP: r.VIP}, err
}

// settleGame settles a game that has just ended, in q's transaction: the
// chips of a staked lounge game, the ratings of a rated one and everyone's
// experience (see engine/play/settle.go). It does it once: a game already
// marked settled is left alone, so settling twice changes nothing.
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
	at := formatTime(g.EndedAt)
	if g.Kind == play.Lounge && g.Stake > 0 && !g.Unstaked {
		if err := settleChips(ctx, q, g, at); err != nil {
			return fmt.Errorf("settle chips: %w", err)
		}
	}
	if play.RatingChanges(g.Kind, g.Unstaked, g.Status) {
		if err := rate(ctx, q, g, at); err != nil {
			return fmt.Errorf("settle ratings: %w", err)
		}
	}
	if play.EarnsXP(g.Status) {
		if err := awardXP(ctx, q, g); err != nil {
			return fmt.Errorf("settle xp: %w", err)
		}
	}
	return nil
}

// settleChips empties the escrow of a staked game as chips.Settle says.
func settleChips(ctx context.Context, q sqlx.ExtContext, g play.GameRecord, at string) error {
	st := chips.Settlement{Game: g.ID, White: g.White, Black: g.Black, Stake: g.Stake,
		Result: g.Outcome.Result, Aborted: g.Status == game.Aborted}
	if side, ok := g.Outcome.Winner(); ok && !st.Aborted {
		if w := seatOf(g, side); w.IsHuman() {
			err := sqlx.GetContext(ctx, q, &st.WinnerVIP, "SELECT vip FROM users WHERE id = ?", w.User)
			if err != nil {
				return err
			}
		}
	}
	es, err := chips.Settle(st)
	if err != nil {
		return err
	}
	return post(ctx, q, at, es...)
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
