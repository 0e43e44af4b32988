package loadtest

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"

	"satranc/engine/chess"
)

// playPair plays games between the pair's users until ctx is done: each
// move after a jittered think, chosen at random among the legal ones, and
// timed from its POST to the opponent's stream event of the new ply. When
// a game ends it is resigned and another started, so that the server sees
// games begin and end all along, as on a live site.
func playPair(ctx context.Context, cfg Config, rng *rand.Rand, p *pair, st *stats, creating chan struct{}) {
	pause := func(limit time.Duration) bool {
		d := min(cfg.Think/2+time.Duration(rng.Int64N(int64(cfg.Think)+1)), limit)
		select {
		case <-ctx.Done():
			return false
		case <-time.After(d):
			return true
		}
	}
	if p.path == "" { // its first game, created when its turn comes (Config.Ramp)
		// A few at a time (Config.Setup), as the set-up creates them: a
		// ramp of thousands of games would otherwise start them faster
		// than the site's one writer takes them.
		select {
		case <-ctx.Done():
			return
		case creating <- struct{}{}:
		}
		ok := createGame(ctx, p, st)
		<-creating
		if !ok {
			return
		}
	}
	if ctx.Err() != nil {
		p.endUnplayed(ctx)
		return
	}
	for ctx.Err() == nil {
		gameCtx, closeStreams := context.WithCancel(ctx)
		streams := [2]*gameStream{newGameStream(), newGameStream()}
		users := [2]*user{p.white, p.black}
		var readers sync.WaitGroup // the streams' goroutines
		for side, s := range streams {
			s.sizes, s.first = st.received, p.streams[side]
		}
		for side := range 2 {
			readers.Go(func() { streams[side].run(gameCtx, users[side], p.path, st.fail) })
		}
		ended := playGame(gameCtx, cfg, rng, p.path, users, streams, pause, st)
		if ended && ctx.Err() == nil {
			users[0].resign(ctx, p.path)
		}
		if ctx.Err() != nil {
			// The run is over: leave no game running on the server.
			users[0].resign(context.WithoutCancel(ctx), p.path)
		}
		closeStreams()
		readers.Wait()
		if ctx.Err() != nil {
			return
		}
		if !createGame(ctx, p, st) {
			return
		}
	}
}

// createGame has the pair create and join a new private game, trying
// again a second after a failure (counted), until it succeeds or ctx is
// done; it reports whether it succeeded. A pair whose game could not be
// created plays on once the site answers again.
func createGame(ctx context.Context, p *pair, st *stats) bool {
	for {
		next, err := newPrivateGame(ctx, p.white, p.black)
		if err == nil {
			*p = next
			return true
		}
		if ctx.Err() != nil {
			return false
		}
		st.fail(errorKind(err, "create"))
		select {
		case <-ctx.Done():
			return false
		case <-time.After(time.Second):
		}
	}
}

// playGame plays one game until it ends, reaches its length (between half
// of cfg.MaxPly and cfg.MaxPly plies), fails, or ctx is done; it reports
// whether another game should start.
func playGame(ctx context.Context, cfg Config, rng *rand.Rand, path string, users [2]*user,
	streams [2]*gameStream, pause func(limit time.Duration) bool, st *stats) bool {
	g := chess.NewGame(chess.StartPosition())
	// Both players' pages have their streams open before anyone moves, as
	// in a browser.
	for side := range 2 {
		if _, err := streams[side].wait(ctx, waitOpen, requestTimeout); err != nil {
			if ctx.Err() == nil {
				st.fail("first-event")
			}
			return true
		}
	}
	var buf [chess.MaxMoves]chess.Move
	// Each player watches their clock as a person does: a pause takes at
	// most a fifteenth of what is left (at the default pace, with
	// control, it never comes to that).
	left := [2]time.Duration{initialTime, initialTime}
	turn := time.Now()
	// Games of different lengths: started together, they must not all end
	// (and be replaced) in the same minute either.
	plies := cfg.MaxPly/2 + rng.IntN(cfg.MaxPly-cfg.MaxPly/2+1)
	for g.Termination() == chess.NoTermination && g.Ply() < plies {
		ply, side := g.Ply(), g.Ply()%2
		if !pause(max(left[side]-time.Since(turn), 0) / 15) {
			return false
		}
		pos := g.Position()
		legal := pos.AppendLegalMoves(buf[:0])
		m := legal[rng.IntN(len(legal))]
		sent := time.Now()
		nonce, held := streams[side].takePing(sent)
		err := users[side].move(ctx, path, m.String(), ply, nonce, held)
		left[side] += increment - time.Since(turn)
		turn = time.Now() // the opponent's clock runs from the answer on
		if err != nil {
			if se, ok := errors.AsType[*statusError](err); ok && se.status == http.StatusConflict {
				// The game is over: the mover's clock ran out (the
				// driver's reckoning of it missed the server's). Start
				// another.
				st.flagged.Add(1)
				return true
			}
			if ctx.Err() == nil {
				st.fail(errorKind(err, "move"))
				return true
			}
			return false
		}
		if err := g.Play(m); err != nil {
			st.fail("local-move")
			return true
		}
		at, err := streams[1-side].wait(ctx, ply+1, requestTimeout)
		if err != nil {
			if ctx.Err() == nil {
				st.fail("no-opponent-event")
				return true
			}
			// The move was acknowledged; only its latency went unmeasured.
			st.moves.Add(1)
			return false
		}
		st.moved(sent, at.Sub(sent))
	}
	return true
}

// endUnplayed resigns the pair's game, created before play, when the run
// ends before the pair has played it (its turn in the ramp not come, or
// the run over before its first move): the run leaves no game running
// on the server. A game left there would be resumed by the server's next
// start, on the next run's copy of the database too.
func (p *pair) endUnplayed(ctx context.Context) {
	if p.path != "" {
		p.white.resign(context.WithoutCancel(ctx), p.path)
	}
}
