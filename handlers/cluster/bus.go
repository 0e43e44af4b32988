package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"satranc/engine/game"
	"satranc/engine/live"
	"satranc/engine/play"
)

// The bus between the nodes of a cluster (--nats, docs/scaling.md). It
// carries each live game's events from the node that owns the game to the
// nodes that serve its streams (relay.go, feed.go), and play.Endings, the
// ends of all games (and voided results), which pages that follow every
// game listen to: the live tournament standings. Each node publishes its
// own endings on endingsSubject and publishes the other nodes' on its
// local hub. Delivery is at most once, as NATS core is: a lost message
// costs a standings page one update, until the next game's end or a
// reload.

// endingsSubject is the NATS subject of the endings.
const endingsSubject = "satranc.endings"

// endingMsg is an event of play.Endings on the wire.
type endingMsg struct {
	Node   string             `json:"node"` // the node it comes from
	GameID int64              `json:"game"`
	Ended  *game.Ended        `json:"ended,omitempty"`
	Voided *play.ResultVoided `json:"voided,omitempty"`
}

// Games is what the bus needs of the games this node owns (play.Service
// has it): their snapshots and chat mutes for the other nodes, and the
// players' streams on other nodes.
type Games interface {
	Game(ctx context.Context, id int64) (play.Snapshot, error)
	ChatMuted(id, user int64) bool
	Connected(ctx context.Context, id, user int64) error
	Disconnected(id, user int64)
}

// Bus is this node's connection to the other nodes: their endings, and
// the events of the games they own (relay.go).
type Bus struct {
	conn transport
	node *Node
	log  *slog.Logger

	mu   sync.Mutex
	lost chan struct{} // closed when the connection is lost; new once it is back

	in *relayIn // the games whose events this node follows
	// games answers the other nodes about this node's games, and
	// presences counts the players' streams on other nodes; set by
	// ServeGames before the games' writers start.
	games     Games
	presences *presences
	done      chan struct{} // closed by Close
}

// newBus returns a bus of node n, not yet connected.
func newBus(n *Node, log *slog.Logger) *Bus {
	b := &Bus{node: n, log: log, lost: make(chan struct{}), done: make(chan struct{})}
	b.in = newRelayIn(b)
	return b
}

// Connect connects node n to the NATS server at url, and publishes on
// hub every ending another node announces. The subscription is in place
// on the server when it returns.
func Connect(ctx context.Context, url string, n *Node, hub *live.Hub[int64, *play.Event], log *slog.Logger) (*Bus, error) {
	b := newBus(n, log)
	nc, err := nats.Connect(url, nats.Name("satranc "+n.id), nats.Timeout(5*time.Second), nats.MaxReconnects(-1),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			log.Warn("bus: disconnected", "err", err)
			b.setConnected(false)
		}),
		nats.ReconnectHandler(func(*nats.Conn) {
			log.Info("bus: reconnected")
			b.setConnected(true)
		}))
	if err != nil {
		return nil, fmt.Errorf("bus: connect %s: %w", url, err)
	}
	b.conn = natsConn{nc: nc, log: log}
	if err := b.start(ctx, hub); err != nil {
		nc.Close()
		return nil, err
	}
	return b, nil
}

// start subscribes to the endings, for hub.
func (b *Bus) start(ctx context.Context, hub *live.Hub[int64, *play.Event]) error {
	if _, err := b.conn.Subscribe(endingsSubject, func(data []byte) { b.receive(hub, data) }); err != nil {
		return fmt.Errorf("bus: subscribe: %w", err)
	}
	if err := b.conn.Flush(ctx); err != nil { // the subscription is in place before we serve
		return fmt.Errorf("bus: %w", err)
	}
	return nil
}

// Announce sends e, an event of play.Endings, to the other nodes. It
// does not block (the client buffers, and drops nothing while connected).
func (b *Bus) Announce(e play.Event) {
	m := endingMsg{Node: b.node.id, GameID: e.GameID}
	switch p := e.Payload.(type) {
	case game.Ended:
		m.Ended = &p
	case play.ResultVoided:
		m.Voided = &p
	default:
		return
	}
	data, err := json.Marshal(m)
	if err == nil {
		err = b.conn.Publish(endingsSubject, data)
	}
	if err != nil {
		b.log.Warn("bus: announce an ending", "game", e.GameID, "err", err)
	}
}

// receive publishes another node's ending on the local hub.
func (b *Bus) receive(hub *live.Hub[int64, *play.Event], data []byte) {
	var m endingMsg
	if err := json.Unmarshal(data, &m); err != nil {
		b.log.Warn("bus: unreadable message", "err", err)
		return
	}
	var p game.Event
	switch {
	case m.Node == b.node.id:
		return // our own, published locally already
	case m.Ended != nil:
		p = *m.Ended
	case m.Voided != nil:
		p = *m.Voided
	default:
		return
	}
	hub.Publish(play.Endings, &play.Event{GameID: m.GameID, Payload: p})
}

// setConnected records that the connection was lost or is back: the
// streams served from the bus end when it is lost (lostC).
func (b *Bus) setConnected(up bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	select {
	case <-b.lost:
		if up {
			b.lost = make(chan struct{})
		}
	default:
		if !up {
			close(b.lost)
		}
	}
}

// lostC returns a channel closed when the connection is lost (at once if
// it is lost now).
func (b *Bus) lostC() <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.lost
}

// Close disconnects, after sending what is buffered.
func (b *Bus) Close() {
	close(b.done)
	b.conn.Close()
}
