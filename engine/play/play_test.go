package play

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"satranc/engine/chess"
	"satranc/engine/clock"
	"satranc/engine/game"
)

// firstMoveBot plays the first legal move at once.
type firstMoveBot struct{}

func (firstMoveBot) Move(_ context.Context, p chess.Position, _ []uint64, _, _ time.Duration) (chess.Move, error) {
	m, ok := firstLegal(p)
	if !ok {
		return m, errors.New("no move")
	}
	return m, nil
}

func newService(st Store) *Service {
	return New(Config{
		Store:  st,
		Bots:   func(game.Level) BotPlayer { return firstMoveBot{} },
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
}

// mustMove plays the moves alternately for the two users, one second apart.
func mustMove(t *testing.T, s *Service, id int64, white, black int64, moves ...string) {
	t.Helper()
	ctx := context.Background()
	for _, text := range moves {
		snap, err := s.Game(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		user := white
		if p := snap.Position; p.SideToMove() == chess.Black {
			user = black
		}
		time.Sleep(time.Second)
		if err := s.Move(ctx, id, user, text, chess.English, snap.Ply); err != nil {
			t.Fatalf("Move(%s) = %v", text, err)
		}
	}
}

// privateGame creates a private game of users 1 and 2 and returns the
// users playing White and Black.
func privateGame(t *testing.T, s *Service, control string) (id, white, black int64) {
	t.Helper()
	ctx := context.Background()
	id, token, err := s.CreatePrivateGame(ctx, 1, clock.MustParse(control))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.JoinPrivateGame(ctx, 2, token); err != nil {
		t.Fatal(err)
	}
	snap, err := s.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if snap.White.User == 1 {
		return id, 1, 2
	}
	return id, 2, 1
}

func TestPracticeGameBotAnswers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		st := newMemStore()
		s := newService(st)
		defer s.Close()
		ctx := context.Background()
		id, err := s.CreatePracticeGame(ctx, 7, game.Easy, clock.MustParse("5+0"), PlayBlack)
		if err != nil {
			t.Fatal(err)
		}
		sub := s.Subscribe(id)
		defer sub.Close()
		synctest.Wait() // the bot, White, moves first
		snap, err := s.Game(ctx, id)
		if err != nil || snap.Ply != 1 || snap.Black.User != 7 || !snap.White.IsBot() {
			t.Fatalf("after create: ply %d, white %v, black %v, err %v", snap.Ply, snap.White, snap.Black, err)
		}
		if err := s.Move(ctx, id, 7, "e5", chess.English, 1); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		rec, _ := st.Game(ctx, id)
		if len(rec.Moves) != 3 || rec.Moves[1].UCI != "e7e5" || !rec.Moves[1].HasClock {
			t.Fatalf("stored moves %+v, want 3 with e7e5 second", rec.Moves)
		}
		// The hub saw each move with its ply as id. The bot's first move may
		// come before the subscription: the service starts it at once.
		var plies []int
		for len(sub.C()) > 0 {
			e := <-sub.C()
			if _, ok := e.Payload.(game.Moved); ok {
				plies = append(plies, e.ID())
			}
		}
		if !slices.Equal(plies, []int{1, 2, 3}) && !slices.Equal(plies, []int{2, 3}) {
			t.Errorf("published move plies %v, want [1 2 3] or [2 3]", plies)
		}
		if err := s.Resign(ctx, id, 7); err != nil {
			t.Fatal(err)
		}
		rec, _ = st.Game(ctx, id)
		// Black has made only one move: the resignation aborts the game.
		if rec.Status != game.Aborted || rec.Outcome.Side != chess.Black || rec.Outcome.Cause != game.Resignation {
			t.Errorf("after resign: %v %v", rec.Status, rec.Outcome)
		}
		if err := s.Move(ctx, id, 7, "d5", chess.English, 4); !errors.Is(err, game.ErrGameOver) {
			t.Errorf("move after the end = %v, want ErrGameOver", err)
		}
	})
}

