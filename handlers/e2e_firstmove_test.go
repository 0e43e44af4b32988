//go:build e2e

package handlers_test

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// firstMoveNotice returns the first-move notice on b's page, with its
// spaces normalised ("" if there is none).
func firstMoveNotice(b *browser) string {
	b.t.Helper()
	return strings.Join(strings.Fields(eval[string](b, `(document.querySelector('[data-testid="first-move"]') || {}).textContent || ""`)), " ")
}

// clocksStill checks that neither clock on b's page runs and that both
// show want.
func clocksStill(t *testing.T, b *browser, want string) {
	t.Helper()
	for _, side := range []string{"white", "black"} {
		q := `document.querySelector('[data-testid="clock-` + side + `"]')`
		if r := eval[string](b, q+`.dataset.running`); r != "false" {
			t.Errorf("%s: %s's clock data-running=%q before both first moves", b.name, side, r)
		}
		if got := strings.TrimSpace(eval[string](b, q+`.textContent`)); got != want {
			t.Errorf("%s: %s's clock shows %q, want %q", b.name, side, got, want)
		}
	}
}

// TestBrowserFirstMove: the clocks start once both players have made their
// first move, and each has the first-move time for it (5 s here, 30 s by
// default): both pages count it down, worded for each player, and when
// White (in a second game, Black) does not move in time the game is
// aborted on both pages.
func TestBrowserFirstMove(t *testing.T) {
	srv := startServer(t, "--first-move-time", "5s")
	a, b := newBrowser(t, "alice"), newBrowser(t, "bob")
	signUp(a, srv, "alice")
	signUp(b, srv, "bob")

	// White does not move.
	white, black := startPrivateGame(t, srv, a, b, "1+0")
	for _, br := range []*browser{white, black} {
		waitFor(br, 5*time.Second, `document.querySelector('[data-testid="first-move-countdown"]')`)
	}
	if got := firstMoveNotice(white); !strings.HasPrefix(got, "Make your first move within ") || !strings.HasSuffix(got, " s, or the game is aborted.") {
		t.Errorf("White's notice %q", got)
	}
	if got := firstMoveNotice(black); !strings.HasPrefix(got, "If your opponent does not make a first move within ") {
		t.Errorf("Black's notice %q", got)
	}
	// The seconds count down on the page, between two server updates.
	first, err := strconv.Atoi(eval[string](white, `document.querySelector('[data-testid="first-move-countdown"]').textContent.trim()`))
	if err != nil || first < 1 || first > 5 {
		t.Errorf("countdown starts at %d (%v), want 1 to 5", first, err)
	}
	waitFor(white, 3*time.Second, `parseInt(document.querySelector('[data-testid="first-move-countdown"]').textContent, 10) < `+strconv.Itoa(first))
	white.screenshot("countdown")
	for _, br := range []*browser{white, black} {
		clocksStill(t, br, "1:00")
	}
	checkEnd(t, [2]string{"no_first_move", "*"}, white, black)
	for _, br := range []*browser{white, black} {
		if st := status(br); !strings.Contains(st, "White did not make a first move in time") {
			t.Errorf("%s: status %q, want White's missed first move", br.name, st)
		}
		if got := firstMoveNotice(br); got != "" {
			t.Errorf("%s: notice after the end %q", br.name, got)
		}
	}

	// White moves at once, Black does not: White's move cost nothing.
	white, black = startPrivateGame(t, srv, a, b, "1+0")
	playMoves(t, white, black, 0, "e2e4")
	waitFor(black, 5*time.Second, `document.querySelector('[data-testid="first-move"]') && document.querySelector('[data-testid="first-move"]').dataset.side == "black"`)
	if got := firstMoveNotice(black); !strings.HasPrefix(got, "Make your first move within ") {
		t.Errorf("Black's notice %q", got)
	}
	if got := firstMoveNotice(white); !strings.HasPrefix(got, "If your opponent does not make a first move within ") {
		t.Errorf("White's notice %q", got)
	}
	for _, br := range []*browser{white, black} {
		clocksStill(t, br, "1:00")
	}
	checkEnd(t, [2]string{"no_first_move", "*"}, white, black)
	for _, br := range []*browser{white, black} {
		if st := status(br); !strings.Contains(st, "Black did not make a first move in time") {
			t.Errorf("%s: status %q, want Black's missed first move", br.name, st)
		}
	}
}
