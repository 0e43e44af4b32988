package app

import (
	"context"
	"log/slog"
	"time"

	"satranc/engine/fairplay"
	"satranc/engine/play"
	"satranc/store"
)

// voidPoll is how often the server looks for voids made by `satranc
// admin void`, which runs in another process and shares only the
// database.
const voidPoll = 5 * time.Second

// watchVoids announces to the open pages (games.ResultVoided) each void
// recorded from now on, whichever process made it, until ctx ends or the
// returned stop is called; stop waits for the watcher to end.
func watchVoids(ctx context.Context, st *store.Store, games *play.Service, logger *slog.Logger) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		fairplay.WatchVoids(ctx, st, games, time.Now(), voidPoll, func(err error) {
			logger.Warn("looking for voided results", "err", err)
		})
	}()
	return func() { cancel(); <-done }
}
