package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"satranc/engine/chess"
	"satranc/engine/play"
)

// A game's events between the nodes (docs/scaling.md). The node that owns
// a game publishes each of its events, with the game's snapshot after
// it, on the game's subject (Port.Publish). A node that serves a
// stream of a game another node owns subscribes to that subject, asks
// the owner for the game's snapshot on the owner's own subject, and tells
// it there when a player's stream opens and closes (the disconnection
// countdown stays with the owner); it renders the game for its viewers
// itself (feed.go). The moves, offers and chat still go to the owner as
// forwarded HTTP requests (forward.go).

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
	Muted [2]bool  `json:"muted"`
	Msg   eventMsg `json:"msg"`
	Error string   `json:"error,omitempty"` // a request that failed
}

// snapshotRequest asks the owner for game Game's snapshot.
type snapshotRequest struct {
	Game int64 `json:"game"`
}

// presenceRequest tells the owner that User's stream Stream of Game, on
// another node, is open (Connected: it opened, or is renewed) or closed
// (presence.go).
type presenceRequest struct {
	Game      int64  `json:"game"`
	User      int64  `json:"user"`
	Stream    string `json:"stream"`
	Connected bool   `json:"connected"`
}

// relayTimeout bounds a request to the owner of a game.
const relayTimeout = 3 * time.Second

// Relay publishes a game's event with the snapshot after it
// (play.Event.After) on the game's subject; an event without one is not
// a game's event and is dropped. It does not block (the client buffers).
func (b *Bus) Relay(e play.Event) {
	if e.After == nil {
		return
	}
	data, err := json.Marshal(b.message(eventMsg{Event: e, Snapshot: *e.After}))
	if err == nil {
		err = b.conn.Publish(gameSubject(e.GameID), data)
	}
	if err != nil {
		b.log.Warn("bus: relay a game's event", "game", e.GameID, "err", err)
	}
}

// message wraps m for the bus.
func (b *Bus) message(m eventMsg) gameMsg {
	g := gameMsg{Node: b.node.id, Taken: time.Now(), Msg: m}
	for _, side := range []chess.Color{chess.White, chess.Black} {
		if u := m.Snapshot.Seat(side).User; u != 0 && b.games != nil {
			g.Muted[side] = b.games.ChatMuted(m.Snapshot.ID, u)
		}
	}
	return g
}

// ServeGames answers the other nodes' requests about the games this node
// owns, from games (a play.Service). Call it before the games' writers
// start.
func (b *Bus) ServeGames(ctx context.Context, games Games) error {
	b.games = games
	b.presences = newPresences(games)
	go b.presences.run(b.done)
	for what, answer := range map[string]func([]byte) gameMsg{
		"snapshot": b.answerSnapshot,
		"presence": b.answerPresence,
	} {
		if err := b.conn.Answer(nodeSubject(b.node.id, what), func(data []byte) []byte {
			reply, err := json.Marshal(answer(data))
			if err != nil { // a gameMsg always encodes; say so rather than stay silent
				reply, _ = json.Marshal(gameMsg{Node: b.node.id, Error: err.Error()})
			}
			return reply
		}); err != nil {
			return fmt.Errorf("bus: subscribe: %w", err)
		}
	}
	if err := b.conn.Flush(ctx); err != nil {
		return fmt.Errorf("bus: %w", err)
	}
	return nil
}

// answerSnapshot answers a snapshotRequest.
func (b *Bus) answerSnapshot(data []byte) gameMsg {
	var req snapshotRequest
	if err := json.Unmarshal(data, &req); err != nil {
		return gameMsg{Node: b.node.id, Error: err.Error()}
	}
	ctx, cancel := context.WithTimeout(context.Background(), relayTimeout)
	defer cancel()
	snap, err := b.games.Game(ctx, req.Game)
	if err != nil {
		return gameMsg{Node: b.node.id, Error: err.Error()}
	}
	return b.message(eventMsg{Event: play.Event{GameID: req.Game}, Snapshot: snap})
}

// answerPresence answers a presenceRequest.
func (b *Bus) answerPresence(data []byte) gameMsg {
	var req presenceRequest
	err := json.Unmarshal(data, &req)
	if err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), relayTimeout)
		defer cancel()
		err = b.presences.apply(ctx, req, time.Now())
	}
	if err != nil {
		return gameMsg{Node: b.node.id, Error: err.Error()}
	}
	return gameMsg{Node: b.node.id}
}

// request sends req to node's subject what and returns the answer,
// which it checks for an error.
func (b *Bus) request(ctx context.Context, node, what string, req any) ([]byte, error) {
	data, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("bus: %s to %s: %w", what, node, err)
	}
	ctx, cancel := context.WithTimeout(ctx, relayTimeout)
	defer cancel()
	reply, err := b.conn.Request(ctx, nodeSubject(node, what), data)
	if err != nil {
		return nil, fmt.Errorf("bus: %s from %s: %w", what, node, err)
	}
	// Only the error: the answer to a presence request carries no
	// snapshot to decode.
	var head struct {
		Error string `json:"error"`
	}
	if err := json.Unmarshal(reply, &head); err != nil {
		return nil, fmt.Errorf("bus: %s from %s: %w", what, node, err)
	}
	if head.Error != "" {
		return nil, fmt.Errorf("bus: %s from %s: %s", what, node, head.Error)
	}
	return reply, nil
}

// snapshot asks node, the owner of game id, for the game's snapshot.
func (b *Bus) snapshot(ctx context.Context, node string, id int64) (gameMsg, error) {
	reply, err := b.request(ctx, node, "snapshot", snapshotRequest{Game: id})
	if err != nil {
		return gameMsg{}, err
	}
	var answer gameMsg
	if err := json.Unmarshal(reply, &answer); err != nil {
		return gameMsg{}, fmt.Errorf("bus: snapshot from %s: %w", node, err)
	}
	return answer, nil
}
