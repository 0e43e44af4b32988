package views

import (
	"context"
	"fmt"
	"strings"
	"sync"

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

// activeGameKey is the context key of the logged-in member's game in
// progress.
type activeGameKey struct{}

// WithActiveGame returns a copy of ctx in which the member's game in
// progress is what lookup returns (0: none). lookup runs at most once, and
// only when a page asks (the layout's link back to the game), so requests
// that render no page cost nothing.
func WithActiveGame(ctx context.Context, lookup func() int64) context.Context {
	return context.WithValue(ctx, activeGameKey{}, sync.OnceValue(lookup))
}

// ActiveGame returns the id of the logged-in member's game in progress, or
// 0 for none (and for a guest).
func ActiveGame(ctx context.Context) int64 {
	if f, ok := ctx.Value(activeGameKey{}).(func() int64); ok {
		return f()
	}
	return 0
}

// gamePath returns the path of game id.
func gamePath(id int64) string { return fmt.Sprintf("/games/%d", id) }

// onPage reports whether the current page is path (with or without a
// query).
func onPage(ctx context.Context, path string) bool {
	here := LocaleFrom(ctx).Here
	return here == path || strings.HasPrefix(here, path+"?") || strings.HasPrefix(here, path+"/")
}
