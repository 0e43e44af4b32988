package chess

import "sync"

// CastlingRights is a set of the four castling rights.
type CastlingRights uint8

// The castling rights.
const (
	WhiteKingside CastlingRights = 1 << iota
	WhiteQueenside
	BlackKingside
	BlackQueenside

	NoCastling  CastlingRights = 0
	AllCastling                = WhiteKingside | WhiteQueenside | BlackKingside | BlackQueenside
)

// StartFEN is the standard starting position.
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// Position is a chess position: the pieces, the side to move, castling
// rights, the en-passant square, the move counters and the Zobrist key.
// It is a value: Play returns a new Position and never changes the old one.
//
// The en-passant square is kept only when an en-passant capture is actually
// legal. That makes two positions equal in the FIDE sense (Article 9.2.3)
// exactly when their keys are equal, and FEN writes the square only then, as
// lichess does.
type Position struct {
	board    [64]Piece
	byColor  [2]Bitboard
	byType   [7]Bitboard // indexed by PieceType; byType[0] is unused
	occupied Bitboard
	hash     uint64
	fullmove uint32 // move number, starting at 1 and incremented after Black moves
	halfmove uint16 // half-moves since the last capture or pawn move
	side     Color
	castling CastlingRights
	epSquare Square
}

// castlingLoss[s] holds the rights lost when a piece leaves or lands on s.
var castlingLoss = func() (t [64]CastlingRights) {
	t[E1], t[H1], t[A1] = WhiteKingside|WhiteQueenside, WhiteKingside, WhiteQueenside
	t[E8], t[H8], t[A8] = BlackKingside|BlackQueenside, BlackKingside, BlackQueenside
	return t
}()

// startPosition is parsed once, on first use (after the attack tables are
// built in init): callers such as the PGN reader need it for every game.
var startPosition = sync.OnceValue(func() Position {
	p, err := ParseFEN(StartFEN)
	if err != nil {
		panic(err) // StartFEN is a constant known to be valid
	}
	return p
})

// StartPosition returns the standard starting position.
func StartPosition() Position { return startPosition() }

// PieceAt returns the piece on s, or NoPiece.
func (p *Position) PieceAt(s Square) Piece { return p.board[s] }

// SideToMove returns the side whose turn it is.
func (p *Position) SideToMove() Color { return p.side }

// Castling returns the castling rights still held.
func (p *Position) Castling() CastlingRights { return p.castling }

// EnPassant returns the square a pawn may capture en passant onto, or
// NoSquare. It is set only when such a capture is legal.
func (p *Position) EnPassant() Square { return p.epSquare }

// HalfmoveClock returns the number of half-moves since the last capture or
// pawn move, for the fifty-move rule.
func (p *Position) HalfmoveClock() int { return int(p.halfmove) }

// FullmoveNumber returns the number of the move being played (1 at the start,
// incremented after each Black move).
func (p *Position) FullmoveNumber() int { return int(p.fullmove) }

// Hash returns the Zobrist key. Positions with the same key are the same
// position for repetition (with overwhelming probability).
func (p *Position) Hash() uint64 { return p.hash }

// Occupied returns the set of occupied squares.
func (p *Position) Occupied() Bitboard { return p.occupied }

// Pieces returns the squares holding pieces of colour c and type t.
func (p *Position) Pieces(c Color, t PieceType) Bitboard { return p.byColor[c] & p.byType[t] }

// ColorPieces returns the squares holding pieces of colour c.
func (p *Position) ColorPieces(c Color) Bitboard { return p.byColor[c] }

// KingSquare returns the square of c's king.
func (p *Position) KingSquare(c Color) Square { return (p.byColor[c] & p.byType[King]).First() }

// InCheck reports whether the side to move is in check.
func (p *Position) InCheck() bool {
	return p.attackersTo(p.KingSquare(p.side), p.occupied)&p.byColor[p.side.Other()] != 0
}

// Checkers returns the pieces giving check to the side to move.
func (p *Position) Checkers() Bitboard {
	return p.attackersTo(p.KingSquare(p.side), p.occupied) & p.byColor[p.side.Other()]
}

// attackersTo returns the pieces of both colours that attack s, treating
// occupied as the set of blockers.
func (p *Position) attackersTo(s Square, occupied Bitboard) Bitboard {
	return pawnAttacks[White][s]&p.byColor[Black]&p.byType[Pawn] |
		pawnAttacks[Black][s]&p.byColor[White]&p.byType[Pawn] |
		knightAttacks[s]&p.byType[Knight] |
		kingAttacks[s]&p.byType[King] |
		RookAttacks(s, occupied)&(p.byType[Rook]|p.byType[Queen]) |
		BishopAttacks(s, occupied)&(p.byType[Bishop]|p.byType[Queen])
}

