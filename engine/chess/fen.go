package chess

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrInvalidFEN is wrapped by every error ParseFEN returns.
var ErrInvalidFEN = errors.New("chess: invalid FEN")

func fenError(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidFEN, fmt.Sprintf(format, args...))
}

// ParseFEN reads a position in Forsyth-Edwards Notation. The halfmove clock
// and move number may be left out (they default to 0 and 1). Anything that is
// not a legal chess position is an error that says what is wrong: a bad
// field, a king missing or doubled, pawns on the first or last rank, a
// castling right without its king and rook at home, an impossible en-passant
// square, or the side not to move standing in check.
//
// An en-passant square is kept only if an en-passant capture is legal; see
// Position.
func ParseFEN(fen string) (Position, error) {
	var p Position
	fields := strings.Fields(fen)
	if len(fields) != 4 && len(fields) != 6 {
		return p, fenError("want 6 fields (or 4 without the move counters), got %d", len(fields))
	}
	if err := p.parsePlacement(fields[0]); err != nil {
		return Position{}, err
	}
	switch fields[1] {
	case "w":
		p.side = White
	case "b":
		p.side = Black
	default:
		return Position{}, fenError("side to move %q: want w or b", fields[1])
	}
	if err := p.parseCastling(fields[2]); err != nil {
		return Position{}, err
	}
	p.halfmove, p.fullmove = 0, 1
	if len(fields) == 6 {
		half, err := strconv.ParseUint(fields[4], 10, 16)
		if err != nil || half > 10000 {
			return Position{}, fenError("halfmove clock %q: want a whole number from 0 to 10000", fields[4])
		}
		full, err := strconv.ParseUint(fields[5], 10, 32)
		if err != nil || full < 1 || full > 100000 {
			return Position{}, fenError("move number %q: want a whole number from 1 to 100000", fields[5])
		}
		p.halfmove, p.fullmove = uint16(half), uint32(full)
	}
	if err := p.validate(); err != nil {
		return Position{}, err
	}
	p.epSquare = NoSquare
	if err := p.parseEnPassant(fields[3]); err != nil {
		return Position{}, err
	}
	p.hash = p.computeHash()
	return p, nil
}

func (p *Position) parsePlacement(field string) error {
	ranks := strings.Split(field, "/")
	if len(ranks) != 8 {
		return fenError("piece placement %q: want 8 ranks separated by /, got %d", field, len(ranks))
	}
	for i, row := range ranks {
		rank := 7 - i
		file := 0
		lastWasDigit := false
		for _, c := range []byte(row) {
			if c >= '1' && c <= '8' {
				if lastWasDigit {
					return fenError("rank %d %q: two digits in a row", rank+1, row)
				}
				lastWasDigit = true
				file += int(c - '0')
				if file > 8 {
					return fenError("rank %d %q: more than 8 squares", rank+1, row)
				}
				continue
			}
			lastWasDigit = false
			pc := pieceFromFENLetter(c)
			if pc == NoPiece {
				return fenError("rank %d %q: %q is not a piece letter (PNBRQK, pnbrqk) or a digit 1-8", rank+1, row, c)
			}
			if file >= 8 {
				return fenError("rank %d %q: more than 8 squares", rank+1, row)
			}
			p.put(pc, NewSquare(file, rank))
			file++
		}
		if file != 8 {
			return fenError("rank %d %q: %d squares, want 8", rank+1, row, file)
		}
	}
	return nil
}

func pieceFromFENLetter(c byte) Piece {
	i := strings.IndexByte(" PNBRQK  pnbrqk", c)
	if i <= 0 || c == ' ' {
		return NoPiece
	}
	return Piece(i)
}

func (p *Position) parseCastling(field string) error {
	if field == "-" {
		return nil
	}
	const order = "KQkq"
	last := -1
	for _, c := range []byte(field) {
		i := strings.IndexByte(order, c)
		if i < 0 {
			return fenError("castling %q: want - or some of KQkq", field)
		}
		if i <= last {
			return fenError("castling %q: letters repeated or out of the order KQkq", field)
		}
		last = i
		p.castling |= CastlingRights(1 << i)
	}
	return nil
}

