package handlers

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
)

// getPage serves GET target from a handler built with cfg and returns the
// parsed page, failing unless the status is 200.
func getPage(t *testing.T, cfg Config, target string) *goquery.Document {
	t.Helper()
	cfg.Logger = slog.New(slog.DiscardHandler)
	rec := httptest.NewRecorder()
	New(cfg).Routes().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, target, nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("GET %s = %d, want 200", target, rec.Code)
	}
	doc, err := goquery.NewDocumentFromReader(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// checkAnchors fails unless every link of doc's table of contents points
// at an element of the page, and every anchor in want is one of them.
func checkAnchors(t *testing.T, page string, doc *goquery.Document, want []string) {
	t.Helper()
	var got []string
	doc.Find(`[data-testid="toc-link"]`).Each(func(_ int, a *goquery.Selection) {
		href, _ := a.Attr("href")
		id := strings.TrimPrefix(href, "#")
		got = append(got, id)
		if doc.Find(`[id="`+id+`"]`).Length() != 1 {
			t.Errorf("%s: contents link %s leads nowhere", page, href)
		}
		if strings.TrimSpace(a.Text()) == "" {
			t.Errorf("%s: contents link %s has no text", page, href)
		}
	})
	for _, id := range want {
		if !slices.Contains(got, id) {
			t.Errorf("%s: contents lack #%s (have %v)", page, id, got)
		}
	}
	doc.Find(`[data-testid="doc-section"]`).Each(func(_ int, s *goquery.Selection) {
		id, _ := s.Attr("id")
		if href, _ := s.Find("h2 a.anchor").Attr("href"); href != "#"+id {
			t.Errorf("%s: section %q heading links to %q", page, id, href)
		}
	})
}

// rulesAnchors are the sections SPEC sections 1 to 11 ask the rules page for.
var rulesAnchors = []string{
	"setup", "pieces", "castling", "en-passant", "promotion", "check", "draws", "clocks", "tables",
	"chips", "ending", "computer", "rating", "tournaments", "chat", "fair-play", "tips",
}

func TestRulesPage(t *testing.T) {
	tests := []struct {
		lang string
		want []string // texts the page must contain: SPEC's numbers in the language's style
	}{
		{"en", []string{
			"500 chips", "2,500 chips", "10,000 chips", "50,000 chips", "250,000 chips", "2,500,000 chips",
			"Kahvehane", "Kapalıçarşı", "Saray Bahçesi", "Has Oda", "Divan-ı Hümayun",
			"5% for regular members", "3% for VIP members", "ten times its stake",
			"45 seconds", "K = 40", "K = 20", "first 30 rated games", "rating of 1200",
			"Easy: rating 800", "Medium: rating 1300", "Hard: rating 1700", "about 6 seconds",
			"fourth and every later staked game", "24 hours", "3 for a win and 1 for any other result",
			"less than 30 seconds", "less than 10 seconds", "50 moves", "third time",
			"have no money value", "cannot be cashed out", "never be transferred",
			"onto its own rook", "Daily Chess Cup", "Weekly Chess League",
			"Nf3, exd5, O-O, e8=Q", "the rook (Kale)", "In both languages", "such as e2e4", "(e7e8q)",
		}},
		{"tr", []string{
			"500 çip", "2.500 çip", "10.000 çip", "50.000 çip", "250.000 çip", "2.500.000 çip",
			"Kahvehane", "Kapalıçarşı", "Saray Bahçesi", "Has Oda", "Divan-ı Hümayun",
			"normal üyeler için %5", "VIP üyeler için %3", "en az on katı",
			"45 saniye", "K = 40", "K = 20", "İlk 30 puanlı", "1200 puanla",
			"Kolay: 800 puan", "Orta: 1300 puan", "Zor: 1700 puan", "yaklaşık 6 saniye",
			"dördüncü ve sonraki her bahisli oyun", "24 saat", "galibiyet 3 puan",
			"30 saniyeden az", "10 saniyeden az", "50'şer hamle", "üçüncü kez",
			"Parasal değerleri yoktur", "paraya çevrilemezler", "aktarılamazlar",
			"kendi kalesinin üzerine", "Günlük Satranç Kupası", "Haftalık Satranç Ligi",
			"geçerken alma", "terfi", "pat", "mat", "Hemen Oyna", "Sıralama",
			"Af3, exd5, O-O, e8=V", "Türkçede K kaledir (Kale), şah ise Ş'dir (Şah)", "İki dilde de", "UCI", "e2e4 gibi", "(e7e8q)",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.lang, func(t *testing.T) {
			doc := getPage(t, Config{}, "/rules?lang="+tc.lang)
			if lang, _ := doc.Find("html").Attr("lang"); lang != tc.lang {
				t.Errorf("lang = %q", lang)
			}
			rules := doc.Find(`[data-testid="rules"]`)
			if rules.Length() != 1 {
				t.Fatal("no rules article")
			}
			checkAnchors(t, "/rules", doc, rulesAnchors)
			text := strings.Join(strings.Fields(rules.Text()), " ")
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("the rules page lacks %q", w)
				}
			}
			var controls []string
			doc.Find(`[data-testid="time-controls"] li`).Each(func(_ int, s *goquery.Selection) { controls = append(controls, s.Text()) })
			if want := []string{"1+0", "3+0", "3+2", "5+0", "10+0", "15+10", "30+0"}; !slices.Equal(controls, want) {
				t.Errorf("time controls %v, want %v", controls, want)
			}
			if n := doc.Find(`[data-testid="draw-list"] li`).Length(); n != 6 {
				t.Errorf("%d draw rules, want 6", n)
			}
			if f := doc.Find(`[data-testid="elo-formula"]`).Text(); !strings.Contains(f, "K × (") || !strings.Contains(f, "/ 400))") {
				t.Errorf("Elo formula = %q", f)
			}
			for _, link := range []string{"/guidelines", "/tournament-rules", "/terms"} {
				if rules.Find(`a[href="`+link+`?lang=`+tc.lang+`"]`).Length() == 0 {
					t.Errorf("the rules page does not link %s", link)
				}
			}
		})
	}
}

