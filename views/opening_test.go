package views

import (
	"regexp"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"satranc/engine/chess"
	"satranc/engine/game"
	"satranc/engine/opening"
	"satranc/engine/play"
)

func TestOpeningSlug(t *testing.T) {
	tests := []struct{ family, want string }{
		{"Sicilian Defense", "sicilian_defense"},
		{"Queen's Gambit Declined", "queens_gambit_declined"},
		{"Grünfeld Defense", "grunfeld_defense"},
		{"Réti Opening", "reti_opening"},
		{"Caro-Kann Defense", "caro_kann_defense"},
		{"Van't Kruijs Opening", "vant_kruijs_opening"},
		{"St. George Defense", "st_george_defense"},
		{"King's Indian Attack, with Bf5", "kings_indian_attack_with_bf5"},
	}
	for _, tc := range tests {
		if got := openingSlug(tc.family); got != tc.want {
			t.Errorf("openingSlug(%q) = %q, want %q", tc.family, got, tc.want)
		}
	}
}

func TestOpeningName(t *testing.T) {
	tests := []struct {
		lang string
		o    opening.Opening
		want string
	}{
		{"en", opening.Opening{ECO: "B20", Name: "Sicilian Defense"}, "Sicilian Defense"},
		{"tr", opening.Opening{ECO: "B20", Name: "Sicilian Defense"}, "Sicilya Savunması"},
		{"tr", opening.Opening{ECO: "C70", Name: "Ruy Lopez: Morphy Defense"}, "İspanyol Açılışı: Morphy Defense"},
		{"tr", opening.Opening{ECO: "C30", Name: "King's Gambit"}, "Şah Gambiti"},
		{"tr", opening.Opening{ECO: "D30", Name: "Queen's Gambit Declined: Harrwitz Attack"}, "Reddedilmiş Vezir Gambiti: Harrwitz Attack"},
		{"tr", opening.Opening{ECO: "B10", Name: "Caro-Kann Defense"}, "Caro-Kann Savunması"},
		{"tr", opening.Opening{ECO: "A10", Name: "English Opening: Anglo-Dutch Defense"}, "İngiliz Açılışı: Anglo-Dutch Defense"},
		// A rare family has no translation: it stays in English.
		{"tr", opening.Opening{ECO: "A00", Name: "Zaire Defense"}, "Zaire Defense"},
		{"en", opening.Opening{ECO: "A00", Name: "Zaire Defense"}, "Zaire Defense"},
	}
	for _, tc := range tests {
		if got := OpeningName(ctxIn(tc.lang), tc.o); got != tc.want {
			t.Errorf("%s: OpeningName(%q) = %q, want %q", tc.lang, tc.o.Name, got, tc.want)
		}
	}
}

// TestOpeningFamilies: every family of the data set has a key of its own,
// every family in the locale files is one of the data set's (so a
// translation cannot be lost to a typo), and the English texts are the
// data set's names.
func TestOpeningFamilies(t *testing.T) {
	key := regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	families := map[string]string{} // slug → family
	lines := map[string]int{}       // family → lines
	for _, l := range opening.Lines() {
		f := l.Family()
		s := openingSlug(f)
		if !key.MatchString(s) {
			t.Errorf("openingSlug(%q) = %q, not a message key segment", f, s)
		}
		if other, ok := families[s]; ok && other != f {
			t.Errorf("families %q and %q share the key %s", f, other, s)
		}
		families[s] = f
		lines[f]++
	}
	translated := 0
	for _, lang := range []string{"en", "tr"} {
		var file struct {
			Opening struct {
				Family map[string]string
			}
		}
		if _, err := toml.DecodeFile("../locales/active."+lang+".toml", &file); err != nil {
			t.Fatal(err)
		}
		if len(file.Opening.Family) < 60 {
			t.Errorf("active.%s.toml names %d opening families, want the common ones", lang, len(file.Opening.Family))
		}
		translated = 0
		for s, text := range file.Opening.Family {
			f, ok := families[s]
			switch {
			case !ok:
				t.Errorf("active.%s.toml: opening.family.%s is no family of the data set", lang, s)
			case lang == "en" && text != f:
				t.Errorf("active.en.toml: opening.family.%s = %q, want %q", s, text, f)
			}
			translated += lines[f]
		}
	}
	if all := len(opening.Lines()); translated*100 < all*95 {
		t.Errorf("the translated families cover %d of %d lines, want 95%%", translated, all)
	}
}

// TestGamePanelOpening: the panel names the opening the handler found,
// its family in the page language, and nothing when there is none.
func TestGamePanelOpening(t *testing.T) {
	snap := play.Snapshot{ID: 1, Kind: play.Quick, Start: chess.StartPosition(), White: game.Human(1), Black: game.Human(2), Status: game.Active}
	playUCI(t, &snap, "e2e4", "c7c5")
	sicilian := opening.Opening{ECO: "B20", Name: "Sicilian Defense"}
	tests := []struct {
		lang   string
		viewer int64
		o      opening.Opening
		want   string
	}{
		{"en", 1, sicilian, "B20 Sicilian Defense"},
		{"tr", 3, sicilian, "B20 Sicilya Savunması"},
		{"en", 3, opening.Opening{}, ""},
	}
	for _, tc := range tests {
		v := NewGameView(snap, GameViewInput{Viewer: tc.viewer, Letters: chess.English, Opening: tc.o})
		sel := renderDoc(t, ctxIn(tc.lang), GamePanel(&v)).Find(`[data-testid="opening"]`)
		if tc.want == "" {
			if sel.Length() != 0 {
				t.Errorf("%s: opening line %q, want none", tc.lang, sel.Text())
			}
			continue
		}
		text := strings.Join(strings.Fields(sel.Text()), " ")
		if sel.Length() != 1 || !strings.HasSuffix(text, tc.want) {
			t.Errorf("%s, viewer %d: opening line %q, want it to end in %q", tc.lang, tc.viewer, text, tc.want)
		}
		if title, _ := sel.Attr("title"); !strings.HasSuffix(tc.want, title) {
			t.Errorf("%s: opening title %q, want the name of %q", tc.lang, title, tc.want)
		}
	}
}

// TestReplayPanelOpening: the replay names the opening it is given (the
// handler's, at the ply shown).
func TestReplayPanelOpening(t *testing.T) {
	snap := play.Snapshot{ID: 1, Kind: play.Private, Start: chess.StartPosition(), White: game.Human(1), Black: game.Human(2),
		Status: game.Finished, Outcome: game.Outcome{Result: game.Draw, Reason: game.Agreement}}
	playUCI(t, &snap, "e2e4", "e7e5", "g1f3", "b8c6", "f1b5")
	v := NewReplayView(snap, 5, GameViewInput{Letters: chess.English, Opening: opening.Opening{ECO: "C60", Name: "Ruy Lopez"}})
	sel := renderDoc(t, ctxIn("tr"), ReplayPanel(v)).Find(`[data-testid="opening"]`)
	if text := strings.Join(strings.Fields(sel.Text()), " "); !strings.HasSuffix(text, "C60 İspanyol Açılışı") {
		t.Errorf("replay opening line %q, want C60 İspanyol Açılışı", text)
	}
}
