package bot

import "satranc/engine/chess"

// A bot gives up a lost game and offers a draw in a drawn one as a person
// does. It judges by its own evaluations of the positions it moved in
// (the scores of its searches, level's noise and all), which Move keeps
// for the game: it resigns only after several moves in a row in a
// hopeless position, never in the first moves of a game, and never while
// the opponent could not mate it; it offers a draw in a dead-drawn ending
// or a repeating position when it does not stand better, and not again
// for a while after an offer.

// resignRule is when a level resigns: after moves of its own moves in a
// row evaluated at or below score centipawns (or mated).
type resignRule struct {
	moves int
	score int
}

// resignRules is indexed by Level: weaker players play on longer, hoping
// for a blunder, as people at that level do.
var resignRules = [...]resignRule{
	Easy:   {moves: 5, score: -900},
	Medium: {moves: 4, score: -700},
	Hard:   {moves: 3, score: -600},
	Max:    {moves: 3, score: -600},
}

const (
	// resignFromMove is the first move number at which a bot resigns.
	resignFromMove = 20
	// drawOfferGap is how many of its own moves a bot lets pass after an
	// offer before it offers again.
	drawOfferGap = 10
	// drawOfferScore bounds, ± centipawns, the evaluation at which a bot
	// offers a draw in a dead-drawn ending; in a repeating position it
	// offers from -drawOfferScore to drawEqual.
	drawOfferScore = 100
	// trailLen is how many of its evaluations a bot keeps.
	trailLen = 8
)

// judged is a bot's evaluation of a position it moved in: ply of the game
// and the score of its search, from its own side.
type judged struct {
	ply   int
	score int
}

// remember adds the bot's evaluation of the position at ply (b.mu held).
func (b *Bot) remember(ply, score int) {
	if n := len(b.trail); n > 0 && b.trail[n-1].ply >= ply {
		// The same position again (a search stopped and started over),
		// or an earlier one: what came after it no longer counts.
		i := n - 1
		for i > 0 && b.trail[i-1].ply >= ply {
			i--
		}
		b.trail = b.trail[:i]
	}
	if len(b.trail) == trailLen {
		copy(b.trail, b.trail[1:])
		b.trail = b.trail[:trailLen-1]
	}
	b.trail = append(b.trail, judged{ply: ply, score: score})
}

// streak returns the bot's evaluations of its last moves in a row up to
// the position at ply, latest first.
func (b *Bot) streak(ply int) []int {
	var scores []int
	for i := len(b.trail) - 1; i >= 0 && b.trail[i].ply == ply; i-- {
		scores = append(scores, b.trail[i].score)
		ply -= 2
	}
	return scores
}

// Resigns reports whether the bot, to move in p, resigns rather than
// play the move Move gave for p: when its last moves, p's included, were
// all evaluated hopeless (resignRules), from move resignFromMove on, and
// only while its opponent has the material to mate it.
func (b *Bot) Resigns(p chess.Position) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	rule := resignRules[b.level]
	if p.FullmoveNumber() < resignFromMove || !canMate(&p, p.SideToMove().Other()) {
		return false
	}
	scores := b.streak(plyOf(&p))
	if len(scores) < rule.moves {
		return false
	}
	for _, s := range scores[:rule.moves] {
		if s > rule.score {
			return false
		}
	}
	return true
}

// OffersDraw reports whether the bot, to move in p (history as for
// Move), offers a draw with the move Move gave for p: in a dead-drawn
// ending (deadDrawn) within drawOfferScore of equal, or when p repeats an
// earlier position and it stands no better than equal (and not far
// worse either: then it hopes to be let off and says nothing); but not
// within drawOfferGap of its moves after its last offer, and never when
// it sees a mate. A true answer counts as an offer made.
func (b *Bot) OffersDraw(p chess.Position, history []uint64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	ply := plyOf(&p)
	scores := b.streak(ply)
	if len(scores) == 0 || (b.offered > 0 && ply < b.offered+2*drawOfferGap) {
		return false
	}
	score := scores[0]
	if _, mate := MateIn(score); mate {
		return false
	}
	offer := deadDrawn(&p) && abs(score) <= drawOfferScore ||
		repeats(&p, history) && score >= -drawOfferScore && score <= drawEqual
	if offer {
		b.offered = ply
	}
	return offer
}

// repeats reports whether p occurred before in the game (history as for
// Move).
func repeats(p *chess.Position, history []uint64) bool {
	key := p.Hash()
	for i := len(history) - 1; i >= 0 && len(history)-i <= p.HalfmoveClock(); i-- {
		if history[i] == key {
			return true
		}
	}
	return false
}

// canMate reports whether c has the material to mate: a pawn, a rook or a
// queen, or two minor pieces.
func canMate(p *chess.Position, c chess.Color) bool {
	if p.Pieces(c, chess.Pawn)|p.Pieces(c, chess.Rook)|p.Pieces(c, chess.Queen) != 0 {
		return true
	}
	return (p.Pieces(c, chess.Knight) | p.Pieces(c, chess.Bishop)).Count() >= 2
}

// deadDrawn reports whether p is an ending nobody wins with sensible play:
// no pawns and no more than a minor piece between the sides (rook against
// rook, rook and bishop against rook, queen against queen …), or bishops
// of opposite colours alone with at most a pawn between the sides.
func deadDrawn(p *chess.Position) bool {
	w, b := chess.White, chess.Black
	pawns := [2]int{p.Pieces(w, chess.Pawn).Count(), p.Pieces(b, chess.Pawn).Count()}
	if pawns[0]+pawns[1] == 0 {
		return abs(material(p, w)-material(p, b)) < seeValue[chess.Rook]-100
	}
	for _, c := range []chess.Color{w, b} {
		others := p.Pieces(c, chess.Knight) | p.Pieces(c, chess.Rook) | p.Pieces(c, chess.Queen)
		if others != 0 || p.Pieces(c, chess.Bishop).Count() != 1 {
			return false
		}
	}
	light := func(c chess.Color) bool {
		s := p.Pieces(c, chess.Bishop).First()
		return (s.File()+s.Rank())%2 == 1
	}
	return light(w) != light(b) && abs(pawns[0]-pawns[1]) <= 1
}