func TestRulesTryIts(t *testing.T) {
	tests := []struct {
		name, mark, correct string
		legal               []string
		// result maps squares to the piece on them after the correct move.
		result map[string]string
	}{
		{"castling", "e1", "e1g1", []string{"e1e2", "e1f1", "e1g1"}, map[string]string{"g1": "wK", "f1": "wR"}},
		{"en_passant", "e5", "e5d6", []string{"e5d6", "e5e6"}, map[string]string{"d6": "wP", "d5": ""}},
		{"promotion", "b7", "b7b8q", []string{"b7b8b", "b7b8n", "b7b8q", "b7b8r"}, map[string]string{"b8": "wQ"}},
	}
	texts := map[string]string{}
	for _, lang := range []string{"en", "tr"} {
		doc := getPage(t, Config{}, "/rules?lang="+lang)
		for _, tc := range tests {
			fig := doc.Find(`[data-testid="tryit-` + tc.name + `"]`)
			if fig.Length() != 1 {
				t.Errorf("%s: no try-it board %s", lang, tc.name)
				continue
			}
			if m, _ := fig.Attr("data-mark"); m != tc.mark {
				t.Errorf("%s %s: mark %q, want %q", lang, tc.name, m, tc.mark)
			}
			if c, _ := fig.Attr("data-correct"); c != tc.correct {
				t.Errorf("%s %s: correct %q, want %q", lang, tc.name, c, tc.correct)
			}
			board := fig.Find(`.tryit-board > [data-testid="board"]`)
			if v, _ := board.Attr("data-interactive"); v != "true" {
				t.Errorf("%s %s: board is not interactive", lang, tc.name)
			}
			if v, _ := board.Attr("data-color"); v != "w" {
				t.Errorf("%s %s: data-color %q", lang, tc.name, v)
			}
			legalAttr, _ := board.Attr("data-legal")
			legal := strings.Fields(legalAttr)
			slices.Sort(legal)
			if !slices.Equal(legal, tc.legal) {
				t.Errorf("%s %s: data-legal %v, want %v", lang, tc.name, legal, tc.legal)
			}
			if board.Find(`.promotion-picker [data-promotion]`).Length() != 4 {
				t.Errorf("%s %s: the board has no promotion picker with four pieces", lang, tc.name)
			}
			if p, _ := board.Find(`[data-square="` + tc.mark + `"] img`).Attr("data-piece"); p == "" {
				t.Errorf("%s %s: no piece on the marked square", lang, tc.name)
			}
			result := fig.Find(`template[data-tryit-result="` + tc.correct + `"]`)
			for sq, want := range tc.result {
				got, _ := result.Find(`[data-square="` + sq + `"] img`).Attr("data-piece")
				if got != want {
					t.Errorf("%s %s: after %s, %s holds %q, want %q", lang, tc.name, tc.correct, sq, got, want)
				}
			}
			for _, part := range []string{"tryit-task", "tryit-praise", "tryit-wrong", "tryit-reset"} {
				s := fig.Find(`[data-testid="` + part + `"]`)
				text := strings.TrimSpace(s.Text())
				if text == "" {
					t.Errorf("%s %s: %s is empty", lang, tc.name, part)
				}
				key := tc.name + "/" + part
				if other, ok := texts[key]; ok && other == text {
					t.Errorf("%s %s: %s %q is the same in both languages", lang, tc.name, part, text)
				}
				texts[key] = text
			}
			if _, hidden := fig.Find(`[data-testid="tryit-praise"]`).Attr("hidden"); !hidden {
				t.Errorf("%s %s: the praise shows before any move", lang, tc.name)
			}
		}
		// The label is in capitals by the language's rules: i is İ in Turkish.
		wantLabel := map[string]string{"en": "TRY IT", "tr": "DENE"}[lang]
		doc.Find(`[data-testid="tryit-label"]`).Each(func(_ int, s *goquery.Selection) {
			if got := s.Text(); got != wantLabel {
				t.Errorf("%s: try-it label %q, want %q", lang, got, wantLabel)
			}
		})
		if n := doc.Find(`[data-testid="tryit-label"]`).Length(); n != len(tests) {
			t.Errorf("%s: %d try-it labels, want %d", lang, n, len(tests))
		}
		if hint := doc.Find(`[data-testid="tryit-promotion"] [data-tryit-hint]`); hint.AttrOr("data-tryit-hint", "") != "b7b8r b7b8b b7b8n" {
			t.Errorf("%s: promotion hint for %q", lang, hint.AttrOr("data-tryit-hint", ""))
		}
	}
}

