package handlers

import (
	"context"
	"crypto/tls"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/nicksnyder/go-i18n/v2/i18n"

	"satranc/engine/account"
	"satranc/locales"
	"satranc/store"
	"satranc/views"
)

// accountEnv is a Handler on a real SQLite store in a temporary directory,
// with cheap password hashing.
type accountEnv struct {
	h     http.Handler
	store *store.Store
}

// newAccountEnv returns an accountEnv whose log-in and sign-up limits are
// limit (the zero value: generous enough to never bite).
func newAccountEnv(t *testing.T, limit RateLimit) *accountEnv {
	t.Helper()
	return newAccountEnvWith(t, limit, func(*Config) {})
}

// newAccountEnvWith is newAccountEnv with the configuration amended by edit.
func newAccountEnvWith(t *testing.T, limit RateLimit, edit func(*Config)) *accountEnv {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "test.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	svc, err := account.NewService(st, account.NewHasher(account.TestParams), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if limit == (RateLimit{}) {
		limit = RateLimit{Every: time.Millisecond, Burst: 1000}
	}
	cfg := Config{Logger: slog.New(slog.DiscardHandler), DB: st, Accounts: svc, AuthLimit: limit}
	edit(&cfg)
	h := New(cfg)
	return &accountEnv{h: h.Routes(), store: st}
}

// request describes one request of a test.
type request struct {
	method, target string
	form           url.Values
	cookies        []*http.Cookie
	header         map[string]string
	remote         string // RemoteAddr; default httptest's 192.0.2.1:1234
	tls            bool
}

// do sends rq to the handler and returns the response.
func (e *accountEnv) do(t *testing.T, rq request) *http.Response {
	t.Helper()
	var body io.Reader
	if rq.form != nil {
		body = strings.NewReader(rq.form.Encode())
	}
	if rq.method == "" {
		rq.method = http.MethodGet
	}
	req := httptest.NewRequest(rq.method, rq.target, body)
	if rq.form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for k, v := range rq.header {
		req.Header.Set(k, v)
	}
	for _, c := range rq.cookies {
		req.AddCookie(c)
	}
	if rq.remote != "" {
		req.RemoteAddr = rq.remote
	}
	if rq.tls {
		req.TLS = &tls.ConnectionState{}
	}
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	return rec.Result()
}

// signUp signs up name and returns the session cookie.
func (e *accountEnv) signUp(t *testing.T, name string) *http.Cookie {
	t.Helper()
	resp := e.do(t, request{method: http.MethodPost, target: "/signup", form: url.Values{"username": {name}, "password": {"correct horse"}}})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign up %s = %d, want 303", name, resp.StatusCode)
	}
	c := cookie(resp, sessionCookie)
	if c == nil || c.Value == "" {
		t.Fatalf("sign up %s set no session cookie", name)
	}
	return c
}

