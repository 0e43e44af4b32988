package fairplay

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"satranc/engine/invisible"
)

// Sentinel errors.
var (
	// ErrAlreadyVoided: the game's result was voided before; a game is
	// voided once.
	ErrAlreadyVoided = errors.New("fairplay: game already voided")
	// ErrNotVoidable: the game is not finished (running, or aborted with
	// nothing to undo).
	ErrNotVoidable = errors.New("fairplay: only a finished game can be voided")
	// ErrAlreadyReported: the reporter reported this game already.
	ErrAlreadyReported = errors.New("fairplay: already reported")
	// ErrInvalidReason: a report's or a grant's reason is empty, too long
	// or holds control characters.
	ErrInvalidReason = errors.New("fairplay: invalid reason")
)

// MaxReason is the longest reason of a report or a grant, in characters.
const MaxReason = 200

// ParseReason returns s stripped of invisible characters (zero-width and
// text-direction characters, see package invisible) and trimmed if it is a
// usable reason: 1 to MaxReason characters of valid UTF-8 without control
// characters (a reason is one line). Anything else is an ErrInvalidReason.
func ParseReason(s string) (string, error) {
	s = strings.TrimSpace(invisible.Strip(s))
	switch n := utf8.RuneCountInString(s); {
	case n == 0:
		return "", fmt.Errorf("%w: empty", ErrInvalidReason)
	case n > MaxReason:
		return "", fmt.Errorf("%w: %d characters, at most %d", ErrInvalidReason, n, MaxReason)
	case !utf8.ValidString(s) || strings.IndexFunc(s, unicode.IsControl) >= 0:
		return "", fmt.Errorf("%w: control characters or invalid UTF-8", ErrInvalidReason)
	}
	return s, nil
}

// Member is what an administrator sees of an account.
type Member struct {
	ID                     int64
	Name                   string
	Admin, VIP, Restricted bool
	Balance                int64
	Rating, RatedGames, XP int
	CreatedAt              time.Time
}

// Game is a game as the administration pages show it. A computer seat has
// an empty name and its level in WhiteBot or BlackBot.
type Game struct {
	ID                 int64
	Kind               string // quick, lounge, private, practice
	WhiteID, BlackID   int64  // the players' accounts; 0 for a computer or an empty seat
	White, Black       string // the players' names; "" for a computer or an empty seat
	WhiteBot, BlackBot string // a computer seat's level
	Status             string // waiting, active, finished, aborted
	Result             string // 1-0, 0-1, 1/2-1/2, *
	Termination        string
	Stake              int64
	Unstaked           bool
	CreatedAt          time.Time
	VoidedAt           time.Time // zero: the result stands
}

// Voided reports whether the game's result was voided.
func (g Game) Voided() bool { return !g.VoidedAt.IsZero() }

// Voidable reports whether an administrator may void the game now.
func (g Game) Voidable() bool { return g.Status == "finished" && !g.Voided() }

// Report is one player's report of the opponent in a game. Reported is 0
// when the opponent was a computer player (the table does not say so).
type Report struct {
	ID                         int64
	GameID                     int64
	Reporter, Reported         int64
	ReporterName, ReportedName string
	Reason                     string
	At                         time.Time
}
