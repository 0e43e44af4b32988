package cluster

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"satranc/engine/game"
	"satranc/engine/live"
	"satranc/engine/play"
	"satranc/handlers"
)

// The streams of games another node owns, served on this node from the
// bus (relay.go): handlers.GameFeeds.

// errBusDown: the bus is not connected now; the stream is forwarded.
var errBusDown = errors.New("bus: not connected")

// relayIn receives the events of the games this node follows: one
// subscription per game on the bus, however many streams follow it,
// handed to them through a local hub.
type relayIn struct {
	b   *Bus
	hub *live.Hub[int64, gameMsg]

	mu   sync.Mutex
	subs map[int64]*gameSub
}

// gameSub is the bus subscription of one game and how many streams use it.
type gameSub struct {
	unsubscribe func() error
	users       int
}

func newRelayIn(b *Bus) *relayIn {
	return &relayIn{b: b, hub: live.New[int64, gameMsg](0), subs: make(map[int64]*gameSub)}
}

// follow subscribes to game id's events, on the bus if no stream of this
// node follows it yet. The subscription is in place on the server when
// it returns. Call unfollow when done.
func (in *relayIn) follow(ctx context.Context, id int64) (*live.Subscription[int64, gameMsg], error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	gs := in.subs[id]
	if gs == nil {
		unsubscribe, err := in.b.conn.Subscribe(gameSubject(id), func(data []byte) {
			var g gameMsg
			if err := json.Unmarshal(data, &g); err != nil {
				in.b.log.Warn("bus: unreadable game event", "game", id, "err", err)
				return
			}
			in.hub.Publish(id, g)
		})
		if err != nil {
			return nil, fmt.Errorf("bus: subscribe to game %d: %w", id, err)
		}
		fctx, cancel := context.WithTimeout(ctx, relayTimeout)
		defer cancel()
		if err := in.b.conn.Flush(fctx); err != nil {
			_ = unsubscribe()
			return nil, fmt.Errorf("bus: subscribe to game %d: %w", id, err)
		}
		gs = &gameSub{unsubscribe: unsubscribe}
		in.subs[id] = gs
	}
	gs.users++
	return in.hub.Subscribe(id), nil
}

// unfollow ends a follow of game id: the last one unsubscribes on the bus.
func (in *relayIn) unfollow(id int64, s *live.Subscription[int64, gameMsg]) {
	s.Close()
	in.mu.Lock()
	defer in.mu.Unlock()
	gs := in.subs[id]
	if gs == nil {
		return
	}
	if gs.users--; gs.users == 0 {
		delete(in.subs, id)
		if err := gs.unsubscribe(); err != nil {
			in.b.log.Warn("bus: unsubscribe", "game", id, "err", err)
		}
	}
}

// Feeds returns the streams of the games other nodes own, served on this
// node from the bus.
func (b *Bus) Feeds() handlers.GameFeeds { return busFeeds{b: b} }

// busFeeds is handlers.GameFeeds on the bus.
type busFeeds struct {
	b *Bus
}

var _ handlers.GameFeeds = busFeeds{}

// Follow is handlers.GameFeeds.Follow.
func (f busFeeds) Follow(ctx context.Context, id int64) (handlers.GameFeed, error) {
	if !f.b.conn.Connected() {
		return nil, errBusDown
	}
	l, ok, err := f.b.node.st.GameLease(ctx, id)
	switch {
	case err != nil:
		return nil, fmt.Errorf("bus: game %d's owner: %w", id, err)
	case !ok || l.Node == f.b.node.id:
		return nil, fmt.Errorf("bus: game %d: not another node's game", id)
	}
	sub, err := f.b.in.follow(ctx, id)
	if err != nil {
		return nil, err
	}
	first, err := f.b.snapshot(ctx, l.Node, id)
	if err != nil {
		f.b.in.unfollow(id, sub)
		return nil, err
	}
	feed := &busFeed{
		b: f.b, id: id, stream: rand.Text(), sub: sub, lost: f.b.lostC(),
		events: make(chan *play.Event), stop: make(chan struct{}),
		owner: first.Node,
	}
	feed.take(first)
	go feed.pump()
	return feed, nil
}

// busFeed is one stream's feed of a game another node owns.
type busFeed struct {
	b      *Bus
	id     int64
	stream string // the stream's id, for the owner's count of presences
	sub    *live.Subscription[int64, gameMsg]
	lost   <-chan struct{} // the bus connection was lost: the feed ends
	events chan *play.Event
	stop   chan struct{}
	once   sync.Once

	mu    sync.Mutex
	owner string // the node the last message came from
	msg   gameMsg
	got   time.Time // when msg arrived, by this node's clock
	user  int64     // the player whose presence this feed carries; 0: none
}

