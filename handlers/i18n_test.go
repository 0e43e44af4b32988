package handlers

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// htmlLang returns the <html lang> of the page at rq.
func (e *accountEnv) htmlLang(t *testing.T, rq request) string {
	t.Helper()
	resp := e.do(t, rq)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s = %d", rq.target, resp.StatusCode)
	}
	lang, _ := parse(t, resp).Find("html").Attr("lang")
	return lang
}

func TestLanguageSelectionOrder(t *testing.T) {
	e := newAccountEnv(t, RateLimit{})
	member := e.signUp(t, "Ayse") // signed up in English
	resp := e.do(t, request{method: http.MethodPost, target: "/profile", cookies: []*http.Cookie{member},
		form: url.Values{"language": {"tr"}, "gender": {"unspecified"}}})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("save profile = %d", resp.StatusCode)
	}
	langEN := &http.Cookie{Name: langCookie, Value: "en"}
	langTR := &http.Cookie{Name: langCookie, Value: "tr"}
	tests := []struct {
		name    string
		target  string
		cookies []*http.Cookie
		accept  string
		want    string
	}{
		{"nothing", "/", nil, "", "en"},
		{"Accept-Language tr", "/", nil, "tr-TR,tr;q=0.9,en;q=0.8", "tr"},
		{"Accept-Language prefers en", "/", nil, "en-GB,tr;q=0.5", "en"},
		{"Accept-Language unknown", "/", nil, "de-DE,fr;q=0.5", "en"},
		{"Accept-Language malformed", "/", nil, ";;;=", "en"},
		{"cookie beats Accept-Language", "/", []*http.Cookie{langTR}, "en", "tr"},
		{"cookie en beats Accept-Language tr", "/", []*http.Cookie{langEN}, "tr", "en"},
		{"unknown cookie is ignored", "/", []*http.Cookie{{Name: langCookie, Value: "xx"}}, "tr", "tr"},
		{"?lang beats cookie", "/?lang=tr", []*http.Cookie{langEN}, "en", "tr"},
		{"?lang unknown is ignored", "/?lang=de", []*http.Cookie{langTR}, "", "tr"},
		{"profile beats cookie and Accept-Language", "/", []*http.Cookie{member, langEN}, "en", "tr"},
		{"?lang beats profile", "/?lang=en", []*http.Cookie{member}, "tr", "en"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rq := request{target: tc.target, cookies: tc.cookies}
			if tc.accept != "" {
				rq.header = map[string]string{"Accept-Language": tc.accept}
			}
			if got := e.htmlLang(t, rq); got != tc.want {
				t.Errorf("lang = %q, want %q", got, tc.want)
			}
		})
	}
	// A GET with ?lang saves nothing.
	if resp := e.do(t, request{target: "/?lang=tr"}); cookie(resp, langCookie) != nil {
		t.Error("GET /?lang=tr set a cookie")
	}
}

func TestLanguageSwitcher(t *testing.T) {
	e := newAccountEnv(t, RateLimit{})

	// The switcher returns to the current page, without its lang parameter.
	doc := parse(t, e.do(t, request{target: "/login?next=%2Fprofile&lang=tr"}))
	sw := testid(doc, "lang-switcher")
	if next, _ := sw.Find(`input[name="next"]`).Attr("value"); next != "/login?next=%2Fprofile" {
		t.Errorf("switcher next = %q, want /login?next=%%2Fprofile", next)
	}
	if cur, _ := testid(doc, "lang-tr").Attr("aria-current"); cur != "true" {
		t.Errorf("the Turkish button is not marked current")
	}
	if m, _ := sw.Attr("method"); m != "post" {
		t.Errorf("switcher method = %q, want post", m)
	}

	// A guest's choice goes into a cookie.
	resp := e.do(t, request{method: http.MethodPost, target: "/lang", form: url.Values{"lang": {"tr"}, "next": {"/login"}}})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/login" {
		t.Fatalf("POST /lang = %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	c := cookie(resp, langCookie)
	if c == nil || c.Value != "tr" || !c.HttpOnly || c.SameSite != http.SameSiteLaxMode {
		t.Fatalf("lang cookie = %+v", c)
	}
	if got := e.htmlLang(t, request{target: "/", cookies: []*http.Cookie{c}}); got != "tr" {
		t.Errorf("with the cookie the page is %q, want tr", got)
	}

	// A member's choice goes into the profile too, and follows them
	// without the cookie.
	member := e.signUp(t, "Mehmet")
	resp = e.do(t, request{method: http.MethodPost, target: "/lang", cookies: []*http.Cookie{member},
		form: url.Values{"lang": {"tr"}, "next": {"https://evil.example/"}}})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/" {
		t.Fatalf("POST /lang = %d to %q, want 303 to /", resp.StatusCode, resp.Header.Get("Location"))
	}
	if got := e.htmlLang(t, request{target: "/", cookies: []*http.Cookie{member}}); got != "tr" {
		t.Errorf("member's page = %q, want tr", got)
	}

	// An unknown language is refused.
	if resp := e.do(t, request{method: http.MethodPost, target: "/lang", form: url.Values{"lang": {"xx"}}}); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("POST /lang xx = %d, want 400", resp.StatusCode)
	}
}

