package handlers

import (
	"context"
	"html"
	"log/slog"
	"math"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"satranc/engine/account"
	"satranc/engine/clock"
	"satranc/engine/game"
	"satranc/engine/play"
	"satranc/store"
)

// adminEnv is a Handler with the administration pages on a real SQLite
// store: "boss" signed up first and is the administrator, "ali" and "veli"
// are members; the cookies are their sessions.
type adminEnv struct {
	*accountEnv
	boss, ali, veli *http.Cookie
	voided          *voidRecorder
}

// voidRecorder is the VoidAnnouncer of the tests: it keeps the games
// announced.
type voidRecorder struct {
	mu  sync.Mutex
	ids []int64
}

func (v *voidRecorder) ResultVoided(id int64, _ time.Time) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.ids = append(v.ids, id)
}

func (v *voidRecorder) announced() []int64 {
	v.mu.Lock()
	defer v.mu.Unlock()
	return slices.Clone(v.ids)
}

func newAdminEnv(t *testing.T) *adminEnv {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "admin.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	svc, err := account.NewService(st, account.NewHasher(account.TestParams), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	voided := &voidRecorder{}
	h := New(Config{Logger: slog.New(slog.DiscardHandler), DB: st, Accounts: svc, Admin: st, Voided: voided,
		AuthLimit: RateLimit{Every: time.Millisecond, Burst: 1000}})
	e := &adminEnv{accountEnv: &accountEnv{h: h.Routes(), store: st}, voided: voided}
	e.boss, e.ali, e.veli = e.signUp(t, "boss"), e.signUp(t, "ali"), e.signUp(t, "veli")
	return e
}

// as sends rq with the session c (nil: a guest).
func (e *adminEnv) as(t *testing.T, c *http.Cookie, rq request) *http.Response {
	t.Helper()
	if c != nil {
		rq.cookies = []*http.Cookie{c}
	}
	return e.do(t, rq)
}

// finishedLounge plays a Kahvehane game between ali (White) and veli that
// White wins, settled, and returns its id.
func (e *adminEnv) finishedLounge(t *testing.T) int64 {
	t.Helper()
	ctx := context.Background()
	ali, _ := e.store.UserByName(ctx, "ali")
	veli, _ := e.store.UserByName(ctx, "veli")
	now := time.Now()
	id, _, err := e.store.CreatePublicGame(ctx, play.GameRecord{Kind: play.Lounge, White: game.Human(ali.ID), Black: game.Human(veli.ID),
		Control: clock.MustParse("5+0"), Status: game.Active, Stake: 500, CreatedAt: now, StartedAt: now})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.store.FinishGame(ctx, id, play.Ending{Status: game.Finished,
		Outcome: game.Outcome{Result: game.WhiteWins, Reason: game.Resignation}, At: now}); err != nil {
		t.Fatal(err)
	}
	return id
}

