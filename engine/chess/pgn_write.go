package chess

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// pgnLineWidth is the longest line WritePGN writes, as the PGN export format
// asks (PGN standard §8.2.2.2). A single longer token gets a line of its own.
const pgnLineWidth = 80

// sevenTagRoster are the tags every exported game has, in this order, with
// the value for an unknown one (PGN standard §8.1.1).
var sevenTagRoster = [...]PGNTag{
	{"Event", "?"}, {"Site", "?"}, {"Date", "????.??.??"}, {"Round", "?"},
	{"White", "?"}, {"Black", "?"}, {"Result", "*"},
}

func isSevenTagRoster(name string) bool {
	for _, t := range sevenTagRoster {
		if t.Name == name {
			return true
		}
	}
	return false
}

// WritePGN writes g in the PGN export format, with SAN in the letters l:
// the Seven Tag Roster first (Event, Site, Date, Round, White, Black, Result;
// "?", "????.??.??" or "*" where g has no value), then g's other tags in
// their order, then the movetext wrapped at 80 characters, then a blank line.
//
// The Result tag and the movetext's end are g.Result (or, if that is not a
// result, the Result tag, or "*"). If g.Start is not the standard start, or
// g has a FEN tag, the FEN tag is set to g.Start (keeping the tag's own text
// if it is the same position), and a SetUp "1" tag is added if g has none;
// added tags come right after the roster. Comments
// are written in braces, each move's clock first as [%clk h:mm:ss]; a
// comment containing "}" is written as a ; comment instead. NAGs are
// written as $n. g.Record is not used.
//
// The moves must be legal from g.Start; WritePGN checks that and writes
// nothing if one is not.
func WritePGN(w io.Writer, g *PGNGame, l Letters) error {
	start := g.Start
	if start.Occupied() == 0 {
		start = StartPosition()
	}
	result := g.Result
	if !isPGNResult(result) {
		result = "*"
		if v, ok := g.Tag("Result"); ok && isPGNResult(v) {
			result = v
		}
	}

	var b strings.Builder
	if err := writePGNTags(&b, g, start, result); err != nil {
		return err
	}
	b.WriteByte('\n')
	if err := writePGNMovetext(&b, g, start, result, l); err != nil {
		return err
	}
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}

func writePGNTags(b *strings.Builder, g *PGNGame, start Position, result string) error {
	for _, t := range sevenTagRoster {
		v, ok := g.Tag(t.Name)
		switch {
		case t.Name == "Result":
			v = result
		case !ok:
			v = t.Value
		}
		if err := writePGNTag(b, t.Name, v); err != nil {
			return err
		}
	}

	fen, hasFEN := g.Tag("FEN")
	_, hasSetUp := g.Tag("SetUp")
	standard := start.FEN() == StartFEN
	if !standard || hasFEN {
		// Keep the tag's own text if it is the same position written
		// differently (say without the move counters).
		if q, err := ParseFEN(fen); !hasFEN || err != nil || q.FEN() != start.FEN() {
			fen = start.FEN()
		}
		if !hasSetUp {
			if err := writePGNTag(b, "SetUp", "1"); err != nil {
				return err
			}
		}
		if !hasFEN {
			if err := writePGNTag(b, "FEN", fen); err != nil {
				return err
			}
		}
	}
	for _, t := range g.Tags {
		if isSevenTagRoster(t.Name) {
			continue
		}
		v := t.Value
		if t.Name == "FEN" {
			v = fen
		}
		if err := writePGNTag(b, t.Name, v); err != nil {
			return err
		}
	}
	return nil
}

