package play

import (
	"context"
	"errors"
	"strings"
	"time"

	"satranc/engine/chess"
	"satranc/engine/game"
)

// Move plays a move for user in game id. text is UCI ("e2e4", "e7e8n",
// the king onto its rook for castling) or SAN in the letters l (English or
// Turkish, SPEC section 1). expectedPly is the ply the player's page showed:
// a duplicated or replayed request fails with game.ErrStalePly instead of
// being applied twice. Other errors wrap game.ErrNotYourTurn,
// game.ErrGameOver, game.ErrNotStarted, ErrNotPlayer, ErrNotFound,
// chess.ErrIllegalMove, chess.ErrInvalidSAN or chess.ErrAmbiguousSAN.
// The move is stored before it is published.
func (s *Service) Move(ctx context.Context, id, user int64, text string, l chess.Letters, expectedPly int) error {
	return s.MoveWithLag(ctx, id, user, text, l, expectedPly, 0)
}

// MoveWithLag is Move for a move whose network time is estimated at lag:
// the player's round-trip time as the server measured it (never a figure
// the page reports). Part of it is given back on the player's clock,
// within the bounds of clock.LagCredit (game.Game.MoveWithLag). Moves of
// computer players never get any.
func (s *Service) MoveWithLag(ctx context.Context, id, user int64, text string, l chess.Letters, expectedPly int, lag time.Duration) error {
	text = strings.TrimSpace(text)
	return s.within(ctx, id, func(t *table) error {
		return t.act(user, func(side chess.Color, now time.Time) ([]game.Event, error) {
			m, perr := t.g.ParseMove(text, l)
			if perr == nil {
				return t.g.MoveWithLag(side, m, expectedPly, now, lag)
			}
			// Report a stale ply, a turn or the game's end before the
			// text: a replayed move no longer parses in the new position.
			evs, err := t.g.Move(side, chess.NullMove, expectedPly, now)
			if err != nil && !errors.Is(err, chess.ErrIllegalMove) {
				return evs, err
			}
			return evs, perr
		})
	}, nil)
}

// Resign resigns game id for user: a loss, or an abort early in the game
// (SPEC section 3).
func (s *Service) Resign(ctx context.Context, id, user int64) error {
	return s.within(ctx, id, func(t *table) error {
		return t.act(user, t.g.Resign)
	}, nil)
}

// Leave is user leaving the table of game id: a loss, or an abort early
// in the game; leaving a private game nobody has joined yet cancels it.
func (s *Service) Leave(ctx context.Context, id, user int64) error {
	return s.within(ctx, id, func(t *table) error {
		return t.act(user, t.g.Leave)
	}, nil)
}

// OfferDraw offers a draw for user (SPEC section 3 rule 5: only once both
// players have moved; fails with game.ErrDrawNotAllowed otherwise). Offering
// while the opponent's offer is pending accepts it.
func (s *Service) OfferDraw(ctx context.Context, id, user int64) error {
	return s.within(ctx, id, func(t *table) error {
		return t.act(user, t.g.OfferDraw)
	}, nil)
}

// AnswerDraw accepts (a draw by agreement) or declines the opponent's
// pending draw offer for user; without one it fails with game.ErrNoDrawOffer.
func (s *Service) AnswerDraw(ctx context.Context, id, user int64, accept bool) error {
	return s.within(ctx, id, func(t *table) error {
		if accept {
			return t.act(user, t.g.AcceptDraw)
		}
		return t.act(user, t.g.DeclineDraw)
	}, nil)
}

// Connected records that user opened a live stream of game id (a page, a
// tab). Connections are counted per player: the first one brings back a
// disconnected player. Spectators and finished games are ignored.
func (s *Service) Connected(ctx context.Context, id, user int64) error {
	return s.within(ctx, id, func(t *table) error {
		side, ok := t.g.SideOf(user)
		if !ok {
			return nil
		}
		t.conns[side]++
		if t.conns[side] == 1 {
			return t.commit(t.g.Reconnect(side, t.s.now()))
		}
		return nil
	}, func(GameRecord) error { return nil })
}

// Disconnected records that one of user's streams of game id closed. When
// the player's last stream closes, the disconnection countdown starts: if
// they do not come back within the grace (45 s) they lose. It does no I/O
// and needs no context: call it when the stream ends, even though the
// request's context is done by then. Games that are not running are
// ignored.
func (s *Service) Disconnected(id, user int64) {
	t := s.running(id)
	if t == nil {
		return
	}
	err := t.do(context.Background(), func(t *table) error {
		side, ok := t.g.SideOf(user)
		if !ok || t.conns[side] == 0 {
			return nil
		}
		t.conns[side]--
		if t.conns[side] == 0 {
			return t.commit(t.g.Disconnect(side, t.s.now()))
		}
		return nil
	})
	if err != nil && !errors.Is(err, errStopped) {
		s.log.Warn("play: disconnected", "game", id, "user", user, "err", err)
	}
}
