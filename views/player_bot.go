package views

import (
	"strings"
	"time"

	"satranc/engine/account"
	"satranc/engine/chess"
	"satranc/engine/elo"
	"satranc/engine/game"
	"satranc/engine/play"
	"satranc/engine/xp"
)

// A computer player at a public table goes by a player's name
// (account.PublicBotName; SPEC section 6: bots are not labelled), so that name
// has a profile like a member's, built here from the games played under
// it. Everything on it is worked out from those games and nothing else,
// so it is the same on every reload and changes only when the name plays
// again, as a member's does.
//
// The rating is the one decision to explain. The table shows a computer
// player's fixed level rating (800, 1300 or 1700), and one name is used
// by every level, so the level ratings of its games would draw a chart
// that leaps by hundreds of points from one game to the next, which no
// member's does. The profile instead rates the name as the site rates a
// member (SPEC section 7, engine/elo): from 1200, after each of its rated
// games against the rating the human opponent had before it, K 40 for
// the first 30 games and 20 after. That is what the name's own results
// are worth under the site's rules, not a made-up figure: a name that
// wins more climbs, one that loses falls. It never changes anyone's
// rating (the human's change stays computed against the level's fixed
// rating), and it can differ from the number shown at the table.

// BotPageInput is what NewBotPlayerPage needs.
type BotPageInput struct {
	// Name is the name as BotNames spells it.
	Name string
	// Games are the public games over under Name, oldest first (a game
	// under another name is left out).
	Games []play.GameRecord
	// OpponentRatings maps a rated game's ID to the rating its human
	// player had before it.
	OpponentRatings map[int64]int
	// Names maps the opponents' user IDs to their names.
	Names map[int64]string
	// Since is the date shown as joined when Name has played no game.
	Since time.Time
	// Shown is how many past games the page lists, the latest first.
	Shown int
}

// BotName returns the name as account.BotNames spells it, and whether
// name is one of them (in any case, as user names are matched).
func BotName(name string) (string, bool) {
	for _, b := range account.BotNames {
		if strings.EqualFold(b, name) {
			return b, true
		}
	}
	return "", false
}

// botSideUnder returns the side of public game g whose computer player
// went by name.
func botSideUnder(name string, g play.GameRecord) (chess.Color, bool) {
	if !isPublic(g.Kind) {
		return chess.White, false
	}
	for _, side := range []chess.Color{chess.White, chess.Black} {
		s := g.White
		if side == chess.Black {
			s = g.Black
		}
		if s.IsBot() && strings.EqualFold(account.PublicBotName(g.ID, side), name) {
			return side, true
		}
	}
	return chess.White, false
}

// NewBotPlayerPage builds the profile of a name computer players go by,
// the same page a member's is (see the comment at the top of the file).
func NewBotPlayerPage(in BotPageInput) PlayerPage {
	v := PlayerPage{Name: in.Name, Since: in.Since}
	rating, rated := elo.Start, 0
	var history []play.RatingChange
	var pastGames []PastGame
	for _, g := range in.Games {
		side, ok := botSideUnder(in.Name, g)
		if !ok {
			continue
		}
		if len(pastGames) == 0 {
			v.Since = g.StartedAt
			if v.Since.IsZero() {
				v.Since = g.CreatedAt
			}
		}
		standing := g.VoidedAt.IsZero() && g.Status == game.Finished
		if opp, ok := in.OpponentRatings[g.ID]; ok && standing && play.RatingChanges(g.Kind, g.Unstaked, g.Status) {
			after := elo.New(rating, opp, rated, eloScore(g.Outcome.Result, side))
			history = append(history, play.RatingChange{GameID: g.ID, Before: rating, After: after, At: g.EndedAt})
			rating, rated = after, rated+1
		}
		if standing {
			v.XP += play.XPEarned(g.Status, g.Outcome, side)
			switch scoreOf(g, side) {
			case "win":
				v.Wins++
			case "draw":
				v.Draws++
			case "loss":
				v.Losses++
			}
		}
		pastGames = append(pastGames, newPastGame(g, side, in.Names, nil))
	}
	v.Rating, v.RatedGames = rating, rated
	v.Level = xp.Level(v.XP)
	v.LevelInto, v.LevelNeed = xp.Progress(v.XP)
	v.Chart = NewRatingChart(history)
	changes := changesByGame(history)
	for i := len(pastGames) - 1; i >= 0 && len(v.Games) < in.Shown; i-- {
		pg := pastGames[i]
		if c, ok := changes[pg.ID]; ok {
			pg.Rated, pg.RatingAfter, pg.RatingDelta = true, c.After, c.After-c.Before
		}
		v.Games = append(v.Games, pg)
	}
	return v
}

// eloScore returns side's score in a game with result r.
func eloScore(r game.Result, side chess.Color) elo.Score {
	w, ok := (game.Outcome{Result: r}).Winner()
	switch {
	case !ok:
		return elo.Draw
	case w == side:
		return elo.Win
	}
	return elo.Loss
}
