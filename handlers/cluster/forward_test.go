package cluster

import (
	"context"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"

	"satranc/handlers"
)

// testSecret is the tests' cluster secret.
const testSecret = "0123456789abcdef"

// ownedBy is an owners whose games, invitations and lobby are all owned
// by the node at owner (nil: this node); asked records what was asked.
type ownedBy struct {
	owner *url.URL
	asked *[]string
}

func (o ownedBy) GameOwner(_ context.Context, id int64) (*url.URL, error) {
	*o.asked = append(*o.asked, "game")
	return o.owner, nil
}

func (o ownedBy) InviteOwner(_ context.Context, token string) (*url.URL, error) {
	*o.asked = append(*o.asked, "invite "+token)
	return o.owner, nil
}

func (o ownedBy) LobbyOwner(context.Context) (*url.URL, error) {
	*o.asked = append(*o.asked, "lobby")
	return o.owner, nil
}

// readForms reads a POST's form, as the handlers' form limit does before
// the forwarding runs (handlers/middleware.go, readPost).
func readForms(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			var err error
			if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct == "multipart/form-data" {
				err = r.ParseMultipartForm(1 << 20)
			} else if err = r.ParseForm(); err == nil {
				_, err = io.Copy(io.Discard, r.Body)
			}
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// TestForwardToOwner: a request about a game another node owns is
// relayed to that node whole, its form body included (which the form
// limit has read here already), with the browser's Host and the mark that
// makes the owner serve it itself; the answer comes back unchanged. A
// request that carries the mark, or about a game this node owns, is
// served here. What is asked about is named by the route: a game, an
// invitation or the lobby.
func TestForwardToOwner(t *testing.T) {
	defer forwardTransport.CloseIdleConnections() // goleak (main_test.go)
	type seen struct{ method, path, host, contentType, body, mark string }
	got := make(chan seen, 1)
	owner := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got <- seen{r.Method, r.URL.Path, r.Host, r.Header.Get("Content-Type"), string(body), r.Header.Get(handlers.ForwardedHeader)}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer owner.Close()
	ownerURL, _ := url.Parse(owner.URL)

	var asked []string
	router := func(owner *url.URL) http.Handler {
		mw := func(next http.Handler) http.Handler {
			return forward(ownedBy{owner, &asked}, testSecret, slog.New(slog.DiscardHandler), next, handlers.Forwarding{})
		}
		local := func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusAccepted) }
		r := chi.NewRouter()
		r.Use(readForms)
		r.Route("/games/{id}", func(r chi.Router) {
			r.Use(mw)
			r.Post("/moves", local)
		})
		r.With(mw).Post("/invite/{token}", local)
		r.With(mw).Post("/lobby/join", local)
		return r
	}
	const form = "application/x-www-form-urlencoded"
	postAs := func(h http.Handler, path string, mark bool, contentType, body string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "http://chess.example"+path, strings.NewReader(body))
		req.Header.Set("Content-Type", contentType)
		if mark {
			req.Header.Set(handlers.ForwardedHeader, testSecret)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	post := func(h http.Handler, mark bool) *httptest.ResponseRecorder {
		return postAs(h, "/games/7/moves", mark, form, "uci=e2e4&ply=0")
	}

	if rec := post(router(ownerURL), false); rec.Code != http.StatusNoContent {
		t.Fatalf("forwarded move = %d, want the owner's 204", rec.Code)
	}
	want := seen{http.MethodPost, "/games/7/moves", "chess.example", form, "ply=0&uci=e2e4", testSecret}
	if s := <-got; s != want {
		t.Errorf("the owner saw %+v, want %+v", s, want)
	}
	// A multipart form goes on URL-encoded; another body, which no route
	// reads, not at all.
	multipart := "--b\r\nContent-Disposition: form-data; name=\"uci\"\r\n\r\ne2e4\r\n" +
		"--b\r\nContent-Disposition: form-data; name=\"ply\"\r\n\r\n0\r\n--b--\r\n"
	for _, tc := range []struct{ contentType, body, want string }{
		{"multipart/form-data; boundary=b", multipart, "ply=0&uci=e2e4"},
		{"text/plain", "uci=e2e4&ply=0", ""},
	} {
		if rec := postAs(router(ownerURL), "/games/7/moves", false, tc.contentType, tc.body); rec.Code != http.StatusNoContent {
			t.Fatalf("forwarded %s move = %d, want the owner's 204", tc.contentType, rec.Code)
		}
		want := seen{http.MethodPost, "/games/7/moves", "chess.example", form, tc.want, testSecret}
		if s := <-got; s != want {
			t.Errorf("%s: the owner saw %+v, want %+v", tc.contentType, s, want)
		}
	}
	// The invitation and the lobby go to their owners too.
	asked = nil
	for _, path := range []string{"/invite/tok", "/lobby/join"} {
		if rec := postAs(router(ownerURL), path, false, form, "x=1"); rec.Code != http.StatusNoContent {
			t.Fatalf("forwarded %s = %d, want the owner's 204", path, rec.Code)
		}
		if s := <-got; s.path != path || s.mark != testSecret {
			t.Errorf("the owner saw %+v, want %s, marked", s, path)
		}
	}
	if strings.Join(asked, ", ") != "invite tok, lobby" {
		t.Errorf("asked %q, want the invitation's owner, then the lobby's", asked)
	}
	for _, tc := range []struct {
		name  string
		owner *url.URL
		mark  bool
	}{
		{"this node owns the game", nil, false},
		{"forwarded already", ownerURL, true},
	} {
		if rec := post(router(tc.owner), tc.mark); rec.Code != http.StatusAccepted {
			t.Errorf("%s: move = %d, want 202 from the local handler", tc.name, rec.Code)
		}
	}
	select {
	case s := <-got:
		t.Errorf("the owner saw a request it should not have: %+v", s)
	default:
	}

	// A client's own mark, without the cluster's secret, is no mark: the
	// request goes to the owner like any other, with the real mark.
	for _, fake := range []string{"1", testSecret[:len(testSecret)-1], testSecret + "0"} {
		req := httptest.NewRequest(http.MethodPost, "http://chess.example/games/7/moves", strings.NewReader("uci=e2e4&ply=0"))
		req.Header.Set("Content-Type", form)
		req.Header.Set(handlers.ForwardedHeader, fake)
		rec := httptest.NewRecorder()
		router(ownerURL).ServeHTTP(rec, req)
		if rec.Code != http.StatusNoContent {
			t.Errorf("a move marked %q by the client = %d, want the owner's 204", fake, rec.Code)
		}
		if s := <-got; s.mark != testSecret {
			t.Errorf("a move marked %q by the client reached the owner marked %q, want the secret", fake, s.mark)
		}
	}
	if n := (&Node{secret: testSecret}); !n.Forwarded(markedRequest(testSecret)) || n.Forwarded(markedRequest("1")) ||
		(&Node{}).Forwarded(markedRequest("")) {
		t.Error("Node.Forwarded: want true for the secret only, and never without one")
	}
}

