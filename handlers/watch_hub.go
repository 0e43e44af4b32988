package handlers

import (
	"context"
	"slices"
	"sync"
	"time"

	"satranc/engine/game"
	"satranc/engine/play"
	"satranc/views"
)

// watchLimit is how many games the Watch page lists: the best-rated
// ones. It bounds what a move costs the watchers (a move redraws one
// mini-board, and only of these games) and what the list costs the store.
const watchLimit = 16

// watchRefresh is how often the list is read again from the store while
// someone watches: games that started, and the moves of games another
// node runs (whose events do not reach this node's hub).
const watchRefresh = 10 * time.Second

// watchBuffer is how many events a watcher may fall behind before it is
// dropped (its page reconnects for a fresh list).
const watchBuffer = 32

// watchHub keeps the list of games to watch for every Watch stream of the
// node, so that the cost of a move does not grow with the watchers: one
// loop follows the listed games (one subscription each, whatever the
// number of watchers), reads a moved game's snapshot once, and hands the
// watchers its mini-board, which each renders in its own language. The
// loop runs while someone watches.
type watchHub struct {
	h *Handler

	mu      sync.Mutex
	games   []views.MiniGame // the list, best-rated first
	read    time.Time        // when games was read from the store
	subs    map[*watchSub]struct{}
	running bool
	// following is closed once the loop follows the listed games: a
	// watcher's list goes out after that, so that a move made meanwhile
	// reaches the watcher.
	following chan struct{}
	// left wakes the loop when the last watcher leaves.
	left chan struct{}
	// reading serialises reads of the list from the store (load), so that
	// the pages asking together share one.
	reading sync.Mutex
	// seated are the listed games' players (playersOf).
	seatsMu sync.Mutex
	seated  map[int64]seatedGame
}

// watchEvent is what a watcher hears: the whole list again, or one game
// of it after a move. Every watcher gets the same one, by pointer, and
// reads it only: a mini-board is some 2.4 KB, which each watcher's buffer
// held 32 times over when the events went by value.
type watchEvent struct {
	list []views.MiniGame // set: the list changed
	game views.MiniGame   // else: this game moved
}

// watchSub is one watcher. Its channel is closed when it is dropped for
// falling behind or when the server shuts down.
type watchSub struct {
	c    chan *watchEvent
	once sync.Once
}

func (s *watchSub) close() { s.once.Do(func() { close(s.c) }) }

func newWatchHub(h *Handler) *watchHub {
	return &watchHub{h: h, subs: make(map[*watchSub]struct{}), left: make(chan struct{}, 1), seated: map[int64]seatedGame{}}
}

// list returns up to n games of the list as it stands, reading it afresh
// when it is older than watchRefresh (nobody watching keeps it fresh).
func (wh *watchHub) list(ctx context.Context, n int) []views.MiniGame {
	wh.mu.Lock()
	fresh := time.Since(wh.read) < watchRefresh
	games := wh.games
	wh.mu.Unlock()
	if !fresh {
		games = wh.load(ctx)
	}
	return games[:min(n, len(games))]
}

// load reads the list from the store and keeps it.
func (wh *watchHub) load(ctx context.Context) []views.MiniGame {
	wh.reading.Lock()
	defer wh.reading.Unlock()
	wh.mu.Lock()
	if time.Since(wh.read) < watchRefresh/2 {
		defer wh.mu.Unlock() // read meanwhile by another page
		return wh.games
	}
	wh.mu.Unlock()
	// The list is shared: a page that goes away while it is read must
	// not leave the others an empty one.
	games, err := wh.readList(context.WithoutCancel(ctx))
	wh.mu.Lock()
	defer wh.mu.Unlock()
	if err != nil {
		wh.h.log.WarnContext(ctx, "games to watch", "err", err)
		return wh.games // the list as it was; the next page reads again
	}
	wh.forget(games)
	wh.games, wh.read = games, time.Now()
	return games
}

