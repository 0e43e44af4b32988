package handlers

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
)

// ownersAt is an Owners whose games are all owned by the node at owner
// (nil: this node). Its Forward serves here what this node owns, and
// otherwise what here serves, or answers Unavailable: it relays nothing
// (handlers/cluster's forward_test.go checks the relaying).
type ownersAt struct{ owner *url.URL }

func (o ownersAt) GameOwner(context.Context, int64) (*url.URL, error)    { return o.owner, nil }
func (o ownersAt) InviteOwner(context.Context, string) (*url.URL, error) { return o.owner, nil }
func (o ownersAt) LobbyOwner(context.Context) (*url.URL, error)          { return o.owner, nil }

func (o ownersAt) Forward(next http.Handler, here Forwarding) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case o.owner == nil || o.Forwarded(r):
			next.ServeHTTP(w, r)
		case here.ServeHere(w, r):
		default:
			here.Unavailable(w, r)
		}
	})
}

func (ownersAt) Forwarded(r *http.Request) bool {
	return r.Header.Get(ForwardedHeader) == testClusterSecret
}

// testClusterSecret is the secret of the tests' clusters.
const testClusterSecret = "secret"

// TestForwardMounted: a single node serves a game's requests itself; a
// node of a cluster passes them through the cluster's forwarding, which
// gets the handlers' answer for an owner that does not answer (503) and
// their way of serving a stream from the bus (none here: no bus).
func TestForwardMounted(t *testing.T) {
	router := func(o Owners) http.Handler {
		h := &Handler{log: slog.New(slog.DiscardHandler), owners: o}
		r := chi.NewRouter()
		r.Use(h.limitForms)
		r.Route("/games/{id}", func(r chi.Router) {
			r.Use(h.forward)
			r.Post("/moves", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusAccepted) })
			r.Get("/events", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusAccepted) })
		})
		return r
	}
	other, _ := url.Parse("http://node-b.test")
	for _, tc := range []struct {
		name   string
		o      Owners
		method string
		path   string
		want   int
	}{
		{"single node", nil, http.MethodPost, "/games/7/moves", http.StatusAccepted},
		{"this node owns the game", ownersAt{nil}, http.MethodPost, "/games/7/moves", http.StatusAccepted},
		{"another node owns the game", ownersAt{other}, http.MethodPost, "/games/7/moves", http.StatusServiceUnavailable},
		{"its stream, without a bus", ownersAt{other}, http.MethodGet, "/games/7/events", http.StatusServiceUnavailable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(tc.method, "http://chess.example"+tc.path, strings.NewReader("uci=e2e4&ply=0"))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			rec := httptest.NewRecorder()
			router(tc.o).ServeHTTP(rec, req)
			if rec.Code != tc.want {
				t.Errorf("%s %s = %d, want %d", tc.method, tc.path, rec.Code, tc.want)
			}
		})
	}
}
