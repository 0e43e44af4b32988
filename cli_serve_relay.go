package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"

	"satranc/engine/chess"
	"satranc/engine/play"
)

// A game's events between the nodes (docs/scaling.md). The node that owns
// a game publishes each of its events, with the game's snapshot after
// it, on the game's subject (play.Config.Relay). A node that serves a
// stream of a game another node owns subscribes to that subject, asks
// the owner for the game's snapshot on the owner's own subject, and tells
// it there when a player's stream opens and closes (the disconnection
// countdown stays with the owner); it renders the game for its viewers
// itself (cli_serve_feed.go). The moves, offers and chat still go to the
// owner as forwarded HTTP requests (handlers/forward.go).

// gameSubject is the subject of game id's events.
func gameSubject(id int64) string { return "satranc.game." + strconv.FormatInt(id, 10) }

// nodeSubject is the subject on which node answers what: "snapshot" or
// "presence". A node id holds dots and colons (its address), which a
// subject's token cannot.
func nodeSubject(node, what string) string {
	token := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, node)
	return "satranc.node." + token + "." + what
}

// gameMsg is a game's event, or the answer to a snapshot request, on the
// bus.
type gameMsg struct {
	Node string `json:"node"` // the owner, which sent it
	// Taken is when the owner took the snapshot, by its clock: of two
	// messages at the same ply, the later one holds.
	Taken time.Time `json:"taken"`
	// Muted reports, per side (chess.Color), whether that player muted
	// the other's chat, which the owner keeps in memory.
	Muted [2]bool      `json:"muted"`
	Msg   play.Message `json:"msg"`
	Error string       `json:"error,omitempty"` // a request that failed
}

// snapshotRequest asks the owner for game Game's snapshot.
type snapshotRequest struct {
	Game int64 `json:"game"`
}

// presenceRequest tells the owner that User's stream Stream of Game, on
// another node, is open (Connected: it opened, or is renewed) or closed
// (cli_serve_presence.go).
type presenceRequest struct {
	Game      int64  `json:"game"`
	User      int64  `json:"user"`
	Stream    string `json:"stream"`
	Connected bool   `json:"connected"`
}

// relayTimeout bounds a request to the owner of a game.
const relayTimeout = 3 * time.Second

// relay is play.Config.Relay: it publishes a game's event with the
// snapshot after it on the game's subject. It does not block (the
// client buffers).
func (b *bus) relay(e play.Event, after play.Snapshot) {
	data, err := json.Marshal(b.message(play.Message{Event: e, Snapshot: after}))
	if err == nil {
		err = b.nc.Publish(gameSubject(e.GameID), data)
	}
	if err != nil {
		b.log.Warn("bus: relay a game's event", "game", e.GameID, "err", err)
	}
}

// message wraps m for the bus.
func (b *bus) message(m play.Message) gameMsg {
	g := gameMsg{Node: b.node, Taken: time.Now(), Msg: m}
	for _, side := range []chess.Color{chess.White, chess.Black} {
		if u := m.Snapshot.Seat(side).User; u != 0 && b.games != nil {
			g.Muted[side] = b.games.ChatMuted(m.Snapshot.ID, u)
		}
	}
	return g
}

// serveGames answers the other nodes' requests about the games this node
// owns, from games. Call it before the games' writers start.
func (b *bus) serveGames(games *play.Service) error {
	b.games = games
	b.presences = newPresences(games)
	go b.presences.run(b.done)
	for what, answer := range map[string]func(*nats.Msg) gameMsg{
		"snapshot": b.answerSnapshot,
		"presence": b.answerPresence,
	} {
		// Each request in its own goroutine: one slow game holds no other.
		if _, err := b.nc.Subscribe(nodeSubject(b.node, what), func(m *nats.Msg) {
			go func() {
				data, err := json.Marshal(answer(m))
				if err == nil {
					err = m.Respond(data)
				}
				if err != nil {
					b.log.Warn("bus: answer a request", "subject", m.Subject, "err", err)
				}
			}()
		}); err != nil {
			return fmt.Errorf("bus: subscribe: %w", err)
		}
	}
	if err := b.nc.Flush(); err != nil {
		return fmt.Errorf("bus: %w", err)
	}
	return nil
}

// answerSnapshot answers a snapshotRequest.
func (b *bus) answerSnapshot(m *nats.Msg) gameMsg {
	var req snapshotRequest
	if err := json.Unmarshal(m.Data, &req); err != nil {
		return gameMsg{Node: b.node, Error: err.Error()}
	}
	ctx, cancel := context.WithTimeout(context.Background(), relayTimeout)
	defer cancel()
	snap, err := b.games.Game(ctx, req.Game)
	if err != nil {
		return gameMsg{Node: b.node, Error: err.Error()}
	}
	return b.message(play.Message{Event: play.Event{GameID: req.Game}, Snapshot: snap})
}

// answerPresence answers a presenceRequest.
func (b *bus) answerPresence(m *nats.Msg) gameMsg {
	var req presenceRequest
	err := json.Unmarshal(m.Data, &req)
	if err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), relayTimeout)
		defer cancel()
		err = b.presences.apply(ctx, req, time.Now())
	}
	if err != nil {
		return gameMsg{Node: b.node, Error: err.Error()}
	}
	return gameMsg{Node: b.node}
}

// request sends req to node's subject what and decodes the answer.
func (b *bus) request(ctx context.Context, node, what string, req any) (gameMsg, error) {
	data, err := json.Marshal(req)
	if err != nil {
		return gameMsg{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, relayTimeout)
	defer cancel()
	m, err := b.nc.RequestWithContext(ctx, nodeSubject(node, what), data)
	if err != nil {
		return gameMsg{}, fmt.Errorf("bus: %s from %s: %w", what, node, err)
	}
	var answer gameMsg
	if err := json.Unmarshal(m.Data, &answer); err != nil {
		return gameMsg{}, fmt.Errorf("bus: %s from %s: %w", what, node, err)
	}
	if answer.Error != "" {
		return gameMsg{}, fmt.Errorf("bus: %s from %s: %s", what, node, answer.Error)
	}
	return answer, nil
}
