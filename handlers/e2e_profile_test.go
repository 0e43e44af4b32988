//go:build e2e

package handlers_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"satranc/engine/account"
	"satranc/engine/chess"
	"satranc/engine/clock"
	"satranc/engine/game"
	"satranc/engine/play"
	"satranc/store"
	"satranc/views"
)

// seedProfiles fills the database db with a member, leyla, who has played
// rated Quick Play games over three months, most against computer players
// at public tables and two against okan; it returns the name the computer
// played most of them under.
func seedProfiles(t *testing.T, db string) string {
	t.Helper()
	ctx := context.Background()
	s, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	start := time.Date(2026, 8, 28, 19, 0, 0, 0, time.UTC)
	s.Now = func() time.Time { return start.Add(-48 * time.Hour) }
	var users []account.User
	for _, name := range []string{"leyla", "okan"} {
		u, err := s.CreateUser(ctx, account.NewUser{Name: name, PasswordHash: "x", Language: "en"})
		if err != nil {
			t.Fatal(err)
		}
		users = append(users, u)
	}
	leyla, okan := game.Human(users[0].ID), game.Human(users[1].ID)
	results := []game.Result{game.WhiteWins, game.BlackWins, game.WhiteWins, game.Draw, game.WhiteWins, game.WhiteWins, game.BlackWins}
	count := map[string]int{}
	at := start
	for i := range 22 {
		at = at.Add(time.Duration(30+i*7%40) * time.Hour)
		rec := play.GameRecord{Kind: play.Quick, White: leyla, Black: game.Bot(game.Medium), Control: clock.MustParse("3+2"),
			Status: game.Active, CreatedAt: at, StartedAt: at}
		if i == 5 || i == 14 {
			rec.Black = okan
		}
		id, _, err := s.CreatePublicGame(ctx, rec)
		if err != nil {
			t.Fatal(err)
		}
		end := play.Ending{Status: game.Finished, Outcome: game.Outcome{Result: results[i%len(results)], Reason: game.Resignation}, At: at.Add(6 * time.Minute)}
		if end.Outcome.Result == game.Draw {
			end.Outcome.Reason = game.Agreement
		}
		if err := s.FinishGame(ctx, id, end); err != nil {
			t.Fatal(err)
		}
		if rec.Black.IsBot() {
			count[account.PublicBotName(id, chess.Black)]++
		}
	}
	best := ""
	for name, n := range count {
		if best == "" || n > count[best] || n == count[best] && name < best {
			best = name
		}
	}
	return best
}

