package tourney

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// DefaultPayoutDelay is how long after a period's end its prizes are paid.
// A game's end time is the instant it ended, written a moment later; the
// delay lets a game that ended just before midnight reach the database
// before the standings are closed.
const DefaultPayoutDelay = time.Minute

// DefaultPayoutCheck is how often Run checks for unpaid periods even when
// no period has ended, in case the machine's clock jumped.
const DefaultPayoutCheck = time.Hour

// Store is what the tournaments need from the database. store.Store
// implements it.
type Store interface {
	// Standings returns the players who scored in p, unranked.
	Standings(ctx context.Context, p Period) ([]Standing, error)
	// PayoutFrom returns where unpaid periods of k may begin: the end of
	// the last paid one, else the end of the first game that scored; ok
	// is false when there is nothing to pay at all.
	PayoutFrom(ctx context.Context, k Kind) (from time.Time, ok bool, err error)
	// PayPeriod closes p: it ranks its standings, pays the prizes of
	// table (chips through the ledger, items recorded) and records p as
	// paid, all in one transaction, unless p was paid already: then it
	// changes nothing and reports false.
	PayPeriod(ctx context.Context, p Period, table []Prize, at time.Time) (bool, error)
	// Results returns the latest paid periods of k that had winners, the
	// latest first, at most limit.
	Results(ctx context.Context, k Kind, limit int) ([]Result, error)
	// Result returns the paid period of k with key; ok is false when it
	// has not been paid.
	Result(ctx context.Context, k Kind, key string) (r Result, ok bool, err error)
	// PrizesWon returns the prizes user won, the latest first, at most
	// limit.
	PrizesWon(ctx context.Context, user int64, limit int) ([]Won, error)
}

// Config configures a Service.
type Config struct {
	// Store keeps the games and the payouts. Required.
	Store Store
	// Location is the time zone of the days and weeks; nil means UTC.
	Location *time.Location
	// Prizes is the prize table; the zero value pays nothing.
	Prizes Prizes
	// Now returns the current time; nil means time.Now.
	Now func() time.Time
	// PayoutDelay: see DefaultPayoutDelay; 0 means that.
	PayoutDelay time.Duration
	// Logger logs failed payouts; nil means slog.Default().
	Logger *slog.Logger
}

// Service runs the tournaments: it tells which period is running, ranks
// standings, and pays each ended period's prizes once.
type Service struct {
	store  Store
	loc    *time.Location
	prizes Prizes
	now    func() time.Time
	delay  time.Duration
	log    *slog.Logger

	// mu serialises computing standings, so that the live pages that all
	// ask at once after a game ends share one computation (see
	// StandingsAfter); cache holds the latest per period.
	mu    sync.Mutex
	cache map[Period]cachedStandings
}

// cachedStandings are a period's ranked standings as read from the store
// at a moment: at is when the read began, so they include every game
// stored before it.
type cachedStandings struct {
	at time.Time
	ss []Standing
}

// New returns a service configured by cfg.
func New(cfg Config) *Service {
	s := &Service{store: cfg.Store, loc: cfg.Location, prizes: cfg.Prizes, now: cfg.Now, delay: cfg.PayoutDelay, log: cfg.Logger,
		cache: make(map[Period]cachedStandings)}
	if s.loc == nil {
		s.loc = time.UTC
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.delay <= 0 {
		s.delay = DefaultPayoutDelay
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	return s
}

// Location returns the time zone of the periods.
func (s *Service) Location() *time.Location { return s.loc }

// Prizes returns the prize table of k, first place first.
func (s *Service) Prizes(k Kind) []Prize { return s.prizes.For(k) }

// Current returns the period of k running now.
func (s *Service) Current(k Kind) Period { return PeriodOf(k, s.now(), s.loc) }

// Period returns the period of k with key (see Period.Key).
func (s *Service) Period(k Kind, key string) (Period, error) { return ParsePeriod(k, key, s.loc) }

// Standings returns p's standings, ranked, as they are now.
func (s *Service) Standings(ctx context.Context, p Period) ([]Standing, error) {
	return s.StandingsAfter(ctx, p, s.now())
}

// StandingsAfter returns p's standings, ranked, read from the store at
// after or later: a live page that heard of a game's end at after (the
// end is stored before it is announced) gets standings with that game,
// and the pages that heard of it together share one read. The caller may
// not change the result.
func (s *Service) StandingsAfter(ctx context.Context, p Period, after time.Time) ([]Standing, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.cache[p]; ok && !c.at.Before(after) {
		return c.ss, nil
	}
	at := s.now()
	ss, err := s.store.Standings(ctx, p)
	if err != nil {
		return nil, fmt.Errorf("tourney: standings of %s %s: %w", p.Kind, p.Key(), err)
	}
	ss = Rank(ss)
	for q, c := range s.cache {
		if c.at.Sub(at) < -time.Minute || q.Ended(at) && q != p {
			delete(s.cache, q) // keep the running periods and the recent ones
		}
	}
	s.cache[p] = cachedStandings{at: at, ss: ss}
	return ss, nil
}

// Results returns the latest paid periods of k with winners.
func (s *Service) Results(ctx context.Context, k Kind, limit int) ([]Result, error) {
	return s.store.Results(ctx, k, limit)
}

// Result returns the paid period of k with key; ok is false while it is
// not paid.
func (s *Service) Result(ctx context.Context, k Kind, key string) (Result, bool, error) {
	return s.store.Result(ctx, k, key)
}

// PrizesWon returns the prizes user won, the latest first.
func (s *Service) PrizesWon(ctx context.Context, user int64, limit int) ([]Won, error) {
	return s.store.PrizesWon(ctx, user, limit)
}

// PayEnded pays every period that ended at least the payout delay ago and
// is not paid yet, oldest first, and returns how many it paid. Periods are
// found from the store, not from memory, so the periods that ended while
// the server was down are paid at the next start; paying is idempotent in
// the store, so two runs never pay a period twice.
func (s *Service) PayEnded(ctx context.Context) (int, error) {
	now := s.now()
	paid := 0
	for _, k := range Kinds {
		from, ok, err := s.store.PayoutFrom(ctx, k)
		if err != nil {
			return paid, fmt.Errorf("tourney: pay %s: %w", k, err)
		}
		if !ok {
			continue
		}
		for p := PeriodOf(k, from, s.loc); !now.Before(p.End.Add(s.delay)); p = p.Next() {
			did, err := s.store.PayPeriod(ctx, p, s.prizes.For(k), now)
			if err != nil {
				return paid, fmt.Errorf("tourney: pay %s %s: %w", k, p.Key(), err)
			}
			if did {
				paid++
			}
		}
	}
	return paid, nil
}

// Run pays the ended periods at once and then after each period's end
// (plus the payout delay), checking at least every DefaultPayoutCheck,
// until ctx is done. A failed payout is logged and tried again at the next
// check.
func (s *Service) Run(ctx context.Context) {
	for {
		if n, err := s.PayEnded(ctx); err != nil {
			if ctx.Err() != nil {
				return
			}
			s.log.Error("tourney: payout failed", "err", err)
		} else if n > 0 {
			s.log.Info("tournament prizes paid", "periods", n)
		}
		wait := min(DefaultPayoutCheck, s.untilNextPayout())
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// untilNextPayout returns the time until the next period may be paid: the
// end of the day that was running a payout delay ago, plus the delay (a
// week ends with a day).
func (s *Service) untilNextPayout() time.Duration {
	now := s.now()
	next := PeriodOf(Daily, now.Add(-s.delay), s.loc).End.Add(s.delay)
	return max(next.Sub(now), time.Second)
}
