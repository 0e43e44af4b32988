package cluster

import (
	"context"
	"sync"
	"time"
)

// A player's stream served from the bus on another node counts as their
// connection to the table, as a stream served here does: the node that
// serves it tells the owner when it opens and closes, and renews it every
// presenceRenew meanwhile. The owner lets a stream that is not renewed
// within presenceLapse go, as if it closed: the node that served it died
// (or lost the bus), and the player's disconnection countdown starts.
const (
	presenceRenew = 5 * time.Second
	presenceLapse = 3 * presenceRenew
)

// presences are the players' streams on other nodes that the owner
// counts, by the stream's id.
type presences struct {
	games Games

	mu      sync.Mutex
	streams map[string]*remoteStream
}

// remoteStream is one player's stream of a game on another node.
type remoteStream struct {
	game, user int64
	seen       time.Time // its last word
}

func newPresences(games Games) *presences {
	return &presences{games: games, streams: make(map[string]*remoteStream)}
}

// apply answers a presenceRequest: a stream that opens, is renewed or
// closes. A renewal of a stream this node does not know (it took the game
// over, or let the stream lapse) counts as its opening.
func (p *presences) apply(ctx context.Context, req presenceRequest, now time.Time) error {
	p.mu.Lock()
	s := p.streams[req.Stream]
	switch {
	case req.Connected && s != nil:
		s.seen = now
		p.mu.Unlock()
		return nil
	case req.Connected:
		p.streams[req.Stream] = &remoteStream{game: req.Game, user: req.User, seen: now}
		p.mu.Unlock()
		if err := p.games.Connected(ctx, req.Game, req.User); err != nil {
			p.forget(req.Stream)
			return err
		}
		return nil
	case s != nil:
		delete(p.streams, req.Stream)
		p.mu.Unlock()
		p.games.Disconnected(s.game, s.user)
		return nil
	}
	p.mu.Unlock()
	return nil // closed, and not counted here
}

// forget drops a stream without telling the game.
func (p *presences) forget(stream string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.streams, stream)
}

// lapse lets go the streams not renewed since before now-presenceLapse,
// as closed.
func (p *presences) lapse(now time.Time) {
	var gone []*remoteStream
	p.mu.Lock()
	for id, s := range p.streams {
		if now.Sub(s.seen) > presenceLapse {
			gone = append(gone, s)
			delete(p.streams, id)
		}
	}
	p.mu.Unlock()
	for _, s := range gone {
		p.games.Disconnected(s.game, s.user)
	}
}

// run lapses the streams every presenceRenew until done is closed.
func (p *presences) run(done <-chan struct{}) {
	t := time.NewTicker(presenceRenew)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case now := <-t.C:
			p.lapse(now)
		}
	}
}
