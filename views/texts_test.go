package views

import (
	"bytes"
	"context"
	"testing"

	"satranc/engine/account"
	"satranc/engine/chess"
	"satranc/engine/cosmetics"
	"satranc/engine/game"
	"satranc/engine/play"
)

// TestTextsSameMarkup: a panel drawn with a Texts, the first time and
// from what it kept, is the panel drawn afresh, in both languages and
// piece sets, for both players and a spectator, with a king in check;
// it keeps a picker per side and piece set.
func TestTextsSameMarkup(t *testing.T) {
	check := play.Snapshot{ID: 8, Kind: play.Private, Start: chess.StartPosition(), White: game.Human(1), Black: game.Human(2), Status: game.Active}
	check.Position = check.Start
	for _, uci := range []string{"e2e4", "f7f6", "d1h5"} { // 1. e4 f6 2. Qh5+
		m, err := check.Position.ParseUCI(uci)
		if err != nil {
			t.Fatal(err)
		}
		check.Moves, check.Position = append(check.Moves, game.MoveRecord{Move: m}), check.Position.Play(m)
	}
	check.Ply = len(check.Moves)
	snaps := []play.Snapshot{benchSnapshot(t), check}

	render := func(ctx context.Context, snap play.Snapshot, viewer int64) string {
		t.Helper()
		var b bytes.Buffer
		in := GameViewInput{Viewer: viewer, Names: map[int64]string{1: "alice", 2: "bob"}}
		if err := GamePanel(viewOf(NewGameView(snap, in))).Render(ctx, &b); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	for _, lang := range []string{"en", "tr"} {
		fresh := LocaleFrom(ctxIn(lang))
		kept := fresh
		kept.Texts = NewTexts(fresh.Localizer)
		sets := []string{"pieces_sultan", "pieces_standard", "pieces_flat"}
		for _, pieces := range sets {
			user := account.User{ID: 1, Name: "alice", Look: cosmetics.Look{Pieces: pieces}}
			freshCtx := WithUser(WithLocale(context.Background(), fresh), user)
			keptCtx := WithUser(WithLocale(context.Background(), kept), user)
			for _, snap := range snaps {
				for _, viewer := range []int64{1, 2, 3} {
					want := render(freshCtx, snap, viewer)
					for _, pass := range []string{"first", "kept"} {
						if got := render(keptCtx, snap, viewer); got != want {
							t.Errorf("%s, %s, game %d, viewer %d, %s drawing:\n%s\nwant\n%s", lang, pieces, snap.ID, viewer, pass, got, want)
						}
					}
				}
			}
		}
		if len(kept.Texts.squares) == 0 || len(kept.Texts.msgs) == 0 || len(kept.Texts.pickers) != 2*len(sets) { // a picker per side and set
			t.Errorf("%s: kept %d squares, %d messages, %d pickers", lang, len(kept.Texts.squares), len(kept.Texts.msgs), len(kept.Texts.pickers))
		}
	}
}
