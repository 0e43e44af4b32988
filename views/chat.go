package views

import (
	"context"

	"satranc/engine/chess"
	"satranc/engine/invisible"
	"satranc/engine/play"
)

// ChatLogSize is how many of the latest chat messages the game page shows.
const ChatLogSize = 50

// ChatLine is one chat message as a player sees it. Text is shown as
// text, escaped like every templ expression, and without zero-width and
// text-direction characters (a message stored before chat.Clean
// stripped them may hold some).
type ChatLine struct {
	// Mine is set for the viewer's own messages; Name is the opponent's
	// name otherwise ("" if unknown).
	Mine bool
	Name string
	Text string
}

// From returns who wrote the line, as shown.
func (l ChatLine) From(ctx context.Context) string {
	switch {
	case l.Mine:
		return T(ctx, "chat.you")
	case l.Name == "":
		return T(ctx, "chat.opponent")
	}
	return l.Name
}

// chatLines returns the latest ChatLogSize messages of msgs as the player
// of side sees them: without the opponent's when muted.
func chatLines(snap play.Snapshot, side chess.Color, in GameViewInput) []ChatLine {
	me, opp := snap.Seat(side).User, snap.Seat(side.Other()).User
	var lines []ChatLine
	for _, m := range in.Chat {
		mine := m.User == me
		if !mine && in.Muted {
			continue
		}
		l := ChatLine{Mine: mine, Text: invisible.Strip(m.Body)}
		if !mine {
			l.Name = in.Names[opp]
		}
		lines = append(lines, l)
	}
	if len(lines) > ChatLogSize {
		lines = lines[len(lines)-ChatLogSize:]
	}
	return lines
}