// TestAdminAccessControl: every administration page and action answers a
// guest and a member with the not-found page and changes nothing; the
// administrator gets them; an administrator whose status is taken away
// loses them at once.
func TestAdminAccessControl(t *testing.T) {
	e := newAdminEnv(t)
	ctx := context.Background()
	id := e.finishedLounge(t)
	game := "/admin/games/" + strconv.FormatInt(id, 10)
	veliBefore, _ := e.store.Member(ctx, "veli")
	requests := []struct {
		rq    request
		admin int // the administrator's status
	}{
		{request{target: "/admin"}, http.StatusOK},
		{request{target: "/admin?q=al"}, http.StatusOK},
		{request{target: "/admin/reports"}, http.StatusOK},
		{request{target: "/admin/users/veli"}, http.StatusOK},
		{request{target: game}, http.StatusOK},
		{request{target: "/admin/games?id=" + strconv.FormatInt(id, 10)}, http.StatusSeeOther},
		{request{method: http.MethodPost, target: "/admin/users/veli/vip", form: url.Values{"on": {"on"}}}, http.StatusSeeOther},
		{request{method: http.MethodPost, target: "/admin/users/veli/restrict", form: url.Values{"on": {"on"}}}, http.StatusSeeOther},
		{request{method: http.MethodPost, target: "/admin/users/veli/grant", form: url.Values{"amount": {"100"}, "reason": {"test"}}}, http.StatusSeeOther},
		{request{method: http.MethodPost, target: "/admin/users/veli/item", form: url.Values{"item": {"board_iznik"}, "reason": {"test"}}}, http.StatusSeeOther},
		{request{method: http.MethodPost, target: game + "/void"}, http.StatusSeeOther},
	}
	for _, who := range []struct {
		name   string
		cookie *http.Cookie
	}{{"guest", nil}, {"member", e.ali}} {
		for _, r := range requests {
			resp := e.as(t, who.cookie, r.rq)
			body := readBody(t, resp)
			if resp.StatusCode != http.StatusNotFound || !strings.Contains(body, text(t, "en", "error.not_found")) {
				t.Errorf("%s %s %s = %d, want the not-found page", who.name, r.rq.method, r.rq.target, resp.StatusCode)
			}
		}
	}
	if m, _ := e.store.Member(ctx, "veli"); m != veliBefore {
		t.Fatalf("refused requests changed veli: %+v, was %+v", m, veliBefore)
	}
	if g, _ := e.store.AdminGame(ctx, id); g.Voided() {
		t.Fatal("a member voided a game")
	}
	if doc := parse(t, e.as(t, e.ali, request{target: "/"})); testid(doc, "nav-admin").Length() != 0 {
		t.Error("a member's header links the administration")
	}
	if doc := parse(t, e.as(t, e.boss, request{target: "/"})); testid(doc, "nav-admin").Length() != 1 {
		t.Error("the administrator's header does not link the administration")
	}

	for _, r := range requests {
		if resp := e.as(t, e.boss, r.rq); resp.StatusCode != r.admin {
			t.Errorf("administrator %s %s = %d, want %d", r.rq.method, r.rq.target, resp.StatusCode, r.admin)
		}
	}
	if m, _ := e.store.Member(ctx, "veli"); !m.VIP || !m.Restricted || m.Balance != veliBefore.Balance+100+500 {
		t.Errorf("after the administrator's changes veli is %+v (had %d chips, +100 granted, +500 stake back)", m, veliBefore.Balance)
	}

	if err := e.store.SetAdmin(ctx, "boss", false); err != nil {
		t.Fatal(err)
	}
	if resp := e.as(t, e.boss, request{target: "/admin"}); resp.StatusCode != http.StatusNotFound {
		t.Errorf("a former administrator's /admin = %d, want 404", resp.StatusCode)
	}
}

