package bot

import (
	"context"
	"testing"
)

// TestLapseRate: only Easy has lapses, at the rate its style gives.
func TestLapseRate(t *testing.T) {
	for l := Easy; l <= Max; l++ {
		n := 0
		for r := range uint64(10_000) {
			if styles[l].lapses(splitmix(r)) {
				n++
			}
		}
		want := styles[l].lapse * 10
		if l != Easy && want != 0 {
			t.Errorf("%s has lapses (%d in 1000); only Easy should", l, styles[l].lapse)
		}
		if n < want*9/10 || n > want*11/10 {
			t.Errorf("%s: %d lapses in 10,000 moves, want about %d", l, n, want)
		}
	}
}

// TestGlanceSeesTheSquare: at a lapse the piece moved is not put where it
// is taken for less: the queen does not take a pawn a pawn defends.
func TestGlanceSeesTheSquare(t *testing.T) {
	p := mustFEN(t, "4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1")
	root := glance(&p, 0, 1)
	for _, rm := range root {
		if rm.Move.String() == "d1d5" && rm.Score > root[0].Score-500 {
			t.Errorf("glance scores Qxd5 (defended by c6) %d, the best %d: want the queen seen lost", rm.Score, root[0].Score)
		}
	}
}

// TestEasyOverlooksThreats: a knight attacked by a pawn must move. Easy
// overlooks the threat now and then, as a beginner does, but not most of
// the time; Medium and Hard never do.
func TestEasyOverlooksThreats(t *testing.T) {
	p := mustFEN(t, "4k3/8/3p4/4N3/8/8/PPP5/4K3 w - - 0 1")
	const seeds = 60
	for l := Easy; l <= Hard; l++ {
		left := 0
		for seed := range uint64(seeds) {
			m, err := New(l, seed).Move(context.Background(), p, nil, Clock{})
			if err != nil {
				t.Fatal(err)
			}
			if m.From().String() != "e5" {
				left++
			}
		}
		switch {
		case l == Easy && (left == 0 || left > seeds/2):
			t.Errorf("Easy left the knight en prise with %d seeds of %d, want some but under half", left, seeds)
		case l != Easy && left > 0:
			t.Errorf("%s left the knight en prise with %d seeds of %d, want none", l, left, seeds)
		}
	}
}