func TestCommunityPages(t *testing.T) {
	tests := []struct {
		target, testid string
		anchors        []string
		want           map[string][]string // by language
	}{
		{"/guidelines", "page-guidelines", []string{"chat", "fair-play", "restrictions"}, map[string][]string{
			"en": {"Community Guidelines", "No insults", "chess engines", "chip dumping", "restrict"},
			"tr": {"Topluluk Kuralları", "Hakaret", "satranç motoru", "çip dökme", "anlaşmalı oyun", "kısıtla"},
		}},
		{"/tournament-rules", "page-tournament", []string{"tournaments", "points", "standings"}, map[string][]string{
			"en": {"Tournament Rules", "Daily Chess Cup", "Weekly Chess League", "3 points", "1 point", "no money value"},
			"tr": {"Turnuva Kuralları", "Günlük Satranç Kupası", "Haftalık Satranç Ligi", "3 puan", "1 puan", "parasal değeri yoktur"},
		}},
		{"/terms", "page-terms", []string{"service", "chips", "account", "privacy"}, map[string][]string{
			"en": {"Terms of Use", "no money value", "cashed out", "never be transferred"},
			"tr": {"Kullanım Koşulları", "Parasal değerleri yoktur", "paraya çevrilemez", "aktarılamazlar"},
		}},
	}
	for _, tc := range tests {
		for _, lang := range []string{"en", "tr"} {
			target := tc.target + "?lang=" + lang
			doc := getPage(t, Config{}, target)
			page := doc.Find(`[data-testid="` + tc.testid + `"]`)
			if page.Length() != 1 {
				t.Errorf("GET %s: no %s", target, tc.testid)
				continue
			}
			for _, id := range tc.anchors {
				sec := doc.Find(`section[id="` + id + `"]`)
				if href, _ := sec.Find("h2 a.anchor").Attr("href"); href != "#"+id {
					t.Errorf("GET %s: no section #%s with a heading linking to it", target, id)
				}
			}
			text := strings.Join(strings.Fields(page.Text()), " ")
			for _, w := range tc.want[lang] {
				if !strings.Contains(text, w) {
					t.Errorf("GET %s lacks %q", target, w)
				}
			}
			if page.Find(`a[href="/rules?lang=`+lang+`"]`).Length() == 0 {
				t.Errorf("GET %s does not link the rules", target)
			}
		}
	}
}

