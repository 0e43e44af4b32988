package views

import (
	"strconv"
	"time"

	"satranc/engine/account"
	"satranc/engine/chess"
	"satranc/engine/game"
	"satranc/engine/play"
	"satranc/engine/tourney"
	"satranc/engine/xp"
)

// PlayerPage is a player's profile page: figures, rating chart and past
// games.
type PlayerPage struct {
	Name string
	// Frame is the frame the player chose (a cosmetics.Frame item ID).
	Frame      string
	Since      time.Time
	Rating     int
	RatedGames int
	Wins       int
	Draws      int
	Losses     int
	XP         int
	Level      int
	// LevelInto and LevelNeed are the XP gained within the level and the
	// XP the level needs.
	LevelInto, LevelNeed int
	// Own is set when the viewer looks at their own profile: only then is
	// Balance shown.
	Own     bool
	Balance int64
	Chart   RatingChart
	Games   []PastGame
	Prizes  []tourney.Won
}

// PastGame is one line of a profile's list of games.
type PastGame struct {
	ID       int64
	Kind     play.Kind
	Control  string
	Opponent string
	// OpponentBot is the level of a computer opponent in a practice game
	// (shown by level); at public tables a bot has a player name.
	OpponentBot game.Level
	Side        chess.Color
	// Score is "win", "draw", "loss", "aborted" or "voided", from the
	// player's side.
	Score string
	Ended time.Time
	// Rated says the game changed the player's rating: to RatingAfter,
	// by RatingDelta.
	Rated       bool
	RatingAfter int
	RatingDelta int
}

// OpponentPath returns the path of the opponent's profile, "" for a
// computer opponent of a practice game (which has no name).
func (g PastGame) OpponentPath() string {
	if g.Opponent == "" {
		return ""
	}
	return PlayerPath(g.Opponent)
}

// ReplayPath returns the path of the game's replay page.
func (g PastGame) ReplayPath() string { return ReplayPath(g.ID) }

// ReplayPath returns the path of game id's replay page.
func ReplayPath(id int64) string { return "/replay/" + strconv.FormatInt(id, 10) }

// PlayerPageInput is what NewPlayerPage needs.
type PlayerPageInput struct {
	User    account.User
	Stats   play.Stats
	History []play.RatingChange
	Games   []play.GameRecord
	// Names maps the opponents' user IDs to their names.
	Names   map[int64]string
	Own     bool
	Balance int64
	// Prizes are the tournament prizes the player won, the latest first.
	Prizes []tourney.Won
}

// NewPlayerPage builds the profile page.
func NewPlayerPage(in PlayerPageInput) PlayerPage {
	st := in.Stats
	v := PlayerPage{
		Name: in.User.Name, Frame: in.User.Look.Normal().Frame, Since: in.User.CreatedAt,
		Rating: st.Rating, RatedGames: st.RatedGames, Wins: st.Wins, Draws: st.Draws, Losses: st.Losses,
		XP: st.XP, Level: xp.Level(st.XP), Own: in.Own, Balance: in.Balance,
		Chart: NewRatingChart(in.History), Prizes: in.Prizes,
	}
	v.LevelInto, v.LevelNeed = xp.Progress(st.XP)
	changes := changesByGame(in.History)
	for _, g := range in.Games {
		side := chess.White
		if g.Black.User == in.User.ID {
			side = chess.Black
		}
		v.Games = append(v.Games, newPastGame(g, side, in.Names, changes))
	}
	return v
}

// newPastGame returns the line of game g for the player of side, whose
// rating changes by game are changes; names maps user IDs to names.
func newPastGame(g play.GameRecord, side chess.Color, names map[int64]string, changes map[int64]play.RatingChange) PastGame {
	opp := g.White
	if side == chess.White {
		opp = g.Black
	}
	pg := PastGame{ID: g.ID, Kind: g.Kind, Control: g.Control.String(), Side: side, Ended: g.EndedAt, Score: scoreOf(g, side)}
	switch {
	case opp.IsHuman():
		pg.Opponent = names[opp.User]
	case opp.IsBot() && isPublic(g.Kind):
		pg.Opponent = account.PublicBotName(g.ID, side.Other())
	default:
		pg.OpponentBot = opp.Bot
	}
	if c, ok := changes[g.ID]; ok && pg.Score != "voided" {
		pg.Rated, pg.RatingAfter, pg.RatingDelta = true, c.After, c.After-c.Before
	}
	return pg
}

// changesByGame returns the first rating change of each game in h: the
// game's own (a void's taking back comes later, under the same game).
func changesByGame(h []play.RatingChange) map[int64]play.RatingChange {
	m := make(map[int64]play.RatingChange, len(h))
	for _, c := range h {
		if _, ok := m[c.GameID]; !ok {
			m[c.GameID] = c
		}
	}
	return m
}

// scoreOf returns how game g went for side.
func scoreOf(g play.GameRecord, side chess.Color) string {
	switch {
	case g.Status == game.Aborted:
		return "aborted"
	case !g.VoidedAt.IsZero():
		return "voided" // an administrator voided the result
	}
	switch g.Outcome.Result {
	case game.Draw:
		return "draw"
	case game.WhiteWins:
		if side == chess.White {
			return "win"
		}
		return "loss"
	case game.BlackWins:
		if side == chess.Black {
			return "win"
		}
		return "loss"
	}
	return "aborted"
}
