package handlers

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
)

// ownersAt is an Owners whose games are all owned by the node at owner
// (nil: this node).
type ownersAt struct{ owner *url.URL }

func (o ownersAt) GameOwner(context.Context, int64) (*url.URL, error)    { return o.owner, nil }
func (o ownersAt) InviteOwner(context.Context, string) (*url.URL, error) { return o.owner, nil }
func (o ownersAt) LobbyOwner(context.Context) (*url.URL, error)          { return o.owner, nil }

// TestForwardGameToOwner: a request about a game another node owns is
// relayed to that node whole, its form body included (which limitForms
// has read here already), with the browser's Host and the mark that makes
// the owner serve it itself; the answer comes back unchanged. A request
// that carries the mark, or about a game this node owns, is served here.
func TestForwardGameToOwner(t *testing.T) {
	type seen struct{ method, path, host, contentType, body, mark string }
	got := make(chan seen, 1)
	owner := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got <- seen{r.Method, r.URL.Path, r.Host, r.Header.Get("Content-Type"), string(body), r.Header.Get(forwardedHeader)}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer owner.Close()
	ownerURL, _ := url.Parse(owner.URL)

	router := func(o Owners) http.Handler {
		h := &Handler{log: slog.New(slog.DiscardHandler), owners: o}
		r := chi.NewRouter()
		r.Use(h.limitForms)
		r.Route("/games/{id}", func(r chi.Router) {
			r.Use(h.forwardGame)
			r.Post("/moves", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusAccepted) })
		})
		return r
	}
	const form = "application/x-www-form-urlencoded"
	postAs := func(h http.Handler, mark bool, contentType, body string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "http://chess.example/games/7/moves", strings.NewReader(body))
		req.Header.Set("Content-Type", contentType)
		if mark {
			req.Header.Set(forwardedHeader, "1")
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	post := func(h http.Handler, mark bool) *httptest.ResponseRecorder {
		return postAs(h, mark, form, "uci=e2e4&ply=0")
	}

	if rec := post(router(ownersAt{ownerURL}), false); rec.Code != http.StatusNoContent {
		t.Fatalf("forwarded move = %d, want the owner's 204", rec.Code)
	}
	want := seen{http.MethodPost, "/games/7/moves", "chess.example", form, "ply=0&uci=e2e4", "1"}
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
		if rec := postAs(router(ownersAt{ownerURL}), false, tc.contentType, tc.body); rec.Code != http.StatusNoContent {
			t.Fatalf("forwarded %s move = %d, want the owner's 204", tc.contentType, rec.Code)
		}
		want := seen{http.MethodPost, "/games/7/moves", "chess.example", form, tc.want, "1"}
		if s := <-got; s != want {
			t.Errorf("%s: the owner saw %+v, want %+v", tc.contentType, s, want)
		}
	}
	for name, tc := range map[string]struct {
		o    Owners
		mark bool
	}{
		"this node owns the game": {ownersAt{nil}, false},
		"forwarded already":       {ownersAt{ownerURL}, true},
		"single node":             {nil, false},
	} {
		if rec := post(router(tc.o), tc.mark); rec.Code != http.StatusAccepted {
			t.Errorf("%s: move = %d, want 202 from the local handler", name, rec.Code)
		}
	}
	select {
	case s := <-got:
		t.Errorf("the owner saw a request it should not have: %+v", s)
	default:
	}
}
