package handlers

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// TestAdminGivesItems: an administrator gives a member a cosmetic item on
// their page (TestSettingsChooseOwnedItems shows a granted item becoming
// choosable); giving it again changes nothing and says so; an unknown item or an empty reason is refused with
// the form shown again; a member cannot give items.
func TestAdminGivesItems(t *testing.T) {
	ctx := context.Background()
	e := newAdminEnv(t)
	veli, err := e.store.UserByName(ctx, "veli")
	if err != nil {
		t.Fatal(err)
	}
	give := func(c *http.Cookie, item, reason string) *http.Response {
		t.Helper()
		return e.as(t, c, request{method: http.MethodPost, target: "/admin/users/veli/item", form: url.Values{"item": {item}, "reason": {reason}}})
	}
	granted := func() []string {
		t.Helper()
		inv, err := e.store.Inventory(ctx, veli.ID)
		if err != nil {
			t.Fatal(err)
		}
		return inv.Granted
	}

	if resp := give(e.ali, "board_iznik", "please"); resp.StatusCode != http.StatusNotFound || len(granted()) != 0 {
		t.Fatalf("a member giving an item = %d, inventory %v; want 404 and nothing", resp.StatusCode, granted())
	}
	doc := parse(t, e.as(t, e.boss, request{target: "/admin/users/veli"}))
	if testid(doc, "admin-items-none").Length() != 1 || testid(doc, "item-choice").Find("option").Length() == 0 {
		t.Fatal("the member page shows no empty inventory or no items to give")
	}

	for _, tc := range []struct {
		item, reason string
		done         string
	}{{"board_iznik", "Cup prize lost in a crash", "item_given"}, {"board_iznik", "again", "item_owned"}} {
		resp := give(e.boss, tc.item, tc.reason)
		if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || !strings.Contains(loc, "done="+tc.done) {
			t.Fatalf("give %s = %d to %q, want 303 with %s", tc.item, resp.StatusCode, loc, tc.done)
		}
	}
	if got := granted(); !slices.Equal(got, []string{"board_iznik"}) {
		t.Errorf("inventory = %v, want [board_iznik]", got)
	}
	doc = parse(t, e.as(t, e.boss, request{target: "/admin/users/veli?done=item_given"}))
	if testid(doc, "admin-items").Find(`[data-item="board_iznik"]`).Length() != 1 {
		t.Error("the member page does not list the given theme")
	}

	for _, tc := range []struct {
		item, reason string
		status       int
		msg          string
	}{
		{"board_pink", "why not", http.StatusUnprocessableEntity, "error.cosmetics.unknown"},
		{"frame_cup_gold", "  ", http.StatusUnprocessableEntity, "report.reason_invalid"},
	} {
		resp := give(e.boss, tc.item, tc.reason)
		doc := parse(t, resp)
		if resp.StatusCode != tc.status || strings.TrimSpace(testid(doc, "admin-error").Text()) != text(t, "en", tc.msg) {
			t.Errorf("give %q with reason %q = %d %q, want %d %s", tc.item, tc.reason, resp.StatusCode, testid(doc, "admin-error").Text(), tc.status, tc.msg)
		}
		if got, _ := testid(doc, "item-reason").Attr("value"); got != tc.reason {
			t.Errorf("reason shown again = %q, want %q", got, tc.reason)
		}
	}
	if got := granted(); !slices.Equal(got, []string{"board_iznik"}) {
		t.Errorf("inventory after refused gifts = %v, want [board_iznik]", got)
	}
}
