// Package loadtest is the site's load driver: an HTTP and SSE client of the
// pages that package handlers serves, playing many private games between
// simulated players against a running server, as `satranc loadtest` does.
//
// Each simulated player is a browser with its own cookie jar: it signs up
// (or reuses a saved session), creates or joins a private game by its invite
// link, keeps the game's event stream open, and posts a random legal move
// (engine/chess) as htmx does, with the latest lag ping the stream sent
// (as the game page does, for lag compensation). The driver measures the
// time from a move's POST to the opponent's stream event of the new ply,
// counts failures by kind, and samples the server's memory and goroutines
// from its /metrics:
//
//	res, err := loadtest.Run(ctx, loadtest.Config{Base: "http://127.0.0.1:8080", Games: 10,
//		Duration: time.Minute, Think: time.Second, Every: 10 * time.Second, MaxPly: 120, Setup: 4}, os.Stdout)
//
// The driver reads the pages it needs the way a browser would, by their
// data-testid and data-* attributes (views/game.templ), so a change to those
// pages breaks its tests here rather than a load run.
//
// The driver reads HTML with the tokenizer of golang.org/x/net/html
// (readPage), as far as the attributes it needs, without building a
// document: parsing each new game's pages into a tree (goquery, as the
// driver once did) was a fifth of the driver's own CPU at 1,000 games,
// CPU that the server shares when both run on one machine. The tokenizer
// and this package are compiled into the satranc binary while loadtest
// stays one of its subcommands. Leaving loadtest out of the server,
// behind a build tag or as a second command under cmd/, would save that
// at the price of a second binary to build, version and ship to the
// machine the load is driven from, which today is the one binary
// operators already have. The top level of the repository is fixed and
// the subcommand is documented, so it stays; the driver depends on
// nothing of the server but the shape of its pages (and views.EventGame),
// so moving it later is a new main package calling Run.
package loadtest
