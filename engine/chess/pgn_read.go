package chess

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// The PGN lexer: it turns the text into tokens (PGN standard §7 and §8.2).
//
// Import is lenient where the meaning is clear: CRLF line ends, a byte order
// mark anywhere between tokens, "1.e4" without a space, "0-0" for castling,
// move numbers that are not checked. It is strict where a guess could lose a
// move: an unterminated comment, tag or variation is an error.

type pgnTokenKind uint8

const (
	tokEOF     pgnTokenKind = iota
	tokTag                  // [Name "Value"]: text is the name, value the value
	tokNumber               // a move number indication such as 12. or 12...
	tokSymbol               // a move, as text
	tokComment              // {...} or ;... : text without the delimiters
	tokNAG                  // $n, ! ? !! ?? !? ?!: nag
	tokOpen                 // ( starts a variation
	tokClose                // ) ends it
	tokResult               // 1-0, 0-1, 1/2-1/2 or *: text
)

type pgnToken struct {
	kind  pgnTokenKind
	text  string
	value string
	nag   int
	line  int
}

// maxSymbolLen bounds a move token; the longest SAN is about 8 bytes.
const maxSymbolLen = 64

type pgnLexer struct {
	r         *bufio.Reader
	line      int
	lineStart bool // nothing but the line's start has been read: a % here escapes the line
	pushed    *pgnToken
}

func newPGNLexer(r io.Reader) *pgnLexer {
	return &pgnLexer{r: bufio.NewReader(r), line: 1, lineStart: true}
}

func (lx *pgnLexer) unread(t pgnToken) { lx.pushed = &t }

func (lx *pgnLexer) syntaxError(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidPGN, fmt.Sprintf(format, args...))
}

// readByte reads one byte and counts lines.
func (lx *pgnLexer) readByte() (byte, error) {
	c, err := lx.r.ReadByte()
	if err == nil && c == '\n' {
		lx.line++
	}
	return c, err
}

// unreadByte puts back the byte just read.
func (lx *pgnLexer) unreadByte(c byte) {
	if lx.r.UnreadByte() == nil && c == '\n' {
		lx.line--
	}
}

// isPGNDelimiter reports whether c ends a symbol.
func isPGNDelimiter(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '\v', '\f', '{', '}', '(', ')', '[', ']', ';', '$', '!', '?', '"', '.', '*':
		return true
	}
	return false
}

// next returns the next token. An error wraps ErrInvalidPGN for bad text;
// any other error is the reader's. Either way at least one byte has been
// consumed, so a caller that skips errors makes progress.
func (lx *pgnLexer) next() (pgnToken, error) {
	if lx.pushed != nil {
		t := *lx.pushed
		lx.pushed = nil
		return t, nil
	}
	for {
		c, err := lx.readByte()
		if err != nil {
			if err == io.EOF {
				return pgnToken{kind: tokEOF, line: lx.line}, nil
			}
			return pgnToken{line: lx.line}, err
		}
		switch c {
		case '\n':
			lx.lineStart = true
			continue
		case ' ', '\t', '\r', '\v', '\f':
			if c != '\r' {
				lx.lineStart = false
			}
			continue
		case 0xEF: // a UTF-8 byte order mark, as Windows editors write
			if b, _ := lx.r.Peek(2); len(b) == 2 && b[0] == 0xBB && b[1] == 0xBF {
				_, _ = lx.r.Discard(2)
				continue
			}
		case '%':
			if lx.lineStart { // an escape line (PGN §6): ignored
				if err := lx.skipLine(); err != nil {
					return pgnToken{line: lx.line}, err
				}
				continue
			}
		case '.':
			// Dots outside a move number ("1 ... e5") carry no meaning.
			lx.lineStart = false
			continue
		}
		lx.lineStart = false
		line := lx.line
		t, err := lx.token(c)
		t.line = line
		return t, err
	}
}

