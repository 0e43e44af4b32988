package chips

import (
	"flag"
	"math/rand/v2"
	"testing"
	"time"

	"satranc/engine/game"
)

var propertySteps = flag.Int("chips.steps", 20_000, "steps of TestLedgerProperty")

// model is the property test's world: players, open games, the history of
// pairings for the same-opponent rule, and a clock in minutes.
type model struct {
	t       *testing.T
	r       *rand.Rand
	book    *Book
	players []Player // index = user id − 1; Balance unused (the book has it)
	open    []openGame
	pairs   map[[2]int64][]int // minutes at which each pair began a lounge game
	now     int                // minutes
	nextID  int64
	counts  map[string]int
}

type openGame struct {
	id           int64
	white, black game.Seat
	stake        int64 // 0 if unstaked
}

func (m *model) balance(s game.Seat) int64 {
	if s.IsBot() {
		return m.book.Balance(HouseAccount)
	}
	return m.book.Balance(UserAccount(s.User))
}

func (m *model) player(s game.Seat) Player {
	p := m.players[s.User-1]
	p.Balance = m.balance(s)
	return p
}

// TestLedgerProperty plays random sequences of games (human–human and
// human–bot, several open at once), outcomes (wins, draws, aborts),
// same-opponent repeats, bonuses and prizes, and checks after every step
// that no chip was created or lost, that no balance is negative, and that
// each settlement matches SPEC section 5 to the chip.
func TestLedgerProperty(t *testing.T) {
	steps := *propertySteps
	if testing.Short() {
		steps = 10_000
	}
	m := &model{
		t: t, r: rand.New(rand.NewPCG(6, 2026)), book: NewBook(),
		pairs: make(map[[2]int64][]int), counts: make(map[string]int),
	}
	for i := range 8 {
		m.players = append(m.players, Player{Female: i%3 == 0, VIP: i%4 == 1})
		m.apply(Grant(int64(i+1), 5000, ReasonSignup))
	}
	start := time.Now()
	for step := range steps {
		switch x := m.r.IntN(100); {
		case x < 8:
			m.apply(Grant(m.randomUser(), 1000, ReasonDailyBonus))
			m.counts["bonus"]++
		case x < 10:
			m.apply(Grant(m.randomUser(), int64(m.r.IntN(600_000)+1), ReasonPrize))
			m.counts["prize"]++
		case x < 55 && len(m.open) < 4:
			m.startGame()
		default:
			if len(m.open) > 0 {
				m.settleGame()
			}
		}
		m.now += m.r.IntN(25)
		m.check(step)
	}
	for len(m.open) > 0 {
		m.settleGame()
		m.check(steps)
	}
	t.Logf("%d steps in %v: %v", steps, time.Since(start).Round(time.Millisecond), m.counts)
}

func (m *model) randomUser() int64 { return int64(m.r.IntN(len(m.players)) + 1) }

func (m *model) apply(es ...Entry) {
	m.t.Helper()
	if err := m.book.Apply(es); err != nil {
		m.t.Fatalf("Apply(%v): %v", es, err)
	}
}

// startGame seats a random pair (or a player and a bot) in a random lounge
// both may sit in, applies the same-opponent rule and holds the stakes.
func (m *model) startGame() {
	white := game.Human(m.randomUser())
	var black game.Seat
	if m.r.IntN(3) == 0 {
		black = game.Bot(game.Level(m.r.IntN(3) + 1))
	} else {
		black = game.Human(m.randomUser())
		if black == white {
			return
		}
	}
	if m.r.IntN(2) == 0 {
		white, black = black, white
	}
	var ok []Lounge
	for _, l := range Lounges {
		if (white.IsBot() || l.CanSit(m.player(white)) == Allowed) && (black.IsBot() || l.CanSit(m.player(black)) == Allowed) {
			ok = append(ok, l)
		}
	}
	if len(ok) == 0 {
		m.counts["refused"]++
		return
	}
	l := ok[m.r.IntN(len(ok))]
	stake := l.Stake
	if white.IsHuman() && black.IsHuman() {
		key := [2]int64{min(white.User, black.User), max(white.User, black.User)}
		earlier := 0
		for _, at := range m.pairs[key] {
			if m.now-at < 24*60 {
				earlier++
			}
		}
		m.pairs[key] = append(m.pairs[key], m.now)
		if Unstaked(earlier) {
			stake = 0
			m.counts["unstaked"]++
		}
	}
	m.nextID++
	g := openGame{id: m.nextID, white: white, black: black, stake: stake}
	wBefore, bBefore := m.balance(white), m.balance(black)
	hold, err := Hold(g.id, white, black, stake)
	if err != nil {
		m.t.Fatal(err)
	}
	m.apply(hold...)
	if m.book.Balance(EscrowAccount(g.id)) != 2*stake {
		m.t.Fatalf("game %d: escrow %d after hold, want %d", g.id, m.book.Balance(EscrowAccount(g.id)), 2*stake)
	}
	if white.IsHuman() && m.balance(white) != wBefore-stake || black.IsHuman() && m.balance(black) != bBefore-stake {
		m.t.Fatalf("game %d: hold of %d took the wrong amounts", g.id, stake)
	}
	m.open = append(m.open, g)
	m.counts["games"]++
}

