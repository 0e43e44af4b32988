package lobby

import (
	"testing"
	"time"

	"satranc/engine/clock"
	"satranc/engine/game"
)

var (
	t0     = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	blitz  = Table{Control: clock.Control{Initial: 5 * time.Minute}}
	bullet = Table{Control: clock.Control{Initial: time.Minute}}
)

func entry(user int64, rating int, tb Table, joined time.Duration) Entry {
	return Entry{Player: Player{User: user, Rating: rating}, Table: tb, Joined: t0.Add(joined)}
}

func TestWindow(t *testing.T) {
	tests := []struct {
		waited time.Duration
		want   int
	}{{0, 100}, {4999 * time.Millisecond, 100}, {5 * time.Second, 150}, {6 * time.Second, 150}, {30 * time.Second, 400}}
	for _, tc := range tests {
		if got := DefaultWindow.At(tc.waited); got != tc.want {
			t.Errorf("DefaultWindow.At(%v) = %d, want %d", tc.waited, got, tc.want)
		}
	}
}

func TestBotLevel(t *testing.T) {
	tests := []struct {
		rating int
		want   game.Level
	}{{400, game.Easy}, {1050, game.Easy}, {1051, game.Medium}, {1200, game.Medium}, {1500, game.Medium}, {1501, game.Hard}, {2400, game.Hard}}
	for _, tc := range tests {
		if got := BotLevel(tc.rating); got != tc.want {
			t.Errorf("BotLevel(%d) = %v, want %v", tc.rating, got, tc.want)
		}
	}
}

// users returns the user IDs of pairs, 0 for a bot.
func users(pairs []Pair) [][2]int64 {
	var out [][2]int64
	for _, p := range pairs {
		out = append(out, [2]int64{p.A.Player.User, p.B.Player.User})
	}
	return out
}

func TestMatchTable(t *testing.T) {
	tests := []struct {
		name    string
		entries []Entry
		at      time.Duration
		want    [][2]int64
		left    int
	}{
		{"alone", []Entry{entry(1, 1200, blitz, 0)}, 0, nil, 1},
		{"within 100", []Entry{entry(1, 1200, blitz, 0), entry(2, 1300, blitz, 0)}, 0, [][2]int64{{1, 2}}, 0},
		{"101 apart waits", []Entry{entry(1, 1200, blitz, 0), entry(2, 1301, blitz, 0)}, 0, nil, 2},
		{"window widens after 5 s", []Entry{entry(1, 1200, blitz, 0), entry(2, 1301, blitz, 4*time.Second)}, 5 * time.Second, [][2]int64{{1, 2}}, 0},
		{"the older waiter's window decides", []Entry{entry(1, 1200, blitz, 0), entry(2, 1340, blitz, 10*time.Second)}, 10 * time.Second, [][2]int64{{1, 2}}, 0},
		{"nearest rating first", []Entry{entry(1, 1200, blitz, 0), entry(2, 1290, blitz, 0), entry(3, 1210, blitz, 0)}, 0, [][2]int64{{1, 3}}, 1},
		{"oldest served first", []Entry{entry(1, 1200, blitz, 0), entry(2, 1250, blitz, time.Second), entry(3, 1300, blitz, 2*time.Second)}, 2 * time.Second, [][2]int64{{1, 2}}, 1},
		{"two pairs", []Entry{entry(1, 1000, blitz, 0), entry(2, 1600, blitz, 0), entry(3, 1050, blitz, 0), entry(4, 1650, blitz, 0)}, 0, [][2]int64{{1, 3}, {2, 4}}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q := NewQueues(DefaultWindow, 0)
			for _, e := range tc.entries {
				q.Add(e)
			}
			got := users(q.MatchTable(blitz, t0.Add(tc.at)))
			if len(got) != len(tc.want) {
				t.Fatalf("MatchTable = %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("MatchTable = %v, want %v", got, tc.want)
				}
			}
			if q.Len() != tc.left {
				t.Errorf("%d left waiting, want %d", q.Len(), tc.left)
			}
		})
	}
}