// token reads the token that starts with c.
func (lx *pgnLexer) token(c byte) (pgnToken, error) {
	switch c {
	case '{':
		return lx.braceComment()
	case ';':
		text, err := lx.restOfLine()
		return pgnToken{kind: tokComment, text: normalizeComment(text)}, err
	case '[':
		return lx.tag()
	case '(':
		return pgnToken{kind: tokOpen}, nil
	case ')':
		return pgnToken{kind: tokClose}, nil
	case '*':
		return pgnToken{kind: tokResult, text: "*"}, nil
	case '$':
		return lx.nag()
	case '!', '?':
		return lx.suffixNAG(c)
	case '"', ']', '}', '%':
		return pgnToken{}, lx.syntaxError("unexpected %q", c)
	}
	return lx.symbol(c)
}

func (lx *pgnLexer) skipLine() error {
	_, err := lx.restOfLine()
	return err
}

// restOfLine reads up to the end of the line, leaving the newline unread.
func (lx *pgnLexer) restOfLine() (string, error) {
	var b strings.Builder
	for {
		c, err := lx.readByte()
		if err == io.EOF {
			return b.String(), nil
		}
		if err != nil {
			return "", err
		}
		if c == '\n' {
			lx.unreadByte(c)
			return b.String(), nil
		}
		b.WriteByte(c)
	}
}

func (lx *pgnLexer) braceComment() (pgnToken, error) {
	start := lx.line
	var b strings.Builder
	for {
		c, err := lx.readByte()
		if err == io.EOF {
			return pgnToken{}, lx.syntaxError("comment opened on line %d is not closed with }", start)
		}
		if err != nil {
			return pgnToken{}, err
		}
		if c == '}' {
			return pgnToken{kind: tokComment, text: normalizeComment(b.String())}, nil
		}
		b.WriteByte(c)
	}
}

// tag reads a tag pair after its [. A bad tag pair discards the rest of its
// line, so that reading can go on with the next line.
func (lx *pgnLexer) tag() (pgnToken, error) {
	t, err := lx.tagPair()
	if err != nil && errors.Is(err, ErrInvalidPGN) {
		if c, rerr := lx.readByte(); rerr == nil && c != '\n' {
			if serr := lx.skipLine(); serr != nil {
				return pgnToken{}, serr
			}
		} else if rerr == nil {
			lx.unreadByte(c)
		}
	}
	return t, err
}

func (lx *pgnLexer) tagPair() (pgnToken, error) {
	c, err := lx.skipSpaces()
	if err != nil {
		return pgnToken{}, err
	}
	var name []byte
	for isTagNameByte(c) {
		name = append(name, c)
		if c, err = lx.readByte(); err != nil {
			return pgnToken{}, lx.eofInTag(err)
		}
	}
	if len(name) == 0 {
		lx.unreadByte(c)
		return pgnToken{}, lx.syntaxError("tag pair: want a name of letters, digits and _ after [")
	}
	if c == ' ' || c == '\t' {
		if c, err = lx.skipSpaces(); err != nil {
			return pgnToken{}, err
		}
	}
	if c != '"' {
		lx.unreadByte(c)
		return pgnToken{}, lx.syntaxError("tag pair %s: want a value in double quotes", name)
	}
	var value strings.Builder
	for {
		if c, err = lx.readByte(); err != nil {
			return pgnToken{}, lx.eofInTag(err)
		}
		if c == '"' {
			break
		}
		if c == '\n' || c == '\r' {
			lx.unreadByte(c)
			return pgnToken{}, lx.syntaxError("tag pair %s: value not closed with \" on its line", name)
		}
		if c == '\\' {
			next, err := lx.readByte()
			if err != nil {
				return pgnToken{}, lx.eofInTag(err)
			}
			if next != '"' && next != '\\' {
				lx.unreadByte(next) // a lone backslash stands for itself
			} else {
				c = next
			}
		}
		value.WriteByte(c)
	}
	if c, err = lx.skipSpaces(); err != nil {
		return pgnToken{}, err
	}
	if c != ']' {
		lx.unreadByte(c)
		return pgnToken{}, lx.syntaxError("tag pair %s: want ] after the value", name)
	}
	return pgnToken{kind: tokTag, text: string(name), value: value.String()}, nil
}

func isTagNameByte(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_'
}

// skipSpaces skips spaces and tabs and returns the next byte.
func (lx *pgnLexer) skipSpaces() (byte, error) {
	for {
		c, err := lx.readByte()
		if err != nil {
			return 0, lx.eofInTag(err)
		}
		if c != ' ' && c != '\t' {
			return c, nil
		}
	}
}