// markedRequest is a request whose ForwardedHeader is mark.
func markedRequest(mark string) *http.Request {
	r := httptest.NewRequest(http.MethodGet, "http://chess.example/games/7/events", nil)
	r.Header.Set(handlers.ForwardedHeader, mark)
	return r
}

// TestForwardServedHereOrUnavailable: a request another node owns is
// served here when the handlers can (a game's stream from the bus), and
// answered by the handlers' Unavailable when the owner does not answer.
func TestForwardServedHereOrUnavailable(t *testing.T) {
	defer forwardTransport.CloseIdleConnections()
	gone := httptest.NewServer(http.NotFoundHandler())
	goneURL, _ := url.Parse(gone.URL)
	gone.Close() // nobody answers there now
	var asked []string
	here := handlers.Forwarding{
		ServeHere: func(w http.ResponseWriter, r *http.Request) bool {
			if !strings.HasSuffix(r.URL.Path, "/events") {
				return false
			}
			w.WriteHeader(http.StatusOK)
			return true
		},
		Unavailable: func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTeapot) },
	}
	r := chi.NewRouter()
	r.Route("/games/{id}", func(r chi.Router) {
		r.Use(func(next http.Handler) http.Handler {
			return forward(ownedBy{goneURL, &asked}, testSecret, slog.New(slog.DiscardHandler), next, here)
		})
		r.Get("/", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusAccepted) })
		r.Get("/events", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusAccepted) })
	})
	for _, tc := range []struct {
		path string
		want int
	}{
		{"/games/7/events", http.StatusOK}, // ServeHere
		{"/games/7/", http.StatusTeapot},   // Unavailable
		{"/games/x/", http.StatusAccepted}, // not a game: served here, and the route answers
	} {
		rec := httptest.NewRecorder()
		r.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://chess.example"+tc.path, nil))
		if rec.Code != tc.want {
			t.Errorf("GET %s = %d, want %d", tc.path, rec.Code, tc.want)
		}
	}
}
