// Package invisible finds the characters that change how text around
// them is shown without being seen themselves: zero-width characters and
// the marks, embeddings, overrides and isolates of the Unicode
// bidirectional algorithm. A chat line or a report holding U+202E (RIGHT-
// TO-LEFT OVERRIDE) shows the text after it reversed, so such text is
// stripped before it is stored (Strip) and escaped wherever it is printed
// raw (Escape).
package invisible

import (
	"fmt"
	"strings"
)

// Is reports whether r is one of the invisible characters:
// U+200B–U+200F (zero-width space, non-joiner, joiner, left-to-right and
// right-to-left mark), U+202A–U+202E (bidirectional embeddings and
// overrides, and their pop) and U+2066–U+2069 (bidirectional isolates).
func Is(r rune) bool {
	return (r >= 0x200B && r <= 0x200F) ||
		(r >= 0x202A && r <= 0x202E) ||
		(r >= 0x2066 && r <= 0x2069)
}

// Strip returns s without its invisible characters.
func Strip(s string) string {
	if !strings.ContainsFunc(s, Is) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if Is(r) {
			return -1
		}
		return r
	}, s)
}

// Escape returns s with each invisible character written as a Go escape,
// \u202e, so that text stored before Strip existed prints as it is.
func Escape(s string) string {
	if !strings.ContainsFunc(s, Is) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if Is(r) {
			fmt.Fprintf(&b, `\u%04x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
