package views

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"testing"
	"time"

	kgzip "github.com/klauspost/compress/gzip"

	"satranc/engine/account"
	"satranc/engine/chess"
	"satranc/engine/clock"
	"satranc/engine/game"
	"satranc/engine/play"
)

// benchSnapshot is a live 3+2 game after 30 plies of an ordinary opening,
// as a stream renders it after a move.
func benchSnapshot(tb testing.TB) play.Snapshot {
	tb.Helper()
	snap := play.Snapshot{ID: 7, Kind: play.Private, Start: chess.StartPosition(), White: game.Human(1), Black: game.Human(2),
		Status: game.Active, Control: clock.Control{Initial: 3 * time.Minute, Increment: 2 * time.Second}}
	p := snap.Start
	for _, uci := range []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7",
		"f1e1", "b7b5", "a4b3", "d7d6", "c2c3", "e8g8", "h2h3", "c6b8", "d2d4", "b8d7",
		"c3c4", "c7c6", "c4b5", "a6b5", "b1c3", "c8b7", "c1g5", "b5b4", "c3b1", "h7h6"} {
		m, err := p.ParseUCI(uci)
		if err != nil {
			tb.Fatal(err)
		}
		snap.Moves = append(snap.Moves, game.MoveRecord{Move: m})
		p = p.Play(m)
	}
	snap.Position, snap.Ply = p, len(snap.Moves)
	snap.Clocks = game.Clocks{Timed: true, Running: true, Side: p.SideToMove(), White: 95 * time.Second, Black: 101 * time.Second}
	return snap
}

// BenchmarkGamePanel is what a player's stream does after each move: the
// view of the snapshot and the panel's HTML.
func BenchmarkGamePanel(b *testing.B) {
	snap := benchSnapshot(b)
	loc := LocaleFrom(ctxIn("en"))
	loc.Texts = NewTexts(loc.Localizer) // as the handlers' requests have
	ctx := WithLocale(context.Background(), loc)
	in := GameViewInput{Viewer: 1, Names: map[int64]string{1: "alice", 2: "bob"}, Letters: chess.English, Now: time.Now()}
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := GamePanel(viewOf(NewGameView(snap, in))).Render(ctx, &buf); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "bytes/panel")
}

// benchGamePage is what a player's game page is made from: the request's
// context (the player, the language, the page's path), the game's
// snapshot and the view's input.
func benchGamePage(tb testing.TB) (context.Context, play.Snapshot, GameViewInput) {
	tb.Helper()
	loc := LocaleFrom(ctxIn("en"))
	loc.Texts = NewTexts(loc.Localizer)
	loc.Here = "/games/7"
	ctx := WithUser(WithLocale(context.Background(), loc), account.User{ID: 1, Name: "alice"})
	in := GameViewInput{Viewer: 1, Names: map[int64]string{1: "alice", 2: "bob"}, Letters: chess.English, Now: time.Now()}
	return ctx, benchSnapshot(tb), in
}

// BenchmarkGamePage is a player's game page as the site serves it when a
// game starts or is reloaded: the view of the snapshot and the whole
// page's HTML, layout and templates included.
func BenchmarkGamePage(b *testing.B) {
	ctx, snap, in := benchGamePage(b)
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := GamePage(NewGameView(snap, in), nil).Render(ctx, &buf); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "bytes/page")
}

// BenchmarkGamePageGzip compresses a player's game page (the page of
// BenchmarkGamePage) with the gzip the site compresses pages with,
// klauspost/compress's, at the site's level 6 (handlers/gzip_writers.go)
// and its faster levels, and with the standard library's at the level the
// site used before (4) and at its default (6), reporting the compressed
// size: what a level costs a page view in CPU against what it saves on
// the wire (docs/performance.md, "Compression").
func BenchmarkGamePageGzip(b *testing.B) {
	ctx, snap, in := benchGamePage(b)
	var page bytes.Buffer
	if err := GamePage(NewGameView(snap, in), nil).Render(ctx, &page); err != nil {
		b.Fatal(err)
	}
	type compressor interface {
		io.WriteCloser
		Reset(io.Writer)
	}
	for _, c := range []struct {
		name string
		new  func(w io.Writer) (compressor, error)
	}{
		{"klauspost=1", func(w io.Writer) (compressor, error) { return kgzip.NewWriterLevel(w, kgzip.BestSpeed) }},
		{"klauspost=4", func(w io.Writer) (compressor, error) { return kgzip.NewWriterLevel(w, 4) }},
		{"klauspost=6", func(w io.Writer) (compressor, error) { return kgzip.NewWriterLevel(w, 6) }},
		{"std=4", func(w io.Writer) (compressor, error) { return gzip.NewWriterLevel(w, 4) }},
		{"std=6", func(w io.Writer) (compressor, error) { return gzip.NewWriterLevel(w, gzip.DefaultCompression) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			var out bytes.Buffer
			zw, err := c.new(&out)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				out.Reset()
				zw.Reset(&out)
				if _, err := zw.Write(page.Bytes()); err != nil {
					b.Fatal(err)
				}
				if err := zw.Close(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(page.Len()), "bytes/page")
			b.ReportMetric(float64(out.Len()), "gzip-bytes/page")
		})
	}
}

// BenchmarkMoveDelta is what a player's stream does after each move when
// its page asked for deltas: the view of the snapshot, the delta from the
// previous panel's mark, and the delta's HTML.
func BenchmarkMoveDelta(b *testing.B) {
	snap := benchSnapshot(b)
	prev := snap
	prev.Moves = snap.Moves[:len(snap.Moves)-1]
	prev.Ply = len(prev.Moves)
	prev.Position = prev.Start
	for _, m := range prev.Moves {
		prev.Position = prev.Position.Play(m.Move)
	}
	loc := LocaleFrom(ctxIn("en"))
	loc.Texts = NewTexts(loc.Localizer)
	ctx := WithLocale(context.Background(), loc)
	in := GameViewInput{Viewer: 1, Names: map[int64]string{1: "alice", 2: "bob"}, Letters: chess.English, Now: time.Now()}
	mark := NewGameView(prev, in).Mark()
	// The game's streams share its moves in SAN (handlers/game_san.go).
	in.SAN = snap.SAN(chess.English)
	var buf bytes.Buffer
	pd := new(PanelDelta) // the stream's come from a pool
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		d, ok := NewPanelDelta(mark, NewGameView(snap, in))
		if !ok {
			b.Fatal("no delta")
		}
		*pd = d
		if err := MoveDelta(pd).Render(ctx, &buf); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "bytes/delta")
}
