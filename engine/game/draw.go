package game

import (
	"fmt"
	"time"

	"satranc/engine/chess"
)

// OfferDraw offers a draw for side at now. SPEC section 3 rule 5: only once
// both sides have made a move. A side may offer once per ply of the game;
// offering while the opponent's offer is pending accepts it; repeating a
// pending offer changes nothing.
func (g *Game) OfferDraw(side chess.Color, now time.Time) ([]Event, error) {
	evs, err := g.check(now)
	if err != nil {
		return evs, err
	}
	switch {
	case g.offer && g.offerBy == side:
		return evs, nil
	case g.offer:
		return append(evs, g.finish(Outcome{Result: Draw, Reason: Agreement, Side: side}, now)), nil
	case g.movesBy(chess.White) < 1 || g.movesBy(chess.Black) < 1:
		return evs, fmt.Errorf("%w: both players must have moved", ErrDrawNotAllowed)
	case g.offerPly[side] == g.record.Ply():
		return evs, fmt.Errorf("%w: %s offered already at ply %d", ErrDrawNotAllowed, side, g.record.Ply())
	}
	g.offer, g.offerBy, g.offerPly[side] = true, side, g.record.Ply()
	return append(evs, DrawOffered{Stamp: g.stamp(now), By: side}), nil
}

// AcceptDraw accepts for side the opponent's pending offer: a draw by
// agreement. Without one it fails with ErrNoDrawOffer.
func (g *Game) AcceptDraw(side chess.Color, now time.Time) ([]Event, error) {
	evs, err := g.check(now)
	if err != nil {
		return evs, err
	}
	if !g.offer || g.offerBy == side {
		return evs, fmt.Errorf("%w: for %s to accept", ErrNoDrawOffer, side)
	}
	return append(evs, g.finish(Outcome{Result: Draw, Reason: Agreement, Side: side}, now)), nil
}

// DeclineDraw declines for side the opponent's pending offer; play goes on.
func (g *Game) DeclineDraw(side chess.Color, now time.Time) ([]Event, error) {
	evs, err := g.check(now)
	if err != nil {
		return evs, err
	}
	if !g.offer || g.offerBy == side {
		return evs, fmt.Errorf("%w: for %s to decline", ErrNoDrawOffer, side)
	}
	g.offer = false
	return append(evs, DrawDeclined{Stamp: g.stamp(now), By: side}), nil
}
