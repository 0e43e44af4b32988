package handlers

import (
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"time"

	"satranc/engine/clock"
)

// DefaultLagPing paces a player's game stream's pings to the page, which
// measure the round trip (Config.LagPing): one goes with the stream's next
// event once this has passed since the last, or on its own after twice
// this without one. It is as often as the estimate uses them, its
// clock.LagSamples round trips within clock.LagSampleAge. A page sends
// back only the latest ping with its next move (lagMeter); when each ping
// was echoed by a request of its own, pings every 3 s made two echoes for
// every move at 5,000 games and added 16% to the server's CPU
// (docs/performance.md, "What the server does to get there").
const DefaultLagPing = clock.LagSampleAge / clock.LagSamples

// lagPending is how many pings of one player may await their echo: one
// per open page, give or take; an echo of an older one is not counted.
const lagPending = 4

// lagMeter measures each player's round-trip time to this server, for
// lag compensation (clock.LagCredit): a player's game stream sends a ping
// (views.EventLagPing, with a nonce) every DefaultLagPing or so while the
// game is live, most of them ahead of the stream's events in the same write
// (gameStream.putPingIfDue). The page keeps the latest nonce and sends it
// back with the player's next move, with the milliseconds it held it
// (static/js/board.js); the time between the ping's write and the move's
// arrival, read on the server's own clock, less that hold, is one round
// trip. The page cannot make it shorter than it is (it does not know the
// nonce before the ping arrives), only longer, by holding the nonce longer
// than it says, as it could by echoing late, which the bounds of
// clock.LagCredit keep cheap; a hold longer than the whole time is not
// counted. The nonce riding on the move costs no request of its own: a
// ping echoed by a request of its own (POST /games/{id}/lag?n=…&held=…,
// handleGameLag) took some 8% of the server's CPU at 5,000 games
// (docs/performance.md, "What the server does to get there"). A move then
// carries the estimate (clock.LagEstimator) to the game.
//
// The figures live in memory, per game and player, while the player has
// a stream open: a restart or a new page starts the measurement again,
// with the next ping. With several nodes the measurement is kept on the
// node that serves the stream and the echo; a node that gets a move
// without it gives nothing back. A nil *lagMeter measures nothing
// (lag compensation off).
type lagMeter struct {
	mu      sync.Mutex
	players map[lagKey]*lagPlayer
}

type lagKey struct{ game, user int64 }

// lagPlayer is one player's measurement in one game.
type lagPlayer struct {
	streams int // open streams of the player's pages
	pings   [lagPending]lagPing
	next    int
	est     clock.LagEstimator
}

// lagPing is a ping awaiting its echo.
type lagPing struct {
	nonce string
	sent  time.Time
}

func newLagMeter() *lagMeter {
	return &lagMeter{players: make(map[lagKey]*lagPlayer)}
}

// open notes a stream of user's page of game; close ends it. The
// measurement lasts while one is open.
func (m *lagMeter) open(game, user int64) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	k := lagKey{game, user}
	p := m.players[k]
	if p == nil {
		p = &lagPlayer{}
		m.players[k] = p
	}
	p.streams++
}

func (m *lagMeter) close(game, user int64) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	k := lagKey{game, user}
	if p := m.players[k]; p != nil {
		if p.streams--; p.streams <= 0 {
			delete(m.players, k)
			if len(m.players) == 0 {
				// A map keeps the room it grew to, however few it holds.
				m.players = make(map[lagKey]*lagPlayer)
			}
		}
	}
}

// ping returns the nonce of a ping to user's page of game, sent at now;
// false if the player has no open stream.
func (m *lagMeter) ping(game, user int64, now time.Time) (string, bool) {
	if m == nil {
		return "", false
	}
	nonce := strconv.FormatUint(rand.Uint64(), 36)
	m.mu.Lock()
	defer m.mu.Unlock()
	p := m.players[lagKey{game, user}]
	if p == nil {
		return "", false
	}
	p.pings[p.next] = lagPing{nonce: nonce, sent: now}
	p.next = (p.next + 1) % lagPending
	return nonce, true
}

// echo records the round trip of the ping nonce, sent back by user's page
// of game at now after holding it for held; it reports whether nonce was a
// ping awaiting its echo. Each ping counts once, and not at all with a
// hold longer than the time since the ping.
func (m *lagMeter) echo(game, user int64, nonce string, now time.Time, held time.Duration) bool {
	if m == nil || nonce == "" {
		return false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	p := m.players[lagKey{game, user}]
	if p == nil {
		return false
	}
	for i := range p.pings {
		if pg := p.pings[i]; pg.nonce == nonce {
			p.pings[i] = lagPing{}
			if rtt := now.Sub(pg.sent) - held; held >= 0 && rtt >= 0 {
				p.est.Add(rtt, now)
			}
			return true
		}
	}
	return false
}

// estimate returns user's estimated round trip in game at now, 0 when
// unknown.
func (m *lagMeter) estimate(game, user int64, now time.Time) time.Duration {
	if m == nil {
		return 0
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if p := m.players[lagKey{game, user}]; p != nil {
		return p.est.Estimate(now)
	}
	return 0
}

// handleGameLag takes a page's echo of a ping of its game stream on its
// own, a request of its own: the pages send the nonce with the player's
// next move instead (lagMeter, handleGameMove), and this is the way for a
// client that does not. The nonce is in the address (POST
// /games/{id}/lag?n=…&held=…, held the milliseconds the client held it,
// 0 if absent) and the request has no body: over HTTP/2 a request
// without a body is one frame, where a body is a second one that the
// connection's goroutine hands to the handler's, in a 1 KB buffer that
// x/net gives back to its pool only once it is read to its end, which a
// body of a few bytes never is. Form fields count as well. It answers 204
// whether or not the nonce was awaited, as there is nothing for the page
// to do either way.
func (h *Handler) handleGameLag(w http.ResponseWriter, r *http.Request) {
	now := time.Now() // as early as the handler can read it
	id, err := gameID(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	user, _ := userFrom(r.Context())
	h.lag.echoHeld(id, user.ID, r.FormValue("n"), r.FormValue("held"), now)
	w.WriteHeader(http.StatusNoContent)
}

// echoHeld is echo with the hold as the page sends it: heldMS milliseconds
// in decimal, "" for none. A nonce of "" or a hold that is not a count of
// milliseconds measures nothing.
func (m *lagMeter) echoHeld(game, user int64, nonce, heldMS string, now time.Time) {
	if held, ok := lagHeld(heldMS); ok {
		m.echo(game, user, nonce, now, held)
	}
}

// maxLagHeld bounds the hold a page may report: a ping is due every
// DefaultLagPing, and a page keeps only the latest.
const maxLagHeld = time.Hour

// lagHeld parses the milliseconds a page held a ping's nonce, "" for none.
func lagHeld(ms string) (time.Duration, bool) {
	if ms == "" {
		return 0, true
	}
	n, err := strconv.ParseInt(ms, 10, 64)
	if err != nil || n < 0 || n > maxLagHeld.Milliseconds() {
		return 0, false
	}
	return time.Duration(n) * time.Millisecond, true
}
