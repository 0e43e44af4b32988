package bot

import (
	"context"
	"math"
	"time"

	"satranc/engine/chess"
)

// Scores are in centipawns from the side to move's point of view. A mate
// is scored mateScore minus the number of plies to it, so nearer mates score
// higher (https://www.chessprogramming.org/Score).
const (
	maxPly    = 128
	infinity  = 32001
	mateScore = 32000
	mateBound = mateScore - 2*maxPly // scores at least this far out are mates

	// MaxDepth is the deepest iteration a search starts.
	MaxDepth = maxPly - 8
)

// MateIn reports whether score announces a mate, and in how many moves:
// positive when the side to move mates, negative when it is mated.
func MateIn(score int) (moves int, ok bool) {
	switch {
	case score >= mateBound:
		return (mateScore - score + 1) / 2, true
	case score <= -mateBound:
		return -(mateScore + score) / 2, true
	}
	return 0, false
}

// Limits bounds a search. Zero fields are no limit; the zero Limits searches
// until the context is done or MaxDepth is reached.
type Limits struct {
	Depth int           // deepest iteration to complete
	Nodes uint64        // stop after visiting this many nodes
	Soft  time.Duration // aim to finish by then: no new iteration starts after half of it
	Hard  time.Duration // stop at once when this much time has passed
}

// Info reports one completed iteration of a search.
type Info struct {
	Depth    int
	SelDepth int // the deepest ply reached, quiescence included
	Score    int // centipawns, or a mate score (see MateIn)
	Nodes    uint64
	Time     time.Duration
	PV       []chess.Move // the principal variation, best move first
}

// RootMove is a legal move at the root with its score from the last
// completed iteration. Exact is false when the score is only an upper bound
// (the move was refuted without finding its exact value).
type RootMove struct {
	Move  chess.Move
	Score int
	Exact bool
}

// Result is the outcome of a search.
type Result struct {
	Info
	Move chess.Move // the best move; NullMove only if there is no legal move
	Root []RootMove // every legal move, best first
}

// options are the knobs the levels turn.
type options struct {
	noise  int    // amplitude of the evaluation noise in centipawns
	seed   uint64 // seeds the noise
	margin int    // search every root move exactly within this of the best
}

// Engine searches positions. It keeps a transposition table between
// searches, so consecutive searches in one game share what they learnt.
// An Engine runs one search at a time; it is not safe for concurrent use.
type Engine struct {
	tt  *table
	now func() time.Time
}

// NewEngine returns an engine with a transposition table of about hashMB
// megabytes.
func NewEngine(hashMB int) *Engine {
	return &Engine{tt: newTable(hashMB), now: time.Now}
}

// Clear forgets everything learnt in earlier searches (for a new game).
func (e *Engine) Clear() { e.tt.clear() }

// Search looks for the best move in p. history holds the Zobrist keys of
// the positions before p in the game, oldest first, so that the search
// scores repetitions as draws. report, if not nil, is called after each
// completed iteration. When ctx is done the search stops and returns the
// best move found so far: Search always returns a legal move when there is
// one, however early it is stopped.
func (e *Engine) Search(ctx context.Context, p chess.Position, history []uint64, lim Limits, report func(Info)) Result {
	return e.search(ctx, p, history, lim, options{}, report)
}

func (e *Engine) search(ctx context.Context, p chess.Position, history []uint64, lim Limits, opt options, report func(Info)) Result {
	s := &searcher{
		ctx:   ctx,
		tt:    e.tt,
		now:   e.now,
		start: e.now(),
		lim:   lim,
		opt:   opt,
	}
	s.stopped = ctx.Err() != nil
	// Only the positions since the last capture or pawn move can repeat.
	keep := min(len(history), p.HalfmoveClock())
	s.keys = make([]uint64, 0, keep+maxPly+1)
	s.keys = append(s.keys, history[len(history)-keep:]...)
	s.keys = append(s.keys, p.Hash())
	return s.iterate(&p, report)
}

