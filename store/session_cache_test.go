package store

import (
	"context"
	"errors"
	"testing"
	"time"

	"satranc/engine/account"
	"satranc/engine/cosmetics"
)

// TestSessionCacheOwnWrites: once a session's user is kept, every write of
// this Store to what the session reads shows at the next request: the
// look, the sound, the profile, the administrator's flag and the logout.
func TestSessionCacheOwnWrites(t *testing.T) {
	s, _ := mustOpen(t)
	ctx := context.Background()
	now := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	s.Now = func() time.Time { return now }
	mustCreateUser(t, s, "veli") // the first, an administrator
	u := mustCreateUser(t, s, "ali")
	if err := s.CreateSession(ctx, account.StoredSession{TokenHash: hash32(1), UserID: u.ID, Created: now, Expires: now.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	read := func() account.User {
		t.Helper()
		got, err := s.UserBySession(ctx, hash32(1))
		if err != nil {
			t.Fatalf("UserBySession = %v", err)
		}
		return got
	}
	read() // kept from here on
	look := cosmetics.Look{Board: "board_walnut", Pieces: "pieces_sultan", Frame: "frame_cup_gold"}
	if err := s.SaveLook(ctx, u.ID, look); err != nil {
		t.Fatal(err)
	}
	if got := read(); got.Look.Board != "board_walnut" {
		t.Errorf("after SaveLook: look %+v", got.Look)
	}
	if err := s.SaveSound(ctx, u.ID, false); err != nil {
		t.Fatal(err)
	}
	if got := read(); !got.SoundOff {
		t.Error("after SaveSound(off): sound on")
	}
	if _, err := s.UpdateProfile(ctx, u.ID, account.Profile{Language: "en", Gender: account.Genders[0]}); err != nil {
		t.Fatal(err)
	}
	if got := read(); got.Language != "en" {
		t.Errorf("after UpdateProfile: language %q", got.Language)
	}
	if err := s.SetAdmin(ctx, "ali", true); err != nil {
		t.Fatal(err)
	}
	if got := read(); !got.Admin {
		t.Error("after SetAdmin(on): not an administrator")
	}
	if err := s.DeleteSession(ctx, hash32(1)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UserBySession(ctx, hash32(1)); err == nil {
		t.Error("UserBySession after the logout = nil error")
	}
}

// TestSessionCacheOtherWriters: what another Store on the same database
// writes (`satranc admin`, another node) shows once this Store has read
// the log of changes, sessionChangesEvery after its previous read; SQL
// written beside any Store shows once the kept entry is sessionCacheFresh
// old; and a kept session still ends at its own expiry.
func TestSessionCacheOtherWriters(t *testing.T) {
	s, path := mustOpen(t)
	other, _ := mustOpenAt(t, path)
	ctx := context.Background()
	now := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	s.Now, other.Now = clock, clock
	mustCreateUser(t, s, "veli") // the first, an administrator
	u := mustCreateUser(t, s, "ali")
	expires := now.Add(2 * sessionCacheFresh)
	if err := s.CreateSession(ctx, account.StoredSession{TokenHash: hash32(1), UserID: u.ID, Created: now, Expires: expires}); err != nil {
		t.Fatal(err)
	}
	read := func() account.User {
		t.Helper()
		got, err := s.UserBySession(ctx, hash32(1))
		if err != nil {
			t.Fatalf("UserBySession = %v", err)
		}
		return got
	}
	read() // kept from here on
	// shows moves the clock to just before the next read of the log, then
	// to it, and reports whether the change showed only then.
	shows := func(changed func(account.User) bool) bool {
		t.Helper()
		now = now.Add(sessionChangesEvery - time.Millisecond)
		before := changed(read())
		now = now.Add(time.Millisecond)
		return !before && changed(read())
	}
	if err := other.SaveSound(ctx, u.ID, false); err != nil {
		t.Fatal(err)
	}
	if !shows(func(u account.User) bool { return u.SoundOff }) {
		t.Error("another Store's SaveSound(off) did not show at the next read of the log")
	}
	if err := other.SetAdmin(ctx, "ali", true); err != nil {
		t.Fatal(err)
	}
	if !shows(func(u account.User) bool { return u.Admin }) {
		t.Error("another Store's SetAdmin(on) did not show at the next read of the log")
	}
	if _, err := other.UpdateProfile(ctx, u.ID, account.Profile{Language: "en", Gender: account.Genders[0]}); err != nil {
		t.Fatal(err)
	}
	if !shows(func(u account.User) bool { return u.Language == "en" }) {
		t.Error("another Store's UpdateProfile did not show at the next read of the log")
	}
	look := cosmetics.Look{Board: "board_walnut", Pieces: "pieces_sultan", Frame: "frame_cup_gold"}
	if err := other.SaveLook(ctx, u.ID, look); err != nil {
		t.Fatal(err)
	}
	if !shows(func(u account.User) bool { return u.Look == look }) {
		t.Error("another Store's SaveLook did not show at the next read of the log")
	}
	// The reads of the log look sessionChangesOverlap back: once past
	// the changes above, the entry is read for the last time.
	now = now.Add(sessionChangesOverlap + sessionChangesEvery)
	read()
	readAt := now

	if _, err := s.db.Exec(`UPDATE users SET language = 'tr' WHERE id = ?`, u.ID); err != nil {
		t.Fatal(err)
	}
	now = readAt.Add(sessionCacheFresh - time.Millisecond)
	if got := read(); got.Language != "en" {
		t.Errorf("SQL beside the stores, just before sessionCacheFresh: %q; want the kept en", got.Language)
	}
	now = readAt.Add(sessionCacheFresh)
	if got := read(); got.Language != "tr" {
		t.Errorf("SQL beside the stores, at sessionCacheFresh: %q; want tr, read again", got.Language)
	}

	if err := other.DeleteSession(ctx, hash32(1)); err != nil {
		t.Fatal(err)
	}
	now = now.Add(sessionChangesEvery)
	if _, err := s.UserBySession(ctx, hash32(1)); err == nil {
		t.Error("a session logged out by another Store still answered after the next read of the log")
	}

	if err := s.CreateSession(ctx, account.StoredSession{TokenHash: hash32(2), UserID: u.ID, Created: now, Expires: now.Add(time.Minute)}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UserBySession(ctx, hash32(2)); err != nil {
		t.Fatal(err)
	}
	now = now.Add(time.Minute)
	if _, err := s.UserBySession(ctx, hash32(2)); err == nil {
		t.Error("a kept session answered at its expiry")
	}
}

// TestSessionChangesPruned: creating a session deletes the changes older
// than sessionChangesKept and keeps the others.
func TestSessionChangesPruned(t *testing.T) {
	s, _ := mustOpen(t)
	ctx := context.Background()
	now := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	s.Now = func() time.Time { return now }
	u := mustCreateUser(t, s, "ali")
	if err := s.SaveSound(ctx, u.ID, false); err != nil {
		t.Fatal(err)
	}
	now = now.Add(sessionChangesKept / 2)
	if err := s.SaveSound(ctx, u.ID, true); err != nil {
		t.Fatal(err)
	}
	now = now.Add(sessionChangesKept/2 + time.Second)
	if err := s.CreateSession(ctx, account.StoredSession{TokenHash: hash32(1), UserID: u.ID, Created: now, Expires: now.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := s.db.Get(&n, "SELECT COUNT(*) FROM session_changes"); err != nil || n != 1 {
		t.Errorf("changes left = %d, %v; want the newer one", n, err)
	}
}

// TestSessionCacheChangesLog: the cache reads the log once every
// sessionChangesEvery, one read at a time, from sessionChangesOverlap
// before its previous read; it forgets the members read there, and every
// session after its first read, after a read that failed and after a gap
// too long for the log to cover.
func TestSessionCacheChangesLog(t *testing.T) {
	var c sessionCache
	now := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	keep := func(token byte, id int64) {
		_, _, gen := c.get(hash32(token), now)
		c.put(hash32(token), account.User{ID: id}, now.Add(24*time.Hour), gen, now)
	}
	kept := func(token byte) bool {
		_, ok, _ := c.get(hash32(token), now)
		return ok
	}
	since, due := c.changesDue(now)
	if !due || !since.Equal(now.Add(-sessionChangesKept)) {
		t.Fatalf("first changesDue = %v, %v; want the whole log", since, due)
	}
	if _, due := c.changesDue(now.Add(time.Hour)); due {
		t.Error("a second read of the log while one is under way")
	}
	keep(1, 7) // before the first read's end: forgotten by it
	c.changesRead(nil, now, nil)
	if kept(1) {
		t.Error("an entry put before the first read of the log is kept")
	}
	keep(1, 7)
	keep(2, 8)
	if _, due := c.changesDue(now.Add(sessionChangesEvery - time.Millisecond)); due {
		t.Error("the log is read again before sessionChangesEvery")
	}
	now = now.Add(sessionChangesEvery)
	since, due = c.changesDue(now)
	if !due || !since.Equal(now.Add(-sessionChangesEvery-sessionChangesOverlap)) {
		t.Fatalf("changesDue = %v, %v; want from sessionChangesOverlap before the previous read", since, due)
	}
	c.changesRead([]int64{7}, now, nil)
	if kept(1) || !kept(2) {
		t.Errorf("after member 7 changed: kept %v and %v; want member 8's alone", kept(1), kept(2))
	}
	now = now.Add(sessionChangesEvery)
	c.changesDue(now)
	c.changesRead(nil, now, errors.New("database is locked"))
	if kept(2) {
		t.Error("an entry is kept after a read of the log failed")
	}
	keep(2, 8)
	if _, due := c.changesDue(now); !due {
		t.Error("no read of the log due right after one failed")
	}
	now = now.Add(sessionChangesKept - sessionChangesOverlap + time.Second)
	c.changesRead(nil, now, nil)
	if kept(2) {
		t.Error("an entry is kept after a gap longer than the log covers")
	}
}

// TestSessionCacheForgetOvertakes: a read of the database that a forget
// overtook (a logout between the read and its put) is not kept.
func TestSessionCacheForgetOvertakes(t *testing.T) {
	var c sessionCache
	now := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	u := account.User{ID: 7, Name: "ali"}
	_, ok, gen := c.get(hash32(1), now)
	if ok {
		t.Fatal("an empty cache answered")
	}
	c.forgetUser(7)
	c.put(hash32(1), u, now.Add(time.Hour), gen, now)
	if _, ok, _ := c.get(hash32(1), now); ok {
		t.Error("a read overtaken by forgetUser was kept")
	}
	_, _, gen = c.get(hash32(1), now)
	c.put(hash32(1), u, now.Add(time.Hour), gen, now)
	if got, ok, _ := c.get(hash32(1), now); !ok || got != u {
		t.Errorf("get = %+v, %v; want the user put", got, ok)
	}
	// The sweep drops what was not asked for in sessionCacheIdle.
	later := now.Add(sessionCacheIdle)
	_, _, gen = c.get(hash32(2), later)
	c.put(hash32(2), account.User{ID: 8}, later.Add(time.Hour), gen, later)
	if n := len(c.entries); n != 1 {
		t.Errorf("%d entries after the sweep, want 1", n)
	}
}

// TestSessionCacheSweepsWhenQuiet: with no session coming in, the
// cache's timer sweep drops the entries not asked for in sessionCacheIdle,
// then stops.
func TestSessionCacheSweepsWhenQuiet(t *testing.T) {
	var c sessionCache
	now := time.Now()
	for i := range 3 {
		_, _, gen := c.get(hash32(byte(i)), now)
		c.put(hash32(byte(i)), account.User{ID: int64(i + 1)}, now.Add(time.Hour), gen, now.Add(-sessionCacheIdle*time.Duration(i)))
	}
	c.mu.Lock()
	armed := c.sweeps != nil
	c.mu.Unlock()
	if !armed {
		t.Fatal("no sweep armed after a put")
	}
	c.sweepLater()
	c.mu.Lock()
	n, armed := len(c.entries), c.sweeps != nil
	c.mu.Unlock()
	if n != 1 || !armed {
		t.Fatalf("after a sweep: %d entries, armed %v; want 1, true", n, armed)
	}
	c.mu.Lock()
	for _, e := range c.entries {
		e.used = e.used.Add(-sessionCacheIdle)
	}
	c.mu.Unlock()
	c.sweepLater()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries != nil || c.sweeps != nil {
		t.Errorf("after the last entry's sweep: %d entries, armed %v; want none, false", len(c.entries), c.sweeps != nil)
	}
}

// TestSessionChangesReadOutlivesRequest: the read of the log due at a
// request whose client went away is made all the same, and the cache
// keeps its sessions; cut short, it would have them all read again.
func TestSessionChangesReadOutlivesRequest(t *testing.T) {
	s, _ := mustOpen(t)
	ctx := context.Background()
	now := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	s.Now = func() time.Time { return now }
	u := mustCreateUser(t, s, "ali")
	if err := s.CreateSession(ctx, account.StoredSession{TokenHash: hash32(1), UserID: u.ID, Created: now, Expires: now.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UserBySession(ctx, hash32(1)); err != nil {
		t.Fatal(err)
	}
	now = now.Add(sessionChangesEvery)
	gone, cancel := context.WithCancel(ctx)
	cancel()
	if got, err := s.UserBySession(gone, hash32(1)); err != nil || got.ID != u.ID {
		t.Errorf("UserBySession of a request gone, with the log due = %+v, %v; want the kept user", got, err)
	}
}
