package lobby

import (
	"context"
	"errors"
	"sync"

	"satranc/engine/clock"
	"satranc/engine/game"
	"satranc/engine/play"
)

// fakeGames records the games the lobby creates.
type fakeGames struct {
	mu    sync.Mutex
	games []fakeGame
	fail  bool
}

type fakeGame struct {
	kind         play.Kind
	white, black game.Seat
	control      clock.Control
	stake        int64
}

func (f *fakeGames) CreatePublicGame(_ context.Context, kind play.Kind, white, black game.Seat, control clock.Control, stake int64) (int64, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fail {
		return 0, false, errors.New("fake: refused")
	}
	f.games = append(f.games, fakeGame{kind, white, black, control, stake})
	return int64(len(f.games)), false, nil
}

func (f *fakeGames) all() []fakeGame {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]fakeGame(nil), f.games...)
}

// fakePlayers answers from a map; unknown users are rated 1200.
type fakePlayers map[int64]Player

func (f fakePlayers) LobbyPlayer(_ context.Context, user int64) (Player, error) {
	p, ok := f[user]
	if !ok {
		p = Player{Rating: 1200}
	}
	return p, nil
}

func (f fakePlayers) Balance(_ context.Context, user int64) (int64, error) {
	return f[user].Balance, nil
}
