package handlers

import (
	"context"

	"satranc/engine/chess"
	"satranc/engine/elo"
	"satranc/engine/play"
)

// addPGNRatings fills in the players' ratings of a rated game's PGN
// (play.PGNOptions): each player's rating as the game began and, once its
// end is settled, the change, as the settlement recorded them
// (store.Store.GameSettlement); a game not settled yet has the players'
// current ratings, and a bot its fixed rating, which never changes. A
// rating that cannot be read is left out (and logged).
func (h *Handler) addPGNRatings(ctx context.Context, snap play.Snapshot, o *play.PGNOptions) {
	if (snap.Kind != play.Quick && snap.Kind != play.Lounge) || snap.Unstaked {
		return
	}
	elos := [2]*int{chess.White: &o.WhiteElo, chess.Black: &o.BlackElo}
	diffs := [2]*int{chess.White: &o.WhiteRatingDiff, chess.Black: &o.BlackRatingDiff}
	settled := snap.Status.Over()
	for _, side := range []chess.Color{chess.White, chess.Black} {
		seat := snap.Seat(side)
		switch {
		case seat.IsBot():
			*elos[side] = elo.BotRating(seat.Bot)
			continue
		case !seat.IsHuman():
			settled = false
			continue
		}
		if settled && h.settlements != nil {
			st, err := h.settlements.GameSettlement(ctx, snap.ID, seat.User)
			if err == nil && st.Settled && st.Rated {
				*elos[side], *diffs[side] = st.Rating.Before, st.Rating.After-st.Rating.Before
				continue
			}
			if err != nil {
				h.log.WarnContext(ctx, "pgn: game settlement", "game", snap.ID, "user", seat.User, "err", err)
			}
		}
		settled = false
		if h.profiles == nil {
			continue
		}
		rating, err := h.profiles.Rating(ctx, seat.User)
		if err != nil {
			h.log.WarnContext(ctx, "pgn: player rating", "user", seat.User, "err", err)
			continue
		}
		*elos[side] = rating
	}
	o.RatingDiffs = settled
}