// cookie returns the cookie name that resp sets, or nil.
func cookie(resp *http.Response, name string) *http.Cookie {
	for _, c := range resp.Cookies() {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// parse reads resp's body as HTML.
func parse(t *testing.T, resp *http.Response) *goquery.Document {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// testid returns the elements with data-testid id.
func testid(doc *goquery.Document, id string) *goquery.Selection {
	return doc.Find(`[data-testid="` + id + `"]`)
}

// whoami returns the name the header shows as logged in, or "" for a guest.
func (e *accountEnv) whoami(t *testing.T, c *http.Cookie) string {
	t.Helper()
	rq := request{target: "/"}
	if c != nil {
		rq.cookies = []*http.Cookie{c}
	}
	resp := e.do(t, rq)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET / = %d", resp.StatusCode)
	}
	return strings.TrimSpace(testid(parse(t, resp), "nav-profile").Text())
}

func TestSignupLogsIn(t *testing.T) {
	e := newAccountEnv(t, RateLimit{})
	resp := e.do(t, request{target: "/signup"})
	doc := parse(t, resp)
	if resp.StatusCode != http.StatusOK || testid(doc, "signup-form").Length() != 1 {
		t.Fatalf("GET /signup = %d without the form", resp.StatusCode)
	}
	if testid(doc, "nav-login").Length() != 1 || testid(doc, "logout").Length() != 0 {
		t.Error("a guest's header lacks the log-in link or shows log-out")
	}

	resp = e.do(t, request{method: http.MethodPost, target: "/signup", form: url.Values{
		"username": {"Ayse_1990"}, "password": {"correct horse"}, "next": {"/profile"},
	}})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/profile" {
		t.Fatalf("POST /signup = %d to %q, want 303 to /profile", resp.StatusCode, resp.Header.Get("Location"))
	}
	c := cookie(resp, sessionCookie)
	if c == nil {
		t.Fatal("no session cookie")
	}
	if !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Secure || c.Path != "/" || len(c.Value) != 43 {
		t.Errorf("session cookie = %+v; want HttpOnly, SameSite=Lax, not Secure over plain HTTP, 43 characters", c)
	}
	if got := e.whoami(t, c); got != "Ayse_1990" {
		t.Errorf("header shows %q, want Ayse_1990", got)
	}
	doc = parse(t, e.do(t, request{target: "/", cookies: []*http.Cookie{c}}))
	if testid(doc, "logout").Length() != 1 || testid(doc, "nav-login").Length() != 0 {
		t.Error("a member's header lacks log-out or shows log-in")
	}
}

func TestSessionCookieSecureOverTLS(t *testing.T) {
	e := newAccountEnv(t, RateLimit{})
	resp := e.do(t, request{method: http.MethodPost, target: "/signup", tls: true,
		form: url.Values{"username": {"mehmet"}, "password": {"correct horse"}}})
	if c := cookie(resp, sessionCookie); c == nil || !c.Secure {
		t.Errorf("session cookie over TLS = %+v, want Secure", c)
	}
}

func TestSignupErrors(t *testing.T) {
	e := newAccountEnv(t, RateLimit{})
	e.signUp(t, "Ayse")
	tests := []struct {
		name             string
		username, pass   string
		header           map[string]string
		cookies          []*http.Cookie
		status           int
		wantID, wantText string
	}{
		{"taken, English", "ayse", "another password", nil, nil, http.StatusConflict,
			"error.username_taken", "That username is already taken. Please choose another one."},
		{"taken, Turkish by Accept-Language", "AYSE", "another password", map[string]string{"Accept-Language": "tr-TR,tr;q=0.9"}, nil, http.StatusConflict,
			"error.username_taken", "Bu kullanıcı adı alınmış. Lütfen başka bir ad seçin."},
		{"taken, Turkish by cookie", "Ayse", "another password", nil, []*http.Cookie{{Name: "lang", Value: "tr"}}, http.StatusConflict,
			"error.username_taken", "Bu kullanıcı adı alınmış. Lütfen başka bir ad seçin."},
		{"short password", "mehmet", "short", nil, nil, http.StatusUnprocessableEntity,
			"error.password_too_short", "The password must have at least 8 characters."},
		{"short password, Turkish", "mehmet", "short", map[string]string{"Accept-Language": "tr"}, nil, http.StatusUnprocessableEntity,
			"error.password_too_short", "Parola en az 8 karakter olmalıdır."},
		{"password is username", "mehmet_1", "MEHMET_1", nil, nil, http.StatusUnprocessableEntity,
			"error.password_is_username", "The password must not be the same as the username."},
		{"bad username", "ayşe", "correct horse", nil, nil, http.StatusUnprocessableEntity,
			"error.username_invalid", "A username has 3 to 20 characters: letters without accents, digits and underscores."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp := e.do(t, request{method: http.MethodPost, target: "/signup", header: tc.header, cookies: tc.cookies,
				form: url.Values{"username": {tc.username}, "password": {tc.pass}}})
			if resp.StatusCode != tc.status {
				t.Errorf("status = %d, want %d", resp.StatusCode, tc.status)
			}
			if c := cookie(resp, sessionCookie); c != nil {
				t.Errorf("a failed sign-up set a session cookie")
			}
			doc := parse(t, resp)
			msg := testid(doc, "form-error")
			if id, _ := msg.Attr("data-message"); id != tc.wantID || strings.TrimSpace(msg.Text()) != tc.wantText {
				t.Errorf("form error = %s %q, want %s %q", id, strings.TrimSpace(msg.Text()), tc.wantID, tc.wantText)
			}
			if v, _ := testid(doc, "username").Attr("value"); v != tc.username {
				t.Errorf("username field = %q, want the entered %q", v, tc.username)
			}
			if v, _ := testid(doc, "password").Attr("value"); v != "" {
				t.Errorf("password field is filled in again: %q", v)
			}
		})
	}
	// Nothing was written by the failed attempts.
	if _, err := e.store.UserByName(context.Background(), "mehmet"); err == nil {
		t.Error("a failed sign-up created the user")
	}
}

