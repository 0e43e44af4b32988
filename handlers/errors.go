package handlers

import (
	"bytes"
	"context"
	"errors"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/a-h/templ"

	"satranc/engine/account"
	"satranc/engine/chat"
	"satranc/engine/chess"
	"satranc/engine/chips"
	"satranc/engine/clock"
	"satranc/engine/cosmetics"
	"satranc/engine/fairplay"
	"satranc/engine/game"
	"satranc/engine/lobby"
	"satranc/engine/play"
	"satranc/engine/tourney"
	"satranc/engine/voice"
	"satranc/views"
)

// Errors the handlers themselves produce. Engine and store errors are
// mapped in responseFor as well.
var (
	errNotFound    = errors.New("handlers: not found")
	errUnavailable = errors.New("handlers: service unavailable")
	errBadRequest  = errors.New("handlers: bad request")
	errCrossOrigin = errors.New("handlers: cross-origin request refused")
	errTooLarge    = errors.New("handlers: request body too large")
	// errMethodNotAllowed: the path is a route, but not for the method.
	errMethodNotAllowed = errors.New("handlers: method not allowed")
	// errTooManyAttempts is matched by every *rateLimitedError.
	errTooManyAttempts = errors.New("handlers: too many attempts")
)

// rateLimitedError is a refused attempt, with how long until the next one
// is allowed.
type rateLimitedError struct{ retry time.Duration }

func (e *rateLimitedError) Error() string {
	return "handlers: too many attempts; retry in " + e.retry.String()
}

func (e *rateLimitedError) Unwrap() error { return errTooManyAttempts }

// overloadRetry is the Retry-After of a request refused because the
// server's own deadline passed.
const overloadRetry = time.Second

// errorResponse is how an error is answered.
type errorResponse struct {
	status int
	msg    views.Message
	// form is set for problems the user can fix on the form they sent,
	// which is then shown again with the message.
	form bool
	// retry is the Retry-After of a 429 or a 503.
	retry time.Duration
}

