package store

import (
	"context"
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
	u := mustCreateUser(t, s, "ali")
	mustCreateUser(t, s, "veli") // ali is not the first, so not an administrator
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

// TestSessionCacheOtherWriters: what another process writes (here SQL
// beside the Store, as `satranc admin` or another node would) shows once
// the kept entry is sessionCacheFresh old, and a kept session still ends
// at its own expiry.
func TestSessionCacheOtherWriters(t *testing.T) {
	s, _ := mustOpen(t)
	ctx := context.Background()
	now := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	s.Now = func() time.Time { return now }
	u := mustCreateUser(t, s, "ali")
	expires := now.Add(sessionCacheFresh + time.Minute)
	if err := s.CreateSession(ctx, account.StoredSession{TokenHash: hash32(1), UserID: u.ID, Created: now, Expires: expires}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UserBySession(ctx, hash32(1)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.Exec(`UPDATE users SET language = 'en' WHERE id = ?`, u.ID); err != nil {
		t.Fatal(err)
	}
	now = now.Add(sessionCacheFresh - time.Millisecond)
	if got, err := s.UserBySession(ctx, hash32(1)); err != nil || got.Language != "tr" {
		t.Errorf("just before sessionCacheFresh: %q, %v; want the kept tr", got.Language, err)
	}
	now = now.Add(time.Millisecond)
	if got, err := s.UserBySession(ctx, hash32(1)); err != nil || got.Language != "en" {
		t.Errorf("at sessionCacheFresh: %q, %v; want en, read again", got.Language, err)
	}
	now = expires
	if _, err := s.UserBySession(ctx, hash32(1)); err == nil {
		t.Error("a kept session answered at its expiry")
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
	// The sweep drops what is older than sessionCacheFresh.
	later := now.Add(sessionCacheFresh)
	_, _, gen = c.get(hash32(2), later)
	c.put(hash32(2), account.User{ID: 8}, later.Add(time.Hour), gen, later)
	if n := len(c.entries); n != 1 {
		t.Errorf("%d entries after the sweep, want 1", n)
	}
}

// TestSessionCacheSweepsWhenQuiet: with no session coming in, the
// cache's timer sweep drops the entries that aged past sessionCacheFresh,
// then stops.
func TestSessionCacheSweepsWhenQuiet(t *testing.T) {
	var c sessionCache
	now := time.Now()
	for i := range 3 {
		_, _, gen := c.get(hash32(byte(i)), now)
		c.put(hash32(byte(i)), account.User{ID: int64(i + 1)}, now.Add(time.Hour), gen, now.Add(-sessionCacheFresh*time.Duration(i)))
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
	for k, e := range c.entries {
		e.read = e.read.Add(-sessionCacheFresh)
		c.entries[k] = e
	}
	c.mu.Unlock()
	c.sweepLater()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries != nil || c.sweeps != nil {
		t.Errorf("after the last entry's sweep: %d entries, armed %v; want none, false", len(c.entries), c.sweeps != nil)
	}
}
