package game

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"satranc/engine/chess"
	"satranc/engine/clock"
)

var t0 = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

func at(d time.Duration) time.Time { return t0.Add(d) }

// newGame starts a game between users 1 (White) and 2 (Black) at t0.
func newGame(t *testing.T, control string, fen string) *Game {
	t.Helper()
	o := Options{White: Human(1), Black: Human(2), Control: clock.MustParse(control)}
	if fen != "" {
		p, err := chess.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		o.Start = p
	}
	return New(o, t0)
}

// play plays the UCI moves, each one second after the previous, starting
// one second after from; it returns the time of the last move.
func play(t *testing.T, g *Game, from time.Duration, moves ...string) time.Duration {
	t.Helper()
	for _, uci := range moves {
		from += time.Second
		m, err := g.ParseMove(uci, chess.English)
		if err != nil {
			t.Fatalf("ParseMove(%s) = %v", uci, err)
		}
		p := g.Position()
		if _, err := g.Move(p.SideToMove(), m, g.Ply(), at(from)); err != nil {
			t.Fatalf("Move(%s) = %v", uci, err)
		}
	}
	return from
}

func lastEnded(t *testing.T, evs []Event) Outcome {
	t.Helper()
	if len(evs) == 0 {
		t.Fatal("no events")
	}
	e, ok := evs[len(evs)-1].(Ended)
	if !ok {
		t.Fatalf("last event %T, want Ended", evs[len(evs)-1])
	}
	return e.Outcome
}

func TestMoveErrors(t *testing.T) {
	g := newGame(t, "3+2", "")
	e4, _ := g.ParseMove("e4", chess.English)
	tests := []struct {
		name string
		side chess.Color
		move string
		ply  int
		want error
	}{
		{"stale ply", chess.White, "e2e4", 1, ErrStalePly},
		{"not your turn", chess.Black, "e7e5", 0, ErrNotYourTurn},
		{"illegal", chess.White, "e2e5", 0, chess.ErrIllegalMove},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := chess.NewMove(mustSquare(tc.move[:2]), mustSquare(tc.move[2:]))
			_, err := g.Move(tc.side, m, tc.ply, at(time.Second))
			if !errors.Is(err, tc.want) {
				t.Errorf("Move(%v, %s, %d) = %v, want %v", tc.side, tc.move, tc.ply, err, tc.want)
			}
		})
	}
	if _, err := g.Move(chess.White, e4, 0, at(time.Second)); err != nil {
		t.Fatal(err)
	}
	// The same request again is refused, not applied twice.
	if _, err := g.Move(chess.White, e4, 0, at(2*time.Second)); !errors.Is(err, ErrStalePly) {
		t.Errorf("replayed move = %v, want ErrStalePly", err)
	}
	if g.Ply() != 1 {
		t.Errorf("Ply() = %d, want 1", g.Ply())
	}
}

func mustSquare(s string) chess.Square {
	sq, err := chess.ParseSquare(s)
	if err != nil {
		panic(err)
	}
	return sq
}

