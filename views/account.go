package views

import (
	"context"
	"net/url"
	"strings"

	"satranc/engine/account"
)

// AccountForm is the state of the sign-up or log-in form.
type AccountForm struct {
	// Username is kept when the form is shown again after an error.
	Username string
	// Next is the local path to go to afterwards ("" for the front page).
	Next string
	// Error is the problem to show, if any.
	Error *Message
}

// ProfileForm is the state of the profile page.
type ProfileForm struct {
	User     account.User
	Language string
	Gender   account.Gender
	// Saved is set after a successful save.
	Saved bool
	// Error is the problem to show, if any.
	Error *Message
}

// pageTitle returns the text of <title>: the page's title and the site
// name, or the site name alone.
func pageTitle(ctx context.Context, title string) string {
	name := T(ctx, "site.name")
	if title == "" {
		return name
	}
	return title + " · " + name
}

// accountURL returns path (/login or /signup) with next as its next
// parameter, unless next is the front page or an account page itself.
func accountURL(path, next string) string {
	if next == "" || next == "/" || strings.HasPrefix(next, "/login") || strings.HasPrefix(next, "/signup") {
		return path
	}
	return path + "?" + url.Values{"next": {next}}.Encode()
}
