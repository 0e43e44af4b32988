package handlers

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"

	"satranc/engine/account"
	"satranc/locales"
	"satranc/views"
)

// langCookie holds a guest's chosen language.
const langCookie = "lang"

// langCookieTTL is how long a guest's language choice is kept.
const langCookieTTL = 365 * 24 * time.Hour

// langMatcher matches Accept-Language against the interface languages.
var langMatcher = language.NewMatcher(locales.Languages)

// localeContext picks the request's language and returns ctx with a
// views.Locale with its Localizer. The order:
//
//  1. ?lang=en|tr in the URL, for this request only (a GET changes nothing;
//     the switcher's POST /lang saves a choice);
//  2. the language in a member's profile;
//  3. a guest's lang cookie;
//  4. the best match in Accept-Language;
//  5. English.
func (h *Handler) localeContext(ctx context.Context, w http.ResponseWriter, r *http.Request) context.Context {
	fromURL := urlLang(r.URL)
	lang := pickLanguage(ctx, r, fromURL)
	loc := h.locales[lang]
	if loc.Localizer == nil { // pickLanguage knows only locales.Codes
		loc = views.Locale{Lang: lang, Localizer: i18n.NewLocalizer(h.bundle, lang)}
	}
	loc.Here, loc.FromURL = withoutLang(r.URL), lang == fromURL
	w.Header().Add("Vary", "Accept-Language, Cookie")
	return views.WithLocale(ctx, loc)
}

// pickLanguage returns the language code of request r, whose member (if
// any) is in ctx and whose address asks for fromURL (see localeContext).
func pickLanguage(ctx context.Context, r *http.Request, fromURL string) string {
	if knownLang(fromURL) {
		return fromURL
	}
	if u, ok := userFrom(ctx); ok {
		if knownLang(u.Language) {
			return u.Language
		}
	} else if c, err := r.Cookie(langCookie); err == nil && knownLang(c.Value) {
		return c.Value
	}
	if al := r.Header.Get("Accept-Language"); al != "" {
		tags, _, err := language.ParseAcceptLanguage(al)
		if err == nil && len(tags) > 0 {
			if _, i, conf := langMatcher.Match(tags...); conf != language.No {
				return locales.Codes[i]
			}
		}
	}
	return locales.Codes[0]
}

// knownLang reports whether code is an interface language.
func knownLang(code string) bool { return slices.Contains(locales.Codes, code) }

// mayHaveLang reports whether u's query may hold a lang parameter: every
// request passes here, and most have no query, or one without it (a
// move's), which is not worth parsing. Only a name spelt out or escaped
// can read as "lang".
func mayHaveLang(u *url.URL) bool {
	return strings.Contains(u.RawQuery, "lang") || strings.Contains(u.RawQuery, "%")
}

// urlLang returns the lang parameter of u's query, "" for none.
func urlLang(u *url.URL) string {
	if !mayHaveLang(u) {
		return ""
	}
	return u.Query().Get("lang")
}

// withoutLang returns u's path and query with any lang parameter removed.
func withoutLang(u *url.URL) string {
	if !mayHaveLang(u) {
		return u.RequestURI()
	}
	q := u.Query()
	if !q.Has("lang") {
		return u.RequestURI()
	}
	q.Del("lang")
	v := url.URL{Path: u.Path, RawPath: u.RawPath, RawQuery: q.Encode()}
	return v.RequestURI()
}

// handleLanguage saves the language chosen in the switcher, in the profile
// of a member and in a cookie (which a guest's later visits use), then
// returns to the page it was chosen on.
func (h *Handler) handleLanguage(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		h.fail(w, r, fmt.Errorf("%w: %w", errBadRequest, err))
		return
	}
	lang := r.PostFormValue("lang")
	if !knownLang(lang) {
		h.fail(w, r, errBadRequest)
		return
	}
	if u, ok := userFrom(r.Context()); ok && h.accounts != nil {
		if _, err := h.accounts.UpdateProfile(r.Context(), u.ID, account.Profile{Language: lang, Gender: u.Gender}); err != nil {
			h.fail(w, r, err)
			return
		}
	}
	setCookie(w, r, langCookie, lang, time.Now().Add(langCookieTTL))
	redirectTo(w, r, r.PostFormValue("next"))
}
