package views

// tryItPuzzles are the rules page's try-it boards, in page order. Their
// texts are the messages tryit.<name>.task, .praise and .wrong, plus each
// hint's message.
var tryItPuzzles = []tryItPuzzle{
	{
		// The Two Knights Defence after 1.e4 e5 2.Nf3 Nc6 3.Bc4 Nf6: the
		// way to the h1 rook is clear. The king may also step to e2 or
		// f1, which are explained. board.js sends e1g1 whether the king is
		// moved two squares or dropped on its rook.
		name:    "castling",
		fen:     "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
		mark:    "e1",
		correct: []string{"e1g1"},
	},
	{
		// After 1.e4 f5 2.e5 d5: the d-pawn has just passed e5, so exd6
		// en passant is legal; the f-pawn passed earlier and can no longer
		// be taken that way. e6 is the wrong move to explain.
		name:    "en_passant",
		fen:     "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
		last:    "d7d5",
		mark:    "e5",
		correct: []string{"e5d6"},
	},
	{
		// The pawn on b7 promotes; the task asks for a queen, so the
		// other three pieces are legal but explained.
		name:    "promotion",
		fen:     "8/1P4k1/8/8/8/8/6K1/8 w - - 0 1",
		mark:    "b7",
		correct: []string{"b7b8q"},
		hints: []TryItHint{
			{Moves: "b7b8r b7b8b b7b8n", Message: "tryit.promotion.under"},
		},
	},
}