func (lx *pgnLexer) eofInTag(err error) error {
	if err == io.EOF {
		return lx.syntaxError("tag pair not closed with ] before the end of the text")
	}
	return err
}

// nag reads the digits of $n.
func (lx *pgnLexer) nag() (pgnToken, error) {
	n, digits := 0, 0
	for {
		c, err := lx.readByte()
		if err != nil && err != io.EOF {
			return pgnToken{}, err
		}
		if err == nil && c >= '0' && c <= '9' && digits < 4 {
			n = n*10 + int(c-'0')
			digits++
			continue
		}
		if err == nil {
			lx.unreadByte(c)
		}
		break
	}
	if digits == 0 || n > 255 {
		return pgnToken{}, lx.syntaxError("NAG: want $ and a number from 0 to 255")
	}
	return pgnToken{kind: tokNAG, nag: n}, nil
}

// suffixNAGs maps the move suffix annotations to their NAGs (PGN §8.2.3.8).
var suffixNAGs = map[string]int{"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}

func (lx *pgnLexer) suffixNAG(first byte) (pgnToken, error) {
	s := []byte{first}
	for {
		c, err := lx.readByte()
		if err != nil && err != io.EOF {
			return pgnToken{}, err
		}
		if err == nil && (c == '!' || c == '?') {
			s = append(s, c)
			if len(s) > 2 {
				return pgnToken{}, lx.syntaxError("annotation %q: want one of ! ? !! ?? !? ?!", s)
			}
			continue
		}
		if err == nil {
			lx.unreadByte(c)
		}
		break
	}
	return pgnToken{kind: tokNAG, nag: suffixNAGs[string(s)]}, nil
}

// symbol reads a move, a move number or a result.
func (lx *pgnLexer) symbol(first byte) (pgnToken, error) {
	s := []byte{first}
	for {
		c, err := lx.readByte()
		if err != nil && err != io.EOF {
			return pgnToken{}, err
		}
		if err == io.EOF {
			break
		}
		if isPGNDelimiter(c) {
			lx.unreadByte(c)
			break
		}
		if len(s) == maxSymbolLen {
			return pgnToken{}, lx.syntaxError("%q...: too long for a move", s)
		}
		s = append(s, c)
	}
	text := string(s)
	if isPGNResult(text) {
		return pgnToken{kind: tokResult, text: text}, nil
	}
	if strings.Trim(text, "0123456789") == "" {
		// A move number: its dots, if any, follow.
		for {
			c, err := lx.readByte()
			if err != nil && err != io.EOF {
				return pgnToken{}, err
			}
			if err == nil && c != '.' {
				lx.unreadByte(c)
			}
			if err != nil || c != '.' {
				break
			}
		}
		return pgnToken{kind: tokNumber, text: text}, nil
	}
	return pgnToken{kind: tokSymbol, text: text}, nil
}

// PGNReader reads the games of a PGN text one by one. Use NewPGNReader.
type PGNReader struct {
	lx      *pgnLexer
	letters Letters
	games   int   // games started so far
	ioErr   error // a read error of the underlying reader, returned from then on

	// After an error in the middle of a game, the rest of that game is
	// skipped by the next call to Next.
	skip           bool
	skipInMovetext bool
	skipDepth      int
}

// NewPGNReader returns a reader of the PGN games in r, whose moves are
// written in SAN with the letters l (or in UCI, such as e2e4).
func NewPGNReader(r io.Reader, l Letters) *PGNReader {
	return &PGNReader{lx: newPGNLexer(r), letters: l}
}

// Next reads the next game and replays its moves by the rules. It returns
// io.EOF when there are no more games.
//
// A game is its tag pairs and its movetext, up to the result (1-0, 0-1,
// 1/2-1/2 or *), or up to the next tag pair or the end of the text if the
// result is missing; movetext alone is a game too. Variations are skipped.
// The FEN tag, if present, gives the start position (whatever the SetUp
// tag says); a Variant tag other than Standard or From Position is an error.
//
// A move that cannot be read or is illegal, a move after the rules ended the
// game (checkmate, stalemate, threefold repetition, fifty-move rule,
// insufficient material), a bad FEN tag and a syntax error give a
// *PGNError. The next call to Next then skips the rest of that game and
// reads the following one. An error of the underlying reader is returned as
// it is, by this call and all later ones.
func (r *PGNReader) Next() (*PGNGame, error) {
	if r.ioErr != nil {
		return nil, r.ioErr
	}
	if r.skip {
		r.skip = false
		if err := r.skipGame(); err != nil {
			return nil, err
		}
	}
	st := gameReader{r: r}
	g, err := st.read()
	if err != nil {
		var pe *PGNError
		if !errors.As(err, &pe) {
			r.ioErr = err
		}
		return nil, err
	}
	return g, nil
}

// skipGame skips the rest of a game in which an error was found.
func (r *PGNReader) skipGame() error {
	inMovetext, depth := r.skipInMovetext, r.skipDepth
	for {
		t, err := r.lx.next()
		if err != nil {
			if errors.Is(err, ErrInvalidPGN) {
				continue
			}
			r.ioErr = err
			return err
		}
		switch t.kind {
		case tokEOF:
			return nil
		case tokTag:
			if inMovetext {
				r.lx.unread(t)
				return nil
			}
		case tokComment:
		case tokOpen:
			depth++
			inMovetext = true
		case tokClose:
			if depth > 0 {
				depth--
			}
		case tokResult:
			if depth == 0 {
				return nil
			}
		default:
			inMovetext = true
		}
	}
}

// gameReader holds the state of the game being read.
type gameReader struct {
	r          *PGNReader
	g          PGNGame
	started    bool
	inMovetext bool
	depth      int  // nesting of variations
	set        bool // the start position is set up
	result     string
	tagIndex   map[string]int // where each tag name is in g.Tags
	tagLines   []int          // the line of each tag in g.Tags
	preComment []string       // the comments before the first move
	comments   [][]string     // the comments of each move
}

func (s *gameReader) read() (*PGNGame, error) {
	lx := s.r.lx
	for {
		t, err := lx.next()
		if err != nil {
			if !errors.Is(err, ErrInvalidPGN) {
				return nil, err
			}
			s.start()
			return nil, s.fail(t.line, err)
		}
		if t.kind == tokComment && !s.started {
			// Comments alone do not make a game (a note after the last
			// result, say); they belong to the game that follows, if any.
			s.addComment(t.text)
			continue
		}
		if t.kind == tokEOF {
			if !s.started {
				return nil, io.EOF
			}
			if s.depth > 0 {
				return nil, s.fail(t.line, fmt.Errorf("%w: variation not closed with ) before the end of the text", ErrInvalidPGN))
			}
			return s.finish(t.line)
		}
		s.start()
		switch t.kind {
		case tokTag:
			if s.inMovetext {
				lx.unread(t) // the next game's
				if s.depth > 0 {
					return nil, s.fail(t.line, fmt.Errorf("%w: variation not closed with ) before the next game", ErrInvalidPGN))
				}
				return s.finish(t.line)
			}
			s.setTag(t.text, t.value, t.line)
		case tokComment:
			switch {
			case s.depth > 0:
			default:
				s.addComment(t.text)
			}
		case tokNumber:
			s.inMovetext = true
		case tokNAG:
			s.inMovetext = true
			if s.depth > 0 {
				break
			}
			if len(s.g.Moves) == 0 {
				return nil, s.fail(t.line, fmt.Errorf("%w: NAG $%d before the first move", ErrInvalidPGN, t.nag))
			}
			m := &s.g.Moves[len(s.g.Moves)-1]
			m.NAGs = append(m.NAGs, t.nag)
		case tokOpen:
			s.inMovetext = true
			if s.depth == 0 && len(s.g.Moves) == 0 {
				return nil, s.fail(t.line, fmt.Errorf("%w: variation before the first move", ErrInvalidPGN))
			}
			s.depth++
		case tokClose:
			if s.depth == 0 {
				return nil, s.fail(t.line, fmt.Errorf("%w: ) without a variation to close", ErrInvalidPGN))
			}
			s.depth--
		case tokResult:
			s.inMovetext = true
			if s.depth > 0 {
				return nil, s.fail(t.line, fmt.Errorf("%w: result %s inside a variation", ErrInvalidPGN, t.text))
			}
			s.result = t.text
			return s.finish(t.line)
		case tokSymbol:
			s.inMovetext = true
			if s.depth > 0 {
				break
			}
			skip, err := s.enPassantMark(t)
			switch {
			case err != nil && errors.Is(err, ErrInvalidPGN):
				return nil, s.fail(t.line, err)
			case err != nil:
				return nil, err
			case skip:
				continue
			}
			if err := s.move(t); err != nil {
				return nil, err
			}
		}
	}
}

// setTag sets a tag; a name read again keeps its first place.
func (s *gameReader) setTag(name, value string, line int) {
	if i, ok := s.tagIndex[name]; ok {
		s.g.Tags[i].Value = value
		s.tagLines[i] = line
		return
	}
	if s.tagIndex == nil {
		s.tagIndex = make(map[string]int)
	}
	s.tagIndex[name] = len(s.g.Tags)
	s.g.Tags = append(s.g.Tags, PGNTag{Name: name, Value: value})
	s.tagLines = append(s.tagLines, line)
}

// tagLine returns the line of the tag name, or else line.
func (s *gameReader) tagLine(name string, line int) int {
	if i, ok := s.tagIndex[name]; ok {
		return s.tagLines[i]
	}
	return line
}

// addComment keeps a comment for the last move, or for the game if there is
// no move yet. They are joined at the end, not one by one, so that many
// comments cost linear time.
func (s *gameReader) addComment(text string) {
	if text == "" {
		return
	}
	if n := len(s.g.Moves); n > 0 {
		s.comments[n-1] = append(s.comments[n-1], text)
		return
	}
	s.preComment = append(s.preComment, text)
}

func joinComments(c []string) string { return strings.Join(c, " ") }

func (s *gameReader) start() {
	if !s.started {
		s.started = true
		s.r.games++
	}
}

// fail returns the error of a syntax error on the given line, and makes the
// next call to Next skip the rest of the game.
func (s *gameReader) fail(line int, err error) error {
	s.r.skip, s.r.skipInMovetext, s.r.skipDepth = true, s.inMovetext, s.depth
	return &PGNError{Game: s.r.games, Line: line, Err: err}
}

// setUp sets the start position from the FEN tag, once. line is where the
// game is, for errors of a tag that is missing.
func (s *gameReader) setUp(line int) error {
	if s.set {
		return nil
	}
	s.set = true
	if v, ok := s.g.Tag("Variant"); ok {
		switch strings.ToLower(v) {
		case "", "standard", "chess", "from position":
		default:
			return &PGNError{Game: s.r.games, Line: s.tagLine("Variant", line), Err: fmt.Errorf("%w: variant %q is not supported", ErrInvalidPGN, v)}
		}
	}
	s.g.Start = StartPosition()
	if fen, ok := s.g.Tag("FEN"); ok {
		p, err := ParseFEN(fen)
		if err != nil {
			return &PGNError{Game: s.r.games, Line: s.tagLine("FEN", line), Err: fmt.Errorf("FEN tag: %w", err)}
		}
		s.g.Start = p
	}
	s.g.Record = NewGame(s.g.Start)
	return nil
}

// move plays the move token t.
func (s *gameReader) move(t pgnToken) error {
	if err := s.setUp(t.line); err != nil {
		s.r.skip, s.r.skipInMovetext, s.r.skipDepth = true, true, 0
		return err
	}
	rec := s.g.Record
	p := rec.Position()
	fail := func(err error) error {
		s.r.skip, s.r.skipInMovetext, s.r.skipDepth = true, true, 0
		return &PGNError{Game: s.r.games, Line: t.line, MoveNumber: p.FullmoveNumber(), Color: p.SideToMove(), SAN: t.text, Err: err}
	}
	if end := rec.Termination(); end != NoTermination {
		return fail(fmt.Errorf("%w by %s", ErrMoveAfterEnd, end.Description()))
	}
	m, err := parsePGNMove(&p, t.text, s.r.letters)
	if err != nil {
		return fail(err)
	}
	if err := rec.Play(m); err != nil {
		return fail(err)
	}
	s.g.Moves = append(s.g.Moves, PGNMove{Move: m, SAN: p.SAN(m, s.r.letters)})
	s.comments = append(s.comments, nil)
	return nil
}

// enPassantMark reports whether t is the "e.p." (or "ep") some PGN
// writers put after an en-passant capture, reading its "p" too when the
// lexer split "e.p." at the dots. It is one only right after an
// en-passant capture, so that no move is ever taken for it.
func (s *gameReader) enPassantMark(t pgnToken) (bool, error) {
	moves := s.g.Moves
	if len(moves) == 0 || moves[len(moves)-1].Move.Kind() != EnPassant {
		return false, nil
	}
	switch t.text {
	case "ep", "e.p":
		return true, nil
	case "e":
		next, err := s.r.lx.next()
		if err != nil {
			return false, err
		}
		if next.kind == tokSymbol && next.text == "p" {
			return true, nil
		}
		s.r.lx.unread(next)
	}
	return false, nil
}

// parsePGNMove reads a move in SAN, or else in UCI.
func parsePGNMove(p *Position, text string, l Letters) (Move, error) {
	m, err := p.ParseSAN(text, l)
	if err == nil {
		return m, nil
	}
	// ParseSAN reads "g1f3" as a pawn move from g1, so try UCI whatever
	// the SAN error: a legal UCI move cannot be meant otherwise.
	um, uerr := p.ParseUCI(text)
	switch {
	case uerr == nil:
		return um, nil
	case errors.Is(err, ErrInvalidSAN) && errors.Is(uerr, ErrIllegalMove):
		return NullMove, uerr
	}
	return NullMove, err
}

// finish completes the game read so far.
func (s *gameReader) finish(line int) (*PGNGame, error) {
	if err := s.setUp(line); err != nil {
		return nil, err
	}
	g := &s.g
	g.Result = s.result
	if g.Result == "" {
		if v, ok := g.Tag("Result"); ok && isPGNResult(v) {
			g.Result = v
		} else {
			g.Result = "*"
		}
	}
	g.Comment = joinComments(s.preComment)
	for i := range g.Moves {
		m := &g.Moves[i]
		m.Comment, m.Clock, m.HasClock = extractClock(joinComments(s.comments[i]))
	}
	return g, nil
}

// extractClock takes the first valid [%clk h:mm:ss] or [%clk h:mm:ss.f]
// command out of a comment.
func extractClock(comment string) (rest string, clock time.Duration, ok bool) {
	j := -1 // the first ] after the [%clk being looked at
	for from := 0; ; {
		i := strings.Index(comment[from:], "[%clk")
		if i < 0 {
			return comment, 0, false
		}
		i += from
		if j < i {
			// Found afresh only when passed, so that a comment of many
			// "[%clk" and one "]" takes linear time.
			if j = strings.IndexByte(comment[i:], ']'); j < 0 {
				return comment, 0, false
			}
			j += i
		}
		if arg := comment[i+len("[%clk") : j]; arg != "" && len(arg) <= 32 && (arg[0] == ' ' || arg[0] == '\t') {
			if d, ok := parseClock(strings.TrimSpace(arg)); ok {
				return normalizeComment(comment[:i] + " " + comment[j+1:]), d, true
			}
		}
		from = i + 1
	}
}

// parseClock parses h:mm:ss or h:mm:ss.f (up to nine decimals).
func parseClock(s string) (time.Duration, bool) {
	hms, frac, hasFrac := strings.Cut(s, ".")
	parts := strings.Split(hms, ":")
	if len(parts) != 3 || len(parts[0]) < 1 || len(parts[0]) > 5 || len(parts[1]) != 2 || len(parts[2]) != 2 {
		return 0, false
	}
	var n [3]int
	for k, part := range parts {
		if strings.Trim(part, "0123456789") != "" {
			return 0, false
		}
		n[k], _ = strconv.Atoi(part)
	}
	if n[1] > 59 || n[2] > 59 {
		return 0, false
	}
	d := time.Duration(n[0])*time.Hour + time.Duration(n[1])*time.Minute + time.Duration(n[2])*time.Second
	if hasFrac {
		if len(frac) < 1 || len(frac) > 9 || strings.Trim(frac, "0123456789") != "" {
			return 0, false
		}
		f, _ := strconv.Atoi(frac + strings.Repeat("0", 9-len(frac)))
		d += time.Duration(f)
	}
	return d, true
}