func TestLoginWrongCredentials(t *testing.T) {
	e := newAccountEnv(t, RateLimit{})
	e.signUp(t, "Ayse")
	for _, tc := range []struct{ name, pass string }{{"Ayse", "wrong horse"}, {"nobody", "correct horse"}} {
		resp := e.do(t, request{method: http.MethodPost, target: "/login", form: url.Values{"username": {tc.name}, "password": {tc.pass}}})
		if resp.StatusCode != http.StatusUnprocessableEntity || cookie(resp, sessionCookie) != nil {
			t.Errorf("log in %s/%s = %d (cookie %v), want 422 and no cookie", tc.name, tc.pass, resp.StatusCode, cookie(resp, sessionCookie))
		}
		doc := parse(t, resp)
		if got := strings.TrimSpace(testid(doc, "form-error").Text()); got != "Wrong username or password." {
			t.Errorf("form error = %q", got)
		}
		if v, _ := testid(doc, "username").Attr("value"); v != tc.name {
			t.Errorf("username field = %q, want %q", v, tc.name)
		}
	}
}

func TestLoginRotatesSession(t *testing.T) {
	e := newAccountEnv(t, RateLimit{})
	old := e.signUp(t, "Ayse")
	resp := e.do(t, request{method: http.MethodPost, target: "/login", cookies: []*http.Cookie{old},
		form: url.Values{"username": {"ayse"}, "password": {"correct horse"}, "next": {"/profile?tab=1"}}})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/profile?tab=1" {
		t.Fatalf("POST /login = %d to %q, want 303 to /profile?tab=1", resp.StatusCode, resp.Header.Get("Location"))
	}
	fresh := cookie(resp, sessionCookie)
	if fresh == nil || fresh.Value == old.Value {
		t.Fatalf("log-in kept the session id (%v)", fresh)
	}
	if got := e.whoami(t, old); got != "" {
		t.Errorf("the old session still logs in as %q", got)
	}
	if got := e.whoami(t, fresh); got != "Ayse" {
		t.Errorf("the new session logs in as %q, want Ayse", got)
	}
}

func TestLoginNextMustBeLocal(t *testing.T) {
	e := newAccountEnv(t, RateLimit{})
	e.signUp(t, "Ayse")
	for _, next := range []string{"https://evil.example/", "//evil.example", "/\\evil.example", "javascript:alert(1)"} {
		resp := e.do(t, request{method: http.MethodPost, target: "/login",
			form: url.Values{"username": {"Ayse"}, "password": {"correct horse"}, "next": {next}}})
		if loc := resp.Header.Get("Location"); loc != "/" {
			t.Errorf("log in with next=%q goes to %q, want /", next, loc)
		}
	}
}

func TestLogout(t *testing.T) {
	e := newAccountEnv(t, RateLimit{})
	c := e.signUp(t, "Ayse")
	resp := e.do(t, request{method: http.MethodPost, target: "/logout", cookies: []*http.Cookie{c}})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/" {
		t.Errorf("POST /logout = %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	if cleared := cookie(resp, sessionCookie); cleared == nil || cleared.MaxAge >= 0 {
		t.Errorf("log-out did not clear the cookie: %+v", cleared)
	}
	if got := e.whoami(t, c); got != "" {
		t.Errorf("after log-out the old cookie logs in as %q", got)
	}
	// GET never logs out.
	if resp := e.do(t, request{target: "/logout"}); resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET /logout = %d, want 405", resp.StatusCode)
	}
}

