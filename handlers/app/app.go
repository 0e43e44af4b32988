// Package app assembles the Satranç server from its parts: the store, the
// engine's services, the handlers, the background loops and the
// listeners, and shuts it down in order. Package main parses the flags of
// `satranc serve` into a Config and calls Run (as wtf's cmd/wtfd Main).
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"runtime"
	"time"

	"satranc/engine/account"
	"satranc/engine/bot"
	"satranc/engine/cosmetics"
	"satranc/engine/live"
	"satranc/engine/lobby"
	"satranc/engine/opening"
	"satranc/engine/play"
	"satranc/engine/tourney"
	"satranc/handlers"
	"satranc/handlers/cluster"
	"satranc/handlers/tlsserve"
	"satranc/locales"
	"satranc/store"
	"satranc/store/postgres"
)

// shutdownTimeout bounds how long a shutdown waits for requests in flight.
const shutdownTimeout = 10 * time.Second

// Config is the configuration of the server (the flags of `satranc
// serve`).
type Config struct {
	Addr      string             // listen address
	TLS       tlsserve.Config    // HTTPS, and its redirect listener: TLS and HTTPAddr (flags in satranc serve)
	DBPath    string             // SQLite file, or a postgres:// URL
	AuthLimit handlers.RateLimit // log-in and sign-up attempts per client address
	// H2C serves HTTP/2 without TLS beside HTTP/1.1 on a plain listener,
	// for a reverse proxy that speaks it (handlers.ServeH2C); not with TLS.
	H2C       bool
	Support   string // support contact shown in the footer
	DebugAddr string // pprof and metrics listener; "" for none
	// DisconnectGrace is how long a player who lost the connection has to
	// come back (SPEC section 8: 45 s; tests shorten it).
	DisconnectGrace time.Duration
	// FirstMoveTime is how long each player of a timed game has for their
	// first move (SPEC section 4: game.DefaultFirstMoveTime; tests
	// shorten it).
	FirstMoveTime time.Duration
	// SignupGrant and DailyBonus are the chips of the sign-up grant and the
	// daily bonus (SPEC section 5; defaults in engine/chips and the README).
	SignupGrant, DailyBonus int64
	// Proxies are the reverse proxies whose forwarding headers are
	// believed; BaseURL is the site's public address (nil: as reached).
	Proxies handlers.TrustedProxies
	BaseURL *url.URL
	// InviteExpiry is how long a private game's invitation stays open
	// before the game is cancelled (play.DefaultInviteExpiry: a day).
	InviteExpiry time.Duration
	// BotFillAfter is how long a player waits at a public table before
	// the nearest-rated player waiting there, or if none a bot, takes the
	// empty seat (SPEC section 6: about 6 s).
	BotFillAfter time.Duration
	// ICEServers are the STUN and TURN servers of voice chat; none by
	// default (see handlers.ParseICEServers).
	ICEServers []handlers.ICEServer
	// TimeZone is where the tournaments' days and weeks begin; Prizes is
	// the prize table (tourney.DefaultPrizes unless --prizes names a file).
	TimeZone *time.Location
	Prizes   tourney.Prizes
	// NodeAddr is where the other nodes of a cluster reach this one; nil:
	// a single node (handlers/cluster).
	NodeAddr *url.URL
	// NATSURL is the NATS server carrying the live games' events and the
	// ends of games between the nodes; "": none (handlers/cluster).
	NATSURL string
	// AdminUser names an account made an administrator at start, if it
	// exists; "" for none.
	AdminUser string
	// LagCompensation gives players back the measured network time of
	// their moves, within bounds (handlers.Config.LagCompensation).
	LagCompensation bool
	// StreamLimits caps the event streams open at once (0: defaults;
	// negative: no cap); a Total of 0 is derived from the process's
	// descriptor limit (handlers.StreamTotalFor).
	StreamLimits handlers.StreamLimits
	// Version is the build's version, shown in the footer and the
	// metrics.
	Version string
	// Logger receives the server's log.
	Logger *slog.Logger
}

