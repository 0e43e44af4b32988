package handlers

import (
	"bufio"
	"context"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/PuerkitoBio/goquery"
	"github.com/nicksnyder/go-i18n/v2/i18n"

	"satranc/engine/chess"
	"satranc/locales"
	"satranc/views"
)

// leakedIDPattern finds a message ID anywhere in a text: views.T writes
// the ID of a message missing from the locale files, alone or inside a
// longer text. It is built from the first segments of the IDs the locale
// files have (account, game, rules ...), so that an ordinary word followed
// by a dot is not taken for one.
func leakedIDPattern(t *testing.T) *regexp.Regexp {
	t.Helper()
	var areas []string
	for _, m := range messageFile(t, "active.en.toml").Messages {
		area, _, _ := strings.Cut(m.ID, ".")
		areas = append(areas, regexp.QuoteMeta(area))
	}
	slices.Sort(areas)
	areas = slices.Compact(areas)
	if len(areas) < 10 {
		t.Fatalf("only %d areas of message IDs: %q", len(areas), areas)
	}
	return regexp.MustCompile(`\b(?:` + strings.Join(areas, "|") + `)(?:\.[a-z][a-z0-9_]*)+\b`)
}

// messageFile parses the embedded locale file name.
func messageFile(t *testing.T, name string) *i18n.MessageFile {
	t.Helper()
	buf, err := fs.ReadFile(locales.FS(), name)
	if err != nil {
		t.Fatal(err)
	}
	mf, err := i18n.ParseMessageFileBytes(buf, name, map[string]i18n.UnmarshalFunc{"toml": toml.Unmarshal})
	if err != nil {
		t.Fatal(err)
	}
	return mf
}

// longWord is a word of five letters or more, in ASCII: an English word
// is one.
var longWord = regexp.MustCompile(`[A-Za-z]{5,}`)

// englishOnlyWords returns, in lower case, the long words of the English
// texts that no Turkish text uses. One of them on a Turkish page is English
// text written in the code rather than taken from the locale files.
func englishOnlyWords(t *testing.T) map[string]bool {
	t.Helper()
	words := func(name string) map[string]bool {
		out := map[string]bool{}
		for _, m := range messageFile(t, name).Messages {
			for _, text := range []string{m.One, m.Other} {
				text = templateField.ReplaceAllString(text, " ")
				for _, w := range longWord.FindAllString(text, -1) {
					out[strings.ToLower(w)] = true
				}
			}
		}
		return out
	}
	en, tr := words("active.en.toml"), words("active.tr.toml")
	for w := range en {
		if tr[w] {
			delete(en, w)
		}
	}
	if len(en) < 500 {
		t.Fatalf("only %d English-only words", len(en))
	}
	return en
}

// templateField is a {{.Field}} in a message.
var templateField = regexp.MustCompile(`{{[^}]*}}`)

// englishIn returns the English-only words in doc's texts and user-facing
// attributes.
func englishIn(doc *goquery.Document, english map[string]bool) []string {
	var found []string
	check := func(text string) {
		for _, w := range longWord.FindAllString(text, -1) {
			if english[strings.ToLower(w)] {
				found = append(found, w)
			}
		}
	}
	doc.Find("*").Each(func(_ int, s *goquery.Selection) {
		if goquery.NodeName(s) == "noscript" {
			// Parsed as by a browser running scripts, noscript keeps its
			// markup as text: read it as a page without scripts does
			// (the game page's meta refresh).
			if inner, err := goquery.NewDocumentFromReader(strings.NewReader(s.Text())); err == nil {
				found = append(found, englishIn(inner, english)...)
			}
			return
		}
		s.Contents().Each(func(_ int, c *goquery.Selection) {
			if goquery.NodeName(c) == "#text" {
				check(c.Text())
			}
		})
		for _, a := range textAttrs {
			check(s.AttrOr(a, ""))
		}
	})
	return found
}

// textAttrs are the attributes a person reads or hears.
var textAttrs = []string{"title", "alt", "aria-label", "placeholder", "label"}

