package play

import (
	"context"
	"errors"
	"fmt"
	"time"

	"satranc/engine/chess"
	"satranc/engine/game"
)

// table is the single writer of one live game. Whoever holds its turn
// writes the game: a request (do), the timer of the game's next deadline
// (a flag fall, a first move due, a disconnection) or a bot's answer, one
// at a time, each on its own goroutine; the turn holder then settles what
// the change calls for (settle: the bot to start, the next deadline) and
// passes the turn on. The table stops when the game is over, when a store
// write fails (the next request reopens the game from the store), or on
// Service.Close.
//
// Why no goroutine of its own: a writer goroutine per game, which handed
// the game over to each request and took it back, was at 10,000 games
// 10,000 goroutines and their stacks for the collector to scan (some 4 KB
// each, the most an idle one came down to), and two goroutine wake-ups a
// move. And while the collector marks, a goroutine that allocates must
// help it, by at least 64 KB of marking the first time in each cycle, and
// waits for the mark to end when there is nothing left for it to mark: a
// move on the writer's goroutine waited behind that, where the callers
// are fewer and long-lived (the server's request workers).
type table struct {
	s      *Service
	id     int64
	kind   Kind
	invite string
	// stake and unstaked are a lounge game's stake per player and whether
	// the same-opponent rule made it unstaked.
	stake    int64
	unstaked bool

	// turn is held by the game's writer of the moment: a channel of one,
	// so that a request stops waiting when it ends, or when the table
	// stops (done).
	turn chan struct{}
	done chan struct{} // closed once the table has stopped

	// Owned by the turn's holder.
	stopped bool
	g       *game.Game
	conns   [2]int // open connections (streams) per side
	bots    [2]BotPlayer
	// deadline fires at the game's next deadline (settle sets it).
	deadline *time.Timer
	// search numbers the bots' searches: a search cancelled (by a draw
	// offer) may still deliver its move, which must not be played once a
	// new search for the same position has started. botCancel stops the
	// search started for botPly; drawCancel the draw answer asked for at
	// drawPly (a draw offer to a bot is answered before the bot moves).
	search     int
	botCancel  context.CancelFunc
	botPly     int
	drawCancel context.CancelFunc
	drawPly    int
	broken     bool // a store write failed: stop
	// last is the snapshot published last (or taken for Shared since),
	// which every stream of the game may hold: never changed once set.
	last *Snapshot
}

// newTable returns the table of game g, with its turn held: the caller
// starts it (begin) once others may find it.
func newTable(s *Service, id int64, kind Kind, g *game.Game) *table {
	t := &table{
		s: s, id: id, kind: kind, g: g,
		turn:       make(chan struct{}, 1),
		done:       make(chan struct{}),
		botCancel:  func() {},
		botPly:     -1,
		drawCancel: func() {},
		drawPly:    -1,
	}
	t.turn <- struct{}{}
	t.deadline = time.AfterFunc(time.Hour, func() { t.enter(context.Background(), t.tickClocks) })
	t.deadline.Stop()
	return t
}

// begin publishes pending, the events of the game's start (a restart's
// disconnections), settles the table and passes the turn on. Its creator
// calls it once, holding the turn.
func (t *table) begin(pending []game.Event) {
	t.published(t.s.publish(t.id, pending, t.snapshot))
	t.settle()
	<-t.turn
}

// do runs fn as the writer and returns its error, or errStopped if the
// table has stopped. fn runs on the caller's goroutine, during its turn.
func (t *table) do(ctx context.Context, fn func(*table) error) error {
	select {
	case t.turn <- struct{}{}:
	case <-t.done:
		return errStopped
	case <-ctx.Done():
		return fmt.Errorf("play: game %d: %w", t.id, ctx.Err())
	}
	defer func() { <-t.turn }()
	if t.stopped {
		return errStopped
	}
	err := fn(t)
	t.settle()
	return err
}

// enter runs fn as the writer, as do does, for the table's own work (the
// deadline, a bot's answer): unless ctx ends or the table stops first.
func (t *table) enter(ctx context.Context, fn func()) {
	select {
	case t.turn <- struct{}{}:
	case <-t.done:
		return
	case <-ctx.Done():
		return
	}
	defer func() { <-t.turn }()
	if !t.stopped {
		fn()
		t.settle()
	}
}