// readList reads the games to watch and their players; a game that cannot
// be read, or is over already, is left out.
func (wh *watchHub) readList(ctx context.Context) ([]views.MiniGame, error) {
	ids, err := wh.h.inPlay.GamesToWatch(ctx, watchLimit)
	if err != nil {
		return nil, err
	}
	games := make([]views.MiniGame, 0, len(ids))
	for _, id := range ids {
		if g, ok := wh.mini(ctx, id); ok {
			games = append(games, g)
		}
	}
	return games, nil
}

// mini reads game id's mini-board; ok is false when the game cannot be
// read or is no longer in progress.
func (wh *watchHub) mini(ctx context.Context, id int64) (views.MiniGame, bool) {
	feed, err := wh.h.watchFeed(ctx, id)
	if err != nil {
		wh.h.log.WarnContext(ctx, "game to watch", "game", id, "err", err)
		return views.MiniGame{}, false
	}
	defer feed.Close()
	return wh.miniOf(ctx, id, feed)
}

// miniOf is mini through feed, a feed of game id open already.
func (wh *watchHub) miniOf(ctx context.Context, id int64, feed GameFeed) (views.MiniGame, bool) {
	snap, err := feed.Snapshot(ctx)
	if err != nil {
		wh.h.log.WarnContext(ctx, "game to watch", "game", id, "err", err)
		return views.MiniGame{}, false
	}
	if snap.Status != game.Active {
		return views.MiniGame{}, false
	}
	p := wh.playersOf(ctx, *snap)
	return views.NewMiniGame(*snap, p.names, p.ratings), true
}

// playersOf returns the names and ratings of snap's players, read once
// per game while it is listed (a move would otherwise cost the store two
// reads a player).
func (wh *watchHub) playersOf(ctx context.Context, snap play.Snapshot) players {
	seats := [2]game.Seat{snap.White, snap.Black}
	wh.seatsMu.Lock()
	c, ok := wh.seated[snap.ID]
	wh.seatsMu.Unlock()
	if ok && c.seats == seats {
		return c.players
	}
	p := wh.h.seatedPlayers(ctx, snap)
	wh.seatsMu.Lock()
	defer wh.seatsMu.Unlock()
	wh.seated[snap.ID] = seatedGame{seats: seats, players: p}
	return p
}

// forget drops the players of the games no longer listed.
func (wh *watchHub) forget(games []views.MiniGame) {
	keep := make(map[int64]bool, len(games))
	for _, g := range games {
		keep[g.ID] = true
	}
	wh.seatsMu.Lock()
	defer wh.seatsMu.Unlock()
	for id := range wh.seated {
		if !keep[id] {
			delete(wh.seated, id)
		}
	}
}

// seatedGame is a listed game's players, as read for its seats.
type seatedGame struct {
	seats   [2]game.Seat
	players players
}

// subscribe adds a watcher and returns it with the list as it stands
// (the first event of its stream); the loop starts with the first
// watcher. The caller must call unsubscribe.
func (wh *watchHub) subscribe(ctx context.Context) (*watchSub, []views.MiniGame) {
	s := &watchSub{c: make(chan *watchEvent, watchBuffer)}
	wh.mu.Lock()
	wh.subs[s] = struct{}{}
	// The loop counts as a stream taken out of net/http: the server's
	// shutdown ends it and waits for it (Handler.ShutdownServer).
	if !wh.running && wh.h.detached.add() {
		wh.running = true
		following := make(chan struct{})
		wh.following = following
		go func() {
			defer wh.h.detached.done()
			wh.run(wh.h.detached.ctx, following)
		}()
	} else if !wh.running {
		delete(wh.subs, s) // shutting down: the stream ends at once
		s.close()
	}
	following := wh.following
	wh.mu.Unlock()
	// The list is read after the watcher is added and the loop follows
	// the games, so that no change falls between them (a move heard
	// twice redraws a board twice).
	if following != nil {
		select {
		case <-following:
		case <-ctx.Done():
		}
	}
	return s, wh.list(ctx, watchLimit)
}