// TestAdminMemberPage: search, then the member's page; each change comes
// back with its confirmation; a bad grant is refused on the form with its
// reason and changes nothing.
func TestAdminMemberPage(t *testing.T) {
	e := newAdminEnv(t)
	ctx := context.Background()
	doc := parse(t, e.as(t, e.boss, request{target: "/admin?q=VEL"}))
	if got := strings.TrimSpace(testid(doc, "admin-result-link").Text()); got != "veli" {
		t.Fatalf("search VEL found %q, want veli", got)
	}
	if doc := parse(t, e.as(t, e.boss, request{target: "/admin?q=nobody"})); testid(doc, "admin-no-results").Length() != 1 {
		t.Error("a search without results does not say so")
	}

	post := func(path string, form url.Values) *http.Response {
		return e.as(t, e.boss, request{method: http.MethodPost, target: "/admin/users/veli/" + path, form: form})
	}
	follow := func(resp *http.Response) string {
		t.Helper()
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("status %d, want 303", resp.StatusCode)
		}
		return strings.TrimSpace(testid(parse(t, e.as(t, e.boss, request{target: resp.Header.Get("Location")})), "admin-notice").Text())
	}
	if got, want := follow(post("vip", url.Values{"on": {"on"}})), text(t, "en", "admin.vip.done_on"); got != want {
		t.Errorf("VIP on: notice %q, want %q", got, want)
	}
	if got, want := follow(post("restrict", url.Values{"on": {"on"}})), text(t, "en", "admin.restrict.done_on"); got != want {
		t.Errorf("restrict on: notice %q, want %q", got, want)
	}
	if got, want := follow(post("restrict", url.Values{"on": {"off"}})), text(t, "en", "admin.restrict.done_off"); got != want {
		t.Errorf("restrict off: notice %q, want %q", got, want)
	}
	if resp := post("vip", url.Values{"on": {"yes"}}); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("VIP yes = %d, want 400", resp.StatusCode)
	}
	if m, _ := e.store.Member(ctx, "veli"); !m.VIP || m.Restricted {
		t.Errorf("veli is %+v, want VIP and not restricted", m)
	}

	before, _ := e.store.Member(ctx, "veli")
	bad := []struct {
		amount, reason, message string
	}{
		{"0", "why", "admin.grant.invalid_amount"},
		{"lots", "why", "admin.grant.invalid_amount"},
		{"10000001", "why", "admin.grant.invalid_amount"},
		{"-5", "why", "admin.grant.invalid_amount"},
		{"1.5", "why", "admin.grant.invalid_amount"},
		{"1e6", "why", "admin.grant.invalid_amount"},
		{"9223372036854775807", "why", "admin.grant.invalid_amount"},
		{"99999999999999999999", "why", "admin.grant.invalid_amount"},
		{"100", "  ", "report.reason_invalid"},
	}
	for _, b := range bad {
		resp := post("grant", url.Values{"amount": {b.amount}, "reason": {b.reason}})
		if resp.StatusCode != http.StatusUnprocessableEntity {
			t.Errorf("grant %q %q = %d, want 422", b.amount, b.reason, resp.StatusCode)
		}
		doc := parse(t, resp)
		if got := testid(doc, "admin-error").Text(); got != text(t, "en", b.message) {
			t.Errorf("grant %q %q: error %q, want %q", b.amount, b.reason, got, text(t, "en", b.message))
		}
		if got, _ := testid(doc, "grant-amount").Attr("value"); got != b.amount {
			t.Errorf("grant form shows amount %q again, want %q", got, b.amount)
		}
	}
	if m, _ := e.store.Member(ctx, "veli"); m.Balance != before.Balance {
		t.Errorf("refused grants changed the balance: %d, was %d", m.Balance, before.Balance)
	}
	if got, want := follow(post("grant", url.Values{"amount": {"2500"}, "reason": {"lost in a crash"}})), text(t, "en", "admin.grant.done"); got != want {
		t.Errorf("grant: notice %q, want %q", got, want)
	}
	if m, _ := e.store.Member(ctx, "veli"); m.Balance != before.Balance+2500 {
		t.Errorf("balance %d after a grant of 2500, was %d", m.Balance, before.Balance)
	}
	if resp := e.as(t, e.boss, request{target: "/admin/users/nobody"}); resp.StatusCode != http.StatusNotFound {
		t.Errorf("missing member's page = %d, want 404", resp.StatusCode)
	}
}

// TestAdminGrantOverflow: a grant the ledger cannot hold (the balance
// would pass the int64 range) comes back on the form with its own message
// in the page's language, not as a server error, and changes nothing.
func TestAdminGrantOverflow(t *testing.T) {
	e := newAdminEnv(t)
	ctx := context.Background()
	veli, _ := e.store.Member(ctx, "veli")
	// Everything issued to within 1,000 chips of the int64 range (the
	// three members' sign-up grants and this one).
	if _, err := e.store.GrantChips(ctx, "veli", math.MaxInt64-1000-3*veli.Balance, "test"); err != nil {
		t.Fatal(err)
	}
	before, _ := e.store.Member(ctx, "veli")
	for _, lang := range []string{"en", "tr"} {
		resp := e.as(t, e.boss, request{method: http.MethodPost, target: "/admin/users/veli/grant?lang=" + lang,
			form: url.Values{"amount": {"5000"}, "reason": {"why"}}})
		if resp.StatusCode != http.StatusUnprocessableEntity {
			t.Errorf("%s: grant past the top = %d, want 422", lang, resp.StatusCode)
		}
		if got, want := testid(parse(t, resp), "admin-error").Text(), text(t, lang, "admin.grant.overflow"); got != want {
			t.Errorf("%s: grant past the top says %q, want %q", lang, got, want)
		}
	}
	if m, _ := e.store.Member(ctx, "veli"); m.Balance != before.Balance {
		t.Errorf("a refused grant changed the balance: %d, was %d", m.Balance, before.Balance)
	}
}