// responseFor maps err to its response: a status and a message that is
// safe to show. Anything not recognised is a 500 whose details stay in the
// log.
func responseFor(err error) errorResponse {
	form := func(status int, id string) errorResponse {
		return errorResponse{status: status, msg: views.Message{ID: id}, form: true}
	}
	var limited *rateLimitedError
	var refused *streamRefusedError
	switch {
	case errors.As(err, &refused):
		id := "error.too_many_streams"
		if refused.reason == streamCapTotal {
			id = "error.streams_busy"
		}
		return errorResponse{status: http.StatusTooManyRequests, msg: views.Message{ID: id}, retry: streamRetry}
	case errors.As(err, &limited):
		secs := int(math.Ceil(limited.retry.Seconds()))
		return errorResponse{
			status: http.StatusTooManyRequests,
			msg:    views.Message{ID: "error.too_many_attempts", Count: secs, Plural: true},
			form:   true,
			retry:  limited.retry,
		}
	case errors.Is(err, account.ErrUsernameTaken):
		return form(http.StatusConflict, "error.username_taken")
	case errors.Is(err, account.ErrUsernameInvalid):
		return form(http.StatusUnprocessableEntity, "error.username_invalid")
	case errors.Is(err, account.ErrPasswordTooShort):
		return form(http.StatusUnprocessableEntity, "error.password_too_short")
	case errors.Is(err, account.ErrPasswordTooLong):
		return form(http.StatusUnprocessableEntity, "error.password_too_long")
	case errors.Is(err, account.ErrPasswordIsUsername):
		return form(http.StatusUnprocessableEntity, "error.password_is_username")
	case errors.Is(err, account.ErrBadCredentials):
		return form(http.StatusUnprocessableEntity, "error.bad_credentials")
	case errors.Is(err, account.ErrInvalidProfile):
		return form(http.StatusUnprocessableEntity, "error.profile_invalid")
	case errors.Is(err, cosmetics.ErrNotOwned):
		return form(http.StatusForbidden, "error.cosmetics.not_owned")
	case errors.Is(err, cosmetics.ErrUnknownItem):
		return form(http.StatusUnprocessableEntity, "error.cosmetics.unknown")
	case errors.Is(err, game.ErrStalePly):
		return form(http.StatusConflict, "error.game.stale")
	case errors.Is(err, game.ErrNotYourTurn):
		return form(http.StatusConflict, "error.game.not_your_turn")
	case errors.Is(err, game.ErrGameOver), errors.Is(err, chess.ErrMoveAfterEnd):
		return form(http.StatusConflict, "error.game.over")
	case errors.Is(err, game.ErrNotStarted):
		return form(http.StatusConflict, "error.game.not_started")
	case errors.Is(err, chess.ErrAmbiguousSAN):
		return form(http.StatusUnprocessableEntity, "error.game.ambiguous")
	case errors.Is(err, chess.ErrIllegalMove):
		return form(http.StatusUnprocessableEntity, "error.game.illegal")
	case errors.Is(err, chess.ErrInvalidSAN), errors.Is(err, chess.ErrInvalidUCI):
		return form(http.StatusUnprocessableEntity, "error.game.unreadable")
	case errors.Is(err, game.ErrDrawNotAllowed):
		return form(http.StatusConflict, "error.game.draw_not_allowed")
	case errors.Is(err, game.ErrNoDrawOffer):
		return form(http.StatusConflict, "error.game.no_draw_offer")
	case errors.Is(err, game.ErrSeatTaken):
		return errorResponse{status: http.StatusConflict, msg: views.Message{ID: "error.game.seat_taken"}}
	case errors.Is(err, chat.ErrFlood):
		return errorResponse{status: http.StatusTooManyRequests, msg: views.Message{ID: "chat.flood"}, form: true, retry: chat.Window}
	case errors.Is(err, chat.ErrEmpty):
		return form(http.StatusUnprocessableEntity, "chat.empty")
	case errors.Is(err, chat.ErrTooLong):
		return form(http.StatusUnprocessableEntity, "chat.too_long")
	case errors.Is(err, chat.ErrInvalid):
		return form(http.StatusUnprocessableEntity, "chat.invalid")
	case errors.Is(err, voice.ErrNotVIP):
		return errorResponse{status: http.StatusForbidden, msg: views.Message{ID: "voice.not_vip"}}
	case errors.Is(err, voice.ErrInvalid):
		return errorResponse{status: http.StatusUnprocessableEntity, msg: views.Message{ID: "voice.invalid"}}
	case errors.Is(err, voice.ErrFlood):
		return errorResponse{status: http.StatusTooManyRequests, msg: views.Message{ID: "voice.flood"}, retry: voice.Window}
	case errors.Is(err, voice.ErrClosed):
		return errorResponse{status: http.StatusConflict, msg: views.Message{ID: "voice.closed"}}
	case errors.Is(err, play.ErrNotPlayer):
		return errorResponse{status: http.StatusForbidden, msg: views.Message{ID: "error.game.not_player"}}
	case errors.Is(err, play.ErrNoBots), errors.Is(err, play.ErrNotOwner):
		return errorResponse{status: http.StatusServiceUnavailable, msg: views.Message{ID: "error.unavailable"}}
	case errors.Is(err, play.ErrNotFound), errors.Is(err, tourney.ErrInvalid):
		return errorResponse{status: http.StatusNotFound, msg: views.Message{ID: "error.not_found"}}
	case errors.Is(err, play.ErrInvalid), errors.Is(err, game.ErrInvalid), errors.Is(err, clock.ErrInvalidControl):
		return form(http.StatusUnprocessableEntity, "error.bad_request")
	case errors.Is(err, fairplay.ErrInvalidReason):
		return form(http.StatusUnprocessableEntity, "report.reason_invalid")
	case errors.Is(err, fairplay.ErrAlreadyVoided):
		return form(http.StatusConflict, "admin.void.already")
	case errors.Is(err, fairplay.ErrNotVoidable):
		return form(http.StatusConflict, "admin.void.not_voidable")
	case errors.Is(err, fairplay.ErrInvalidGrant):
		return form(http.StatusUnprocessableEntity, "admin.grant.invalid_amount")
	case errors.Is(err, chips.ErrOverflow):
		return form(http.StatusUnprocessableEntity, "admin.grant.overflow")
	case errors.Is(err, chips.ErrInsufficientBalance):
		return form(http.StatusForbidden, "error.lobby.not_enough_chips")
	case errors.Is(err, chips.ErrReserved):
		return form(http.StatusForbidden, "error.lobby.reserved")
	case errors.Is(err, lobby.ErrRestricted):
		return form(http.StatusForbidden, "error.lobby.restricted")
	case errors.Is(err, lobby.ErrStarting):
		return form(http.StatusConflict, "error.lobby.starting")
	case errors.Is(err, lobby.ErrUnknownTable):
		return form(http.StatusUnprocessableEntity, "error.bad_request")
	case errors.Is(err, lobby.ErrClosed):
		return errorResponse{status: http.StatusServiceUnavailable, msg: views.Message{ID: "error.unavailable"}}
	case errors.Is(err, errCrossOrigin):
		return errorResponse{status: http.StatusForbidden, msg: views.Message{ID: "error.cross_origin"}}
	case errors.Is(err, errTooLarge):
		return errorResponse{status: http.StatusRequestEntityTooLarge, msg: views.Message{ID: "error.too_large"}}
	case errors.Is(err, errBadRequest):
		return errorResponse{status: http.StatusBadRequest, msg: views.Message{ID: "error.bad_request"}}
	case errors.Is(err, errMethodNotAllowed):
		return errorResponse{status: http.StatusMethodNotAllowed, msg: views.Message{ID: "error.method_not_allowed"}}
	case errors.Is(err, errNotFound), errors.Is(err, account.ErrNotFound):
		return errorResponse{status: http.StatusNotFound, msg: views.Message{ID: "error.not_found"}}
	case errors.Is(err, errUnavailable):
		return errorResponse{status: http.StatusServiceUnavailable, msg: views.Message{ID: "error.unavailable"}}
	case errors.Is(err, context.DeadlineExceeded):
		// The server's own deadline passed (a store write waited too long
		// under load): nothing was done, and the same request may succeed
		// in a moment. A client gone away is context.Canceled instead.
		return errorResponse{status: http.StatusServiceUnavailable, msg: views.Message{ID: "error.unavailable"}, retry: overloadRetry}
	default:
		return errorResponse{status: http.StatusInternalServerError, msg: views.Message{ID: "error.internal"}}
	}
}