// tickClocks ends the game or the wait that the deadline just passed.
func (t *table) tickClocks() { _ = t.commit(t.g.Tick(t.s.now())) }

// stop stops the table, once the turn's holder has passed it on.
func (t *table) stop() {
	select {
	case t.turn <- struct{}{}:
	case <-t.done:
		return
	}
	defer func() { <-t.turn }()
	if !t.stopped {
		t.finish()
	}
}

// settle does what the game calls for now that the turn's holder changed
// it: it stops the table when the game is over (or a store write failed),
// asks a bot for its answer to a draw offer or for its move, and sets the
// timer of the next deadline. The turn's holder calls it before passing
// the turn on.
func (t *table) settle() {
	if t.broken || t.g.Status().Over() {
		t.finish()
		return
	}
	drawSide, drawPending := t.drawToBot()
	switch {
	case !drawPending:
		t.drawPly = -1
	case t.drawPly != t.g.Ply():
		t.botCancel()
		t.botPly = -1
		t.drawCancel()
		t.drawPly = t.g.Ply()
		t.drawCancel = t.startDrawAnswer(drawSide)
	}
	if side := t.sideToMove(); !drawPending && t.g.Status() == game.Active && t.g.Seat(side).IsBot() && t.botPly != t.g.Ply() {
		t.botCancel()
		t.botPly = t.g.Ply()
		t.botCancel = t.startBot(side)
	}
	if d, ok := t.g.NextDeadline(); ok {
		t.deadline.Reset(max(d.Sub(t.s.now()), 0))
	} else {
		t.deadline.Stop()
	}
}

// finish stops the table: its timer and bots, then the requests waiting
// for a turn (errStopped), and the service forgets it. It lets go of the
// game at once: a stopped timer may stay in the runtime's heap of timers
// for a while, and its function holds the table.
func (t *table) finish() {
	t.stopped = true
	t.deadline.Stop()
	t.botCancel()
	t.drawCancel()
	t.s.removeTable(t)
	t.g, t.last, t.bots = nil, nil, [2]BotPlayer{}
	close(t.done)
	t.s.wg.Done()
}

func (t *table) sideToMove() chess.Color {
	p := t.g.Position()
	return p.SideToMove()
}