func TestParseMove(t *testing.T) {
	g := newGame(t, "untimed", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
	tests := []struct {
		text    string
		letters chess.Letters
		want    string
	}{
		{"e1g1", chess.English, "e1g1"},
		{"e1h1", chess.English, "e1g1"}, // king onto its own rook
		{"O-O-O", chess.English, "e1c1"},
		{"Kf1", chess.English, "e1f1"},
		{"Şf1", chess.Turkish, "e1f1"},
		{"Kb1", chess.Turkish, "a1b1"}, // Kale: the rook
		// What the rules page (rules.board.typing) promises: the other
		// language's letters but K, zeros for castling, marks left out,
		// and UCI in both languages.
		{"Rb1", chess.Turkish, "a1b1"},
		{"Şf1", chess.English, "e1f1"},
		{"0-0", chess.Turkish, "e1g1"},
		{"0-0-0", chess.English, "e1c1"},
		{"e1g1", chess.Turkish, "e1g1"},
		{"a1a8", chess.Turkish, "a1a8"},
		{"Kxa8", chess.Turkish, "a1a8"}, // a capture with check, the + left out
		{"Rxa8+", chess.English, "a1a8"},
	}
	for _, tc := range tests {
		m, err := g.ParseMove(tc.text, tc.letters)
		if err != nil || m.String() != tc.want {
			t.Errorf("ParseMove(%q, %v) = %v, %v, want %s", tc.text, tc.letters, m, err, tc.want)
		}
	}
	if _, err := g.ParseMove("Kb1", chess.English); !errors.Is(err, chess.ErrIllegalMove) {
		t.Errorf("ParseMove(Kb1, English) = %v, want ErrIllegalMove", err)
	}
}

func TestRulesEndings(t *testing.T) {
	tests := []struct {
		name   string
		fen    string
		moves  []string
		result Result
		reason Reason
	}{
		{"fool's mate", "", []string{"f2f3", "e7e5", "g2g4", "d8h4"}, BlackWins, Checkmate},
		{"stalemate", "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", []string{"f1f7"}, Draw, Stalemate},
		{"insufficient capture", "7k/8/8/8/8/8/6r1/6K1 w - - 0 1", []string{"g1g2"}, Draw, InsufficientMaterial},
		{"fifty moves", "7k/8/8/8/8/8/R7/K7 w - - 99 80", []string{"a2a3"}, Draw, FiftyMoves},
		{"repetition", "", []string{"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"}, Draw, Repetition},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := newGame(t, "5+0", tc.fen)
			var evs []Event
			for i, uci := range tc.moves {
				m, err := g.ParseMove(uci, chess.English)
				if err != nil {
					t.Fatalf("ParseMove(%s) = %v", uci, err)
				}
				p := g.Position()
				evs, err = g.Move(p.SideToMove(), m, i, at(time.Duration(i+1)*time.Second))
				if err != nil {
					t.Fatalf("Move(%s) = %v", uci, err)
				}
			}
			o := lastEnded(t, evs)
			if o.Result != tc.result || o.Reason != tc.reason || g.Status() != Finished {
				t.Errorf("outcome %v (status %v), want %v %v", o, g.Status(), tc.result, tc.reason)
			}
			if _, ok := g.NextDeadline(); ok {
				t.Error("finished game has a deadline")
			}
		})
	}
}

func TestPlayerEndingsAndAbortRule(t *testing.T) {
	fourMoves := []string{"e2e4", "e7e5", "g1f3", "b8c6"}
	tests := []struct {
		name   string
		moves  []string
		act    func(g *Game, now time.Time) ([]Event, error)
		result Result
		reason Reason
		side   chess.Color
		cause  Reason
	}{
		{"resign after 4 plies", fourMoves, func(g *Game, now time.Time) ([]Event, error) { return g.Resign(chess.Black, now) },
			WhiteWins, Resignation, chess.Black, NoReason},
		{"resign after 3 plies aborts", fourMoves[:3], func(g *Game, now time.Time) ([]Event, error) { return g.Resign(chess.White, now) },
			NoResult, Abort, chess.White, Resignation},
		{"resign at once aborts", nil, func(g *Game, now time.Time) ([]Event, error) { return g.Resign(chess.Black, now) },
			NoResult, Abort, chess.Black, Resignation},
		{"leave", fourMoves, func(g *Game, now time.Time) ([]Event, error) { return g.Leave(chess.White, now) },
			BlackWins, LeftTable, chess.White, NoReason},
		{"leave early aborts", fourMoves[:2], func(g *Game, now time.Time) ([]Event, error) { return g.Leave(chess.White, now) },
			NoResult, Abort, chess.White, LeftTable},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := newGame(t, "3+0", "")
			last := play(t, g, 0, tc.moves...)
			evs, err := tc.act(g, at(last+time.Second))
			if err != nil {
				t.Fatal(err)
			}
			o := lastEnded(t, evs)
			want := Outcome{Result: tc.result, Reason: tc.reason, Side: tc.side, Cause: tc.cause}
			if o != want {
				t.Errorf("outcome = %v, want %v", o, want)
			}
			wantStatus := Finished
			if tc.reason == Abort {
				wantStatus = Aborted
			}
			if g.Status() != wantStatus || g.Outcome() != want {
				t.Errorf("Status() = %v, Outcome() = %v", g.Status(), g.Outcome())
			}
			if _, err := g.Resign(chess.White, at(time.Hour)); !errors.Is(err, ErrGameOver) {
				t.Errorf("Resign after the end = %v, want ErrGameOver", err)
			}
		})
	}
}