// searcher holds the state of one search.
type searcher struct {
	ctx   context.Context
	tt    *table
	now   func() time.Time
	start time.Time
	lim   Limits
	opt   options

	nodes    uint64
	selDepth int
	stopped  bool
	keys     []uint64 // Zobrist keys from the game and along the current line

	root     []RootMove
	killers  [maxPly][2]chess.Move
	history  [2][64][64]int32
	pv       [maxPly][maxPly]chess.Move
	pvLen    [maxPly]int
	moveBuf  [maxPly][chess.MaxMoves]chess.Move
	scoreBuf [maxPly][chess.MaxMoves]int
}

// lmr holds the late-move reductions by depth and move number
// (https://www.chessprogramming.org/Late_Move_Reductions).
var lmr = func() (t [64][64]int) {
	for d := 1; d < 64; d++ {
		for i := 1; i < 64; i++ {
			t[d][i] = int(0.75 + math.Log(float64(d))*math.Log(float64(i))/2.25)
		}
	}
	return t
}()

// iterate runs iterative deepening (https://www.chessprogramming.org/Iterative_Deepening).
func (s *searcher) iterate(p *chess.Position, report func(Info)) Result {
	var res Result
	moves := p.AppendLegalMoves(s.moveBuf[0][:0])
	if len(moves) == 0 {
		if p.InCheck() {
			res.Score = -mateScore
		}
		return res
	}
	s.root = make([]RootMove, len(moves))
	for i, m := range moves {
		s.root[i] = RootMove{Move: m, Score: -infinity}
	}
	// Order the first iteration by the hash move and captures.
	var ttMove chess.Move
	if e, ok := s.tt.probe(p.Hash()); ok {
		ttMove = e.move
	}
	scores := s.scoreBuf[0][:len(moves)]
	s.scoreMoves(p, moves, scores, ttMove, 0)
	for i := range moves {
		pickNext(moves, scores, i)
		s.root[i].Move = moves[i]
	}
	res.Move = s.root[0].Move
	res.PV = []chess.Move{res.Move}
	res.Root = append([]RootMove(nil), s.root...)

	maxDepth := MaxDepth
	if s.lim.Depth > 0 {
		maxDepth = min(s.lim.Depth, MaxDepth)
	}
	for depth := 1; depth <= maxDepth; depth++ {
		s.selDepth = 0
		score, complete := s.searchRoot(p, depth)
		if s.pvLen[0] > 0 && (complete || s.root[0].Move != res.Move) {
			// A stopped iteration still counts when it found a new best move
			// and searched it fully (it is sorted first).
			res.Move = s.pv[0][0]
			res.Score = score
			res.PV = append(res.PV[:0], s.pv[0][:s.pvLen[0]]...)
			res.Depth = depth
			res.SelDepth = s.selDepth
		}
		if !complete {
			break
		}
		res.Root = append(res.Root[:0], s.root...)
		res.Nodes, res.Time = s.nodes, s.now().Sub(s.start)
		if report != nil {
			report(res.Info)
		}
		// The next iteration takes longer than all before it together.
		if s.lim.Soft > 0 && s.now().Sub(s.start) >= s.lim.Soft/2 {
			break
		}
		// One legal move, or a mate found: no need to look further.
		if len(s.root) == 1 && depth >= 2 {
			break
		}
		if mate, ok := MateIn(score); ok && mate > 0 && depth >= 2*mate+2 {
			break
		}
	}
	res.Nodes, res.Time = s.nodes, s.now().Sub(s.start)
	return res
}

