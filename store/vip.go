package store

import (
	"context"
	"fmt"
)

// VIP reports whether user is a VIP member (set by an administrator, see
// SetVIP). It is read afresh at every call, so that a VIP taken away
// counts at once. A missing user is ErrNotFound.
func (s *Store) VIP(ctx context.Context, user int64) (bool, error) {
	var vip bool
	if err := s.db.GetContext(ctx, &vip, `SELECT vip FROM users WHERE id = ?`, user); err != nil {
		return false, fmt.Errorf("store: vip of user %d: %w", user, notFound(err))
	}
	return vip, nil
}
