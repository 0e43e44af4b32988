package chess

// Legal move generation. Checks and pins are resolved while generating, so no
// move is made and then tested: with the king in check every move must land
// on checkMask (capture the checker or block the ray); a pinned piece may move
// only along the line through its king; the king never steps onto an attacked
// square. En passant, which can uncover an attack along the rank, is the one
// case tested by looking at the position after the capture.

// MaxMoves is more than the number of legal moves in any chess position (218).
const MaxMoves = 256

// LegalMoves returns the legal moves in p.
func (p *Position) LegalMoves() []Move {
	return p.AppendLegalMoves(make([]Move, 0, 64))
}

// AppendLegalMoves appends the legal moves in p to dst and returns the
// extended slice. Given a dst with room for MaxMoves it does not allocate.
func (p *Position) AppendLegalMoves(dst []Move) []Move {
	us, them := p.side, p.side.Other()
	ours, theirs := p.byColor[us], p.byColor[them]
	ksq := p.KingSquare(us)
	occ := p.occupied

	checkers := p.attackersTo(ksq, occ) & theirs

	// The king first: any square not attacked once the king has left its own.
	occWithoutKing := occ &^ SquareBB(ksq)
	for targets := kingAttacks[ksq] &^ ours; targets != 0; {
		to := targets.PopFirst()
		if p.attackersTo(to, occWithoutKing)&theirs == 0 {
			dst = append(dst, NewMove(ksq, to))
		}
	}
	if checkers&(checkers-1) != 0 {
		return dst // double check: only the king may move
	}

	checkMask := ^Bitboard(0)
	if checkers != 0 {
		checkMask = between[ksq][checkers.First()] | checkers
	} else {
		dst = p.appendCastling(dst, ksq)
	}

	pinned := p.pinned(us, ksq)
	targets := ^ours & checkMask

	// Knights: a pinned knight can never move.
	for from := p.byType[Knight] & ours &^ pinned; from != 0; {
		s := from.PopFirst()
		dst = appendMoves(dst, s, knightAttacks[s]&targets)
	}
	diagonal := (p.byType[Bishop] | p.byType[Queen]) & ours
	for from := diagonal; from != 0; {
		s := from.PopFirst()
		att := BishopAttacks(s, occ) & targets
		if pinned.Has(s) {
			att &= line[ksq][s]
		}
		dst = appendMoves(dst, s, att)
	}
	straight := (p.byType[Rook] | p.byType[Queen]) & ours
	for from := straight; from != 0; {
		s := from.PopFirst()
		att := RookAttacks(s, occ) & targets
		if pinned.Has(s) {
			att &= line[ksq][s]
		}
		dst = appendMoves(dst, s, att)
	}
	return p.appendPawnMoves(dst, ksq, pinned, checkMask, checkers)
}

// appendMoves adds one move from `from` to each square of targets.
func appendMoves(dst []Move, from Square, targets Bitboard) []Move {
	for targets != 0 {
		dst = append(dst, NewMove(from, targets.PopFirst()))
	}
	return dst
}

// pinned returns our pieces that stand alone between our king on ksq and an
// enemy slider.
func (p *Position) pinned(us Color, ksq Square) Bitboard {
	them := p.byColor[us.Other()]
	snipers := (RookAttacks(ksq, 0)&(p.byType[Rook]|p.byType[Queen]) |
		BishopAttacks(ksq, 0)&(p.byType[Bishop]|p.byType[Queen])) & them
	var pinned Bitboard
	for snipers != 0 {
		s := snipers.PopFirst()
		blockers := between[ksq][s] & p.occupied
		if blockers != 0 && blockers&(blockers-1) == 0 {
			pinned |= blockers & p.byColor[us]
		}
	}
	return pinned
}

// appendCastling adds the castling moves; the king is known not to be in check.
func (p *Position) appendCastling(dst []Move, ksq Square) []Move {
	var kingside, queenside CastlingRights = WhiteKingside, WhiteQueenside
	if p.side == Black {
		kingside, queenside = BlackKingside, BlackQueenside
	}
	if p.castling&kingside != 0 {
		// The king crosses f and lands on g; f and g must be empty.
		f, g := ksq+1, ksq+2
		if p.occupied&(SquareBB(f)|SquareBB(g)) == 0 &&
			!p.IsAttacked(f, p.side.Other()) && !p.IsAttacked(g, p.side.Other()) {
			dst = append(dst, newSpecialMove(ksq, g, Castling))
		}
	}
	if p.castling&queenside != 0 {
		// b, c and d must be empty; only d and c (crossed and landed on) must be safe.
		d, c, b := ksq-1, ksq-2, ksq-3
		if p.occupied&(SquareBB(d)|SquareBB(c)|SquareBB(b)) == 0 &&
			!p.IsAttacked(d, p.side.Other()) && !p.IsAttacked(c, p.side.Other()) {
			dst = append(dst, newSpecialMove(ksq, c, Castling))
		}
	}
	return dst
}

