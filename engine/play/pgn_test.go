package play

import (
	"strings"
	"testing"
	"time"

	"satranc/engine/chess"
	"satranc/engine/clock"
	"satranc/engine/game"
)

// pgnSnapshot is a finished game of kind between two people, with the
// moves in SAN, started at 2026-12-01 21:04:05 UTC.
func pgnSnapshot(t *testing.T, kind Kind, sans string, o game.Outcome) Snapshot {
	t.Helper()
	snap := Snapshot{
		ID: 7, Kind: kind, White: game.Human(1), Black: game.Human(2),
		Control: clock.MustParse("3+2"), Status: game.Finished, Outcome: o,
		Start:     chess.StartPosition(),
		StartedAt: time.Date(2026, 12, 1, 21, 4, 5, 0, time.UTC),
	}
	p := snap.Start
	for i, s := range strings.Fields(sans) {
		m, err := p.ParseSAN(s, chess.English)
		if err != nil {
			t.Fatalf("ParseSAN(%q): %v", s, err)
		}
		snap.Moves = append(snap.Moves, game.MoveRecord{Move: m, Clock: 3*time.Minute - time.Duration(i)*time.Second})
		p = p.Play(m)
	}
	snap.Position, snap.Ply = p, len(snap.Moves)
	return snap
}

// writePGN is pgnGame's game written in English.
func writePGN(t *testing.T, snap Snapshot, o PGNOptions) string {
	t.Helper()
	var b strings.Builder
	if err := chess.WritePGN(&b, pgnGame(snap, o), chess.English); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestPGNTags: a rated game has the tags lichess writes, in its order.
func TestPGNTags(t *testing.T) {
	snap := pgnSnapshot(t, Lounge, "e4 c5 Nf3 d6 Qe2 Nf6 Qb5+ Qd7 Qxd7+ Nbxd7", game.Outcome{Result: game.BlackWins, Reason: game.Resignation, Side: chess.White})
	got := writePGN(t, snap, PGNOptions{White: "ayşe", Black: "mehmet", Site: "Satranç",
		WhiteElo: 1523, BlackElo: 1490, RatingDiffs: true, WhiteRatingDiff: -9, BlackRatingDiff: 9})
	want := `[Event "Satranç lounge game"]
[Site "Satranç"]
[Date "2026.12.01"]
[Round "-"]
[White "ayşe"]
[Black "mehmet"]
[Result "0-1"]
[UTCDate "2026.12.01"]
[UTCTime "21:04:05"]
[WhiteElo "1523"]
[BlackElo "1490"]
[WhiteRatingDiff "-9"]
[BlackRatingDiff "+9"]
[TimeControl "180+2"]
[ECO "B50"]
[Opening "Sicilian Defense: Modern Variations"]
[Termination "Normal"]

`
	if !strings.HasPrefix(got, want) {
		t.Errorf("pgnGame tags =\n%s\nwant\n%s", got, want)
	}
}

func TestPGNTagsLeftOut(t *testing.T) {
	tests := []struct {
		name    string
		snap    func(*Snapshot)
		o       PGNOptions
		without []string
		with    []string
	}{
		{"unrated", func(s *Snapshot) { s.Kind = Private }, PGNOptions{WhiteElo: 1500, BlackElo: 1500, RatingDiffs: true},
			[]string{"WhiteElo", "BlackElo", "RatingDiff"}, []string{`[ECO "B20"]`}},
		{"unstaked", func(s *Snapshot) { s.Unstaked = true }, PGNOptions{WhiteElo: 1500, BlackElo: 1500, RatingDiffs: true},
			[]string{"WhiteElo", "RatingDiff"}, nil},
		{"not settled", func(*Snapshot) {}, PGNOptions{WhiteElo: 1500, BlackElo: 1600},
			[]string{"RatingDiff"}, []string{`[WhiteElo "1500"]`, `[BlackElo "1600"]`}},
		{"no rating", func(*Snapshot) {}, PGNOptions{BlackElo: 1600},
			[]string{"WhiteElo"}, []string{`[BlackElo "1600"]`}},
		{"no moves", func(s *Snapshot) { s.Moves, s.Ply, s.Position = nil, 0, s.Start }, PGNOptions{},
			[]string{"ECO", "Opening"}, nil},
		{"not begun", func(s *Snapshot) { s.StartedAt = time.Time{} }, PGNOptions{},
			[]string{"UTCDate", "UTCTime"}, []string{`[Date "????.??.??"]`}},
		{"another start", func(s *Snapshot) {
			p, err := chess.ParseFEN("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
			if err != nil {
				t.Fatal(err)
			}
			m, _ := p.ParseSAN("e4", chess.English)
			s.Start, s.Moves, s.Position = p, []game.MoveRecord{{Move: m}}, p.Play(m)
		}, PGNOptions{}, []string{"ECO", "Opening"}, []string{`[SetUp "1"]`}},
		{"still played", func(s *Snapshot) { s.Status, s.Outcome = game.Active, game.Outcome{} }, PGNOptions{WhiteElo: 1500, RatingDiffs: true},
			[]string{"RatingDiff"}, []string{`[Termination "Unterminated"]`, `[Result "*"]`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			snap := pgnSnapshot(t, Quick, "e4 c5", game.Outcome{Result: game.Draw, Reason: game.Agreement})
			tc.snap(&snap)
			got := writePGN(t, snap, tc.o)
			for _, tag := range tc.without {
				if strings.Contains(got, "["+tag) || strings.Contains(got, tag+" ") {
					t.Errorf("pgnGame has a %s tag:\n%s", tag, got)
				}
			}
			for _, s := range tc.with {
				if !strings.Contains(got, s) {
					t.Errorf("pgnGame lacks %s:\n%s", s, got)
				}
			}
		})
	}
}

func TestTerminationTag(t *testing.T) {
	tests := []struct {
		reason game.Reason
		want   string
	}{
		{game.Checkmate, "Normal"},
		{game.Stalemate, "Normal"},
		{game.Repetition, "Normal"},
		{game.FiftyMoves, "Normal"},
		{game.InsufficientMaterial, "Normal"},
		{game.Agreement, "Normal"},
		{game.Resignation, "Normal"},
		{game.Timeout, "Time forfeit"},
		{game.TimeoutVsInsufficient, "Time forfeit"},
		{game.LeftTable, "Abandoned"},
		{game.Disconnected, "Abandoned"},
		{game.Abort, "Abandoned"},
		{game.NoFirstMove, "Abandoned"},
		{game.InviteExpired, "Abandoned"},
		{game.InviteDeclined, "Abandoned"},
	}
	for _, tc := range tests {
		if got := terminationTag(game.Finished, game.Outcome{Reason: tc.reason}); got != tc.want {
			t.Errorf("terminationTag(%v) = %q, want %q", tc.reason, got, tc.want)
		}
	}
	if got := terminationTag(game.Active, game.Outcome{}); got != "Unterminated" {
		t.Errorf("terminationTag(active) = %q, want Unterminated", got)
	}
}
