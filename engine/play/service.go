package play

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"time"

	"satranc/engine/chat"
	"satranc/engine/game"
	"satranc/engine/live"
	"satranc/engine/voice"
)

// DefaultRestartGrace is the least time the side to move has on its clock
// when a game is reopened after a restart. The downtime counts against the
// side to move (DESIGN.md "Restart safety"), as a disconnection would,
// unless that would flag them: then they get this much from the restart, so
// that their page can reconnect and they can still move. Before both first
// moves the same goes for the first move's deadline, capped at the
// first-move time (game.Game.EnsureRemaining).
const DefaultRestartGrace = 15 * time.Second

// storeTimeout bounds how long a store call made by a game's writer may
// wait for its turn at the database: a move or an end whose turn comes
// later, behind the writes before it (on an overloaded machine), is not
// made and fails with context.DeadlineExceeded, the game is reopened from
// the store, and the site answers 503, after which the player may try
// again.
// It does not cut short a write the database has begun: the project's
// stores commit writes in batches, answer a write once its batch has
// begun whatever its context says, and make it whole or not at all; on a
// stuck disk nothing in the process could.
const storeTimeout = 10 * time.Second

// Config configures a Service.
type Config struct {
	// Store keeps the games. Required.
	Store Store
	// Hub carries the events; nil makes a new one.
	Hub *live.Hub[int64, *Event]
	// Bots makes computer players; nil refuses practice games.
	Bots BotFactory
	// PublicBots makes the computer players that fill empty seats at public
	// tables (Quick Play, lounges), where they think like people (SPEC
	// section 6); nil uses Bots.
	PublicBots BotFactory
	// Now returns the current time; nil means time.Now.
	Now func() time.Time
	// DisconnectGrace is how long a disconnected player has to come back;
	// 0 means game.DefaultDisconnectGrace (45 s). Tests may shorten it.
	DisconnectGrace time.Duration
	// RestartGrace: see DefaultRestartGrace; 0 means that.
	RestartGrace time.Duration
	// FirstMoveTime is how long each side of a timed game has for its
	// first move before the game is aborted (the clocks start once both
	// have moved, SPEC section 4); 0 means game.DefaultFirstMoveTime
	// (30 s). Tests may shorten it.
	FirstMoveTime time.Duration
	// InviteExpiry is how long a private game's invitation stays open: a
	// game nobody joins within it is cancelled. 0 means
	// DefaultInviteExpiry.
	InviteExpiry time.Duration
	// Logger logs failures of the writers and bots; nil means slog.Default().
	Logger *slog.Logger
	// Cluster connects the service to the other nodes when several share
	// one database (docs/scaling.md); nil: a single node, which owns
	// every game.
	Cluster Cluster
}

// Service runs the games. It is safe for concurrent use.
type Service struct {
	store   Store
	hub     *live.Hub[int64, *Event]
	bots    BotFactory
	public  BotFactory // bots at public tables
	now     func() time.Time
	grace   time.Duration
	reGrac  time.Duration
	first   time.Duration // first-move time
	expiry  time.Duration // of a private game's invitation
	log     *slog.Logger
	cluster Cluster

	wg sync.WaitGroup // writers and bot goroutines

	mu       sync.Mutex
	closed   bool
	tables   map[int64]*table
	removals uint64 // tables removed so far, see open

	rmu     sync.Mutex // held while a rematch is decided and created
	rematch map[int64]*rematch

	chat  *chat.Guard  // chat.go: flood limit and mutes
	voice *voice.Guard // voice.go: flood limit
}

