package views

import "strings"

// onOff returns "on" or "off", as the sound switch's data-sound and form
// values want it.
func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

// LastMoveCue tells static/js/sounds.js which sound the latest move makes
// (the panel's data-last-move): "check" for a check or a mate, "capture"
// for a capture (en passant included), "move" for any other move, and ""
// before the first move. It reads the move's SAN, whose "x", "+" and "#"
// are the same in every language's letters.
func (v GameView) LastMoveCue() string {
	san := v.Moves.Last()
	switch {
	case san == "":
		return ""
	case strings.ContainsAny(san, "+#"):
		return "check"
	case strings.Contains(san, "x"):
		return "capture"
	}
	return "move"
}
