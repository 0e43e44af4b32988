package views

import (
	"context"

	"satranc/engine/account"
)

// userKey is the context key of the logged-in user.
type userKey struct{}

// WithUser returns a copy of ctx carrying u as the logged-in user. The
// handlers' session middleware calls it; handlers read the user through
// their own accessor, which reads this same value.
func WithUser(ctx context.Context, u account.User) context.Context {
	return context.WithValue(ctx, userKey{}, u)
}

// CurrentUser returns the logged-in user in ctx; ok is false for a guest.
func CurrentUser(ctx context.Context) (u account.User, ok bool) {
	u, ok = ctx.Value(userKey{}).(account.User)
	return u, ok
}