// commit writes evs to the store and then publishes them. If the write
// fails the writer stops, and the game is reopened from the store on the
// next request, so memory never runs ahead of the database for long.
//
// With a Config.Cluster (several nodes), the game's lease is claimed again
// first, which renews it: a writer whose node lost the game (paused past
// the lease, while another node took over) finds out before it writes,
// and stops.
func (t *table) commit(evs []game.Event) error {
	if len(evs) == 0 {
		return nil
	}
	if err := t.s.claimGame(t.id); err != nil {
		t.broken = true
		t.s.log.Warn("play: lease lost; stopping the game's writer", "game", t.id, "err", err)
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	if err := t.persist(ctx, evs); err != nil {
		t.broken = true
		t.s.log.Error("play: store write failed; reopening the game", "game", t.id, "err", err)
		return fmt.Errorf("play: game %d: %w", t.id, err)
	}
	t.published(t.s.publish(t.id, evs, t.snapshot))
	return nil
}

// published keeps snap, just published (nil: nothing was), as the game's
// latest snapshot.
func (t *table) published(snap *Snapshot) {
	if snap != nil {
		t.last = snap
	}
}

// persist writes the events that change the stored game: the start, each
// move (with the ending it causes, in the same transaction) and the end.
func (t *table) persist(ctx context.Context, evs []game.Event) error {
	for i := 0; i < len(evs); i++ {
		switch e := evs[i].(type) {
		case game.Started:
			if err := t.s.store.StartGame(ctx, t.id, e.White, e.Black, e.Time); err != nil {
				return err
			}
		case game.Moved:
			rec := t.g.Moves()[e.Ply-1]
			m := StoredMove{Ply: e.Ply, UCI: rec.Move.String(), At: rec.At.Time(), Clock: rec.Clock, HasClock: t.g.Control().Timed()}
			var end *Ending
			if i+1 < len(evs) {
				if ended, ok := evs[i+1].(game.Ended); ok {
					end = endingOf(ended)
					i++
				}
			}
			if err := t.s.store.AppendMove(ctx, t.id, m, end); err != nil {
				return err
			}
		case game.Ended:
			if err := t.s.store.FinishGame(ctx, t.id, *endingOf(e)); err != nil {
				return err
			}
		}
	}
	return nil
}

// endingOf is the stored form of a game's end.
func endingOf(e game.Ended) *Ending {
	status := game.Finished
	if e.Outcome.IsAborted() {
		status = game.Aborted
	}
	return &Ending{Status: status, Outcome: e.Outcome, At: e.Time}
}

// act runs a player's action for user: it finds the user's side, runs f
// and commits the events f returns, even with an error (a move refused
// because the clock had already run out ends the game by time).
func (t *table) act(user int64, f func(side chess.Color, now time.Time) ([]game.Event, error)) error {
	side, ok := t.g.SideOf(user)
	if !ok {
		return fmt.Errorf("play: game %d, user %d: %w", t.id, user, ErrNotPlayer)
	}
	evs, err := f(side, t.s.now())
	if cerr := t.commit(evs); cerr != nil {
		return cerr
	}
	if err != nil {
		return fmt.Errorf("play: game %d: %w", t.id, err)
	}
	return nil
}

// startBot asks side's computer player for a move in its own goroutine and
// returns the function that cancels it. The answer is played in a turn of
// its own, unless the game has moved on meanwhile (botMove).
func (t *table) startBot(side chess.Color) context.CancelFunc {
	if t.s.bots == nil {
		t.s.log.Error("play: no computer players configured", "game", t.id)
		return func() {}
	}
	b := t.bot(side)
	ctx, cancel := context.WithCancel(context.Background())
	pos, hist, ply := t.g.Position(), t.g.Record().History(), t.g.Ply()
	now := t.s.now()
	remaining := t.g.Clocks(now).Remaining(side)
	if _, by, ok := t.g.FirstMoveDeadline(); ok {
		// The clock stands still before the first moves, but the first
		// move is due by the deadline: the bot budgets (and, at a public
		// table, paces) its move within what is left of that.
		remaining = max(min(remaining, by.Sub(now)), time.Millisecond)
	}
	inc := t.g.Control().Increment
	t.search++
	search := t.search
	t.s.wg.Add(1)
	go func() {
		defer t.s.wg.Done()
		m, err := b.Move(ctx, pos, hist, remaining, inc)
		t.enter(ctx, func() { t.botMove(botResult{search: search, ply: ply, move: m, err: err}) })
	}()
	return cancel
}

// bot returns side's computer player, made on first use.
func (t *table) bot(side chess.Color) BotPlayer {
	b := t.bots[side]
	if b == nil {
		factory := t.s.bots
		if (t.kind == Quick || t.kind == Lounge) && t.s.public != nil {
			factory = t.s.public
		}
		b = factory(t.g.Seat(side).Bot)
		t.bots[side] = b
	}
	return b
}

// botMove plays a bot's answer if it is still for the current position. A
// bot that fails (or answers with an illegal move) plays the first legal
// move instead, so that a broken bot cannot stall a game.
func (t *table) botMove(r botResult) {
	if _, drawPending := t.drawToBot(); r.search != t.search || r.ply != t.g.Ply() || t.g.Status() != game.Active || drawPending {
		return // a search stopped for a draw offer starts again after the answer
	}
	side := t.sideToMove()
	now := t.s.now()
	if r.err == nil {
		if evs, ok := t.botResigns(side, now); ok {
			_ = t.commit(evs)
			return
		}
	}
	pos, hist := t.g.Position(), t.g.Record().History()
	m := r.move
	if r.err != nil {
		t.s.log.Error("play: bot failed; playing a legal move", "game", t.id, "err", r.err)
		m, _ = firstLegal(t.g.Position())
	}
	evs, err := t.g.Move(side, m, r.ply, now)
	if err != nil && errors.Is(err, chess.ErrIllegalMove) {
		t.s.log.Error("play: bot chose an illegal move; playing a legal one", "game", t.id, "err", err)
		m, _ = firstLegal(t.g.Position())
		evs, err = t.g.Move(side, m, r.ply, now)
	}
	if err != nil && !errors.Is(err, game.ErrGameOver) {
		t.s.log.Error("play: bot move refused", "game", t.id, "err", err)
	}
	if err == nil && r.err == nil {
		evs = append(evs, t.botOffersDraw(side, pos, hist, now)...)
	}
	_ = t.commit(evs)
}
