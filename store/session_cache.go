package store

import (
	"slices"
	"sync"
	"time"

	"satranc/engine/account"
)

const (
	// sessionCacheFresh is how long a session's user, once read, answers
	// the requests of that session before it is read again: the longest a
	// change made outside any store (SQL typed by hand) takes to show.
	sessionCacheFresh = 10 * time.Minute
	// sessionCacheIdle is how long an entry nobody asked for is kept.
	sessionCacheIdle = time.Minute
	// sessionChangesEvery is how often the cache reads the log of changes
	// (session_changes) while sessions are asked for.
	sessionChangesEvery = time.Second
	// sessionChangesOverlap is how far back before its previous read each
	// read of the log looks again: a change whose time was taken before a
	// slower commit, or written by a node whose clock runs behind, is not
	// missed.
	sessionChangesOverlap = 30 * time.Second
	// sessionChangesTimeout bounds a read of the log; one that fails
	// has the cache forget every session.
	sessionChangesTimeout = 5 * time.Second
	// sessionChangesKept is how long the log keeps a change. A cache that
	// has not read the log for sessionChangesKept-sessionChangesOverlap
	// forgets every session instead.
	sessionChangesKept = time.Hour
)

// sessionCache keeps the users of the sessions read lately. Every request
// of a signed-in member reads its session's user, and at 5,000 games
// (some 1,000 moves a second) that read was more than half of what the
// server spent on requests and 9% of all its CPU (docs/performance.md,
// "The move path"): a player's next move comes seconds after the last.
//
// This Store forgets a user's sessions whenever it writes what a session
// reads (the profile, the sound, the look, a flag, a logout), so that its
// own process never sees an old value. Every such write also goes into the
// log of changes (session_changes) in its own transaction, which every
// Store's cache reads each second (changesDue, changesRead): a change made
// by another process (`satranc admin`, the other nodes of a cluster) shows
// within a second or so. Read once every 30 s instead, a busy server's
// sessions were 4.5% of its CPU at 5,000 games.
type sessionCache struct {
	mu      sync.Mutex
	entries map[string]*cachedSession // by token hash
	// gen counts the forgets, so that a read of the database that a
	// forget overtook does not put back what it read (put).
	gen   uint64
	swept time.Time
	// sweeps is the timer of the next sweep while the cache holds
	// entries, nil while it holds none: swept only as sessions come in,
	// the cache would keep a busy hour's users after the site went quiet.
	sweeps *time.Timer
	// changesAt is when the latest read of the log of changes began (zero
	// before the first); reading says one is under way.
	changesAt time.Time
	reading   bool
}

// cachedSession is one session's user, as read at read, last asked for
// at used.
type cachedSession struct {
	user       account.User
	expires    time.Time // the session's own end
	read, used time.Time
}

// get returns the user of the session of tokenHash if it was read less
// than sessionCacheFresh before now and has not expired; else it returns
// the generation that put must be given with the user read instead.
func (c *sessionCache) get(tokenHash []byte, now time.Time) (u account.User, ok bool, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entries[string(tokenHash)]
	if e != nil && now.Sub(e.read) < sessionCacheFresh && now.Before(e.expires) {
		e.used = now
		return e.user, true, 0
	}
	return account.User{}, false, c.gen
}

// put keeps u as the user of the session of tokenHash, read at now, unless
// something was forgotten since get returned gen. Entries unused for
// sessionCacheIdle or read sessionCacheFresh ago are swept out as it goes.
func (c *sessionCache) put(tokenHash []byte, u account.User, expires time.Time, gen uint64, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	if now.Sub(c.swept) >= sessionCacheIdle {
		c.sweep(now)
	}
	if c.entries == nil {
		c.entries = make(map[string]*cachedSession)
	}
	c.entries[string(tokenHash)] = &cachedSession{user: u, expires: expires, read: now, used: now}
	if c.sweeps == nil {
		c.sweeps = time.AfterFunc(sessionCacheIdle, c.sweepLater)
	}
}

// sweep drops the entries unused for sessionCacheIdle or read
// sessionCacheFresh before now; c.mu is held.
func (c *sessionCache) sweep(now time.Time) {
	for k, e := range c.entries {
		if now.Sub(e.used) >= sessionCacheIdle || now.Sub(e.read) >= sessionCacheFresh {
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
		c.sweeps.Reset(sessionCacheIdle)
	} else {
		c.sweeps = nil
	}
}

// changesDue reports whether the log of changes is due a read at now, and
// the time of the oldest change that read must see (since); it marks the
// read under way, which changesRead ends.
func (c *sessionCache) changesDue(now time.Time) (since time.Time, due bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.reading || (!c.changesAt.IsZero() && now.Sub(c.changesAt) < sessionChangesEvery) {
		return time.Time{}, false
	}
	c.reading = true
	if c.changesAt.IsZero() {
		return now.Add(-sessionChangesKept), true
	}
	return c.changesAt.Add(-sessionChangesOverlap), true
}

// changesRead ends the read of the log that began at now (changesDue):
// it forgets the sessions of users, the members whose sessions changed,
// or every session when the read failed or the previous one is too old
// for the log to hold all the changes since.
func (c *sessionCache) changesRead(users []int64, now time.Time, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.reading = false
	if err != nil || c.changesAt.IsZero() || now.Sub(c.changesAt) > sessionChangesKept-sessionChangesOverlap {
		c.forgetAllLocked()
	} else if len(users) > 0 {
		c.forgetUsersLocked(users...)
	}
	if err == nil {
		c.changesAt = now
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
	c.forgetUsersLocked(id)
}

// forgetUsersLocked drops every session of the users ids, in one pass
// over the entries; c.mu is held.
func (c *sessionCache) forgetUsersLocked(ids ...int64) {
	c.gen++
	for k, e := range c.entries {
		if slices.Contains(ids, e.user.ID) {
			delete(c.entries, k)
		}
	}
}

// forgetAll drops every session.
func (c *sessionCache) forgetAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.forgetAllLocked()
}

func (c *sessionCache) forgetAllLocked() {
	c.gen++
	clear(c.entries)
}
