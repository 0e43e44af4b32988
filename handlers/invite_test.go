package handlers

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"satranc/engine/clock"
	"satranc/engine/game"
)

// inviteEnv is a stackEnv (real SQLite) with a private 3+2 game that its
// host created and that waits for a friend.
type inviteEnv struct {
	*stackEnv
	host   player
	id     int64
	token  string
	invite string // "/invite/TOKEN"
}

func newInviteEnv(t *testing.T) *inviteEnv {
	t.Helper()
	e := newStackEnv(t, RateLimit{})
	host := e.player(t, "Hostess")
	id, token, err := e.games.CreatePrivateGame(context.Background(), host.ID, clock.MustParse("3+2"))
	if err != nil {
		t.Fatal(err)
	}
	return &inviteEnv{stackEnv: e, host: host, id: id, token: token, invite: "/invite/" + token}
}

// send sends a request as p, or as a guest when p has no cookie.
func (e *inviteEnv) send(method, target string, form url.Values, p player) *http.Response {
	var req *http.Request
	if form != nil {
		req = httptest.NewRequest(method, target, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	} else {
		req = httptest.NewRequest(method, target, nil)
	}
	if p.cookie != nil {
		req.AddCookie(p.cookie)
	}
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	return rec.Result()
}

// checkInvitation checks what every viewer of the open invitation sees:
// who invites, with their rating, the time control, and that it is unrated.
func (e *inviteEnv) checkInvitation(t *testing.T, resp *http.Response) *goquery.Document {
	t.Helper()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s = %d, want 200", e.invite, resp.StatusCode)
	}
	doc := parse(t, resp)
	if host := testid(doc, "invite-host").Text(); !strings.Contains(host, "Hostess") || !strings.Contains(host, "(1200)") {
		t.Errorf("invite-host = %q, want the host's name and rating", host)
	}
	if c := testid(doc, "invite-control").Text(); !strings.Contains(c, "3+2") || !strings.Contains(c, "3 minutes + 2 seconds") {
		t.Errorf("invite-control = %q, want 3+2 spelled out", c)
	}
	if u := testid(doc, "invite-unrated").Text(); !strings.Contains(u, "Unrated") {
		t.Errorf("invite-unrated = %q", u)
	}
	if testid(doc, "invite-expires").Length() != 1 {
		t.Error("the page does not say when the invitation expires")
	}
	return doc
}

func TestInvitePageMember(t *testing.T) {
	e := newInviteEnv(t)
	friend := e.player(t, "Friend")
	resp := e.send(http.MethodGet, e.invite, nil, friend)
	doc := e.checkInvitation(t, resp)
	for _, tc := range []struct{ testid, action string }{
		{"invite-join", e.invite},
		{"invite-decline", e.invite + "/decline"},
	} {
		form := testid(doc, tc.testid).Closest("form")
		if m, a := form.AttrOr("method", ""), form.AttrOr("action", ""); m != "post" || a != tc.action {
			t.Errorf("%s form: %s %q, want post %q", tc.testid, m, a, tc.action)
		}
	}
	if testid(doc, "invite-signup").Length() != 0 {
		t.Error("a member is asked to sign up")
	}
	if st := e.state(t, e.id); st.Status != game.Waiting {
		t.Errorf("GET changed the game: %v", st.Status)
	}

	// The host opening their own link goes to the waiting page.
	resp = e.send(http.MethodGet, e.invite, nil, e.host)
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || loc != gamePathOf(e.id) {
		t.Errorf("the host's GET = %d to %q, want 303 to %s", resp.StatusCode, loc, gamePathOf(e.id))
	}

	// Accepting starts the game; the link then leads the friend to it.
	resp = e.send(http.MethodPost, e.invite, url.Values{}, friend)
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || loc != gamePathOf(e.id) {
		t.Fatalf("accept = %d to %q", resp.StatusCode, loc)
	}
	if st := e.state(t, e.id); st.Status != game.Active {
		t.Errorf("after accepting: %v, want active", st.Status)
	}
	resp = e.send(http.MethodGet, e.invite, nil, friend)
	if loc := resp.Header.Get("Location"); loc != gamePathOf(e.id) {
		t.Errorf("the friend's GET after accepting goes to %q", loc)
	}
	// A third member learns that it is taken and may watch.
	doc = parse(t, e.send(http.MethodGet, e.invite, nil, e.player(t, "Late")))
	if testid(doc, "invite-closed").Length() != 1 || testid(doc, "invite-join").Length() != 0 || testid(doc, "invite-watch").Length() != 1 {
		t.Error("a latecomer is not told the invitation was taken, or may still accept")
	}
}

