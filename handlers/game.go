package handlers

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"satranc/engine/account"
	"satranc/engine/chess"
	"satranc/engine/clock"
	"satranc/engine/game"
	"satranc/engine/live"
	"satranc/engine/play"
	"satranc/views"
)

// Games is what the game pages need of engine/play to play: the table
// chat and the voice chat are GameChat (game_chat.go) and GameVoice
// (game_voice.go).
type Games interface {
	CreatePracticeGame(ctx context.Context, user int64, level game.Level, control clock.Control, color play.ColorChoice) (int64, error)
	CreatePrivateGame(ctx context.Context, user int64, control clock.Control) (int64, string, error)
	JoinPrivateGame(ctx context.Context, user int64, token string) (int64, error)
	Invitation(ctx context.Context, token string) (play.Snapshot, error)
	DeclinePrivateGame(ctx context.Context, user int64, token string) (int64, error)
	Game(ctx context.Context, id int64) (play.Snapshot, error)
	MoveWithLag(ctx context.Context, id, user int64, text string, l chess.Letters, expectedPly int, lag time.Duration) error
	Resign(ctx context.Context, id, user int64) error
	Leave(ctx context.Context, id, user int64) error
	OfferDraw(ctx context.Context, id, user int64) error
	AnswerDraw(ctx context.Context, id, user int64, accept bool) error
	Rematch(ctx context.Context, id, user int64) (int64, error)
	Connected(ctx context.Context, id, user int64) error
	Disconnected(id, user int64)
	PGN(ctx context.Context, id int64, o play.PGNOptions) (string, error)
	Subscribe(gameID int64) *live.Subscription[int64, *play.Event]
}

// Users looks up users by ID, for the players' names shown at a game.
type Users interface {
	UserByID(ctx context.Context, id int64) (account.User, error)
}

