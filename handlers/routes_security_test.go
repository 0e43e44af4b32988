package handlers

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/go-chi/chi/v5"

	"satranc/engine/clock"
)

// The route tests walk every route of the whole site (stackEnv), so that a
// page or form added later is checked without being listed here.

// routeParam matches a parameter of a chi pattern: {id}, {kind:[a-z]+}.
var routeParam = regexp.MustCompile(`\{([a-zA-Z]+)(:[^}]*)?\}`)

// siteRoutes returns the site's routes by method, as paths with every
// parameter filled from values ("1" for a parameter values lacks).
func siteRoutes(t *testing.T, h http.Handler, values map[string]string) map[string][]string {
	t.Helper()
	routes, ok := h.(chi.Routes)
	if !ok {
		t.Fatalf("the handler is a %T, not a chi router", h)
	}
	out := map[string][]string{}
	err := chi.Walk(routes, func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		path := routeParam.ReplaceAllStringFunc(route, func(p string) string {
			if v, ok := values[routeParam.FindStringSubmatch(p)[1]]; ok {
				return url.PathEscape(v)
			}
			return "1"
		})
		path = strings.ReplaceAll(path, "/*", "/css/app.css") // the static files
		if len(path) > 1 {
			path = strings.TrimSuffix(path, "/")
		}
		out[method] = append(out[method], path)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// routeSite is a stackEnv with a game in progress between the
// administrator (ayse, the first account) and a member (bora), a private
// game of ayse's waiting for its opponent, and the values of the routes'
// parameters that name them.
type routeSite struct {
	*stackEnv
	admin, member player
	game          int64
	values        map[string]string
}

func newRouteSite(t *testing.T) *routeSite {
	e := newStackEnv(t, RateLimit{})
	s := &routeSite{stackEnv: e, admin: e.player(t, "ayse"), member: e.player(t, "bora")}
	if !s.admin.Admin || s.member.Admin {
		t.Fatalf("ayse admin %v, bora admin %v: the first account should be the only administrator", s.admin.Admin, s.member.Admin)
	}
	var white player
	s.game, white, _ = e.privateGame(t, s.admin, s.member)
	if resp := e.do(t, request{method: http.MethodPost, target: fmt.Sprintf("/games/%d/moves", s.game), form: moveForm("e4", 0), cookies: white.cookies()}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("first move: %d", resp.StatusCode)
	}
	_, token, err := e.games.CreatePrivateGame(context.Background(), s.admin.ID, clock.Control{Initial: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	s.values = map[string]string{"id": fmt.Sprint(s.game), "name": "bora", "token": token, "kind": "daily", "period": "2026-11-02"}
	return s
}

// visitor is someone sending requests: a player's cookies, or none.
type visitor struct {
	name    string
	cookies []*http.Cookie
}

// visitors are the administrator, a member and a guest.
func (s *routeSite) visitors() []visitor {
	return []visitor{{"administrator", s.admin.cookies()}, {"member", s.member.cookies()}, {"guest", nil}}
}

// TestEveryPageFitsTheCSP: every GET route, for the administrator, a member
// and a guest, answers without a server error, with the security headers, and (for an
// HTML page) with nothing the Content-Security-Policy would block.
func TestEveryPageFitsTheCSP(t *testing.T) {
	s := newRouteSite(t)
	pages := 0
	for _, path := range siteRoutes(t, s.h, s.values)[http.MethodGet] {
		if strings.HasSuffix(path, "/events") || path == "/metrics" {
			continue // event streams last; the metrics are not a page
		}
		for _, who := range s.visitors() {
			resp := s.do(t, request{target: path, cookies: who.cookies})
			what := who.name + " GET " + path
			if resp.StatusCode >= 500 {
				t.Errorf("%s: %d: %.300s", what, resp.StatusCode, readBody(t, resp))
				continue
			}
			if resp.Header.Get("Content-Security-Policy") != contentSecurityPolicy || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
				t.Errorf("%s: without the security headers", what)
			}
			if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
				checkCSPSafe(t, what, parse(t, resp))
				pages++
			}
		}
	}
	t.Logf("%d pages checked", pages)
	if pages < 30 {
		t.Errorf("only %d pages checked: the walk missed the routes", pages)
	}
}

// TestEveryFormRefusesAttacks: every POST route refuses a request from
// another site (403) and a body over maxFormBytes (413), from anyone (both
// before the log-in check), and neither changes a game or creates an
// account.
func TestEveryFormRefusesAttacks(t *testing.T) {
	s := newRouteSite(t)
	before := s.state(t, s.game)
	posts := siteRoutes(t, s.h, s.values)[http.MethodPost]
	t.Logf("%d POST routes: %q", len(posts), posts)
	if len(posts) < 15 {
		t.Fatalf("only %d POST routes: %q", len(posts), posts)
	}
	form := url.Values{"username": {"mallory"}, "password": {"correct horse"}, "move": {"e5"}, "ply": {"1"}, "text": {"hi"},
		"lang": {"tr"}, "control": {"3+0"}, "accept": {"yes"}, "language": {"tr"}, "on": {"on"}, "amount": {"100"}, "reason": {"x"}}
	big := url.Values{"pad": {strings.Repeat("x", maxFormBytes)}}
	for k, v := range form {
		big[k] = v
	}
	for _, path := range posts {
		for _, who := range s.visitors() {
			resp := s.do(t, request{method: http.MethodPost, target: path, form: form, cookies: who.cookies, header: map[string]string{"Sec-Fetch-Site": "cross-site"}})
			expectRefused(t, who.name+"'s cross-site POST "+path, resp, http.StatusForbidden, "error.cross_origin")
			resp = s.do(t, request{method: http.MethodPost, target: path, form: big, cookies: who.cookies})
			expectRefused(t, who.name+"'s oversized POST "+path, resp, http.StatusRequestEntityTooLarge, "error.too_large")
		}
	}
	if after := s.state(t, s.game); after != before {
		t.Errorf("refused requests changed the game: %+v, was %+v", after, before)
	}
	s.checkDatabase(t, map[string]int{"users": 2, "games": 2, "moves": 1, "chat_messages": 0})
}

// TestEveryFormTakesHostileText fills every field of every form on every
// page (the administrator's, a member's, a guest's) with each hostile text
// and sends it as the page would, to the form's action, as the visitor who
// saw the form: no answer is a server error, and the database stays whole.
func TestEveryFormTakesHostileText(t *testing.T) {
	s := newRouteSite(t)
	type form struct {
		action string
		fields []string
		who    visitor
	}
	forms := map[string]form{} // by visitor, action and fields, each once
	for _, path := range siteRoutes(t, s.h, s.values)[http.MethodGet] {
		if strings.HasSuffix(path, "/events") || path == "/metrics" {
			continue
		}
		for _, who := range s.visitors() {
			resp := s.do(t, request{target: path, cookies: who.cookies})
			if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
				continue
			}
			parse(t, resp).Find("form").Each(func(_ int, sel *goquery.Selection) {
				action, _ := sel.Attr("action")
				if hx, ok := sel.Attr("hx-post"); ok {
					action = hx
				}
				method, _ := sel.Attr("method")
				if !strings.EqualFold(method, "post") || action == "" || strings.HasPrefix(action, "/logout") {
					return // GET forms change nothing; log-out would end the member's session
				}
				f := form{action: action, who: who}
				sel.Find("input[name], select[name], textarea[name], button[name]").Each(func(_ int, in *goquery.Selection) {
					name, _ := in.Attr("name")
					if !slices.Contains(f.fields, name) {
						f.fields = append(f.fields, name)
					}
				})
				forms[fmt.Sprint(who.name, action, f.fields)] = f
			})
		}
	}
	t.Logf("%d forms", len(forms))
	if len(forms) < 25 {
		t.Fatalf("only %d forms found", len(forms))
	}
	for _, f := range forms {
		for _, text := range hostile {
			v := url.Values{}
			for _, name := range f.fields {
				v.Set(name, text)
			}
			rq := request{method: http.MethodPost, target: f.action, form: v, cookies: f.who.cookies, header: map[string]string{"HX-Request": "true"}}
			if resp := s.do(t, rq); resp.StatusCode >= 500 {
				t.Errorf("%s's POST %s with %q in %q: %d: %.300s", f.who.name, f.action, text, f.fields, resp.StatusCode, readBody(t, resp))
			}
		}
	}
	s.checkDatabase(t, nil)
	for _, name := range []string{"ayse", "bora"} {
		if _, err := s.store.UserByName(context.Background(), name); err != nil {
			t.Errorf("user %s: %v", name, err)
		}
	}
}

// TestAdminRoutesRefuseOthers: every route under /admin, GET or POST,
// answers a member and a guest with the not-found page and changes
// nothing, while the administrator gets through (a route added later is
// covered without being listed here; TestAdminAccessControl checks each
// page's use).
func TestAdminRoutesRefuseOthers(t *testing.T) {
	s := newRouteSite(t)
	ctx := context.Background()
	routes := siteRoutes(t, s.h, s.values)
	form := url.Values{"on": {"on"}, "amount": {"1000"}, "reason": {"a bribe"}, "q": {"bora"}}
	memberBefore, err := s.store.Member(ctx, "bora")
	if err != nil {
		t.Fatal(err)
	}
	before := s.state(t, s.game)
	checked := 0
	for _, method := range []string{http.MethodGet, http.MethodPost} {
		for _, path := range routes[method] {
			if !strings.HasPrefix(path, "/admin") {
				continue
			}
			checked++
			for _, who := range s.visitors()[1:] { // the member and the guest
				rq := request{method: method, target: path, cookies: who.cookies}
				if method == http.MethodPost {
					rq.form = form
				}
				expectRefused(t, who.name+" "+method+" "+path, s.do(t, rq), http.StatusNotFound, "error.not_found")
			}
		}
	}
	if checked < 5 {
		t.Fatalf("only %d /admin routes", checked)
	}
	if m, _ := s.store.Member(ctx, "bora"); m != memberBefore {
		t.Errorf("refused requests changed bora: %+v, was %+v", m, memberBefore)
	}
	if g, _ := s.store.AdminGame(ctx, s.game); g.Voided() {
		t.Error("a refused request voided the game")
	}
	if after := s.state(t, s.game); after != before {
		t.Errorf("refused requests changed the game: %+v, was %+v", after, before)
	}
	// The same requests from the administrator go through.
	if resp := s.do(t, request{method: http.MethodPost, target: "/admin/users/bora/vip", form: form, cookies: s.admin.cookies()}); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("the administrator's VIP change: %d", resp.StatusCode)
	}
	if m, _ := s.store.Member(ctx, "bora"); !m.VIP {
		t.Error("the administrator could not make bora a VIP")
	}
}
