package views

import (
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"satranc/engine/chess"
	"satranc/engine/clock"
	"satranc/engine/game"
	"satranc/engine/play"
)

// overSnapshot returns a game of kind between user 1 (White) and black,
// 1. e4 e5 2. Nf3 Nc6 played, ended with o.
func overSnapshot(t *testing.T, kind play.Kind, black game.Seat, o game.Outcome) play.Snapshot {
	t.Helper()
	snap := play.Snapshot{ID: 5, Kind: kind, Start: chess.StartPosition(), White: game.Human(1), Black: black,
		Control: clock.MustParse("3+2"), Status: game.Finished, Outcome: o, StartedAt: time.Now()}
	if o.IsAborted() {
		snap.Status = game.Aborted
	}
	playUCI(t, &snap, "e2e4", "e7e5", "g1f3", "b8c6")
	return snap
}

// staked returns snap with the stake per player.
func staked(snap play.Snapshot, stake int64) play.Snapshot {
	snap.Stake = stake
	return snap
}

func renderResult(t *testing.T, snap play.Snapshot, viewer int64, st *play.Settlement, lang string) *goquery.Selection {
	t.Helper()
	var b strings.Builder
	v := NewGameView(snap, GameViewInput{Viewer: viewer, Letters: chess.English, Now: time.Now(), Settlement: st})
	if err := GamePanel(&v).Render(ctxIn(lang), &b); err != nil {
		t.Fatal(err)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return doc.Find(`[data-testid="result-panel"]`)
}

// TestResultPanel: the panel says the result from the viewer's side, the
// figures of the settlement it is given, and offers a game like this one.
func TestResultPanel(t *testing.T) {
	whiteResigns := game.Outcome{Result: game.BlackWins, Reason: game.Resignation, Side: chess.White}
	blackResigns := game.Outcome{Result: game.WhiteWins, Reason: game.Resignation, Side: chess.Black}
	draw := game.Outcome{Result: game.Draw, Reason: game.Agreement, Side: chess.Black}
	bob := game.Human(2)
	rated := func(before, after int) *play.Settlement {
		return &play.Settlement{Settled: true, Rated: true, Rating: play.RatingChange{Before: before, After: after}}
	}
	lounge := func(staked, returned int64) *play.Settlement {
		s := rated(1200, 1210)
		s.Staked, s.Returned = staked, returned
		return s
	}
	tests := []struct {
		name   string
		snap   play.Snapshot
		viewer int64
		st     *play.Settlement
		lang   string
		want   map[string]string // data-testid → text it contains
		absent []string          // data-testids not there
		form   string            // the new game's action and fields
	}{
		{"quick loss", overSnapshot(t, play.Quick, bob, whiteResigns), 1, rated(1200, 1180), "en",
			map[string]string{"result-title": "You lost", "result-reason": "0-1", "result-rating": "1200 → 1180 (−20)", "result-xp": "+10 XP"},
			[]string{"result-chips"}, "/lobby/join control=3+2"},
		{"quick loss, Turkish", overSnapshot(t, play.Quick, bob, whiteResigns), 1, rated(1200, 1180), "tr",
			map[string]string{"result-title": "Kaybettiniz", "result-rating": "Elo puanı", "result-new-game": "Yeni oyun", "result-lobby": "Lobiye dön"},
			nil, "/lobby/join control=3+2"},
		{"lounge win", staked(overSnapshot(t, play.Lounge, bob, blackResigns), 500), 1, lounge(500, 950), "en",
			map[string]string{"result-title": "You won", "result-chips": "You won 450 chips", "result-xp": "+15 XP"},
			nil, "/lobby/join control=3+2 lounge=kahvehane"},
		{"lounge loss, Turkish", staked(overSnapshot(t, play.Lounge, bob, blackResigns), 2500), 2, lounge(2500, 0), "tr",
			map[string]string{"result-title": "Kaybettiniz", "result-chips": "2.500 çip kaybettiniz"},
			nil, "/lobby/join control=3+2 lounge=kapalicarsi"},
		{"lounge draw", staked(overSnapshot(t, play.Lounge, bob, draw), 500), 2, lounge(500, 500), "en",
			map[string]string{"result-title": "Draw", "result-reason": "½-½", "result-chips": "Your stake of 500 chips came back"},
			nil, "/lobby/join control=3+2 lounge=kahvehane"},
		{"practice", overSnapshot(t, play.Practice, game.Bot(game.Hard), blackResigns), 1, &play.Settlement{Settled: true}, "en",
			map[string]string{"result-title": "You won", "result-xp": "+15 XP"},
			[]string{"result-rating", "result-chips"}, "/games/practice level=hard control=3+2 color=white"},
		{"private, aborted", overSnapshot(t, play.Private, bob, game.Outcome{Reason: game.Abort, Side: chess.White}), 2, &play.Settlement{Settled: true}, "en",
			map[string]string{"result-title": "Game aborted"},
			[]string{"result-rating", "result-chips", "result-xp"}, "/games/private control=3+2"},
		{"not read yet", overSnapshot(t, play.Quick, bob, whiteResigns), 1, nil, "en",
			map[string]string{"result-title": "You lost", "result-figures": "Counting"},
			[]string{"result-rating"}, "/lobby/join control=3+2"},
		{"spectator", overSnapshot(t, play.Quick, bob, whiteResigns), 3, nil, "en",
			map[string]string{"result-title": "Black wins", "result-pgn": "PGN"},
			[]string{"result-figures", "result-new-game", "rematch"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			panel := renderResult(t, tc.snap, tc.viewer, tc.st, tc.lang)
			if panel.Length() != 1 {
				t.Fatal("no result panel")
			}
			for id, want := range tc.want {
				got := strings.Join(strings.Fields(panel.Find(`[data-testid="`+id+`"]`).Text()), " ")
				if !strings.Contains(got, want) {
					t.Errorf("%s = %q, want %q in it", id, got, want)
				}
			}
			for _, id := range tc.absent {
				if panel.Find(`[data-testid="`+id+`"]`).Length() != 0 {
					t.Errorf("the panel has %s", id)
				}
			}
			if tc.form != "" {
				f := panel.Find(`[data-testid="result-new-game-form"]`)
				got := strings.TrimSuffix(f.AttrOr("action", ""), "?lang="+tc.lang)
				f.Find("input").Each(func(_ int, s *goquery.Selection) {
					got += " " + s.AttrOr("name", "") + "=" + s.AttrOr("value", "")
				})
				if got != tc.form {
					t.Errorf("new game form = %q, want %q", got, tc.form)
				}
			}
			if leakedID.MatchString(panel.Text()) {
				t.Errorf("a message ID in the panel: %q", panel.Text())
			}
		})
	}
	// A live game has no panel; a pending panel asks for its figures.
	live := overSnapshot(t, play.Quick, bob, game.Outcome{})
	live.Status = game.Active
	if renderResult(t, live, 1, nil, "en").Length() != 0 {
		t.Error("a live game has a result panel")
	}
	pending := renderResult(t, overSnapshot(t, play.Quick, bob, whiteResigns), 1, nil, "en").Find(`[data-testid="result-figures"]`)
	if got := pending.AttrOr("hx-get", ""); got != "/games/5/result" || pending.AttrOr("hx-trigger", "") == "" {
		t.Errorf("pending figures hx-get %q, trigger %q", got, pending.AttrOr("hx-trigger", ""))
	}
}

// TestControlsThatApply: a practice game has no chat and no "Leave the
// table"; the resign button says Abort while the abort rule applies.
func TestControlsThatApply(t *testing.T) {
	render := func(kind play.Kind, black game.Seat, ucis ...string) *goquery.Document {
		t.Helper()
		snap := play.Snapshot{ID: 5, Kind: kind, Start: chess.StartPosition(), White: game.Human(1), Black: black,
			Control: clock.MustParse("3+2"), Status: game.Active, StartedAt: time.Now()}
		playUCI(t, &snap, ucis...)
		snap.Abortable = len(ucis) < 4
		var b strings.Builder
		if err := GamePanel(viewOf(NewGameView(snap, GameViewInput{Viewer: 1, Letters: chess.English, Now: time.Now()}))).Render(ctxIn("en"), &b); err != nil {
			t.Fatal(err)
		}
		doc, err := goquery.NewDocumentFromReader(strings.NewReader(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		return doc
	}
	tests := []struct {
		name        string
		kind        play.Kind
		black       game.Seat
		moves       []string
		chat, leave bool
		resign      string
	}{
		{"practice, opening", play.Practice, game.Bot(game.Easy), []string{"e2e4", "e7e5"}, false, false, "Abort"},
		{"practice, later", play.Practice, game.Bot(game.Easy), []string{"e2e4", "e7e5", "g1f3", "b8c6"}, false, false, "Resign"},
		{"quick, opening", play.Quick, game.Human(2), nil, true, true, "Abort"},
		{"quick, later", play.Quick, game.Bot(game.Easy), []string{"e2e4", "e7e5", "g1f3", "b8c6"}, true, true, "Resign"},
		{"private, one move each", play.Private, game.Human(2), []string{"e2e4", "e7e5", "g1f3"}, true, true, "Abort"},
	}
	for _, tc := range tests {
		doc := render(tc.kind, tc.black, tc.moves...)
		if got := doc.Find(`[data-testid="chat"]`).Length() == 1; got != tc.chat {
			t.Errorf("%s: chat %v, want %v", tc.name, got, tc.chat)
		}
		if got := doc.Find(`[data-testid="leave"]`).Length() == 1; got != tc.leave {
			t.Errorf("%s: leave %v, want %v", tc.name, got, tc.leave)
		}
		if got := strings.TrimSpace(doc.Find(`[data-testid="resign-open"]`).Text()); got != tc.resign {
			t.Errorf("%s: resign button %q, want %q", tc.name, got, tc.resign)
		}
	}
}