func TestCrossOriginPostRefused(t *testing.T) {
	e := newAccountEnv(t, RateLimit{})
	form := url.Values{"username": {"mallory"}, "password": {"correct horse"}}
	tests := []struct {
		name   string
		header map[string]string
		status int
	}{
		{"Sec-Fetch-Site cross-site", map[string]string{"Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
		{"Origin of another host", map[string]string{"Origin": "https://evil.example"}, http.StatusForbidden},
		{"Turkish refusal", map[string]string{"Sec-Fetch-Site": "same-site", "Accept-Language": "tr"}, http.StatusForbidden},
		{"same origin", map[string]string{"Sec-Fetch-Site": "same-origin"}, http.StatusSeeOther},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp := e.do(t, request{method: http.MethodPost, target: "/signup", form: form, header: tc.header})
			if resp.StatusCode != tc.status {
				t.Fatalf("status = %d, want %d", resp.StatusCode, tc.status)
			}
			if tc.status != http.StatusForbidden {
				return
			}
			doc := parse(t, resp)
			if id, _ := testid(doc, "error").Attr("data-message"); id != "error.cross_origin" {
				t.Errorf("error page message = %q, want error.cross_origin", id)
			}
			if cookie(resp, sessionCookie) != nil {
				t.Error("a refused request set a session cookie")
			}
		})
	}
	// Only the same-origin request created the account.
	if _, err := e.store.UserByName(context.Background(), "mallory"); err != nil {
		t.Errorf("same-origin sign-up: %v", err)
	}
	// The Turkish refusal page is in Turkish.
	resp := e.do(t, request{method: http.MethodPost, target: "/logout", header: map[string]string{"Sec-Fetch-Site": "cross-site", "Accept-Language": "tr"}})
	if got := strings.TrimSpace(parse(t, resp).Find(`[data-testid="error"] .error-text`).Text()); got != "Bu istek başka bir siteden geldiği için reddedildi." {
		t.Errorf("Turkish refusal = %q", got)
	}
}

func TestLoginRateLimited(t *testing.T) {
	e := newAccountEnv(t, RateLimit{Every: time.Minute, Burst: 2})
	form := url.Values{"username": {"Ayse"}, "password": {"wrong horse"}}
	for i := range 2 {
		if resp := e.do(t, request{method: http.MethodPost, target: "/login", form: form}); resp.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("attempt %d = %d, want 422", i+1, resp.StatusCode)
		}
	}
	resp := e.do(t, request{method: http.MethodPost, target: "/login", form: form, header: map[string]string{"Accept-Language": "en"}})
	if resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("third attempt = %d, want 429", resp.StatusCode)
	}
	if ra := resp.Header.Get("Retry-After"); ra != "60" {
		t.Errorf("Retry-After = %q, want 60", ra)
	}
	doc := parse(t, resp)
	msg := strings.TrimSpace(testid(doc, "form-error").Text())
	if !regexp.MustCompile(`^Too many attempts\. Please try again in \d+ seconds\.$`).MatchString(msg) {
		t.Errorf("form error = %q", msg)
	}
	if v, _ := testid(doc, "username").Attr("value"); v != "Ayse" {
		t.Errorf("username field = %q, want Ayse", v)
	}
	// Another address is not limited, and neither is sign-up.
	if resp := e.do(t, request{method: http.MethodPost, target: "/login", form: form, remote: "198.51.100.7:4000"}); resp.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("another address = %d, want 422", resp.StatusCode)
	}
	if resp := e.do(t, request{method: http.MethodPost, target: "/signup", form: url.Values{"username": {"zeynep"}, "password": {"correct horse"}}}); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("sign-up from the limited address = %d, want 303", resp.StatusCode)
	}
}