// TestAdminVoidPage voids a game from its page: the confirmation, the
// chips back, and a second void refused with its reason.
func TestAdminVoidPage(t *testing.T) {
	e := newAdminEnv(t)
	ctx := context.Background()
	ali, _ := e.store.Member(ctx, "ali")
	veli, _ := e.store.Member(ctx, "veli")
	id := e.finishedLounge(t)
	ali2, _ := e.store.UserByName(ctx, "ali")
	if err := e.store.AddChatMessage(ctx, play.ChatMessage{GameID: id, User: ali2.ID, Body: "<b>gg</b>", At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	path := "/admin/games/" + strconv.FormatInt(id, 10)
	doc := parse(t, e.as(t, e.boss, request{target: path}))
	if testid(doc, "admin-void").Length() != 1 {
		t.Fatal("a finished game's page has no void button")
	}
	if got := testid(doc, "admin-chat-line").Text(); !strings.Contains(got, "ali") || !strings.Contains(got, "<b>gg</b>") {
		t.Errorf("chat line %q, want ali's message as text", got)
	}

	resp := e.as(t, e.boss, request{method: http.MethodPost, target: path + "/void"})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("void = %d, want 303", resp.StatusCode)
	}
	doc = parse(t, e.as(t, e.boss, request{target: resp.Header.Get("Location")}))
	if got := testid(doc, "admin-notice").Text(); got != text(t, "en", "admin.void.done") {
		t.Errorf("notice %q after the void", got)
	}
	if testid(doc, "admin-voided").Length() != 1 || testid(doc, "admin-void").Length() != 0 {
		t.Error("a voided game's page does not say so, or still offers the void")
	}
	for _, m := range []struct {
		name string
		was  int64
	}{{"ali", ali.Balance}, {"veli", veli.Balance}} {
		if got, _ := e.store.Member(ctx, m.name); got.Balance != m.was || got.Rating != 1200 {
			t.Errorf("%s after the void: %d chips, rating %d; want %d, 1200", m.name, got.Balance, got.Rating, m.was)
		}
	}

	resp = e.as(t, e.boss, request{method: http.MethodPost, target: path + "/void"})
	if resp.StatusCode != http.StatusConflict {
		t.Errorf("second void = %d, want 409", resp.StatusCode)
	}
	if got := testid(parse(t, resp), "admin-error").Text(); got != text(t, "en", "admin.void.already") {
		t.Errorf("second void says %q", got)
	}
	if resp := e.as(t, e.boss, request{method: http.MethodPost, target: "/admin/games/9999/void"}); resp.StatusCode != http.StatusNotFound {
		t.Errorf("void of a missing game = %d, want 404", resp.StatusCode)
	}
	// The live pages heard of the one void that happened.
	if got := e.voided.announced(); !slices.Equal(got, []int64{id}) {
		t.Errorf("voids announced %v, want [%d]", got, id)
	}
}

// TestAdminReportsPage lists the players' reports with both names, the
// reason escaped.
func TestAdminReportsPage(t *testing.T) {
	e := newAdminEnv(t)
	ctx := context.Background()
	id := e.finishedLounge(t)
	veli, _ := e.store.UserByName(ctx, "veli")
	if doc := parse(t, e.as(t, e.boss, request{target: "/admin/reports"})); testid(doc, "admin-no-reports").Length() != 1 {
		t.Error("no reports, and the page does not say so")
	}
	if err := e.store.ReportPlayer(ctx, id, veli.ID, "<i>engine</i> moves"); err != nil {
		t.Fatal(err)
	}
	body := readBody(t, e.as(t, e.boss, request{target: "/admin/reports"}))
	if !strings.Contains(body, html.EscapeString("<i>engine</i> moves")) || strings.Contains(body, "<i>engine") {
		t.Errorf("the reason is not shown escaped: %s", body)
	}
	for _, want := range []string{">veli<", ">ali<", "/admin/games/" + strconv.FormatInt(id, 10)} {
		if !strings.Contains(body, want) {
			t.Errorf("reports page lacks %q", want)
		}
	}
}
