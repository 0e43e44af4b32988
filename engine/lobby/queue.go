package lobby

import (
	"slices"
	"time"

	"satranc/engine/clock"
	"satranc/engine/game"
)

// Table is one queue of the lobby: a lounge, or Quick Play when Lounge is
// "", with a time control.
type Table struct {
	Lounge  string
	Control clock.Control
}

// Quick reports whether t is a Quick Play table.
func (t Table) Quick() bool { return t.Lounge == "" }

// Window is the rating window of a waiting player: how far from their own
// rating an opponent may be. It starts at Base and widens by Step after
// every Every of waiting, so that nobody waits for ever for an exact match.
type Window struct {
	Base, Step int
	Every      time.Duration
}

// DefaultWindow is ±100 Elo, widening by 50 every 5 seconds: after 6
// seconds (when a bot would take the seat) ±150, after 30 seconds ±400.
var DefaultWindow = Window{Base: 100, Step: 50, Every: 5 * time.Second}

// At returns the window after waiting for waited.
func (w Window) At(waited time.Duration) int {
	if w.Every <= 0 || waited <= 0 {
		return w.Base
	}
	return w.Base + w.Step*int(waited/w.Every)
}

// BotRatings are the fixed ratings of the computer levels (SPEC section 6).
var BotRatings = map[game.Level]int{game.Easy: 800, game.Medium: 1300, game.Hard: 1700}

// BotLevel returns the computer level whose rating is nearest rating; a
// rating half-way between two levels gets the weaker one.
func BotLevel(rating int) game.Level {
	best := game.Easy
	for _, l := range []game.Level{game.Medium, game.Hard} {
		if abs(rating-BotRatings[l]) < abs(rating-BotRatings[best]) {
			best = l
		}
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Entry is a player waiting at a table since Joined.
type Entry struct {
	Player Player
	Table  Table
	Joined time.Time
}

// Pair is a game to start: A with B, or A with a computer player of level
// Bot when B is the zero Entry.
type Pair struct {
	Table Table
	A, B  Entry
	Bot   game.Level
}

// WithBot reports whether the pair is a player and a bot.
func (p Pair) WithBot() bool { return p.Bot != game.NoBot }

// Queues are the waiting players of every table. A player waits at one
// table at most. Queues is not safe for concurrent use: Service owns one in
// its goroutine.
type Queues struct {
	window    Window
	fillAfter time.Duration
	tables    map[Table][]Entry // each in order of joining
	where     map[int64]Table
}

// NewQueues returns empty queues with window w, filling a seat with a bot
// after fillAfter alone (never if fillAfter <= 0).
func NewQueues(w Window, fillAfter time.Duration) *Queues {
	return &Queues{window: w, fillAfter: fillAfter, tables: make(map[Table][]Entry), where: make(map[int64]Table)}
}

// Add puts e at the end of its table's queue. A player already waiting
// leaves their old place first (at the same table they start again).
func (q *Queues) Add(e Entry) {
	q.Remove(e.Player.User)
	q.tables[e.Table] = append(q.tables[e.Table], e)
	q.where[e.Player.User] = e.Table
}

// Remove takes user out of the queue they wait in, and returns their entry.
func (q *Queues) Remove(user int64) (Entry, bool) {
	t, ok := q.where[user]
	if !ok {
		return Entry{}, false
	}
	delete(q.where, user)
	entries := q.tables[t]
	i := slices.IndexFunc(entries, func(e Entry) bool { return e.Player.User == user })
	e := entries[i]
	entries = slices.Delete(entries, i, i+1)
	if len(entries) == 0 {
		delete(q.tables, t)
	} else {
		q.tables[t] = entries
	}
	return e, true
}

// Waiting returns user's entry if they wait.
func (q *Queues) Waiting(user int64) (Entry, bool) {
	t, ok := q.where[user]
	if !ok {
		return Entry{}, false
	}
	for _, e := range q.tables[t] {
		if e.Player.User == user {
			return e, true
		}
	}
	return Entry{}, false
}

// Len returns how many players wait.
func (q *Queues) Len() int { return len(q.where) }

// Match pairs the players of every table at now and takes them out of the
// queues: first players with each other within the rating window
// (MatchTable), then those who have waited fillAfter (fill).
func (q *Queues) Match(now time.Time) []Pair {
	var pairs []Pair
	for t := range q.tables {
		pairs = append(pairs, q.MatchTable(t, now)...)
	}
	if q.fillAfter <= 0 {
		return pairs
	}
	for t := range q.tables {
		pairs = append(pairs, q.fill(t, now)...)
	}
	return pairs
}

// fill seats the players of table t who have waited fillAfter, oldest
// first: each with the other player waiting there nearest in rating (the
// earlier joiner on a tie), whatever the window, and only a player alone
// at the table with a bot. SPEC section 6 lets a bot take the seat only
// when no other player is waiting; the window decides who plays whom
// before that.
func (q *Queues) fill(t Table, now time.Time) []Pair {
	var pairs []Pair
	for {
		entries := q.tables[t]
		i := slices.IndexFunc(entries, func(e Entry) bool { return now.Sub(e.Joined) >= q.fillAfter })
		if i < 0 {
			return pairs
		}
		a, best := entries[i], -1
		for j, b := range entries {
			if j != i && (best < 0 || abs(a.Player.Rating-b.Player.Rating) < abs(a.Player.Rating-entries[best].Player.Rating)) {
				best = j
			}
		}
		p := Pair{Table: t, A: a, Bot: BotLevel(a.Player.Rating)}
		if best >= 0 {
			p.B, p.Bot = entries[best], game.NoBot
			q.Remove(p.B.Player.User)
		}
		q.Remove(a.Player.User)
		pairs = append(pairs, p)
	}
}

// MatchTable pairs the waiting players of table t at now and takes them
// out of the queue. Players are served in the order they joined: each gets
// the opponent nearest in rating (the earlier joiner on a tie) among those
// within the window of either of the two — so the window of whoever has
// waited longer decides, and a newcomer is never refused a partner who is
// willing to play them.
func (q *Queues) MatchTable(t Table, now time.Time) []Pair {
	entries := q.tables[t]
	if len(entries) < 2 {
		return nil
	}
	taken := make([]bool, len(entries))
	var pairs []Pair
	for i, a := range entries {
		if taken[i] {
			continue
		}
		wa := q.window.At(now.Sub(a.Joined))
		best, bestDiff := -1, 0
		for j := i + 1; j < len(entries); j++ {
			if taken[j] {
				continue
			}
			b := entries[j]
			diff := abs(a.Player.Rating - b.Player.Rating)
			if diff > wa && diff > q.window.At(now.Sub(b.Joined)) {
				continue
			}
			if best < 0 || diff < bestDiff {
				best, bestDiff = j, diff
			}
		}
		if best >= 0 {
			taken[i], taken[best] = true, true
			pairs = append(pairs, Pair{Table: t, A: a, B: entries[best]})
		}
	}
	if len(pairs) == 0 {
		return nil
	}
	kept := entries[:0]
	for i, e := range entries {
		if taken[i] {
			delete(q.where, e.Player.User)
		} else {
			kept = append(kept, e)
		}
	}
	if len(kept) == 0 {
		delete(q.tables, t)
	} else {
		clear(entries[len(kept):])
		q.tables[t] = kept
	}
	return pairs
}
