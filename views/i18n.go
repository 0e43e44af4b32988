package views

import (
	"context"
	"maps"
	"strings"
	"sync"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/cases"
	"golang.org/x/text/language"

	"satranc/locales"
)

// Locale is the language of one request, as the handlers' middleware puts
// it into the context.
type Locale struct {
	// Lang is the language code ("en", "tr"), also written as <html lang>.
	Lang string
	// Localizer translates message IDs into Lang.
	Localizer *i18n.Localizer
	// Here is the current page's path and query without any lang
	// parameter: where the language switcher returns to.
	Here string
	// FromURL is set when the request chose Lang with ?lang=; the page's
	// forms then pass it on (see Action).
	FromURL bool
	// Texts, when set, keeps Localizer's plain messages and the board's
	// squares once rendered (texts.go).
	Texts *Texts
}

// localeKey is the context key of the Locale.
type localeKey struct{}

// WithLocale returns a copy of ctx carrying loc.
func WithLocale(ctx context.Context, loc Locale) context.Context {
	return context.WithValue(ctx, localeKey{}, loc)
}

// LocaleFrom returns the Locale in ctx, or English with the default bundle
// when there is none (a component rendered outside a request).
func LocaleFrom(ctx context.Context) Locale {
	if loc, ok := ctx.Value(localeKey{}).(Locale); ok && loc.Localizer != nil {
		return loc
	}
	return defaultLocale()
}

// defaultLocale is LocaleFrom's English, made once.
var defaultLocale = sync.OnceValue(func() Locale {
	loc := i18n.NewLocalizer(locales.Default(), locales.Codes[0])
	return Locale{Lang: locales.Codes[0], Localizer: loc, Here: "/", Texts: NewTexts(loc)}
})

// Action returns a path the page sends requests to (a form's action, an
// htmx request, an event stream), with lang= added to its query when the
// page's language came from the URL, so that the answer (an error shown on
// the form, a fragment, the stream's panels) is in the same language.
func Action(ctx context.Context, path string) string {
	if loc := LocaleFrom(ctx); loc.FromURL {
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		return path + sep + "lang=" + loc.Lang
	}
	return path
}

// Lang returns the language code of ctx's Locale.
func Lang(ctx context.Context) string { return LocaleFrom(ctx).Lang }

// T returns the text of message id in ctx's language. A message missing
// from the locale files comes out as its ID, so that a test can spot it.
func T(ctx context.Context, id string) string {
	if texts := LocaleFrom(ctx).Texts; texts != nil {
		if s, ok := texts.text(id); ok {
			return s
		}
		return id
	}
	return localize(ctx, &i18n.LocalizeConfig{MessageID: id})
}

// TD returns the text of message id with the template fields in data, such
// as {{.Name}}.
func TD(ctx context.Context, id string, data map[string]any) string {
	if data == nil {
		data = map[string]any{}
	}
	return localize(ctx, &i18n.LocalizeConfig{MessageID: id, TemplateData: data})
}

// TN returns the plural form of message id that fits n, with n as
// {{.Count}}. (go-i18n only fills {{.PluralCount}} by itself, and only
// without TemplateData, so the count is always passed explicitly.)
func TN(ctx context.Context, id string, n int) string {
	return localize(ctx, &i18n.LocalizeConfig{
		MessageID:    id,
		PluralCount:  n,
		TemplateData: map[string]any{"Count": n},
	})
}

// TND returns the plural form of message id that fits n, with the
// template fields in data; n is {{.Count}} unless data sets Count.
func TND(ctx context.Context, id string, n int64, data map[string]any) string {
	fields := make(map[string]any, len(data)+1)
	fields["Count"] = n
	maps.Copy(fields, data)
	return localize(ctx, &i18n.LocalizeConfig{MessageID: id, PluralCount: n, TemplateData: fields})
}

// AmountText returns the plural form of message id that fits n chips,
// with n written in ctx's language's style as {{.Amount}}: "1 chip",
// "2,500 chips", "2.500 çip".
func AmountText(ctx context.Context, id string, n int64) string {
	return TND(ctx, id, n, map[string]any{"Amount": Amount(ctx, n)})
}

// localize runs lc through ctx's Localizer.
func localize(ctx context.Context, lc *i18n.LocalizeConfig) string {
	s, err := LocaleFrom(ctx).Localizer.Localize(lc)
	if err != nil {
		return lc.MessageID
	}
	return s
}

// Upper returns s in upper case by the rules of ctx's language: in Turkish
// i becomes İ and ı becomes I, which strings.ToUpper gets wrong.
func Upper(ctx context.Context, s string) string {
	return cases.Upper(language.Make(Lang(ctx))).String(s)
}

// Lower returns s in lower case by the rules of ctx's language: in Turkish
// I becomes ı and İ becomes i.
func Lower(ctx context.Context, s string) string {
	return cases.Lower(language.Make(Lang(ctx))).String(s)
}

// Message is a text to show, chosen by a handler and translated by the view:
// a message ID, with a count when the message has plural forms.
type Message struct {
	ID     string
	Count  int
	Plural bool
}

// Text returns m in ctx's language.
func (m Message) Text(ctx context.Context) string {
	if m.Plural {
		return TN(ctx, m.ID, m.Count)
	}
	return T(ctx, m.ID)
}