// New returns a service configured by cfg. Call Recover before serving.
func New(cfg Config) *Service {
	s := &Service{
		store: cfg.Store, hub: cfg.Hub, bots: cfg.Bots, public: cfg.PublicBots, now: cfg.Now,
		grace: cfg.DisconnectGrace, reGrac: cfg.RestartGrace, first: cfg.FirstMoveTime, expiry: cfg.InviteExpiry,
		log: cfg.Logger, cluster: cfg.Cluster,
		tables:  make(map[int64]*table),
		rematch: make(map[int64]*rematch),
		chat:    chat.NewGuard(),
		voice:   voice.NewGuard(),
	}
	if s.hub == nil {
		s.hub = live.New[int64, *Event](0)
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.grace <= 0 {
		s.grace = game.DefaultDisconnectGrace
	}
	if s.reGrac <= 0 {
		s.reGrac = DefaultRestartGrace
	}
	if s.first <= 0 {
		s.first = game.DefaultFirstMoveTime
	}
	if s.expiry <= 0 {
		s.expiry = DefaultInviteExpiry
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	return s
}

// Hub returns the hub the service publishes on.
func (s *Service) Hub() *live.Hub[int64, *Event] { return s.hub }

// Subscribe follows the events of a game. The caller must Close the
// subscription; its channel is closed if the subscriber falls behind, and
// the client should then reconnect and start from a fresh Snapshot.
func (s *Service) Subscribe(gameID int64) *live.Subscription[int64, *Event] {
	return s.hub.Subscribe(gameID)
}

// Close stops every game's writer and bot and waits for them. The games
// stay in the store as they are; Recover reopens them in a new Service.
func (s *Service) Close() {
	s.mu.Lock()
	s.closed = true
	tables := slices.Collect(maps.Values(s.tables))
	s.mu.Unlock()
	// Not under s.mu: a table waits for its turn's holder, which may need
	// s.mu to finish (removeTable).
	for _, t := range tables {
		t.stop()
	}
	s.wg.Wait()
}

// Recover reopens every unfinished game in the store: it rebuilds each
// position from the stored moves, restores the clocks (or, before both
// first moves, the first move's deadline) from the stored times with the
// restart policy (see DefaultRestartGrace) and marks every
// human player as disconnected from now, so that one who does not come back
// within the disconnection grace loses. A private game whose invitation
// expired meanwhile is cancelled instead, without starting its writer. It
// returns how many games it reopened; a game that cannot be rebuilt is
// logged and left alone. Call it once, before serving. With a
// Config.Cluster, it leaves alone the games another node owns.
func (s *Service) Recover(ctx context.Context) (int, error) {
	recs, err := s.store.UnfinishedGames(ctx)
	if err != nil {
		return 0, fmt.Errorf("play: recover: %w", err)
	}
	n, expired := 0, 0
	for _, rec := range recs {
		done, err := s.expireStale(ctx, rec)
		if done {
			expired++
			continue
		}
		if err == nil {
			_, _, err = s.open(rec)
		}
		if err != nil {
			if errors.Is(err, ErrClosed) {
				return n, err
			}
			if errors.Is(err, ErrNotOwner) {
				continue // another node runs it
			}
			// One unreadable game must not keep the server from starting.
			s.log.Error("play: recover: game left closed", "game", rec.ID, "err", err)
			continue
		}
		n++
	}
	if expired > 0 {
		s.log.Info("play: recover: cancelled private games whose invitation expired", "games", expired)
	}
	return n, nil
}

// lookup returns the live table of a game, reopening it from the store if
// it is unfinished but not running (after a store failure stopped it). For
// a game that is over it returns a nil table and the game's record.
func (s *Service) lookup(ctx context.Context, id int64) (*table, GameRecord, error) {
	s.mu.Lock()
	t, closed := s.tables[id], s.closed
	s.mu.Unlock()
	switch {
	case closed:
		return nil, GameRecord{}, ErrClosed
	case t != nil:
		return t, GameRecord{}, nil
	}
	rec, err := s.store.Game(ctx, id)
	if err != nil {
		return nil, GameRecord{}, fmt.Errorf("play: game %d: %w", id, err)
	}
	if rec.Status.Over() {
		return nil, rec, nil
	}
	return s.open(rec)
}

// errRetry and errStopped say that a game's writer stopped or started while
// a request looked for it; within tries again.
var (
	errRetry   = errors.New("play: retry")
	errStopped = errors.New("play: writer stopped")
)

// running returns the writer of game id if it runs, without loading it.
func (s *Service) running(id int64) *table {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tables[id]
}

// within runs fn in the writer of game id and returns its error. A game
// that is over has no writer: then over is called with its record, if over
// is not nil, and otherwise the error wraps game.ErrGameOver.
func (s *Service) within(ctx context.Context, id int64, fn func(t *table) error, over func(rec GameRecord) error) error {
	for range 5 {
		t, rec, err := s.lookup(ctx, id)
		switch {
		case errors.Is(err, errRetry):
			continue
		case err != nil:
			return err
		case t == nil && over != nil:
			return over(rec)
		case t == nil:
			return fmt.Errorf("play: game %d: %w: %s", id, game.ErrGameOver, rec.Outcome)
		}
		if err := t.do(ctx, fn); !errors.Is(err, errStopped) {
			return err
		}
	}
	return fmt.Errorf("play: game %d: writer restarting, try again", id)
}

// open starts the writer of an unfinished game unless one runs already.
func (s *Service) open(rec GameRecord) (*table, GameRecord, error) {
	s.mu.Lock()
	removals := s.removals
	s.mu.Unlock()
	now := s.now()
	g, err := s.restore(rec)
	if err != nil {
		return nil, GameRecord{}, err
	}
	g.EnsureRemaining(s.reGrac, now)
	if err := s.claimGame(rec.ID); err != nil {
		return nil, GameRecord{}, err
	}
	var evs []game.Event
	for _, side := range sides {
		if g.Seat(side).IsHuman() {
			evs = append(evs, g.Disconnect(side, now)...)
		}
	}

	s.mu.Lock()
	switch {
	case s.closed:
		s.mu.Unlock()
		return nil, GameRecord{}, ErrClosed
	case s.tables[rec.ID] != nil:
		t := s.tables[rec.ID]
		s.mu.Unlock()
		return t, GameRecord{}, nil
	case s.removals != removals:
		// A writer stopped meanwhile: rec may predate its last write.
		s.mu.Unlock()
		return nil, GameRecord{}, errRetry
	}
	t := s.addTable(rec, g)
	s.mu.Unlock()
	t.begin(evs)
	return t, GameRecord{}, nil
}

// claimGame asks the cluster, if any, whether this service may run game
// id's writer.
func (s *Service) claimGame(id int64) error {
	if s.cluster == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	if err := s.cluster.Claim(ctx, id); err != nil {
		return fmt.Errorf("play: game %d: %w", id, err)
	}
	return nil
}

// addTable registers the table of game g, with its turn held: the
// caller starts it (table.begin) once s.mu is unlocked. s.mu is held.
func (s *Service) addTable(rec GameRecord, g *game.Game) *table {
	t := newTable(s, rec.ID, rec.Kind, g)
	t.invite, t.stake, t.unstaked = rec.InviteToken, rec.Stake, rec.Unstaked
	s.tables[rec.ID] = t
	s.wg.Add(1) // done when the table stops (table.finish)
	return t
}

// removeTable forgets t, which has stopped.
func (s *Service) removeTable(t *table) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tables[t.id] == t {
		delete(s.tables, t.id)
		s.removals++
		if len(s.tables) == 0 {
			// A map keeps the room it grew to, however few it holds.
			s.tables = make(map[int64]*table)
		}
	}
}

// ResultVoided tells the followers of Endings that game id's result was
// voided at now: call it after the store has voided the game, so that the
// live standings drop its points.
func (s *Service) ResultVoided(id int64, now time.Time) {
	s.publishEnding(Event{GameID: id, Payload: ResultVoided{Stamp: game.Stamp{Time: now}}})
}

// publishEnding publishes e on Endings, here and on the other nodes.
func (s *Service) publishEnding(e Event) {
	s.hub.Publish(Endings, &e)
	if s.cluster != nil {
		s.cluster.Publish(Endings, e)
	}
}

// publish sends a game's events to its subscribers, here and on the other
// nodes, with the game's snapshot after them (after is called once), and
// its end to the subscribers of Endings too. It returns the snapshot it
// published, nil for no events.
func (s *Service) publish(id int64, evs []game.Event, after func() Snapshot) *Snapshot {
	if len(evs) == 0 {
		return nil
	}
	snap := after()
	for _, e := range evs {
		ev := &Event{GameID: id, Payload: e, After: &snap}
		s.hub.Publish(id, ev)
		if s.cluster != nil {
			s.cluster.Publish(id, *ev)
		}
		if _, ended := e.(game.Ended); ended {
			s.publishEnding(Event{GameID: id, Payload: e})
		}
	}
	return &snap
}