func TestTimeout(t *testing.T) {
	tests := []struct {
		name   string
		fen    string
		moves  []string
		result Result
		reason Reason
	}{
		{"black flags", "", []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1c4"}, WhiteWins, Timeout},
		// The clocks start with Black's first move: White, who then has
		// made one move, flags in the abort window.
		{"white flags second move: aborted", "", []string{"e2e4", "e7e5"}, NoResult, Abort},
		// After four moves Black flags with White holding only king and knight.
		{"vs king and knight", "7k/8/8/8/8/8/1N4p1/K7 w - - 0 1", []string{"b2d3", "h8h7", "d3e5", "h7h6", "e5f3"}, Draw, TimeoutVsInsufficient},
		{"vs king and pawn", "7k/8/8/8/8/8/1P4p1/K7 w - - 0 1", []string{"b2b3", "h8h7", "b3b4", "h7h6", "b4b5"}, WhiteWins, Timeout},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := newGame(t, "1+0", tc.fen)
			play(t, g, 0, tc.moves...)
			flagAt, ok := g.NextDeadline()
			if !ok {
				t.Fatal("no deadline")
			}
			if evs := g.Tick(flagAt.Add(-time.Millisecond)); len(evs) != 0 {
				t.Fatalf("Tick before the flag = %v", evs)
			}
			// A move after the flag fell is refused and the game ends by time.
			p := g.Position()
			var buf [chess.MaxMoves]chess.Move
			legal := p.AppendLegalMoves(buf[:0])
			evs, err := g.Move(p.SideToMove(), legal[0], g.Ply(), flagAt.Add(time.Second))
			if !errors.Is(err, ErrGameOver) {
				t.Fatalf("move after flag = %v, want ErrGameOver", err)
			}
			o := lastEnded(t, evs)
			if o.Result != tc.result || o.Reason != tc.reason {
				t.Errorf("outcome = %v, want %v %v", o, tc.result, tc.reason)
			}
			if !g.EndedAt().Equal(flagAt) {
				t.Errorf("EndedAt = %v, want the flag time %v", g.EndedAt(), flagAt)
			}
			if c := g.Clocks(at(time.Hour)); c.Running || c.Remaining(o.Side) != 0 {
				t.Errorf("clocks after flag: %+v", c)
			}
		})
	}
}