func TestPrivateGameMovesAndErrors(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		st := newMemStore()
		s := newService(st)
		defer s.Close()
		ctx := context.Background()
		id, token, err := s.CreatePrivateGame(ctx, 1, clock.MustParse("3+2"))
		if err != nil || token == "" {
			t.Fatal(err)
		}
		if snap, _ := s.Game(ctx, id); snap.Status != game.Waiting || snap.InviteToken != token {
			t.Fatalf("new private game: %v, token %q", snap.Status, snap.InviteToken)
		}
		if got, err := s.JoinPrivateGame(ctx, 1, token); err != nil || got != id {
			t.Errorf("creator opening the link = %d, %v", got, err)
		}
		if _, err := s.JoinPrivateGame(ctx, 2, "nope"); !errors.Is(err, ErrNotFound) {
			t.Errorf("bad token = %v, want ErrNotFound", err)
		}
		if _, err := s.JoinPrivateGame(ctx, 2, token); err != nil {
			t.Fatal(err)
		}
		if _, err := s.JoinPrivateGame(ctx, 3, token); !errors.Is(err, game.ErrSeatTaken) {
			t.Errorf("third user = %v, want ErrSeatTaken", err)
		}
		snap, _ := s.Game(ctx, id)
		white, _ := snap.SideOf(1)
		wu, bu := int64(1), int64(2)
		if white == chess.Black {
			wu, bu = 2, 1
		}
		tests := []struct {
			name string
			user int64
			text string
			ply  int
			want error
		}{
			{"spectator", 3, "e4", 0, ErrNotPlayer},
			{"not your turn", bu, "e5", 0, game.ErrNotYourTurn},
			{"illegal", wu, "e5", 0, chess.ErrIllegalMove},
			{"bad SAN", wu, "Zz9", 0, chess.ErrInvalidSAN},
			{"ok", wu, "e2e4", 0, nil},
			{"replayed", wu, "e2e4", 0, game.ErrStalePly},
			{"turkish rook", bu, "Kb8", 1, chess.ErrIllegalMove},
			{"turkish ok", bu, "Ac6", 1, nil},
			{"missing game", wu, "d4", 2, ErrNotFound},
		}
		for _, tc := range tests {
			gid := id
			if tc.name == "missing game" {
				gid = 99
			}
			l := chess.English
			if strings.HasPrefix(tc.name, "turkish") {
				l = chess.Turkish
			}
			err := s.Move(ctx, gid, tc.user, tc.text, l, tc.ply)
			if (tc.want == nil && err != nil) || (tc.want != nil && !errors.Is(err, tc.want)) {
				t.Errorf("%s: Move(%d, %q, %d) = %v, want %v", tc.name, tc.user, tc.text, tc.ply, err, tc.want)
			}
		}
		if rec, _ := st.Game(ctx, id); len(rec.Moves) != 2 {
			t.Errorf("stored %d moves, want 2", len(rec.Moves))
		}
	})
}