// searchRoot searches every root move to depth and sorts them best first.
// It reports false if the search was stopped before the iteration ended.
func (s *searcher) searchRoot(p *chess.Position, depth int) (int, bool) {
	alpha, beta := -infinity, infinity
	best := -infinity
	s.pvLen[0] = 0
	for i := range s.root {
		rm := &s.root[i]
		child := p.Play(rm.Move)
		s.keys = append(s.keys, child.Hash())
		newDepth := depth - 1
		if child.InCheck() {
			newDepth++
		}
		// With a margin (the levels' multi-move mode) every move within
		// margin of the best gets an exact score; otherwise only the best.
		a := alpha
		if s.opt.margin > 0 {
			a = max(-infinity, best-s.opt.margin)
		}
		var score int
		if i == 0 || s.opt.margin > 0 {
			score = -s.search(&child, newDepth, -beta, -a, 1, true)
		} else {
			score = -s.search(&child, newDepth, -a-1, -a, 1, true)
			if score > a && !s.stopped {
				score = -s.search(&child, newDepth, -beta, -a, 1, true)
			}
		}
		s.keys = s.keys[:len(s.keys)-1]
		if s.stopped {
			sortRoot(s.root[:i])
			return best, false
		}
		rm.Score, rm.Exact = score, score > a
		if score > best {
			best = score
			s.pv[0][0] = rm.Move
			copy(s.pv[0][1:], s.pv[1][:s.pvLen[1]])
			s.pvLen[0] = s.pvLen[1] + 1
			if score > alpha {
				alpha = score
			}
			// Keep the best move first so a stopped search can use it.
			copy(s.root[1:i+1], s.root[:i])
			s.root[0] = RootMove{Move: s.pv[0][0], Score: score, Exact: true}
		}
	}
	sortRoot(s.root)
	return best, true
}

// sortRoot sorts root moves by score, best first, keeping the order of equals.
func sortRoot(r []RootMove) {
	for i := 1; i < len(r); i++ {
		for j := i; j > 0 && r[j].Score > r[j-1].Score; j-- {
			r[j], r[j-1] = r[j-1], r[j]
		}
	}
}

// checkStop sets stopped when a limit is reached. The clock and the context
// are read every 1024 nodes only.
func (s *searcher) checkStop() bool {
	if s.stopped {
		return true
	}
	if s.lim.Nodes > 0 && s.nodes >= s.lim.Nodes {
		s.stopped = true
	} else if s.nodes&1023 == 0 {
		if s.ctx.Err() != nil || (s.lim.Hard > 0 && s.now().Sub(s.start) >= s.lim.Hard) {
			s.stopped = true
		}
	}
	return s.stopped
}

// isRepetition reports whether the position on top of keys occurred before
// since the last irreversible move: within the search one repetition is
// scored as a draw, since the side that could avoid it would have.
func (s *searcher) isRepetition(halfmove int) bool {
	n := len(s.keys) - 1
	key := s.keys[n]
	for i := n - 4; i >= 0 && n-i <= halfmove; i -= 2 {
		if s.keys[i] == key {
			return true
		}
	}
	return false
}

// evaluate is Evaluate plus the level's noise, which depends only on the
// position and the seed so that the same position always gets the same score.
func (s *searcher) evaluate(p *chess.Position) int {
	return noisyEvaluate(p, s.opt.noise, s.opt.seed)
}

// noisyEvaluate is Evaluate plus noise of ±noise centipawns that depends
// only on the position and the seed.
func noisyEvaluate(p *chess.Position, noise int, seed uint64) int {
	v := Evaluate(p)
	if noise > 0 {
		r := splitmix(p.Hash() ^ seed)
		v += int(r%uint64(2*noise+1)) - noise
	}
	return v
}

func hasPieces(p *chess.Position, c chess.Color) bool {
	return p.ColorPieces(c)&^(p.Pieces(c, chess.Pawn)|p.Pieces(c, chess.King)) != 0
}