func TestTablesKeptApart(t *testing.T) {
	q := NewQueues(DefaultWindow, 0)
	q.Add(entry(1, 1200, blitz, 0))
	q.Add(entry(2, 1200, bullet, 0))
	q.Add(entry(3, 1200, Table{Lounge: "kahvehane", Control: blitz.Control}, 0))
	if got := q.Match(t0.Add(time.Hour)); len(got) != 0 {
		t.Errorf("Match across tables = %v, want none", users(got))
	}
}

func TestAddMovesPlayer(t *testing.T) {
	q := NewQueues(DefaultWindow, 0)
	q.Add(entry(1, 1200, blitz, 0))
	q.Add(entry(1, 1200, bullet, time.Second))
	if e, ok := q.Waiting(1); !ok || e.Table != bullet || q.Len() != 1 {
		t.Fatalf("Waiting(1) = %+v, %v with %d waiting; want at bullet alone", e, ok, q.Len())
	}
	q.Add(entry(2, 1200, blitz, 0))
	if got := q.Match(t0.Add(time.Second)); len(got) != 0 {
		t.Errorf("Match = %v, want none (1 left blitz)", users(got))
	}
	if _, ok := q.Remove(1); !ok {
		t.Error("Remove(1) found nobody")
	}
	if _, ok := q.Remove(1); ok {
		t.Error("second Remove(1) found someone")
	}
}

func TestBotFill(t *testing.T) {
	q := NewQueues(DefaultWindow, 6*time.Second)
	q.Add(entry(1, 1800, blitz, 0))
	q.Add(entry(2, 900, bullet, time.Second))
	if got := q.Match(t0.Add(5999 * time.Millisecond)); len(got) != 0 {
		t.Fatalf("Match before 6 s = %v, want none", users(got))
	}
	got := q.Match(t0.Add(6 * time.Second))
	if len(got) != 1 || got[0].A.Player.User != 1 || got[0].Bot != game.Hard || !got[0].WithBot() {
		t.Fatalf("Match at 6 s = %+v, want user 1 with a hard bot", got)
	}
	got = q.Match(t0.Add(7 * time.Second))
	if len(got) != 1 || got[0].A.Player.User != 2 || got[0].Bot != game.Easy {
		t.Fatalf("Match at 7 s = %+v, want user 2 with an easy bot", got)
	}
	if q.Len() != 0 {
		t.Errorf("%d still waiting", q.Len())
	}
}

// TestFillPrefersWaitingPlayer: after 6 s a player is seated with the
// nearest-rated player waiting at the same table, however far outside the
// window; a bot comes only to a player alone at the table (SPEC section
// 6: "if no other player is waiting").
func TestFillPrefersWaitingPlayer(t *testing.T) {
	q := NewQueues(DefaultWindow, 6*time.Second)
	q.Add(entry(1, 1800, blitz, 0))
	q.Add(entry(2, 900, blitz, time.Second))
	q.Add(entry(3, 1300, blitz, 2*time.Second))
	if got := q.Match(t0.Add(5999 * time.Millisecond)); len(got) != 0 {
		t.Fatalf("Match before 6 s = %v, want none (all outside each other's window)", users(got))
	}
	got := q.Match(t0.Add(6 * time.Second))
	if len(got) != 1 || got[0].WithBot() || got[0].A.Player.User != 1 || got[0].B.Player.User != 3 {
		t.Fatalf("Match at 6 s = %v, want user 1 with user 3, the nearer in rating", users(got))
	}
	if got := q.Match(t0.Add(6500 * time.Millisecond)); len(got) != 0 {
		t.Fatalf("Match at 6.5 s = %v, want none (user 2 has waited 5.5 s)", users(got))
	}
	got = q.Match(t0.Add(7 * time.Second))
	if len(got) != 1 || got[0].A.Player.User != 2 || got[0].Bot != game.Easy {
		t.Fatalf("Match at 7 s = %+v, want user 2, now alone, with an easy bot", got)
	}
	if q.Len() != 0 {
		t.Errorf("%d still waiting", q.Len())
	}
}
