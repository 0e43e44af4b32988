package views

import (
	"context"
	"strconv"
	"time"

	"satranc/engine/clock"
	"satranc/engine/game"
)

// InviteView is a private game's invitation as its page shows it to
// someone who is not yet a player of the game: a member, who may accept
// or decline it, or a guest, who signs up or logs in on the way.
type InviteView struct {
	// Path is the invitation's own path, "/invite/TOKEN": Accept posts to
	// it, Decline to Path+"/decline", and a guest comes back to it.
	Path string
	// GamePath is the game's page, "/games/ID", for watching a game
	// that started without the viewer.
	GamePath string
	// Host is the name of the member who invites; HostRating their Elo
	// rating (0: not known).
	Host       string
	HostRating int
	Control    clock.Control
	// Guest: the viewer is not logged in.
	Guest bool
	// Status and Outcome are the game's: Waiting while the invitation is
	// open; Active once a friend accepted it; Aborted once it expired or
	// was declined.
	Status  game.Status
	Outcome game.Outcome
	// ExpiresIn is how long the invitation stays open (0: unknown).
	ExpiresIn time.Duration
}

// Open reports whether the invitation may still be accepted.
func (v InviteView) Open() bool { return v.Status == game.Waiting }

// ClosedText says why an invitation that is no longer open is closed.
func (v InviteView) ClosedText(ctx context.Context) string {
	switch {
	case v.Outcome.Reason == game.InviteDeclined:
		return T(ctx, "invite.closed.declined")
	case v.Outcome.Reason == game.InviteExpired:
		return T(ctx, "invite.closed.expired")
	case v.Status == game.Active:
		return T(ctx, "invite.closed.started")
	}
	return T(ctx, "invite.closed.over")
}

// ControlDetail spells the time control out: "3 minutes + 2 seconds per
// move".
func (v InviteView) ControlDetail(ctx context.Context) string {
	if !v.Control.Timed() {
		return T(ctx, "game.untimed")
	}
	return TD(ctx, "invite.control_detail", map[string]any{
		"Minutes":   formatMinutes(v.Control.Initial),
		"Increment": strconv.FormatInt(int64(v.Control.Increment/time.Second), 10),
	})
}

// HostText names who invites, with their rating when it is known.
func (v InviteView) HostText(ctx context.Context) string {
	if v.HostRating > 0 {
		return TD(ctx, "invite.host_rated", map[string]any{"Name": v.Host, "Rating": strconv.Itoa(v.HostRating)})
	}
	return TD(ctx, "invite.host", map[string]any{"Name": v.Host})
}

// ExpiresHours is ExpiresIn in whole hours, rounded up.
func (v InviteView) ExpiresHours() int {
	return int((v.ExpiresIn + time.Hour - 1) / time.Hour)
}

// formatMinutes writes d in minutes, with a decimal for half a minute.
func formatMinutes(d time.Duration) string {
	if d%time.Minute == 0 {
		return strconv.FormatInt(int64(d/time.Minute), 10)
	}
	return strconv.FormatFloat(d.Minutes(), 'f', -1, 64)
}