func TestDrawOfferAndAgreement(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		st := newMemStore()
		s := newService(st)
		defer s.Close()
		ctx := context.Background()
		id, w, b := privateGame(t, s, "5+0")
		if err := s.OfferDraw(ctx, id, w); !errors.Is(err, game.ErrDrawNotAllowed) {
			t.Errorf("offer before moves = %v", err)
		}
		endings := s.Subscribe(Endings)
		defer endings.Close()
		mustMove(t, s, id, w, b, "e4", "e5")
		if err := s.OfferDraw(ctx, id, w); err != nil {
			t.Fatal(err)
		}
		if snap, _ := s.Game(ctx, id); !snap.DrawOffer || snap.DrawOfferBy != chess.White {
			t.Errorf("snapshot offer = %v by %v", snap.DrawOffer, snap.DrawOfferBy)
		}
		if err := s.AnswerDraw(ctx, id, b, true); err != nil {
			t.Fatal(err)
		}
		rec, _ := st.Game(ctx, id)
		if rec.Outcome.Result != game.Draw || rec.Outcome.Reason != game.Agreement {
			t.Errorf("outcome = %v", rec.Outcome)
		}
		// The followers of every game's end heard of this one, and of
		// nothing else.
		if len(endings.C()) != 1 {
			t.Fatalf("%d events on Endings, want 1", len(endings.C()))
		}
		if e := <-endings.C(); e.GameID != id {
			t.Errorf("Endings event of game %d, want %d", e.GameID, id)
		} else if _, ok := e.Payload.(game.Ended); !ok {
			t.Errorf("Endings event %T, want game.Ended", e.Payload)
		}
		s.ResultVoided(id, time.Now())
		if e := <-endings.C(); e.GameID != id {
			t.Errorf("Endings event of game %d, want %d", e.GameID, id)
		} else if _, ok := e.Payload.(ResultVoided); !ok {
			t.Errorf("Endings event %T, want ResultVoided", e.Payload)
		}
	})
}

func TestFlagFallTimer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		st := newMemStore()
		s := newService(st)
		defer s.Close()
		ctx := context.Background()
		id, w, b := privateGame(t, s, "1+0")
		mustMove(t, s, id, w, b, "e4", "e5", "Nf3", "Nc6")
		sub := s.Subscribe(id)
		defer sub.Close()
		// White's clock started with e5 (e4 was free) and Nf3 took 1 s.
		time.Sleep(58 * time.Second) // White had 59 s left
		synctest.Wait()
		if rec, _ := st.Game(ctx, id); rec.Status.Over() {
			t.Fatal("ended before the flag")
		}
		time.Sleep(time.Second)
		synctest.Wait()
		rec, _ := st.Game(ctx, id)
		if rec.Status != game.Finished || rec.Outcome.Reason != game.Timeout || rec.Outcome.Side != chess.White {
			t.Fatalf("after the flag: %v %v", rec.Status, rec.Outcome)
		}
		e := <-sub.C()
		if ended, ok := e.Payload.(game.Ended); !ok || ended.Outcome.Result != game.BlackWins {
			t.Errorf("published %#v, want Ended 0-1", e.Payload)
		}
	})
}

func TestDisconnectionTimer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		st := newMemStore()
		s := newService(st)
		defer s.Close()
		ctx := context.Background()
		id, w, b := privateGame(t, s, "30+0")
		mustMove(t, s, id, w, b, "e4", "e5", "Nf3", "Nc6")
		// Two tabs: closing one is not a disconnection.
		for range 2 {
			if err := s.Connected(ctx, id, b); err != nil {
				t.Fatal(err)
			}
		}
		s.Disconnected(id, b)
		if snap, _ := s.Game(ctx, id); !snap.DisconnectDeadline[chess.Black].IsZero() {
			t.Fatal("disconnected with a tab still open")
		}
		s.Disconnected(id, b)
		snap, _ := s.Game(ctx, id)
		if d := snap.DisconnectDeadline[chess.Black]; !d.Equal(time.Now().Add(45 * time.Second)) {
			t.Fatalf("deadline = %v, want now+45s", d)
		}
		time.Sleep(44 * time.Second)
		if err := s.Connected(ctx, id, b); err != nil { // back in time
			t.Fatal(err)
		}
		time.Sleep(10 * time.Second)
		s.Disconnected(id, b)
		time.Sleep(46 * time.Second)
		synctest.Wait()
		rec, _ := st.Game(ctx, id)
		want := game.Outcome{Result: game.WhiteWins, Reason: game.Disconnected, Side: chess.Black}
		if rec.Outcome != want {
			t.Errorf("outcome = %v, want %v", rec.Outcome, want)
		}
	})
}

