package uci

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"satranc/engine/bot"
	"satranc/engine/chess"
)

// search is a search running in its own goroutine, so that the session
// keeps reading commands (isready, stop) while it thinks.
type search struct {
	cancel   context.CancelFunc
	done     chan struct{} // closed once the bestmove is written
	infinite bool
	release  chan struct{} // closed by stop: an infinite search may answer
}

// goCommand starts a search (or runs perft) as `go` asks. The search ends
// with ctx, with stop, or at its limits.
func (s *Session) goCommand(ctx context.Context, args []string) {
	var lim bot.Limits
	var clk bot.Clock
	var wtime, btime, winc, binc time.Duration
	timed, clocked, infinite := false, false, false
	for i := 0; i < len(args); i++ {
		// next reads the number after args[i]; a missing or bad one counts
		// as 0 (a bad one is reported), which the limits below clamp.
		next := func() int64 {
			if i+1 >= len(args) {
				return 0
			}
			i++
			n, err := strconv.ParseInt(args[i], 10, 64)
			if err != nil {
				s.out.printf("info string error: go %s: %q is not a number\n", args[i-1], args[i])
			}
			return n
		}
		ms := func() time.Duration { return time.Duration(next()) * time.Millisecond }
		switch args[i] {
		case "perft":
			s.perft(int(next()))
			return
		case "depth":
			lim.Depth = int(max(next(), 1))
		case "nodes":
			lim.Nodes = uint64(max(next(), 1))
		case "movetime":
			// Keep a little back for the answer to reach the GUI.
			lim.Hard = max(ms()-10*time.Millisecond, time.Millisecond)
			timed = true
		case "wtime":
			wtime, timed, clocked = ms(), true, true
		case "btime":
			btime, timed, clocked = ms(), true, true
		case "winc":
			winc = ms()
		case "binc":
			binc = ms()
		case "movestogo":
			clk.MovesToGo = int(next())
		case "infinite":
			infinite = true
		}
	}
	// A clock given as 0 or less still bounds the search: the side to move
	// has next to no time, not all the time in the world.
	if clocked {
		clk.Remaining, clk.Increment = wtime, winc
		if s.pos.SideToMove() == chess.Black {
			clk.Remaining, clk.Increment = btime, binc
		}
		clk.Remaining = max(clk.Remaining, time.Millisecond)
		soft, hard := bot.Budget(clk)
		lim.Soft = soft
		if lim.Hard == 0 || hard < lim.Hard {
			lim.Hard = hard
		}
	}
	if !timed && lim.Depth == 0 && lim.Nodes == 0 {
		infinite = true // a bare `go` searches until `stop`
	}

	sctx, cancel := context.WithCancel(ctx)
	sr := &search{cancel: cancel, done: make(chan struct{}), infinite: infinite, release: make(chan struct{})}
	s.search = sr
	pos, keys, b := s.pos, s.keys, s.bot
	go func() {
		defer close(sr.done)
		res := b.Think(sctx, pos, keys, lim, s.info)
		if infinite {
			<-sr.release // the protocol answers an infinite search only after stop
		}
		if res.Move == chess.NullMove {
			if pos.InCheck() {
				s.out.printf("info depth 0 score mate 0\n")
			} else {
				s.out.printf("info depth 0 score cp 0\n")
			}
			s.out.printf("bestmove (none)\n")
			return
		}
		if len(res.PV) >= 2 {
			s.out.printf("bestmove %s ponder %s\n", res.Move, res.PV[1])
		} else {
			s.out.printf("bestmove %s\n", res.Move)
		}
	}()
}

// info prints one completed iteration. It runs on the search goroutine and
// touches nothing of the session but out.
func (s *Session) info(in bot.Info) {
	score := fmt.Sprintf("cp %d", in.Score)
	if n, ok := bot.MateIn(in.Score); ok {
		score = fmt.Sprintf("mate %d", n)
	}
	nps := uint64(0)
	if in.Time > 0 {
		nps = uint64(float64(in.Nodes) / in.Time.Seconds())
	}
	var pv strings.Builder
	for _, m := range in.PV {
		pv.WriteByte(' ')
		pv.WriteString(m.String())
	}
	s.out.printf("info depth %d seldepth %d score %s nodes %d nps %d time %d pv%s\n",
		in.Depth, in.SelDepth, score, in.Nodes, nps, in.Time.Milliseconds(), pv.String())
}

// stop ends the running search, if any, and waits for its bestmove.
func (s *Session) stop() {
	if s.search == nil {
		return
	}
	s.search.cancel()
	close(s.search.release)
	<-s.search.done
	s.search = nil
}

// wait lets a bounded search finish (an infinite one is stopped) before a
// command that changes what the search uses, or at the end of input.
func (s *Session) wait() {
	if s.search != nil && !s.search.infinite {
		<-s.search.done
	}
	s.stop()
}