// settleGame ends a random open game with a random outcome and checks the
// change of every account involved against SPEC's rule, computed here
// independently of Settle.
func (m *model) settleGame() {
	i := m.r.IntN(len(m.open))
	g := m.open[i]
	m.open = append(m.open[:i], m.open[i+1:]...)
	results := []game.Result{game.WhiteWins, game.BlackWins, game.Draw}
	s := Settlement{Game: g.id, White: g.white, Black: g.black, Stake: g.stake,
		Result: results[m.r.IntN(3)], Aborted: m.r.IntN(6) == 0}
	var winner game.Seat
	switch {
	case s.Aborted || s.Result == game.Draw:
	case s.Result == game.WhiteWins:
		winner = g.white
	default:
		winner = g.black
	}
	s.WinnerVIP = winner.IsHuman() && m.players[winner.User-1].VIP

	watch := []Account{HouseAccount, SinkAccount, EscrowAccount(g.id)}
	for _, seat := range []game.Seat{g.white, g.black} {
		if seat.IsHuman() {
			watch = append(watch, UserAccount(seat.User))
		}
	}
	before := make(map[Account]int64)
	for _, a := range watch {
		before[a] = m.book.Balance(a)
	}
	es, err := Settle(s)
	if err != nil {
		m.t.Fatal(err)
	}
	m.apply(es...)

	// SPEC section 5, to the chip: pot = 2 stakes; the winner gets the pot
	// minus 5% (3% if VIP), rounded down; the fee goes to the house; a
	// bot's winnings go to the sink; draws and aborts refund both stakes.
	want := make(map[Account]int64)
	credit := func(s game.Seat, n int64) {
		if s.IsBot() {
			want[HouseAccount] += n
		} else {
			want[UserAccount(s.User)] += n
		}
	}
	want[EscrowAccount(g.id)] = -2 * g.stake
	if winner.IsEmpty() {
		credit(g.white, g.stake)
		credit(g.black, g.stake)
		m.counts["refund"]++
	} else {
		pct := int64(5)
		if s.WinnerVIP {
			pct = 3
		}
		fee := 2 * g.stake * pct / 100
		want[HouseAccount] += fee
		if winner.IsBot() {
			want[SinkAccount] += 2*g.stake - fee
			m.counts["bot won"]++
		} else {
			credit(winner, 2*g.stake-fee)
			m.counts["won"]++
		}
	}
	for _, a := range watch {
		if got := m.book.Balance(a) - before[a]; got != want[a] {
			m.t.Fatalf("game %d (%+v): %s changed by %d, want %d", g.id, s, a, got, want[a])
		}
	}
	if m.book.Balance(EscrowAccount(g.id)) != 0 {
		m.t.Fatalf("game %d: escrow %d after settlement", g.id, m.book.Balance(EscrowAccount(g.id)))
	}
}

// check verifies the invariants after a step.
func (m *model) check(step int) {
	m.t.Helper()
	tot := m.book.Totals()
	if !tot.Conserved() {
		m.t.Fatalf("step %d: users %d + escrow %d + house %d + sink %d != issued %d",
			step, tot.Users, tot.Escrow, tot.House, tot.Sink, tot.Issued)
	}
	var held int64
	for _, g := range m.open {
		held += 2 * g.stake
	}
	if tot.Escrow != held {
		m.t.Fatalf("step %d: escrow %d, open games hold %d", step, tot.Escrow, held)
	}
	for a, v := range m.book.bal {
		if v < 0 && !a.Kind.MayGoNegative() {
			m.t.Fatalf("step %d: %s is %d", step, a, v)
		}
	}
}
