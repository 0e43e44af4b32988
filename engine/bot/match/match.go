package match

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"satranc/engine/chess"
)

// Control is a time control: a base time and an increment per move.
type Control struct {
	Base, Increment time.Duration
}

// ParseControl reads "10+0.1" (seconds plus increment in seconds).
func ParseControl(s string) (Control, error) {
	base, inc, _ := strings.Cut(s, "+")
	b, err1 := strconv.ParseFloat(base, 64)
	i := 0.0
	var err2 error
	if inc != "" {
		i, err2 = strconv.ParseFloat(inc, 64)
	}
	if err1 != nil || err2 != nil || b <= 0 || i < 0 {
		return Control{}, fmt.Errorf("match: time control %q: want seconds+increment such as 10+0.1", s)
	}
	return Control{Base: time.Duration(b * float64(time.Second)), Increment: time.Duration(i * float64(time.Second))}, nil
}

// String returns the control as "10+0.1".
func (c Control) String() string {
	return strconv.FormatFloat(c.Base.Seconds(), 'f', -1, 64) + "+" + strconv.FormatFloat(c.Increment.Seconds(), 'f', -1, 64)
}

// Game is the record of one finished game.
type Game struct {
	White, Black string
	Opening      int // index in the opening list
	Moves        []chess.Move
	Result       string // "1-0", "0-1" or "1/2-1/2"
	Reason       string // checkmate, stalemate, threefold, fifty, insufficient, time, illegal move, move limit
}

// Play plays one game from the position after the opening moves, and
// adjudicates it by the rules of play, the clock and maxPlies (a draw).
// An engine that fails to give a legal move loses.
func Play(ctx context.Context, white, black Engine, opening []string, ctl Control, maxPlies int) (Game, error) {
	rec := Game{White: white.Name(), Black: black.Name()}
	g := chess.NewGame(chess.StartPosition())
	for _, s := range opening {
		p := g.Position()
		m, err := p.ParseUCI(s)
		if err != nil {
			return rec, fmt.Errorf("match: opening: %w", err)
		}
		if err := g.Play(m); err != nil {
			return rec, fmt.Errorf("match: opening: %w", err)
		}
	}
	clocks := Clocks{White: ctl.Base, Black: ctl.Base, Increment: ctl.Increment}
	finish := func(result, reason string) (Game, error) {
		rec.Moves = g.Moves()
		rec.Result, rec.Reason = result, reason
		return rec, nil
	}
	for {
		if t := g.Termination(); t != chess.NoTermination {
			return finish(g.Result(), t.String())
		}
		if g.Ply()-len(opening) >= maxPlies && maxPlies > 0 {
			return finish("1/2-1/2", "move limit")
		}
		if err := ctx.Err(); err != nil {
			return rec, err
		}
		p := g.Position()
		side := p.SideToMove()
		mover, left := white, &clocks.White
		if side == chess.Black {
			mover, left = black, &clocks.Black
		}
		start := time.Now()
		m, err := mover.Move(ctx, g, clocks)
		*left -= time.Since(start)
		if ctx.Err() != nil {
			return rec, ctx.Err()
		}
		if *left < 0 {
			if p.TimeoutIsDraw(side) {
				return finish("1/2-1/2", "time")
			}
			return finish(winFor(side.Other()), "time")
		}
		if err == nil {
			err = g.Play(m)
		}
		if err != nil {
			if errors.Is(err, ErrEngine) || errors.Is(err, chess.ErrIllegalMove) || errors.Is(err, chess.ErrInvalidUCI) {
				return finish(winFor(side.Other()), "illegal move: "+err.Error())
			}
			return rec, err
		}
		*left += ctl.Increment
	}
}

func winFor(c chess.Color) string {
	if c == chess.White {
		return "1-0"
	}
	return "0-1"
}

// Options configure a match.
type Options struct {
	Games    int
	Control  Control
	MaxPlies int               // plies after the opening before a draw is declared; 0 for none
	Openings [][]string        // opening lines in UCI; Openings by default
	Progress func(Game, Stats) // called after each game, if not nil
	// Skip continues an earlier match: the first Skip games are not played,
	// and the Games played get the openings, colours and seeds they have in
	// one match of Skip+Games games.
	Skip int
}

// Stats is a match score from the first engine's point of view.
type Stats struct {
	Wins, Draws, Losses int
}

// Games returns the number of games played.
func (s Stats) Games() int { return s.Wins + s.Draws + s.Losses }

// Score returns the points scored as a fraction of the games.
func (s Stats) Score() float64 {
	if s.Games() == 0 {
		return 0
	}
	return (float64(s.Wins) + float64(s.Draws)/2) / float64(s.Games())
}

// Elo returns the Elo difference the score implies, with the bounds of its
// 95% confidence interval, computed as cutechess-cli does: the logistic
// formula applied to the score and to the score plus or minus 1.96
// standard errors of the per-game results. Scores of 0 or 1 give ±Inf.
func (s Stats) Elo() (diff, low, high float64) {
	n := float64(s.Games())
	if n == 0 {
		return 0, math.Inf(-1), math.Inf(1)
	}
	mu := s.Score()
	w, d, l := float64(s.Wins)/n, float64(s.Draws)/n, float64(s.Losses)/n
	variance := w*(1-mu)*(1-mu) + d*(0.5-mu)*(0.5-mu) + l*mu*mu
	margin := 1.96 * math.Sqrt(variance/n)
	return eloOf(mu), eloOf(mu - margin), eloOf(mu + margin)
}

func eloOf(score float64) float64 {
	switch {
	case score <= 0:
		return math.Inf(-1)
	case score >= 1:
		return math.Inf(1)
	}
	return -400 * math.Log10(1/score-1)
}

// String returns "W-D-L, score 52.0%, Elo +14 [-30, +58]".
func (s Stats) String() string {
	d, lo, hi := s.Elo()
	return fmt.Sprintf("+%d =%d -%d, score %.1f%%, Elo %+.0f [%+.0f, %+.0f]", s.Wins, s.Draws, s.Losses, 100*s.Score(), d, lo, hi)
}

// Run plays a match of opt.Games games between a and b, alternating
// colours: each opening is played twice, a with White first. Scores are
// a's.
func Run(ctx context.Context, a, b Engine, opt Options) (Stats, error) {
	openings := opt.Openings
	if len(openings) == 0 {
		openings = Openings
	}
	var st Stats
	for i := opt.Skip; i < opt.Skip+opt.Games; i++ {
		white, black := a, b
		if i%2 == 1 {
			white, black = b, a
		}
		seed := uint64(i/2 + 1)
		for _, e := range []Engine{white, black} {
			if err := e.NewGame(ctx, seed); err != nil {
				return st, err
			}
		}
		op := (i / 2) % len(openings)
		g, err := Play(ctx, white, black, openings[op], opt.Control, opt.MaxPlies)
		if err != nil {
			return st, err
		}
		g.Opening = op
		aWhite := i%2 == 0
		switch {
		case g.Result == "1/2-1/2":
			st.Draws++
		case (g.Result == "1-0") == aWhite:
			st.Wins++
		default:
			st.Losses++
		}
		if opt.Progress != nil {
			opt.Progress(g, st)
		}
	}
	return st, nil
}