// IsAttacked reports whether any piece of colour by attacks s.
func (p *Position) IsAttacked(s Square, by Color) bool {
	return p.attackersTo(s, p.occupied)&p.byColor[by] != 0
}

func (p *Position) put(pc Piece, s Square) {
	b := SquareBB(s)
	p.board[s] = pc
	p.byColor[pc.Color()] |= b
	p.byType[pc.Type()] |= b
	p.occupied |= b
	p.hash ^= zobristPiece[pc][s]
}

func (p *Position) remove(s Square) {
	pc := p.board[s]
	b := SquareBB(s)
	p.board[s] = NoPiece
	p.byColor[pc.Color()] &^= b
	p.byType[pc.Type()] &^= b
	p.occupied &^= b
	p.hash ^= zobristPiece[pc][s]
}

func (p *Position) shift(from, to Square) {
	pc := p.board[from]
	b := SquareBB(from) | SquareBB(to)
	p.board[from] = NoPiece
	p.board[to] = pc
	p.byColor[pc.Color()] ^= b
	p.byType[pc.Type()] ^= b
	p.occupied ^= b
	p.hash ^= zobristPiece[pc][from] ^ zobristPiece[pc][to]
}

// Play returns the position after the move m, which must be legal in p (a
// move from LegalMoves, ParseUCI or ParseSAN). p itself is not changed.
func (p Position) Play(m Move) Position {
	p.play(m)
	return p
}

// play makes the legal move m in place.
func (p *Position) play(m Move) {
	from, to := m.From(), m.To()
	us := p.side
	moving := p.board[from]
	captured := p.board[to]

	if p.epSquare != NoSquare {
		p.hash ^= zobristEPFile[p.epSquare.File()]
		p.epSquare = NoSquare
	}
	p.halfmove++

	switch m.Kind() {
	case Castling:
		rookFrom, rookTo := castlingRookSquares(to)
		p.shift(from, to)
		p.shift(rookFrom, rookTo)
	case EnPassant:
		p.remove(to ^ 8) // the captured pawn stands beside the origin, on the destination's file
		p.shift(from, to)
		p.halfmove = 0
	case Promotion:
		if captured != NoPiece {
			p.remove(to)
		}
		p.remove(from)
		p.put(NewPiece(us, m.Promotion()), to)
		p.halfmove = 0
	default:
		if captured != NoPiece {
			p.remove(to)
			p.halfmove = 0
		}
		p.shift(from, to)
		if moving.Type() == Pawn {
			p.halfmove = 0
			if to^from == 16 {
				p.setEnPassant((from+to)/2, us.Other())
			}
		}
	}

	if lost := castlingLoss[from] | castlingLoss[to]; p.castling&lost != 0 {
		p.hash ^= zobristCastling[p.castling]
		p.castling &^= lost
		p.hash ^= zobristCastling[p.castling]
	}
	if us == Black {
		p.fullmove++
	}
	p.side = us.Other()
	p.hash ^= zobristBlack
}

// castlingRookSquares returns where the rook starts and ends when the king
// castles onto kingTo.
func castlingRookSquares(kingTo Square) (from, to Square) {
	switch kingTo {
	case G1:
		return H1, F1
	case C1:
		return A1, D1
	case G8:
		return H8, F8
	default: // C8
		return A8, D8
	}
}

// setEnPassant records ep as the en-passant square after a double step, but
// only if side (the side about to move) has a legal en-passant capture.
func (p *Position) setEnPassant(ep Square, side Color) {
	capturers := pawnAttacks[side.Other()][ep] & p.Pieces(side, Pawn)
	if capturers == 0 {
		return
	}
	ksq := p.KingSquare(side)
	victim := ep ^ 8
	them := p.byColor[side.Other()] &^ SquareBB(victim)
	for capturers != 0 {
		from := capturers.PopFirst()
		occ := p.occupied ^ SquareBB(from) ^ SquareBB(victim) | SquareBB(ep)
		// With the capture made, is the king attacked by anything left?
		if p.attackersTo(ksq, occ)&them&^SquareBB(victim) == 0 {
			p.epSquare = ep
			p.hash ^= zobristEPFile[ep.File()]
			return
		}
	}
}