// findLeakedIDs returns every message ID in doc's texts and user-facing
// attributes (including the value of a button-like input).
func findLeakedIDs(doc *goquery.Document, id *regexp.Regexp) []string {
	var leaks []string
	doc.Find("*").Each(func(_ int, s *goquery.Selection) {
		s.Contents().Each(func(_ int, c *goquery.Selection) {
			if goquery.NodeName(c) == "#text" {
				leaks = append(leaks, id.FindAllString(c.Text(), -1)...)
			}
		})
		attrs := textAttrs
		if kind := s.AttrOr("type", ""); goquery.NodeName(s) == "input" && (kind == "submit" || kind == "button" || kind == "reset") {
			attrs = append(slices.Clip(attrs), "value")
		}
		for _, a := range attrs {
			if v, ok := s.Attr(a); ok {
				leaks = append(leaks, id.FindAllString(v, -1)...)
			}
		}
	})
	return leaks
}

// TestLeakedIDPattern: the detector finds an ID alone and inside a text,
// and takes neither a sentence's dot nor a file name for one.
func TestLeakedIDPattern(t *testing.T) {
	id := leakedIDPattern(t)
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(`<p>game.resign</p><p>Score: rules.draws.fifty (3)</p>` +
		`<img alt="piece.white_king"><input type="submit" value="lobby.join"><input name="x" value="game.ok">` +
		`<p>The game. Rules. satranc.db app.css</p>`))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"game.resign", "rules.draws.fifty", "piece.white_king", "lobby.join"}
	if got := findLeakedIDs(doc, id); !slices.Equal(got, want) {
		t.Errorf("findLeakedIDs = %q, want %q", got, want)
	}
}

// TestEnglishOnlyWords: the probe finds an English word in a Turkish
// text, and none in Turkish texts, names and notation.
func TestEnglishOnlyWords(t *testing.T) {
	english := englishOnlyWords(t)
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(`<p>Şah mat! Oyunu Beyaz kazandı.</p>` +
		`<p title="Resign">Kahvehane, Divan-ı Hümayun, ayse, 1. e4 Af3 Ve2 Kxe8 O-O-O [%clk 0:03:00]</p><p>Checkmate: White wins</p>`))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := englishIn(doc, english), []string{"Resign", "Checkmate", "White"}; !slices.Equal(got, want) {
		t.Errorf("englishIn = %q, want %q", got, want)
	}
}

