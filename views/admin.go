package views

import (
	"context"
	"strconv"
	"time"

	"satranc/engine/fairplay"
)

// The administration pages (SPEC section 10): find a member, change their
// flags or grant chips, read a game's chat and void its result, and list
// the players' reports.

// AdminSearchView is the administration front page: the member search and
// its results.
type AdminSearchView struct {
	Query    string
	Searched bool
	Members  []fairplay.Member
}

// AdminMemberView is one member's administration page.
type AdminMemberView struct {
	Member fairplay.Member
	Games  []fairplay.Game
	// Notice is the message ID confirming the change just made; "" for
	// none. Error is a refused change's message.
	Notice string
	Error  *Message
	// Amount and Reason are a refused grant's fields, shown again.
	Amount, Reason string
	// Items are the cosmetic items given to the member; Item and
	// ItemReason a refused gift's fields, shown again.
	Items            []string
	Item, ItemReason string
}

// AdminGameView is one game's administration page: its players, result,
// chat and the void button.
type AdminGameView struct {
	Game   fairplay.Game
	Chat   []AdminChatLine
	Notice string
	Error  *Message
}

// AdminChatLine is one chat message with its sender's name.
type AdminChatLine struct {
	From string
	Text string
	At   time.Time
}

// AdminMemberPath returns the administration page of the member name.
func AdminMemberPath(name string) string { return "/admin/users/" + name }

// AdminGamePath returns the administration page of game id.
func AdminGamePath(id int64) string { return "/admin/games/" + strconv.FormatInt(id, 10) }

// adminTime writes a stored time for the administration pages, in UTC.
func adminTime(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

// adminSeat names one side of a game: the player, or the computer's level.
func adminSeat(ctx context.Context, name, bot string) string {
	switch {
	case name != "":
		return name
	case bot != "":
		return T(ctx, "game.bot."+bot)
	}
	return "–"
}

// adminResult describes a game's state and result.
func adminResult(ctx context.Context, g fairplay.Game) string {
	text := T(ctx, "admin.status."+g.Status)
	if g.Status == "finished" {
		text += " " + g.Result
	}
	return text
}
