package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"satranc/engine/account"
	"satranc/engine/fairplay"
	"satranc/engine/game"
	"satranc/engine/play"
)

// TestFirstAccountIsAdmin signs up several accounts at once on a fresh
// database: exactly one becomes the administrator.
func TestFirstAccountIsAdmin(t *testing.T) {
	s, _ := mustOpen(t)
	ctx := context.Background()
	const n = 8
	var wg sync.WaitGroup
	users := make([]account.User, n)
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			users[i], errs[i] = s.CreateUser(ctx, account.NewUser{Name: fmt.Sprintf("player%d", i), PasswordHash: "x", Language: "en"})
		})
	}
	wg.Wait()
	admins := 0
	for i, u := range users {
		if errs[i] != nil {
			t.Fatalf("CreateUser %d: %v", i, errs[i])
		}
		if u.Admin {
			admins++
			if got, err := s.UserByID(ctx, u.ID); err != nil || !got.Admin {
				t.Errorf("UserByID(%d) = %+v, %v, want the administrator", u.ID, got, err)
			}
		}
	}
	if admins != 1 {
		t.Errorf("%d administrators among %d first sign-ups, want 1", admins, n)
	}
	later := mustCreateUser(t, s, "later")
	if later.Admin {
		t.Error("a later account became an administrator")
	}
	if err := s.SetAdmin(ctx, "LATER", true); err != nil {
		t.Fatal(err)
	}
	if u, _ := s.UserByName(ctx, "later"); !u.Admin {
		t.Error("SetAdmin(on) did not make an administrator")
	}
	if err := s.SetAdmin(ctx, "later", false); err != nil {
		t.Fatal(err)
	}
	if u, _ := s.UserByName(ctx, "later"); u.Admin {
		t.Error("SetAdmin(off) left an administrator")
	}
	if err := s.SetAdmin(ctx, "nobody", true); !errors.Is(err, ErrNotFound) || !errors.Is(err, account.ErrNotFound) {
		t.Errorf("SetAdmin(nobody) = %v, want ErrNotFound", err)
	}
}

// TestGrantChipsReason: a grant needs a reason, kept as the ledger entry's
// note.
func TestGrantChipsReason(t *testing.T) {
	s, _ := mustOpen(t)
	ctx := context.Background()
	u := mustCreateUser(t, s, "Zeynep")
	start, _ := s.Balance(ctx, u.ID)
	bal, err := s.GrantChips(ctx, "zeynep", 700, "  tournament mix-up \t")
	if err != nil || bal != start+700 {
		t.Fatalf("GrantChips = %d, %v, want %d", bal, err, start+700)
	}
	var note string
	if err := s.db.Get(&note, "SELECT note FROM ledger WHERE reason = 'admin_grant'"); err != nil || note != "tournament mix-up" {
		t.Errorf("grant note %q, %v", note, err)
	}
	for _, reason := range []string{"", "two\nlines"} {
		if _, err := s.GrantChips(ctx, "Zeynep", 700, reason); !errors.Is(err, fairplay.ErrInvalidReason) {
			t.Errorf("GrantChips with reason %q = %v, want ErrInvalidReason", reason, err)
		}
	}
	if _, err := s.GrantChips(ctx, "Zeynep", 0, "why not"); !errors.Is(err, ErrInvalidGrant) {
		t.Errorf("GrantChips(0) = %v, want ErrInvalidGrant", err)
	}
	if got, _ := s.Balance(ctx, u.ID); got != start+700 {
		t.Errorf("balance %d after refused grants, want %d", got, start+700)
	}
	wantBalances(t, s, nil)
}

func TestFindMembers(t *testing.T) {
	s, _ := mustOpen(t)
	ctx := context.Background()
	for _, name := range []string{"Ayse", "ayşe_2", "Mehmet", "a_b", "axb"} {
		mustCreateUser(t, s, name)
	}
	if err := s.SetVIP(ctx, "Mehmet", true); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		query string
		want  []string
	}{
		{"ay", []string{"Ayse", "ayşe_2"}},
		{"MEH", []string{"Mehmet"}},
		{"_", []string{"a_b", "ayşe_2"}}, // literal, not LIKE's any-character
		{"%", nil},
		{"  ", nil},
	}
	for _, tc := range tests {
		ms, err := s.FindMembers(ctx, tc.query, 10)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, m := range ms {
			got = append(got, m.Name)
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("FindMembers(%q) = %v, want %v", tc.query, got, tc.want)
		}
	}
	m, err := s.Member(ctx, "mehmet")
	if err != nil || !m.VIP || m.Admin || m.Balance != s.SignupGrant || m.Rating != 1200 {
		t.Errorf("Member(mehmet) = %+v, %v", m, err)
	}
	if m, err := s.Member(ctx, "ayse"); err != nil || !m.Admin {
		t.Errorf("Member(ayse), the first account = %+v, %v, want an administrator", m, err)
	}
	if _, err := s.Member(ctx, "nobody"); !errors.Is(err, account.ErrNotFound) {
		t.Errorf("Member(nobody) = %v, want ErrNotFound", err)
	}
}

// TestReports: a player reports the opponent once per game; others cannot;
// a computer opponent is reported without an account.
func TestReports(t *testing.T) {
	s, _ := mustOpen(t)
	ctx := context.Background()
	mustUsers(t, s, 3)
	fund(t, s, 1, 10000)
	fund(t, s, 2, 10000)
	id, _ := lounge(t, s, game.Human(1), game.Human(2), 500, gameT0)
	botGame := create(t, s, play.Quick, game.Bot(game.Easy), game.Human(3), gameT0)

	if err := s.ReportPlayer(ctx, id, 1, " engine moves "); err != nil {
		t.Fatal(err)
	}
	if err := s.ReportPlayer(ctx, id, 1, "again"); !errors.Is(err, fairplay.ErrAlreadyReported) {
		t.Errorf("second report = %v, want ErrAlreadyReported", err)
	}
	if err := s.ReportPlayer(ctx, id, 3, "not my game"); !errors.Is(err, play.ErrNotPlayer) {
		t.Errorf("report by a non-player = %v, want ErrNotPlayer", err)
	}
	if err := s.ReportPlayer(ctx, id, 2, ""); !errors.Is(err, fairplay.ErrInvalidReason) {
		t.Errorf("report without a reason = %v, want ErrInvalidReason", err)
	}
	if err := s.ReportPlayer(ctx, 999, 2, "x"); !errors.Is(err, play.ErrNotFound) {
		t.Errorf("report in a missing game = %v, want ErrNotFound", err)
	}
	if err := s.ReportPlayer(ctx, botGame, 3, "too strong"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		user int64
		want bool
	}{{1, true}, {2, false}} {
		if got, err := s.HasReported(ctx, id, c.user); err != nil || got != c.want {
			t.Errorf("HasReported(%d) = %v, %v, want %v", c.user, got, err, c.want)
		}
	}
	rs, err := s.Reports(ctx, 10)
	if err != nil || len(rs) != 2 {
		t.Fatalf("Reports = %+v, %v, want 2", rs, err)
	}
	if r := rs[0]; r.GameID != botGame || r.Reporter != 3 || r.Reported != 0 || r.ReportedName != "" {
		t.Errorf("newest report %+v, want user 3 reporting the computer", r)
	}
	if r := rs[1]; r.GameID != id || r.Reporter != 1 || r.Reported != 2 || r.ReportedName != "userc" || r.Reason != "engine moves" {
		t.Errorf("first report %+v", r)
	}
}
