package views

import (
	"context"
	"strings"

	"github.com/a-h/templ"
)

// pageDescription is the page's meta description: description, or the
// site's own when the page gives none.
func pageDescription(ctx context.Context, description string) string {
	if description != "" {
		return description
	}
	return T(ctx, "meta.site")
}

// navCurrent marks the header's link to the section the viewer is in with
// aria-current="page", which the header underlines. A section is its first
// path segment, so that /tournaments/weekly lights the link to
// /tournaments/daily; the front page is a section of its own.
func navCurrent(ctx context.Context, href string) templ.Attributes {
	if onSection(LocaleFrom(ctx).Here, href) {
		return templ.Attributes{"aria-current": "page"}
	}
	return nil
}

func onSection(here, href string) bool {
	here, _, _ = strings.Cut(here, "?")
	if href == "/" {
		return here == "/"
	}
	return firstSegment(here) == firstSegment(href)
}

func firstSegment(path string) string {
	seg, _, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
	return seg
}

// adminTab marks the administration's own link to the page shown.
func adminTab(ctx context.Context, path string) templ.Attributes {
	here, _, _ := strings.Cut(LocaleFrom(ctx).Here, "?")
	if here == path {
		return templ.Attributes{"aria-current": "page"}
	}
	return nil
}

// docDescription is the meta description's message of a community page
// (views/pages.templ docPage): guidelines, tournament (its rules) or terms.
func docDescription(name string) string {
	if name == "tournament" {
		return "meta.tournament_rules"
	}
	return "meta." + name
}
