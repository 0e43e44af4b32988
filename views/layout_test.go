package views

import (
	"bytes"
	"context"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"
	"github.com/nicksnyder/go-i18n/v2/i18n"

	"satranc/engine/clock"
	"satranc/locales"
)

// TestPageDescription checks the meta description of the layout: a page's
// own, else the site's, in the page's language, and exactly one.
func TestPageDescription(t *testing.T) {
	tests := []struct {
		name string
		page templ.Component
		id   string // the message the description must be
	}{
		{"layout without one", Layout("x"), "meta.site"},
		{"layout with one", LayoutMeta("x", "Own words", nil), ""},
		{"play", NewGamePage([]clock.Control{clock.MustParse("5+0")}, nil), "meta.play"},
		{"sign-up", SignupPage(AccountForm{}), "meta.signup"},
		{"log-in", LoginPage(AccountForm{}), "meta.login"},
		{"error", ErrorPage(404, Message{ID: "error.not_found"}), "meta.error"},
		{"guidelines", GuidelinesPage(), "meta.guidelines"},
		{"tournament rules", TournamentRulesPage(), "meta.tournament_rules"},
		{"terms", TermsPage(), "meta.terms"},
	}
	for _, lang := range locales.Codes {
		ctx := ctxIn(lang)
		for _, tc := range tests {
			t.Run(lang+" "+tc.name, func(t *testing.T) {
				doc := renderDoc(t, ctx, tc.page)
				metas := doc.Find(`head meta[name="description"]`)
				if metas.Length() != 1 {
					t.Fatalf("%d meta descriptions, want 1", metas.Length())
				}
				got, _ := metas.Attr("content")
				want := "Own words"
				if tc.id != "" {
					want = T(ctx, tc.id)
				}
				if got != want || got == tc.id {
					t.Errorf("description = %q, want %q (%s)", got, want, tc.id)
				}
				if n := doc.Find("h1").Length(); n != 1 && tc.name != "layout without one" && tc.name != "layout with one" {
					t.Errorf("%d h1 elements, want 1", n)
				}
			})
		}
	}
}

func TestOnSection(t *testing.T) {
	tests := []struct {
		here, href string
		want       bool
	}{
		{"/", "/", true},
		{"/lobby", "/", false},
		{"/lobby?x=1", "/lobby", true},
		{"/lobby/wait", "/lobby", true},
		{"/tournaments/weekly", "/tournaments/daily", true},
		{"/players/ali", "/play", false},
		{"/play", "/play", true},
		{"/admin/users/ali", "/admin", true},
	}
	for _, tc := range tests {
		if got := onSection(tc.here, tc.href); got != tc.want {
			t.Errorf("onSection(%q, %q) = %v, want %v", tc.here, tc.href, got, tc.want)
		}
	}
}

// TestNavCurrent checks that the header marks the section shown, and only
// that one.
func TestNavCurrent(t *testing.T) {
	ctx := WithLocale(context.Background(), Locale{Lang: "en", Localizer: i18n.NewLocalizer(locales.Default(), "en"), Here: "/tournaments/weekly"})
	doc := renderDoc(t, ctx, Layout("x"))
	cur := doc.Find(`.site-header [aria-current="page"]`)
	if cur.Length() != 1 {
		t.Fatalf("%d links marked current, want 1", cur.Length())
	}
	if id, _ := cur.Attr("data-testid"); id != "nav-tournaments" {
		t.Errorf("the current link is %s, want nav-tournaments", id)
	}
}

func renderDoc(t *testing.T, ctx context.Context, c templ.Component) *goquery.Document {
	t.Helper()
	var buf bytes.Buffer
	if err := c.Render(ctx, &buf); err != nil {
		t.Fatal(err)
	}
	doc, err := goquery.NewDocumentFromReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// viewOf returns a GameView made in the call, for GamePanel, which draws
// the view it points to.
func viewOf(v GameView) *GameView { return &v }
