package tourney

import (
	"context"
	"io"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// fakeStore pays periods in memory, as the store does: once each, and
// PayoutFrom continues after the last one paid.
type fakeStore struct {
	first time.Time // the first scoring game's end; zero for none

	mu   sync.Mutex
	paid []string // "daily 2000-01-01", in the order paid
	last map[Kind]time.Time
}

func (f *fakeStore) Standings(context.Context, Period) ([]Standing, error) { return nil, nil }

func (f *fakeStore) PayoutFrom(_ context.Context, k Kind) (time.Time, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if t, ok := f.last[k]; ok {
		return t, true, nil
	}
	return f.first, !f.first.IsZero(), nil
}

func (f *fakeStore) PayPeriod(_ context.Context, p Period, _ []Prize, _ time.Time) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	name := p.Kind.String() + " " + p.Key()
	if slices.Contains(f.paid, name) {
		return false, nil
	}
	f.paid = append(f.paid, name)
	if f.last == nil {
		f.last = map[Kind]time.Time{}
	}
	f.last[p.Kind] = p.End
	return true, nil
}

func (f *fakeStore) Results(context.Context, Kind, int) ([]Result, error) { return nil, nil }

func (f *fakeStore) Result(context.Context, Kind, string) (Result, bool, error) {
	return Result{}, false, nil
}

func (f *fakeStore) PrizesWon(context.Context, int64, int) ([]Won, error) { return nil, nil }

func (f *fakeStore) paidSoFar() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.paid)
}

// TestRunPaysEachPeriodOnce: started on Saturday 2000-01-01 00:00 (UTC)
// after a game that ended on Thursday, Run pays Thursday at once, Friday a
// minute later (the payout delay), each later day a minute after its
// midnight, and the week a minute into Monday; nothing twice.
func TestRunPaysEachPeriodOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now() // the bubble's clock: 2000-01-01 00:00 UTC, a Saturday
		st := &fakeStore{first: start.Add(-36 * time.Hour)}
		s := New(Config{Store: st, Location: time.UTC, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { s.Run(ctx); close(done) }()

		synctest.Wait()
		if got, want := st.paidSoFar(), []string{"daily 1999-12-30"}; !slices.Equal(got, want) {
			t.Errorf("at midnight, Friday within the payout delay: paid %v, want %v", got, want)
		}
		time.Sleep(DefaultPayoutDelay)
		synctest.Wait()
		want := []string{"daily 1999-12-30", "daily 1999-12-31"}
		if got := st.paidSoFar(); !slices.Equal(got, want) {
			t.Errorf("a minute after midnight: paid %v, want %v", got, want)
		}
		time.Sleep(2*24*time.Hour + time.Second)
		synctest.Wait()
		want = append(want, "daily 2000-01-01", "daily 2000-01-02", "weekly 1999-12-27")
		if got := st.paidSoFar(); !slices.Equal(got, want) {
			t.Errorf("on Monday: paid %v, want %v", got, want)
		}
		cancel()
		<-done
	})
}

// countingStore counts the standings reads.
type countingStore struct {
	fakeStore
	reads int
}

func (c *countingStore) Standings(context.Context, Period) ([]Standing, error) {
	c.reads++
	return []Standing{{User: 1, Name: "ada", Points: 1, Games: 1}, {User: 2, Name: "bora", Points: 3, Games: 1, Wins: 1}}, nil
}

// TestStandingsAfterShared: pages that heard of a game's end at the same
// moment share one read; a later end needs a new one.
func TestStandingsAfterShared(t *testing.T) {
	st := &countingStore{}
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	s := New(Config{Store: st, Now: func() time.Time { return now }})
	p := s.Current(Daily)
	heard := now
	for range 3 {
		ss, err := s.StandingsAfter(context.Background(), p, heard)
		if err != nil || len(ss) != 2 || ss[0].Name != "bora" || ss[0].Rank != 1 {
			t.Fatalf("StandingsAfter = %+v, %v, want bora first", ss, err)
		}
	}
	if st.reads != 1 {
		t.Errorf("three pages that heard together: %d reads, want 1", st.reads)
	}
	now = now.Add(time.Second)
	if _, err := s.StandingsAfter(context.Background(), p, now); err != nil || st.reads != 2 {
		t.Errorf("a later end: %d reads (%v), want 2", st.reads, err)
	}
	if _, err := s.StandingsAfter(context.Background(), p, heard); err != nil || st.reads != 2 {
		t.Errorf("an earlier end again: %d reads (%v), want still 2", st.reads, err)
	}
}
