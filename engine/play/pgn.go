package play

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"satranc/engine/chess"
	"satranc/engine/game"
	"satranc/engine/opening"
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
	// WhiteElo and BlackElo are the players' ratings as the game began (a
	// bot's fixed one). A rated game writes them as the WhiteElo
	// and BlackElo tags; 0 writes none.
	WhiteElo, BlackElo int
	// RatingDiffs says that the rated game's end is settled and
	// WhiteRatingDiff and BlackRatingDiff are the players' rating changes
	// (0 for a bot), written as lichess writes them: "+8", "-8", "+0".
	RatingDiffs                      bool
	WhiteRatingDiff, BlackRatingDiff int
}

// PGN exports game id in PGN with a [%clk] comment on every move of a
// timed game (the mover's clock after the move), and the tags lichess
// writes (pgnGame).
func (s *Service) PGN(ctx context.Context, id int64, o PGNOptions) (string, error) {
	snap, err := s.Game(ctx, id)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if err := chess.WritePGN(&b, pgnGame(snap, o), o.Letters); err != nil {
		return "", fmt.Errorf("play: pgn of game %d: %w", id, err)
	}
	return b.String(), nil
}

// pgnGame is snap as a PGN game: the Seven Tag Roster, then, in lichess's
// order, UTCDate and UTCTime (when the game started), WhiteElo and
// BlackElo (a rated game), WhiteRatingDiff and BlackRatingDiff (once its
// end is settled), TimeControl, ECO and Opening (engine/opening, for a
// game from the standard start that reached a named position) and
// Termination (terminationTag).
func pgnGame(snap Snapshot, o PGNOptions) *chess.PGNGame {
	pg := &chess.PGNGame{Start: snap.Start, Result: snap.Outcome.Result.String()}
	pg.SetTag("Event", "Satranç "+string(snap.Kind)+" game")
	pg.SetTag("Site", orDefault(o.Site, "?"))
	if !snap.StartedAt.IsZero() {
		pg.SetTag("Date", snap.StartedAt.UTC().Format("2006.01.02"))
	}
	pg.SetTag("Round", "-")
	pg.SetTag("White", seatName(o.White, snap.White))
	pg.SetTag("Black", seatName(o.Black, snap.Black))
	pg.SetTag("Result", snap.Outcome.Result.String())
	if !snap.StartedAt.IsZero() {
		pg.SetTag("UTCDate", snap.StartedAt.UTC().Format("2006.01.02"))
		pg.SetTag("UTCTime", snap.StartedAt.UTC().Format("15:04:05"))
	}
	// A rated game: public, and not made unstaked by the same-opponent
	// rule (its ratings change once it is finished: RatingChanges).
	if (snap.Kind == Quick || snap.Kind == Lounge) && !snap.Unstaked {
		for _, t := range []struct {
			name string
			elo  int
		}{{"WhiteElo", o.WhiteElo}, {"BlackElo", o.BlackElo}} {
			if t.elo > 0 {
				pg.SetTag(t.name, strconv.Itoa(t.elo))
			}
		}
		if o.RatingDiffs && snap.Status.Over() {
			pg.SetTag("WhiteRatingDiff", ratingDiff(o.WhiteRatingDiff))
			pg.SetTag("BlackRatingDiff", ratingDiff(o.BlackRatingDiff))
		}
	}
	if snap.Control.Timed() {
		pg.SetTag("TimeControl", strconv.FormatInt(int64(snap.Control.Initial.Seconds()), 10)+"+"+
			strconv.FormatInt(int64(snap.Control.Increment.Seconds()), 10))
	} else {
		pg.SetTag("TimeControl", "-")
	}
	moves := make([]chess.Move, len(snap.Moves))
	for i, m := range snap.Moves {
		moves[i] = m.Move
	}
	if op, ok := opening.Lookup(snap.Start, moves); ok {
		pg.SetTag("ECO", op.ECO)
		pg.SetTag("Opening", op.Name)
	}
	pg.SetTag("Termination", terminationTag(snap.Status, snap.Outcome))
	for _, m := range snap.Moves {
		// The clocks are kept to the nanosecond; the file gets them as a
		// clock shows them, [%clk h:mm:ss], to the nearest second.
		pg.Moves = append(pg.Moves, chess.PGNMove{Move: m.Move, Clock: m.Clock.Round(time.Second), HasClock: snap.Control.Timed()})
	}
	return pg
}

// ratingDiff writes a rating change with its sign, as lichess does: "+8",
// "-8", "+0".
func ratingDiff(d int) string {
	if d >= 0 {
		return "+" + strconv.Itoa(d)
	}
	return strconv.Itoa(d)
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

// The values of the Termination tag (PGN standard section 9.8.1), spelt
// as lichess writes them.
const (
	terminationNormal       = "Normal"       // mate, resignation, a draw by agreement or by rule
	terminationTimeForfeit  = "Time forfeit" // a flag fell
	terminationAbandoned    = "Abandoned"    // left, disconnected, or aborted before it began
	terminationUnterminated = "Unterminated" // still being played
)

// terminationTag returns the Termination tag of a game with status and
// outcome o. The standard's "rules infraction" (an administrative forfeit)
// never applies: no ending of SPEC section 3 is one, and an administrator
// who voids a game's result reverses its settlement without changing the
// result.
func terminationTag(status game.Status, o game.Outcome) string {
	if !status.Over() {
		return terminationUnterminated
	}
	switch o.Reason {
	case game.Timeout, game.TimeoutVsInsufficient:
		return terminationTimeForfeit
	case game.LeftTable, game.Disconnected, game.Abort, game.NoFirstMove, game.InviteExpired, game.InviteDeclined:
		return terminationAbandoned
	}
	return terminationNormal
}