func TestRematchAndPGN(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		st := newMemStore()
		s := newService(st)
		defer s.Close()
		ctx := context.Background()
		id, w, b := privateGame(t, s, "3+2")
		if _, err := s.Rematch(ctx, id, w); !errors.Is(err, ErrInvalid) {
			t.Errorf("rematch of a running game = %v", err)
		}
		mustMove(t, s, id, w, b, "f3", "e5", "g4", "Qh4#")
		pgn, err := s.PGN(ctx, id, PGNOptions{White: "ayşe", Black: "mehmet"})
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{`[White "ayşe"]`, `[Result "0-1"]`, `[TimeControl "180+2"]`, `[Termination "Normal"]`, `[ECO "A00"]`, `[Opening "Barnes Opening: Fool's Mate"]`, "Qh4#", "[%clk 0:03:01]", "0-1\n"} {
			if !strings.Contains(pgn, want) {
				t.Errorf("PGN lacks %q:\n%s", want, pgn)
			}
		}
		if got, err := s.Rematch(ctx, id, w); err != nil || got != 0 {
			t.Fatalf("first rematch request = %d, %v, want an offer", got, err)
		}
		newID, err := s.Rematch(ctx, id, b)
		if err != nil || newID == 0 {
			t.Fatalf("second rematch request = %d, %v", newID, err)
		}
		snap, _ := s.Game(ctx, newID)
		if snap.White.User != b || snap.Black.User != w || snap.Status != game.Active {
			t.Errorf("rematch: white %v black %v status %v", snap.White, snap.Black, snap.Status)
		}
		if again, _ := s.Rematch(ctx, id, w); again != newID {
			t.Errorf("rematch again = %d, want %d", again, newID)
		}
	})
}

func TestRestartRecovery(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		st := newMemStore()
		s := newService(st)
		ctx := context.Background()
		id, w, b := privateGame(t, s, "3+2")
		mustMove(t, s, id, w, b, "e4", "e5", "Nf3") // each 1 s apart
		before, err := s.Game(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
		if err := s.Move(ctx, id, b, "Nc6", chess.English, 3); !errors.Is(err, ErrClosed) {
			t.Errorf("move on a closed service = %v, want ErrClosed", err)
		}

		time.Sleep(30 * time.Second) // the server is down
		s2 := newService(st)
		defer s2.Close()
		n, err := s2.Recover(ctx)
		if err != nil || n != 1 {
			t.Fatalf("Recover() = %d, %v", n, err)
		}
		after, err := s2.Game(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(after.UCI(), " ") != "e2e4 e7e5 g1f3" {
			t.Errorf("moves after restart: %v", after.UCI())
		}
		// White's clock stood still; Black's ran through the downtime.
		if after.Clocks.White != before.Clocks.White {
			t.Errorf("White's clock %v, want %v", after.Clocks.White, before.Clocks.White)
		}
		if want := before.Clocks.Black - 30*time.Second; after.Clocks.Black != want {
			t.Errorf("Black's clock %v, want %v", after.Clocks.Black, want)
		}
		// Both players count as disconnected until they come back.
		for _, side := range []chess.Color{chess.White, chess.Black} {
			if d := after.DisconnectDeadline[side]; !d.Equal(time.Now().Add(45 * time.Second)) {
				t.Errorf("%v's deadline %v", side, d)
			}
		}
		if err := s2.Move(ctx, id, b, "Nc6", chess.English, 3); err != nil {
			t.Fatalf("the game goes on: %v", err)
		}
		if snap, _ := s2.Game(ctx, id); !snap.DisconnectDeadline[chess.Black].IsZero() {
			t.Error("a move did not count as being back")
		}
	})
}

