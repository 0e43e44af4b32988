package bot

import "satranc/engine/chess"

// Lapses are how a beginner blunders. A player near 800 does not play
// random moves: they play a natural move — a capture, a check, a piece
// put on a square it is safe on — and overlook what it leaves behind: a
// piece that was attacked and stays attacked, a defender drawn away, a
// fork, a pin, a mate threatened against them. At a lapse the level judges
// each legal move by what it does on the board (the position after it, by
// the level's own noisy evaluation) less what the opponent wins by
// capturing the piece moved on its new square (static exchange), and sees
// nothing else of the reply. The choice among the moves so judged is the
// level's usual one (margin and temperature).
//
// A lapse never stops a level from playing a mate it sees: when the search
// found a forced mate for the bot, it plays it, and a mate in one is
// always played (Bot.think).

// lapses reports whether the level has a lapse in p; r is the random value
// that decides.
func (st style) lapses(r uint64) bool {
	return st.lapse > 0 && r%1000 < uint64(st.lapse)
}

// glance scores every legal move of p as a lapse judges it, best first.
func glance(p *chess.Position, noise int, seed uint64) []RootMove {
	var buf, replies [chess.MaxMoves]chess.Move
	moves := p.AppendLegalMoves(buf[:0])
	root := make([]RootMove, 0, len(moves))
	for _, m := range moves {
		child := p.Play(m)
		score := -noisyEvaluate(&child, noise, seed)
		loss := 0
		for _, r := range child.AppendLegalMoves(replies[:0]) {
			if r.To() == m.To() {
				loss = max(loss, see(&child, r))
			}
		}
		root = append(root, RootMove{Move: m, Score: score - loss, Exact: true})
	}
	sortRoot(root)
	return root
}