// unsubscribe removes a watcher.
func (wh *watchHub) unsubscribe(s *watchSub) {
	wh.mu.Lock()
	defer wh.mu.Unlock()
	delete(wh.subs, s)
	s.close()
	if len(wh.subs) == 0 {
		select {
		case wh.left <- struct{}{}: // the loop stops if nobody came meanwhile
		default:
		}
	}
}

// publish hands e to every watcher without blocking: one that fell
// behind is dropped.
func (wh *watchHub) publish(e *watchEvent) {
	wh.mu.Lock()
	defer wh.mu.Unlock()
	for s := range wh.subs {
		select {
		case s.c <- e:
		default:
			delete(wh.subs, s)
			s.close()
		}
	}
}

// run is the hub's loop: it follows the listed games' events, and reads
// the list again every watchRefresh, until nobody watches or ctx ends
// (the server shuts down, which ends every watcher). It closes following
// once it follows the games first listed.
func (wh *watchHub) run(ctx context.Context, following chan struct{}) {
	f := newWatchFollow(wh.h)
	defer f.closeAll()
	refresh := time.NewTicker(watchRefresh)
	defer refresh.Stop()
	f.follow(ctx, wh.list(ctx, watchLimit))
	close(following)
	for {
		select {
		case <-ctx.Done():
			wh.mu.Lock()
			for s := range wh.subs {
				delete(wh.subs, s)
				s.close()
			}
			wh.running = false
			wh.mu.Unlock()
			return
		case <-wh.left:
			if wh.idle() {
				return
			}
		case <-f.wake:
			wh.moved(ctx, f, f.take())
		case <-refresh.C:
			if wh.idle() {
				return
			}
			old := wh.current()
			wh.mu.Lock()
			wh.read = time.Time{} // make load read it
			wh.mu.Unlock()
			games := wh.load(ctx)
			f.follow(ctx, games)
			wh.announce(old, games)
		}
	}
}

// idle stops the loop when nobody watches; the next watcher starts it
// again.
func (wh *watchHub) idle() bool {
	wh.mu.Lock()
	defer wh.mu.Unlock()
	if len(wh.subs) == 0 {
		wh.running = false
		return true
	}
	return false
}

// current returns the list as it stands.
func (wh *watchHub) current() []views.MiniGame {
	wh.mu.Lock()
	defer wh.mu.Unlock()
	return wh.games
}

// moved reads again the games that moved: a game still in progress goes
// to the watchers alone, one that ended takes the list with it (the next
// refresh brings a game in its place).
func (wh *watchHub) moved(ctx context.Context, f *watchFollow, ids []int64) {
	var ended bool
	for _, id := range ids {
		feed, followed := f.feeds[id]
		if !followed {
			continue // left the list meanwhile
		}
		g, ok := wh.miniOf(ctx, id, feed)
		wh.mu.Lock()
		i := slices.IndexFunc(wh.games, func(g views.MiniGame) bool { return g.ID == id })
		if i < 0 {
			wh.mu.Unlock()
			continue // left the list meanwhile
		}
		// Copy on write: streams may be rendering the list they were given.
		games := slices.Clone(wh.games)
		if ok {
			games[i] = g
		} else {
			games = slices.Delete(games, i, i+1)
			ended = true
		}
		wh.games = games
		wh.mu.Unlock()
		if ok {
			wh.publish(&watchEvent{game: g})
		} else {
			f.unfollow(id)
		}
	}
	if ended {
		wh.publish(&watchEvent{list: wh.current()})
	}
}

// announce tells the watchers what changed between the lists old and
// games: the whole list when games came or went or changed places, the
// boards that moved otherwise (games run by another node, whose events
// only the refresh brings).
func (wh *watchHub) announce(old, games []views.MiniGame) {
	if !slices.EqualFunc(old, games, func(a, b views.MiniGame) bool { return a.ID == b.ID }) {
		wh.publish(&watchEvent{list: games})
		return
	}
	for i, g := range games {
		if g.Ply != old[i].Ply {
			wh.publish(&watchEvent{game: g})
		}
	}
}
