package chess

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Standard Algebraic Notation (FIDE Laws of Chess, Appendix C; PGN standard
// section 8.2.3), written and read with English or Turkish piece letters.
//
// Reading is done in two steps, as scalachess does (format/pgn/San.scala):
// the text is first parsed into its parts (piece, origin hints, destination,
// capture mark, promotion) without looking at the board, then resolved
// against the legal moves of the position. Check and mate marks are only
// decoration on input; a move is identified by its piece and squares alone.

// Letters selects the piece letters of SAN.
type Letters uint8

// The two sets of piece letters (SPEC section 1). The zero value is English.
const (
	English Letters = iota // K Q R B N
	Turkish                // Ş V K F A: Şah, Vezir, Kale, Fil, At
)

// String returns the language code of the letters: "en" or "tr".
func (l Letters) String() string {
	switch l {
	case English:
		return "en"
	case Turkish:
		return "tr"
	}
	return fmt.Sprintf("Letters(%d)", uint8(l))
}

// ParseLetters returns the letters for a language code, "en" or "tr",
// in any case.
func ParseLetters(code string) (Letters, error) {
	switch {
	case strings.EqualFold(code, "en"):
		return English, nil
	case strings.EqualFold(code, "tr"):
		return Turkish, nil
	}
	return English, fmt.Errorf("chess: notation language %q: want en or tr", code)
}

// pieceLetters holds each language's letter per PieceType; a pawn has none.
var pieceLetters = [2][7]string{
	English: {Knight: "N", Bishop: "B", Rook: "R", Queen: "Q", King: "K"},
	Turkish: {Knight: "A", Bishop: "F", Rook: "K", Queen: "V", King: "Ş"},
}

// PieceLetter returns the letter that names a piece of type t in SAN, or ""
// for a pawn (and for NoPieceType). Letters other than Turkish are English.
func (l Letters) PieceLetter(t PieceType) string {
	if t > King {
		return ""
	}
	if l == Turkish {
		return pieceLetters[Turkish][t]
	}
	return pieceLetters[English][t]
}

// FromEnglish returns san, a move as SAN writes it in English letters, in
// l's letters: the piece's letter and a promotion's are the only ones that
// differ. It allocates only when they do, so that a game's SAN can be
// worked out once, in English, and shown in any language.
func (l Letters) FromEnglish(san string) string {
	if l != Turkish || san == "" {
		return san
	}
	var buf [16]byte // SAN needs at most 7 bytes, 9 with Turkish's two-byte Ş
	b, changed := buf[:0], false
	for i := 0; i < len(san); i++ {
		c := san[i]
		if i == 0 || san[i-1] == '=' {
			if t, ok := pieceFromLetter(rune(c), English); ok && t != Pawn {
				b, changed = append(b, pieceLetters[Turkish][t]...), true
				continue
			}
		}
		b = append(b, c)
	}
	if !changed {
		return san
	}
	return string(b)
}

// letterLists names l's piece letters and promotion letters for error messages.
func letterLists(l Letters) (pieces, promotions string) {
	if l == Turkish {
		return "Ş V K F A", "V K F A"
	}
	return "K Q R B N", "Q R B N"
}

// pieceFromLetter reads an upper-case piece letter in language l. The letters
// of the other language are read too where they cannot be mistaken (SPEC
// section 1): only K differs, the king in English and the rook (Kale) in
// Turkish, so K always takes the reading language's sense and every other
// letter means the same piece in both. P is returned as Pawn so that callers
// can give a precise error; it is never a valid letter in SAN.
func pieceFromLetter(r rune, l Letters) (PieceType, bool) {
	switch r {
	case 'K':
		if l == Turkish {
			return Rook, true
		}
		return King, true
	case 'Ş':
		return King, true
	case 'Q', 'V':
		return Queen, true
	case 'R':
		return Rook, true
	case 'B', 'F':
		return Bishop, true
	case 'N', 'A':
		return Knight, true
	case 'P':
		return Pawn, true
	}
	return NoPieceType, false
}

// ErrInvalidSAN is wrapped by errors for text that is not SAN at all, and for
// SAN that can never be a move: a pawn reaching the last rank without a
// promotion piece, a promotion to a king or a pawn, or a promotion suffix on a
// move that cannot promote.
var ErrInvalidSAN = errors.New("chess: invalid SAN")

// ErrAmbiguousSAN is wrapped by errors for SAN that more than one legal move
// matches, such as "Nd2" when both knights can go there.
var ErrAmbiguousSAN = errors.New("chess: ambiguous SAN")

// ErrIllegalMove (declared with ParseUCI) is wrapped by errors for
// well-formed SAN that matches no legal move: a pinned piece, a king left in
// check, castling not allowed, or no such piece able to reach the square.

// SAN returns the move m, which must be legal in p, in Standard Algebraic
// Notation with the given letters: "e4", "Nbd7", "R1e2", "Qh4xe1", "exd6"
// (en passant is written as a plain pawn capture), "e8=Q", "O-O-O", then "+"
// for check or "#" for mate. Castling is written with the letter O in both
// languages.
//
// A disambiguator is added only when another legal move of a piece of the same
// type reaches the same square: the origin file if that tells them apart, else
// the rank, else the whole square. A rival that is pinned, or that cannot stop
// a check, does not count.
//
// SAN allocates only the returned string. For a move whose origin holds none
// of the mover's pieces it returns the move in UCI instead of panicking.
func (p *Position) SAN(m Move, l Letters) string {
	var buf [16]byte // the longest SAN, "Qa1xb2#" or "exd8=Q+", needs 7 bytes
	return string(p.appendSAN(buf[:0], m, l))
}

func (p *Position) appendSAN(b []byte, m Move, l Letters) []byte {
	from, to := m.From(), m.To()
	pc := p.board[from]
	if pc == NoPiece || pc.Color() != p.side {
		return append(b, m.String()...)
	}
	switch {
	case m.Kind() == Castling:
		if to.File() == 6 {
			b = append(b, "O-O"...)
		} else {
			b = append(b, "O-O-O"...)
		}
	case pc.Type() == Pawn:
		if from.File() != to.File() { // every diagonal pawn move captures, en passant included
			b = append(b, 'a'+byte(from.File()), 'x')
		}
		b = append(b, 'a'+byte(to.File()), '1'+byte(to.Rank()))
		if t := m.Promotion(); t != NoPieceType {
			b = append(b, '=')
			b = append(b, l.PieceLetter(t)...)
		}
	default:
		b = append(b, l.PieceLetter(pc.Type())...)
		b = p.appendDisambiguation(b, pc.Type(), from, to)
		if p.board[to] != NoPiece {
			b = append(b, 'x')
		}
		b = append(b, 'a'+byte(to.File()), '1'+byte(to.Rank()))
	}

	after := p.Play(m)
	if after.InCheck() {
		var buf [MaxMoves]Move // on the stack: SAN must not allocate for the mate test
		if len(after.AppendLegalMoves(buf[:0])) == 0 {
			return append(b, '#')
		}
		return append(b, '+')
	}
	return b
}

// appendDisambiguation adds the origin file, rank or square that SAN needs to
// tell the move of the piece of type t from from to to apart from the legal
// moves of other pieces of that type to the same square.
func (p *Position) appendDisambiguation(b []byte, t PieceType, from, to Square) []byte {
	rivals := p.reachingPieces(t, to) &^ SquareBB(from)
	// Most moves have no rival at all, so legality is tested only for the few
	// that do, by playing the rival move: these are never king moves, castling
	// or en passant, so a move is legal exactly when it leaves our king safe.
	for r := rivals; r != 0; {
		s := r.PopFirst()
		after := p.Play(NewMove(s, to))
		if after.IsAttacked(after.KingSquare(p.side), after.side) {
			rivals &^= SquareBB(s)
		}
	}
	switch {
	case rivals == 0:
		return b
	case rivals&(FileA<<from.File()) == 0:
		return append(b, 'a'+byte(from.File()))
	case rivals&(Rank1<<(8*from.Rank())) == 0:
		return append(b, '1'+byte(from.Rank()))
	}
	return append(b, 'a'+byte(from.File()), '1'+byte(from.Rank()))
}

// reachingPieces returns the side to move's pieces of type t (not pawns) that
// attack to, ignoring pins and checks.
func (p *Position) reachingPieces(t PieceType, to Square) Bitboard {
	var att Bitboard
	switch t {
	case Knight:
		att = knightAttacks[to]
	case Bishop:
		att = BishopAttacks(to, p.occupied)
	case Rook:
		att = RookAttacks(to, p.occupied)
	case Queen:
		att = QueenAttacks(to, p.occupied)
	case King:
		att = kingAttacks[to]
	}
	return att & p.Pieces(p.side, t)
}

// sanMove is SAN text taken apart, before it is matched against a position.
type sanMove struct {
	castle   int       // 0, or the king's step: +2 for O-O, -2 for O-O-O
	piece    PieceType // Pawn when there is no letter
	fromFile int       // 0-7, or -1 when not given
	fromRank int       // 0-7, or -1 when not given
	to       Square
	capture  bool      // an x was written
	promo    PieceType // NoPieceType when no promotion was written
}

func sanError(sentinel error, s, format string, args ...any) error {
	return fmt.Errorf("%w: %q: %s", sentinel, s, fmt.Sprintf(format, args...))
}

// ParseSAN reads a move in Standard Algebraic Notation with the given letters
// and returns the legal move it names in p.
//
// Besides strict SAN it reads what PGN from other programs often contains: a
// check or mate mark that is missing, superfluous or wrong; a trailing
// annotation (!, ?, !!, ??, !?, ?!) after it; castling with zeros (0-0,
// 0-0-0); a promotion without "=" (e8Q) or with a lower-case piece after "="
// (e8=q); a capture without "x"; a superfluous origin file, rank or square; and
// the long form with the whole origin square (Ng1-f3, e2-e4, Ng1xf3; but
// e2e4 is UCI and invalid SAN, so that a caller can fall back to ParseUCI). Letters
// of the other language are read as SPEC section 1 allows (see Letters):
// Ş, V, F and A in English text, Q, R, B and N in Turkish text, but K always
// in the reading language's sense.
//
// Errors name the text and wrap ErrInvalidSAN (malformed, or a promotion that
// is missing, misplaced or to a king or pawn), ErrAmbiguousSAN (several legal
// moves match) or ErrIllegalMove (well-formed, but no legal move matches,
// including an "x" where there is nothing to capture).
func (p *Position) ParseSAN(s string, l Letters) (Move, error) {
	sm, err := parseSANText(s, l)
	if err != nil {
		return NullMove, err
	}
	if sm.castle == 0 && sm.piece == Pawn {
		lastRank := 7
		if p.side == Black {
			lastRank = 0
		}
		switch {
		case sm.to.Rank() == lastRank && sm.promo == NoPieceType:
			return NullMove, sanError(ErrInvalidSAN, s, "a pawn reaching %s must promote: add =Q, =R, =B or =N", sm.to)
		case sm.to.Rank() != lastRank && sm.promo != NoPieceType:
			return NullMove, sanError(ErrInvalidSAN, s, "promotion on %s, which is not %s's last rank", sm.to, p.side)
		}
	}

	var buf [MaxMoves]Move
	moves := p.AppendLegalMoves(buf[:0])

	if sm.castle != 0 {
		want := int(p.KingSquare(p.side)) + sm.castle
		for _, m := range moves {
			if m.Kind() == Castling && int(m.To()) == want {
				return m, nil
			}
		}
		return NullMove, p.castlingError(s, sm.castle)
	}

	found, n := NullMove, 0
	for _, m := range moves {
		from := m.From()
		switch {
		case m.To() != sm.to, m.Kind() == Castling, p.board[from].Type() != sm.piece,
			sm.fromFile >= 0 && from.File() != sm.fromFile,
			sm.fromRank >= 0 && from.Rank() != sm.fromRank,
			m.Promotion() != sm.promo:
			continue
		case sm.piece == Pawn && sm.fromFile < 0 && from.File() != sm.to.File():
			continue // "d5" is a push; a pawn capture always names its file
		}
		found = m
		n++
	}
	switch {
	case n > 1:
		return NullMove, sanError(ErrAmbiguousSAN, s, "%d %ss can move to %s: add the origin file, rank or square", n, sm.piece, sm.to)
	case n == 0:
		return NullMove, p.noMoveError(s, sm)
	case sm.capture && p.board[sm.to] == NoPiece && found.Kind() != EnPassant:
		return NullMove, sanError(ErrIllegalMove, s, "there is nothing to capture on %s", sm.to)
	}
	return found, nil
}

// castlingError explains why castling towards step (+2 or -2) is not legal.
func (p *Position) castlingError(s string, step int) error {
	right := WhiteKingside
	if step < 0 {
		right = WhiteQueenside
	}
	if p.side == Black {
		right <<= 2
	}
	switch {
	case p.castling&right == 0:
		return sanError(ErrIllegalMove, s, "%s has no right to castle on that side", p.side)
	case p.InCheck():
		return sanError(ErrIllegalMove, s, "cannot castle out of check")
	}
	return sanError(ErrIllegalMove, s, "cannot castle: a square between king and rook is occupied, or the king would cross or land on an attacked square")
}

// noMoveError explains why no legal move matches sm, telling apart a piece
// that could reach the square but for its own king's safety (a pin, a check
// not answered, a king stepping into check) from one that cannot reach it.
func (p *Position) noMoveError(s string, sm sanMove) error {
	if target := p.board[sm.to]; sm.piece != Pawn && (target == NoPiece || target.Color() != p.side) {
		reach := p.reachingPieces(sm.piece, sm.to)
		if sm.fromFile >= 0 {
			reach &= FileA << sm.fromFile
		}
		if sm.fromRank >= 0 {
			reach &= Rank1 << (8 * sm.fromRank)
		}
		switch {
		case reach == 0:
		case sm.piece == King:
			return sanError(ErrIllegalMove, s, "the king would be in check on %s", sm.to)
		default:
			return sanError(ErrIllegalMove, s, "the %s on %s may not move to %s: its king would be in check", sm.piece, reach.First(), sm.to)
		}
	}
	return sanError(ErrIllegalMove, s, "%s has no %s that can move to %s", p.side, sm.piece, sm.to)
}

// parseSANText takes SAN apart without looking at a position:
//
//	castling:  (O-O | O-O-O | 0-0 | 0-0-0)      [+ | #] [annotation]
//	others:    [piece] [file] [rank] [x | -] square [[=] promotion] [+ | #] [annotation]
//
// A pawn's origin hint, if any, starts with its file; "-" only follows a whole
// origin square (long algebraic notation), and a pawn's whole origin square
// needs "-" or "x" (e2-e4, not the UCI e2e4). Whether a promotion belongs on the
// destination depends on the side to move and is checked by the caller.
func parseSANText(s string, l Letters) (sanMove, error) {
	sm := sanMove{piece: Pawn, fromFile: -1, fromRank: -1}
	body := s
	// An annotation is one or two of ! and ?: !, ?, !!, ??, !?, ?!.
	for i := 0; i < 2 && len(body) > 0 && (body[len(body)-1] == '!' || body[len(body)-1] == '?'); i++ {
		body = body[:len(body)-1]
	}
	if n := len(body); n > 0 && (body[n-1] == '+' || body[n-1] == '#') {
		body = body[:n-1]
	}
	switch body {
	case "":
		if s == "" {
			return sm, sanError(ErrInvalidSAN, s, "empty")
		}
		return sm, sanError(ErrInvalidSAN, s, "no move before the marks")
	case "O-O", "0-0":
		sm.castle = 2
		return sm, nil
	case "O-O-O", "0-0-0":
		sm.castle = -2
		return sm, nil
	}
	if body[0] == 'O' || body[0] == '0' {
		return sm, sanError(ErrInvalidSAN, s, "castling is O-O or O-O-O")
	}

	// The piece letter, if any: any upper-case letter there is meant as one.
	if r, size := utf8.DecodeRuneInString(body); r == 'Ş' || 'A' <= r && r <= 'Z' {
		t, ok := pieceFromLetter(r, l)
		switch {
		case !ok:
			pieces, _ := letterLists(l)
			return sm, sanError(ErrInvalidSAN, s, "a piece letter must be one of %s", pieces)
		case t == Pawn:
			return sm, sanError(ErrInvalidSAN, s, "pawn moves have no piece letter")
		}
		sm.piece = t
		body = body[size:]
	}

	// The promotion piece: an upper-case letter at the end, with or without
	// "=", or a lower-case one after "=" (a lower-case letter alone could be a
	// file).
	if r, size := utf8.DecodeLastRuneInString(body); r == 'Ş' || 'A' <= r && r <= 'Z' ||
		len(body) >= 2 && body[len(body)-2] == '=' && 'a' <= r && r <= 'z' {
		body = body[:len(body)-size]
		body = strings.TrimSuffix(body, "=")
		if 'a' <= r && r <= 'z' {
			r -= 'a' - 'A'
		}
		t, ok := pieceFromLetter(r, l)
		switch {
		case !ok:
			_, promotions := letterLists(l)
			return sm, sanError(ErrInvalidSAN, s, "a promotion piece must be one of %s", promotions)
		case t == King || t == Pawn:
			return sm, sanError(ErrInvalidSAN, s, "a pawn cannot promote to a %s", t)
		case sm.piece != Pawn:
			return sm, sanError(ErrInvalidSAN, s, "only a pawn can promote")
		}
		sm.promo = t
	} else if strings.HasSuffix(body, "=") {
		return sm, sanError(ErrInvalidSAN, s, "no promotion piece after =")
	}

	// The destination square, then the capture mark or dash, then the origin hints.
	n := len(body)
	if n < 2 || !isFile(body[n-2]) || !isRank(body[n-1]) {
		return sm, sanError(ErrInvalidSAN, s, "no destination square such as e4 where expected")
	}
	sm.to = NewSquare(int(body[n-2]-'a'), int(body[n-1]-'1'))
	hint := body[:n-2]
	dash := false
	if k := len(hint); k > 0 && (hint[k-1] == 'x' || hint[k-1] == '-') {
		sm.capture = hint[k-1] == 'x'
		dash = hint[k-1] == '-'
		hint = hint[:k-1]
	}
	if len(hint) > 0 && isFile(hint[0]) {
		sm.fromFile = int(hint[0] - 'a')
		hint = hint[1:]
	}
	if len(hint) > 0 && isRank(hint[0]) {
		sm.fromRank = int(hint[0] - '1')
		hint = hint[1:]
	}
	switch {
	case hint != "":
		return sm, sanError(ErrInvalidSAN, s, "unexpected %q", hint)
	case dash && (sm.fromFile < 0 || sm.fromRank < 0):
		return sm, sanError(ErrInvalidSAN, s, "a dash must follow a whole origin square, as in Ng1-f3")
	case sm.piece == Pawn && sm.fromFile < 0 && (sm.fromRank >= 0 || sm.capture):
		return sm, sanError(ErrInvalidSAN, s, "a pawn capture starts with the pawn's file, as in exd5")
	case sm.piece == Pawn && sm.fromRank >= 0 && !dash && !sm.capture:
		// Two bare squares are UCI (e2e4, e1g1): leave them to ParseUCI, which
		// callers try when SAN is invalid, rather than misread e1g1 as a pawn.
		return sm, sanError(ErrInvalidSAN, s, "two squares without a piece letter are UCI, not SAN")
	}
	return sm, nil
}

func isFile(c byte) bool { return 'a' <= c && c <= 'h' }
func isRank(c byte) bool { return '1' <= c && c <= '8' }