func TestRestartGrace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		st := newMemStore()
		s := newService(st)
		ctx := context.Background()
		id, w, b := privateGame(t, s, "1+0")
		mustMove(t, s, id, w, b, "e4", "e5", "Nf3", "Nc6")
		s.Close()
		time.Sleep(5 * time.Minute) // longer than White's clock
		s2 := newService(st)
		defer s2.Close()
		if _, err := s2.Recover(ctx); err != nil {
			t.Fatal(err)
		}
		snap, _ := s2.Game(ctx, id)
		if snap.Status != game.Active || snap.Clocks.White != DefaultRestartGrace {
			t.Fatalf("after a long downtime: %v, White %v, want %v", snap.Status, snap.Clocks.White, DefaultRestartGrace)
		}
		time.Sleep(DefaultRestartGrace)
		synctest.Wait()
		if rec, _ := st.Game(ctx, id); rec.Outcome.Reason != game.Timeout {
			t.Errorf("after the grace: %v", rec.Outcome)
		}
	})
}

func TestStoreFailureReopens(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		st := newMemStore()
		s := newService(st)
		defer s.Close()
		ctx := context.Background()
		id, w, b := privateGame(t, s, "5+0")
		mustMove(t, s, id, w, b, "e4")
		st.mu.Lock()
		st.fail = true
		st.mu.Unlock()
		if err := s.Move(ctx, id, b, "e5", chess.English, 1); err == nil {
			t.Fatal("move with a failing store succeeded")
		}
		st.mu.Lock()
		st.fail = false
		st.mu.Unlock()
		// The writer reopened from the store: the failed move never happened.
		snap, err := s.Game(ctx, id)
		if err != nil || snap.Ply != 1 {
			t.Fatalf("after the failure: ply %d, %v", snap.Ply, err)
		}
		if err := s.Move(ctx, id, b, "e5", chess.English, 1); err != nil {
			t.Fatal(err)
		}
	})
}

// TestSnapshotCarriesVoid: a finished game's snapshot says when an
// administrator voided its result, so its pages can say so.
func TestSnapshotCarriesVoid(t *testing.T) {
	ctx := context.Background()
	st := newMemStore()
	s := newService(st)
	defer s.Close()
	id, white, _ := privateGame(t, s, "5+0")
	if err := s.Resign(ctx, id, white); err != nil {
		t.Fatal(err)
	}
	if snap, err := s.Game(ctx, id); err != nil || !snap.VoidedAt.IsZero() {
		t.Fatalf("before the void: VoidedAt %v, %v; want zero", snap.VoidedAt, err)
	}
	at := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	st.mu.Lock()
	rec := st.games[id]
	rec.VoidedAt = at
	st.games[id] = rec
	st.mu.Unlock()
	if snap, err := s.Game(ctx, id); err != nil || !snap.VoidedAt.Equal(at) {
		t.Errorf("after the void: VoidedAt %v, %v; want %v", snap.VoidedAt, err, at)
	}
}

// TestPGNClocksInWholeSeconds: the clocks, kept to the nanosecond, go
// into the PGN as [%clk h:mm:ss], to the nearest second.
func TestPGNClocksInWholeSeconds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		st := newMemStore()
		s := newService(st)
		defer s.Close()
		ctx := context.Background()
		id, w, b := privateGame(t, s, "3+2")
		for i, text := range []string{"e4", "e5", "Nf3", "Nc6"} {
			user := w
			if i%2 == 1 {
				user = b
			}
			time.Sleep(1300*time.Millisecond + 7*time.Microsecond)
			if err := s.Move(ctx, id, user, text, chess.English, i); err != nil {
				t.Fatalf("move %s: %v", text, err)
			}
		}
		pgn, err := s.PGN(ctx, id, PGNOptions{})
		if err != nil {
			t.Fatal(err)
		}
		clocks := regexp.MustCompile(`\[%clk [^\]]*\]`).FindAllString(pgn, -1)
		// The first moves cost nothing and earn no increment (the clocks
		// start with Black's): 3:00. Then each move costs its mover 1.3 s
		// and gains 2 s: 3:00.699993, 3:01 on a clock.
		want := []string{"[%clk 0:03:00]", "[%clk 0:03:00]", "[%clk 0:03:01]", "[%clk 0:03:01]"}
		if !slices.Equal(clocks, want) {
			t.Errorf("clocks %q, want %q in\n%s", clocks, want, pgn)
		}
	})
}