func TestInvitePageGuest(t *testing.T) {
	e := newInviteEnv(t)
	doc := e.checkInvitation(t, e.send(http.MethodGet, e.invite, nil, player{}))
	if testid(doc, "invite-join").Length() != 0 || testid(doc, "invite-decline").Length() != 0 {
		t.Error("a guest is offered Accept or Decline")
	}
	next := url.Values{"next": {e.invite}}.Encode()
	for _, tc := range []struct{ testid, href string }{
		{"invite-signup", "/signup?" + next},
		{"invite-login", "/login?" + next},
	} {
		if href := testid(doc, tc.testid).AttrOr("href", ""); href != tc.href {
			t.Errorf("%s href = %q, want %q", tc.testid, href, tc.href)
		}
	}
	// Signing up on the way keeps next and comes back to the invitation.
	doc = parse(t, e.send(http.MethodGet, "/signup?"+next, nil, player{}))
	if v := accountNext(doc).AttrOr("value", ""); v != e.invite {
		t.Errorf("sign-up form next = %q, want %q", v, e.invite)
	}
	resp := e.send(http.MethodPost, "/signup", url.Values{"username": {"Guest1"}, "password": {"correct horse"}, "next": {e.invite}}, player{})
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || loc != e.invite {
		t.Fatalf("sign up = %d to %q, want 303 to %s", resp.StatusCode, loc, e.invite)
	}
	guest := player{cookie: cookie(resp, sessionCookie)}
	doc = parse(t, e.send(http.MethodGet, e.invite, nil, guest))
	if testid(doc, "invite-join").Length() != 1 {
		t.Error("back on the invitation after signing up, there is no Accept")
	}
	// A guest's POST goes to log in; nothing changes.
	resp = e.send(http.MethodPost, e.invite, url.Values{}, player{})
	if loc := resp.Header.Get("Location"); !strings.HasPrefix(loc, "/login") {
		t.Errorf("a guest's accept goes to %q, want /login", loc)
	}
	if st := e.state(t, e.id); st.Status != game.Waiting {
		t.Errorf("after the guest's visits: %v, want waiting", st.Status)
	}
}

func TestInviteDecline(t *testing.T) {
	e := newInviteEnv(t)
	friend := e.player(t, "Friend")
	sub := e.games.Subscribe(e.id)
	defer sub.Close()

	// The host cannot decline their own invitation.
	if resp := e.send(http.MethodPost, e.invite+"/decline", url.Values{}, e.host); resp.StatusCode != http.StatusConflict {
		t.Errorf("the host declining = %d, want 409", resp.StatusCode)
	}
	resp := e.send(http.MethodPost, e.invite+"/decline", url.Values{}, friend)
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || loc != e.invite {
		t.Fatalf("decline = %d to %q, want 303 to %s", resp.StatusCode, loc, e.invite)
	}
	rec, err := e.store.Game(context.Background(), e.id)
	if err != nil || rec.Status != game.Aborted || rec.Outcome.Reason != game.InviteDeclined {
		t.Errorf("stored: %v %v, %v; want aborted, invitation declined", rec.Status, rec.Outcome, err)
	}
	select {
	case ev := <-sub.C():
		if ended, ok := ev.Payload.(game.Ended); !ok || ended.Outcome.Reason != game.InviteDeclined {
			t.Errorf("the host's stream got %#v, want the end by the decline", ev.Payload)
		}
	case <-time.After(5 * time.Second):
		t.Error("the host's stream heard nothing of the decline")
	}
	doc := parse(t, e.send(http.MethodGet, e.invite, nil, friend))
	if c := testid(doc, "invite-closed").Text(); !strings.Contains(c, "declined") || testid(doc, "invite-join").Length() != 0 {
		t.Errorf("after the decline the page says %q and offers Accept: %v", c, testid(doc, "invite-join").Length() != 0)
	}
	doc = parse(t, e.send(http.MethodGet, gamePathOf(e.id), nil, e.host))
	if s := testid(doc, "status").Text(); !strings.Contains(s, "declined") {
		t.Errorf("the host's page says %q, want the decline", s)
	}
	if resp := e.send(http.MethodPost, e.invite, url.Values{}, friend); resp.StatusCode == http.StatusSeeOther {
		if st := e.state(t, e.id); st.Status != game.Aborted {
			t.Errorf("accepting after the decline started the game: %v", st.Status)
		}
	}
	if resp := e.send(http.MethodGet, "/invite/nope", nil, friend); resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET of an unknown invitation = %d, want 404", resp.StatusCode)
	}
}

// TestInviteNextStaysLocal: the way back from sign-up or log-in is a
// local path only; another host's address is dropped, in the forms and
// in the redirect after them.
func TestInviteNextStaysLocal(t *testing.T) {
	e := newInviteEnv(t)
	for i, next := range []string{"//evil.example", "https://evil.example", `/\evil`, "/\\/evil.example", "http:/evil.example", " //evil.example"} {
		for _, page := range []string{"/signup", "/login"} {
			doc := parse(t, e.send(http.MethodGet, page+"?"+url.Values{"next": {next}}.Encode(), nil, player{}))
			if v := accountNext(doc).AttrOr("value", ""); v != "" {
				t.Errorf("%s?next=%q: form next = %q, want empty", page, next, v)
			}
		}
		name := "Evil" + string(rune('A'+i))
		resp := e.send(http.MethodPost, "/signup", url.Values{"username": {name}, "password": {"correct horse"}, "next": {next}}, player{})
		if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || loc != "/" {
			t.Errorf("sign up with next=%q = %d to %q, want 303 to /", next, resp.StatusCode, loc)
		}
		resp = e.send(http.MethodPost, "/login", url.Values{"username": {name}, "password": {"correct horse"}, "next": {next}}, player{})
		if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || loc != "/" {
			t.Errorf("log in with next=%q = %d to %q, want 303 to /", next, resp.StatusCode, loc)
		}
	}
}

func gamePathOf(id int64) string { return "/games/" + strconv.FormatInt(id, 10) }

// accountNext is the next field of the sign-up or log-in form (the
// language switcher has one of its own).
func accountNext(doc *goquery.Document) *goquery.Selection {
	return doc.Find(`form[action="/signup"] input[name="next"], form[action="/login"] input[name="next"]`)
}