// search is principal-variation alpha-beta
// (https://www.chessprogramming.org/Principal_Variation_Search) with a
// transposition table, null-move pruning, reverse futility pruning, late-move
// reductions and pruning, and check extensions.
func (s *searcher) search(p *chess.Position, depth, alpha, beta, ply int, allowNull bool) int {
	s.pvLen[ply] = 0
	if depth <= 0 {
		return s.quiesce(p, alpha, beta, ply)
	}
	s.nodes++
	if s.checkStop() {
		return 0
	}
	if ply >= maxPly-2 {
		return s.evaluate(p)
	}
	if p.HalfmoveClock() >= 100 || s.isRepetition(p.HalfmoveClock()) || p.InsufficientMaterial() {
		if p.HalfmoveClock() < 100 || !p.InCheck() {
			return 0
		}
	}
	// Mate-distance pruning: no line from here beats a mate already found.
	alpha = max(alpha, -mateScore+ply)
	beta = min(beta, mateScore-ply-1)
	if alpha >= beta {
		return alpha
	}
	pvNode := beta-alpha > 1
	inCheck := p.InCheck()

	key := p.Hash()
	ttMove := chess.NullMove
	if e, ok := s.tt.probe(key); ok {
		ttMove = e.move
		if !pvNode && int(e.depth) >= depth {
			score := scoreFromTT(int(e.score), ply)
			switch {
			case e.bound == boundExact,
				e.bound == boundLower && score >= beta,
				e.bound == boundUpper && score <= alpha:
				return score
			}
		}
	}

	staticEval := -infinity
	if !inCheck {
		staticEval = s.evaluate(p)
		// Reverse futility pruning: far above beta at low depth, stop here.
		if !pvNode && depth <= 6 && staticEval-85*depth >= beta && beta < mateBound {
			return staticEval
		}
		// Null-move pruning (https://www.chessprogramming.org/Null_Move_Pruning).
		if !pvNode && allowNull && depth >= 3 && staticEval >= beta && hasPieces(p, p.SideToMove()) {
			r := 3 + depth/6
			child := p.PlayNull()
			s.keys = append(s.keys, child.Hash())
			score := -s.search(&child, depth-1-r, -beta, -beta+1, ply+1, false)
			s.keys = s.keys[:len(s.keys)-1]
			if s.stopped {
				return 0
			}
			if score >= beta {
				return min(score, mateBound-1)
			}
		}
	}

	moves := p.AppendLegalMoves(s.moveBuf[ply][:0])
	if len(moves) == 0 {
		if inCheck {
			return -mateScore + ply
		}
		return 0
	}
	scores := s.scoreBuf[ply][:len(moves)]
	s.scoreMoves(p, moves, scores, ttMove, ply)

	side := p.SideToMove()
	origAlpha := alpha
	best, bestMove := -infinity, chess.NullMove
	quiets := 0
	for i := range moves {
		pickNext(moves, scores, i)
		m := moves[i]
		tactical := p.IsCapture(m) || m.Promotion() != chess.NoPieceType
		child := p.Play(m)
		givesCheck := child.InCheck()
		if !tactical {
			quiets++
		}
		// Late-move and futility pruning of quiet moves near the leaves.
		if !pvNode && !inCheck && !tactical && !givesCheck && best > -mateBound {
			if depth <= 3 && quiets > 3+depth*depth*2 {
				continue
			}
			if depth <= 2 && staticEval+120*depth <= alpha {
				continue
			}
		}
		newDepth := depth - 1
		if givesCheck {
			newDepth++
		}
		s.keys = append(s.keys, child.Hash())
		var score int
		if i == 0 {
			score = -s.search(&child, newDepth, -beta, -alpha, ply+1, true)
		} else {
			r := 0
			if depth >= 3 && i >= 3 && !tactical && !givesCheck && !inCheck {
				r = lmr[min(depth, 63)][min(i, 63)]
				if pvNode {
					r--
				}
				if scores[i] >= orderKiller2 {
					r--
				}
				r = max(0, min(r, newDepth-1))
			}
			score = -s.search(&child, newDepth-r, -alpha-1, -alpha, ply+1, true)
			if score > alpha && r > 0 {
				score = -s.search(&child, newDepth, -alpha-1, -alpha, ply+1, true)
			}
			if score > alpha && score < beta {
				score = -s.search(&child, newDepth, -beta, -alpha, ply+1, true)
			}
		}
		s.keys = s.keys[:len(s.keys)-1]
		if s.stopped {
			return 0
		}
		if score > best {
			best, bestMove = score, m
			if score > alpha {
				alpha = score
				s.pv[ply][0] = m
				copy(s.pv[ply][1:], s.pv[ply+1][:s.pvLen[ply+1]])
				s.pvLen[ply] = s.pvLen[ply+1] + 1
				if score >= beta {
					if !tactical {
						s.rewardQuiet(side, m, depth, ply, moves[:i])
					}
					break
				}
			}
		}
	}

	b := boundExact
	switch {
	case best >= beta:
		b = boundLower
	case best <= origAlpha:
		b = boundUpper
		bestMove = ttMove
	}
	s.tt.store(key, bestMove, scoreToTT(best, ply), depth, b)
	return best
}

