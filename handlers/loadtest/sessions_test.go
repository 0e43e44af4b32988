package loadtest

import (
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"testing"
)

// TestSessionsRoundTrip: the users a run saves come back, in order, with
// their cookies for the same server, and a missing file means none.
func TestSessionsRoundTrip(t *testing.T) {
	const base = "http://127.0.0.1:18080"
	bu, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	newUser := func(name, session string) *user {
		jar, err := cookiejar.New(nil)
		if err != nil {
			t.Fatal(err)
		}
		jar.SetCookies(bu, []*http.Cookie{{Name: "session", Value: session}})
		return &user{name: name, base: base, client: &http.Client{Jar: jar}}
	}
	path := filepath.Join(t.TempDir(), "users.txt")
	if users, err := readSessions(path, base, transports{}); err != nil || users != nil {
		t.Fatalf("readSessions of a missing file = %v, %v; want none", users, err)
	}
	// A user whose sign-up failed is nil and left out.
	if err := writeSessions(path, base, []*user{newUser("lt1_0a", "s0=="), nil, newUser("lt1_0b", "s1")}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("sessions file mode %v, %v; want 0600: it holds live sessions", fi.Mode().Perm(), err)
	}
	users, err := readSessions(path, base, transports{http.DefaultTransport, http.DefaultTransport})
	if err != nil {
		t.Fatal(err)
	}
	if len(users) != 2 {
		t.Fatalf("read %d users, want 2", len(users))
	}
	for i, want := range []struct{ name, session string }{{"lt1_0a", "s0=="}, {"lt1_0b", "s1"}} {
		u := users[i]
		cookies := u.client.Jar.Cookies(bu)
		if u.name != want.name || u.base != base || len(cookies) != 1 || cookies[0].Value != want.session {
			t.Errorf("user %d = %s at %s with %v; want %s with session %s", i, u.name, u.base, cookies, want.name, want.session)
		}
		if u.client.Transport != http.DefaultTransport {
			t.Errorf("user %d does not share the driver's transport", i)
		}
	}
}