func TestSignupRateLimited(t *testing.T) {
	e := newAccountEnv(t, RateLimit{Every: time.Minute, Burst: 1})
	e.signUp(t, "first")
	resp := e.do(t, request{method: http.MethodPost, target: "/signup", header: map[string]string{"Accept-Language": "tr"},
		form: url.Values{"username": {"second"}, "password": {"correct horse"}}})
	if resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("second sign-up = %d, want 429", resp.StatusCode)
	}
	msg := strings.TrimSpace(testid(parse(t, resp), "form-error").Text())
	if !strings.HasPrefix(msg, "Çok fazla deneme yapıldı.") {
		t.Errorf("Turkish form error = %q", msg)
	}
	if _, err := e.store.UserByName(context.Background(), "second"); err == nil {
		t.Error("the refused sign-up created the user")
	}
}

func TestClientKey(t *testing.T) {
	tests := []struct{ remote, want string }{
		{"192.0.2.1:1234", "192.0.2.1"},
		{"[2001:db8:1:2:3:4:5:6]:443", "2001:db8:1:2::/64"},
		{"[2001:db8:1:2:ffff::1]:80", "2001:db8:1:2::/64"},
		{"[::ffff:192.0.2.1]:80", "192.0.2.1"},
		{"not an address", "not an address"},
	}
	for _, tc := range tests {
		if got := clientKey(tc.remote); got != tc.want {
			t.Errorf("clientKey(%q) = %q, want %q", tc.remote, got, tc.want)
		}
	}
}

func TestLimiterForgetsIdleClients(t *testing.T) {
	a := newAddrLimiter(RateLimit{Every: time.Second, Burst: 1})
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	a.now = func() time.Time { return now }
	allowClients(t, a, 5)
	if len(a.clients) != 5 {
		t.Fatalf("clients = %d, want 5", len(a.clients))
	}
	now = now.Add(2 * time.Minute)
	r := httptest.NewRequest(http.MethodPost, "/login", nil)
	r.RemoteAddr = "198.51.100.1:1"
	if err := a.allow(r); err != nil {
		t.Fatal(err)
	}
	if len(a.clients) != 1 {
		t.Errorf("clients after the idle sweep = %d, want 1", len(a.clients))
	}
}

// allowClients has n clients of distinct addresses take an attempt each
// from a.
func allowClients(t *testing.T, a *addrLimiter, n int) {
	t.Helper()
	for i := range n {
		r := httptest.NewRequest(http.MethodPost, "/login", nil)
		r.RemoteAddr = "192.0.2." + strconv.Itoa(i+1) + ":1"
		if err := a.allow(r); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLocalPath(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/", "/"},
		{"/profile?x=1", "/profile?x=1"},
		{"", ""},
		{"profile", ""},
		{"//evil.example", ""},
		{"/\\evil.example", ""},
		{"https://evil.example/", ""},
		{"/a\r\nSet-Cookie: x", ""},
	}
	for _, tc := range tests {
		if got := localPath(tc.in); got != tc.want {
			t.Errorf("localPath(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestEveryErrorHasTexts(t *testing.T) {
	errs := []error{
		&rateLimitedError{retry: time.Second},
		account.ErrUsernameTaken, account.ErrUsernameInvalid, account.ErrPasswordTooShort,
		account.ErrPasswordTooLong, account.ErrPasswordIsUsername, account.ErrBadCredentials,
		account.ErrInvalidProfile, account.ErrNotFound,
		errCrossOrigin, errTooLarge, errBadRequest, errNotFound, errUnavailable, context.DeadlineExceeded,
	}
	for _, lang := range locales.Codes {
		ctx := views.WithLocale(context.Background(), views.Locale{Lang: lang, Localizer: i18n.NewLocalizer(locales.Default(), lang)})
		for _, err := range errs {
			resp := responseFor(err)
			if got := resp.msg.Text(ctx); got == resp.msg.ID || got == "" {
				t.Errorf("%s: %v maps to %s, which has no text", lang, err, resp.msg.ID)
			}
		}
	}
}
