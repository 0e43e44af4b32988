package views

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"satranc/engine/account"
	"satranc/engine/chess"
	"satranc/engine/cosmetics"
	"satranc/locales"
	"satranc/static"
)

// TestEveryItemIsDrawn checks that each item of the catalogue has what
// draws it: a theme its colours, a piece set its twelve images, a frame
// its style, and every item a name in each language.
func TestEveryItemIsDrawn(t *testing.T) {
	css, err := static.FS.ReadFile("css/app.css")
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range cosmetics.Catalogue {
		standard := it.ID == cosmetics.Default(it.Kind) // drawn by :root and the plain name
		switch it.Kind {
		case cosmetics.BoardTheme:
			if !standard && !cssRule(css, ThemeClass(it.ID)) {
				t.Errorf("%s: app.css has no .%s", it.ID, ThemeClass(it.ID))
			}
		case cosmetics.PieceSet:
			for _, code := range []string{"wK", "wQ", "wR", "wB", "wN", "wP", "bK", "bQ", "bR", "bB", "bN", "bP"} {
				name := strings.TrimPrefix(PieceURL(it.ID, code), static.Prefix)
				name, _, _ = strings.Cut(name, "?")
				if _, err := static.FS.ReadFile(name); err != nil || static.Version(name) == "" {
					t.Errorf("%s: %s: %v", it.ID, code, err)
				}
			}
			if _, ok := pieceDirs[it.ID]; !ok {
				t.Errorf("%s has no folder", it.ID)
			}
		case cosmetics.Frame:
			if standard != (FrameClass(it.ID) == "") {
				t.Errorf("FrameClass(%s) = %q", it.ID, FrameClass(it.ID))
			}
			if class, ok := strings.CutPrefix(FrameClass(it.ID), "frame "); !standard && (!ok || !cssRule(css, class)) {
				t.Errorf("%s: app.css has no .%s", it.ID, class)
			}
		}
		for _, lang := range locales.Codes {
			if got := T(ctxIn(lang), ItemNameID(it.ID)); got == ItemNameID(it.ID) {
				t.Errorf("%s: no %s name", it.ID, lang)
			}
		}
	}
}

// cssRule reports whether css has a rule for the class, alone or in a list
// of selectors.
func cssRule(css []byte, class string) bool {
	return bytes.Contains(css, []byte("."+class+" {")) || bytes.Contains(css, []byte("."+class+",\n"))
}

// renderBoard renders a board of the starting position, with a promotion
// picker, for ctx.
func renderBoard(t *testing.T, ctx context.Context) *goquery.Selection {
	t.Helper()
	b := NewBoardView(mustParseFEN(t, chess.StartFEN), chess.White)
	side := chess.White
	b.Picker = &side
	var buf bytes.Buffer
	if err := Board(b).Render(ctx, &buf); err != nil {
		t.Fatal(err)
	}
	doc, err := goquery.NewDocumentFromReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return doc.Find(`[data-testid="board"]`)
}

func TestBoardWearsTheViewersLook(t *testing.T) {
	look := cosmetics.Look{Board: "board_sea", Pieces: "pieces_flat", Frame: "frame_none"}
	standard := cosmetics.Look{Board: "board_classic", Pieces: "pieces_standard", Frame: "frame_none"}
	for _, tc := range []struct {
		name       string
		ctx        context.Context
		theme, dir string
	}{
		{"guest", ctxIn("en"), "board_classic", "/static/img/pieces/sultan/"},
		{"member with no choice", WithUser(ctxIn("en"), account.User{ID: 1, Name: "ayse"}), "board_classic", "/static/img/pieces/sultan/"},
		{"member who kept the old default", WithUser(ctxIn("en"), account.User{ID: 1, Name: "ayse", Look: standard}), "board_classic", "/static/img/pieces/"},
		{"member with a look", WithUser(ctxIn("en"), account.User{ID: 1, Name: "ayse", Look: look}), "board_sea", "/static/img/pieces/flat/"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			board := renderBoard(t, tc.ctx)
			if got, _ := board.Attr("data-theme"); got != tc.theme {
				t.Errorf("data-theme = %q, want %q", got, tc.theme)
			}
			if !board.HasClass(ThemeClass(tc.theme)) || !board.HasClass("board") {
				t.Errorf("board class = %q, want board %s", board.AttrOr("class", ""), ThemeClass(tc.theme))
			}
			imgs := board.Find("img")
			if imgs.Length() != 32+4 {
				t.Fatalf("%d images, want 32 pieces and 4 in the picker", imgs.Length())
			}
			imgs.Each(func(_ int, img *goquery.Selection) {
				src := img.AttrOr("src", "")
				rest, ok := strings.CutPrefix(src, tc.dir)
				if !ok || strings.Contains(rest, "/") {
					t.Errorf("image %q is not from %s", src, tc.dir)
				}
			})
		})
	}
}

// TestTakenPieceRules: the style sheet draws every piece a player can
// take (all but the kings) in every piece set, from that set's image
// (the material's pieces are empty elements, see material).
func TestTakenPieceRules(t *testing.T) {
	css, err := static.FS.ReadFile("css/play.css")
	if err != nil {
		t.Fatal(err)
	}
	for set, dir := range pieceDirs {
		for _, code := range []string{"wP", "wN", "wB", "wR", "wQ", "bP", "bN", "bB", "bR", "bQ"} {
			if _, err := static.FS.ReadFile(dir + code + ".svg"); err != nil {
				t.Errorf("%s: %v", set, err)
			}
			rule := `[data-pieces="` + set + `"] .taken[data-piece="` + code + `"] i { background-image: url("../` + dir + code + `.svg"); }`
			if !bytes.Contains(css, []byte(rule)) {
				t.Errorf("play.css lacks the rule %s", rule)
			}
		}
	}
}
