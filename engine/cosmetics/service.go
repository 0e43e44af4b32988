package cosmetics

import (
	"context"
	"fmt"
)

// Store is the persistence the cosmetics use cases need; store.Store
// implements it. Inventory of an unknown user is an empty inventory.
type Store interface {
	Inventory(ctx context.Context, userID int64) (Inventory, error)
	SaveLook(ctx context.Context, userID int64, l Look) error
}

// Service runs the cosmetics use cases.
type Service struct{ store Store }

// NewService returns a Service on st.
func NewService(st Store) *Service { return &Service{store: st} }

// Inventory returns what the account userID owns besides the standard
// items.
func (s *Service) Inventory(ctx context.Context, userID int64) (Inventory, error) {
	return s.store.Inventory(ctx, userID)
}

// Choose saves l as the look of userID if every item in it exists and is
// owned; otherwise nothing changes and the error matches ErrUnknownItem or
// ErrNotOwned. Items are never taken away, so a check before the write
// cannot be overtaken.
func (s *Service) Choose(ctx context.Context, userID int64, l Look) error {
	inv, err := s.store.Inventory(ctx, userID)
	if err != nil {
		return err
	}
	if err := l.Check(inv); err != nil {
		return fmt.Errorf("cosmetics: user %d: %w", userID, err)
	}
	return s.store.SaveLook(ctx, userID, l)
}