func (p *Position) parseEnPassant(field string) error {
	if field == "-" {
		return nil
	}
	ep, err := ParseSquare(field)
	if err != nil {
		return fenError("en-passant square %q: want - or a square such as e3", field)
	}
	// The side that just moved pushed a pawn two squares over ep.
	mover := p.side.Other()
	wantRank, step := 2, 8 // White pushed over the third rank
	if mover == Black {
		wantRank, step = 5, -8
	}
	pawnSq := Square(int(ep) + step)
	originSq := Square(int(ep) - step)
	switch {
	case ep.Rank() != wantRank:
		return fenError("en-passant square %s: with %s to move it must be on rank %d", ep, p.side, wantRank+1)
	case p.board[pawnSq] != NewPiece(mover, Pawn):
		return fenError("en-passant square %s: no %s pawn on %s that could just have moved two squares", ep, mover, pawnSq)
	case p.board[ep] != NoPiece || p.board[originSq] != NoPiece:
		return fenError("en-passant square %s: %s and %s must be empty after a double step", ep, ep, originSq)
	}
	p.setEnPassant(ep, p.side)
	return nil
}

// validate rejects positions that cannot arise in a game of chess in ways
// that would confuse the rules: kings, pawns, castling rights and checks.
func (p *Position) validate() error {
	for _, c := range [2]Color{White, Black} {
		if n := p.Pieces(c, King).Count(); n != 1 {
			return fenError("%s has %d kings, want exactly 1", c, n)
		}
		if n := p.Pieces(c, Pawn).Count(); n > 8 {
			return fenError("%s has %d pawns, at most 8 are possible", c, n)
		}
		if n := p.byColor[c].Count(); n > 16 {
			return fenError("%s has %d pieces, at most 16 are possible", c, n)
		}
	}
	if bad := p.byType[Pawn] & (Rank1 | Rank8); bad != 0 {
		return fenError("a pawn on %s: pawns cannot stand on the first or last rank", bad.First())
	}
	rights := []struct {
		right      CastlingRights
		letter     string
		king, rook Piece
		kSq, rSq   Square
	}{
		{WhiteKingside, "K", WhiteKing, WhiteRook, E1, H1},
		{WhiteQueenside, "Q", WhiteKing, WhiteRook, E1, A1},
		{BlackKingside, "k", BlackKing, BlackRook, E8, H8},
		{BlackQueenside, "q", BlackKing, BlackRook, E8, A8},
	}
	for _, r := range rights {
		if p.castling&r.right != 0 && (p.board[r.kSq] != r.king || p.board[r.rSq] != r.rook) {
			return fenError("castling right %s needs the king on %s and the rook on %s", r.letter, r.kSq, r.rSq)
		}
	}
	if p.IsAttacked(p.KingSquare(p.side.Other()), p.side) {
		return fenError("%s is in check but it is %s's turn", p.side.Other(), p.side)
	}
	return nil
}

// FEN returns the position in Forsyth-Edwards Notation. The en-passant field
// names a square only when an en-passant capture is legal.
func (p *Position) FEN() string {
	var b strings.Builder
	b.Grow(90)
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		for file := 0; file < 8; file++ {
			pc := p.board[NewSquare(file, rank)]
			if pc == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte('0' + byte(empty))
				empty = 0
			}
			b.WriteByte(pc.FENLetter())
		}
		if empty > 0 {
			b.WriteByte('0' + byte(empty))
		}
		if rank > 0 {
			b.WriteByte('/')
		}
	}
	if p.side == White {
		b.WriteString(" w ")
	} else {
		b.WriteString(" b ")
	}
	b.WriteString(p.castling.String())
	b.WriteByte(' ')
	b.WriteString(p.epSquare.String())
	fmt.Fprintf(&b, " %d %d", p.halfmove, p.fullmove)
	return b.String()
}

// String returns the castling rights as in FEN: "KQkq", "Kq", or "-".
func (c CastlingRights) String() string {
	if c == NoCastling {
		return "-"
	}
	var b []byte
	for i, l := range []byte("KQkq") {
		if c&(1<<i) != 0 {
			b = append(b, l)
		}
	}
	return string(b)
}

// String returns the position's FEN.
func (p Position) String() string { return p.FEN() }
