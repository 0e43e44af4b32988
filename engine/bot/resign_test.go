package bot

import (
	"context"
	"testing"

	"satranc/engine/chess"
)

// TestResignsHopeless: a bot a queen down plays on for a few moves, then
// resigns; Easy plays on longer than Hard.
func TestResignsHopeless(t *testing.T) {
	for _, l := range []Level{Easy, Hard} {
		p := mustFEN(t, "4k3/pppp4/8/8/8/8/PPPP4/3QK3 b - - 0 30") // Black, to move, a queen down
		b := New(l, 1)
		var history []uint64
		resigned := 0
		for move := 1; move <= 8 && resigned == 0; move++ {
			m, err := b.Move(context.Background(), p, history, Clock{})
			if err != nil {
				t.Fatal(err)
			}
			if b.Resigns(p) {
				resigned = move
				break
			}
			history = append(history, p.Hash())
			p = p.Play(m)
			// White answers with its best move.
			reply := NewEngine(1).Search(context.Background(), p, history, Limits{Depth: 4}, nil).Move
			if reply == chess.NullMove {
				break
			}
			history = append(history, p.Hash())
			p = p.Play(reply)
		}
		if want := resignRules[l].moves; resigned != want {
			t.Errorf("%s resigned at its move %d, want %d", l, resigned, want)
		}
	}
}

// TestResignsNot: no resignation in the first moves, after a recovery,
// or when the opponent cannot mate.
func TestResignsNot(t *testing.T) {
	tests := []struct {
		name   string
		fen    string
		scores []int // the bot's evaluations of its last moves, oldest first
	}{
		{"first moves", "4k3/pppp4/8/8/8/8/PPPP4/3QK3 b - - 0 12", []int{-1000, -1000, -1000, -1000, -1000, -1000}},
		{"recovered", "4k3/pppp4/8/8/8/8/PPPP4/3QK3 b - - 0 30", []int{-1000, -1000, -1000, -100, -1000, -1000}},
		{"the opponent has a bishop only", "4k3/1p6/8/8/8/8/8/3BK3 b - - 0 30", []int{-1000, -1000, -1000, -1000, -1000, -1000}},
	}
	for _, tc := range tests {
		p := mustFEN(t, tc.fen)
		for l := Easy; l <= Max; l++ {
			b := New(l, 1)
			ply := plyOf(&p) - 2*len(tc.scores)
			for _, s := range tc.scores {
				ply += 2
				b.remember(ply, s)
			}
			if b.Resigns(p) {
				t.Errorf("%s: %s resigns", tc.name, l)
			}
		}
	}
	// The same trail, late and against a queen: resigns.
	p := mustFEN(t, "4k3/pppp4/8/8/8/8/PPPP4/3QK3 b - - 0 30")
	b := New(Easy, 1)
	for i := range 5 {
		b.remember(plyOf(&p)-8+2*i, -1000)
	}
	if !b.Resigns(p) {
		t.Error("Easy does not resign after five hopeless moves")
	}
	// A new game forgets.
	b.NewGame(2)
	if b.Resigns(p) {
		t.Error("resigns after NewGame")
	}
}

// TestOffersDraw: in a dead-drawn ending or a repeating position a bot
// offers a draw, not again at once, and not when it stands better.
func TestOffersDraw(t *testing.T) {
	rooks := mustFEN(t, "8/5k2/8/r7/8/3R4/5K2/8 w - - 0 40")
	b := New(Hard, 1)
	if _, err := b.Move(context.Background(), rooks, nil, Clock{}); err != nil {
		t.Fatal(err)
	}
	if !b.OffersDraw(rooks, nil) {
		t.Fatal("no offer with rook against rook")
	}
	b.remember(plyOf(&rooks)+2, 0)
	later := mustFEN(t, "8/5k2/8/r7/8/3R4/5K2/8 w - - 0 41")
	if b.OffersDraw(later, nil) {
		t.Error("offers again the move after")
	}

	start := chess.StartPosition()
	b = New(Medium, 1)
	b.remember(0, 0)
	if b.OffersDraw(start, nil) {
		t.Error("offers a draw at the start")
	}
	// The knights went out and back: the start position again.
	q := start
	var history []uint64
	for _, s := range []string{"g1f3", "g8f6", "f3g1", "f6g8"} {
		history = append(history, q.Hash())
		q = q.Play(uci(t, q, s))
	}
	b.remember(plyOf(&q), 10)
	if !b.OffersDraw(q, history) {
		t.Error("no offer in a repeated position")
	}
	b = New(Medium, 1)
	b.remember(plyOf(&q), 200)
	if b.OffersDraw(q, history) {
		t.Error("offers a draw in a repeated position while better")
	}
}
