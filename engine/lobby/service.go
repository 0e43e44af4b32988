package lobby

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"satranc/engine/chips"
	"satranc/engine/clock"
	"satranc/engine/game"
	"satranc/engine/live"
	"satranc/engine/play"
)

// DefaultBotFillAfter is how long a player waits before the nearest-rated
// player waiting at the table, or if none a bot, takes the empty seat
// (SPEC section 6: about 6 seconds; see Queues.Match).
const DefaultBotFillAfter = 6 * time.Second

// DefaultTick is how often the waiting players are matched again, so that
// widened windows and bot fills take effect.
const DefaultTick = 250 * time.Millisecond

// resultTTL is how long a player's last pairing is remembered for a
// waiting page that reconnects.
const resultTTL = 10 * time.Minute

// createTimeout bounds the creation of one paired game.
const createTimeout = 10 * time.Second

// Errors of the Service besides the refusals (see ErrRestricted).
var (
	ErrClosed       = errors.New("lobby: closed")
	ErrUnknownTable = errors.New("lobby: no such table")
	// ErrStarting: the player's game is being created; they cannot join or
	// leave a queue meanwhile.
	ErrStarting = errors.New("lobby: game starting")
)

// Games creates the paired games; *play.Service implements it.
type Games interface {
	// CreatePublicGame starts a Quick Play (stake 0) or lounge game at
	// once, holding the stakes; unstaked reports a lounge game that counts
	// as unstaked (same opponent again).
	CreatePublicGame(ctx context.Context, kind play.Kind, white, black game.Seat, control clock.Control, stake int64) (id int64, unstaked bool, err error)
}

// Players looks up a player's rating and standing (without the balance).
type Players interface {
	LobbyPlayer(ctx context.Context, user int64) (Player, error)
}

// Balances gives a player's chip balance.
type Balances interface {
	Balance(ctx context.Context, user int64) (int64, error)
}

// Config configures a Service.
type Config struct {
	Games   Games   // required
	Players Players // required
	// Balances gives the chip balances; nil counts every balance as 0.
	Balances Balances
	// Hub carries the Events per user; nil makes a new one.
	Hub *live.Hub[int64, Event]
	// Now returns the current time; nil means time.Now.
	Now func() time.Time
	// BotFillAfter: see DefaultBotFillAfter (0); negative never fills.
	BotFillAfter time.Duration
	// Tick: see DefaultTick (0).
	Tick time.Duration
	// Window: the zero Window means DefaultWindow.
	Window Window
	// Seed seeds the drawing of colours; 0 draws a random seed.
	Seed uint64
	// Logger logs failed games; nil means slog.Default().
	Logger *slog.Logger
}

// Service is the lobby. Its queues belong to the goroutine of Run; the
// methods send it requests and are safe for concurrent use.
type Service struct {
	games    Games
	players  Players
	balances Balances
	hub      *live.Hub[int64, Event]
	now      func() time.Time
	tick     time.Duration
	log      *slog.Logger

	reqs    chan func()
	stopped chan struct{}
	wg      sync.WaitGroup // game creations in flight

	// Owned by the goroutine of Run.
	q        *Queues
	rng      *rand.Rand
	closing  bool
	starting map[int64]Status
	results  map[int64]Status
}