// TestBrowserProfiles opens a member's profile and the profile of a name
// a computer player went by, in English and in Turkish, on a laptop, a
// desktop and a phone: the chart shows a game's value on hover (tap on
// the phone), both pages pass axe-core, and screenshots are saved.
func TestBrowserProfiles(t *testing.T) {
	db := filepath.Join(t.TempDir(), "satranc.db")
	botName := seedProfiles(t, db)
	srv := startServerOn(t, db)
	axe := ""
	if os.Getenv("AXE_CORE_JS") != "" {
		axe = axeSource(t)
	}
	for _, vp := range layoutViewports {
		t.Run(vp.name, func(t *testing.T) {
			b := newBrowser(t, vp.name)
			emulate(b, vp)
			for _, lang := range []string{"en", "tr"} {
				for _, who := range []string{"leyla", botName} {
					b.do(30*time.Second,
						chromedp.Navigate(srv.URL+views.PlayerPath(who)+"?lang="+lang),
						chromedp.WaitVisible(`html[lang="`+lang+`"] [data-testid="rating-chart"]`),
					)
					if got := eval[string](b, `document.querySelector('[data-testid="player-name"]').textContent.trim()`); got != who {
						t.Errorf("%s: name %q", who, got)
					}
					if n := eval[int](b, `document.querySelectorAll('[data-testid="past-game"]').length`); n < 2 {
						t.Errorf("%s: %d past games", who, n)
					}
					if over := eval[bool](b, `document.documentElement.scrollWidth > window.innerWidth`); over {
						t.Errorf("%s (%s): the page overflows sideways", who, lang)
					}
					label := chartPointValue(t, b, vp.phone)
					months := map[string]string{"en": "Nov", "tr": "Kas"}
					if !strings.Contains(label, " · ") {
						t.Errorf("%s (%s): chart value %q", who, lang, label)
					}
					if dates := eval[string](b, `Array.from(document.querySelectorAll('[data-testid="chart-date"]')).map(e => e.textContent).join('|')`); !strings.Contains(dates, months[lang]) && !strings.Contains(dates, map[string]string{"en": "Oct", "tr": "Eki"}[lang]) {
						t.Errorf("%s (%s): date axis %q not in the page's language", who, lang, dates)
					}
					shot := "member"
					if who == botName {
						shot = "bot"
					}
					b.screenshot(lang + "-" + shot)
					if vp.name == "laptop" && lang == "en" {
						// The dark colour scheme, with a value shown.
						colourScheme(b, "dark")
						chartPointValue(t, b, false)
						b.screenshot(lang + "-" + shot + "-dark")
						if axe != "" {
							checkAxe(t, b, axe, who+" dark")
						}
						colourScheme(b, "light")
					}
					if axe != "" && vp.name == "laptop" {
						checkAxe(t, b, axe, who+" "+lang)
					}
				}
			}
			// The member's own profile form, designed alike.
			if vp.name != "desktop" {
				signUp(b, srv, "selin"+vp.name[:1])
				for _, lang := range []string{"en", "tr"} {
					b.do(30*time.Second,
						chromedp.Navigate(srv.URL+"/profile?lang="+lang),
						chromedp.WaitVisible(`html[lang="`+lang+`"] [data-testid="profile-form"]`),
					)
					if href := eval[string](b, `document.querySelector('[data-testid="profile-public"]').getAttribute('href')`); href != views.PlayerPath("selin"+vp.name[:1]) {
						t.Errorf("own profile: public profile link %q", href)
					}
					if over := eval[bool](b, `document.documentElement.scrollWidth > window.innerWidth`); over {
						t.Errorf("own profile (%s): the page overflows sideways", lang)
					}
					b.screenshot(lang + "-own")
					if axe != "" {
						checkAxe(t, b, axe, "own profile "+lang)
					}
					// And their public page as they see it, with the chips.
					b.do(30*time.Second,
						chromedp.Navigate(srv.URL+views.PlayerPath("selin"+vp.name[:1])+"?lang="+lang),
						chromedp.WaitVisible(`[data-testid="profile-balance"]`),
						chromedp.WaitVisible(`[data-testid="rating-chart-empty"]`),
					)
					b.screenshot(lang + "-own-public")
					if axe != "" {
						checkAxe(t, b, axe, "own public profile "+lang)
					}
				}
			}
		})
	}
}

// chartPointValue hovers (or, on a phone, taps) the chart's middle point
// and returns the value label it shows.
func chartPointValue(t *testing.T, b *browser, phone bool) string {
	t.Helper()
	b.do(5*time.Second, chromedp.ScrollIntoView(`[data-testid="rating-chart"]`))
	x := eval[float64](b, `(() => { const p = document.querySelectorAll('[data-testid="chart-point"]'); const r = p[Math.floor(p.length/2)].querySelector('.elo-dot').getBoundingClientRect(); return r.left + r.width/2 })()`)
	y := eval[float64](b, `(() => { const p = document.querySelectorAll('[data-testid="chart-point"]'); const r = p[Math.floor(p.length/2)].querySelector('.elo-dot').getBoundingClientRect(); return r.top + r.height/2 })()`)
	if phone {
		b.do(5*time.Second, chromedp.MouseClickXY(x, y))
	} else {
		b.do(5*time.Second, chromedp.MouseEvent("mouseMoved", x, y))
	}
	waitFor(b, 5*time.Second, `(() => { const l = document.querySelectorAll('[data-testid="chart-point"]'); const p = l[Math.floor(l.length/2)]; return getComputedStyle(p.querySelector('.elo-label')).opacity === '1' })()`)
	return eval[string](b, `(() => { const l = document.querySelectorAll('[data-testid="chart-point"]'); return l[Math.floor(l.length/2)].querySelector('.elo-label text').textContent })()`)
}

// colourScheme makes b's pages see prefers-color-scheme: scheme.
func colourScheme(b *browser, scheme string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	_, err := chromedp.Run(ctx, func(ctx context.Context, tg *chromedp.Target) (cdp.Empty, error) {
		return cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
		})
	})
	if err != nil {
		b.t.Fatalf("%s: emulate the %s scheme: %v", b.name, scheme, err)
	}
}