// rewardQuiet updates the killers and the history table after the quiet
// move m caused a cut-off, and punishes the quiet moves tried before it
// (https://www.chessprogramming.org/History_Heuristic).
func (s *searcher) rewardQuiet(side chess.Color, m chess.Move, depth, ply int, tried []chess.Move) {
	if s.killers[ply][0] != m {
		s.killers[ply][1] = s.killers[ply][0]
		s.killers[ply][0] = m
	}
	bonus := int32(min(depth*depth, 400))
	h := &s.history[side][m.From()][m.To()]
	*h += bonus - *h*bonus/512
	for _, q := range tried {
		if q.Kind() == chess.Castling || q.Promotion() != chess.NoPieceType {
			continue
		}
		h := &s.history[side][q.From()][q.To()]
		*h -= bonus + *h*bonus/512
	}
}

// quiesce searches captures and queen promotions only (all moves when in
// check) until the position is quiet, so that the evaluation is never taken
// in the middle of an exchange (https://www.chessprogramming.org/Quiescence_Search).
func (s *searcher) quiesce(p *chess.Position, alpha, beta, ply int) int {
	s.nodes++
	if s.checkStop() {
		return 0
	}
	s.selDepth = max(s.selDepth, ply)
	if ply >= maxPly-2 {
		return s.evaluate(p)
	}
	inCheck := p.InCheck()
	best := -infinity
	standPat := 0
	if !inCheck {
		standPat = s.evaluate(p)
		if standPat >= beta {
			return standPat
		}
		alpha = max(alpha, standPat)
		best = standPat
	}
	moves := p.AppendLegalMoves(s.moveBuf[ply][:0])
	if len(moves) == 0 {
		if inCheck {
			return -mateScore + ply
		}
		return 0 // stalemate
	}
	// Keep only the moves worth searching, with their order scores.
	scores := s.scoreBuf[ply][:0]
	n := 0
	for _, m := range moves {
		if !inCheck {
			if !p.IsCapture(m) && m.Promotion() != chess.Queen {
				continue
			}
			// Delta pruning: even winning the piece cannot raise alpha.
			victim := p.PieceAt(m.To()).Type()
			if m.Kind() == chess.EnPassant {
				victim = chess.Pawn
			}
			if m.Promotion() == chess.NoPieceType && standPat+seeValue[victim]+200 <= alpha {
				continue
			}
		}
		var sc int
		if p.IsCapture(m) || m.Promotion() == chess.Queen {
			sc = captureScore(p, m)
			if !inCheck && sc < 0 {
				continue // losing exchanges are not searched
			}
		} else {
			sc = int(s.history[p.SideToMove()][m.From()][m.To()])
		}
		moves[n] = m
		scores = append(scores, sc)
		n++
	}
	moves = moves[:n]
	for i := range moves {
		pickNext(moves, scores, i)
		child := p.Play(moves[i])
		score := -s.quiesce(&child, -beta, -alpha, ply+1)
		if s.stopped {
			return 0
		}
		if score > best {
			best = score
			if score > alpha {
				alpha = score
				if score >= beta {
					break
				}
			}
		}
	}
	return best
}

// splitmix is the SplitMix64 mixing function, used to derive reproducible
// pseudo-random numbers from a seed and a position key.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