// fail writes the error page for err. Server-side errors are logged with
// the request; the browser sees only the generic text.
func (h *Handler) fail(w http.ResponseWriter, r *http.Request, err error) {
	resp := responseFor(err)
	if resp.status >= 500 {
		if errors.Is(err, context.Canceled) && r.Context().Err() != nil {
			// The client went away; there is nobody to answer, and no
			// page to render (its render would fail on the same context).
			h.log.DebugContext(r.Context(), "request canceled", "method", r.Method, "path", r.URL.Path)
			w.WriteHeader(resp.status)
			return
		}
		h.log.ErrorContext(r.Context(), "request failed",
			"method", r.Method, "path", r.URL.Path, "status", resp.status, "err", err)
	}
	setRetryAfter(w, resp.retry)
	w.Header().Set("Cache-Control", "no-store")
	var buf bytes.Buffer
	if rerr := views.ErrorPage(resp.status, resp.msg).Render(r.Context(), &buf); rerr != nil {
		h.log.ErrorContext(r.Context(), "render error page", "err", rerr)
		http.Error(w, http.StatusText(resp.status), resp.status)
		return
	}
	writeHTML(w, resp.status, buf.Bytes())
}

// failForm answers a form submission that failed. When the user can fix
// the problem, form builds the page again with the message; anything else
// goes to fail.
func (h *Handler) failForm(w http.ResponseWriter, r *http.Request, err error, form func(*views.Message) templ.Component) {
	resp := responseFor(err)
	if !resp.form {
		h.fail(w, r, err)
		return
	}
	setRetryAfter(w, resp.retry)
	w.Header().Set("Cache-Control", "no-store")
	h.render(w, r, resp.status, form(&resp.msg))
}

// setRetryAfter sets the Retry-After header in whole seconds, if d > 0.
func setRetryAfter(w http.ResponseWriter, d time.Duration) {
	if d > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(d.Seconds()))))
	}
}

func (h *Handler) handleNotFound(w http.ResponseWriter, r *http.Request) {
	h.fail(w, r, errNotFound)
}