// Run opens the store, recovers the unfinished games, starts the
// background loops (lobby, tournament payouts, voids made by another
// process), listens and serves until ctx is done, then shuts down
// gracefully: the requests and streams first, then the lobby, the games
// and the store.
func Run(ctx context.Context, cfg Config) (err error) {
	logger := cfg.Logger
	logger.Info("garbage collector", "gogc", tuneGC(os.Getenv))
	logger.Info("processors", "gomaxprocs", tuneProcs(os.Getenv), "cpus", runtime.NumCPU())
	go opening.Preload() // beside the store's opening: the first game does not wait for the book
	st, pg, err := OpenStore(ctx, cfg.DBPath)
	if err != nil {
		return err
	}
	if cfg.NodeAddr != nil && pg == nil {
		return fmt.Errorf("--node-addr: the nodes of a cluster share one PostgreSQL database (--db postgres://...), not %s", cfg.DBPath)
	}
	st.SignupGrant, st.DailyBonus = cfg.SignupGrant, cfg.DailyBonus
	defer func() {
		if cerr := st.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}()

	if err := promoteAdmin(ctx, st, cfg.AdminUser, logger); err != nil {
		return err
	}

	bundle, err := locales.NewBundle()
	if err != nil {
		return err
	}
	accounts, err := account.NewService(st, account.NewHasher(account.DefaultParams), account.SessionTTL)
	if err != nil {
		return err
	}
	var cl *cluster.Node
	if cfg.NodeAddr != nil {
		if cl, err = cluster.Join(ctx, pg, cfg.NodeAddr, logger); err != nil {
			return err
		}
		defer cl.Release(context.WithoutCancel(ctx)) // after the games' writers stopped (defers run last first)
		logger.Info("cluster node", "node", cl.ID(), "addr", cfg.NodeAddr.String())
	}
	hub := live.New[int64, *play.Event](0)
	var b *cluster.Bus
	var feeds handlers.GameFeeds
	if cfg.NATSURL != "" {
		if b, err = cluster.Connect(ctx, cfg.NATSURL, cl, hub, logger); err != nil {
			return err
		}
		defer b.Close()
		feeds = b.Feeds()
	}
	var port play.Cluster // nil: a single node
	if cl != nil {
		port = cluster.NewPort(cl, b)
	}
	searches := bot.NewPool(0) // at most one search per core, for every game
	games := play.New(play.Config{
		Hub:             hub,
		Cluster:         port,
		Store:           st,
		Bots:            botFactory(searches),
		PublicBots:      publicBotFactory(searches),
		DisconnectGrace: cfg.DisconnectGrace,
		FirstMoveTime:   cfg.FirstMoveTime,
		InviteExpiry:    cfg.InviteExpiry,
		Logger:          logger,
	})
	defer games.Close()
	if b != nil {
		if err := b.ServeGames(ctx, games); err != nil {
			return err
		}
	}
	if cl != nil {
		renewCtx, stopRenew := context.WithCancel(ctx)
		renewDone := make(chan struct{})
		go func() { cl.Renew(renewCtx); close(renewDone) }()
		defer func() { stopRenew(); <-renewDone }()
	}
	if n, err := games.Recover(ctx); err != nil {
		return fmt.Errorf("recover games: %w", err)
	} else if n > 0 {
		logger.Info("resumed unfinished games", "games", n)
	}
	// Tournament prizes: the periods that ended while the server was down
	// are paid now, then each one as it ends (after the games are back,
	// so that a recovered game's end is in the standings).
	tourneys := tourney.New(tourney.Config{Store: st, Location: cfg.TimeZone, Prizes: cfg.Prizes, Logger: logger})
	payCtx, stopPayouts := context.WithCancel(ctx)
	payDone := make(chan struct{})
	go func() { tourneys.Run(payCtx); close(payDone) }()
	defer func() { stopPayouts(); <-payDone }()
	// Voids made by `satranc admin void` reach the open standings pages
	// through the database (the pages' own are announced at once too).
	defer watchVoids(ctx, st, games, logger)()
	// The lobby stops before the games (defers run last first), so that
	// no game is created for a service that is closing.
	lb := lobby.New(lobby.Config{Games: games, Players: st, Balances: st, BotFillAfter: cfg.BotFillAfter, Logger: logger})
	lobbyCtx, stopLobby := context.WithCancel(ctx)
	lobbyDone := make(chan struct{})
	go func() { lb.Run(lobbyCtx); close(lobbyDone) }()
	defer func() { stopLobby(); <-lobbyDone }()
	streamLimits := cfg.StreamLimits
	nofile := descriptorLimit()
	if streamLimits.Total == 0 {
		streamLimits.Total = handlers.StreamTotalFor(nofile)
	}
	streamLimits = streamLimits.Resolved()
	logger.Info("event stream limits", "per_member", streamLimits.PerMember, "per_address", streamLimits.PerAddress,
		"total", streamLimits.Total, "descriptor_limit", nofile) // negative: no cap
	metrics := handlers.NewMetrics(handlers.MetricsConfig{Version: cfg.Version, LiveGames: games.LiveGames,
		BotSearches: searches.Stats, StoreErrors: st.Errors})
	h := handlers.New(handlers.Config{
		Logger:         logger,
		DB:             st,
		Accounts:       accounts,
		Bundle:         bundle,
		AuthLimit:      cfg.AuthLimit,
		SupportContact: cfg.Support,
		Version:        cfg.Version,
		Metrics:        metrics,
		Games:          games,
		Chat:           games,
		Voice:          games,
		Users:          st,
		Lobby:          lb,
		Bonus:          st,
		Leaderboard:    st,
		Profiles:       st,
		Cosmetics:      cosmetics.NewService(st),
		TrustedProxies: cfg.Proxies,
		BaseURL:        cfg.BaseURL,
		ICEServers:     cfg.ICEServers,
		Tournaments:    tourneys,
		Owners:         cl.Owners(),
		Feeds:          feeds,
		Admin:          st,
		Reports:        st,
		Settlements:    st,
		Voided:         games,
		InPlay:         st,
		// The rules page tells the grace and first-move time the games
		// run with.
		DisconnectGrace: cfg.DisconnectGrace,
		FirstMoveTime:   cfg.FirstMoveTime,
		LagCompensation: cfg.LagCompensation,
		StreamLimits:    streamLimits,
	})

	// Shutdown cancels the requests' contexts at once, which ends the
	// event streams (handlers.NewServer; Handler.ShutdownServer for the
	// spectators' streams taken out of net/http).
	srv := handlers.NewServer(cfg.Addr, h.Routes(), logger)
	if cfg.H2C {
		if err := handlers.ServeH2C(srv); err != nil {
			return err
		}
	}
	// With TLS, HTTPS and a plain HTTP listener redirecting to it
	// (handlers/tlsserve).
	site, err := tlsserve.Listen(ctx, tlsserve.Config{Addr: cfg.Addr, TLS: cfg.TLS.TLS, HTTPAddr: cfg.TLS.HTTPAddr,
		BaseURL: cfg.BaseURL, Logger: logger}, srv)
	if err != nil {
		return err
	}
	site.Log("db", postgres.Redacted(cfg.DBPath))
	if cfg.DebugAddr != "" {
		stopDebug, err := startDebugServer(cfg.DebugAddr, handlers.DebugRoutes(metrics), logger)
		if err != nil {
			site.Close()
			return err
		}
		defer stopDebug()
	}

	errc := site.Serve()
	select {
	case err := <-errc:
		site.Close()
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}

	logger.Info("shutting down")
	shutCtx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	// The spectators' streams that run outside net/http end and are
	// waited for too, before the games close.
	if err := h.ShutdownServer(shutCtx, srv); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := site.Shutdown(shutCtx); err != nil {
		return err
	}
	logger.Info("stopped")
	return nil
}

// OpenStore opens the database db names (the --db setting of serve and
// admin): a PostgreSQL database for a postgres:// URL (pg is then the same
// store, with the cluster's leases), else the SQLite file.
func OpenStore(ctx context.Context, db string) (st *store.Store, pg *postgres.Store, err error) {
	if postgres.IsURL(db) {
		pg, err = postgres.Open(ctx, db)
		if err != nil {
			return nil, nil, err
		}
		return pg.Store, pg, nil
	}
	st, err = store.Open(ctx, db)
	return st, nil, err
}

// promoteAdmin makes the account name an administrator (serve
// --admin-user). An account that does not exist yet is only logged: the
// server starts all the same, and the next start promotes it once it has
// signed up.
func promoteAdmin(ctx context.Context, st *store.Store, name string, logger *slog.Logger) error {
	if name == "" {
		return nil
	}
	err := st.SetAdmin(ctx, name, true)
	switch {
	case errors.Is(err, store.ErrNotFound):
		logger.Warn("--admin-user: no such account yet", "user", name)
		return nil
	case err != nil:
		return fmt.Errorf("--admin-user: %w", err)
	}
	logger.Info("administrator", "user", name)
	return nil
}