// appendPawnMoves adds pushes, captures, promotions and en passant.
func (p *Position) appendPawnMoves(dst []Move, ksq Square, pinned, checkMask, checkers Bitboard) []Move {
	us := p.side
	pawns := p.byType[Pawn] & p.byColor[us]
	empty := ^p.occupied
	enemies := p.byColor[us.Other()] & checkMask

	// Pinned pawns are rare: treat each one alone, along its pin line.
	for pp := pawns & pinned; pp != 0; {
		from := pp.PopFirst()
		pinLine := line[ksq][from]
		var to Bitboard
		push := pawnPush(us, SquareBB(from)) & empty
		to |= push
		if push != 0 && SquareBB(from)&startRank(us) != 0 {
			to |= pawnPush(us, push) & empty
		}
		to &= checkMask
		to |= pawnAttacks[us][from] & enemies
		dst = appendPawnTargets(dst, from, to&pinLine, us)
	}
	pawns &^= pinned

	// Unpinned pawns, all at once by shifting the set.
	single := pawnPush(us, pawns) & empty
	double := pawnPush(us, single&relativeRank3(us)) & empty
	single &= checkMask
	double &= checkMask
	back := 8
	if us == Black {
		back = -8
	}
	promoRank := Rank8
	if us == Black {
		promoRank = Rank1
	}
	for b := single &^ promoRank; b != 0; {
		to := b.PopFirst()
		dst = append(dst, NewMove(Square(int(to)-back), to))
	}
	for b := double; b != 0; {
		to := b.PopFirst()
		dst = append(dst, NewMove(Square(int(to)-2*back), to))
	}
	for b := single & promoRank; b != 0; {
		to := b.PopFirst()
		dst = appendPromotions(dst, Square(int(to)-back), to)
	}
	// Captures towards the a-file (west) and the h-file (east).
	west, east := pawnCaptures(us, pawns)
	for b := west & enemies; b != 0; {
		to := b.PopFirst()
		from := Square(int(to) - back + 1)
		if promoRank.Has(to) {
			dst = appendPromotions(dst, from, to)
		} else {
			dst = append(dst, NewMove(from, to))
		}
	}
	for b := east & enemies; b != 0; {
		to := b.PopFirst()
		from := Square(int(to) - back - 1)
		if promoRank.Has(to) {
			dst = appendPromotions(dst, from, to)
		} else {
			dst = append(dst, NewMove(from, to))
		}
	}

	if p.epSquare != NoSquare {
		dst = p.appendEnPassant(dst, ksq, checkers)
	}
	return dst
}

// appendEnPassant adds the en-passant captures, each tested on the position
// after it: the capture removes two pawns from one rank, which a pin test
// cannot see.
func (p *Position) appendEnPassant(dst []Move, ksq Square, checkers Bitboard) []Move {
	us := p.side
	ep := p.epSquare
	victim := ep ^ 8
	if checkers != 0 && checkers != SquareBB(victim) && !between[ksq][checkers.First()].Has(ep) {
		return dst // the capture neither removes the checker nor blocks it
	}
	them := p.byColor[us.Other()] &^ SquareBB(victim)
	for from := pawnAttacks[us.Other()][ep] & p.Pieces(us, Pawn); from != 0; {
		s := from.PopFirst()
		occ := p.occupied ^ SquareBB(s) ^ SquareBB(victim) | SquareBB(ep)
		if RookAttacks(ksq, occ)&(p.byType[Rook]|p.byType[Queen])&them == 0 &&
			BishopAttacks(ksq, occ)&(p.byType[Bishop]|p.byType[Queen])&them == 0 {
			dst = append(dst, newSpecialMove(s, ep, EnPassant))
		}
	}
	return dst
}

func appendPromotions(dst []Move, from, to Square) []Move {
	return append(dst,
		NewPromotion(from, to, Queen), NewPromotion(from, to, Rook),
		NewPromotion(from, to, Bishop), NewPromotion(from, to, Knight))
}

func appendPawnTargets(dst []Move, from Square, to Bitboard, us Color) []Move {
	for to != 0 {
		s := to.PopFirst()
		if s.Rank() == 7 || s.Rank() == 0 {
			dst = appendPromotions(dst, from, s)
		} else {
			dst = append(dst, NewMove(from, s))
		}
	}
	return dst
}

func pawnPush(c Color, b Bitboard) Bitboard {
	if c == White {
		return b.north()
	}
	return b.south()
}

// pawnCaptures returns the squares c's pawns attack towards the a-file and
// towards the h-file.
func pawnCaptures(c Color, pawns Bitboard) (west, east Bitboard) {
	if c == White {
		return (pawns &^ FileA) << 7, (pawns &^ FileH) << 9
	}
	return (pawns &^ FileA) >> 9, (pawns &^ FileH) >> 7
}

func startRank(c Color) Bitboard {
	if c == White {
		return Rank2
	}
	return Rank7
}

func relativeRank3(c Color) Bitboard {
	if c == White {
		return Rank3
	}
	return Rank6
}