// TestEveryPageTranslated renders every page of the site (every GET
// route, for the administrator, a member and a guest, as a full page and
// as an htmx fragment) in English and in Turkish, and fails if a message
// ID shows anywhere in it untranslated, if a Turkish page has an English
// word (one the English texts use and the Turkish never do), if a page is
// not in the language asked for or lacks the language switcher, or if a
// page reads the same in both languages. A finished game's page and replay show the moves in the
// page language's letters.
func TestEveryPageTranslated(t *testing.T) {
	s := newRouteSite(t)
	finished := finishedGame(t, s)
	leaked := leakedIDPattern(t)
	english := englishOnlyWords(t)

	paths := siteRoutes(t, s.h, s.values)[http.MethodGet]
	paths = append(paths, fmt.Sprintf("/games/%d", finished), fmt.Sprintf("/replay/%d", finished), fmt.Sprintf("/replay/%d?ply=3", finished))
	pages := 0
	for _, path := range paths {
		if strings.HasSuffix(path, "/events") || path == "/metrics" || path == "/healthz" || strings.HasPrefix(path, "/static/") {
			continue // streams, metrics, the health check and static files are not pages
		}
		for _, who := range s.visitors() {
			for _, htmx := range []bool{false, true} {
				texts := map[string]string{}
				for _, lang := range []string{"en", "tr"} {
					target := path + sep(path) + "lang=" + lang
					rq := request{target: target, cookies: who.cookies}
					if htmx {
						rq.header = map[string]string{"HX-Request": "true"}
					}
					resp := s.do(t, rq)
					what := fmt.Sprintf("%s GET %s (htmx %v)", who.name, target, htmx)
					if resp.StatusCode/100 == 3 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
						continue // a redirect (its target is a route of its own), a download
					}
					doc := parse(t, resp)
					pages++
					for _, id := range findLeakedIDs(doc, leaked) {
						t.Errorf("%s: untranslated %q", what, id)
					}
					if lang == "tr" {
						for _, w := range englishIn(doc, english) {
							t.Errorf("%s: English %q on a Turkish page", what, w)
						}
					}
					if doc.Find("head title").Length() > 0 { // a whole page, not a fragment (goquery adds <html> to both)
						if got := doc.Find("html").AttrOr("lang", ""); got != lang {
							t.Errorf("%s: <html lang=%q>", what, got)
						}
						if testid(doc, "lang-switcher").Length() != 1 {
							t.Errorf("%s: no language switcher", what)
						}
					}
					texts[lang] = strings.Join(strings.Fields(doc.Find("body").Text()), " ")
				}
				if en, ok := texts["en"]; ok && en != "" && en == texts["tr"] {
					t.Errorf("%s GET %s (htmx %v) reads the same in English and Turkish: %.200q", who.name, path, htmx, en)
				}
			}
		}
	}
	t.Logf("%d pages checked", pages)
	if pages < 120 {
		t.Errorf("only %d pages checked: the walk missed the routes", pages)
	}

	// The moves of the finished game, in each language's letters.
	for _, page := range []struct{ path, moves string }{
		{fmt.Sprintf("/games/%d", finished), `[data-testid="move-list"] [data-testid="move"]`},
		{fmt.Sprintf("/replay/%d", finished), `[data-testid="replay-moves"] a`},
	} {
		for lang, want := range map[string]string{"en": "e4 e5 Nf3 Nc6", "tr": "e4 e5 Af3 Ac6"} {
			path := page.path
			doc := parse(t, s.do(t, request{target: path + "?lang=" + lang, cookies: s.member.cookies()}))
			var moves []string
			doc.Find(page.moves).Each(func(_ int, m *goquery.Selection) {
				moves = append(moves, strings.TrimSpace(m.Text()))
			})
			if got := strings.Join(moves, " "); got != want {
				t.Errorf("GET %s?lang=%s: moves %q, want %q", path, lang, got, want)
			}
		}
	}
}

// finishedGame plays 1. e4 e5 2. Nf3 Nc6 in a new private game between
// s's administrator and member, then White resigns; it returns the game.
func finishedGame(t *testing.T, s *routeSite) int64 {
	t.Helper()
	id, white, black := s.privateGame(t, s.admin, s.member)
	ctx := context.Background()
	for ply, text := range []string{"e4", "e5", "Nf3", "Nc6"} {
		mover := white
		if ply%2 == 1 {
			mover = black
		}
		if err := s.games.Move(ctx, id, mover.ID, text, chess.English, ply); err != nil {
			t.Fatalf("move %s: %v", text, err)
		}
	}
	if err := s.games.Resign(ctx, id, white.ID); err != nil {
		t.Fatal(err)
	}
	return id
}

// pgnComment and pgnBlackNumber match a PGN comment and the move number
// written before Black's move after one ("3...").
var pgnComment, pgnBlackNumber = regexp.MustCompile(`\{[^}]*\}`), regexp.MustCompile(`\b\d+\.\.\.`)

