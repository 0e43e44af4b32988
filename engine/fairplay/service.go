package fairplay

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// MaxGrant is the largest administrator's grant, in chips: a typo of a
// few zeros should not issue a fortune (the largest lounge asks for a
// balance of 2,500,000).
const MaxGrant = 10_000_000

// ErrInvalidGrant: a grant's amount is not a whole number of chips from 1
// to MaxGrant.
var ErrInvalidGrant = errors.New("fairplay: invalid amount of chips")

// ParseGrant reads the amount of an administrator's grant as typed on the
// command line or in the form: a whole number from 1 to MaxGrant, with
// surrounding spaces allowed. Anything else is an ErrInvalidGrant that says
// what was wrong, before any chip moves.
func ParseGrant(s string) (int64, error) {
	s = strings.TrimSpace(s)
	n, err := strconv.ParseInt(s, 10, 64)
	switch {
	case errors.Is(err, strconv.ErrRange) && strings.HasPrefix(s, "-"):
		return 0, fmt.Errorf("%w: %q is not a positive number", ErrInvalidGrant, s)
	case errors.Is(err, strconv.ErrRange):
		return 0, fmt.Errorf("%w: %q is more than %d", ErrInvalidGrant, s, MaxGrant)
	case err != nil:
		return 0, fmt.Errorf("%w: %q is not a whole number", ErrInvalidGrant, s)
	}
	if err := checkGrant(n); err != nil {
		return 0, err
	}
	return n, nil
}

// checkGrant is ErrInvalidGrant unless 1 <= n <= MaxGrant.
func checkGrant(n int64) error {
	switch {
	case n < 1:
		return fmt.Errorf("%w: %d is not a positive number", ErrInvalidGrant, n)
	case n > MaxGrant:
		return fmt.Errorf("%w: %d is more than %d", ErrInvalidGrant, n, MaxGrant)
	}
	return nil
}

// Store is what the administration use cases write; store.Store
// implements it. A missing account or game is the store's not-found error.
type Store interface {
	SetVIP(ctx context.Context, name string, on bool) error
	SetRestricted(ctx context.Context, name string, on bool) error
	// GrantChips posts the grant and returns the new balance; a balance
	// that would pass the int64 range is chips.ErrOverflow.
	GrantChips(ctx context.Context, name string, amount int64, reason string) (int64, error)
	// VoidGame voids the result in one transaction, recording at as
	// the time of the void (see the package comment).
	VoidGame(ctx context.Context, id int64, at time.Time) error
	// GrantItem gives user a cosmetic item and reports whether it was
	// new; an item not in the catalogue is cosmetics.ErrUnknownItem.
	GrantItem(ctx context.Context, userID int64, item, reason string) (bool, error)
}

// Announcer tells the pages open on this server that a game's result was
// voided (play.Service.ResultVoided), so that tournament standings drop
// its points at once.
type Announcer interface {
	ResultVoided(id int64, now time.Time)
}

// Service runs the administrator's actions (void, grant, item, VIP,
// restriction) for both the /admin pages and `satranc admin`, so that each does the same checks and the same
// announcements whichever way it is asked.
type Service struct {
	store    Store
	announce Announcer // nil: no open pages to tell (another process)
}

// NewService returns a Service writing to st and announcing voids to a,
// which may be nil when no pages are served by this process.
func NewService(st Store, a Announcer) *Service {
	return &Service{store: st, announce: a}
}

// Void voids game id's result at now and announces it. The errors are the
// store's: ErrAlreadyVoided, ErrNotVoidable, not found.
func (s *Service) Void(ctx context.Context, id int64, now time.Time) error {
	if err := s.store.VoidGame(ctx, id, now); err != nil {
		return err
	}
	if s.announce != nil {
		s.announce.ResultVoided(id, now)
	}
	return nil
}

// Grant gives the member named name amount chips for reason (which must
// pass ParseReason) and returns their new balance. An amount outside 1 to
// MaxGrant is ErrInvalidGrant, and nothing is written.
func (s *Service) Grant(ctx context.Context, name string, amount int64, reason string) (int64, error) {
	if err := checkGrant(amount); err != nil {
		return 0, err
	}
	reason, err := ParseReason(reason)
	if err != nil {
		return 0, err
	}
	return s.store.GrantChips(ctx, name, amount, reason)
}

// SetVIP sets or clears the VIP flag of the member named name.
func (s *Service) SetVIP(ctx context.Context, name string, on bool) error {
	return s.store.SetVIP(ctx, name, on)
}

// SetRestricted sets or clears the restriction of the member named name.
func (s *Service) SetRestricted(ctx context.Context, name string, on bool) error {
	return s.store.SetRestricted(ctx, name, on)
}

// GiveItem gives user the cosmetic item for reason (which must pass
// ParseReason), and reports false, changing nothing, if they own it
// already.
func (s *Service) GiveItem(ctx context.Context, userID int64, item, reason string) (bool, error) {
	reason, err := ParseReason(reason)
	if err != nil {
		return false, err
	}
	return s.store.GrantItem(ctx, userID, item, reason)
}