func writePGNTag(b *strings.Builder, name, value string) error {
	if name == "" || strings.IndexFunc(name, func(r rune) bool { return r > 127 || !isTagNameByte(byte(r)) }) >= 0 {
		return fmt.Errorf("%w: tag name %q: want letters, digits and _", ErrInvalidPGN, name)
	}
	if strings.ContainsAny(value, "\n\r") {
		return fmt.Errorf("%w: tag %s: the value has a line break", ErrInvalidPGN, name)
	}
	value = strings.ReplaceAll(value, `\`, `\\`)
	value = strings.ReplaceAll(value, `"`, `\"`)
	fmt.Fprintf(b, "[%s \"%s\"]\n", name, value)
	return nil
}

// pgnLines wraps tokens into lines of at most pgnLineWidth characters.
type pgnLines struct {
	b   *strings.Builder
	col int // characters on the current line
}

func (w *pgnLines) word(s string) {
	n := utf8.RuneCountInString(s)
	if w.col > 0 {
		if w.col+1+n > pgnLineWidth {
			w.newline()
		} else {
			w.b.WriteByte(' ')
			w.col++
		}
	}
	w.b.WriteString(s)
	w.col += n
}

func (w *pgnLines) newline() {
	w.b.WriteByte('\n')
	w.col = 0
}

// comment writes a comment: in braces, its words wrapped like moves, or, if
// it has a }, as a ; comment, which runs to the end of its line.
func (w *pgnLines) comment(text string) {
	words := strings.Fields(text)
	if len(words) == 0 {
		return
	}
	if strings.Contains(text, "}") {
		w.word("; " + strings.Join(words, " "))
		w.newline()
		return
	}
	words[0] = "{" + words[0]
	words[len(words)-1] += "}"
	for _, word := range words {
		w.word(word)
	}
}

func writePGNMovetext(b *strings.Builder, g *PGNGame, start Position, result string, l Letters) error {
	w := &pgnLines{b: b}
	w.comment(g.Comment)
	numberBlack := true // Black's move needs its number: first move, or after a comment
	p := start
	var buf [MaxMoves]Move
	for _, pm := range g.Moves {
		legal := false
		for _, m := range p.AppendLegalMoves(buf[:0]) {
			if m == pm.Move {
				legal = true
				break
			}
		}
		if !legal {
			return fmt.Errorf("chess: WritePGN: move %d (%s) %s: %w in %s", p.FullmoveNumber(), p.SideToMove(), pm.Move, ErrIllegalMove, p.FEN())
		}
		// The move number, the move and its NAGs stay on one line.
		var unit []byte
		switch {
		case p.SideToMove() == White:
			unit = append(strconv.AppendInt(unit, int64(p.FullmoveNumber()), 10), ". "...)
		case numberBlack:
			unit = append(strconv.AppendInt(unit, int64(p.FullmoveNumber()), 10), "... "...)
		}
		unit = append(unit, p.SAN(pm.Move, l)...)
		for _, n := range pm.NAGs {
			if n < 0 || n > 255 {
				return fmt.Errorf("%w: NAG %d: want 0 to 255", ErrInvalidPGN, n)
			}
			unit = strconv.AppendInt(append(unit, " $"...), int64(n), 10)
		}
		w.word(string(unit))
		numberBlack = false
		if pm.HasClock {
			if strings.Contains(pm.Comment, "}") {
				w.comment(clockCommand(pm.Clock))
				w.comment(pm.Comment)
			} else {
				w.comment(clockCommand(pm.Clock) + " " + pm.Comment)
			}
			numberBlack = true
		} else if strings.TrimSpace(pm.Comment) != "" {
			w.comment(pm.Comment)
			numberBlack = true
		}
		p = p.Play(pm.Move)
	}
	w.word(result)
	w.newline()
	return nil
}

// clockCommand writes d as [%clk h:mm:ss], with decimals only if d has a
// fraction of a second. A negative d is written as 0:00:00.
func clockCommand(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	h := d / time.Hour
	m := d % time.Hour / time.Minute
	s := d % time.Minute / time.Second
	frac := d % time.Second
	out := fmt.Sprintf("[%%clk %d:%02d:%02d", h, m, s)
	if frac != 0 {
		out += strings.TrimRight(fmt.Sprintf(".%09d", frac), "0")
	}
	return out + "]"
}
