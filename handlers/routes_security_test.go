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

// routeEnv is a stackEnv with a game in progress between ayse and bora, a
// private game of ayse's waiting for its opponent, and the values of the
// routes' parameters that name them.
func routeEnv(t *testing.T) (e *stackEnv, ayse player, id int64, values map[string]string) {
	e = newStackEnv(t, RateLimit{})
	ayse, bora := e.player(t, "ayse"), e.player(t, "bora")
	id, white, _ := e.privateGame(t, ayse, bora)
	if resp := e.do(t, request{method: http.MethodPost, target: fmt.Sprintf("/games/%d/moves", id), form: moveForm("e4", 0), cookies: white.cookies()}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("first move: %d", resp.StatusCode)
	}
	_, token, err := e.games.CreatePrivateGame(context.Background(), ayse.ID, clock.Control{Initial: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	values = map[string]string{"id": fmt.Sprint(id), "name": "bora", "token": token, "kind": "daily", "period": "2026-11-02"}
	return e, ayse, id, values
}

// TestEveryPageFitsTheCSP: every GET route, for a member and for a guest,
// answers without a server error, with the security headers, and (for an
// HTML page) with nothing the Content-Security-Policy would block.
func TestEveryPageFitsTheCSP(t *testing.T) {
	e, ayse, _, values := routeEnv(t)
	pages := 0
	for _, path := range siteRoutes(t, e.h, values)[http.MethodGet] {
		if strings.HasSuffix(path, "/events") || path == "/metrics" {
			continue // event streams last; the metrics are not a page
		}
		for _, who := range []struct {
			name    string
			cookies []*http.Cookie
		}{{"member", ayse.cookies()}, {"guest", nil}} {
			resp := e.do(t, request{target: path, cookies: who.cookies})
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
	if pages < 20 {
		t.Errorf("only %d pages checked: the walk missed the routes", pages)
	}
}

// TestEveryFormRefusesAttacks: every POST route refuses a request from
// another site (403) and a body over maxFormBytes (413), member or guest
// (both before the log-in check), and neither changes a game or creates
// an account.
func TestEveryFormRefusesAttacks(t *testing.T) {
	e, ayse, id, values := routeEnv(t)
	before := e.state(t, id)
	posts := siteRoutes(t, e.h, values)[http.MethodPost]
	t.Logf("%d POST routes: %q", len(posts), posts)
	if len(posts) < 15 {
		t.Fatalf("only %d POST routes: %q", len(posts), posts)
	}
	form := url.Values{"username": {"mallory"}, "password": {"correct horse"}, "move": {"e5"}, "ply": {"1"}, "text": {"hi"},
		"lang": {"tr"}, "control": {"3+0"}, "accept": {"yes"}, "language": {"tr"}}
	big := url.Values{"pad": {strings.Repeat("x", maxFormBytes)}}
	for k, v := range form {
		big[k] = v
	}
	for _, path := range posts {
		for _, who := range [][]*http.Cookie{ayse.cookies(), nil} {
			resp := e.do(t, request{method: http.MethodPost, target: path, form: form, cookies: who, header: map[string]string{"Sec-Fetch-Site": "cross-site"}})
			expectRefused(t, "cross-site POST "+path, resp, http.StatusForbidden, "error.cross_origin")
			resp = e.do(t, request{method: http.MethodPost, target: path, form: big, cookies: who})
			expectRefused(t, "oversized POST "+path, resp, http.StatusRequestEntityTooLarge, "error.too_large")
		}
	}
	if after := e.state(t, id); after != before {
		t.Errorf("refused requests changed the game: %+v, was %+v", after, before)
	}
	e.checkDatabase(t, map[string]int{"users": 2, "games": 2, "moves": 1, "chat_messages": 0})
}

// TestEveryFormTakesHostileText fills every field of every form on every
// page (a member's, and a guest's log-in and sign-up) with each hostile
// text and sends it as the page would, to the form's action: no answer is a
// server error, and the database stays whole.
func TestEveryFormTakesHostileText(t *testing.T) {
	e, ayse, _, values := routeEnv(t)
	type form struct {
		action string
		fields []string
		guest  bool
	}
	forms := map[string]form{} // by action and fields, each once
	for _, path := range siteRoutes(t, e.h, values)[http.MethodGet] {
		if strings.HasSuffix(path, "/events") || path == "/metrics" {
			continue
		}
		for _, guest := range []bool{false, true} {
			rq := request{target: path}
			if !guest {
				rq.cookies = ayse.cookies()
			}
			resp := e.do(t, rq)
			if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
				continue
			}
			parse(t, resp).Find("form").Each(func(_ int, s *goquery.Selection) {
				action, _ := s.Attr("action")
				if hx, ok := s.Attr("hx-post"); ok {
					action = hx
				}
				method, _ := s.Attr("method")
				if !strings.EqualFold(method, "post") || action == "" || strings.HasPrefix(action, "/logout") {
					return // GET forms change nothing; log-out would end the member's session
				}
				f := form{action: action, guest: guest}
				s.Find("input[name], select[name], textarea[name], button[name]").Each(func(_ int, in *goquery.Selection) {
					name, _ := in.Attr("name")
					if !slices.Contains(f.fields, name) {
						f.fields = append(f.fields, name)
					}
				})
				forms[fmt.Sprint(guest, action, f.fields)] = f
			})
		}
	}
	t.Logf("%d forms", len(forms))
	if len(forms) < 15 {
		t.Fatalf("only %d forms found", len(forms))
	}
	for _, f := range forms {
		for _, s := range hostile {
			v := url.Values{}
			for _, name := range f.fields {
				v.Set(name, s)
			}
			rq := request{method: http.MethodPost, target: f.action, form: v, header: map[string]string{"HX-Request": "true"}}
			if !f.guest {
				rq.cookies = ayse.cookies()
			}
			if resp := e.do(t, rq); resp.StatusCode >= 500 {
				t.Errorf("POST %s with %q in %q: %d: %.300s", f.action, s, f.fields, resp.StatusCode, readBody(t, resp))
			}
		}
	}
	e.checkDatabase(t, nil)
	for _, name := range []string{"ayse", "bora"} {
		if _, err := e.store.UserByName(context.Background(), name); err != nil {
			t.Errorf("user %s: %v", name, err)
		}
	}
}