func TestProfile(t *testing.T) {
	e := newAccountEnv(t, RateLimit{})

	// Guests are sent to log in first.
	resp := e.do(t, request{target: "/profile"})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/login?next=%2Fprofile" {
		t.Errorf("guest GET /profile = %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	resp = e.do(t, request{method: http.MethodPost, target: "/profile", form: url.Values{"language": {"tr"}}})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/login" {
		t.Errorf("guest POST /profile = %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}

	c := e.signUp(t, "Zeynep")
	doc := parse(t, e.do(t, request{target: "/profile", cookies: []*http.Cookie{c}}))
	if got := testid(doc, "profile-name").Text(); got != "Zeynep" {
		t.Errorf("profile name = %q", got)
	}
	if _, checked := testid(doc, "gender-unspecified").Attr("checked"); !checked {
		t.Error("gender is not unspecified by default")
	}
	if v, _ := testid(doc, "profile-language").Find("option[selected]").Attr("value"); v != "en" {
		t.Errorf("selected language = %q, want en", v)
	}

	resp = e.do(t, request{method: http.MethodPost, target: "/profile", cookies: []*http.Cookie{c},
		form: url.Values{"language": {"tr"}, "gender": {"female"}}})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/profile?saved=1" {
		t.Fatalf("POST /profile = %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	resp = e.do(t, request{target: "/profile?saved=1", cookies: []*http.Cookie{c}})
	doc = parse(t, resp)
	if lang, _ := doc.Find("html").Attr("lang"); lang != "tr" {
		t.Errorf("profile page after saving tr is %q", lang)
	}
	if got := strings.TrimSpace(testid(doc, "profile-saved").Text()); got != "Profiliniz kaydedildi." {
		t.Errorf("saved message = %q", got)
	}
	if _, checked := testid(doc, "gender-female").Attr("checked"); !checked {
		t.Error("gender female is not checked after saving")
	}

	for _, form := range []url.Values{
		{"language": {"tr"}, "gender": {"robot"}},
		{"language": {"de"}, "gender": {"male"}},
	} {
		resp := e.do(t, request{method: http.MethodPost, target: "/profile", cookies: []*http.Cookie{c}, form: form})
		if resp.StatusCode != http.StatusUnprocessableEntity {
			t.Errorf("POST /profile %v = %d, want 422", form, resp.StatusCode)
		}
		if id, _ := testid(parse(t, resp), "form-error").Attr("data-message"); id != "error.profile_invalid" {
			t.Errorf("POST /profile %v: message %q", form, id)
		}
	}
}

// messageID looks like a message ID: what T returns for a missing message.
var messageID = regexp.MustCompile(`^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$`)

// checkNoLeakedIDs fails if any text or user-facing attribute of doc is a
// bare message ID.
func checkNoLeakedIDs(t *testing.T, page string, doc *goquery.Document) {
	t.Helper()
	doc.Find("*").Each(func(_ int, s *goquery.Selection) {
		for _, n := range s.Nodes {
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == 1 /* html.TextNode */ && messageID.MatchString(strings.TrimSpace(c.Data)) {
					t.Errorf("%s: untranslated %q", page, strings.TrimSpace(c.Data))
				}
			}
		}
		for _, attr := range []string{"title", "alt", "aria-label", "placeholder"} {
			if v, ok := s.Attr(attr); ok && messageID.MatchString(v) {
				t.Errorf("%s: untranslated %s=%q", page, attr, v)
			}
		}
	})
}

func TestPagesTranslated(t *testing.T) {
	e := newAccountEnv(t, RateLimit{})
	member := e.signUp(t, "Ayse")
	pages := []struct {
		target string
		member bool
		status int
	}{
		{"/", false, http.StatusOK},
		{"/", true, http.StatusOK},
		{"/signup", false, http.StatusOK},
		{"/login", false, http.StatusOK},
		{"/profile?saved=1", true, http.StatusOK},
		{"/rules", false, http.StatusOK},
		{"/guidelines", false, http.StatusOK},
		{"/tournament-rules", false, http.StatusOK},
		{"/terms", false, http.StatusOK},
		{"/no/such/page", false, http.StatusNotFound},
	}
	titles := map[string]string{}
	for _, lang := range []string{"en", "tr"} {
		for _, p := range pages {
			rq := request{target: p.target + sep(p.target) + "lang=" + lang}
			if p.member {
				rq.cookies = []*http.Cookie{member}
			}
			resp := e.do(t, rq)
			if resp.StatusCode != p.status {
				t.Errorf("GET %s = %d, want %d", rq.target, resp.StatusCode, p.status)
				continue
			}
			doc := parse(t, resp)
			checkNoLeakedIDs(t, rq.target, doc)
			if got, _ := doc.Find("html").Attr("lang"); got != lang {
				t.Errorf("GET %s: lang %q", rq.target, got)
			}
			title := doc.Find("title").Text()
			if other, ok := titles[p.target]; ok && other == title && p.target != "/" {
				t.Errorf("GET %s: title %q is the same in both languages", rq.target, title)
			}
			titles[p.target] = title
		}
	}
}

// sep returns the separator that adds a query parameter to target.
func sep(target string) string {
	if strings.Contains(target, "?") {
		return "&"
	}
	return "?"
}

func TestLangParameterKeptByForms(t *testing.T) {
	e := newAccountEnv(t, RateLimit{})
	e.signUp(t, "Ayse")
	doc := parse(t, e.do(t, request{target: "/signup?lang=tr"}))
	if a, _ := testid(doc, "signup-form").Attr("action"); a != "/signup?lang=tr" {
		t.Errorf("form action = %q, want /signup?lang=tr", a)
	}
	doc = parse(t, e.do(t, request{target: "/login"}))
	if a, _ := testid(doc, "login-form").Attr("action"); a != "/login" {
		t.Errorf("form action = %q, want /login", a)
	}
	resp := e.do(t, request{method: http.MethodPost, target: "/signup?lang=tr", header: map[string]string{"Accept-Language": "en"},
		form: url.Values{"username": {"ayse"}, "password": {"correct horse"}}})
	if got := strings.TrimSpace(testid(parse(t, resp), "form-error").Text()); got != "Bu kullanıcı adı alınmış. Lütfen başka bir ad seçin." {
		t.Errorf("form error = %q", got)
	}
}

// TestURLLang: the lang parameter is found however the query spells it,
// and a query that cannot hold one is left as it is.
func TestURLLang(t *testing.T) {
	cases := []struct{ target, lang, here string }{
		{"/games/1", "", "/games/1"},
		{"/games/1/moves?uci=e2e4&ply=0", "", "/games/1/moves?uci=e2e4&ply=0"},
		{"/rules?lang=tr", "tr", "/rules"},
		{"/rules?a=1&lang=en&b=2", "en", "/rules?a=1&b=2"},
		{"/rules?l%61ng=tr", "tr", "/rules"},
		{"/rules?language=tr", "", "/rules?language=tr"},
		{"/rules?q=%C3%A7", "", "/rules?q=%C3%A7"},
	}
	for _, c := range cases {
		u, err := url.Parse(c.target)
		if err != nil {
			t.Fatal(err)
		}
		if got := urlLang(u); got != c.lang {
			t.Errorf("urlLang(%s) = %q, want %q", c.target, got, c.lang)
		}
		if got := withoutLang(u); got != c.here {
			t.Errorf("withoutLang(%s) = %q, want %q", c.target, got, c.here)
		}
	}
}
