package views

import (
	"context"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"satranc/engine/opening"
)

// OpeningName returns the name of opening o for the page: its family in
// ctx's language (OpeningFamily), then the variation as the data set
// names it, in English ("Sicilya Savunması: Najdorf Variation").
func OpeningName(ctx context.Context, o opening.Opening) string {
	family := OpeningFamily(ctx, o)
	if v := o.Variation(); v != "" {
		return family + ": " + v
	}
	return family
}

// OpeningFamily returns the family of opening o in ctx's language: the
// message opening.family.<slug> (openingSlug) where the locales translate
// it (the most common hundred or so), the English name otherwise.
func OpeningFamily(ctx context.Context, o opening.Opening) string {
	family := o.Family()
	id := "opening.family." + openingSlug(family)
	if s := T(ctx, id); s != id {
		return s
	}
	return family
}

// openingSlug returns the message key segment of an opening family:
// lower-case ASCII letters and digits, accents dropped, apostrophes left
// out and anything else a single underscore ("Queen's Gambit Declined" is
// queens_gambit_declined, "Grünfeld Defense" grunfeld_defense).
func openingSlug(family string) string {
	var b strings.Builder
	gap := false
	for _, r := range norm.NFD.String(family) {
		switch {
		case unicode.Is(unicode.Mn, r), r == '\'', r == '’':
			continue
		case 'A' <= r && r <= 'Z':
			r += 'a' - 'A'
		case 'a' <= r && r <= 'z', '0' <= r && r <= '9':
		default:
			gap = b.Len() > 0
			continue
		}
		if gap {
			b.WriteByte('_')
			gap = false
		}
		b.WriteRune(r)
	}
	return b.String()
}
