package fairplay

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"
)

// fakeStore records what the service asked of it.
type fakeStore struct {
	voids   []time.Time
	grants  []int64
	items   int
	voidErr error
}

func (f *fakeStore) SetVIP(context.Context, string, bool) error        { return nil }
func (f *fakeStore) SetRestricted(context.Context, string, bool) error { return nil }
func (f *fakeStore) GrantChips(_ context.Context, _ string, amount int64, _ string) (int64, error) {
	f.grants = append(f.grants, amount)
	return amount, nil
}
func (f *fakeStore) GrantItem(context.Context, int64, string, string) (bool, error) {
	f.items++
	return true, nil
}
func (f *fakeStore) VoidGame(_ context.Context, _ int64, at time.Time) error {
	if f.voidErr != nil {
		return f.voidErr
	}
	f.voids = append(f.voids, at)
	return nil
}

type announcements []int64

func (a *announcements) ResultVoided(id int64, _ time.Time) { *a = append(*a, id) }

// TestServiceVoid: the void is written at the time given and announced
// once; a refused void is not announced; no announcer is fine (the CLI).
func TestServiceVoid(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	st, heard := &fakeStore{}, &announcements{}
	svc := NewService(st, heard)
	if err := svc.Void(ctx, 7, at); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(st.voids, []time.Time{at}) || !slices.Equal(*heard, []int64{7}) {
		t.Errorf("voids %v, announced %v; want [%v], [7]", st.voids, *heard, at)
	}
	st.voidErr = ErrAlreadyVoided
	if err := svc.Void(ctx, 7, at); !errors.Is(err, ErrAlreadyVoided) {
		t.Errorf("Void = %v, want ErrAlreadyVoided", err)
	}
	if len(*heard) != 1 {
		t.Errorf("a refused void was announced: %v", *heard)
	}
	st.voidErr = nil
	if err := NewService(st, nil).Void(ctx, 8, at); err != nil {
		t.Errorf("Void without an announcer = %v", err)
	}
}

// TestServiceGrant: the amount and the reason are checked before the store
// is asked.
func TestServiceGrant(t *testing.T) {
	ctx := context.Background()
	st := &fakeStore{}
	svc := NewService(st, nil)
	for _, bad := range []struct {
		amount int64
		reason string
		want   error
	}{{0, "x", ErrInvalidGrant}, {-1, "x", ErrInvalidGrant}, {MaxGrant + 1, "x", ErrInvalidGrant}, {5, "\n", ErrInvalidReason}} {
		if _, err := svc.Grant(ctx, "ali", bad.amount, bad.reason); !errors.Is(err, bad.want) {
			t.Errorf("Grant(%d, %q) = %v, want %v", bad.amount, bad.reason, err, bad.want)
		}
	}
	if len(st.grants) != 0 {
		t.Errorf("refused grants reached the store: %v", st.grants)
	}
	if bal, err := svc.Grant(ctx, "ali", MaxGrant, " why "); err != nil || bal != MaxGrant {
		t.Errorf("Grant(MaxGrant) = %d, %v", bal, err)
	}
	if _, err := svc.GiveItem(ctx, 1, "board_iznik", ""); !errors.Is(err, ErrInvalidReason) || st.items != 0 {
		t.Errorf("GiveItem without a reason = %v, store asked %d times", err, st.items)
	}
	if ok, err := svc.GiveItem(ctx, 1, "board_iznik", "gift"); !ok || err != nil || st.items != 1 {
		t.Errorf("GiveItem = %v, %v", ok, err)
	}
}

func TestParseGrant(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"1", 1, true}, {" 2500 ", 2500, true}, {"10000000", MaxGrant, true}, {"+7", 7, true},
		{"", 0, false}, {"0", 0, false}, {"-1", 0, false}, {"10000001", 0, false},
		{"1.5", 0, false}, {"1e6", 0, false}, {"1_000", 0, false}, {"٣", 0, false}, {"abc", 0, false},
		{"9223372036854775807", 0, false}, {"9223372036854775808", 0, false}, {"-9223372036854775809", 0, false},
	} {
		got, err := ParseGrant(tc.in)
		if tc.ok != (err == nil) || got != tc.want || (err != nil && !errors.Is(err, ErrInvalidGrant)) {
			t.Errorf("ParseGrant(%q) = %d, %v; want %d, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}
