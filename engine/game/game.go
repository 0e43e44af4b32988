package game

import (
	"fmt"
	"time"

	"satranc/engine/chess"
	"satranc/engine/clock"
)

// DefaultDisconnectGrace is how long a disconnected player may stay away
// before losing (SPEC section 8).
const DefaultDisconnectGrace = 45 * time.Second

// DefaultFirstMoveTime is how long each side of a timed game has for its
// first move (SPEC section 4): White from the start of the game, Black from
// White's first move. The clocks start only once both have moved, as on
// lichess, which gives 20 s (bullet) to 35 s (classical) outside its
// tournaments; one time for every control offered here, from 1+0 to 30+0,
// is simpler to tell, and 30 s lets a player who was paired with a bot
// after the lobby's wait look at the board first.
const DefaultFirstMoveTime = 30 * time.Second

// Options configure a new game.
type Options struct {
	// White and Black are the seats; an empty one makes a Waiting game.
	White, Black Seat
	// Control is the time control; the zero Control is untimed.
	Control clock.Control
	// Start is the start position; the zero Position is the standard one.
	Start chess.Position
	// DisconnectGrace is how long a disconnected player has to come back;
	// 0 means DefaultDisconnectGrace.
	DisconnectGrace time.Duration
	// FirstMoveTime is how long each side of a timed game has for its
	// first move; 0 means DefaultFirstMoveTime. An untimed game has no
	// first-move limit.
	FirstMoveTime time.Duration
	// JoinBy is when the invitation of a Waiting game expires: if nobody
	// has joined by then, Tick cancels the game (InviteExpired). Zero: it
	// waits for good.
	JoinBy time.Time
}

// MoveRecord is one move as played: the move, when, and the mover's clock
// just after it (increment included; 0 when untimed). It holds no pointer
// (Instant), 24 bytes a ply.
type MoveRecord struct {
	Move  chess.Move
	At    Instant
	Clock time.Duration
}

// Game is one game. It is not safe for concurrent use: one owner (the
// game's writer in engine/play) calls its methods.
type Game struct {
	seats     [2]Seat
	record    *chess.Game
	clock     clock.Clock
	moves     []MoveRecord
	status    Status
	outcome   Outcome
	startedAt time.Time
	endedAt   time.Time
	grace     time.Duration
	joinBy    time.Time
	firstMove time.Duration // Options.FirstMoveTime
	// firstMoveBy is when the side to move must have made its first move,
	// while the clocks wait for both first moves of a timed game; zero
	// otherwise.
	firstMoveBy time.Time

	offer      bool        // a draw offer is pending
	offerBy    chess.Color // by whom
	offerPly   [2]int      // ply of each side's last offer, -1 for none
	disconnect [2]time.Time
}

// New returns a game set up by o. With both seats taken it starts at now
// (the clocks wait for both first moves); otherwise it waits for Join.
func New(o Options, now time.Time) *Game {
	start := o.Start
	if start.Occupied() == 0 {
		start = chess.StartPosition()
	}
	g := &Game{
		seats:     [2]Seat{o.White, o.Black},
		record:    chess.NewGame(start),
		clock:     clock.New(o.Control),
		grace:     o.DisconnectGrace,
		joinBy:    o.JoinBy,
		firstMove: o.FirstMoveTime,
		offerPly:  [2]int{-1, -1},
	}
	if g.grace <= 0 {
		g.grace = DefaultDisconnectGrace
	}
	if g.firstMove <= 0 {
		g.firstMove = DefaultFirstMoveTime
	}
	if !o.White.IsEmpty() && !o.Black.IsEmpty() {
		g.start(now)
	}
	return g
}

// start makes the game Active at now. The clocks do not run yet: the side
// to move has the first-move time (see FirstMoveDeadline).
func (g *Game) start(now time.Time) {
	g.status = Active
	g.startedAt = now
	g.firstMoveBy = g.firstMoveDeadlineFrom(now)
}

// firstMoveDeadlineFrom returns when a first move due from from must be
// made: the zero time in an untimed game, which has no such limit.
func (g *Game) firstMoveDeadlineFrom(from time.Time) time.Time {
	if !g.clock.Control().Timed() {
		return time.Time{}
	}
	return from.Add(g.firstMove)
}

// Join seats s in the empty seat of a Waiting game and starts it at now.
// A user cannot take both seats. Joining once the invitation has expired
// fails, and returns the events of the game's cancellation.
func (g *Game) Join(s Seat, now time.Time) ([]Event, error) {
	evs := g.Tick(now)
	if g.status != Waiting {
		return evs, fmt.Errorf("%w: game is %s", ErrSeatTaken, g.status)
	}
	side := chess.White
	if !g.seats[chess.White].IsEmpty() {
		side = chess.Black
	}
	if other := g.seats[side.Other()]; s.IsEmpty() || (s.IsHuman() && other.User == s.User) {
		return nil, fmt.Errorf("%w: %s cannot join against %s", ErrSeatTaken, s, other)
	}
	g.seats[side] = s
	g.start(now)
	return []Event{Started{Stamp: g.stamp(now), White: g.seats[chess.White], Black: g.seats[chess.Black]}}, nil
}

// Decline refuses the invitation of a Waiting game for s, who is not its
// host: the game is cancelled (InviteDeclined), as when the invitation
// expires. A game no longer waiting gives ErrSeatTaken, with the events
// of an expiry that came first.
func (g *Game) Decline(s Seat, now time.Time) ([]Event, error) {
	evs := g.Tick(now)
	if g.status != Waiting {
		return evs, fmt.Errorf("%w: game is %s", ErrSeatTaken, g.status)
	}
	host := g.host()
	if s.IsEmpty() || (s.IsHuman() && g.seats[host].User == s.User) {
		return nil, fmt.Errorf("%w: %s cannot decline the invitation of %s", ErrSeatTaken, s, g.seats[host])
	}
	return []Event{g.finish(Outcome{Result: NoResult, Reason: InviteDeclined, Side: host}, now)}, nil
}

