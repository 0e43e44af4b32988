package views

import (
	"context"
	"testing"

	"github.com/nicksnyder/go-i18n/v2/i18n"

	"satranc/locales"
)

// ctxIn returns a context whose Locale is lang.
func ctxIn(lang string) context.Context {
	return WithLocale(context.Background(), Locale{Lang: lang, Localizer: i18n.NewLocalizer(locales.Default(), lang), Here: "/"})
}

func TestT(t *testing.T) {
	tests := []struct {
		ctx  context.Context
		id   string
		want string
	}{
		{ctxIn("en"), "nav.login", "Log in"},
		{ctxIn("tr"), "nav.login", "Giriş yap"},
		{context.Background(), "nav.login", "Log in"}, // no Locale: English
		{ctxIn("tr"), "no.such.message", "no.such.message"},
	}
	for _, tc := range tests {
		if got := T(tc.ctx, tc.id); got != tc.want {
			t.Errorf("T(%s, %s) = %q, want %q", Lang(tc.ctx), tc.id, got, tc.want)
		}
	}
	if got := TD(ctxIn("tr"), "error.heading", map[string]any{"Status": 404}); got != "Hata 404" {
		t.Errorf("TD(error.heading) = %q, want Hata 404", got)
	}
}

func TestTN(t *testing.T) {
	tests := []struct {
		lang string
		n    int
		want string
	}{
		{"en", 1, "Too many attempts. Please try again in 1 second."},
		{"en", 2, "Too many attempts. Please try again in 2 seconds."},
		{"en", 0, "Too many attempts. Please try again in 0 seconds."},
		{"tr", 1, "Çok fazla deneme yapıldı. Lütfen 1 saniye sonra yeniden deneyin."},
		{"tr", 45, "Çok fazla deneme yapıldı. Lütfen 45 saniye sonra yeniden deneyin."},
	}
	for _, tc := range tests {
		if got := TN(ctxIn(tc.lang), "error.too_many_attempts", tc.n); got != tc.want {
			t.Errorf("TN(%s, %d) = %q, want %q", tc.lang, tc.n, got, tc.want)
		}
		m := Message{ID: "error.too_many_attempts", Count: tc.n, Plural: true}
		if got := m.Text(ctxIn(tc.lang)); got != tc.want {
			t.Errorf("Message.Text(%s, %d) = %q, want %q", tc.lang, tc.n, got, tc.want)
		}
	}
}

func TestPluralTexts(t *testing.T) {
	tests := []struct {
		lang, id string
		n        int64
		want     string
	}{
		{"en", "lobby.balance", 1, "Your balance: 1 chip"},
		{"en", "lobby.balance", 0, "Your balance: 0 chips"},
		{"en", "lobby.balance", 2500, "Your balance: 2,500 chips"},
		{"tr", "lobby.balance", 1, "Bakiyeniz: 1 çip"},
		{"tr", "lobby.balance", 2500, "Bakiyeniz: 2.500 çip"},
		{"en", "tournament.prize_chips", 1, "1 chip"},
		{"en", "tournament.prize_chips", 10000, "10,000 chips"},
		{"tr", "tournament.prize_chips", 10000, "10.000 çip"},
	}
	for _, tc := range tests {
		if got := AmountText(ctxIn(tc.lang), tc.id, tc.n); got != tc.want {
			t.Errorf("AmountText(%s, %s, %d) = %q, want %q", tc.lang, tc.id, tc.n, got, tc.want)
		}
	}
	chart := map[string]any{"First": 1200, "Last": 1220, "Min": 1190, "Max": 1230, "From": "1 Dec 2026", "To": "3 Dec 2026"}
	for _, tc := range []struct {
		lang  string
		games int64
		want  string
	}{
		{"en", 1, "Rating chart: 1 rated game, on 3 Dec 2026; rating 1220"},
		{"en", 31, "Rating chart: 31 rated games from 1 Dec 2026 to 3 Dec 2026; rating 1200 after the first, 1220 now; lowest 1190, highest 1230"},
		{"tr", 1, "Elo grafiği: 3 Dec 2026 tarihinde 1 puanlı oyun; Elo puanı 1220"},
	} {
		if got := TND(ctxIn(tc.lang), "player.chart_label", tc.games, chart); got != tc.want {
			t.Errorf("TND(%s, player.chart_label, %d) = %q, want %q", tc.lang, tc.games, got, tc.want)
		}
	}
}

func TestCasing(t *testing.T) {
	tests := []struct {
		lang, in, upper, lower string
	}{
		{"tr", "istanbul ılık", "İSTANBUL ILIK", "istanbul ılık"},
		{"tr", "IŞIK İzmir", "IŞIK İZMİR", "ışık izmir"},
		{"en", "istanbul", "ISTANBUL", "istanbul"},
		{"en", "IZMIR", "IZMIR", "izmir"},
	}
	for _, tc := range tests {
		ctx := ctxIn(tc.lang)
		if got := Upper(ctx, tc.in); got != tc.upper {
			t.Errorf("Upper(%s, %q) = %q, want %q", tc.lang, tc.in, got, tc.upper)
		}
		if got := Lower(ctx, tc.in); got != tc.lower {
			t.Errorf("Lower(%s, %q) = %q, want %q", tc.lang, tc.in, got, tc.lower)
		}
	}
}

func TestAccountURL(t *testing.T) {
	tests := []struct{ path, next, want string }{
		{"/login", "", "/login"},
		{"/login", "/", "/login"},
		{"/login", "/signup?next=%2Fx", "/login"},
		{"/signup", "/games/7?x=1", "/signup?next=%2Fgames%2F7%3Fx%3D1"},
	}
	for _, tc := range tests {
		if got := accountURL(tc.path, tc.next); got != tc.want {
			t.Errorf("accountURL(%q, %q) = %q, want %q", tc.path, tc.next, got, tc.want)
		}
	}
}
