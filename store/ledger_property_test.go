package store

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"satranc/engine/chess"
	"satranc/engine/chips"
	"satranc/engine/elo"
	"satranc/engine/fairplay"
	"satranc/engine/game"
	"satranc/engine/play"
)

var storeLedgerSteps = flag.Int("ledger.steps", 1_000, "steps of TestLedgerPropertyOnSQLite")

// ledgerWorld is TestLedgerPropertyOnSQLite's model: the same entries in
// an in-memory chips.Book, the open games, every lounge game's start per
// pair (for the same-opponent rule, counted here independently of the
// store's SQL) and who had which day's bonus.
type ledgerWorld struct {
	t      *testing.T
	ctx    context.Context
	s      *Store
	r      *rand.Rand
	book   *chips.Book
	users  []int64
	names  map[int64]string
	female map[int64]bool
	vip    map[int64]bool
	open   []ledgerGame
	ended  []ledgerGame // finished, staked and won: the games a void undoes
	met    map[[2]int64][]time.Time
	bonus  map[string]bool // "user day"
	now    time.Time
	counts map[string]int
}

type ledgerGame struct {
	id           int64
	white, black game.Seat
	stake        int64 // 0 when unstaked
	winner       game.Seat
	fee          int64
}

// TestLedgerPropertyOnSQLite drives the real store with random steps: sign-up
// grants, daily bonuses (claimed twice a day at random), administrators'
// grants, VIP changes, lounge games between people and against bots in
// every lounge (refused when a player may not sit there), same-opponent
// repeats, wins, draws and aborts, each settled a second time, chips lost
// outside the games, and voids of won games (each tried twice), the winner
// sometimes short of the winnings. After every step it compares every
// balance with the model, checks that users +
// escrow + house + sink == everything issued and that nothing is negative;
// after every settlement, that it paid SPEC section 5 to the chip and
// changed ratings only for a staked game played to the end.
func TestLedgerPropertyOnSQLite(t *testing.T) {
	steps := *storeLedgerSteps
	if testing.Short() {
		steps = 300
	}
	s, _ := mustOpen(t)
	w := &ledgerWorld{
		t: t, ctx: context.Background(), s: s, r: rand.New(rand.NewPCG(6, 5)), book: chips.NewBook(),
		names: map[int64]string{}, female: map[int64]bool{}, vip: map[int64]bool{},
		met: map[[2]int64][]time.Time{}, bonus: map[string]bool{}, now: gameT0, counts: map[string]int{},
	}
	s.Now = func() time.Time { return w.now }
	for i := range 5 {
		name := fmt.Sprintf("oyuncu%d", i)
		u := mustCreateUser(t, s, name)
		w.users = append(w.users, u.ID)
		w.names[u.ID] = name
		w.apply(chips.Grant(u.ID, s.SignupGrant, chips.ReasonSignup))
		if i%3 == 0 {
			w.female[u.ID] = true
			if _, err := s.db.Exec("UPDATE users SET gender = 'female' WHERE id = ?", u.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
	start := time.Now()
	for step := range steps {
		switch x := w.r.IntN(100); {
		case x < 8:
			w.claimBonus()
		case x < 11:
			w.grant()
		case x < 13:
			w.toggleVIP()
		case x < 17 && len(w.ended) > 0:
			w.voidGame()
		case x < 19:
			w.spend()
		case x < 60 && len(w.open) < 4:
			w.startGame()
		default:
			if len(w.open) > 0 {
				w.endGame()
			}
		}
		// Minutes between steps, so that pairs meet often within 24 hours,
		// and now and then half a day, so that windows and days pass.
		w.now = w.now.Add(time.Duration(w.r.IntN(10)) * time.Minute)
		if w.r.IntN(100) < 3 {
			w.now = w.now.Add(12 * time.Hour)
		}
		w.check(step, step%100 == 0)
	}
	for len(w.open) > 0 {
		w.endGame()
	}
	w.check(steps, true)
	t.Logf("%d steps on SQLite in %v: %v", steps, time.Since(start).Round(time.Millisecond), w.counts)
}

func (w *ledgerWorld) apply(es ...chips.Entry) {
	w.t.Helper()
	if err := w.book.Apply(es); err != nil {
		w.t.Fatalf("model: Apply(%v): %v", es, err)
	}
}

func (w *ledgerWorld) user() int64 { return w.users[w.r.IntN(len(w.users))] }

// claimBonus claims the daily bonus, which the store gives once per UTC day.
func (w *ledgerWorld) claimBonus() {
	u := w.user()
	key := fmt.Sprint(u, w.now.UTC().Format(time.DateOnly))
	ok, err := w.s.ClaimDailyBonus(w.ctx, u, w.now)
	if err != nil || ok == w.bonus[key] {
		w.t.Fatalf("ClaimDailyBonus(%d, %v) = %v, %v; had it already: %v", u, w.now, ok, err, w.bonus[key])
	}
	if ok {
		w.bonus[key] = true
		w.apply(chips.Grant(u, w.s.DailyBonus, chips.ReasonDailyBonus))
		w.counts["bonus"]++
	} else {
		w.counts["bonus again"]++
	}
}

func (w *ledgerWorld) grant() {
	u, n := w.user(), int64(w.r.IntN(800_000)+1)
	if _, err := w.s.GrantChips(w.ctx, w.names[u], n, "property test"); err != nil {
		w.t.Fatal(err)
	}
	w.apply(chips.Grant(u, n, chips.ReasonGrant))
	w.counts["grant"]++
}

func (w *ledgerWorld) toggleVIP() {
	u := w.user()
	w.vip[u] = !w.vip[u]
	if err := w.s.SetVIP(w.ctx, w.names[u], w.vip[u]); err != nil {
		w.t.Fatal(err)
	}
}

// sitter is what the model knows of a seat for chips.Lounge.CanSit.
func (w *ledgerWorld) sitter(u int64) chips.Player {
	return chips.Player{Balance: w.book.Balance(chips.UserAccount(u)), Female: w.female[u], VIP: w.vip[u]}
}

// startGame seats two people, or a person and a bot, in a random lounge.
// A player who may not sit there is turned away with nothing written.
func (w *ledgerWorld) startGame() {
	white := game.Human(w.user())
	black := game.Bot(game.Level(w.r.IntN(3) + 1))
	if w.r.IntN(3) > 0 {
		if black = game.Human(w.user()); black == white {
			return
		}
	}
	if w.r.IntN(2) == 0 {
		white, black = black, white
	}
	refusal := func(l chips.Lounge) chips.Refusal {
		for _, seat := range []game.Seat{white, black} {
			if !seat.IsHuman() {
				continue
			}
			if r := l.CanSit(w.sitter(seat.User)); r != chips.Allowed {
				return r
			}
		}
		return chips.Allowed
	}
	// Mostly a lounge both may sit in, sometimes any: a refusal.
	lounges := chips.Lounges
	if w.r.IntN(4) > 0 {
		lounges = slices.DeleteFunc(slices.Clone(lounges), func(l chips.Lounge) bool { return refusal(l) != chips.Allowed })
		if len(lounges) == 0 {
			lounges = chips.Lounges
		}
	}
	l := lounges[w.r.IntN(len(lounges))]
	wantUnstaked := false
	var key [2]int64
	if white.IsHuman() && black.IsHuman() {
		key = [2]int64{min(white.User, black.User), max(white.User, black.User)}
		earlier := 0
		for _, at := range w.met[key] {
			if w.now.Sub(at) < 24*time.Hour {
				earlier++
			}
		}
		wantUnstaked = earlier >= 3
	}
	id, unstaked, err := w.s.CreatePublicGame(w.ctx, play.GameRecord{Kind: play.Lounge, White: white, Black: black,
		Control: fivePlusZero, Status: game.Active, Stake: l.Stake, CreatedAt: w.now, StartedAt: w.now})
	if r := refusal(l); r != chips.Allowed {
		if !errors.Is(err, r.Err()) {
			w.t.Fatalf("%v v %v in %s: error %v, want %v", white, black, l.Name, err, r.Err())
		}
		w.counts["refused"]++
		return
	}
	if err != nil || unstaked != wantUnstaked {
		w.t.Fatalf("%v v %v in %s: CreatePublicGame = %v, %v; want unstaked %v", white, black, l.Name, unstaked, err, wantUnstaked)
	}
	if key != [2]int64{} {
		w.met[key] = append(w.met[key], w.now)
	}
	g := ledgerGame{id: id, white: white, black: black, stake: l.Stake}
	if unstaked {
		g.stake = 0
		w.counts["unstaked"]++
	} else {
		hold, err := chips.Hold(id, white, black, l.Stake)
		if err != nil {
			w.t.Fatal(err)
		}
		w.apply(hold...)
	}
	w.open = append(w.open, g)
	w.counts["games"]++
}

// ratingOf reads a user's rating and rated games.
func (w *ledgerWorld) ratingOf(u int64) (r, n int) {
	w.t.Helper()
	if err := w.s.db.QueryRow("SELECT rating, rated_games FROM users WHERE id = ?", u).Scan(&r, &n); err != nil {
		w.t.Fatal(err)
	}
	return r, n
}

// endGame ends a random open game with a random result, or aborts it, and
// checks what its settlement paid against SPEC section 5, computed here
// from the rule, and what it did to the ratings against section 7. Then it
// settles the game again, which must change nothing.
func (w *ledgerWorld) endGame() {
	i := w.r.IntN(len(w.open))
	g := w.open[i]
	w.open = append(w.open[:i], w.open[i+1:]...)
	seats := [2]game.Seat{g.white, g.black}
	var before [2][2]int
	for side, seat := range seats {
		if seat.IsHuman() {
			before[side][0], before[side][1] = w.ratingOf(seat.User)
		} else {
			before[side][0] = elo.BotRating(seat.Bot)
		}
	}
	result := []game.Result{game.WhiteWins, game.BlackWins, game.Draw}[w.r.IntN(3)]
	aborted := w.r.IntN(6) == 0
	if aborted {
		abort(w.t, w.s, g.id, w.now)
		w.counts["aborted"]++
	} else {
		finish(w.t, w.s, g.id, result, w.now)
	}

	// SPEC section 5, to the chip: pot = 2 stakes; the winner gets the pot
	// less 5% (3% for a VIP winner), the fee rounded down, to the house; a
	// bot's winnings to the sink; a draw or an abort returns each stake
	// to whoever paid it (the house for a bot). Unstaked: nothing at all.
	escrow := chips.EscrowAccount(g.id)
	payer := func(s game.Seat) chips.Account {
		if s.IsBot() {
			return chips.HouseAccount
		}
		return chips.UserAccount(s.User)
	}
	var es []chips.Entry
	winner := game.Seat{}
	if !aborted && result == game.WhiteWins {
		winner = g.white
	} else if !aborted && result == game.BlackWins {
		winner = g.black
	}
	switch {
	case g.stake == 0:
	case winner.IsEmpty():
		es = append(es, chips.Entry{From: escrow, To: payer(g.white), Amount: g.stake, Reason: chips.ReasonRefund, Game: g.id},
			chips.Entry{From: escrow, To: payer(g.black), Amount: g.stake, Reason: chips.ReasonRefund, Game: g.id})
		w.counts["refunded"]++
	default:
		pct := int64(5)
		if winner.IsHuman() && w.vip[winner.User] {
			pct = 3
		}
		fee := 2 * g.stake * pct / 100
		to := chips.SinkAccount
		if winner.IsHuman() {
			to = chips.UserAccount(winner.User)
		}
		es = append(es, chips.Entry{From: escrow, To: to, Amount: 2*g.stake - fee, Reason: chips.ReasonPayout, Game: g.id},
			chips.Entry{From: escrow, To: chips.HouseAccount, Amount: fee, Reason: chips.ReasonFee, Game: g.id})
		w.counts["won"]++
		g.winner, g.fee = winner, fee
		w.ended = append(w.ended, g)
	}
	if len(es) > 0 {
		w.apply(es...)
	}
	w.compare(fmt.Sprintf("game %d settled (%v, aborted %v, stake %d)", g.id, result, aborted, g.stake))

	rated := g.stake > 0 && !aborted
	for side, seat := range seats {
		if !seat.IsHuman() {
			continue
		}
		r, n := w.ratingOf(seat.User)
		want, wantN := before[side][0], before[side][1]
		if rated {
			sc := elo.Draw
			if winner == seat {
				sc = elo.Win
			} else if !winner.IsEmpty() {
				sc = elo.Loss
			}
			want, wantN = elo.New(before[side][0], before[1-side][0], before[side][1], sc), wantN+1
		}
		if r != want || n != wantN {
			w.t.Fatalf("game %d (rated %v): %s's rating %d (%d games), want %d (%d)",
				g.id, rated, chess.Color(side), r, n, want, wantN)
		}
	}

	if ok, err := w.s.SettleGame(w.ctx, g.id); ok || err != nil {
		w.t.Fatalf("SettleGame(%d) again = %v, %v, want false, nil", g.id, ok, err)
	}
	w.compare(fmt.Sprintf("game %d settled again", g.id))
}

// spend takes a random part of a user's balance to the sink, as if lost
// where the model does not look: the lounges' 10 × stake rule keeps games
// alone from emptying a balance, and a void must cope with one that was.
func (w *ledgerWorld) spend() {
	u := chips.UserAccount(w.user())
	b := w.book.Balance(u)
	if b == 0 {
		return
	}
	n := b // half the time all of it
	if w.r.IntN(2) == 0 {
		n = w.r.Int64N(b) + 1
	}
	e := chips.Entry{From: u, To: chips.SinkAccount, Amount: n, Reason: "test_spend"}
	tx, err := w.s.db.Beginx()
	if err != nil {
		w.t.Fatal(err)
	}
	defer func() { _ = tx.Rollback() }()
	if err := post(w.ctx, tx, formatTime(w.now), e); err != nil {
		w.t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		w.t.Fatal(err)
	}
	w.apply(e)
	w.counts["spent"]++
}

// voidGame voids a random won game (SPEC section 10) and checks the chips
// against a rule computed here, independently of chips.VoidHolding: the
// game's net gain g = stake − fee goes back from its winner as far as
// their balance b holds it (x = min(b, g)), and the loser gets the whole
// stake back, the rest from the house. So, from where each account stands
// now: a person beating a person pays x to the loser and the house pays
// stake − x; a person beating a bot pays x to the house; a bot's winnings
// leave the sink, the stake to the person and the rest to the house. A
// second void is refused and changes nothing.
func (w *ledgerWorld) voidGame() {
	i := w.r.IntN(len(w.ended))
	g := w.ended[i]
	w.ended = append(w.ended[:i], w.ended[i+1:]...)
	loser := g.white
	if g.winner == g.white {
		loser = g.black
	}
	gain := g.stake - g.fee
	var es []chips.Entry
	switch {
	case g.winner.IsHuman():
		win := chips.UserAccount(g.winner.User)
		x := min(w.book.Balance(win), gain)
		if x < gain {
			w.counts["void short"]++
		}
		to := chips.HouseAccount
		if loser.IsHuman() {
			to = chips.UserAccount(loser.User)
			if g.stake > x {
				es = append(es, chips.Entry{From: chips.HouseAccount, To: to, Amount: g.stake - x, Reason: "model"})
			}
		}
		if x > 0 {
			es = append(es, chips.Entry{From: win, To: to, Amount: x, Reason: "model"})
		}
	default:
		es = append(es, chips.Entry{From: chips.SinkAccount, To: chips.UserAccount(loser.User), Amount: g.stake, Reason: "model"},
			chips.Entry{From: chips.SinkAccount, To: chips.HouseAccount, Amount: gain, Reason: "model"})
	}
	if err := w.s.VoidGame(w.ctx, g.id, w.now); err != nil {
		w.t.Fatalf("VoidGame(%d) = %v", g.id, err)
	}
	if len(es) > 0 {
		w.apply(es...)
	}
	w.compare(fmt.Sprintf("game %d voided (%v beat %v at %d)", g.id, g.winner, loser, g.stake))
	if err := w.s.VoidGame(w.ctx, g.id, w.now); !errors.Is(err, fairplay.ErrAlreadyVoided) {
		w.t.Fatalf("VoidGame(%d) again = %v, want ErrAlreadyVoided", g.id, err)
	}
	w.compare(fmt.Sprintf("game %d voided again", g.id))
	w.counts["voided"]++
}

// compare checks every account the model knows against the store.
func (w *ledgerWorld) compare(when string) {
	w.t.Helper()
	accounts := []chips.Account{chips.HouseAccount, chips.SinkAccount, chips.IssuedAccount}
	for _, u := range w.users {
		accounts = append(accounts, chips.UserAccount(u))
	}
	for _, g := range w.open {
		accounts = append(accounts, chips.EscrowAccount(g.id))
	}
	for _, a := range accounts {
		got, err := balanceOf(w.ctx, w.s.db, a)
		if err != nil {
			w.t.Fatal(err)
		}
		if want := w.book.Balance(a); got != want {
			w.t.Fatalf("%s: %s has %d in the store, %d in the model", when, a, got, want)
		}
	}
}

// check compares the balances after a step, and the sums by kind: users +
// escrow + house + sink == issued, no user or escrow below zero, and the
// escrow exactly what the open games hold. With full, it also checks that
// every balance equals the sum of its ledger entries (LedgerTotals).
func (w *ledgerWorld) check(step int, full bool) {
	w.t.Helper()
	when := fmt.Sprintf("step %d", step)
	w.compare(when)
	var rows []struct {
		Kind string `db:"kind"`
		Sum  int64  `db:"total"`
		Min  int64  `db:"least"`
	}
	if err := w.s.db.Select(&rows, "SELECT kind, SUM(balance) AS total, MIN(balance) AS least FROM balances GROUP BY kind"); err != nil {
		w.t.Fatal(err)
	}
	var tot chips.Totals
	for _, r := range rows {
		k, err := chips.ParseKind(r.Kind)
		if err != nil {
			w.t.Fatal(err)
		}
		if r.Min < 0 && !k.MayGoNegative() {
			w.t.Fatalf("%s: a %s balance is %d", when, k, r.Min)
		}
		switch k {
		case chips.User:
			tot.Users = r.Sum
		case chips.Escrow:
			tot.Escrow = r.Sum
		case chips.House:
			tot.House = r.Sum
		case chips.Sink:
			tot.Sink = r.Sum
		case chips.Issued:
			tot.Issued = -r.Sum
		}
	}
	if !tot.Conserved() || tot != w.book.Totals() {
		w.t.Fatalf("%s: store %+v, model %+v (users + escrow + house + sink must equal issued)", when, tot, w.book.Totals())
	}
	var held int64
	for _, g := range w.open {
		held += 2 * g.stake
	}
	if tot.Escrow != held {
		w.t.Fatalf("%s: escrow %d, the open games hold %d", when, tot.Escrow, held)
	}
	if full {
		lt, err := w.s.LedgerTotals(w.ctx)
		if err != nil || lt != tot {
			w.t.Fatalf("%s: LedgerTotals = %+v, %v, want %+v", when, lt, err, tot)
		}
	}
}
