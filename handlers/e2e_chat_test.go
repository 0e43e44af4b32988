//go:build e2e

package handlers_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// sendChat types text into b's chat form and sends it, and waits until the
// server has answered: the input is cleared when the message is taken, and
// the notice shows when it is refused.
func sendChat(b *browser, text string) {
	b.t.Helper()
	b.do(10*time.Second,
		chromedp.SetValue(`[data-testid="chat-input"]`, text),
		chromedp.Click(`[data-testid="chat-submit"]`),
	)
	waitFor(b, 10*time.Second, `document.querySelector('[data-testid="chat-input"]').value === "" || document.querySelector('[data-testid="chat-error"]').textContent.trim() !== ""`)
}

// chatTexts returns the chat lines b's page shows.
func chatTexts(b *browser) []string {
	b.t.Helper()
	return eval[[]string](b, `Array.from(document.querySelectorAll('[data-testid="chat-text"]'), e => e.textContent)`)
}

// TestBrowserChat: the players of a private game chat, each message reaching
// the opponent's page live and escaped; a spectator sees no chat at all;
// the sixth message within 10 seconds is refused with a notice.
func TestBrowserChat(t *testing.T) {
	// The players chat before their first moves: a slow run must not
	// see the game aborted for want of one (30 s by default).
	srv := startServer(t, "--first-move-time", "10m")
	a, b, c := newBrowser(t, "alice"), newBrowser(t, "bob"), newBrowser(t, "carol")
	signUp(a, srv, "alice")
	signUp(b, srv, "bob")
	signUp(c, srv, "carol")
	white, black := startPrivateGame(t, srv, a, b, "5+0")

	c.do(30*time.Second,
		chromedp.Navigate(gameURL(white)),
		chromedp.WaitVisible(`[data-testid="game-panel"]`),
	)
	if n := eval[int](c, `document.querySelectorAll('[data-testid="chat"], [data-testid="chat-form"]').length`); n != 0 {
		t.Fatalf("the spectator's page has %d chat elements", n)
	}

	const hello = `hello <b>bob</b> <script>alert(1)</script>`
	sendChat(white, hello)
	waitFor(black, 10*time.Second, `document.querySelectorAll('[data-testid="chat-text"]').length == 1`)
	if got := chatTexts(black); len(got) != 1 || got[0] != hello {
		t.Errorf("black's chat = %q, want %q", got, hello)
	}
	if n := eval[int](black, `document.querySelectorAll('.chat-text b, .chat-text script').length`); n != 0 {
		t.Errorf("the message's markup became %d elements", n)
	}
	sendChat(black, "merhaba")
	waitFor(white, 10*time.Second, `document.querySelectorAll('[data-testid="chat-text"]').length == 2`)
	if got := chatTexts(white); len(got) != 2 || got[1] != "merhaba" {
		t.Errorf("white's chat = %q", got)
	}
	playMoves(t, white, black, 0, "e2e4")

	// The spectator's page has followed the game, and still has no chat.
	waitPly(c, 1)
	if html := eval[string](c, `document.body.innerHTML`); strings.Contains(html, "merhaba") || strings.Contains(html, "hello") || strings.Contains(html, `data-testid="chat`) {
		t.Error("the spectator's page shows the chat")
	}

	// Flood: white has sent one message; four more fit in 10 s, the sixth not.
	start := time.Now()
	for i := 2; i <= 5; i++ {
		sendChat(white, fmt.Sprintf("message %d", i))
	}
	if got := eval[string](white, `document.querySelector('[data-testid="chat-error"]').textContent.trim()`); got != "" {
		t.Fatalf("notice before the flood: %q", got)
	}
	sendChat(white, "message 6")
	if time.Since(start) > 9*time.Second {
		t.Skip("too slow to test the flood limit")
	}
	notice := eval[string](white, `document.querySelector('[data-testid="chat-error"]').textContent.trim()`)
	if !strings.Contains(notice, "5 messages every 10 seconds") {
		t.Errorf("flood notice = %q", notice)
	}
	if v := eval[string](white, `document.querySelector('[data-testid="chat-input"]').value`); v != "message 6" {
		t.Errorf("the refused message was cleared: %q", v)
	}
	waitFor(black, 10*time.Second, `document.querySelectorAll('[data-testid="chat-text"]').length == 6`)
	if got := chatTexts(black); got[len(got)-1] != "message 5" {
		t.Errorf("black's last line = %q, want message 5", got[len(got)-1])
	}
}
