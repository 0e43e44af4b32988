package bot

import (
	"context"
	"errors"
	"sync"
	"time"

	"satranc/engine/chess"
)

// ErrNoMove is returned when the position has no legal move (the game is over).
var ErrNoMove = errors.New("bot: no legal move")

// Player chooses moves for one side of a game.
//
// Move returns the move to play in p. history holds the Zobrist keys
// (Position.Hash) of the positions before p in the game, oldest first, so
// that the player knows about repetitions; Keys builds it from a chess.Game.
// c is the player's own clock. Move returns a legal move whenever p has one,
// even when ctx is done (then it answers at once with the best move it has);
// it fails only with ErrNoMove.
type Player interface {
	Move(ctx context.Context, p chess.Position, history []uint64, c Clock) (chess.Move, error)
}

// Keys returns the Zobrist keys of the positions of g before its current
// one, oldest first: the history argument of Player.Move.
func Keys(g *chess.Game) []uint64 { return g.History() }

// untimedMoveTime bounds a Max search in an untimed game.
const untimedMoveTime = time.Second

// Bot is a computer player at one Level. It keeps a transposition table
// between moves. Its methods are safe for concurrent use, but it thinks
// about one position at a time, so give each game its own Bot.
type Bot struct {
	level Level
	mu    sync.Mutex
	seed  uint64
	eng   *Engine
	// trail holds the bot's evaluations of the positions it moved in this
	// game, oldest first, and offered the ply of its last draw offer (0:
	// none): resign.go.
	trail   []judged
	offered int
}

// New returns a bot at level l whose random choices follow seed: with the
// same seed it plays the same move in the same position (at Max, only when
// the search is limited by depth or nodes rather than time).
func New(l Level, seed uint64) *Bot {
	if l < Easy || l > Max {
		l = Max
	}
	mb := 1
	if l == Max {
		mb = 16
	}
	return &Bot{level: l, seed: seed, eng: NewEngine(mb)}
}

// Level returns the bot's level.
func (b *Bot) Level() Level { return b.level }

// NewGame forgets the previous game and reseeds the bot.
func (b *Bot) NewGame(seed uint64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.seed = seed
	b.eng.Clear()
	b.trail, b.offered = b.trail[:0], 0
}

// SetHash replaces the transposition table with one of about mb megabytes.
func (b *Bot) SetHash(mb int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.eng.tt = newTable(mb)
}

// Move implements Player. It plays as a person would: from its opening
// book while the game is in it (book.go), otherwise the move Think chooses
// within the clock's budget, and it remembers its evaluation for Resigns
// and OffersDraw.
func (b *Bot) Move(ctx context.Context, p chess.Position, history []uint64, c Clock) (chess.Move, error) {
	b.mu.Lock()
	m, ok := fromBook(&p, b.level, b.seed)
	b.mu.Unlock()
	if ok {
		return m, nil
	}
	soft, hard := Budget(c)
	if c.Remaining <= 0 && b.level == Max {
		soft, hard = untimedMoveTime, untimedMoveTime
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	res := b.think(ctx, p, history, Limits{Soft: soft, Hard: hard}, nil)
	if res.Move == chess.NullMove {
		return chess.NullMove, ErrNoMove
	}
	if res.Depth > 0 {
		b.remember(plyOf(&p), res.Score)
	}
	return res.Move, nil
}

// Think searches p within lim, further limited by the bot's level, and
// returns the search result with Move set to the move the bot plays (which
// below Max is not always the best one, but always a mate in one when
// there is one, and the shortest mate the search found). report is called
// after each completed iteration. Think is the engine's answer, for
// analysis and matches: it never plays from the opening book (Move does).
func (b *Bot) Think(ctx context.Context, p chess.Position, history []uint64, lim Limits, report func(Info)) Result {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.think(ctx, p, history, lim, report)
}

// think is Think with b.mu held.
func (b *Bot) think(ctx context.Context, p chess.Position, history []uint64, lim Limits, report func(Info)) Result {
	st := styles[b.level]
	if st.depth > 0 {
		lim.Depth = min(positive(lim.Depth, st.depth), st.depth)
	}
	if st.nodes > 0 {
		lim.Nodes = min(positive(lim.Nodes, st.nodes), st.nodes)
	}
	opt := options{noise: st.noise, seed: b.seed, margin: st.margin}
	if b.level != Max {
		// A fresh table per move keeps a level's choice a function of the
		// position and the seed alone.
		b.eng.Clear()
	}
	res := b.eng.search(ctx, p, history, lim, opt, report)
	root := res.Root
	if _, mate := MateIn(res.Score); !mate && st.lapses(splitmix(b.seed^p.Hash()^0x1a75e)) {
		// A moment of inattention (lapse.go); never when the search saw
		// a mate, for either side.
		root = glance(&p, st.noise, b.seed)
	}
	if m := st.choose(root, splitmix(b.seed^p.Hash()^0x5eed)); m != chess.NullMove && m != res.Move {
		res.Move = m
		res.PV = []chess.Move{m}
	}
	// A mate in one is always played, at every level, whatever the search
	// was cut short by: a person who can mate does.
	if m, ok := mateInOne(p, res.Root); ok && m != res.Move {
		res.Move, res.Score = m, mateScore-1
		res.PV = []chess.Move{m}
	}
	return res
}

// mateInOne returns a move among root that checkmates at once, the first
// in root's order (the search's best first), if there is one.
func mateInOne(p chess.Position, root []RootMove) (chess.Move, bool) {
	var buf [chess.MaxMoves]chess.Move
	for _, rm := range root {
		if mates(p, rm.Move, buf[:0]) {
			return rm.Move, true
		}
	}
	return chess.NullMove, false
}

// mates reports whether m checkmates in p; buf is scratch space.
func mates(p chess.Position, m chess.Move, buf []chess.Move) bool {
	child := p.Play(m)
	return child.InCheck() && len(child.AppendLegalMoves(buf)) == 0
}

// positive returns x, or def when x is zero.
func positive[T int | uint64](x, def T) T {
	if x == 0 {
		return def
	}
	return x
}
