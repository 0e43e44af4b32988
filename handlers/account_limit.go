package handlers

import (
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// RateLimit is a token bucket: Burst attempts at once, then one more every
// Every.
type RateLimit struct {
	Every time.Duration
	Burst int
}

// DefaultAuthLimit allows a client address 10 log-in (or sign-up) attempts
// at once, then one every 20 seconds.
var DefaultAuthLimit = RateLimit{Every: 20 * time.Second, Burst: 10}

// DefaultMoveLimit allows a player 20 move attempts at once, then four a
// second, across all their games: more than anyone types or clicks, so
// that only a script flooding the server meets it.
var DefaultMoveLimit = RateLimit{Every: 250 * time.Millisecond, Burst: 20}

// DefaultCreateLimit allows a user 20 requests that create work at once
// (a practice or private game, joining one by its invitation, a rematch,
// a place in a queue), then one every 3 seconds: each game holds a
// writer, a bot may search for it, and a queue place takes part in every
// pairing, so a script must not make them by the thousand, while no one
// playing meets the limit.
var DefaultCreateLimit = RateLimit{Every: 3 * time.Second, Burst: 20}

// maxLimitedClients bounds the memory of an addrLimiter; when it is full of
// active clients, new ones are refused until some go idle.
const maxLimitedClients = 100_000

// addrLimiter limits attempts per client address. Idle entries are swept
// when a new client comes after a while, and by a timer while any are
// held (idle_sweep.go). Addresses come from r.RemoteAddr, which fromProxy
// sets to the client's address behind a trusted proxy.
type addrLimiter struct {
	limit  RateLimit
	now    func() time.Time // tests may replace it
	sweeps *sweepTimer

	mu        sync.Mutex
	clients   map[string]*limitedClient
	lastSweep time.Time
}

// limitedClient is one address's bucket and when it was last used.
type limitedClient struct {
	bucket *rate.Limiter
	seen   time.Time
}

// newAddrLimiter returns an empty limiter with limit.
func newAddrLimiter(limit RateLimit) *addrLimiter {
	a := &addrLimiter{limit: limit, now: time.Now, clients: map[string]*limitedClient{}}
	a.sweeps = newSweepTimer(a.idle(), a.sweepIdle)
	return a
}

// idle is how long an unused bucket takes to fill up again, after which
// forgetting it changes nothing.
func (a *addrLimiter) idle() time.Duration {
	return max(a.limit.Every*time.Duration(a.limit.Burst), time.Minute)
}

// allow takes one attempt for r's client, or returns a *rateLimitedError
// saying when the next attempt is allowed.
func (a *addrLimiter) allow(r *http.Request) error {
	return a.allowKey(clientKey(r.RemoteAddr))
}

// allowUser takes one attempt for the user of r's session, or returns a
// *rateLimitedError saying when the next attempt is allowed.
func (a *addrLimiter) allowUser(r *http.Request) error {
	user, _ := userFrom(r.Context())
	return a.allowKey(strconv.FormatInt(user.ID, 10))
}

// allowKey takes one attempt for key, which need not be an address (the
// move limit counts per user), or returns a *rateLimitedError saying when
// the next attempt is allowed.
func (a *addrLimiter) allowKey(key string) error {
	added, err := a.take(key)
	if added {
		a.sweeps.arm()
	}
	return err
}

// take takes one attempt for key, as allowKey does, and reports whether
// key is new.
func (a *addrLimiter) take(key string) (added bool, err error) {
	now := a.now()
	a.mu.Lock()
	defer a.mu.Unlock()
	c := a.clients[key]
	if c == nil {
		if now.Sub(a.lastSweep) >= a.idle() || len(a.clients) >= maxLimitedClients {
			a.sweep(now)
		}
		if len(a.clients) >= maxLimitedClients {
			return false, &rateLimitedError{retry: a.limit.Every}
		}
		c = &limitedClient{bucket: rate.NewLimiter(rate.Every(a.limit.Every), a.limit.Burst)}
		a.clients[key] = c
		added = true
	}
	c.seen = now
	res := c.bucket.ReserveN(now, 1)
	if !res.OK() {
		return added, &rateLimitedError{retry: a.limit.Every}
	}
	if d := res.DelayFrom(now); d > 0 {
		res.CancelAt(now)
		return added, &rateLimitedError{retry: d}
	}
	return added, nil
}

// sweepIdle is the sweep of a.sweeps: it forgets the idle clients and
// reports whether any are left.
func (a *addrLimiter) sweepIdle() (left bool) {
	now := a.now()
	a.mu.Lock()
	defer a.mu.Unlock()
	a.sweep(now)
	return len(a.clients) > 0
}

// sweep forgets the clients idle long enough to have a full bucket; a.mu
// is held.
func (a *addrLimiter) sweep(now time.Time) {
	a.lastSweep = now
	idle := a.idle()
	for k, c := range a.clients {
		if now.Sub(c.seen) >= idle {
			delete(a.clients, k)
		}
	}
	if len(a.clients) == 0 {
		a.clients = map[string]*limitedClient{} // without the room the old one grew to
	}
}

// clientKey returns the limiting key of a remote address: the IPv4
// address, or the /64 network of an IPv6 address (one subscriber usually
// holds a whole /64).
func clientKey(remoteAddr string) string {
	host, _, err := net.SplitHostPort(remoteAddr)
	if err != nil {
		host = remoteAddr
	}
	addr, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	addr = addr.Unmap()
	if addr.Is6() {
		if p, err := addr.Prefix(64); err == nil {
			return p.String()
		}
	}
	return addr.String()
}
