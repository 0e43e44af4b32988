package store

import (
	"context"
	"errors"
	"math"
	"testing"

	"satranc/engine/chips"
	"satranc/engine/fairplay"
)

// TestGrantOverflow: a grant that would take a balance (the member's or
// the issuer's, which holds minus everything issued) past the int64 range
// is chips.ErrOverflow, not SQLite's "cannot store REAL value" nor a
// wrapped number, and changes nothing; a grant that fits still goes
// through. A bad amount or reason is refused before anything is written.
func TestGrantOverflow(t *testing.T) {
	ctx := context.Background()
	s, _ := mustOpen(t)
	u := mustCreateUser(t, s, "zengin")
	bal, err := s.Balance(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	// Near the top: the member holds MaxInt64 − 10, the issuer minus that.
	huge := int64(math.MaxInt64) - 10 - bal
	if got, err := s.GrantChips(ctx, "zengin", huge, "near the top"); err != nil || got != math.MaxInt64-10 {
		t.Fatalf("GrantChips(%d) = %d, %v", huge, got, err)
	}
	p := poolOf(t, s)
	for _, amount := range []int64{11, 100, math.MaxInt64} {
		_, err := s.GrantChips(ctx, "zengin", amount, "too much")
		if !errors.Is(err, chips.ErrOverflow) {
			t.Errorf("GrantChips(%d) = %v, want ErrOverflow", amount, err)
		}
	}
	for _, bad := range []struct {
		amount int64
		reason string
		want   error
	}{{0, "x", ErrInvalidGrant}, {-5, "x", ErrInvalidGrant}, {5, " ", fairplay.ErrInvalidReason}} {
		if _, err := s.GrantChips(ctx, "zengin", bad.amount, bad.reason); !errors.Is(err, bad.want) {
			t.Errorf("GrantChips(%d, %q) = %v, want %v", bad.amount, bad.reason, err, bad.want)
		}
	}
	if got := poolOf(t, s); got != p {
		t.Errorf("refused grants changed the ledger: %+v, was %+v", got, p)
	}
	if got, err := s.Balance(ctx, u.ID); err != nil || got != math.MaxInt64-10 {
		t.Errorf("Balance after refused grants = %d, %v", got, err)
	}
	if got, err := s.GrantChips(ctx, "zengin", 10, "to the top"); err != nil || got != math.MaxInt64 {
		t.Errorf("GrantChips(10) = %d, %v, want %d", got, err, int64(math.MaxInt64))
	}
	wantBalances(t, s, nil)
}

// TestPostOverflow: any entry, not only a grant, that would take the
// receiving balance past the int64 range is chips.ErrOverflow and leaves
// the transaction's balances as they were (here the house, which may go
// negative, pays a member who is near the top).
func TestPostOverflow(t *testing.T) {
	ctx := context.Background()
	s, _ := mustOpen(t)
	mustUsers(t, s, 1)
	fund(t, s, 1, math.MaxInt64-100)
	tx, err := s.db.Beginx()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback() }()
	err = post(ctx, tx, s.now(), chips.Entry{From: chips.HouseAccount, To: chips.UserAccount(1), Amount: 101, Reason: "test"})
	if !errors.Is(err, chips.ErrOverflow) {
		t.Errorf("post past the top = %v, want ErrOverflow", err)
	}
}