// gameID reads the {id} of a game route.
func gameID(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(chi.URLParam(r, "id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, errNotFound
	}
	return id, nil
}

// letters returns the SAN letters of the request's page language.
func letters(ctx context.Context) chess.Letters {
	if views.Lang(ctx) == "tr" {
		return chess.Turkish
	}
	return chess.English
}

// gameView builds the view of snap for the request's user.
func (h *Handler) gameView(r *http.Request, snap play.Snapshot) views.GameView {
	in := h.viewInput(r.Context(), h.baseURL(r), snap, h.seatedPlayers(r.Context(), snap))
	_, playing := snap.SideOf(in.Viewer)
	if playing {
		in.Chat, in.Muted = h.chatFor(r, snap.ID, in.Viewer) // never for spectators
		in.Settlement = h.settlementFor(r.Context(), snap, in.Viewer)
	}
	v := views.NewGameView(snap, in)
	// Players report their opponent; a practice game has only the
	// computer to report (and a private game waiting for the friend
	// nobody: the page hides the report form until the friend comes).
	if playing && h.reports != nil && snap.Kind != play.Practice {
		v.CanReport = true
		v.Reported = h.reportedIn(r, snap.ID, in.Viewer)
	}
	return v
}

// viewInput is what a game view needs besides the snapshot, without the
// chat, for the user and language in ctx; base is the site's address
// (baseURL).
func (h *Handler) viewInput(ctx context.Context, base string, snap play.Snapshot, p players) views.GameViewInput {
	var viewer int64
	if u, ok := userFrom(ctx); ok {
		viewer = u.ID
	}
	return views.GameViewInput{
		Viewer:  viewer,
		Names:   p.names,
		Frames:  p.frames,
		Ratings: p.ratings,
		Letters: letters(ctx),
		BaseURL: base,
		Now:     time.Now(),
		Opening: h.openings.of(snap),
	}
}

// players are the names and the chosen frames of a game's human players,
// by user ID, and their ratings in a rated game. A map with nothing to
// hold is nil (a game's streams keep them for hours: game_players.go),
// and none is written once read.
type players struct {
	names, frames map[int64]string
	ratings       map[int64]int
}

// seatedPlayers reads the names and frames of the human players of snap,
// and their ratings if the game is rated (the player bars show them).
func (h *Handler) seatedPlayers(ctx context.Context, snap play.Snapshot) players {
	var p players
	rated := (snap.Kind == play.Quick || snap.Kind == play.Lounge) && !snap.Unstaked
	for _, seat := range []game.Seat{snap.White, snap.Black} {
		if !seat.IsHuman() {
			continue
		}
		u, err := h.users.UserByID(ctx, seat.User)
		if err != nil {
			h.log.WarnContext(ctx, "player name", "user", seat.User, "err", err)
			continue
		}
		p.names = setIn(p.names, seat.User, u.Name)
		if frame := u.Look.Normal().Frame; frame != "" {
			p.frames = setIn(p.frames, seat.User, frame)
		}
		if rated && h.profiles != nil {
			rating, err := h.profiles.Rating(ctx, seat.User)
			if err != nil {
				h.log.WarnContext(ctx, "player rating", "user", seat.User, "err", err)
				continue
			}
			p.ratings = setIn(p.ratings, seat.User, rating)
		}
	}
	return p
}

// setIn sets m[k] to v, making m (for two players) if it is nil.
func setIn[V any](m map[int64]V, k int64, v V) map[int64]V {
	if m == nil {
		m = make(map[int64]V, 2)
	}
	m[k] = v
	return m
}

// pageView is gameView for the whole game page, which also has the voice
// chat: whether the player may speak is read afresh at every page.
func (h *Handler) pageView(r *http.Request, snap play.Snapshot) views.GameView {
	v := h.gameView(r, snap)
	if !v.Voice.Open {
		return v
	}
	v.Voice.ICEServers = h.iceServers
	user, _ := userFrom(r.Context())
	can, err := h.voice.CanSpeak(r.Context(), user.ID)
	if err != nil {
		h.log.WarnContext(r.Context(), "voice: can speak", "user", user.ID, "err", err) // listening still works
	}
	v.Voice.CanSpeak = can
	return v
}

// baseURL is the server's own address for links to share: the configured
// base URL, or the address the browser reached.
func (h *Handler) baseURL(r *http.Request) string {
	if h.base != nil {
		return h.base.String()
	}
	scheme := "http"
	if isSecure(r) {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

func (h *Handler) handleNewGame(w http.ResponseWriter, r *http.Request) {
	h.render(w, r, http.StatusOK, views.NewGamePage(clock.Offered, nil))
}

// routeGame reads the game of the route, or answers the error and reports
// false.
func (h *Handler) routeGame(w http.ResponseWriter, r *http.Request) (play.Snapshot, bool) {
	id, err := gameID(r)
	if err == nil {
		var snap play.Snapshot
		if snap, err = h.games.Game(r.Context(), id); err == nil {
			return snap, true
		}
	}
	h.fail(w, r, err)
	return play.Snapshot{}, false
}

// gamePath returns the page of game id, in the request's language.
func gamePath(r *http.Request, id int64) string {
	return views.Action(r.Context(), "/games/"+strconv.FormatInt(id, 10))
}

func (h *Handler) handleGameShow(w http.ResponseWriter, r *http.Request) {
	snap, ok := h.routeGame(w, r)
	if !ok {
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	h.render(w, r, http.StatusOK, views.GamePage(h.pageView(r, snap), nil))
}

func (h *Handler) handlePracticeCreate(w http.ResponseWriter, r *http.Request) {
	user, _ := userFrom(r.Context())
	if err := h.createLimit.allowUser(r); err != nil {
		h.failNewGame(w, r, err)
		return
	}
	level, err1 := game.ParseLevel(r.PostFormValue("level"))
	control, err2 := clock.ParseControl(r.PostFormValue("control"))
	color, err3 := play.ParseColorChoice(r.PostFormValue("color"))
	if err := errors.Join(err1, err2, err3); err != nil || level == game.NoBot {
		h.failNewGame(w, r, errors.Join(errBadRequest, err))
		return
	}
	id, err := h.games.CreatePracticeGame(r.Context(), user.ID, level, control, color)
	if err != nil {
		h.failNewGame(w, r, err)
		return
	}
	http.Redirect(w, r, gamePath(r, id), http.StatusSeeOther)
}

func (h *Handler) handlePrivateCreate(w http.ResponseWriter, r *http.Request) {
	user, _ := userFrom(r.Context())
	if err := h.createLimit.allowUser(r); err != nil {
		h.failNewGame(w, r, err)
		return
	}
	control, err := clock.ParseControl(r.PostFormValue("control"))
	if err != nil || !control.Timed() {
		h.failNewGame(w, r, errors.Join(errBadRequest, err))
		return
	}
	id, _, err := h.games.CreatePrivateGame(r.Context(), user.ID, control)
	if err != nil {
		h.failNewGame(w, r, err)
		return
	}
	http.Redirect(w, r, gamePath(r, id), http.StatusSeeOther)
}

// failNewGame shows the new-game page again with the error, or the error
// page for a failure that the form cannot fix.
func (h *Handler) failNewGame(w http.ResponseWriter, r *http.Request, err error) {
	resp := responseFor(err)
	if resp.status >= 500 {
		h.fail(w, r, err)
		return
	}
	setRetryAfter(w, resp.retry)
	h.render(w, r, resp.status, views.NewGamePage(clock.Offered, &resp.msg))
}

// handleInviteJoin seats the friend who accepts a private game's
// invitation; anyone else who accepts after the seat is taken watches.
// Accepting counts against the creation limit, as it starts a game: a
// refused attempt, with a token right or wrong, counted too, so that
// neither a flood of joins nor a search for tokens can go fast.
func (h *Handler) handleInviteJoin(w http.ResponseWriter, r *http.Request) {
	user, _ := userFrom(r.Context())
	if err := h.createLimit.allowUser(r); err != nil {
		h.fail(w, r, err)
		return
	}
	token := strings.TrimSpace(chi.URLParam(r, "token"))
	id, err := h.games.JoinPrivateGame(r.Context(), user.ID, token)
	if err != nil && !(errors.Is(err, game.ErrSeatTaken) && id > 0) {
		h.fail(w, r, err)
		return
	}
	http.Redirect(w, r, gamePath(r, id), http.StatusSeeOther)
}

// gameRoutes registers the game pages. Starting, joining and playing
// need a logged-in user (the invitation page, open to guests too, is in
// invite.go); watching does not: as on lichess, anyone may follow a game
// in progress and read a finished one, through the GETs of /games/{id}
// (the page, its stream, a past position, the PGN, the result panel).
// A guest is a spectator without a user: no chat, voice, report or
// controls (gameView gives those to players only), and a private game's
// invitation stays with its creator (views.NewGameView), so sharing the
// game's own address shows the game and nothing that lets one sit down.
func (h *Handler) gameRoutes(r chi.Router) {
	r.Group(func(r chi.Router) {
		r.Use(h.requireUser)
		r.Get("/play", h.handleNewGame)
		r.Post("/games/practice", h.handlePracticeCreate)
		r.Post("/games/private", h.handlePrivateCreate)
		r.With(h.forward).Post("/invite/{token}", h.handleInviteJoin)
		r.With(h.forward).Post("/invite/{token}/decline", h.handleInviteDecline)
	})
	r.Route("/games/{id}", func(r chi.Router) {
		r.Use(h.forward)
		r.Get("/", h.handleGameShow)
		r.Get("/events", h.handleGameEvents)
		r.Get("/pgn", h.handleGamePGN)
		r.Get("/position", h.handleGamePosition)
		r.Get("/result", h.handleGameResult)
		r.Group(func(r chi.Router) {
			r.Use(h.requireUser)
			r.Post("/moves", h.handleGameMove)
			if h.lag != nil {
				r.Post("/lag", h.handleGameLag)
			}
			r.Post("/resign", h.handleGameResign())
			r.Post("/leave", h.handleGameLeave())
			r.Post("/draw", h.handleGameDrawOffer())
			r.Post("/draw/answer", h.handleGameDrawAnswer())
			r.Post("/rematch", h.handleGameRematch)
			r.Post("/chat", h.handleGameChat)
			r.Post("/chat/mute", h.handleGameChatMute)
			r.Post("/voice", h.handleGameVoice)
			if h.reports != nil {
				r.Post("/report", h.handleGameReport)
			}
		})
	})
}
