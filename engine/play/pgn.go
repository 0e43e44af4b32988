package play

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"satranc/engine/chess"
	"satranc/engine/game"
)

// PGNOptions say how to export a game.
type PGNOptions struct {
	// Letters are the SAN piece letters.
	Letters chess.Letters
	// White and Black are the players' names; "" writes "?" for a person
	// and "Computer (easy)" and so on for a bot.
	White, Black string
	// Site is the Site tag, such as the server's URL; "" writes "?".
	Site string
}

// PGN exports game id in PGN with a [%clk] comment on every move of a
// timed game (the mover's clock after the move), the Result tag and a
// Termination tag naming the reason the game ended.
func (s *Service) PGN(ctx context.Context, id int64, o PGNOptions) (string, error) {
	snap, err := s.Game(ctx, id)
	if err != nil {
		return "", err
	}
	pg := &chess.PGNGame{Start: snap.Start, Result: snap.Outcome.Result.String()}
	event := "Satranç " + string(snap.Kind) + " game"
	pg.SetTag("Event", event)
	pg.SetTag("Site", orDefault(o.Site, "?"))
	if !snap.StartedAt.IsZero() {
		pg.SetTag("Date", snap.StartedAt.UTC().Format("2006.01.02"))
	}
	pg.SetTag("Round", "-")
	pg.SetTag("White", seatName(o.White, snap.White))
	pg.SetTag("Black", seatName(o.Black, snap.Black))
	pg.SetTag("Result", snap.Outcome.Result.String())
	if snap.Control.Timed() {
		pg.SetTag("TimeControl", strconv.FormatInt(int64(snap.Control.Initial.Seconds()), 10)+"+"+
			strconv.FormatInt(int64(snap.Control.Increment.Seconds()), 10))
	} else {
		pg.SetTag("TimeControl", "-")
	}
	if snap.Status.Over() {
		pg.SetTag("Termination", terminationTag(snap.Outcome))
	}
	for _, m := range snap.Moves {
		// The clocks are kept to the nanosecond; the file gets them as a
		// clock shows them, [%clk h:mm:ss], to the nearest second.
		pg.Moves = append(pg.Moves, chess.PGNMove{Move: m.Move, Clock: m.Clock.Round(time.Second), HasClock: snap.Control.Timed()})
	}
	var b strings.Builder
	if err := chess.WritePGN(&b, pg, o.Letters); err != nil {
		return "", fmt.Errorf("play: pgn of game %d: %w", id, err)
	}
	return b.String(), nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func seatName(name string, seat game.Seat) string {
	switch {
	case name != "":
		return name
	case seat.IsBot():
		return "Computer (" + seat.Bot.String() + ")"
	}
	return "?"
}

// terminationTag describes an outcome in words: "checkmate", "resignation
// by black", "aborted by white", "no first move by black".
func terminationTag(o game.Outcome) string {
	words := strings.ReplaceAll(o.Reason.String(), "_", " ")
	switch o.Reason {
	case game.Resignation, game.Timeout, game.TimeoutVsInsufficient, game.LeftTable, game.Disconnected, game.NoFirstMove:
		return words + " by " + o.Side.String()
	case game.Abort:
		return "aborted by " + o.Side.String()
	}
	return words
}