// TestGuidelinesPromises: the Community Guidelines name only what an
// administrator can do (restrict an account, void a result): no one can
// warn or mute a member, so the page does not say they may.
func TestGuidelinesPromises(t *testing.T) {
	absent := map[string][]string{
		"en": {"warn", "mute", "silence", "ban"},
		"tr": {"uyar", "sustur", "yasakla"},
	}
	for lang, words := range absent {
		doc := getPage(t, Config{}, "/guidelines?lang="+lang)
		text := strings.ToLower(doc.Find(`[data-testid="page-guidelines"]`).Text())
		for _, w := range words {
			if strings.Contains(text, w) {
				t.Errorf("%s guidelines say %q", lang, w)
			}
		}
		if !strings.Contains(text, map[string]string{"en": "restrict", "tr": "kısıtla"}[lang]) {
			t.Errorf("%s guidelines no longer say that an account may be restricted", lang)
		}
	}
}

func TestFooter(t *testing.T) {
	tests := []struct {
		name, support string
		href, text    string // "" href: shown as text; "" text: no contact
	}{
		{"none", "", "", ""},
		{"e-mail", "help@example.org", "mailto:help@example.org", "help@example.org"},
		{"web", "https://example.org/help", "https://example.org/help", "https://example.org/help"},
		{"text", "Ask at the club desk", "", "Ask at the club desk"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, target := range []string{"/", "/rules", "/terms?lang=tr", "/no/such/page"} {
				cfg := Config{SupportContact: tc.support}
				cfg.Logger = slog.New(slog.DiscardHandler)
				rec := httptest.NewRecorder()
				New(cfg).Routes().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, target, nil))
				doc, err := goquery.NewDocumentFromReader(rec.Body)
				if err != nil {
					t.Fatal(err)
				}
				footer := doc.Find(`body > [data-testid="footer"]`)
				if footer.Length() != 1 {
					t.Fatalf("GET %s: no footer", target)
				}
				suffix := ""
				if strings.HasSuffix(target, "lang=tr") {
					suffix = "?lang=tr"
				}
				for id, path := range map[string]string{"footer-rules": "/rules", "footer-guidelines": "/guidelines", "footer-tournament": "/tournament-rules", "footer-terms": "/terms"} {
					if href, _ := footer.Find(`[data-testid="` + id + `"]`).Attr("href"); href != path+suffix {
						t.Errorf("GET %s: %s links %q, want %q", target, id, href, path+suffix)
					}
				}
				support := footer.Find(`[data-testid="footer-support"]`)
				if tc.text == "" {
					if support.Length() != 0 {
						t.Errorf("GET %s: a support contact shows without one configured", target)
					}
					continue
				}
				if !strings.Contains(support.Text(), tc.text) {
					t.Errorf("GET %s: support = %q, want %q in it", target, support.Text(), tc.text)
				}
				if href, _ := support.Find("a").Attr("href"); href != tc.href {
					t.Errorf("GET %s: support link %q, want %q", target, href, tc.href)
				}
			}
		})
	}
}

