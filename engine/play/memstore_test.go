package play

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"satranc/engine/game"
)

// memStore is an in-memory Store for the tests of this package; the SQLite
// store is tested against the same contract in package store.
type memStore struct {
	mu    sync.Mutex
	games map[int64]GameRecord
	fail  bool // every write fails
	chat  []ChatMessage
	vips  map[int64]bool // users who are VIP members
}

func newMemStore() *memStore { return &memStore{games: make(map[int64]GameRecord)} }

func (m *memStore) CreateGame(_ context.Context, g GameRecord) (int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.fail {
		return 0, fmt.Errorf("memstore: create: broken")
	}
	g.ID = int64(len(m.games) + 1)
	g.Moves = nil
	m.games[g.ID] = g
	return g.ID, nil
}

func (m *memStore) get(id int64) (GameRecord, error) {
	g, ok := m.games[id]
	if !ok {
		return GameRecord{}, fmt.Errorf("memstore: game %d: %w", id, ErrNotFound)
	}
	g.Moves = slices.Clone(g.Moves)
	return g, nil
}

func (m *memStore) Game(_ context.Context, id int64) (GameRecord, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.get(id)
}

func (m *memStore) GameByInvite(_ context.Context, token string) (GameRecord, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for id, g := range m.games {
		if g.InviteToken == token {
			return m.get(id)
		}
	}
	return GameRecord{}, fmt.Errorf("memstore: invite: %w", ErrNotFound)
}

func (m *memStore) UnfinishedGames(_ context.Context) ([]GameRecord, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []GameRecord
	for id := int64(1); id <= int64(len(m.games)); id++ {
		if g, _ := m.get(id); !g.Status.Over() {
			out = append(out, g)
		}
	}
	return out, nil
}

func (m *memStore) StartGame(_ context.Context, id int64, white, black game.Seat, at time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	g, err := m.get(id)
	if err != nil || m.fail {
		return fmt.Errorf("memstore: start: %v", err)
	}
	g.White, g.Black, g.Status, g.StartedAt = white, black, game.Active, at
	m.games[id] = g
	return nil
}

func (m *memStore) AppendMove(_ context.Context, id int64, mv StoredMove, end *Ending) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	g, err := m.get(id)
	if err != nil || m.fail || g.Status.Over() || mv.Ply != len(g.Moves)+1 {
		return fmt.Errorf("memstore: append move %d to game %d: %v", mv.Ply, id, err)
	}
	g.Moves = append(g.Moves, mv)
	if end != nil {
		g.Status, g.Outcome, g.EndedAt = end.Status, end.Outcome, end.At
	}
	m.games[id] = g
	return nil
}

func (m *memStore) FinishGame(_ context.Context, id int64, end Ending) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	g, err := m.get(id)
	if err != nil || m.fail || g.Status.Over() {
		return fmt.Errorf("memstore: finish game %d: %v", id, err)
	}
	g.Status, g.Outcome, g.EndedAt = end.Status, end.Outcome, end.At
	m.games[id] = g
	return nil
}

// CreatePublicGame stores a public game; the memory store keeps no chips
// (the SQLite store's tests cover stakes and the same-opponent rule).
func (m *memStore) CreatePublicGame(ctx context.Context, g GameRecord) (int64, bool, error) {
	id, err := m.CreateGame(ctx, g)
	return id, false, err
}

func (m *memStore) Balance(context.Context, int64) (int64, error) { return 0, nil }

func (m *memStore) AddChatMessage(_ context.Context, msg ChatMessage) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, err := m.get(msg.GameID); err != nil || m.fail {
		return fmt.Errorf("memstore: chat in game %d: %v", msg.GameID, err)
	}
	msg.ID = int64(len(m.chat) + 1)
	m.chat = append(m.chat, msg)
	return nil
}

func (m *memStore) ChatMessages(_ context.Context, gameID int64) ([]ChatMessage, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []ChatMessage
	for _, msg := range m.chat {
		if msg.GameID == gameID {
			out = append(out, msg)
		}
	}
	return out, nil
}

func (m *memStore) VIP(_ context.Context, user int64) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.vips[user], nil
}

// setVIP makes user a VIP member, or not.
func (m *memStore) setVIP(user int64, on bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.vips == nil {
		m.vips = make(map[int64]bool)
	}
	m.vips[user] = on
}
