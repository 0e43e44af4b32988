package handlers

// ownStack runs a stream's work on another goroutine and waits for it. A
// stream spends its life waiting for events with little on its stack, but
// rendering a panel takes a deep one; a goroutine's stack only grows (a
// garbage collection shrinks it by half at most, and only while it uses
// less than a quarter), so rendering on the stream's own goroutine would
// leave every idle stream holding a render-sized stack: with the events
// delivered on the streams' own goroutines, the 10,000 streams of 5,000
// games held 637 MB of stacks instead of 56 MB (docs/performance.md,
// "What the server does to get there").
//
// The work goes to one of renderWorkers, whose stacks have grown to a
// render's already: a goroutine of its own for each render grew a fresh
// stack from the smallest every time, which was 4% of the server's CPU at
// 1,000 games. When every worker is busy (a burst, or a client slow to
// take its event), it gets a goroutine of its own: no stream waits for
// another.
//
// And it does so without allocating on the stream's goroutine: the
// channel and the job are made once, when the stream starts, and so are
// the functions it runs (gameStream.prepare, watchStream.prepare). While
// the collector marks, a goroutine that allocates must help it, by at
// least 64 KB of marking the first time in each cycle (the runtime's
// gcOverAssistWork), and waits for the mark to end when there is nothing
// left for it to mark. At 5,000 games some 10,000 stream goroutines wake
// about 2,800 times a second (2,000 for the moves, 830 for the pings of
// players' streams gone quiet), so that when each wake allocated a
// channel and a closure, the streams did more of the marking than the
// collector's own worker, and a move waited behind them.
type ownStack struct {
	done chan error
	fn   func() error // the work of the call in progress
	job  func()       // runs fn on a worker; made once
}

func newOwnStack() *ownStack {
	s := &ownStack{done: make(chan error, 1)}
	s.job = s.runJob
	return s
}

func (s *ownStack) runJob() { s.done <- s.fn() }

// run runs fn on one of renderWorkers (on a goroutine of its own when
// every worker is busy) and waits for it. fn is best made once, not for
// the call: a closure made here would allocate on the caller's goroutine,
// which is what ownStack avoids. One call at a time.
func (s *ownStack) run(fn func() error) error {
	s.fn = fn
	if !renderWorkers.hand(s.job) {
		go s.job()
	}
	err := <-s.done
	s.fn = nil
	return err
}