// New returns a lobby configured by cfg; start it with Run.
func New(cfg Config) *Service {
	s := &Service{
		games: cfg.Games, players: cfg.Players, balances: cfg.Balances, hub: cfg.Hub,
		now: cfg.Now, tick: cfg.Tick, log: cfg.Logger,
		reqs: make(chan func()), stopped: make(chan struct{}),
		starting: make(map[int64]Status), results: make(map[int64]Status),
	}
	if s.hub == nil {
		s.hub = live.New[int64, Event](0)
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.tick <= 0 {
		s.tick = DefaultTick
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	fill := cfg.BotFillAfter
	if fill == 0 {
		fill = DefaultBotFillAfter
	}
	w := cfg.Window
	if w == (Window{}) {
		w = DefaultWindow
	}
	s.q = NewQueues(w, fill)
	seed := cfg.Seed
	if seed == 0 {
		seed = rand.Uint64()
	}
	s.rng = rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	return s
}

// Run matches the waiting players until ctx is done, then refuses new
// requests, waits for the games being created and returns.
func (s *Service) Run(ctx context.Context) {
	t := time.NewTicker(s.tick)
	defer t.Stop()
	for running := true; running; {
		select {
		case <-ctx.Done():
			running = false
		case fn := <-s.reqs:
			fn()
		case <-t.C:
			s.match()
		}
	}
	s.closing = true
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	for {
		select {
		case fn := <-s.reqs:
			fn()
		case <-done:
			close(s.stopped)
			return
		}
	}
}

// do runs fn in the goroutine of Run and waits for it.
func (s *Service) do(ctx context.Context, fn func()) error {
	ran := make(chan struct{})
	select {
	case s.reqs <- func() { fn(); close(ran) }:
	case <-s.stopped:
		return ErrClosed
	case <-ctx.Done():
		return ctx.Err()
	}
	<-ran
	return nil
}

// Hub returns the hub of the Events.
func (s *Service) Hub() *live.Hub[int64, Event] { return s.hub }

// Subscribe follows user's Events. The caller must Close the subscription.
func (s *Service) Subscribe(user int64) *live.Subscription[int64, Event] {
	return s.hub.Subscribe(user)
}

// Player returns what the lobby knows of user, balance included.
func (s *Service) Player(ctx context.Context, user int64) (Player, error) {
	p, err := s.players.LobbyPlayer(ctx, user)
	if err != nil {
		return Player{}, fmt.Errorf("lobby: player %d: %w", user, err)
	}
	p.User = user
	if s.balances != nil {
		if p.Balance, err = s.balances.Balance(ctx, user); err != nil {
			return Player{}, fmt.Errorf("lobby: balance of %d: %w", user, err)
		}
	}
	return p, nil
}

// Overview returns the lobby as user sees it.
func (s *Service) Overview(ctx context.Context, user int64) (Overview, error) {
	p, err := s.Player(ctx, user)
	if err != nil {
		return Overview{}, err
	}
	return OverviewOf(p), nil
}

// Join puts user in the queue of table t, after checking that they may sit
// there (an error wrapping chips.ErrInsufficientBalance, chips.ErrReserved
// or ErrRestricted if not). A player already waiting moves to t. If an opponent waits
// within the rating window the game is created at once.
func (s *Service) Join(ctx context.Context, user int64, t Table) error {
	if !t.Control.Timed() || !t.Control.IsOffered() {
		return fmt.Errorf("%w: time control %v", ErrUnknownTable, t.Control)
	}
	p, err := s.Player(ctx, user)
	if err != nil {
		return err
	}
	refusal := MayPlayQuick(p)
	if !t.Quick() {
		l, err := chips.LoungeBySlug(t.Lounge)
		if err != nil {
			return fmt.Errorf("%w: %w", ErrUnknownTable, err)
		}
		refusal = MaySit(p, l)
	}
	if err := refusal.Err(); err != nil {
		return fmt.Errorf("lobby: user %d at %v: %w", user, t, err)
	}
	var refused error
	if err := s.do(ctx, func() {
		switch {
		case s.closing:
			refused = ErrClosed
		case s.starting[user].State == Starting:
			refused = ErrStarting
		default:
			delete(s.results, user)
			now := s.now()
			s.q.Add(Entry{Player: p, Table: t, Joined: now})
			s.start(s.q.MatchTable(t, now))
		}
	}); err != nil {
		return err
	}
	return refused
}

// Cancel takes user out of their queue. It is too late once the game is
// being created: then it returns ErrStarting.
func (s *Service) Cancel(ctx context.Context, user int64) error {
	var err error
	if derr := s.do(ctx, func() {
		s.q.Remove(user)
		if s.starting[user].State == Starting {
			err = ErrStarting
		}
	}); derr != nil {
		return derr
	}
	return err
}

// Status returns where user stands.
func (s *Service) Status(ctx context.Context, user int64) (Status, error) {
	var st Status
	err := s.do(ctx, func() {
		if e, ok := s.q.Waiting(user); ok {
			st = Status{State: Waiting, Table: e.Table, Since: e.Joined}
		} else if r, ok := s.starting[user]; ok {
			st = r
		} else {
			st = s.results[user]
		}
	})
	return st, err
}

// match runs the queues' matching at a tick and forgets old results.
func (s *Service) match() {
	now := s.now()
	s.start(s.q.Match(now))
	for u, r := range s.results {
		if now.Sub(r.Since) > resultTTL {
			delete(s.results, u)
		}
	}
}

// start creates the games of pairs, each in its own goroutine.
func (s *Service) start(pairs []Pair) {
	for _, p := range pairs {
		white, black := game.Human(p.A.Player.User), game.Bot(p.Bot)
		if !p.WithBot() {
			black = game.Human(p.B.Player.User)
		}
		if s.rng.IntN(2) == 1 {
			white, black = black, white
		}
		for _, e := range []Entry{p.A, p.B} {
			if e.Player.User > 0 {
				s.starting[e.Player.User] = Status{State: Starting, Table: e.Table, Since: e.Joined}
			}
		}
		s.wg.Add(1)
		go s.create(p, white, black)
	}
}

// create creates the game of p and reports it to the players.
func (s *Service) create(p Pair, white, black game.Seat) {
	defer s.wg.Done()
	kind, stake := play.Quick, int64(0)
	if l, err := chips.LoungeBySlug(p.Table.Lounge); err == nil {
		kind, stake = play.Lounge, l.Stake
	}
	ctx, cancel := context.WithTimeout(context.Background(), createTimeout)
	defer cancel()
	id, unstaked, err := s.games.CreatePublicGame(ctx, kind, white, black, p.Table.Control, stake)
	if err != nil {
		s.log.Error("lobby: create game", "table", p.Table, "white", white, "black", black, "err", err)
	}
	s.reqs <- func() {
		for _, e := range []Entry{p.A, p.B} {
			u := e.Player.User
			if u <= 0 {
				continue
			}
			delete(s.starting, u)
			st := Status{State: Paired, Table: p.Table, Since: s.now(), Game: id, Unstaked: unstaked}
			if err != nil {
				st = Status{State: Failed, Table: p.Table, Since: s.now()}
			}
			s.results[u] = st
			s.hub.Publish(u, Event{User: u, Status: st})
		}
	}
}
