// Package locales holds Satranç's interface texts: one go-i18n message file
// per language (active.en.toml, active.tr.toml), embedded in the binary.
//
// Message IDs are dotted snake_case paths made by nested TOML tables
// ([account.login] title = "…" is account.login.title). No path segment may
// be one of go-i18n's reserved names (one, other, zero, two, few, many, id,
// description, hash). A message with plural forms is a table with one and
// other, which both languages give even when the texts are equal; its text
// gets the number as {{.Count}}. locales_test.go checks that both files have
// the same IDs and no empty text.
//
// To add a text: add the same ID to both files, then use it through
// views.T(ctx, "area.thing") or views.TN(ctx, "area.things", n).
//
//	b, err := locales.NewBundle() // once, in main
package locales

import (
	"embed"
	"fmt"
	"io/fs"
	"sync"

	"github.com/BurntSushi/toml"
	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
)

// files holds the message files.
//
//go:embed active.*.toml
var files embed.FS

// Languages are the interface languages, the default first. Their order
// matches Codes.
var Languages = []language.Tag{language.English, language.Turkish}

// Codes are the codes of Languages, as URLs, cookies and profiles write
// them.
var Codes = []string{"en", "tr"}

// NewBundle returns a go-i18n Bundle with every embedded message file
// loaded; English is its default language.
func NewBundle() (*i18n.Bundle, error) {
	b := i18n.NewBundle(Languages[0])
	b.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	names, err := fs.Glob(files, "active.*.toml")
	if err != nil {
		return nil, fmt.Errorf("locales: %w", err)
	}
	for _, name := range names {
		if _, err := b.LoadMessageFileFS(files, name); err != nil {
			return nil, fmt.Errorf("locales: %s: %w", name, err)
		}
	}
	return b, nil
}

// Default returns a Bundle built once by NewBundle, for code that has none
// passed in (tests, components rendered without a request). It panics if
// the embedded files do not parse, which locales_test.go rules out.
var Default = sync.OnceValue(func() *i18n.Bundle {
	b, err := NewBundle()
	if err != nil {
		panic(err)
	}
	return b
})

// FS returns the embedded message files, for tests.
func FS() fs.FS { return files }
