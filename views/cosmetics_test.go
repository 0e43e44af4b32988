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
			if !standard && !bytes.Contains(css, []byte("."+ThemeClass(it.ID)+" {")) {
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
			if !standard && !bytes.Contains(css, []byte("."+it.ID+" {")) {
				t.Errorf("%s: app.css has no .%s", it.ID, it.ID)
			}
		}
		for _, lang := range locales.Codes {
			if got := T(ctxIn(lang), ItemNameID(it.ID)); got == ItemNameID(it.ID) {
				t.Errorf("%s: no %s name", it.ID, lang)
			}
		}
	}
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
	look := cosmetics.Look{Board: "board-sea", Pieces: "pieces-flat", Frame: "frame-none"}
	for _, tc := range []struct {
		name       string
		ctx        context.Context
		theme, dir string
	}{
		{"guest", ctxIn("en"), "board-classic", "/static/img/pieces/"},
		{"member with no choice", WithUser(ctxIn("en"), account.User{ID: 1, Name: "ayse"}), "board-classic", "/static/img/pieces/"},
		{"member with a look", WithUser(ctxIn("en"), account.User{ID: 1, Name: "ayse", Look: look}), "board-sea", "/static/img/pieces/flat/"},
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