// TestRulesPageTellsTheGrace: the rules page names the disconnection
// grace the server runs with (Config.DisconnectGrace, from
// --disconnect-grace), in whole seconds rounded up, with the plural form
// that fits, in both languages; 45 seconds when none is set.
func TestRulesPageTellsTheGrace(t *testing.T) {
	tests := []struct {
		grace    time.Duration
		lang     string
		want     []string
		notWants []string
	}{
		{0, "en", []string{"disconnected for 45 seconds", "you have 45 seconds to come back"}, nil},
		{90 * time.Second, "en", []string{"disconnected for 90 seconds", "you have 90 seconds to come back"}, []string{"45 seconds"}},
		{90 * time.Second, "tr", []string{"90 saniye boyunca", "geri dönmek için 90 saniyeniz"}, []string{"45 saniye"}},
		{time.Second, "en", []string{"disconnected for 1 second.", "you have 1 second to come back"}, []string{"1 seconds"}},
		{1500 * time.Millisecond, "tr", []string{"2 saniye boyunca", "geri dönmek için 2 saniyeniz"}, nil},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%v %s", tc.grace, tc.lang), func(t *testing.T) {
			doc := getPage(t, Config{DisconnectGrace: tc.grace}, "/rules?lang="+tc.lang)
			text := strings.Join(strings.Fields(doc.Find("#ending").Text()), " ")
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("the rules lack %q: %.600s", w, text)
				}
			}
			for _, w := range tc.notWants {
				if strings.Contains(text, w) {
					t.Errorf("the rules say %q: %.600s", w, text)
				}
			}
		})
	}
}

// TestRulesPageTellsTheFirstMoveTime: the clocks section says that the
// clocks start once both players have moved and names the first-move time
// the server runs with (Config.FirstMoveTime, from --first-move-time), in
// whole seconds with the plural form that fits, in both languages: 30
// seconds when none is set. The aborted-games paragraph names the rule.
func TestRulesPageTellsTheFirstMoveTime(t *testing.T) {
	tests := []struct {
		first time.Duration
		lang  string
		want  []string
	}{
		{0, "en", []string{"The clocks start only once both players have made their first move", "each player has 30 seconds for it", "Black from White's first move"}},
		{3 * time.Second, "en", []string{"each player has 3 seconds for it"}},
		{time.Second, "en", []string{"each player has 1 second for it"}},
		{0, "tr", []string{"iki oyuncu da ilk hamlesini yaptıktan sonra", "ilk hamlesi için 30 saniyesi vardır"}},
		{2500 * time.Millisecond, "tr", []string{"ilk hamlesi için 3 saniyesi vardır"}},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%v %s", tc.first, tc.lang), func(t *testing.T) {
			doc := getPage(t, Config{FirstMoveTime: tc.first}, "/rules?lang="+tc.lang)
			rule := strings.Join(strings.Fields(doc.Find(`[data-testid="first-move-rule"]`).Text()), " ")
			for _, w := range tc.want {
				if !strings.Contains(rule, w) {
					t.Errorf("the first-move rule lacks %q: %q", w, rule)
				}
			}
			abort := map[string]string{"en": "does not make their first move in time", "tr": "ilk hamlesini zamanında yapmazsa"}[tc.lang]
			if text := strings.Join(strings.Fields(doc.Find("#ending").Text()), " "); !strings.Contains(text, abort) {
				t.Errorf("the aborted-games rule lacks %q", abort)
			}
		})
	}
}
