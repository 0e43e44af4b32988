package handlers

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"

	"satranc/engine/chess"
	"satranc/engine/play"
	"satranc/views"
)

// isHTMX reports whether htmx sent the request: it then gets a fragment or
// nothing instead of a page.
func isHTMX(r *http.Request) bool { return r.Header.Get("HX-Request") == "true" }

// handleGameMove plays a move: uci from the board, or a typed move (SAN in
// English or Turkish letters, or UCI). ply must be the game's current ply,
// so that a repeated request is refused rather than played twice. Each
// player has DefaultMoveLimit attempts (Config.MoveLimit). The fields come
// in the address (the board's script posts a move without a body) or in a
// form's body (the page without JavaScript).
func (h *Handler) handleGameMove(w http.ResponseWriter, r *http.Request) {
	now := time.Now() // the move's arrival, for the lag ping it may carry
	id, err := gameID(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	user, _ := userFrom(r.Context())
	// The latest lag ping of the player's stream rides on the move (fields
	// lag and held); a move without one, or with a bad hold, is played all
	// the same.
	h.lag.echoHeld(id, user.ID, r.FormValue("lag"), r.FormValue("held"), now)
	text := strings.TrimSpace(r.FormValue("uci"))
	if text == "" {
		text = strings.TrimSpace(r.FormValue("move"))
	}
	ply, perr := strconv.Atoi(r.FormValue("ply"))
	if perr != nil || text == "" {
		err = errBadRequest
	} else if err = h.moveLimit.allowUser(r); err == nil {
		// A refused attempt counted too: a flood of bad moves takes the
		// game's lock all the same.
		// The player's measured round trip is given back on their
		// clock, within bounds (lag.go).
		lag := h.lag.estimate(id, user.ID, now)
		err = h.games.MoveWithLag(r.Context(), id, user.ID, text, letters(r.Context()), ply, lag)
	}
	h.answerGameForm(w, r, id, err, views.MoveError, views.GamePage)
}

// answerGameForm answers a form posted at game id (a move, a chat line):
// success as afterAction does; a refusal the player can fix goes back as a
// fragment for htmx, or as the game page that show builds with the message;
// anything else goes to fail.
func (h *Handler) answerGameForm(w http.ResponseWriter, r *http.Request, id int64, err error,
	fragment func(views.Message) templ.Component, show func(views.GameView, *views.Message) templ.Component) {
	if err == nil {
		h.afterAction(w, r, id)
		return
	}
	resp := responseFor(err)
	if resp.status >= 500 || !resp.form {
		h.fail(w, r, err)
		return
	}
	setRetryAfter(w, resp.retry)
	if isHTMX(r) {
		h.render(w, r, resp.status, fragment(resp.msg))
		return
	}
	snap, serr := h.games.Game(r.Context(), id)
	if serr != nil {
		h.fail(w, r, serr)
		return
	}
	h.render(w, r, resp.status, show(h.pageView(r, snap), &resp.msg))
}

// afterAction answers a successful action: htmx needs nothing (the event
// stream shows the change), a plain form goes back to the game.
func (h *Handler) afterAction(w http.ResponseWriter, r *http.Request, id int64) {
	if isHTMX(r) {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	http.Redirect(w, r, gamePath(r, id), http.StatusSeeOther)
}

// gameAction runs one of the player's actions on the game of the route.
func (h *Handler) gameAction(act func(r *http.Request, id, user int64) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, err := gameID(r)
		if err != nil {
			h.fail(w, r, err)
			return
		}
		user, _ := userFrom(r.Context())
		if err := act(r, id, user.ID); err != nil {
			h.fail(w, r, err)
			return
		}
		h.afterAction(w, r, id)
	}
}

func (h *Handler) handleGameResign() http.HandlerFunc {
	return h.gameAction(func(r *http.Request, id, user int64) error { return h.games.Resign(r.Context(), id, user) })
}

func (h *Handler) handleGameLeave() http.HandlerFunc {
	return h.gameAction(func(r *http.Request, id, user int64) error { return h.games.Leave(r.Context(), id, user) })
}

// handleGameDrawOffer and handleGameDrawAnswer count against the move
// limit: a flood of offers, refused or not, takes the game's writer as
// moves do.
func (h *Handler) handleGameDrawOffer() http.HandlerFunc {
	return h.gameAction(func(r *http.Request, id, user int64) error {
		if err := h.moveLimit.allowUser(r); err != nil {
			return err
		}
		return h.games.OfferDraw(r.Context(), id, user)
	})
}

func (h *Handler) handleGameDrawAnswer() http.HandlerFunc {
	return h.gameAction(func(r *http.Request, id, user int64) error {
		if err := h.moveLimit.allowUser(r); err != nil {
			return err
		}
		switch r.PostFormValue("accept") {
		case "yes":
			return h.games.AnswerDraw(r.Context(), id, user, true)
		case "no":
			return h.games.AnswerDraw(r.Context(), id, user, false)
		}
		return errBadRequest
	})
}

// handleGameRematch asks for a rematch; once both players asked (or at
// once against the computer) it opens the new game.
func (h *Handler) handleGameRematch(w http.ResponseWriter, r *http.Request) {
	id, err := gameID(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	user, _ := userFrom(r.Context())
	err = h.createLimit.allowUser(r)
	var newID int64
	if err == nil {
		newID, err = h.games.Rematch(r.Context(), id, user.ID)
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	if newID == 0 {
		h.afterAction(w, r, id)
		return
	}
	http.Redirect(w, r, gamePath(r, newID), http.StatusSeeOther)
}

// handleGamePGN downloads the game as PGN with [%clk] comments.
func (h *Handler) handleGamePGN(w http.ResponseWriter, r *http.Request) {
	snap, ok := h.routeGame(w, r)
	if !ok {
		return
	}
	id := snap.ID
	v := h.gameView(r, snap)
	o := playPGNOptions(r, v)
	h.addPGNRatings(r.Context(), snap, &o)
	pgn, err := h.games.PGN(r.Context(), id, o)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/x-chess-pgn; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="satranc-`+strconv.FormatInt(id, 10)+`.pgn"`)
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write([]byte(pgn))
}

// playPGNOptions names the players as the page shows them: a bot at a
// public table by its ordinary player name, as bots are not labelled there
// (SPEC section 6), and in a practice game as the computer. The letters
// are English, as PGN files usually are, unless ?letters=tr asks for
// Turkish.
func playPGNOptions(r *http.Request, v views.GameView) play.PGNOptions {
	o := play.PGNOptions{Site: "Satranç"}
	if r.URL.Query().Get("letters") == "tr" {
		o.Letters = chess.Turkish
	}
	for _, p := range []views.PlayerView{v.Top, v.Bottom} {
		name := p.Name
		if p.IsBot {
			name = p.BotName // "" in a practice game: "Computer (level)"
		}
		if p.Side == chess.White {
			o.White = name
		} else {
			o.Black = name
		}
	}
	return o
}
