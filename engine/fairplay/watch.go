package fairplay

import (
	"context"
	"time"
)

// Void is a voided result as the store records it: the game and the time
// of the void (games.voided_at).
type Void struct {
	Game int64
	At   time.Time
}

// VoidLog lists the voids recorded at or after since, oldest first;
// store.Store implements it.
type VoidLog interface {
	VoidsSince(ctx context.Context, since time.Time) ([]Void, error)
}

// voidSlack is how far back each poll looks before the latest void seen:
// two voids may commit in the other order than their times (each takes
// its time before its transaction), and `satranc admin` reads another
// process's clock.
const voidSlack = time.Minute

// WatchVoids announces to a each void that log records at or after since,
// whoever made it: this process's pages or `satranc admin void` in another
// process, which shares only the database. It polls every every until ctx
// ends, and reports a failed poll to onErr (if not nil), trying again at
// the next tick. A void made on this server's pages is announced twice,
// once by Service.Void at once and once here: harmless, since a page that
// hears it only reads its standings again.
func WatchVoids(ctx context.Context, log VoidLog, a Announcer, since time.Time, every time.Duration, onErr func(error)) {
	w := newVoidWatch(log, a, since)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := w.poll(ctx); err != nil && onErr != nil && ctx.Err() == nil {
				onErr(err)
			}
		}
	}
}

// voidWatch is WatchVoids' state: the latest void time seen and the games
// announced within voidSlack of it.
type voidWatch struct {
	log    VoidLog
	a      Announcer
	since  time.Time
	latest time.Time
	seen   map[int64]time.Time
}

func newVoidWatch(log VoidLog, a Announcer, since time.Time) *voidWatch {
	return &voidWatch{log: log, a: a, since: since, latest: since, seen: map[int64]time.Time{}}
}

// poll announces the voids not announced yet.
func (w *voidWatch) poll(ctx context.Context) error {
	voids, err := w.log.VoidsSince(ctx, w.latest.Add(-voidSlack))
	if err != nil {
		return err
	}
	for _, v := range voids {
		if _, ok := w.seen[v.Game]; ok || v.At.Before(w.since) {
			continue
		}
		w.seen[v.Game] = v.At
		w.a.ResultVoided(v.Game, v.At)
		if v.At.After(w.latest) {
			w.latest = v.At
		}
	}
	// Forget what the next poll cannot return again.
	for id, at := range w.seen {
		if at.Before(w.latest.Add(-voidSlack)) {
			delete(w.seen, id)
		}
	}
	return nil
}