// take keeps g's snapshot unless the one kept is newer: a later ply, or
// the same ply taken later by the same owner (an event published before
// the snapshot was taken may arrive after it).
func (f *busFeed) take(g gameMsg) {
	cur := f.msg.Msg.Snapshot.Ply
	if next := g.Msg.Snapshot.Ply; f.got.IsZero() || g.Node != f.msg.Node || next > cur ||
		next == cur && !g.Taken.Before(f.msg.Taken) {
		f.msg, f.got = g, time.Now()
	}
}

// pump passes the game's events to the stream, until the feed is closed,
// falls behind or the bus goes away (then the stream ends and the page
// reconnects, forwarded to the owner while the bus is down).
func (f *busFeed) pump() {
	defer close(f.events)
	renew := time.NewTicker(presenceRenew)
	defer renew.Stop()
	for {
		select {
		case <-renew.C:
			f.renew()
		case g, ok := <-f.sub.C():
			if !ok {
				return
			}
			if ev, ok := f.receive(g); ok {
				select {
				case f.events <- ev:
				case <-f.stop:
					return
				}
			}
		case <-f.lost:
			return
		case <-f.stop:
			return
		}
	}
}

// receive keeps g's snapshot and returns its event. A message from a new
// owner (the game was taken over) tells it of the player's stream, which
// the new owner counts as disconnected.
func (f *busFeed) receive(g gameMsg) (*play.Event, bool) {
	f.mu.Lock()
	f.take(g)
	moved := g.Node != f.owner
	f.owner = g.Node
	user := f.user
	f.mu.Unlock()
	if moved && user != 0 {
		ctx, cancel := context.WithTimeout(context.Background(), relayTimeout)
		defer cancel()
		if err := f.presence(ctx, g.Node, user, true); err != nil {
			f.b.log.Warn("bus: a player's stream, to the game's new owner", "game", f.id, "err", err)
		}
	}
	ev := g.Msg.Event
	if ev.Payload == nil {
		return nil, false
	}
	// The stream renders from the snapshot that came with the event and
	// runs the clock on from its At by this node's clock: say the
	// owner's reading holds now, as Snapshot does.
	snap := g.Msg.Snapshot
	snap.Clocks.At = time.Now()
	ev.After = &snap
	return &ev, true
}

// presence tells node that this stream of user's is open or closed.
func (f *busFeed) presence(ctx context.Context, node string, user int64, connected bool) error {
	_, err := f.b.request(ctx, node, "presence", presenceRequest{Game: f.id, User: user, Stream: f.stream, Connected: connected})
	return err
}

// renew tells the owner that a player's stream is still open.
func (f *busFeed) renew() {
	f.mu.Lock()
	user, owner := f.user, f.owner
	f.mu.Unlock()
	if user == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), relayTimeout)
	defer cancel()
	if err := f.presence(ctx, owner, user, true); err != nil {
		f.b.log.Warn("bus: a player's stream, renewed to the game's owner", "game", f.id, "err", err)
	}
}

// Snapshot is handlers.GameFeed.Snapshot: the last snapshot received,
// with the running clock run on by the time since it arrived.
func (f *busFeed) Snapshot(context.Context) (*play.Snapshot, error) {
	f.mu.Lock()
	snap, got := f.msg.Msg.Snapshot, f.got
	f.mu.Unlock()
	if snap.Status == game.Active {
		snap.Clocks.At = got // the owner's reading held when it arrived
		snap.Clocks = snap.Clocks.RunTo(time.Now())
	}
	return &snap, nil
}

// Events is handlers.GameFeed.Events.
func (f *busFeed) Events() <-chan *play.Event { return f.events }

// ChatMuted is handlers.GameFeed.ChatMuted.
func (f *busFeed) ChatMuted(user int64) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	side, ok := f.msg.Msg.Snapshot.SideOf(user)
	return ok && f.msg.Muted[side]
}

// Connected is handlers.GameFeed.Connected: it tells the owner.
func (f *busFeed) Connected(ctx context.Context, user int64) error {
	f.mu.Lock()
	f.user = user
	owner := f.owner
	f.mu.Unlock()
	return f.presence(ctx, owner, user, true)
}

// Disconnected is handlers.GameFeed.Disconnected: it tells the owner.
func (f *busFeed) Disconnected(user int64) {
	f.mu.Lock()
	f.user = 0
	owner := f.owner
	f.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), relayTimeout)
	defer cancel()
	if err := f.presence(ctx, owner, user, false); err != nil {
		f.b.log.Warn("bus: a player's stream closed, to the game's owner", "game", f.id, "err", err)
	}
}

// Close is handlers.GameFeed.Close.
func (f *busFeed) Close() {
	f.once.Do(func() {
		close(f.stop)
		f.b.in.unfollow(f.id, f.sub)
	})
}