func TestDrawOffers(t *testing.T) {
	g := newGame(t, "5+0", "")
	if _, err := g.OfferDraw(chess.White, at(time.Second)); !errors.Is(err, ErrDrawNotAllowed) {
		t.Fatalf("offer before any move = %v, want ErrDrawNotAllowed", err)
	}
	last := play(t, g, 0, "e2e4")
	if _, err := g.OfferDraw(chess.White, at(last)); !errors.Is(err, ErrDrawNotAllowed) {
		t.Fatalf("offer before Black moved = %v, want ErrDrawNotAllowed", err)
	}
	last = play(t, g, last, "e7e5")

	evs, err := g.OfferDraw(chess.White, at(last))
	if err != nil || len(evs) != 1 {
		t.Fatalf("OfferDraw = %v, %v", evs, err)
	}
	if by, ok := g.DrawOffer(); !ok || by != chess.White {
		t.Fatalf("DrawOffer() = %v, %v", by, ok)
	}
	if _, err := g.AcceptDraw(chess.White, at(last)); !errors.Is(err, ErrNoDrawOffer) {
		t.Errorf("accepting one's own offer = %v, want ErrNoDrawOffer", err)
	}
	if evs, err := g.DeclineDraw(chess.Black, at(last)); err != nil || len(evs) != 1 {
		t.Fatalf("DeclineDraw = %v, %v", evs, err)
	}
	if _, err := g.OfferDraw(chess.White, at(last)); !errors.Is(err, ErrDrawNotAllowed) {
		t.Errorf("second offer in the same ply = %v, want ErrDrawNotAllowed", err)
	}
	// White moves: a new ply allows a new offer; Black moving lets it lapse.
	last = play(t, g, last, "g1f3")
	if _, err := g.OfferDraw(chess.White, at(last)); err != nil {
		t.Fatal(err)
	}
	m, _ := g.ParseMove("b8c6", chess.English)
	evs, err = g.Move(chess.Black, m, g.Ply(), at(last+time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := evs[0].(DrawOfferLapsed); !ok {
		t.Errorf("events after the opponent moved = %#v, want DrawOfferLapsed first", evs)
	}
	if _, ok := g.DrawOffer(); ok {
		t.Error("offer still pending after the opponent moved")
	}
	// Black offers, White offers too: agreement.
	if _, err := g.OfferDraw(chess.Black, at(last+2*time.Second)); err != nil {
		t.Fatal(err)
	}
	evs, err = g.OfferDraw(chess.White, at(last+3*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if o := lastEnded(t, evs); o.Result != Draw || o.Reason != Agreement {
		t.Errorf("outcome = %v, want a draw by agreement", o)
	}
}

func TestDisconnection(t *testing.T) {
	o := Options{White: Human(1), Black: Bot(Easy), Control: clock.MustParse("10+0"), DisconnectGrace: 30 * time.Second}
	g := New(o, t0)
	last := play(t, g, 0, "e2e4", "e7e5", "g1f3", "b8c6")
	if evs := g.Disconnect(chess.Black, at(last)); len(evs) != 0 {
		t.Errorf("Disconnect(bot) = %v, want nothing", evs)
	}
	evs := g.Disconnect(chess.White, at(last))
	if len(evs) != 1 {
		t.Fatalf("Disconnect = %v", evs)
	}
	d, ok := g.DisconnectDeadline(chess.White)
	if want := at(last + 30*time.Second); !ok || !d.Equal(want) || evs[0].(PlayerDisconnected).Deadline != want {
		t.Fatalf("deadline = %v, %v, want %v", d, ok, want)
	}
	if next, _ := g.NextDeadline(); !next.Equal(d) {
		t.Errorf("NextDeadline = %v, want %v", next, d)
	}
	if evs := g.Reconnect(chess.White, at(last+10*time.Second)); len(evs) != 1 {
		t.Errorf("Reconnect = %v", evs)
	}
	g.Disconnect(chess.White, at(last+20*time.Second))
	// The clock keeps running meanwhile. (White's first move was free: the
	// clocks started with Black's, and Nf3 took 1 s.)
	if c := g.Clocks(at(last + 20*time.Second)); c.White != 10*time.Minute-time.Second-20*time.Second {
		t.Errorf("White's clock = %v", c.White)
	}
	if evs := g.Tick(at(last + 49*time.Second)); len(evs) != 0 {
		t.Errorf("Tick before the deadline = %v", evs)
	}
	evs = g.Tick(at(last + 51*time.Second))
	want := Outcome{Result: BlackWins, Reason: Disconnected, Side: chess.White}
	if o := lastEnded(t, evs); o != want {
		t.Errorf("outcome = %v, want %v", o, want)
	}
}

func TestJoin(t *testing.T) {
	g := New(Options{White: Human(1), Control: clock.MustParse("3+2")}, t0)
	if g.Status() != Waiting {
		t.Fatalf("Status() = %v, want waiting", g.Status())
	}
	if _, err := g.Resign(chess.White, at(time.Second)); !errors.Is(err, ErrNotStarted) {
		t.Errorf("Resign while waiting = %v, want ErrNotStarted", err)
	}
	if _, err := g.Join(Human(1), at(time.Second)); !errors.Is(err, ErrSeatTaken) {
		t.Errorf("joining one's own game = %v, want ErrSeatTaken", err)
	}
	evs, err := g.Join(Human(2), at(time.Minute))
	if err != nil || len(evs) != 1 {
		t.Fatalf("Join = %v, %v", evs, err)
	}
	if g.Status() != Active || !g.StartedAt().Equal(at(time.Minute)) || g.Seat(chess.Black) != Human(2) {
		t.Errorf("after Join: %v started %v black %v", g.Status(), g.StartedAt(), g.Seat(chess.Black))
	}
	if side, ok := g.SideOf(2); !ok || side != chess.Black {
		t.Errorf("SideOf(2) = %v, %v", side, ok)
	}
	if _, err := g.Join(Human(3), at(time.Minute)); !errors.Is(err, ErrSeatTaken) {
		t.Errorf("third player = %v, want ErrSeatTaken", err)
	}

	w := New(Options{Black: Human(5)}, t0)
	evs, _ = w.Leave(chess.Black, at(time.Second))
	if o := lastEnded(t, evs); o.Reason != Abort || w.Status() != Aborted {
		t.Errorf("leaving a waiting game: %v, %v", o, w.Status())
	}
}

// TestInviteExpiry: a Waiting game nobody joins by Options.JoinBy is
// cancelled at that moment, with no result; joining later fails; a
// restored Waiting game keeps its deadline; a game joined in time has none.
func TestInviteExpiry(t *testing.T) {
	by := at(24 * time.Hour)
	g := New(Options{Black: Human(5), Control: clock.MustParse("3+2"), JoinBy: by}, t0)
	if d, ok := g.NextDeadline(); !ok || !d.Equal(by) {
		t.Fatalf("NextDeadline() = %v, %v, want %v", d, ok, by)
	}
	if evs := g.Tick(by.Add(-time.Millisecond)); len(evs) != 0 || g.Status() != Waiting {
		t.Fatalf("Tick before the expiry = %v, status %v", evs, g.Status())
	}
	evs, err := g.Join(Human(6), by.Add(time.Second))
	if !errors.Is(err, ErrSeatTaken) {
		t.Fatalf("Join after the expiry = %v, want ErrSeatTaken", err)
	}
	want := Outcome{Result: NoResult, Reason: InviteExpired, Side: chess.Black}
	if o := lastEnded(t, evs); o != want || g.Status() != Aborted || !g.EndedAt().Equal(by) {
		t.Errorf("after the expiry: %v, %v, ended %v; want %v, aborted, ended %v", o, g.Status(), g.EndedAt(), want, by)
	}
	if !want.IsAborted() || want.String() != "invitation of black expired" {
		t.Errorf("%v: IsAborted() = %v", want, want.IsAborted())
	}
	if _, ok := g.NextDeadline(); ok {
		t.Error("a cancelled game still has a deadline")
	}
	if evs := g.Tick(by.Add(time.Hour)); len(evs) != 0 {
		t.Errorf("Tick after the end = %v", evs)
	}

	// A cancelled game, read back from the store, keeps its empty seat.
	c, err := Restore(Saved{Options: Options{Black: Human(5)}, Status: Aborted, Outcome: want, EndedAt: by})
	if err != nil || c.Outcome() != want || c.Status() != Aborted || !c.EndedAt().Equal(by) {
		t.Fatalf("Restore(cancelled) = %v, %v, %v", c, err, by)
	}

	r, err := Restore(Saved{Options: Options{White: Human(5), JoinBy: by}, Status: Waiting})
	if err != nil {
		t.Fatal(err)
	}
	evs = r.Tick(by.Add(time.Hour))
	if o := lastEnded(t, evs); o.Reason != InviteExpired || o.Side != chess.White || !r.EndedAt().Equal(by) {
		t.Errorf("restored game ticked after the expiry: %v, ended %v", o, r.EndedAt())
	}

	j := New(Options{White: Human(5), JoinBy: by}, t0)
	if _, err := j.Join(Human(6), at(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, ok := j.NextDeadline(); ok {
		t.Error("an untimed game joined in time still has a deadline")
	}
	if evs := j.Tick(by.Add(time.Hour)); len(evs) != 0 || j.Status() != Active {
		t.Errorf("a joined game ticked after the invitation's expiry: %v, %v", evs, j.Status())
	}
}

func TestRestore(t *testing.T) {
	g := newGame(t, "3+2", "")
	last := play(t, g, 0, "e2e4", "e7e5", "g1f3")
	saved := Saved{
		Options:   Options{White: Human(1), Black: Human(2), Control: clock.MustParse("3+2")},
		Status:    Active,
		StartedAt: t0,
		Moves:     g.Moves(),
	}
	r, err := Restore(saved)
	if err != nil {
		t.Fatal(err)
	}
	now := at(last + 20*time.Second)
	if a, b := g.Clocks(now), r.Clocks(now); a != b {
		t.Errorf("restored clocks %+v, want %+v", b, a)
	}
	if r.Ply() != 3 || r.Status() != Active {
		t.Errorf("restored ply %d status %v", r.Ply(), r.Status())
	}
	// The downtime would leave Black 2s: EnsureRemaining grants 15s.
	late := at(last + 178*time.Second)
	if !r.EnsureRemaining(15*time.Second, late) {
		t.Error("EnsureRemaining did nothing")
	}
	if c := r.Clocks(late); c.Black != 15*time.Second {
		t.Errorf("Black after grace = %v, want 15s", c.Black)
	}
	if r.EnsureRemaining(15*time.Second, late) {
		t.Error("EnsureRemaining granted twice")
	}

	saved.Moves = append(saved.Moves, MoveRecord{Move: chess.NewMove(mustSquare("e1"), mustSquare("e8"))})
	if _, err := Restore(saved); !errors.Is(err, ErrInvalid) {
		t.Errorf("Restore with an illegal move = %v, want ErrInvalid", err)
	}

	over := saved
	over.Moves = g.Moves()
	over.Status = Finished
	over.Outcome = Outcome{Result: WhiteWins, Reason: Timeout, Side: chess.Black}
	over.EndedAt = at(time.Hour)
	f, err := Restore(over)
	if err != nil {
		t.Fatal(err)
	}
	// e4 cost nothing and earned no increment (the clocks start with
	// Black's first move); Nf3 took 1 s and earned 2.
	if c := f.Clocks(at(2 * time.Hour)); c.Running || c.Black != 0 || c.White != 3*time.Minute+time.Second {
		t.Errorf("finished clocks = %+v", c)
	}
}

func TestNamesRoundTrip(t *testing.T) {
	for r := NoReason; r <= NoFirstMove; r++ {
		if got, err := ParseReason(r.String()); err != nil || got != r {
			t.Errorf("ParseReason(%q) = %v, %v", r, got, err)
		}
	}
	for s := Waiting; s <= Aborted; s++ {
		if got, err := ParseStatus(s.String()); err != nil || got != s {
			t.Errorf("ParseStatus(%q) = %v, %v", s, got, err)
		}
	}
	for r := NoResult; r <= Draw; r++ {
		if got, err := ParseResult(r.String()); err != nil || got != r {
			t.Errorf("ParseResult(%q) = %v, %v", r, got, err)
		}
	}
	for l := NoBot; l <= Hard; l++ {
		if got, err := ParseLevel(l.String()); err != nil || got != l {
			t.Errorf("ParseLevel(%q) = %v, %v", l, got, err)
		}
	}
	if _, err := ParseLevel("max"); !errors.Is(err, ErrInvalid) {
		t.Errorf("ParseLevel(max) = %v", err)
	}
	if s := fmt.Sprint(Outcome{Reason: Abort, Side: chess.White, Cause: Resignation}); s != "aborted by white (resignation)" {
		t.Errorf("Outcome.String() = %q", s)
	}
}
