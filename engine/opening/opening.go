package opening

import (
	"bufio"
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"

	"satranc/engine/chess"
)

// ErrInvalidData is wrapped by the errors of a malformed data file.
var ErrInvalidData = errors.New("opening: invalid data")

//go:embed data/*.tsv
var files embed.FS

// Opening is a named opening: its ECO code, such as "B20", and its English
// name, such as "Sicilian Defense" or "Ruy Lopez: Morphy Defense".
type Opening struct {
	ECO, Name string
}

// Family returns the name's part before the colon, the opening's family:
// "Ruy Lopez" for "Ruy Lopez: Morphy Defense", the whole name when it has
// no variation.
func (o Opening) Family() string {
	family, _, _ := strings.Cut(o.Name, ":")
	return strings.TrimSpace(family)
}

// Variation returns the name's part after the colon, such as "Morphy
// Defense", or "" when the name is a family alone.
func (o Opening) Variation() string {
	_, variation, _ := strings.Cut(o.Name, ":")
	return strings.TrimSpace(variation)
}

// Line is a named opening with the moves of its best-known line from the
// standard start position.
type Line struct {
	Opening
	Moves []chess.Move
}

// key is what makes two positions the same for naming an opening: the
// placement, the side to move, the castling rights and the en-passant
// square (which chess.Position keeps only when the capture is legal), that
// is, the FEN without its move counters.
type key struct {
	board    [64]chess.Piece
	side     chess.Color
	castling chess.CastlingRights
	ep       chess.Square
}

func keyOf(p *chess.Position) key {
	k := key{side: p.SideToMove(), castling: p.Castling(), ep: p.EnPassant()}
	for s := range chess.Square(64) {
		k.board[s] = p.PieceAt(s)
	}
	return k
}

// book is the parsed data: each named position, and the lines in the
// files' order (ECO volumes A to E, each sorted as the data set sorts it).
type book struct {
	// hashes holds the Zobrist keys of the named positions: a quick test
	// before the exact one of named.
	hashes map[uint64]struct{}
	named  map[key]Opening
	lines  []Line
	start  key
}

// loaded is the book, parsed on first use.
var loaded = sync.OnceValue(func() *book {
	b, err := parse(files)
	if err != nil {
		panic(err) // the embedded files are tested to parse (TestEveryLineParses)
	}
	return b
})

// Preload reads the book now if it has not been read. A server calls it
// as it starts: otherwise the first game to be named, or the first bot
// to play from the book, waits the 30 to 40 ms of the reading
// (BenchmarkParse).
func Preload() { loaded() }

// parse reads the data files of fsys (data/*.tsv).
func parse(fsys fs.FS) (*book, error) {
	names, err := fs.Glob(fsys, "data/*.tsv")
	if err != nil {
		return nil, err
	}
	start := chess.StartPosition()
	b := &book{hashes: make(map[uint64]struct{}, 4096), named: make(map[key]Opening, 4096), start: keyOf(&start)}
	for _, name := range names { // fs.Glob sorts: a.tsv … e.tsv
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		if err := b.read(name, data); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// read adds the lines of one file: a header "eco name pgn", then one
// opening a line, its columns separated by tabs.
func (b *book) read(name string, data []byte) error {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		text := sc.Text()
		if n == 1 || text == "" {
			continue // the header
		}
		cols := strings.Split(text, "\t")
		if len(cols) != 3 || cols[0] == "" || cols[1] == "" {
			return fmt.Errorf("%w: %s:%d: want 3 columns: eco, name, pgn", ErrInvalidData, name, n)
		}
		l := Line{Opening: Opening{ECO: cols[0], Name: cols[1]}}
		p := chess.StartPosition()
		for _, tok := range strings.Fields(cols[2]) {
			san := strings.TrimLeft(tok, "0123456789.") // "1." or "1.e4"
			if san == "" {
				continue
			}
			m, err := p.ParseSAN(san, chess.English)
			if err != nil {
				return fmt.Errorf("%w: %s:%d: %w", ErrInvalidData, name, n, err)
			}
			l.Moves = append(l.Moves, m)
			p = p.Play(m)
		}
		if len(l.Moves) == 0 {
			return fmt.Errorf("%w: %s:%d: no moves", ErrInvalidData, name, n)
		}
		b.lines = append(b.lines, l)
		// A position reached by two lines keeps the first name (the data
		// set has none such; TestNamedPositionsAreDistinct).
		if k := keyOf(&p); b.named[k] == (Opening{}) {
			b.named[k] = l.Opening
			b.hashes[p.Hash()] = struct{}{}
		}
	}
	return sc.Err()
}

// find returns the name of position p, if it has one.
func (b *book) find(p *chess.Position) (Opening, bool) {
	if _, ok := b.hashes[p.Hash()]; !ok {
		return Opening{}, false
	}
	o, ok := b.named[keyOf(p)]
	return o, ok
}

// Lookup returns the opening of the game that began at start and went on
// with moves: the name of the last named position of the game, walking
// back from the current one. A game that has left the book keeps the name
// of the last named position it passed; a transposition is found, as
// positions are compared, not moves. It returns false for a game that has
// passed no named position, and for a game that did not begin at the
// standard start position. The moves must be legal.
func Lookup(start chess.Position, moves []chess.Move) (Opening, bool) {
	w := Begin(start)
	for _, m := range moves {
		w.Play(m)
	}
	return w.Opening()
}

// Walk is a game's way through the book so far: the position it has
// reached and the last named position it passed, which is its opening as
// Lookup names it. Kept for a live game, it names the opening again after
// a move by looking at that move's position alone, where Lookup plays the
// whole game again: 60 positions for the 60th ply. Walking forward and
// keeping the last name found is walking back from the current position
// to the last named one, without keeping the positions.
type Walk struct {
	pos   chess.Position
	plies int
	last  Opening
	found bool
	// named says the game began at the standard start position, the one
	// every line of the book begins at; no other game has a name.
	named bool
}

// Begin starts the walk of a game that begins at start.
func Begin(start chess.Position) Walk {
	return Walk{pos: start, named: keyOf(&start) == loaded().start}
}

// Play follows move m, which must be legal in the position reached.
func (w *Walk) Play(m chess.Move) {
	w.plies++
	if !w.named {
		return
	}
	w.pos = w.pos.Play(m)
	if o, ok := loaded().find(&w.pos); ok {
		w.last, w.found = o, true
	}
}

// Plies returns how many moves the walk has followed.
func (w *Walk) Plies() int { return w.plies }

// Opening returns the name of the last named position the game passed,
// false if it has passed none.
func (w *Walk) Opening() (Opening, bool) { return w.last, w.found }

// Lines returns every named line, in the order of the data set (by ECO
// code). The slice is the caller's; the Moves of each line are shared and
// must not be modified.
func Lines() []Line {
	return append([]Line(nil), loaded().lines...)
}
