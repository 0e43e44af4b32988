package loadtest

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"

	"golang.org/x/net/html"
)

// page is what the driver reads of a game page (views/game.templ): the
// text of the first invite box (data-testid="invite-link") and the first
// board colour (data-color), each with whether the page has one, and the
// URL of the game's event stream (sse-connect of data-testid="game"), as
// the page's EventSource opens it.
type page struct {
	invite, color       string
	hasInvite, hasColor bool
	stream              string
}

// readPage reads r's HTML as far as it needs: up to the first board colour,
// and the first invite box when invite is set (a new game's page, where
// the box comes before the board). It tokenizes without building the
// document: at 5,000 games, a parsed tree of each new game's pages was a
// fifth of the driver's CPU.
func readPage(r io.Reader, invite bool) (page, error) {
	var p page
	z := html.NewTokenizer(r)
	inInvite := false
	var text strings.Builder
	for {
		switch z.Next() {
		case html.ErrorToken:
			if err := z.Err(); !errors.Is(err, io.EOF) {
				return p, err
			}
			return p, nil
		case html.TextToken:
			if inInvite {
				text.Write(z.Text())
			}
		case html.EndTagToken:
			if inInvite {
				inInvite = false
				p.invite, p.hasInvite = text.String(), true
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			_, more := z.TagName()
			var connect string
			isGame := false
			for more {
				var key, val []byte
				key, val, more = z.TagAttr()
				switch string(key) {
				case "sse-connect":
					connect = string(val)
				case "data-testid":
					if string(val) == "invite-link" && !p.hasInvite && !inInvite {
						inInvite = true
					}
					isGame = isGame || string(val) == "game"
				case "data-color":
					if !p.hasColor {
						p.color, p.hasColor = string(val), true
					}
				}
			}
			if isGame && p.stream == "" {
				p.stream = connect
			}
		}
		if p.hasColor && (p.hasInvite || !invite) {
			return p, nil
		}
	}
}

// invitePath returns the path of the invite link on a new private game's
// page, the text of its read-only box (views/game.templ).
func invitePath(p page) (string, error) {
	invite := strings.TrimSpace(p.invite)
	if invite == "" {
		return "", errors.New("create: no invite link")
	}
	iu, err := url.Parse(invite)
	if err != nil {
		return "", fmt.Errorf("invite link %q: %w", invite, err)
	}
	if iu.Path == "" {
		return "", fmt.Errorf("invite link %q: no path", invite)
	}
	return iu.Path, nil
}

// boardColor returns the colour the board of a game page is seen from, "w"
// or "b": the viewer's side (views/game.templ, data-color).
func boardColor(p page) (string, error) {
	switch p.color {
	case "w", "b":
		return p.color, nil
	}
	return "", errors.New("game page: no board colour")
}
