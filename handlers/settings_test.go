package handlers

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"satranc/engine/cosmetics"
	"satranc/store"
)

// newSettingsEnv is an accountEnv with the settings page.
func newSettingsEnv(t *testing.T) *accountEnv {
	t.Helper()
	return newAccountEnvWith(t, RateLimit{}, func(c *Config) {
		c.Cosmetics = cosmetics.NewService(c.DB.(*store.Store))
	})
}

// lookForm is the settings form choosing board, pieces and frame.
func lookForm(board, pieces, frame string) url.Values {
	return url.Values{"board": {board}, "pieces": {pieces}, "frame": {frame}}
}

func TestSettingsNeedsMember(t *testing.T) {
	e := newSettingsEnv(t)
	resp := e.do(t, request{target: "/settings"})
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || loc != "/login?next=%2Fsettings" {
		t.Errorf("guest GET /settings = %d to %q, want 303 to the log-in", resp.StatusCode, loc)
	}
	resp = e.do(t, request{method: http.MethodPost, target: "/settings", form: lookForm("board_sea", "pieces_flat", "frame_none")})
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/login") {
		t.Errorf("guest POST /settings = %d to %q, want 303 to the log-in", resp.StatusCode, resp.Header.Get("Location"))
	}
}

func TestSettingsChooseOwnedItems(t *testing.T) {
	ctx := context.Background()
	e := newSettingsEnv(t)
	c := e.signUp(t, "ayse")
	get := func(target string) *http.Response {
		t.Helper()
		resp := e.do(t, request{target: target, cookies: []*http.Cookie{c}})
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s = %d", target, resp.StatusCode)
		}
		return resp
	}

	doc := parse(t, get("/settings"))
	for _, tc := range []struct {
		item              string
		checked, disabled bool
	}{
		{"board_classic", true, false},
		{"board_walnut", false, false},
		{"board_iznik", false, true},
		{"pieces_sultan", true, false}, // the default
		{"pieces_standard", false, false},
		{"pieces_flat", false, false},
		{"frame_none", true, false},
		{"frame_cup_gold", false, true},
	} {
		in := testid(doc, "item-"+tc.item)
		_, checked := in.Attr("checked")
		_, disabled := in.Attr("disabled")
		if in.Length() != 1 || checked != tc.checked || disabled != tc.disabled {
			t.Errorf("%s: %d inputs, checked %v, disabled %v; want checked %v, disabled %v", tc.item, in.Length(), checked, disabled, tc.checked, tc.disabled)
		}
		if locked := testid(doc, "locked-"+tc.item).Length() == 1; locked != tc.disabled {
			t.Errorf("%s: shown locked = %v, want %v", tc.item, locked, tc.disabled)
		}
	}

	resp := e.do(t, request{method: http.MethodPost, target: "/settings", form: lookForm("board_walnut", "pieces_flat", "frame_none"), cookies: []*http.Cookie{c}})
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || loc != "/settings?saved=1" {
		t.Fatalf("POST /settings = %d to %q, want 303 to /settings?saved=1", resp.StatusCode, loc)
	}
	doc = parse(t, get("/settings?saved=1"))
	if testid(doc, "settings-saved").Length() != 1 {
		t.Error("no confirmation after saving")
	}
	if _, ok := testid(doc, "item-board_walnut").Attr("checked"); !ok {
		t.Error("walnut is not shown chosen after saving it")
	}
	// The home page has no board since it starts games; the rules page's
	// boards wear the look.
	board := testid(parse(t, get("/rules")), "board").First()
	if !board.HasClass("theme-walnut") || !strings.HasPrefix(board.Find("img.piece").First().AttrOr("src", ""), "/static/img/pieces/flat/") {
		t.Errorf("rules board: class %q, first piece %q; want walnut and the flat set", board.AttrOr("class", ""), board.Find("img.piece").First().AttrOr("src", ""))
	}

	// A prize opens a locked item.
	u, err := e.store.UserByName(ctx, "ayse")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.store.GrantItem(ctx, u.ID, "frame_cup_gold", "test prize"); err != nil {
		t.Fatal(err)
	}
	if _, disabled := testid(parse(t, get("/settings")), "item-frame_cup_gold").Attr("disabled"); disabled {
		t.Error("a granted frame is still locked")
	}
	resp = e.do(t, request{method: http.MethodPost, target: "/settings", form: lookForm("board_walnut", "pieces_flat", "frame_cup_gold"), cookies: []*http.Cookie{c}})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("POST a granted frame = %d, want 303", resp.StatusCode)
	}
	name := testid(parse(t, get("/profile")), "profile-name").Find(`[data-testid="framed-name"]`)
	if !name.HasClass("frame-cup-gold") || strings.TrimSpace(name.Text()) != "ayse" {
		t.Errorf("profile name: class %q text %q, want ayse in the gold frame", name.AttrOr("class", ""), name.Text())
	}
}

func TestSettingsRefusesItemsNotOwned(t *testing.T) {
	ctx := context.Background()
	e := newSettingsEnv(t)
	c := e.signUp(t, "ayse")
	chosen := cosmetics.Look{Board: "board_sea", Pieces: "pieces_standard", Frame: "frame_none"}
	if resp := e.do(t, request{method: http.MethodPost, target: "/settings", form: lookForm(chosen.Board, chosen.Pieces, chosen.Frame), cookies: []*http.Cookie{c}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("POST an owned look = %d", resp.StatusCode)
	}
	for _, tc := range []struct {
		name   string
		lang   string
		form   url.Values
		status int
		msg    string
	}{
		{"prize frame", "en", lookForm("board_sea", "pieces_flat", "frame_cup_gold"), http.StatusForbidden, "error.cosmetics.not_owned"},
		{"prize theme, in Turkish", "tr", lookForm("board_iznik", "pieces_flat", "frame_none"), http.StatusForbidden, "error.cosmetics.not_owned"},
		{"unknown theme", "en", lookForm("board_pink", "pieces_flat", "frame_none"), http.StatusUnprocessableEntity, "error.cosmetics.unknown"},
		{"frame in the board's place", "en", lookForm("frame_none", "pieces_flat", "frame_none"), http.StatusUnprocessableEntity, "error.cosmetics.unknown"},
		{"nothing chosen", "en", url.Values{}, http.StatusUnprocessableEntity, "error.cosmetics.unknown"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := e.do(t, request{method: http.MethodPost, target: "/settings?lang=" + tc.lang, form: tc.form, cookies: []*http.Cookie{c}})
			if resp.StatusCode != tc.status {
				t.Errorf("status = %d, want %d", resp.StatusCode, tc.status)
			}
			doc := parse(t, resp)
			msg := testid(doc, "form-error")
			if msg.AttrOr("data-message", "") != tc.msg || strings.TrimSpace(msg.Text()) != text(t, tc.lang, tc.msg) {
				t.Errorf("form error %q %q, want %s in %s", msg.AttrOr("data-message", ""), msg.Text(), tc.msg, tc.lang)
			}
			if _, ok := testid(doc, "item-board_sea").Attr("checked"); !ok {
				t.Error("the form again does not show the saved theme chosen")
			}
			u, err := e.store.UserByName(ctx, "ayse")
			if err != nil || u.Look != chosen {
				t.Errorf("look after a refused choice = %+v, %v; want %+v", u.Look, err, chosen)
			}
		})
	}
}