// TestTypedMovesFollowThePageLanguage: the move box reads the page
// language's letters and the other set's unmistakable ones (SPEC section
// 1), but K always in the page language's sense; the PGN download is in
// English letters unless Turkish ones are asked for, which the Turkish
// game page offers.
func TestTypedMovesFollowThePageLanguage(t *testing.T) {
	e := newStackEnv(t, RateLimit{})
	a, b := e.player(t, "ayse"), e.player(t, "bora")
	id, white, black := e.privateGame(t, a, b)
	moves := fmt.Sprintf("/games/%d/moves", id)
	steps := []struct {
		who    player
		lang   string
		typed  string
		ply    int
		status int
	}{
		{white, "tr", "e4", 0, http.StatusSeeOther},
		{black, "tr", "Ac6", 1, http.StatusSeeOther},            // A: the knight (At)
		{white, "tr", "Nf3", 2, http.StatusSeeOther},            // N cannot be mistaken: the knight
		{black, "en", "Af6", 3, http.StatusSeeOther},            // nor can A on an English page
		{white, "tr", "Ke2", 4, http.StatusUnprocessableEntity}, // K is the rook in Turkish, and no rook reaches e2
		{white, "tr", "Şe2", 4, http.StatusSeeOther},            // Ş: the king
		{black, "en", "Ke7", 5, http.StatusUnprocessableEntity}, // K is the king in English; e7 is taken
		{black, "en", "Kxe7", 5, http.StatusUnprocessableEntity},
		{black, "en", "e5", 5, http.StatusSeeOther},
		{white, "en", "Ke1", 6, http.StatusSeeOther}, // the king goes back
		{black, "tr", "Fc5", 7, http.StatusSeeOther}, // F: the bishop (Fil)
		{white, "tr", "Kg1", 8, http.StatusSeeOther}, // the rook h1-g1 (Kale)
	}
	for _, st := range steps {
		resp := e.do(t, request{method: http.MethodPost, target: moves + "?lang=" + st.lang, form: moveForm(st.typed, st.ply), cookies: st.who.cookies()})
		if resp.StatusCode != st.status {
			t.Fatalf("%s types %q on a %s page: %d, want %d", st.who.Name, st.typed, st.lang, resp.StatusCode, st.status)
		}
	}
	if got := e.snapshot(t, id).Ply; got != 9 {
		t.Fatalf("ply %d after the moves, want 9", got)
	}

	pgn := func(target string) string {
		resp := e.do(t, request{target: target, cookies: a.cookies()})
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s = %d", target, resp.StatusCode)
		}
		// Only the moves: no comments (the clocks), no move numbers of
		// Black's moves after them, one space between words.
		text := pgnComment.ReplaceAllString(readBody(t, resp), " ")
		return strings.Join(strings.Fields(pgnBlackNumber.ReplaceAllString(text, " ")), " ")
	}
	const en, tr = "1. e4 Nc6 2. Nf3 Nf6 3. Ke2 e5 4. Ke1 Bc5 5. Rg1", "1. e4 Ac6 2. Af3 Af6 3. Şe2 e5 4. Şe1 Fc5 5. Kg1"
	if got := pgn(fmt.Sprintf("/games/%d/pgn?lang=tr", id)); !strings.Contains(got, en) {
		t.Errorf("PGN download from a Turkish page =\n%s\nwant the moves %q (English letters unless asked)", got, en)
	}
	if got := pgn(fmt.Sprintf("/games/%d/pgn?letters=tr", id)); !strings.Contains(got, tr) {
		t.Errorf("PGN download with Turkish letters =\n%s\nwant the moves %q", got, tr)
	}
	for lang, links := range map[string]int{"en": 0, "tr": 1} {
		doc := parse(t, e.do(t, request{target: fmt.Sprintf("/games/%d?lang=%s", id, lang), cookies: a.cookies()}))
		if n := testid(doc, "pgn-link-tr").Length(); n != links {
			t.Errorf("%s game page: %d links to the Turkish PGN, want %d", lang, n, links)
		}
	}
}