// Seat returns who plays side.
func (g *Game) Seat(side chess.Color) Seat { return g.seats[side] }

// SideOf returns the side the user plays, if the user plays in this game.
func (g *Game) SideOf(user int64) (chess.Color, bool) {
	for _, side := range []chess.Color{chess.White, chess.Black} {
		if user > 0 && g.seats[side].User == user {
			return side, true
		}
	}
	return chess.White, false
}

// Status returns the game's status.
func (g *Game) Status() Status { return g.status }

// Outcome returns how the game ended; the zero Outcome while it goes on.
func (g *Game) Outcome() Outcome { return g.outcome }

// Control returns the time control.
func (g *Game) Control() clock.Control { return g.clock.Control() }

// Start returns the start position.
func (g *Game) Start() chess.Position { return g.record.Start() }

// Position returns the current position.
func (g *Game) Position() chess.Position { return g.record.Position() }

// Record returns the rules' record of the game (positions and moves); the
// caller must not play moves on it.
func (g *Game) Record() *chess.Game { return g.record }

// Ply returns the number of half-moves played.
func (g *Game) Ply() int { return g.record.Ply() }

// Moves returns the moves played with their times; the caller must not
// change the slice. The game only appends to it, never writing below its
// length, so a prefix taken as Moves()[:n:n] may be read by other
// goroutines while the owner plays on (engine/play shares it with every
// snapshot).
func (g *Game) Moves() []MoveRecord { return g.moves }

// StartedAt returns when the game started (zero while Waiting).
func (g *Game) StartedAt() time.Time { return g.startedAt }

// EndedAt returns when the game ended (zero while it goes on).
func (g *Game) EndedAt() time.Time { return g.endedAt }

// DisconnectGrace returns how long a disconnected player has to come back.
func (g *Game) DisconnectGrace() time.Duration { return g.grace }

// FirstMoveTime returns how long each side has for its first move in a
// timed game.
func (g *Game) FirstMoveTime() time.Duration { return g.firstMove }

// FirstMoveDeadline returns the side that has yet to make its first move
// and when it must have made it, while an Active timed game waits for the
// first moves (SPEC section 4): the side to move at the start has until
// the start plus the first-move time, the other side until the first move
// plus that time. The clocks start with the second side's first move; a
// side that misses its deadline aborts the game (Tick, NoFirstMove).
func (g *Game) FirstMoveDeadline() (chess.Color, time.Time, bool) {
	if g.status != Active || g.firstMoveBy.IsZero() {
		return chess.White, time.Time{}, false
	}
	return g.sideToMove(), g.firstMoveBy, true
}

// Clocks returns both clocks at now.
func (g *Game) Clocks(now time.Time) Clocks {
	side, running := g.clock.Running()
	return Clocks{
		Timed:   g.clock.Control().Timed(),
		White:   g.clock.Remaining(chess.White, now),
		Black:   g.clock.Remaining(chess.Black, now),
		Running: running, Side: side, At: now,
	}
}

// DrawOffer returns the side whose draw offer is pending, if one is.
func (g *Game) DrawOffer() (chess.Color, bool) { return g.offerBy, g.offer }

// DisconnectDeadline returns when side loses unless it comes back, if it
// is disconnected.
func (g *Game) DisconnectDeadline(side chess.Color) (time.Time, bool) {
	d := g.disconnect[side]
	return d, !d.IsZero()
}

// JoinBy returns when the invitation of a Waiting game expires, if it does.
func (g *Game) JoinBy() (time.Time, bool) { return g.joinBy, !g.joinBy.IsZero() }

// NextDeadline returns the earliest moment at which Tick may end the game
// (a flag fall, a first move's deadline, a disconnection deadline, or the
// expiry of a Waiting game's invitation), if there is one.
func (g *Game) NextDeadline() (time.Time, bool) {
	if g.status == Waiting {
		return g.JoinBy()
	}
	if g.status != Active {
		return time.Time{}, false
	}
	next, ok := g.clock.FlagAt()
	for _, d := range [...]time.Time{g.disconnect[chess.White], g.disconnect[chess.Black], g.firstMoveBy} {
		if !d.IsZero() && (!ok || d.Before(next)) {
			next, ok = d, true
		}
	}
	return next, ok
}

// movesBy returns how many moves side has made.
func (g *Game) movesBy(side chess.Color) int {
	n := g.record.Ply()
	if g.startSide() == side {
		return (n + 1) / 2
	}
	return n / 2
}

func (g *Game) stamp(now time.Time) Stamp { return Stamp{Ply: g.record.Ply(), Time: now} }

// check applies the clock at now and then reports whether the game accepts
// an action: ErrNotStarted while Waiting, ErrGameOver once over (the
// returned events may be the ones that just ended it).
func (g *Game) check(now time.Time) ([]Event, error) {
	evs := g.Tick(now)
	switch g.status {
	case Waiting:
		return evs, ErrNotStarted
	case Finished, Aborted:
		return evs, fmt.Errorf("%w: %s", ErrGameOver, g.outcome)
	}
	return evs, nil
}

// sideToMove returns the side to move in the current position.
func (g *Game) sideToMove() chess.Color {
	p := g.record.Position()
	return p.SideToMove()
}

// startSide returns the side to move in the start position.
func (g *Game) startSide() chess.Color {
	p := g.record.Start()
	return p.SideToMove()
}
