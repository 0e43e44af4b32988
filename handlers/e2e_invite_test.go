//go:build e2e

package handlers_test

import (
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
)

// inviteViewports are the sizes the invitation screenshots are taken at:
// a laptop and a phone.
var inviteViewports = []layoutViewport{layoutViewports[0], layoutViewports[2]}

// inviteShots saves screenshots of url, which shows the element sel, at
// the invitation viewports in English and Turkish, and leaves b on the
// English page at the laptop size.
func inviteShots(b *browser, url, sel, label string) {
	b.t.Helper()
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	for _, lang := range []string{"tr", "en"} {
		for _, vp := range inviteViewports {
			emulate(b, vp)
			b.do(30*time.Second,
				chromedp.Navigate(url+sep+"lang="+lang),
				chromedp.WaitVisible(`html[lang="`+lang+`"] `+sel),
			)
			if wide := eval[bool](b, `document.documentElement.scrollWidth > window.innerWidth + 1`); wide {
				b.t.Errorf("%s: %s (%s, %s) overflows horizontally", b.name, label, lang, vp.name)
			}
			b.screenshot(label + "-" + lang + "-" + vp.name)
		}
	}
	emulate(b, inviteViewports[0])
}

// TestBrowserInvite: a member creates a private game and copies the link;
// a guest opens it, sees who invites and at what time control, signs up on
// the way, comes back to the invitation, accepts it and lands in the game,
// which both pages show active.
func TestBrowserInvite(t *testing.T) {
	srv := startServer(t)
	host, guest := newBrowser(t, "host"), newBrowser(t, "guest")
	signUp(host, srv, "hostess")
	host.do(30*time.Second,
		chromedp.Navigate(srv.URL+"/play"),
		chromedp.WaitVisible(`[data-testid="private-form"]`),
		chromedp.SetValue(`[data-testid="private-control"]`, "3+2"),
		chromedp.Click(`[data-testid="private-start"]`),
		chromedp.WaitVisible(`[data-testid="invite-link"]`),
	)
	gamePage := eval[string](host, `location.origin + location.pathname`)
	link := eval[string](host, `document.querySelector('[data-testid="invite-link"]').value`)
	if !strings.HasPrefix(link, srv.URL+"/invite/") {
		t.Fatalf("invite link = %q", link)
	}
	// The whole link shows in its box.
	if cut := eval[bool](host, `(function(){var i=document.querySelector('[data-testid="invite-link"]'); return i.scrollWidth > i.clientWidth + 1 || i.scrollHeight > i.clientHeight + 1})()`); cut {
		t.Error("the invite link is cut off in its box")
	}

	// Copy puts the link on the clipboard and says so.
	for _, name := range []string{"clipboard-read", "clipboard-write"} {
		_, err := chromedp.CallBrowser(host.ctx, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{
			Permission: &cdpbrowser.PermissionDescriptor{Name: name, AllowWithoutSanitization: true},
			Setting:    cdpbrowser.PermissionSettingGranted, Origin: srv.URL,
		})
		if err != nil {
			t.Logf("grant %s: %v", name, err)
		}
	}
	// The stream's first panel may redraw the button during the click (the
	// page and its stream race on a loaded machine): the click then does
	// nothing, or its node is gone before it lands. The host copies again,
	// as a person would, and the test says so.
	const copiedText = `document.querySelector('[data-testid="invite-copy"]').textContent.trim() === "Copied"`
	for attempt := 1; ; attempt++ {
		if err := host.tryDo(10*time.Second, chromedp.Click(`[data-testid="invite-copy"]`)); err != nil {
			if attempt == 3 {
				t.Fatalf("clicking Copy: %v", err)
			}
			t.Logf("the click on Copy failed (attempt %d: %v); copying again", attempt, err)
			continue
		}
		if attempt == 3 || waitedFor(host, 3*time.Second, copiedText) {
			break
		}
		t.Logf("the copy's feedback did not show (attempt %d); copying again", attempt)
	}
	waitFor(host, 10*time.Second, copiedText)
	copied, err := chromedp.Run(host.ctx, chromedp.Evaluate[string](`navigator.clipboard.readText()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Logf("reading the clipboard back: %v (the button's feedback was checked)", err)
	} else if copied != link {
		t.Errorf("clipboard = %q, want %q", copied, link)
	}
	if eval[bool](host, `!document.querySelector('[data-testid="invite-share"]').hidden`) {
		t.Error("Share shows on a desktop browser without the Web Share API")
	}
	inviteShots(host, gamePage, `[data-testid="invite-copy"]`, "waiting")

	// The guest sees the invitation, not a log-in page.
	inviteShots(guest, link, `[data-testid="invite-signup"]`, "invitation-guest")
	guest.do(30*time.Second, chromedp.Navigate(link), chromedp.WaitVisible(`[data-testid="invite-page"]`))
	if h := eval[string](guest, `document.querySelector('[data-testid="invite-host"]').textContent`); !strings.Contains(h, "hostess") {
		t.Errorf("invite-host = %q, want hostess", h)
	}
	if c := eval[string](guest, `document.querySelector('[data-testid="invite-control"]').textContent`); !strings.Contains(c, "3+2") {
		t.Errorf("invite-control = %q, want 3+2", c)
	}
	// Sign up on the way: back on the invitation, now with Accept.
	guest.do(30*time.Second,
		chromedp.Click(`[data-testid="invite-signup"]`),
		chromedp.WaitVisible(`[data-testid="signup-form"]`),
		chromedp.SendKeys(`[data-testid="signup-form"] [data-testid="username"]`, "newcomer"),
		chromedp.SendKeys(`[data-testid="signup-form"] [data-testid="password"]`, password),
		chromedp.Click(`[data-testid="signup-form"] [data-testid="submit"]`),
		chromedp.WaitVisible(`[data-testid="invite-join"]`),
	)
	if path := eval[string](guest, `location.pathname`); path != strings.TrimPrefix(link, srv.URL) {
		t.Errorf("after signing up the guest is on %q, want the invitation", path)
	}
	inviteShots(guest, link, `[data-testid="invite-join"]`, "invitation-member")
	guest.do(30*time.Second,
		chromedp.Click(`[data-testid="invite-join"]`),
		chromedp.WaitVisible(`[data-testid="game-panel"]`),
	)
	if got := eval[string](guest, `location.origin + location.pathname`); got != gamePage {
		t.Errorf("the guest landed on %q, want %q", got, gamePage)
	}
	host.do(30*time.Second, chromedp.Navigate(gamePage), chromedp.WaitVisible(`[data-testid="game-panel"]`))
	for _, b := range []*browser{host, guest} {
		waitFor(b, 20*time.Second, `document.querySelector('[data-testid="game-panel"]').dataset.status == "active"`)
	}
}

// TestBrowserInviteDecline: a member declines the invitation; the
// creator's waiting page, on its stream, says the game was cancelled.
func TestBrowserInviteDecline(t *testing.T) {
	srv := startServer(t)
	host, friend := newBrowser(t, "host"), newBrowser(t, "friend")
	signUp(host, srv, "hostess")
	signUp(friend, srv, "friend")
	host.do(30*time.Second,
		chromedp.Navigate(srv.URL+"/play"),
		chromedp.WaitVisible(`[data-testid="private-form"]`),
		chromedp.Click(`[data-testid="private-start"]`),
		chromedp.WaitVisible(`[data-testid="invite-link"]`),
	)
	link := eval[string](host, `document.querySelector('[data-testid="invite-link"]').value`)
	friend.do(30*time.Second,
		chromedp.Navigate(link),
		chromedp.Click(`[data-testid="invite-decline"]`),
		chromedp.WaitVisible(`[data-testid="invite-closed"]`),
	)
	waitFor(host, 20*time.Second, `document.querySelector('[data-testid="status"]').dataset.reason == "invite_declined"`)
	if eval[bool](host, `!!document.querySelector('[data-testid="invite-link"]')`) {
		t.Error("the creator's page still offers the link after the decline")
	}
	if eval[bool](host, `Array.from(document.querySelectorAll('.chat-form, .voice, .report')).some(e => e.offsetParent !== null)`) {
		t.Error("the cancelled game offers chat, voice chat or a report with nobody at the table")
	}
	host.screenshot("declined")
}