// TestLangParameterKeptByRequests: a page in the language ?lang= chose
// sends its htmx requests and opens its event streams with that lang, so
// that the fragments and the live panels are in the page's language, not
// in the profile's; the first panel of the game's stream is in Turkish.
func TestLangParameterKeptByRequests(t *testing.T) {
	s := newRouteSite(t) // ayse and bora signed up in English
	finished := finishedGame(t, s)
	game := fmt.Sprintf("/games/%d", s.game)
	attr := func(target, selector, name string) string {
		t.Helper()
		doc := parse(t, s.do(t, request{target: target, cookies: s.admin.cookies()}))
		sel := doc.Find(selector)
		if sel.Length() == 0 {
			t.Fatalf("GET %s: no %s", target, selector)
		}
		return sel.AttrOr(name, "")
	}
	tests := []struct {
		page, selector, name, want string
	}{
		{game, `[sse-connect]`, "sse-connect", game + "/events?" + views.DeltaQuery},
		{game + "?lang=tr", `[sse-connect]`, "sse-connect", game + "/events?" + views.DeltaQuery + "&lang=tr"},
		{game + "?lang=tr", `form[hx-post$="/moves?lang=tr"]`, "hx-post", game + "/moves?lang=tr"},
		{game + "?lang=tr", `[data-voice-path]`, "data-voice-path", game + "/voice?lang=tr"},
		{game + "?lang=tr", `form[hx-post$="/chat?lang=tr"]`, "hx-post", game + "/chat?lang=tr"},
		{"/tournaments/daily?lang=tr", `[sse-connect]`, "sse-connect", "/tournaments/daily/events?lang=tr"},
		{fmt.Sprintf("/replay/%d?lang=tr", finished), `[data-testid="replay-first"]`, "hx-get", fmt.Sprintf("/replay/%d?ply=0&lang=tr", finished)},
		{fmt.Sprintf("/replay/%d?lang=tr", finished), `[data-testid="replay-first"]`, "href", fmt.Sprintf("/replay/%d?ply=0&lang=tr", finished)},
		{fmt.Sprintf("/replay/%d", finished), `[data-testid="replay-first"]`, "href", fmt.Sprintf("/replay/%d?ply=0", finished)},
	}
	// A live game's stream URL also says which panel the page shows
	// (views.GameView.ShownQuery), a key that changes with the game.
	shown := regexp.MustCompile(`&shown=[0-9a-z]+`)
	for _, tc := range tests {
		if got := shown.ReplaceAllString(attr(tc.page, tc.selector, tc.name), ""); got != tc.want {
			t.Errorf("GET %s: %s %s=%q, want %q", tc.page, tc.selector, tc.name, got, tc.want)
		}
	}

	// The waiting page of a player who joined Quick Play from a Turkish page.
	cemil := s.player(t, "cemil")
	resp := s.do(t, request{method: http.MethodPost, target: "/lobby/join?lang=tr", form: url.Values{"control": {"3+0"}}, cookies: cemil.cookies()})
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || loc != "/lobby/wait?lang=tr" {
		t.Fatalf("join Quick Play: %d to %q", resp.StatusCode, loc)
	}
	wait := parse(t, s.do(t, request{target: "/lobby/wait?lang=tr", cookies: cemil.cookies()}))
	if got := wait.Find(`[sse-connect]`).AttrOr("sse-connect", ""); got != "/lobby/wait/events?lang=tr" {
		t.Errorf("waiting page: sse-connect=%q, want /lobby/wait/events?lang=tr", got)
	}

	// The stream the Turkish page opens sends the panel in Turkish.
	srv := httptest.NewServer(s.h)
	defer srv.Close()
	for lang, target := range map[string]string{"en": game + "/events", "tr": game + "/events?lang=tr"} {
		panel := firstPanel(t, srv, target, s.admin)
		label := text(t, lang, "game.moves") // the move list's aria-label
		if !strings.Contains(panel, label) {
			t.Errorf("%s: the first panel lacks %q: %.300s", target, label, panel)
		}
	}
}

// firstPanel opens the event stream at target as p and returns the data
// of its first game panel event.
func firstPanel(t *testing.T, srv *httptest.Server, target string, p player) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), sseTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+target, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.AddCookie(p.cookie)
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	var name string
	var data []string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			data = append(data, strings.TrimPrefix(line, "data: "))
		case line == "" && name == views.EventGame:
			return strings.Join(data, "\n")
		case line == "":
			name, data = "", nil
		}
	}
	t.Fatalf("GET %s: no game panel event (%v)", target, sc.Err())
	return ""
}
