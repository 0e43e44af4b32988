package store

import (
	"sync"
	"time"

	"satranc/engine/account"
)

// sessionCacheFresh is how long a session's user, once read, answers the
// requests of that session without reading the database again.
const sessionCacheFresh = 30 * time.Second

// sessionCache keeps the users of the sessions read lately. Every request
// of a signed-in member reads its session's user, and at 5,000 games
// (some 1,000 moves a second) that read was more than half of what the
// server spent on requests and 9% of all its CPU (docs/performance.md,
// "The move path"): a player's next move comes seconds after the last.
//
// This Store forgets a user's sessions whenever it writes what a session
// reads (the profile, the sound, the look, a flag, a logout), so that its
// own process never sees an old value. Another process writing the same
// database (`satranc admin`, the other nodes of a cluster) is seen once
// the entry is sessionCacheFresh old: a logout on another node, or
// an administrator's rights taken away from the command line, take up to
// that long to reach this one.
type sessionCache struct {
	mu      sync.Mutex
	entries map[string]cachedSession // by token hash
	// gen counts the forgets, so that a read of the database that a
	// forget overtook does not put back what it read (put).
	gen   uint64
	swept time.Time
	// sweeps is the timer of the next sweep while the cache holds
	// entries, nil while it holds none: swept only as sessions come in,
	// the cache would keep a busy hour's users after the site went quiet.
	sweeps *time.Timer
}

// cachedSession is one session's user, as read at read.
type cachedSession struct {
	user    account.User
	expires time.Time // the session's own end
	read    time.Time
}

// get returns the user of the session of tokenHash if it was read less
// than sessionCacheFresh before now and has not expired; else it returns
// the generation that put must be given with the user read instead.
func (c *sessionCache) get(tokenHash []byte, now time.Time) (u account.User, ok bool, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, found := c.entries[string(tokenHash)]
	if found && now.Sub(e.read) < sessionCacheFresh && now.Before(e.expires) {
		return e.user, true, 0
	}
	return account.User{}, false, c.gen
}

// put keeps u as the user of the session of tokenHash, read at now, unless
// something was forgotten since get returned gen. Entries older than
// sessionCacheFresh are swept out as it goes, so that the cache holds only
// the sessions of the last minute or so.
func (c *sessionCache) put(tokenHash []byte, u account.User, expires time.Time, gen uint64, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	if now.Sub(c.swept) >= sessionCacheFresh {
		c.sweep(now)
	}
	if c.entries == nil {
		c.entries = make(map[string]cachedSession)
	}
	c.entries[string(tokenHash)] = cachedSession{user: u, expires: expires, read: now}
	if c.sweeps == nil {
		c.sweeps = time.AfterFunc(sessionCacheFresh, c.sweepLater)
	}
}

// sweep drops the entries read sessionCacheFresh or longer before now;
// c.mu is held.
func (c *sessionCache) sweep(now time.Time) {
	for k, e := range c.entries {
		if now.Sub(e.read) >= sessionCacheFresh {
			delete(c.entries, k)
		}
	}
	if len(c.entries) == 0 {
		c.entries = nil // a map keeps the room it grew to: the next put makes one anew
	}
	c.swept = now
}

// sweepLater is the timer's sweep, which runs again while entries are
// left.
func (c *sessionCache) sweepLater() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sweep(time.Now())
	if len(c.entries) > 0 {
		c.sweeps.Reset(sessionCacheFresh)
	} else {
		c.sweeps = nil
	}
}

// forget drops the session of tokenHash.
func (c *sessionCache) forget(tokenHash []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	delete(c.entries, string(tokenHash))
}

// forgetUser drops every session of user id.
func (c *sessionCache) forgetUser(id int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	for k, e := range c.entries {
		if e.user.ID == id {
			delete(c.entries, k)
		}
	}
}

// forgetAll drops every session.
func (c *sessionCache) forgetAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	clear(c.entries)
}
