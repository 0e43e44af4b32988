package views

import (
	"fmt"
	"strconv"
	"strings"
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
	for _, g := range in.Games {
		side := chess.White
		if g.Black.User == in.User.ID {
			side = chess.Black
		}
		opp := g.White
		if side == chess.White {
			opp = g.Black
		}
		pg := PastGame{ID: g.ID, Kind: g.Kind, Control: g.Control.String(), Side: side, Ended: g.EndedAt, Score: scoreOf(g, side)}
		switch {
		case opp.IsHuman():
			pg.Opponent = in.Names[opp.User]
		case opp.IsBot() && isPublic(g.Kind):
			pg.Opponent = PublicBotName(g.ID, side.Other())
		default:
			pg.OpponentBot = opp.Bot
		}
		v.Games = append(v.Games, pg)
	}
	return v
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

// RatingChart is a rating history drawn as an SVG polyline: the ratings
// after each rated game, from the first game's rating before it.
type RatingChart struct {
	// Width and Height are the drawing's size in SVG units.
	Width, Height int
	// Points is the polyline's points attribute; empty for no history.
	Points string
	// Min and Max are the lowest and highest ratings drawn, for the axis
	// labels; First and Last the first and latest.
	Min, Max, First, Last int
	// Games is how many rated games the chart covers.
	Games int
}

// chartPad is the room around the line, in SVG units.
const chartPad = 10

// NewRatingChart draws the history (oldest first).
func NewRatingChart(h []play.RatingChange) RatingChart {
	c := RatingChart{Width: 600, Height: 200, Games: len(h)}
	if len(h) == 0 {
		return c
	}
	ratings := make([]int, 0, len(h)+1)
	ratings = append(ratings, h[0].Before)
	for _, r := range h {
		ratings = append(ratings, r.After)
	}
	c.Min, c.Max, c.First, c.Last = ratings[0], ratings[0], ratings[0], ratings[len(ratings)-1]
	for _, r := range ratings {
		c.Min, c.Max = min(c.Min, r), max(c.Max, r)
	}
	span := max(c.Max-c.Min, 1)
	w, ht := float64(c.Width-2*chartPad), float64(c.Height-2*chartPad)
	var b strings.Builder
	for i, r := range ratings {
		x := chartPad + w*float64(i)/float64(len(ratings)-1)
		y := chartPad + ht*float64(c.Max-r)/float64(span)
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%.1f,%.1f", x, y)
	}
	c.Points = b.String()
	return c
}

// ViewBox returns the chart's viewBox attribute.
func (c RatingChart) ViewBox() string { return fmt.Sprintf("0 0 %d %d", c.Width, c.Height) }
